/**
 * Actual and expected values a report states outside its code and outside sentences, in the shapes issue templates
 * and quick reports take:
 * - a heading (`## Actual Outcome`) over nothing but one value (`"accommodation"`);
 * - a line that is only a label (`output`, `**Actual:**`, `Expected result`) over a line that is only a value
 *   (`` `899,798,776,786,785.90` ``);
 * - a block introduced by a lead that names its side ("and what I actually got:", "What I expected:") whose content
 *   is a value, not a program (a printed array or object, a string).
 * Only values count: a line of prose, a statement or a program is never taken as a claim.
 */
import { looksLikeValue } from "./annotations.ts";
import type { ParsedReport, ReportBlock } from "./parse-report.ts";

export interface StatedSides {
  actual: string[];
  expected: string[];
  /** Where the values were read, for the verdict. */
  source: string;
}

const ACTUAL_LABEL =
  /^(?:actual(?:ly)?(?:\s+(?:output|result|outcome|behaviou?r|value))?|output|result|current(?:\s+(?:output|result|behaviou?r))?|got|observed|(?:i|we)\s+(?:get|got|see))$/i;
const EXPECTED_LABEL =
  /^(?:expected(?:\s+(?:output|result|outcome|behaviou?r|value))?|expect(?:ation)?|should\s+be|desired(?:\s+(?:output|result))?|wanted)$/i;

