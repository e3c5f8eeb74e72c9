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
  const expected = [
    ...(sectionExpected !== null ? [sectionExpected] : []),
    ...led.expected,
    ...labelled.expected,
  ];
  return expected.length > 0
    ? { actual: [], expected, source: "the value the report gives as expected" }
    : null;
}
