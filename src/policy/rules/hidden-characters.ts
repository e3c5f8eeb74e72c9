/**
 * hidden-characters: a patch whose added lines or paths hold characters a reviewer cannot see or that make text
 * read otherwise than it is — bidi controls and isolates (Trojan Source, CVE-2021-42574: a comment that reads as
 * code, a string that reads as a condition), zero-width and invisible format characters (an identifier that looks
 * like another), Unicode tag characters (invisible text) — and paths with confusable names: a segment mixing Latin
 * with Cyrillic or Greek letters in one word (`src/іndex.js` beside `src/index.js`; `docs/документ.md` is no mix), or a
 * character that looks like `/` or `.`. Zero-width joiners between two non-ASCII characters are writing (Persian,
 * Indic scripts, emoji sequences) and allowed; touching ASCII they are hidden.
 * A model steered by a report or log can write any of them; a verified patch must read as it runs.
 */
import { BIDI, TAGS, ZERO_WIDTH } from "../../core/hidden-characters.ts";
import type { Rule, Violation } from "../types.ts";

const HIDDEN = new RegExp(`[${BIDI}${ZERO_WIDTH}${TAGS}]`, "u");
/** Characters drawn like a path separator or a dot. */
const LOOKALIKE_SEPARATOR = /[\u2215\u2044\u29f8\uff0f\u2024\uff0e\u3002\u2027\uff3c\u29f5\u2216]/u;

const describe = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");
/** Zero-width (non-)joiners: part of how Persian, Arabic and Indic words and emoji sequences are written. */
const JOINERS = new Set(["\u200c", "\u200d"]);

function hiddenIn(text: string): string | null {
  if (!HIDDEN.test(text)) return null;
  for (const m of text.matchAll(HIDDEN_ALL)) {
    const c = m[0];
    // A joiner between two non-ASCII characters writes a word or an emoji (`می‌خواهم`, a family emoji); one
    // touching ASCII (`ad\u200dmin`) makes an identifier or a word look like another.
    if (JOINERS.has(c)) {
      const before = text.codePointAt(m.index - 1) ?? 0;
      const after = text.codePointAt(m.index + 1) ?? 0;
      if (m.index > 0 && before >= 0x80 && after >= 0x80 && !HIDDEN.test(text[m.index + 1]!)) continue;
    }
    return describe(c);
  }
  return null;
}

function confusablePath(p: string): string | null {
  const hidden = hiddenIn(p);
  if (hidden) return `a hidden character (${hidden})`;
  const sep = LOOKALIKE_SEPARATOR.exec(p);
  if (sep) return `a character drawn like a separator or a dot (${describe(sep[0])})`;
  // Word by word: `документ.md` and `λ-calculus.md` name files in a script of their own; `іndex.js` hides one.
  for (const word of p.split(/[/._\-\s]+/)) {
    if (/\p{Script=Latin}/u.test(word) && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(word))
      return `a name mixing Latin with Cyrillic or Greek letters (\`${word}\`)`;
  }
  return null;
}

export const hiddenCharacters: Rule = {
  id: "hidden-characters",
  enabled: () => true,
  check({ patch }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      for (const p of new Set([file.path, file.oldPath].filter((x): x is string => typeof x === "string"))) {
        const why = confusablePath(p);
        if (why)
          out.push({ rule: "hidden-characters", file: p, line: null, message: `the path holds ${why}` });
      }
      for (const h of file.hunks) {
        for (const l of h.lines) {
          if (l.kind !== "add") continue;
          const c = hiddenIn(l.text);
          if (c) {
            out.push({
              rule: "hidden-characters",
              file: file.path,
              line: l.newLine,
              message: `an added line holds ${c}, a character a reviewer cannot see or that reorders the line`,
            });
            break;
          }
        }
      }
    }
    return out;
  },
};
