/**
 * Parse an issue (markdown: `# title`, then the body) with a real markdown parser (mdast + GFM):
 * fenced blocks and what they are, the section each sits in ("Expected", "Actual", ...), the prose,
 * inline code, and the versions and runtime the report names.
 */
import { dollarAsNode } from "./dollar-session.ts";
import type { Code, Heading, InlineCode, Nodes, Paragraph, Root, RootContent } from "mdast";
import { pythonInPage } from "./page-script.ts";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { annotate, type Check, isComparison, looksLikeValue } from "./annotations.ts";
import { type BlockKind, classifyBlock, inspectorDump, withoutLogPrefix } from "./classify-block.ts";
import { languageFromFence } from "./detect-language.ts";
import { NPM_GLOBALS } from "./known-modules.ts";
import {
  codeLine,
  inlineStatementLines,
  plainCodeRuns,
  plainLanguage,
  unescapeMarkdown,
  wholeBlockIsCode,
} from "./plain-code.ts";
import {
  clauseBefore,
  DOCUMENTED_OR_FORMER,
  literalItems,
  printedLabels,
  proseClaims,
  templateCall,
} from "./prose-claims.ts";
import { correctedComments } from "./corrected-comment.ts";
import { parseShellSession, promptlessPrograms, type ShellRun, sessionFiles } from "./shell-session.ts";
import { angleAsPycon } from "./angle-prompt.ts";
import { angleAsNode, tickedLines } from "./node-prompt.ts";
import { fancyPromptAsDollar, glyphPromptAsDollar } from "./fancy-prompt.ts";
import { coffeeAsNode, ipythonAsPycon, promptlessAsNode, splitSessions } from "./transcript.ts";
import { installedPackageNames } from "./package-cli.ts";
import { goodVersionLead } from "./good-version-lead.ts";
import { referenceLead } from "./reference-lead.ts";
import { proseAround, wantedAround } from "./want-around.ts";
import { conditionalLead, noRaiseComment } from "./conditional-error.ts";
import type { BlockLanguage } from "./detect-language.ts";
import {
  findBareVersions,
  findRuntimeMention,
  findVersionMentions,
  type RuntimeMention,
  type VersionMention,
} from "./versions.ts";

/** A line typed at a prompt (`$ `, `% `): the block is a session, read by parseShellSession. */
const PROMPTED = /^[ \t]*(?:[\w@.~:/[\]-]*[ \t]*)?[$%][ \t]/m;

export type SectionKind = "expected" | "actual" | "steps" | "environment" | "other";

export interface ReportBlock {
  /** Position among the report's fenced blocks. */
  index: number;
  /** The fence info string as written (null when none). */
  fence: string | null;
  value: string;
  kind: BlockKind;
  language: BlockLanguage;
  section: SectionKind;
  /** A file name the report gives the block ("`utils.py`:" just before it, or a first-line comment). */
  filename: string | null;
  /** 1-based line of the block in the markdown. */
  line: number;
  /** Outputs and errors stated in comments next to the code (`// => 1`, `# raises ValueError`). */
  checks: Check[];
  /** The code to run: annotated expression lines echo their value; `value` otherwise. */
  runValue: string;
  /** True when `runValue` calls the echo helper. */
  usesEcho: boolean;
  /** Code pasted without a fence (lines of a paragraph that read as code). */
  plain: boolean;
  /** The prose just before the block ("Under Node:", "Python 3.10:"), when there is some. */
  lead: string | null;
  /** For code taken from a shell session (`$ python3 -c '…'`): the invocation and what it printed. */
  shellRun: ShellRun | null;
  /** Code Retrace wrote from the report's words (not the reporter's own), with the words it stands for. */
  madeFrom?: string;
  /** An output its version label places on the good side of a regression: what it is, in words (good-version-lead.ts). */
  goodSide?: string;
}

export interface ParsedReport {
  title: string;
  blocks: ReportBlock[];
  /** Prose per section (paragraphs, list items, quotes), code excluded. */
  prose: Record<SectionKind, string>;
  /** Prose paragraphs with inline code kept in backticks (for "I get `x` but expected `y`"), code blocks excluded. */
  proseWithCode: string;
  /** Inline code spans with their section. */
  inlineCode: { value: string; section: SectionKind; context: string }[];
  /** Package versions mentioned anywhere (prose, inline code, version listings, shell blocks). */
  versions: VersionMention[];
  /** "version 1.2.3" with no package name. */
  bareVersions: string[];
  runtime: RuntimeMention | null;
}

const SECTION_PATTERNS: [SectionKind, RegExp][] = [
  // Issue templates and reporters word these many ways: "What should happen", "What I expected", "Intended
  // behaviour", "What is the expected result?"; "What happens instead", "What I get", "What is the current output?".
  [
    "expected",
    /^(expected|what (?:(?:did|do) )?(?:you|i|we) expect(?:ed)?|what (?:should|ought to|is supposed to) (?:happen|be)|what (?:i|we) (?:hope|hoped|wish|wished|would like) to (?:get|see|have|happen)|what is (?:the )?(?:expected|desired|correct|intended)|should|desired|correct|intended|wanted|ideal(?:ly)?)\b/i,
  ],
  [
    "actual",
    /^(actual|observed|current|what (actually )?happen|what (is|went) wrong|what (?:i|we) (?:see|saw|get|got|observe)|what is (?:the )?(?:current|actual)|result|error|output|traceback|stack ?trace|instead|got\b|received\b)/i,
  ],
  ["steps", /^(steps|to reproduce|reproduc|minimal|example|code|snippet|repro|how to)/i],
  [
    "environment",
    /^(environment|versions?|system|platform|setup|env\b|dependencies|additional (context|info))/i,
  ],
];

function sectionOf(label: string): SectionKind | null {
  // Issue templates put an emoji or a symbol before the words ("### ✔️ Expected result", "## 📝 Steps").
  const text = label
    .replace(/：/g, ":")
    .trim()
    .replace(/^[^\p{L}\p{N}]+/u, "");
  for (const [kind, re] of SECTION_PATTERNS) if (re.test(text)) return kind;
  return null;
}

function textOf(node: Nodes): string {
  if (node.type === "text" || node.type === "inlineCode") return node.value;
  if (node.type === "code") return "";
  if (node.type === "break") return "\n";
  if ("children" in node) {
    const sep = node.type === "list" || node.type === "blockquote" || node.type === "listItem" ? "\n" : "";
    return (node.children as Nodes[]).map(textOf).join(sep);
  }
  return "";
}

/**
 * "I would expect `hash(a) === hash(b)`." — a comparison the prose says it expects to hold: the value wanted is
 * `true`, so the reported one is `false` (a comparison has no third value). Not when the sentence goes on to say it
 * should not hold or names another value (`… to be false`, `… not to …`), nor for a comparison stated without an
 * expectation (`` `a === b` is true ``). The checks for the block that runs it; null otherwise (issue 12, hold26).
 */
