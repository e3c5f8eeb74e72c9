/**
 * Text from outside Retrace (a report, a run's output, a log, a test id, a model's words, a patch) in the markdown
 * Retrace writes to GitHub (the reproduction comment, the draft PR body, the tracking comment): never rendered, and
 * nothing in it hidden from the maintainer who reads it. Pure.
 */
import {
  BIDI,
  BLANK_LETTERS,
  CONTROLS,
  OTHER_INVISIBLE,
  SEPARATORS,
  TAGS,
  ZERO_WIDTH,
} from "../core/hidden-characters.ts";

/**
 * Characters a reader cannot see or that reorder what they see: C0 controls but tab and newline, DEL, C1, bidi
 * controls and isolates, zero-width and invisible format characters, the BOM, line and paragraph separators,
 * Unicode tag characters (invisible text) and letters that render as nothing (Hangul fillers, the soft hyphen). Trojan Source (CVE-2021-42574) hides code with the bidi ones.
 */
const HIDDEN = new RegExp(
  `[${CONTROLS}${BIDI}${SEPARATORS}${ZERO_WIDTH}${BLANK_LETTERS}${TAGS}${OTHER_INVISIBLE}]`,
  "gu",
);

/**
 * Six or more combining marks in a row: more than any script stacks on a letter ("Zalgo" text, drawn over the lines
 * above and below, hiding what it covers; wave 20). The policy gate refuses them in a patch; here they are shown.
 */
const STACKED_MARKS = /\p{M}{6,}/gu;

/**
 * `text` with every hidden character, and every mark of a run stacked past what any script writes, written as a
 * visible `\u{…}` escape (tab and newline stay).
 */
export function visible(text: string): string {
  return text
    .replace(HIDDEN, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)
    .replace(STACKED_MARKS, (run) => [...run].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join(""));
}

/** A fenced block longer than any backtick run inside (hostile text cannot close it early), hidden characters shown. */
export function fence(text: string, lang = ""): string {
  const shown = visible(text.replace(/\r\n/g, "\n"));
  let longest = 2;
  for (const m of shown.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = "`".repeat(longest + 1);
  return `${f}${lang}\n${shown.replace(/\s+$/, "")}\n${f}`;
}

/**
 * Outside text as one inline code span, whatever it holds: hidden characters (a newline would end the span and
 * start a heading or an HTML comment) as `\u{…}` escapes; the span's backticks outnumber any run inside, so a
 * backtick in the text cannot close it (the text then cannot mention, link or hide the rest of the body).
 */
export function code(text: string): string {
  const shown = visible(text).replace(/[\n\t]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
  let longest = 0;
  for (const m of shown.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = "`".repeat(longest + 1);
  const pad = shown.startsWith("`") || shown.endsWith("`") || shown === "" ? " " : "";
  return `${f}${pad}${shown}${pad}${f}`;
}

/**
 * Directives CI services read anywhere in a head commit's message as "do not run": GitHub Actions' `[skip ci]`,
 * `[ci skip]`, `[no ci]`, `[skip actions]`, `[actions skip]`, and the like of other services (`[skip travis]`,
 * `[circle skip]`, `[skip azurepipelines]`, `***NO_CI***`). A draft PR whose commit carries one runs no CI, so a
 * reviewer sees no failing check on a change no CI ran.
 */
const CI_SKIP = /\[(\s*(?:skip|no)\s+[\w-]+\s*|\s*[\w-]+\s+skip\s*)\]|\*\*\*NO_CI\*\*\*/gi;

/**
 * Outside text (a model's summary, a log's test ids) in a commit message or a PR title Retrace writes: hidden
 * characters shown as `\u{…}` (a title or `git log` shows them raw) and CI-skip directives written with parentheses
 * (`(skip ci)`), which no CI reads. Pure.
 */
export function commitText(text: string): string {
  return visible(text).replace(CI_SKIP, (_match, inner: string | undefined) =>
    inner === undefined ? "NO_CI" : `(${inner.trim()})`,
  );
}