/** The label of a line that holds nothing else (`**Actual:**`, `output`, `Expected result:`), else null. */
function lineLabel(line: string): "actual" | "expected" | null {
  const t = line
    .trim()
    .replace(/^#+\s*/, "")
    .replace(/[*_]/g, "")
    .replace(/\s*:\s*$/, "")
    .trim();
  if (ACTUAL_LABEL.test(t)) return "actual";
  if (EXPECTED_LABEL.test(t)) return "expected";
  return null;
}

/**
 * One value alone on its line: an inline code span, a quoted string, a number or literal, a bracketed structure.
 * Returned as the reporter wrote it, inline-code backticks removed.
 */
export function statedValue(line: string): string | null {
  const t = line.trim();
  if (t === "" || t.length > 200) return null;
  const code = /^`([^`]+)`$/.exec(t);
  if (code) {
    const v = code[1]!.trim();
    // A statement in backticks (`console.log(x)`, `x = f()`) is code, not a value.
    if (/^[\w$.]+\s*\(|^(?:const|let|var|import|from|print|return)\b|[^=!<>]=[^=>]/.test(v)) return null;
    return v;
  }
  if (/^"[^"]*"$|^'[^']*'$/.test(t)) return t;
  if (/^[[{].*[\]}]$/.test(t)) return t;
  if (/^(?:true|false|null|undefined|None|True|False|NaN|-?Infinity)$/.test(t)) return t;
  if (looksLikeValue(t) && /\d/.test(t) && !/[A-Za-z]{3,}/.test(t)) return t;
  return null;
}

/** The non-empty lines of a section's prose when they are one value, else null. */
function sectionValue(text: string): string | null {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return lines.length === 1 ? statedValue(lines[0]!) : null;
}

/** Label lines directly over a value line, anywhere in the prose (inline code kept in backticks). */
function labelledValues(prose: string): { actual: string[]; expected: string[] } {
  const actual: string[] = [];
  const expected: string[] = [];
  const lines = prose.split("\n").filter((l) => l.trim() !== "");
  for (let i = 0; i + 1 < lines.length; i++) {
    const side = lineLabel(lines[i]!);
    const value = side ? statedValue(lines[i + 1]!) : null;
    if (side && value !== null) (side === "actual" ? actual : expected).push(value);
  }
  return { actual, expected };
}

const ACTUAL_LEAD =
  /\b(?:actual(?:ly)?|(?:i|we)\s+(?:get|got|see|saw|receive|received)|(?:but|instead)\s+(?:got|get|it\s+(?:returns?|gives?|prints?))|(?:the\s+)?(?:current|real)\s+(?:output|result))\b/i;
const EXPECTED_LEAD = /\b(?:expect\w*|should|want\w*|desired|correct\s+(?:output|result))\b/i;

/** A block's content read as a value: a printed structure or string over one or more lines, not code. */
function blockValue(b: ReportBlock): string[] | null {
  if (b.kind === "output") return b.value.split("\n").filter((l) => l.trim() !== "");
  // A `console` fence of printed lines, no prompt or command in it, under "What it actually prints:".
  if (b.kind === "shell") {
    const lines = b.value.split("\n").filter((l) => l.trim() !== "");
    const command = (l: string) =>
      /^\s*(?:[$%#>]|>>>|PS\b|[A-Z]:\\|\w[\w.-]*@[\w.-]+|(?:npx?|node|python\d*|pip\d?|yarn|pnpm|deno|bun)\b)/.test(
        l,
      );
    return lines.length > 0 && !lines.some(command) ? lines : null;
  }
  if (b.kind !== "code") return null;
  const v = b.value.trim();
  // A structure as Node or Python prints it: opens with a bracket and closes with its mate, no statements.
  const structure =
    (/^\[[\s\S]*\]$/.test(v) || /^\{[\s\S]*\}$/.test(v)) &&
    !/[;]\s*$|\b(?:function|const|let|var|return|def|import|print|console)\b|=>|\)\s*\{/m.test(v);
  if (structure || loneStated(v)) return v.split("\n").filter((l) => l.trim() !== "");
  return null;
}

function loneStated(v: string): boolean {
  const lines = v.split("\n").filter((l) => l.trim() !== "");
  return lines.length === 1 && statedValue(lines[0]!) !== null;
}

/** Blocks whose lead names one side, each holding a value: the side's lines. */
function ledBlocks(report: ParsedReport): { actual: string[]; expected: string[] } {
  const actual: string[] = [];
  const expected: string[] = [];
  for (const b of report.blocks) {
    const lead = b.lead ?? "";
    const isActual = ACTUAL_LEAD.test(lead);
    const isExpected = EXPECTED_LEAD.test(lead);
    if (isActual === isExpected) continue;
    const value = blockValue(b);
    if (!value || value.length === 0) continue;
    if (isActual && actual.length === 0) actual.push(...value);
    if (isExpected && expected.length === 0) expected.push(...value);
  }
  return { actual, expected };
}

/** A verb of output at the end of a lead line: "Brython gives me", "and what you get is:", "It prints", "Result:". */
const OUTPUT_LEAD =
  /\b(?:gives?(?:\s+(?:me|us))?|gave(?:\s+(?:me|us))?|prints?|printed|shows?|showed|displays?|displayed|outputs?|returns?|returned|logs?|logged|(?:i|you|we)\s+(?:get|got|see)(?:\s+is)?|result(?:\s+is)?|output(?:\s+is)?)\s*:?$/i;
/** A lead that names the wanted side ("the expected, correct result", "which should be"): never the actual. */
const WANTED_LEAD = /\b(?:expect(?:ed|ing)?|should|ought|want\w*|desired|correct|right|sensible|intended)\b/i;
/** A lead that sets its block against the one before ("whereas CPython gives", "while Node prints"). */
const CONTRAST_LEAD = /^(?:whereas|while|in contrast|compared (?:to|with)|on the other hand)\b/i;

/** A value line as a reporter pastes printed output: a stated value, or markup a program printed (`<span …>…</span>`). */
function pastedValue(line: string): string | null {
  const v = statedValue(line);
  if (v !== null) return v;
  const t = line.trim().replace(/^`([^`]+)`$/, "$1");
  if (/^<[A-Za-z][\s\S]*>$/.test(t) && t.length <= 2000) return t;
  // One printed token with no spaces (`hello+%22i+think%22+%26`): not a word, a call, an assignment or a label.
  return /^[^\s()=;:{}<>]{8,200}$/.test(t) && /[^A-Za-z]/.test(t) && !/^[a-z_$][\w$]*\.[\w$.]+$/i.test(t)
    ? t
    : null;
}

/**
 * The value lines right under a lead line: one or more stated values, or a printed structure over several lines
 * (`{` … `}`), up to the first line that is neither. Empty when the lines under the lead are prose or code.
 */