function expectedComparison(sentence: string, span: string, b: ReportBlock): Check[] | null {
  if (b.language !== "javascript" || b.checks.length > 0 || !b.usesEcho || !isComparison(span.trim()))
    return null;
  const at = sentence.indexOf(`\`${span}\``);
  if (at < 0) return null;
  const before =
    sentence
      .slice(0, at)
      .split(/[.!?](?:\s|$)/)
      .pop() ?? "";
  const after = (sentence.slice(at + span.length + 2).split(/[.!?](?:\s|$)/)[0] ?? "").trim();
  if (
    !/\b(?:(?:i|we)\s+(?:would\s+|'d\s+)?(?:expect(?:ed)?|assume[ds]?)|expected|expecting)\s*:?\s*(?:that\s+)?$/i.test(
      before,
    )
  )
    return null;
  if (after !== "" && !/^(?:to\s+(?:be\s+)?(?:true|hold)|instead|here|too)$/i.test(after)) return null;
  const code = span.trim();
  return [
    { line: 1, code, role: "actual", kind: "output", value: "false", flagged: false },
    { line: 1, code, role: "expected", kind: "output", value: "true", flagged: false },
  ];
}

function textWithTicks(node: Nodes): string {
  if (node.type === "inlineCode") return `\`${node.value}\``;
  if (node.type === "text") return node.value;
  if (node.type === "code") return "";
  if (node.type === "break") return "\n";
  if ("children" in node) return (node.children as Nodes[]).map(textWithTicks).join("");
  return "";
}

function collectInline(node: Nodes, out: string[]): void {
  if (node.type === "inlineCode") out.push((node as InlineCode).value);
  else if ("children" in node) for (const c of node.children as Nodes[]) collectInline(c, out);
}

/** The label of a paragraph that is only a label (`Result:`, `**output：**`, stray `**` around it); null otherwise. */
function labelOnly(p: Paragraph): string | null {
  const text = textOf(p)
    .replace(/：/g, ":")
    .replace(/[*_\s]+/g, " ")
    .trim();
  return /^[A-Za-z][\w ]{1,40}:$/.test(text) ? text : null;
}

/** A paragraph that opens a section: "**Expected:** ...", "Actual behaviour:", "Expected output". */
function paragraphSection(p: Paragraph): SectionKind | null {
  const first = p.children[0];
  if (!first) return null;
  // "Expected `2`, but I get:" — a paragraph that ends by introducing what happens opens the Actual section.
  const whole = textOf(p).trim();
  if (
    /:\s*$/.test(whole) &&
    /\b(but|instead|however|yet)\b[^.:]*\b(get|got|see|saw|receive[ds]?|returns?|prints?|gives?|shows?|outputs?|results?)\b[^.]*:\s*$/i.test(
      whole,
    )
  )
    return "actual";
  // "When it ought to print:", "It should return:", "I expect it to behave the same as the expression:" — a lead that introduces what should happen (and names no
  // contrast: "should print X but prints:" is the rule above) opens the Expected section.
  if (
    whole.length <= 120 &&
    /:\s*$/.test(whole) &&
    !/\b(but|instead|however|yet)\b/i.test(whole) &&
    /\b(?:should|ought to|is supposed to|are supposed to|(?:i|we) (?:would )?expect(?:ed)? (?:it|this|that|them) to|want(?:ed)? (?:it|this|that|them) to)\s+(?:(?:have|be)\s+)?(?:print|return|output|give|show|produce|log|say|read|be|get|behave|work|act)(?:s|ed)?\b[^.]*:\s*$/i.test(
      whole,
    )
  )
    return "expected";
  if (first.type === "strong" || first.type === "emphasis") return sectionOf(textOf(first));
  // `**\n**result：**\n**`: emphasis markers left over around a label on a line of its own.
  const label = labelOnly(p);
  if (label) return sectionOf(label);
  const text = textOf(p);
  const m = /^([A-Za-z][\w ]{2,40}?)\s*:/.exec(text);
  if (m?.[1]) return sectionOf(m[1]);
  if (text.length < 60 && text.trim().endsWith(":")) return sectionOf(text);
  return null;
}

const FILENAME_RE =
  /(?:^|[\s`(])((?:[\w.-]+\/)*[\w.-]+\.(?:py|js|mjs|cjs|ts|mts|cts|json|txt|csv|yaml|yml|toml|cfg|ini))`?\s*:?\s*$/;

function filenameHint(previousText: string | null, value: string, language: BlockLanguage): string | null {
  if (previousText) {
    const m = FILENAME_RE.exec(previousText.trim());
    if (m?.[1]) return programFileName(m[1]);
  }
  const firstLine = value.split("\n", 1)[0] ?? "";
  const comment =
    language === "python"
      ? /^#\s*((?:[\w.-]+\/)*[\w.-]+\.py)\s*$/
      : /^\/\/\s*((?:[\w.-]+\/)*[\w.-]+\.[cm]?[jt]s)\s*$/;
  const m = comment.exec(firstLine.trim());
  return m?.[1] ? programFileName(m[1]) : null;
}

/**
 * A name a report gives a block, when a reproduction may write a file by it: inside the work directory (no `.` or
 * `..` segment; the sandbox refuses those, and the run failed as an error instead of the name being left out) and
 * not a file the runtime reads before the program (`node_modules/…` would stand in for the package the report
 * blames, `sitecustomize.py`/`usercustomize.py` for Python's start-up hooks): such a block stays unnamed (wave 19).
 */
export function programFileName(name: string): string | null {
  const segments = name.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) return null;
  if (segments.slice(0, -1).some((s) => s === "node_modules" || s === "__pycache__")) return null;
  if (/^(sitecustomize|usercustomize)\.py$/.test(segments.at(-1)!)) return null;
  return name;
}

/** Where a Python block stops being code: a traceback, an IDE's exception banner, a frame line. */
function splitTraceback(value: string): { code: string; output: string } | null {
  const lines = value.split("\n");
  const at = lines.findIndex((l) =>
    /^(Traceback \(most recent call last\)|-{20,}\s*$|\s*File "[^"]+", line \d+|\*?\s*Exception has occurred|[\w.]*(Error|Exception)\s+Traceback \(most recent call last\))/.test(
      l,
    ),
  );
  if (at <= 0) return null;
  const code = lines.slice(0, at).join("\n").trimEnd();
  if (code.trim() === "") return null;
  return { code, output: lines.slice(at).join("\n") };
}

/** A block indented as a whole (copied out of a method) is dedented. */
function dedent(value: string): string {
  const indents = value
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => /^[ \t]*/.exec(l)![0].length);
  const min = indents.length ? Math.min(...indents) : 0;
  return min > 0
    ? value
        .split("\n")
        .map((l) => l.slice(Math.min(min, /^[ \t]*/.exec(l)![0].length)))
        .join("\n")
    : value;
}

/**
 * Under an "Expected" heading the values comments give are what should happen, unless the reporter marks one
 * as the wrong one (`// -> false (true is expected)`, `<- wrong`): then the marked ones are the claim and the
 * others (lines shown working) are neither.
 */
function expectedSectionChecks(checks: Check[]): Check[] {
  if (checks.some((c) => c.role === "actual" && c.flagged))
    return checks.filter((c) => c.role === "expected" || c.flagged);
  return checks.map((c) => (c.role === "actual" ? { ...c, role: "expected" as const } : c));
}

/** Library globals whose name does not read as a word of prose (`_` and `R` are left out). */
const PROSE_CALL_ROOTS = Object.keys(NPM_GLOBALS).filter((k) => k.length > 1);
const PROSE_CALL = new RegExp(
  String.raw`(?<![\w$.\x60])(?:${PROSE_CALL_ROOTS.join("|")})(?:\.[A-Za-z_$][\w$]*)*\((?:[^()\n]|\([^()\n]*\))*\)(?:\.[A-Za-z_$][\w$]*(?:\((?:[^()\n]|\([^()\n]*\))*\))?)*`,
  "g",
);

/** Whole calls on a library's conventional global in a sentence's text (`dayjs().format('x')`). */
function proseCalls(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PROSE_CALL)) {
    const code = m[0];
    // The last call must pass something: `semver.coerce(<string>)` reads `coerce()` once markdown has taken
    // `<string>` for a tag, and `moment().format()` named in passing shows nothing the report claims.
    if (code.length < 8 || !/[^(\s]\s*\)$/.test(code) || codeLine(code) === null || out.includes(code))
      continue;
    out.push(code);
  }
  return out;
}

/**
 * A call written as the subject of what it returns: "ms('1m') returns NaN", "pad(7, 3) gives `007`",
 * "f(1035.725) is returning 1035.72", "d3.format(',.1%')(0.0435) should give 4.4%" (a call of what a call returns,
 * up to three deep); or of whether it throws: "ipaddr.parseCIDR('1.1.1.1/50') ought to throw", "f(-1) doesn't raise".
 */
const CLAIMED_CALL =
  /(?<![\w$.\x60'"])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\((?:[^()\n]|\([^()\n]*\))+\)){1,3}(?=[ \t]+(?:(?:(?:should|would|ought[ \t]+to|must|is[ \t]+supposed[ \t]+to)[ \t]+)?(?:returns?|gives?(?:[ \t]+(?:back|me))?|yields?|evaluates[ \t]+to|results[ \t]+in|outputs?|prints?|produces?)[ \t]+\S|(?:is|keeps)[ \t]+(?:returning|giving|yielding|outputting|printing|producing)[ \t]+\S|(?:ought[ \t]+to|should|must)[ \t]+(?:throw|raise)\b|(?:does[ \t]+not|doesn't|never)[ \t]+(?:throws?|raises?)\b))/g;

/**
 * A title that is wholly one JavaScript comparison (`===` or `==`) of an expression holding a call with a
 * literal (a quoted string, a number, `true`/`false`/`null`/`undefined`/`NaN`), in backticks or not: the
 * expression and the value the title says it gives. `!==`, a comparison among words ("x === y is false", "should
 * `f() === 1`"), two comparisons, or an expression that does not read as code: null.
 */
const LITERAL_VALUE =
  /^(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|undefined|NaN)$/;

/**
 * The one literal the prose says the code gives the reporter ("it returns `true` for me", "I get `-1`", "it now
 * returns `0`", "but it returns `x`", "returns `null` instead"), not one it should give ("should return `false`",
 * "expected `0`"), one the documentation states ("the docs say it returns `true`", "according to the README") or
 * one it gave in the past ("it used to return `1`", "in 1.2 it returned `2`"): only first-person or present-actual
 * wording says what the code gives (fx4, rv23). Null when the prose states none, or several different ones.
 */
export function statedValue(prose: string): string | null {
  const found = new Set<string>();
  for (const m of prose.matchAll(
    /\b(?:returns?|returned|gives?|gave|gets?|got|prints?|printed|outputs?|yields?|evaluates?[ \t]+to|evaluated[ \t]+to|is|was)[ \t]+`([^`\n]{1,200})`/gi,
  )) {
    const end = m.index + m[0].length;
    // The sentence around the verb: back to the last full stop, forward to the next.
    const before = prose
      .slice(Math.max(0, m.index - 160), m.index)
      .split(/[.!?](?=\s)|\n/)
      .pop()!;
    const after = prose.slice(end, end + 120).split(/[.!?](?=\s|$)|\n/)[0]!;
    if (
      /\b(?:should|expect\w*|ought|supposed|wants?|wanted|must|would|instead\s+of)\b[^.!?,;\n]*$/i.test(
        before,
      )
    )
      continue;
    // What the documentation states, or what the code gave once, is not what it gives the reporter.
    if (DOCUMENTED_OR_FORMER.test(clauseBefore(before))) continue;
    const firstPerson =
      /\b(?:I|I'm|I've|We|we|we're|we've)\b|\b(?:me|my|us|our)\b/.test(before) ||
      /^[^`]*?\b(?:for|to)\s+(?:me|us)\b|\bI\b/.test(after);
    const presentActual =
      /\b(?:now|actually|currently|still|but|however|yet|instead)\b[^.!?\n]*$/i.test(before) ||
      /^\s*(?:,\s*)?instead\b/i.test(after);
    const past = /^(?:returned|gave|got|printed|was|evaluated)\b/i.test(m[0]);
    if (!firstPerson && (past || !presentActual)) continue;
    const value = m[1]!.trim();
    if (LITERAL_VALUE.test(value)) found.add(value);
  }
  return found.size === 1 ? [...found][0]! : null;
}

export function titleEquality(title: string): { expression: string; value: string } | null {
  const t = title.trim().replace(/^`([^`]+)`$/, "$1");
  if (t.length > 300) return null;
  const m =
    /^(.+?)\s*(?<![!=<>])={2,3}\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|undefined|NaN)\s*;?$/.exec(
      t,
    );
  if (!m) return null;
  const expression = m[1]!.trim();
  if (/[!=<>]=|[!<>]$|`/.test(expression) || !/[\w$)\]]\s*\(/.test(expression)) return null;
  if (codeLine(expression) === null) return null;
  return { expression, value: m[2]! };
}

/**
 * Calls written in a sentence without backticks, each the subject of the value it returns ("ms(60000) returns
 * '1m' for me, but ms('1m') returns NaN"): the statements the sentence runs, the values its claims. Any callee:
 * the verb after the call is what says it is code, and the call must pass something.
 */
function claimedCalls(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(CLAIMED_CALL)) {
    const code = m[0];
    if (!/[^(\s]\s*\)$/.test(code) || codeLine(code) === null || out.includes(code)) continue;
    out.push(code);
  }
  return out;
}

/**
 * Functions named with empty parentheses where the report gives their arguments in words ("`math.log2()` on a
 * negative number raises …", "`parse()` with an empty string returns …"): names, not statements, wherever the
 * report quotes them. Running the bare call shows nothing the sentence says; a call the report never qualifies
 * so (`uuid.v4()` throws …) runs. One pass over the markdown (each match bounded in length).
 */
export function namedInWords(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const m of markdown.matchAll(
    /`([A-Za-z_$][\w$]{0,80}(?:\.[A-Za-z_$][\w$]{0,80}){0,8}\(\))`[ \t]{1,3}(?:on|with|for|given|applied[ \t]+to|when[ \t]+(?:given|passed|called[ \t]+with))[ \t]/gi,
  ))
    names.add(m[1]!);
  // "only gets called after the translation step inside `Translator.translate()`": a method named as the place
  // something happens in the library's own code, not a statement of the report's.
  for (const m of markdown.matchAll(
    /\b(?:inside|within|in|from|by|during)[ \t]{1,3}(?:the[ \t]{1,3})?`([A-Za-z_$][\w$]{0,80}\.[A-Za-z_$][\w$]{0,80}\(\))`/gi,
  ))
    names.add(m[1]!);
  return names;
}

/** A lead that ends by introducing the error the code gave: "fails, with this message:", "it throws:". */
const FAILED_LEAD =
  /\b(?:fails?|failed|throws?|threw|raises?|raised|crash(?:es|ed)?|errors?\s+out)\b[^.]*:$/i;

/**
 * A block that is one value, not a program: a single line that reads as printed output (`"A1b"`, `[1, 2]`,
 * `RangeError: Invalid time value`), or an error object as an inspector shows it
 * (`SyntaxError {message: "Unexpected 'O'", at: 32}`).
 */
export function loneValue(value: string): boolean {
  const lines = value.trim().split("\n");
  if (lines.length !== 1) return false;
  const line = lines[0]!.trim().replace(/;$/, "");
  return looksLikeValue(line) || /^[A-Z]\w*(?:Error|Exception)\s*\{.*\}$/.test(line);
}