function valuesUnder(lines: string[], from: number): string[] {
  const out: string[] = [];
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (/^[[{]$|^[[{].*[^\]}]$/.test(line) && out.length === 0) {
      // A structure printed over several lines: up to the line that closes it.
      const open = line[0]!;
      const close = open === "[" ? "]" : "}";
      const j = lines.findIndex((l, k) => k > i && l.trim().startsWith(close) && l.trim().length <= 3);
      if (j < 0 || j - i > 60) return [];
      const block = lines.slice(i, j + 1);
      if (
        block.some((l) => /;\s*$|\b(?:function|const|let|var|return|def|import|print|console)\b|=>/.test(l))
      )
        return [];
      return block;
    }
    const v = pastedValue(line);
    if (v === null) break;
    out.push(v);
  }
  return out;
}

/**
 * Printed output pasted in the words (no fence) under a lead that says a program gave it: "and what you get is:"
 * over an object, "Brython gives me" over three lines then "whereas CPython gives" over three others, "It prints"
 * over a code span. The actual side is a block whose lead names what happens; a block whose lead names the wanted
 * side (expected, correct, should) or sets itself against the one before (whereas …) is the expected side, never
 * the actual. Two or more plain leads with nothing to tell them apart say nothing (null).
 */
function ledProseValues(prose: string): { actual: string[]; expected: string[] } | null {
  const lines = prose.split("\n").filter((l) => l.trim() !== "");
  const led: { kind: "actual" | "wanted" | "contrast" | "plain"; values: string[] }[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const lead = lines[i]!.trim()
      .replace(/[*_]/g, "")
      .replace(/^[-*]\s+/, "");
    if (lead.length > 80 || !OUTPUT_LEAD.test(lead)) continue;
    const values = valuesUnder(lines, i + 1);
    if (values.length === 0) continue;
    const kind = WANTED_LEAD.test(lead)
      ? "wanted"
      : CONTRAST_LEAD.test(lead)
        ? "contrast"
        : ACTUAL_LEAD.test(lead)
          ? "actual"
          : "plain";
    led.push({ kind, values });
  }
  const actualLed = led.filter((l) => l.kind === "actual");
  const plain = led.filter((l) => l.kind === "plain");
  const chosen =
    actualLed.length === 1 ? actualLed[0] : actualLed.length === 0 && plain.length === 1 ? plain[0] : null;
  if (!chosen) return null;
  // A contrasting block counts as the expected side only when it follows the chosen one.
  const expected = led.find(
    (l) => l.kind === "wanted" || (l.kind === "contrast" && led.indexOf(l) > led.indexOf(chosen)),
  );
  if (led.some((l) => l.kind === "contrast" && led.indexOf(l) < led.indexOf(chosen))) return null;
  return { actual: chosen.values, expected: expected?.values ?? [] };
}

/**
 * The report's stated actual and expected values in these shapes, or null when it states no actual value in them
 * (an expected value alone is returned too: it lets a run that prints it be told apart).
 */
export function statedSides(report: ParsedReport): StatedSides | null {
  const sectionActual = sectionValue(report.prose.actual);
  const sectionExpected = sectionValue(report.prose.expected);
  if (sectionActual !== null)
    return {
      actual: [sectionActual],
      expected: sectionExpected !== null ? [sectionExpected] : [],
      source: "the value under the report's Actual heading",
    };
  const led = ledBlocks(report);
  if (led.actual.length > 0)
    return { ...led, source: "the block the report introduces as what it actually got" };
  const labelled = labelledValues(report.proseWithCode);
  if (labelled.actual.length > 0)
    return { ...labelled, source: "the value on the line after the report's label" };
  const pasted = ledProseValues(report.proseWithCode);
  if (pasted && pasted.actual.length > 0)
    return { ...pasted, source: "the output the report pastes under the words that say the program gave it" };
  const expected = [
    ...(sectionExpected !== null ? [sectionExpected] : []),
    ...led.expected,
    ...labelled.expected,
  ];
  return expected.length > 0
    ? { actual: [], expected, source: "the value the report gives as expected" }
    : null;
}