/** A lead that ends by introducing what ran printed: "Packaging 25.0 (and earlier versions) print:", "it outputs:". */
/** A line that ends pasted output: a separator, a sentence, or a line of code. */
function pastedOutputLine(t: string): boolean {
  return !(
    /^[-+=*_#~]{3,}$/.test(t) ||
    (/[.!?]$/.test(t) && t.split(/\s+/).length >= 5) ||
    codeLine(t) !== null
  );
}

/** A line that is only an output label: "Output", "Result:", "Actual output", "stdout". */
const OUTPUT_LABEL_LINE = /^(?:(?:actual |the )?(?:output|result)|stdout|observed|got)\s*[:：]?$/i;

const PRINTED_LEAD =
  /\b(?:prints?|printed|outputs?|outputted|gives?|gave|shows?|showed|returns?|returned|displays?|displayed|logs?|logged|results? in)\s*:$/i;

/**
 * A block whose first line imports a module (`from typing import get_type_hints`, `import os`,
 * `import x from "y"`, `const x = require("y")`): a program, never what one printed, whatever lead ("the
 * reporter gave:") stands before it.
 */
/** An exception's repr with one string argument: `ValueError('x')`, `KeyError("y")`. */
const EXCEPTION_REPR =
  /^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt)\((?:"[^"\n]*"|'[^'\n]*')\)$/;

/** Every non-blank line of the block is an exception's repr (two lines at least). */
export function exceptionReprs(value: string): boolean {
  const lines = value
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return lines.length >= 2 && lines.every((l) => EXCEPTION_REPR.test(l));
}

function opensWithImport(value: string): boolean {
  const first = value.trim().split("\n")[0]!.trim();
  return /^(?:from[ \t]+[\w.]+[ \t]+import[ \t]+[\w(*]|import[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+)*[ \t]*$|import[ \t].*[ \t]from[ \t]+['"]|(?:const|let|var)[ \t]+[\w${}, \t]+=[ \t]*require\([ \t]*['"])/.test(
    first,
  );
}

/**
 * JavaScript with comments written the shell's or Python's way (`# returns nothing` over a call): a line that
 * opens with `# ` is never JavaScript (a private name has no space, a shebang is `#!`), so it is the comment the
 * reporter meant, written as one. Not where a template literal could hold the line as text.
 */
/**
 * Whether every non-empty line of `value` (at most 50) opens with the label one print of the report's last code block
 * writes before its value (`printedLabels`: `print(f"label: {x}")`, `console.log("label:", x)`), a label of six
 * characters or more, so no line of code passes for one.
 */
function printedByEarlierCode(value: string, blocks: ReportBlock[]): boolean {
  // The last code block before it only: one scan per block, however many blocks the report has.
  const code = blocks.findLast((b) => b.kind === "code")?.value;
  if (code === undefined) return false;
  const prefixes = printedLabels(code.slice(0, 20_000)).filter((p) => p.label.length >= 6);
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  if (prefixes.length === 0 || lines.length === 0 || lines.length > 50) return false;
  return lines.every((l) =>
    prefixes.some((p) => l.trimStart().startsWith(p.prefix) && l.trim() !== p.prefix.trim()),
  );
}

export function withHashComments(code: string): string {
  if (code.includes("`") || !/^[ \t]*#[ \t]/m.test(code)) return code;
  return code.replace(/^([ \t]*)#[ \t]/gm, "$1// ");
}

function makeBlock(
  index: number,
  fence: string | null,
  value: string,
  kind: BlockKind,
  language: BlockLanguage,
  section: SectionKind,
  filename: string | null,
  line: number,
  plain: boolean,
): ReportBlock {
  let annotated =
    kind === "code" && (language === "python" || language === "javascript" || language === "typescript")
      ? annotate(language === "python" ? dedent(value) : withHashComments(value), language)
      : null;
  // A lone assignment quoted in prose (`const r = i18n.t("abc", { n: 1 })`, a step of the report's) shows the
  // value it binds, as a reporter checking the step would look at it.
  // Only a call's result: not a module bound (`require(…)`, whose dump says nothing) nor a function defined.
  const bound =
    /^(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?:new[ \t]+|await[ \t]+)?[A-Za-z_$][\w$.]*\([^\n]*\)[ \t]*;?[ \t]*$/.exec(
      value,
    );
  const moduleOrFunction = /\brequire[ \t]*\(|\bimport[ \t]*\(|=>|\bfunction\b/.test(value);
  if (
    plain &&
    bound?.[1] &&
    !moduleOrFunction &&
    annotated &&
    annotated.checks.length === 0 &&
    (language === "javascript" || language === "typescript")
  ) {
    const echoed = annotate(`${bound[1]} // => ?`, "javascript").code.replace(/\s*\/\/ => \?$/, "");
    if (echoed.startsWith("_echo("))
      annotated = { code: `${annotated.code}\n${echoed}`, checks: [], usesEcho: true };
  }
  // A lone expression quoted in prose (`qs.stringify(x)`) shows its value the way a REPL would.
  if (
    plain &&
    annotated &&
    annotated.checks.length === 0 &&
    !value.includes("\n") &&
    language !== "typescript"
  ) {
    const echoed = annotate(`${value} // => ?`, language === "python" ? "python" : "javascript").code.replace(
      /\s*(\/\/|#) => \?$/,
      "",
    );
    if (echoed.startsWith("_echo(")) annotated = { code: echoed, checks: [], usesEcho: true };
  }
  return {
    index,
    fence,
    value,
    kind,
    language,
    section,
    filename,
    line,
    checks:
      section === "expected" ? expectedSectionChecks(annotated?.checks ?? []) : (annotated?.checks ?? []),
    runValue: annotated?.code ?? value,
    usesEcho: annotated?.usesEcho ?? false,
    plain,
    lead: null,
    shellRun: null,
  };
}

/**
 * A block pasted without a fence (a statement quoted inline, lines of a paragraph), read again as Python: its
 * language was guessed from the code alone (`glob.glob('*',include_hidden=True)` is valid JavaScript too), and
 * the caller knows the report is about Python (filed on a Python implementation's repository).
 */
export function plainBlockAsPython(block: ReportBlock): ReportBlock {
  if (!block.plain || block.fence !== null || block.kind !== "code" || block.language !== "javascript")
    return block;
  if (block.shellRun || block.madeFrom !== undefined) return block;
  const made = makeBlock(
    block.index,
    null,
    block.value,
    "code",
    "python",
    block.section,
    block.filename,
    block.line,
    true,
  );
  return { ...made, lead: block.lead };
}

/**
 * A fence the reporter closed with text after its backticks (python/cpython#134648: the template's
 * `# Add a code block here, if required`, then a line "``` >>>"): Markdown does not close a fence on a line with
 * more after it, so everything below, prose and all, became one block of "code". When all the block holds before
 * that line is comments (a template's placeholder), the line closes it and its text goes on as prose.
 */
export function closeTemplateFence(markdown: string): string {
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,})[^`]*$/.exec(lines[i]!);
    if (!open) continue;
    const marker = open[1]!;
    let j = i + 1;
    while (j < lines.length && /^\s*(?:(?:#|\/\/)[^\n]*)?$/.test(lines[j]!) && !lines[j]!.startsWith(marker))
      j++;
    const line = lines[j];
    if (line === undefined) return markdown;
    if (
      j > i + 1 &&
      line.startsWith(marker) &&
      /^`{3,}[ \t]+\S/.test(line) &&
      line.slice(marker.length).trimStart()[0] !== "`"
    ) {
      // The placeholder is the template's, not the report's: dropped, and the text after the backticks is prose.
      // The fence line that closed the whole run before is now an opening with nothing after it: dropped too.
      const after = lines.slice(j + 1);
      let openAt = -1;
      for (let n = 0; n < after.length; n++) if (/^ {0,3}`{3,}/.test(after[n]!)) openAt = openAt < 0 ? n : -1;
      if (openAt >= 0 && after.slice(openAt + 1).every((l) => l.trim() === "")) after.splice(openAt, 1);
      return [...lines.slice(0, i), "", line.slice(marker.length).trim(), ...after].join("\n");
    }
    // Skip to the fence's real close.
    const close = new RegExp(`^ {0,3}\`{${marker.length},}\\s*$`);
    for (i = j; i < lines.length && !close.test(lines[i]!); i++);
  }
  return markdown;
}

/**
 * A JavaScript/TypeScript fence that is never closed swallows the rest of the report, headings included: the
 * reporter's `### Output` and `### expected data` sections end up inside the code (fast-xml-parser#771). A line
 * that is a markdown heading cannot be JavaScript there (`#` starts a line only in a hashbang or a class's
 * private member, indented), so the fence is closed before the first such line and the rest reads as the
 * report's sections. A fence that is closed, or of another language (a Python `# comment`), is left alone.
 */
export function closeRunawayFence(markdown: string): string {
  const lines = markdown.split("\n");
  let open: { at: number; marker: string; js: boolean; close: RegExp } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!open) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*\{?\s*([\w+-]*)/.exec(line);
      if (m)
        open = {
          at: i,
          marker: m[1]!,
          js: /^(?:js|javascript|jsx|mjs|cjs|node|ts|typescript|tsx)$/i.test(m[2] ?? ""),
          close: new RegExp(`^ {0,3}${m[1]![0] === "`" ? "`" : "~"}{${m[1]!.length},}\\s*$`),
        };
      continue;
    }
    if (open.close.test(line)) open = null;
  }
  if (!open?.js) return markdown;
  for (let i = open.at + 1; i < lines.length; i++) {
    if (/^#{1,6}\s+\S/.test(lines[i]!)) {
      return [...lines.slice(0, i), open.marker, ...lines.slice(i)].join("\n");
    }
  }
  return markdown;
}

/**
 * Code wrapped in single backticks across blank lines (python/cpython#93184: `` `from struct import * ``, the
 * program's paragraphs, then `` print(len(message))` ``): Markdown ends an inline span at a paragraph break, so
 * each paragraph would lose its backtick and be read apart, the first lines (the imports) dropped. A line opening
 * with a lone backtick never closed on it, lines without backticks, at least one blank among them, and a line
 * closing with a lone backtick: one code block, fenced as the reporter meant. Outside fences only.
 */
export function singleBacktickBlocks(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: RegExp | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      if (fence.test(line)) fence = null;
      continue;
    }
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      fence = new RegExp(`^ {0,3}${f[1]![0] === "`" ? "`" : "~"}{${f[1]!.length},}\\s*$`);
      continue;
    }
    const open = /^`([^`\s][^`]*)$/.exec(line);
    if (!open) continue;
    let blank = false;
    for (let j = i + 1; j < lines.length && j <= i + 200; j++) {
      const next = lines[j]!;
      if (next.trim() === "") {
        blank = true;
        continue;
      }
      const close = /^([^`]*[^`\s])`\s*$/.exec(next);
      if (close) {
        if (!blank) break;
        lines.splice(i, j - i + 1, "```", open[1]!, ...lines.slice(i + 1, j), close[1]!, "```");
        i = j + 2;
        break;
      }
      if (next.includes("`") || /^#{1,6}\s/.test(next)) break;
    }
  }
  return lines.join("\n");
}

export function parseReport(markdown: string): ParsedReport {
  markdown = singleBacktickBlocks(closeRunawayFence(closeTemplateFence(markdown)));
  const namedOnly = namedInWords(markdown);
  // Packages the report shows installed: a bare `$ name …` line of a session runs that package's command.
  const cliPackages = installedPackageNames(markdown);
  const tree: Root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const prose: Record<SectionKind, string> = {
    expected: "",
    actual: "",
    steps: "",
    environment: "",
    other: "",
  };
  const blocks: ReportBlock[] = [];
  const inlineCode: ParsedReport["inlineCode"] = [];
  let proseWithCode = "";
  let title = "";
  let section: SectionKind = "other";
  let headingDepth = 0;
  let previousText: string | null = null;
  // After a paragraph that is only an Actual label ("result:", "output："), unfenced lines are the pasted output,
  // up to a separator line, a sentence, a heading or a block.
  let collecting: { lines: string[]; line: number } | null = null;
  // A call written with a placeholder and the result it gives ("**semver.coerce(<string>)** gives back **null**"),
  // waiting for the list of inputs that follows it.
  let template: { callee: string; result: string } | null = null;
  // Under a heading that names output ("### Output", "### Expected result"), a paragraph that is one literal
  // structure (`{"item":"x"}`, `[1, 2]`) is output pasted without a fence: the Actual's, or the Expected's.
  let dataUnder: "actual" | "expected" | null = null;
  const flushOutput = () => {
    if (collecting && collecting.lines.length > 0)
      blocks.push(
        makeBlock(
          blocks.length,
          null,
          collecting.lines.join("\n"),
          "output",
          "text",
          "actual",
          null,
          collecting.line,
          true,
        ),
      );
    collecting = null;
  };
  /** Takes a node's raw lines as output; false when they end the output (the node is prose, then). */
  const collect = (raw: string, line: number): boolean => {
    if (!collecting) return false;
    const taken: string[] = [];
    for (const l of raw.replace(/\r\n/g, "\n").split("\n")) {
      const t = l.trim();
      if (t === "") continue;
      if (!pastedOutputLine(t)) {
        collecting.lines.push(...taken);
        flushOutput();
        return taken.length > 0 && false;
      }
      taken.push(l.trimEnd());
    }
    if (collecting.lines.length === 0) collecting.line = line;
    collecting.lines.push(...taken);
    return true;
  };

  // The last line of the last fenced code block visited (a quote just under it may be its output).
  let codeEndLine = -1;
  /** A block read out of a `> ` quote (a REPL session, a printed value), introduced by the prose before it. */
  const pushQuoted = (value: string, kind: BlockKind, language: BlockLanguage, line: number): void => {
    const b = makeBlock(blocks.length, null, value, kind, language, section, null, line, false);
    b.lead = previousText;
    blocks.push(b);
    previousText = null;
  };
  const visit = (node: RootContent): void => {
    switch (node.type) {
      case "heading": {
        flushOutput();
        template = null;
        const h = node as Heading;
        const text = textOf(h).trim();
        if (!title && h.depth === 1) {
          title = text;
          break;
        }
        const s = sectionOf(text);
        const bare = text.replace(/^[^\p{L}\p{N}]+/u, "");
        dataUnder =
          s === "actual" && /^(?:output|actual(?: (?:output|result))?|result|stdout|got)\s*:?$/i.test(bare)
            ? "actual"
            : s === "expected" &&
                /^(?:expected(?: (?:output|result|data|value))?|desired output)\s*:?$/i.test(bare)
              ? "expected"
              : null;
        if (s) {
          section = s;
          headingDepth = h.depth;
        } else if (h.depth <= headingDepth || headingDepth === 0) {
          section = "other";
          headingDepth = h.depth;
        }
        previousText = text;
        break;
      }
      case "paragraph": {
        // "Output" (or "Result:") on the first line of a paragraph, after the report's code, with what it printed
        // on the lines under it in the same paragraph (no blank line between): the label and the pasted output.
        const pStart = node.position?.start.offset;
        const pEnd = node.position?.end.offset;
        if (
          pStart !== undefined &&
          pEnd !== undefined &&
          blocks.some((b) => b.kind === "code" || b.kind === "shell")
        ) {
          const [head = "", ...rest] = unescapeMarkdown(markdown.slice(pStart, pEnd))
            .replace(/\r\n/g, "\n")
            .split("\n");
          if (
            OUTPUT_LABEL_LINE.test(head.replace(/[*_]/g, "").trim()) &&
            rest.some((l) => l.trim() !== "") &&
            // Inline code or a link under the label is a value the prose quotes (stated-sides.ts reads it).
            rest.every((l) => pastedOutputLine(l.trim()) && !/`|\]\(|<https?:/.test(l))
          ) {
            flushOutput();
            collecting = { lines: [], line: (node.position?.start.line ?? 0) + 1 };
            collect(rest.join("\n"), (node.position?.start.line ?? 0) + 1);
            // The output ends with its paragraph; the prose after it keeps the section it is in.
            flushOutput();
            prose[section] += `${head.trim()}\n`;
            previousText = head.trim();
            break;
          }
        }
        const s = paragraphSection(node);
        if (s) {
          flushOutput();
          section = s;
          if (
            s === "actual" &&
            labelOnly(node) &&
            /^(?:result|output|actual|stdout|observed|got)/i.test(labelOnly(node)!)
          )
            collecting = { lines: [], line: node.position?.start.line ?? 0 };
        } else {
          const start = node.position?.start.offset;
          const end = node.position?.end.offset;
          if (
            collecting &&
            start !== undefined &&
            end !== undefined &&
            collect(markdown.slice(start, end), node.position?.start.line ?? 0)
          ) {
            prose[section] += `${textOf(node)}\n`;
            previousText = textOf(node);
            break;
          }
        }
        const text = textOf(node);
        const start = node.position?.start.offset;
        const end = node.position?.end.offset;
        if (dataUnder && start !== undefined && end !== undefined) {
          const pasted = markdown.slice(start, end).trim();
          const pair = `${pasted.charAt(0)}${pasted.charAt(pasted.length - 1)}`;
          if (pair === "{}" || pair === "[]") {
            blocks.push(
              makeBlock(
                blocks.length,
                null,
                pasted,
                "output",
                "text",
                dataUnder,
                null,
                node.position?.start.line ?? 0,
                true,
              ),
            );
            previousText = null;
            break;
          }
        }
        // Lines pasted without a fence under "The output:" / "It prints:", after the report's code: what that code
        // printed (python/cpython#93184). Several lines, no inline code or link, none of them a sentence.
        if (
          previousText !== null &&
          PRINTED_LEAD.test(previousText.trim()) &&
          start !== undefined &&
          end !== undefined &&
          blocks.some((b) => b.kind === "code" || b.kind === "shell")
        ) {
          const pasted = unescapeMarkdown(markdown.slice(start, end)).trim();
          const lines = pasted.split("\n");
          if (
            lines.length >= 2 &&
            lines.length <= 200 &&
            !/`|\]\(|<https?:/.test(pasted) &&
            lines.every((l) => l.length <= 300 && !/^[A-Z][a-z']*(?: [\w',-]+){4,}[.?!]$/.test(l.trim()))
          ) {
            const b = makeBlock(
              blocks.length,
              null,
              pasted,
              "output",
              "text",
              section,
              null,
              node.position?.start.line ?? 0,
              true,
            );
            b.lead = previousText;
            blocks.push(b);
            prose[section] += `${text}\n`;
            previousText = null;
            break;
          }
        }
        prose[section] += `${text}\n`;
        proseWithCode += `${textWithTicks(node)}\n`;
        const raw =
          start !== undefined && end !== undefined ? unescapeMarkdown(markdown.slice(start, end)) : "";
        template =
          (start !== undefined && end !== undefined ? templateCall(markdown.slice(start, end)) : null) ??
          template;
        const last = blocks[blocks.length - 1];
        if (
          last?.plain &&
          /^\s*(?:\/\/|#)\s*(?:=+>|->|→|output\s*:|result\s*:|returns?\b|prints?\b|gives?\b|expected\b|got\b)[^\n]*$/i.test(
            raw,
          )
        ) {
          // `// => 08/05/2019` in a paragraph of its own, right after code pasted without a fence.
          blocks[blocks.length - 1] = makeBlock(
            last.index,
            null,
            `${last.value}\n${raw.trim()}`,
            "code",
            last.language,
            last.section,
            null,
            last.line,
            true,
          );
        } else if (start !== undefined && end !== undefined) {
          // Statements typed one per line, each in backticks of its own: one program, its language from all of
          // them (`from slugify import slugify` makes the call under it Python).
          // A Node session typed under a shell's `$ ` prompt, unfenced: the session it is.
          const ticked = tickedLines(markdown.slice(start, end));
          const session = dollarAsNode(raw) ?? (ticked === null ? null : angleAsNode(ticked));
          const stated = session === null ? inlineStatementLines(raw) : null;
          if (session !== null)
            blocks.push(
              makeBlock(
                blocks.length,
                null,
                session,
                "node-transcript",
                "javascript",
                section,
                null,
                node.position?.start.line ?? 0,
                true,
              ),
            );
          if (stated !== null)
            blocks.push(
              makeBlock(
                blocks.length,
                null,
                stated,
                "code",
                plainLanguage(stated),
                section,
                null,
                node.position?.start.line ?? 0,
                true,
              ),
            );
          for (const run of session === null ? plainCodeRuns(raw) : []) {
            const language = plainLanguage(run.code);
            blocks.push(
              makeBlock(
                blocks.length,
                null,
                run.code,
                "code",
                language,
                section,
                null,
                (node.position?.start.line ?? 0) + run.firstLine,
                true,
              ),
            );
          }
        }
        const spans: string[] = [];
        collectInline(node, spans);
        // A whole statement quoted inline ("running this: `format(new Date(), 'yyyy-mm-dd')`") is code too.
        for (const v of spans) {
          const code = v.trim();
          if (code.length < 8 || !/[\w$)\]]\(/.test(code) || codeLine(code) === null) continue;
          // A function named with empty parentheses ("`math.log2()` on a negative number raises …") is a name
          // in a sentence, not a statement to run: running it shows nothing the sentence says.
          if (namedOnly.has(code)) continue;
          if (blocks.some((b) => b.plain && b.value.includes(code))) continue;
          blocks.push(
            makeBlock(
              blocks.length,
              null,
              code,
              "code",
              plainLanguage(code),
              section,
              null,
              node.position?.start.line ?? 0,
              true,
            ),
          );
        }
        // A call on a library's conventional global written into a sentence without backticks ("Calling
        // dayjs().format('x') gives back 'x'"): the statement the sentence runs.
        for (const code of [...proseCalls(text), ...claimedCalls(text)]) {
          if (blocks.some((b) => b.plain && b.value.includes(code))) continue;
          blocks.push(
            makeBlock(
              blocks.length,
              null,
              code,
              "code",
              "javascript",
              section,
              null,
              node.position?.start.line ?? 0,
              true,
            ),
          );
        }
        // A comparison the sentence expects to hold, however its block was found (a line of its own, a span).
        for (const v of spans) {
          const b = blocks.find(
            (x) => x.plain && x.value.trim() === v.trim() && x.line === node.position?.start.line,
          );
          const wanted = b ? expectedComparison(textWithTicks(node), v, b) : null;
          if (b && wanted) b.checks = wanted;
        }
        for (const v of spans) inlineCode.push({ value: v, section, context: text });
        previousText = text;
        break;
      }
      case "code": {
        flushOutput();
        template = null;
        dataUnder = null;
        const c = node as Code;
        codeEndLine = c.position?.end.line ?? -1;
        // An HTML page whose `<script type="text/python">` holds the report's Python (Brython, PyScript): that
        // Python is the block's code.
        // A themed prompt (` user@host  ~/dir  python3.11 crash.py`, `λ python3 x.py`) is the `$ ` command line it
        // stands for.
        const fenced = fancyPromptAsDollar(c.value) ?? glyphPromptAsDollar(c.value) ?? c.value;
        const pagePython = pythonInPage(fenced);
        let cls = pagePython !== null ? classifyBlock("python", pagePython) : classifyBlock(c.lang, fenced);
        // A CI or build log (`09:47:19 [exec] ReferenceError: …` on every line): the error and its stack are
        // read without the log's own prefix.
        let value = pagePython ?? fenced;
        const unprefixed = withoutLogPrefix(value);
        if (unprefixed !== null && cls.kind !== "traceback" && cls.kind !== "error-output") {
          const bare = classifyBlock(c.lang, unprefixed);
          if (bare.kind === "traceback" || bare.kind === "error-output") {
            cls = bare;
            value = unprefixed;
          }
        }
        // An IPython session (`In [5]: …`, `Out[5]: …`) is read as the `>>>` transcript it is.
        if (cls.kind === "python-transcript") value = ipythonAsPycon(value) ?? angleAsPycon(value) ?? value;
        // A CoffeeScript session (`coffee> x = require 'y'`) is read as the Node session it stands for.
        if (cls.kind === "node-transcript")
          value = coffeeAsNode(value) ?? dollarAsNode(value) ?? promptlessAsNode(value) ?? value;
        // Python code with its traceback pasted under it in the same block: the code runs, the rest is output.
        const split = cls.kind === "code" && cls.language === "python" ? splitTraceback(value) : null;
        if (split) {
          blocks.push(
            makeBlock(
              blocks.length,
              c.lang ?? null,
              split.code,
              "code",
              "python",
              section,
              filenameHint(previousText, split.code, "python"),
              c.position?.start.line ?? 0,
              false,
            ),
            makeBlock(
              blocks.length + 1,
              null,
              split.output,
              "traceback",
              "python",
              section === "expected" ? "other" : section,
              null,
              c.position?.start.line ?? 0,
              false,
            ),
          );
          previousText = null;
          break;
        }
        // Code in a bare or unknown fence that the scorer did not recognise (one annotated line, say).
        if (
          cls.kind === "output" &&
          languageFromFence(c.lang) === null &&
          !inspectorDump(value) &&
          wholeBlockIsCode(value)
        )
          cls = { kind: "code", language: plainLanguage(value) };
        // A bare block under "Packaging 25.0 prints:" / "Current HEAD prints:", after the report's code: what
        // that code printed, whatever it looks like (`click>=7.specifier.contains(8.0.0dev0) is False`).
        if (
          cls.kind === "code" &&
          languageFromFence(c.lang) === null &&
          previousText !== null &&
          PRINTED_LEAD.test(previousText.trim()) &&
          blocks.some((b) => b.kind === "code" || b.kind === "shell") &&
          !opensWithImport(value)
        )
          cls = { kind: "output", language: "text" };
        // A fenced block under "# Current Behaviour" / "Expected output" or after "fails, with this message:",
        // once the report's code came before it, that is one value and not a program (`"A1b"` in a js fence):
        // what the code showed or should show, whatever its fence says.
        if (
          cls.kind === "code" &&
          blocks.some((b) => b.kind === "code" || b.kind === "shell") &&
          (section === "actual" ||
            section === "expected" ||
            (previousText !== null && FAILED_LEAD.test(previousText.trim()))) &&
          loneValue(value)
        )
          cls = { kind: "output", language: "text" };
        // A fenced block after the report's code whose every line is an exception's repr, as Python prints one
        // (`ValueError("no signature found for builtin type <class 'int'>")`): what that code printed, not a
        // program (statements that only build an exception and drop it do nothing). Not before any code, where
        // such lines are the report's list of the errors it means.
        if (
          cls.kind === "code" &&
          previousText === null &&
          blocks.some((b) => b.kind === "code" || b.kind === "shell") &&
          exceptionReprs(value)
        )
          cls = { kind: "output", language: "text" };
        // A fenced block after the report's code whose every line opens with the label a print of that code writes
        // (`handle_data received: 'A'` under `print(f"handle_data received: {data!r}")`): that code's output,
        // whatever its fence says (a ```python fence around what it printed).
        if (cls.kind === "code" && printedByEarlierCode(value, blocks))
          cls = { kind: "output", language: "text" };
        // One block holding two REPL sessions (`$ pypy3` … then `$ python3.6` …): a block for each, so the
        // two are two sides of one session.
        const sessions =
          cls.kind === "python-transcript" || cls.kind === "node-transcript" ? splitSessions(value) : null;
        if (sessions) {
          for (const piece of sessions) {
            const b = makeBlock(
              blocks.length,
              c.lang ?? null,
              piece,
              cls.kind,
              cls.language,
              section,
              null,
              c.position?.start.line ?? 0,
              false,
            );
            b.lead = previousText;
            blocks.push(b);
          }
          previousText = null;
          break;
        }
        blocks.push(
          makeBlock(
            blocks.length,
            c.lang ?? null,
            value,
            cls.kind,
            cls.language,
            section,
            filenameHint(previousText, value, cls.language),
            c.position?.start.line ?? 0,
            false,
          ),
        );
        blocks[blocks.length - 1]!.lead = previousText;
        // `$ python3 -c '…'` / `$ node -pe '…'` and what each printed: the code is a block of its own.
        if (
          cls.kind === "shell" ||
          cls.kind === "output" ||
          cls.kind === "error-output" ||
          cls.kind === "traceback"
        ) {
          // A block of its own for what the session shows (a file, a command's program or its output), led by
          // the same text as the session block.
          const sessionBlock = (
            text: string,
            kind: BlockKind,
            language: BlockLanguage,
            file: string | null,
          ) => {
            const b = makeBlock(
              blocks.length,
              null,
              text,
              kind,
              language,
              section,
              file,
              c.position?.start.line ?? 0,
              false,
            );
            b.lead = previousText;
            blocks.push(b);
            return b;
          };
          const runtimeOf = (run: { runtime: string }): BlockLanguage =>
            run.runtime === "python" ? "python" : "javascript";
          // `$ cat > test.js` … `<Ctrl+D>`, `$ cat test.js` and what it printed: the file is code of its own.
          for (const f of sessionFiles(value)) {
            const language: BlockLanguage = /\.py$/.test(f.file)
              ? "python"
              : /\.[cm]?ts$/.test(f.file)
                ? "typescript"
                : "javascript";
            sessionBlock(f.content, "code", language, f.file);
          }
          for (const run of parseShellSession(value, cliPackages)) {
            // A run of a script file prints output; the script itself is another block of the report.
            sessionBlock(
              run.script ? [...run.output, ...(run.errorText ? [run.errorText] : [])].join("\n") : run.code,
              run.script ? "output" : "code",
              runtimeOf(run),
              null,
            ).shellRun = run;
          }
          // A prompt-less ```` ```bash ```` block of commands: its `node -e`/`python3 -c` programs are code; what
          // they printed is another block of the report, so they carry no transcript of their own.
          if (cls.kind === "shell" && !PROMPTED.test(value))
            for (const run of promptlessPrograms(value)) sessionBlock(run.code, "code", runtimeOf(run), null);
        }
        previousText = null;
        break;
      }
      case "list":
      case "blockquote":
      case "listItem":
      case "table": {
        const start = node.position?.start.offset;
        const end = node.position?.end.offset;
        // The inputs listed under a call written with a placeholder: one call per input, each with the result
        // the sentence gives as its comment (`semver.coerce('0.02') // => null`).
        if (node.type === "list" && template && start !== undefined && end !== undefined) {
          const items = literalItems(markdown.slice(start, end));
          if (items) {
            const language = plainLanguage(`${template.callee}(${items[0]})`);
            const mark = language === "python" ? "#" : "//";
            const { callee, result } = template;
            const b = makeBlock(
              blocks.length,
              null,
              items.map((i) => `${callee}(${i}) ${mark} => ${result}`).join("\n"),
              "code",
              language,
              section,
              null,
              node.position?.start.line ?? 0,
              true,
            );
            b.madeFrom = `\`${callee}(<…>)\` said to give \`${result}\`, called on each of the ${items.length} listed input${items.length > 1 ? "s" : ""}`;
            blocks.push(b);
          }
          template = null;
        }
        if (
          node.type === "list" &&
          collecting &&
          start !== undefined &&
          end !== undefined &&
          collect(markdown.slice(start, end), node.position?.start.line ?? 0)
        ) {
          prose[section] += `${textOf(node)}\n`;
          break;
        }
        // A Python REPL session pasted without a fence: markdown reads `>>> x` as three nested quotes, and the
        // lines under it (the output, a traceback) as their continuation. The raw text is the transcript.
        if (node.type === "blockquote" && start !== undefined && end !== undefined) {
          const raw = markdown.slice(start, end);
          if (/^>{3,5} \S/.test(raw) && classifyBlock(null, raw).kind === "python-transcript") {
            flushOutput();
            pushQuoted(raw, "python-transcript", "python", node.position?.start.line ?? 0);
            break;
          }
        }
        // A Node REPL session pasted as a quote, its answers the quote's continuation lines (node-prompt.ts).
        if (node.type === "blockquote" && start !== undefined && end !== undefined) {
          const session = angleAsNode(markdown.slice(start, end));
          if (session !== null && classifyBlock(null, session).kind === "node-transcript") {
            flushOutput();
            pushQuoted(session, "node-transcript", "javascript", node.position?.start.line ?? 0);
            break;
          }
        }
        // A quote right under a code block, every line of it a value (`> [ NaN, 461.5, 484.5 ]`): what that
        // code printed, quoted the way many reports quote a result. A quoted sentence ("> Note: …") is not.
        if (
          node.type === "blockquote" &&
          start !== undefined &&
          end !== undefined &&
          codeEndLine >= 0 &&
          (node.position?.start.line ?? 0) - codeEndLine <= 2 &&
          blocks.at(-1)?.kind === "code"
        ) {
          const lines = textOf(node)
            .split("\n")
            .map((l) => l.trim())
            .filter((l) => l !== "");
          if (
            lines.length > 0 &&
            lines.length <= 20 &&
            lines.every((l) => l.length <= 200 && pastedOutputLine(l) && looksLikeValue(l.replace(/;$/, "")))
          ) {
            flushOutput();
            // The code above is one expression that prints nothing: its value is what the quote shows, echoed the
            // way a REPL would, as a lone expression quoted in prose is.
            const code = blocks.at(-1)!;
            if (
              !code.value.trim().includes("\n") &&
              code.checks.length === 0 &&
              !code.usesEcho &&
              (code.language === "javascript" || code.language === "python")
            ) {
              const echoed = annotate(`${code.value.trim()} // => ?`, code.language).code.replace(
                /\s*(\/\/|#) => \?$/,
                "",
              );
              if (echoed.startsWith("_echo(")) {
                code.runValue = echoed;
                code.usesEcho = true;
              }
            }
            pushQuoted(lines.join("\n"), "output", "text", node.position?.start.line ?? 0);
            break;
          }
        }
        const kids = (node as { children: RootContent[] }).children;
        if (node.type === "table") {
          prose[section] += `${textOf(node)}\n`;
          break;
        }
        for (const k of kids) visit(k);
        break;
      }
      case "html": {
        // An HTML `<pre>` block (`<pre>` … `</pre>` on lines of their own, under "**Actual** result:") is a block
        // of preformatted text, as a fence without a language is: its text, the tags stripped and the entities
        // GitHub renders read back.
        const pre = /^<pre(?:\s[^>]*)?>[ \t]*\n([\s\S]*?)\n?[ \t]*<\/pre>\s*$/i.exec(node.value);
        if (pre) {
          const text = pre[1]!
            .replace(/<\/?[a-z][^>]*>/gi, "")
            .replace(/&lt;/g, "<")
            .replace(/&gt;/g, ">")
            .replace(/&quot;/g, '"')
            .replace(/&#0*39;|&apos;/g, "'")
            .replace(/&amp;/g, "&")
            .replace(/\s+$/, "");
          if (text.trim() !== "") {
            const line = (node.position?.start.line ?? 0) + 1;
            visit({
              type: "code",
              lang: null,
              meta: null,
              value: text,
              position: { start: { line, column: 1 }, end: node.position?.end ?? { line, column: 1 } },
            } as Code);
            break;
          }
        }
        // <details><summary>Traceback</summary> opens a section like a heading would.
        const m = /<summary>([^<]*)<\/summary>/i.exec(node.value);
        const s = m?.[1] ? sectionOf(m[1]) : null;
        if (s) section = s;
        break;
      }
      default:
        break;
    }
  };
  for (const node of tree.children) visit(node);
  flushOutput();
  callListsAsCode(blocks);
  if (!title) title = (markdown.split("\n").find((l) => l.trim() !== "") ?? "").replace(/^#+\s*/, "").trim();
  // A title that is one comparison of a call with a literal (`new BigInteger("1").toString() === "-8"`), only when
  // the report holds nothing else to run: the statement to run. Which side its literal is, the title alone does not
  // say (`isEmpty(m) === false` is often the result wanted): where the prose states what the call gives ("it
  // returns `true`"), that value is the claim (`// => true`); else the run prints the value and claims nothing.
  const titled = titleEquality(title);
  if (titled && !blocks.some((b) => b.kind !== "output" && b.kind !== "versions")) {
    const given = statedValue(proseWithCode);
    blocks.push(
      makeBlock(
        blocks.length,
        null,
        given === null ? `console.log(${titled.expression})` : `${titled.expression} // => ${given}`,
        "code",
        "javascript",
        "other",
        null,
        1,
        true,
      ),
    );
  }

  const allProse = Object.values(prose).join("\n");
  // Each inline code on its own: two spans joined would read `d` before `2.0.0-alpha.11` as a package and its
  // release ("`D` and `d` look swapped … the `2.0.0-alpha.11` release"); the prose keeps each span in its sentence.
  const versionSources = [
    allProse,
    ...blocks
      .filter((b) => b.kind === "versions" || b.kind === "shell" || b.kind === "output")
      .map((b) => b.value),
    // `pip install x==1.2` / `npm i x@1.2` lines inside code blocks count too, and a CDN address the code imports
    // (`from "https://esm.sh/x@1.2"`): the release the reporter's page loaded (cdn-imports.ts reads its package).
    ...blocks.flatMap((b) =>
      b.value
        .split("\n")
        .filter(
          (l) =>
            /\b(pip3?|npm|yarn|pnpm)\s+(install|add|i)\b/.test(l) ||
            /\bhttps?:\/\/(?:esm\.sh|unpkg\.com|cdn\.jsdelivr\.net\/npm)\//.test(l),
        ),
    ),
  ];
  // A pasted output or error its words introduce as the right behaviour ("whereas CPython raises:", "it
  // correctly gives:") is the report's expected side, wherever it stands (reference-lead.ts).
  // Not a piece of a shell session (a session shown on two releases is judged as two sides, two-versions.ts).
  const sessionLines = new Set(blocks.filter((b) => b.kind === "shell" || b.shellRun).map((b) => b.line));
  // One labelled with a release the report places before its regression ("The output on python 3.11.4:" in a
  // "3.11.5 regression") is that side too: how it worked (good-version-lead.ts).
  const reportText = `${title}\n${allProse}`;
  for (const b of blocks) {
    if (
      b.section === "expected" ||
      (b.kind !== "output" && b.kind !== "error-output" && b.kind !== "traceback") ||
      sessionLines.has(b.line)
    )
      continue;
    if (referenceLead(b.lead)) b.section = "expected";
    else {
      const good = goodVersionLead(b.lead, reportText);
      if (good) {
        b.section = "expected";
        b.goodSide = `the output the report shows for ${good.version}, where it worked (${good.why})`;
      }
    }
  }
  // Code its words introduce the same way ("I'd expect a message closer to this one:", "in 3.10 it works:") still
  // runs, but the values its comments give (`//=> '9 is not a String'`) are the behaviour the reporter wants, not
  // the one reported: a run that prints them shows the report's expected side, never its claim. A comment the
  // reporter marks as the wrong value (`// <- wrong`) stays the claim.
  for (const b of blocks)
    if (b.section !== "expected" && b.kind === "code" && b.checks.length > 0 && referenceLead(b.lead))
      b.checks = expectedSectionChecks(b.checks).map((c) =>
        c.role === "expected" ? { ...c, control: true as const } : c,
      );
  // An error pasted under a condition ("If `_functools` is not blocked, you get:") beside code commented as not
  // raising (`# does not raise`): the other setup's behaviour, the one wanted; never the claim
  // (conditional-error.ts).
  if (blocks.some((b) => b.kind === "code" && noRaiseComment(b.value) !== null))
    for (const b of blocks)
      if ((b.kind === "traceback" || b.kind === "error-output") && conditionalLead(b.lead))
        b.section = "expected";
  // Words around a block that want something ("It would be good for `get()` to give back the default.") and then
  // tell in prose what happens now ("At the moment it gives back the object."): the block's comments show the
  // wish, so they are the expected side (want-around.ts). A comment marked wrong stays the claim.
  const markdownLines = markdown.split("\n");
  for (const b of blocks) {
    if (b.section === "expected" || b.kind !== "code" || !b.checks.some((c) => c.role === "actual")) continue;
    const around = proseAround(markdownLines, b.line);
    if (
      around &&
      wantedAround(
        around.before,
        around.after,
        b.checks.filter((c) => c.role === "actual").map((c) => c.value),
      )
    )
      b.checks = expectedSectionChecks(b.checks);
  }
  // A bare comment the prose corrects ("the output should be `Hello, World!`" under `f(x) // Hello, world!`):
  // the value the expression gave, read as its annotation (corrected-comment.ts).
  if (blocks.some((b) => b.kind === "code" && b.section !== "expected" && b.checks.length === 0)) {
    const wanted = proseClaims(proseWithCode).expected;
    for (const b of blocks) {
      if (b.kind !== "code" || b.section === "expected" || b.checks.length > 0) continue;
      if (b.language !== "javascript" && b.language !== "python" && b.language !== "typescript") continue;
      const flavour = b.language === "python" ? "python" : "js";
      const read = correctedComments(b.value, flavour, wanted);
      if (!read) continue;
      const annotated = annotate(flavour === "python" ? read : withHashComments(read), b.language);
      if (annotated.checks.length === 0) continue;
      Object.assign(b, { checks: annotated.checks, runValue: annotated.code, usesEcho: annotated.usesEcho });
    }
  }
  const versions = mergeMentions([
    findVersionMentions(versionSources.join("\n")),
    ...inlineCode.map((c) => findVersionMentions(c.value)),
  ]);
  const runtimeSources = [
    title,
    allProse,
    inlineCode.map((c) => c.value).join("\n"),
    ...blocks.filter((b) => b.kind !== "code").map((b) => b.value),
  ];
  return {
    title,
    blocks,
    prose,
    proseWithCode,
    inlineCode,
    versions,
    bareVersions: findBareVersions(`${title}\n${allProse}`),
    runtime: findRuntimeMention(runtimeSources.join("\n")),
  };
}

/** A report nothing could be read from (too long, or too costly to parse): its first line as the title. */
export function emptyReport(markdown: string): ParsedReport {
  const firstLine = markdown.slice(0, 300).split("\n", 1)[0] ?? "";
  return {
    title: firstLine
      .replace(/^#+\s*/, "")
      .trim()
      .slice(0, 120),
    blocks: [],
    prose: { expected: "", actual: "", steps: "", environment: "", other: "" },
    proseWithCode: "",
    inlineCode: [],
    versions: [],
    bareVersions: [],
    runtime: null,
  };
}

/** Mentions from several texts, de-duplicated by name (the first text's wins). */
function mergeMentions(lists: VersionMention[][]): VersionMention[] {
  const seen = new Set<string>();
  const out: VersionMention[] = [];
  for (const m of lists.flat()) {
    const key = m.name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(m);
  }
  return out;
}

/** `checkIfUrlIsValid('index.hu') --> false`: a call, an arrow, and the value it gives. */
const ARROW_CALL = /^\s*([A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)*\(.*\)\s*(?:-->|==>|→|⇒)\s*\S/;

/**
 * A fence without a language holding only calls with an arrow and a value (`f('a') --> false`, one a line) is
 * the report's calls and what each gave, written as annotations: code in the language of the report's block that
 * defines or calls that function, its arrows read as value comments (annotations.ts), so the calls run and
 * their values are checked. Only when every line is such a call and another code block names every callee.
 */
function callListsAsCode(blocks: ReportBlock[]): void {
  for (const b of blocks) {
    if (b.kind !== "output" || b.fence || b.shellRun) continue;
    const lines = b.value.split("\n").filter((l) => l.trim() !== "");
    const callees = lines.map((l) => ARROW_CALL.exec(l)?.[1] ?? null);
    if (lines.length === 0 || callees.some((c) => c === null)) continue;
    const home = blocks.find(
      (o) =>
        o !== b &&
        o.kind === "code" &&
        (o.language === "javascript" || o.language === "python" || o.language === "typescript") &&
        callees.every((c) => new RegExp(`(?<![\\w$.])${c!.replace(/\$/g, "\\$")}\\b`).test(o.value)),
    );
    if (!home) continue;
    const code = makeBlock(
      b.index,
      b.fence,
      b.value,
      "code",
      home.language,
      b.section,
      b.filename,
      b.line,
      false,
    );
    Object.assign(b, {
      kind: code.kind,
      language: code.language,
      checks: code.checks,
      runValue: code.runValue,
      usesEcho: code.usesEcho,
    });
  }
}
