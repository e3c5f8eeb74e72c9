/**
 * What the report says happens (the buggy behaviour), and what it says should happen.
 * Sources, strongest first: a pasted traceback / error output, a REPL transcript, pasted output in the
 * "Actual" section, an exception named in the prose, words like "hangs" or "crashes".
 */
import { expectedCommentActual } from "./expected-comment.ts";
import { withoutOutputRemark } from "./output-remark.ts";
import { splitComment } from "./annotations.ts";
import { noRaiseComment } from "./conditional-error.ts";
import { segmentMarks } from "./segment-marks.ts";
import type { ParsedReport } from "./parse-report.ts";
import type { ReportedBehaviour } from "./result.ts";
import { parseNodeException, parsePythonException, pythonRaisingFrame } from "./outcome.ts";
import { claimsProcessCrash } from "./process-crash.ts";
import { labelledCommandValue } from "./package-cli.ts";
import { statedSides } from "./stated-sides.ts";
import { programBlocks } from "./complete.ts";
import { printedSource } from "./printed-source.ts";
import { formerNowSides } from "./former-now.ts";
import { labelledValueClaim, listedValues, proseClaims, proseTwoVersions } from "./prose-claims.ts";
import { ALTERNATIVE_PYTHON } from "./reference-lead.ts";
import { referencePrint } from "./reference-print.ts";
import { framesOnlyIn, type Side, sameOutcome, type TwoVersions, twoVersions } from "./two-versions.ts";
import { leadVerdict, verdictFor } from "./version-verdict.ts";
import { parseTranscript } from "./transcript.ts";

/**
 * Annotated values that cannot be compared across runs or versions (a function's or a module's inspect, an object
 * the reporter saw stringified). `[object Object]` inside a quoted string (`'[object Object] doesn\'t match'`) is
 * text a program returned, which compares like any other.
 */
function comparable(value: string): boolean {
  if (/\[Function|\[class |<function |<module |object at 0x/.test(value)) return false;
  const unquoted = value.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
  return !/\[object Object\]/.test(unquoted);
}

const REFERENCE_RUNTIME = /^C?Python$/i;
const VERSION_LABEL = /^(?:python|py|node|v)?\s?(\d+\.\d+(?:\.\d+)?)/i;

/**
 * Comments that give one value per runtime or version (`# CPython: None   PyPy: ''`, `# output in python 3.10:`
 * / `# output in python 3.11 onwards`): which side is the reported one. The report's words about a label decide
 * first ("3.10 ought to behave like 3.11"); else a comparison of another implementation (PyPy, Brython, the
 * browser) with the reference one (CPython, Node) holds the reference as right; else, between versions, the
 * title naming one, or a change the report complains of ("than before", "no longer", "regression"): the later
 * version. Null when the comments give no such values or nothing decides.
 */

/**
 * Other words for a run that does not end (issue 12, hold24): "loops forever", "runs forever", and a CPU pegged at
 * 100% ("goes to 100% CPU", "pegs the CPU at 100%", "100% CPU usage"). A percentage of anything else ("100% of the
 * tests") or a loop that ends ("loops over each key") is not one.
 */
const HANG_WORDS =
  /\b(?:loops?|looping|runs?|running|spins?|spinning)\s+forever\b|\b100\s?%\s*(?:of\s+(?:the\s+|a\s+|one\s+)?)?(?:cpu|core)\b|\b(?:cpu|core)\b[^.\n]{0,30}\b100\s?%/i;

export function commentSides(
  report: ParsedReport,
): { bad: string[]; good: string[]; badLabel: string; goodLabel: string; why: string } | null {
  const withSides = programBlocks(report)
    .flatMap((b) => b.checks)
    .filter((c) => c.sides && c.sides.length >= 2);
  if (withSides.length === 0) return null;
  const labels = [...new Set(withSides.flatMap((c) => c.sides!.map((x) => x.label)))];
  if (labels.length !== 2) return null;
  const text = `${report.title}\n${report.proseWithCode}`;
  const bare = (l: string) => VERSION_LABEL.exec(l)?.[1] ?? l;
  let bad: string | null = null;
  let why = "";
  const words = labels.map((l) => ({ l, v: verdictFor(bare(l), text) }));
  const saidBad = words.filter((w) => w.v === "bad");
  const saidGood = words.filter((w) => w.v === "good");
  if (saidBad.length === 1) bad = saidBad[0]!.l;
  else if (saidGood.length === 1) bad = labels.find((l) => l !== saidGood[0]!.l)!;
  if (bad) why = "the report's words single it out";
  const versions = labels.map((l) => VERSION_LABEL.exec(l)?.[1] ?? null);
  if (!bad) {
    const reference = labels.filter((l) => REFERENCE_RUNTIME.test(l));
    const others = labels.filter((l) => !REFERENCE_RUNTIME.test(l));
    if (reference.length === 1 && others.every((l) => ALTERNATIVE_PYTHON.test(l))) {
      bad = labels.find((l) => l !== reference[0])!;
      why = `the report compares ${bad} with ${reference[0]}, the reference implementation`;
    }
  }
  if (!bad && versions.every((v) => v !== null)) {
    const inTitle = labels.filter((l) =>
      new RegExp(`(?<![\\w.])${bare(l).replace(/\./g, "\\.")}(?![\\w]|\\.\\d)`).test(report.title),
    );
    if (inTitle.length === 1) {
      bad = inTitle[0]!;
      why = `the title names ${bad}`;
    } else if (
      /\bregress\w*|\b(?:since|after) upgrading|\bno longer\b|\b(?:than|from) before\b|\bbackwards? compat\w*|\bused to\b/i.test(
        text,
      )
    ) {
      const num = (l: string) =>
        bare(l)
          .split(".")
          .map((p) => Number.parseInt(p, 10) || 0);
      const [x, y] = labels.map(num) as [number[], number[]];
      const cmp = x[0]! - y[0]! || (x[1] ?? 0) - (y[1] ?? 0) || (x[2] ?? 0) - (y[2] ?? 0);
      if (cmp !== 0) {
        bad = cmp > 0 ? labels[0]! : labels[1]!;
        why = `the report describes a change from the earlier version: the later one, ${bad}, is the one it reports`;
      }
    }
  }
  if (!bad) return null;
  const goodLabel = labels.find((l) => l !== bad)!;
  const pick = (label: string) =>
    withSides.map((c) => c.sides!.find((x) => x.label === label)?.value).filter((v): v is string => !!v);
  return { bad: pick(bad), good: pick(goodLabel), badLabel: bad, goodLabel, why };
}

/** A comment calling what a print shows empty (`# empty`, `// nothing`, `# empty ; expected {'a': '4'}`). */
const EMPTY_COMMENT =
  /^\s*(?:\(?(?:empty|blank|nothing)\)?|empty\s+(?:output|line|string|result)|prints\s+nothing|nothing\s+(?:printed|is\s+printed))\s*(?:[;,.!]|\s-+\s|$)(?:\s*(?:but\s+|while\s+|i\s+)?expected?(?:ed|ing)?\b.*)?\s*$/i;

/**
 * The program's one printing statement (`print(cookie)`, `console.log(x)`) carries a comment calling what it shows
 * empty, maybe with the value wanted (`# empty ;  expected {'version': '4'}`): the claim is a run that exits 0 and
 * prints nothing but blank lines. Not read with a second print (which would print what?), nor for "empty list" /
 * "empty dict" (those print `[]` / `{}`).
 */
function emptyPrintClaim(report: ParsedReport): ReportedBehaviour | null {
  const blocks = programBlocks(report);
  const prints: { code: string; comment: string | null }[] = [];
  for (const b of blocks) {
    const flavour = b.language === "python" ? "python" : "js";
    for (const line of b.value.split("\n")) {
      const { code, comment } = splitComment(line, flavour);
      if (/(?:^|[^\w$.])(?:print|console\.(?:log|info))\s*\(/.test(code))
        prints.push({ code: code.trim(), comment });
    }
  }
  if (prints.length !== 1) return null;
  const [only] = prints;
  if (!only!.comment || !EMPTY_COMMENT.test(only!.comment)) return null;
  // The value must come from a call into code, not from the environment, a file or the network the sandbox does
  // not share with the reporter (`os.environ.get('TOKEN', '')`): else an empty print shows nothing of a package.
  const from = printedSource(blocks.map((b) => b.value).join("\n"), only!.code);
  if (from.environment !== null || !from.called) return null;
  return {
    kind: "exit",
    exceptionType: null,
    exceptionMessage: null,
    output: [],
    exitCode: 0,
    silent: true,
    printsLine: true,
    source: `the comment on \`${only!.code.slice(0, 80)}\` (\`${only!.comment.trim().slice(0, 80)}\`: it prints nothing)`,
  };
}

/** What the comments next to the program's code say it does: the first stated error, else the stated outputs. */
function commentBehaviour(report: ParsedReport): ReportedBehaviour | null {
  const sides = commentSides(report);
  if (sides)
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: sides.bad,
      source: `the comments giving a value per runtime: ${sides.badLabel}'s (${sides.why}; ${sides.goodLabel}'s is the expected one)`,
    };
  const empty = emptyPrintClaim(report);
  if (empty) return empty;
  // Identical code pasted twice runs once (complete.ts): its comments state one claim, not two in a row.
  const seen = new Set<string>();
  const checks = programBlocks(report)
    .filter((b) => b.kind !== "code" || (!seen.has(b.value.trim()) && seen.add(b.value.trim()) !== undefined))
    .flatMap((b) => b.checks)
    .filter((c) => !c.sides);
  const actual = checks.filter((c) => c.role === "actual" && comparable(c.value));
  const error = actual.find((c) => c.kind === "error");
  const where = (c: { line: number; code: string }) => `the comment on \`${c.code.slice(0, 80)}\``;
  if (error) {
    const ex = parseNodeException(error.value) ?? parsePythonException(error.value);
    if (ex)
      return {
        kind: "exception",
        exceptionType: ex.type,
        exceptionMessage: ex.message || null,
        output: [],
        source: where(error),
      };
  }
  const outputs = actual.filter((c) => c.kind === "output");
  if (outputs.length === 0) return null;
  // Comments that give what the prose says the reporter does not get ("I do not get the promised `'$90,000,-'`:
  // the call returns `false`", a documentation example pasted with its promised result) are the expected
  // behaviour, not the claim: the prose's own actual value is, when it states one (step 6); a run printing them
  // is never a reproduction.
  const prose = proseClaims(report.proseWithCode);
  if (outputs.every((c) => prose.expected.includes(c.value.trim()))) return null;
  // Calls written from the report's words (a placeholder call and its listed inputs) say where they came from.
  const madeFrom = programBlocks(report).find((b) => b.madeFrom)?.madeFrom;
  return {
    kind: "output",
    exceptionType: null,
    exceptionMessage: null,
    output: outputs.map((c) => c.value),
    source: madeFrom
      ? `the report's words (${madeFrom})`
      : outputs.length === 1
        ? where(outputs[0]!)
        : `the comments annotating ${outputs.length} lines of the code`,
  };
}

export interface ReportedExpectations {
  /** The behaviour the report calls wrong: what a reproduction must show. */
  actual: ReportedBehaviour;
  /** What the reporter expected instead (correct behaviour), as lines; empty when not stated. */
  expectedOutput: string[];
  /** Expected section prose, for the report. */
  expectedText: string;
  /** An error the report shows as the correct behaviour (the good side of two transcripts), when it does. */
  expectedException: { type: string; message: string } | null;
  /** The two sides when the report shows one session on two versions, and why one was taken as the bug. */
  twoVersions: TwoVersions | null;
  /**
   * The run of a script whose output is the claim (`$ node cli.js --fast yes`): the program runs with these
   * arguments, so the output compared is the output of the same invocation. Null when the claim is not a run.
   */
  invocation: { file: string; args: string[] } | null;
  /** What the expected lines are, when a version label placed their block on the good side (good-version-lead.ts). */
  expectedFrom?: string;
}

const EXCEPTION_IN_TEXT =
  /\b([A-Z][\w]*(?:\.[A-Z][\w]*)*(?:Error|Exception|Warning|Interrupt|Iteration|Exit))\b(?::\s*([^\n]+))?/;

function none(source: string): ReportedBehaviour {
  return { kind: "unknown", exceptionType: null, exceptionMessage: null, output: [], source };
}

function stripInlineQuotes(s: string): string {
  return s.trim().replace(/^`|`$/g, "").trim();
}

/**
 * The error a pasted traceback or error output shows as the right behaviour: a block under the Expected label or
 * introduced as the correct one ("whereas CPython raises:"). Null when no such block holds one.
 */
export function shownAsExpected(report: ParsedReport): { type: string; message: string } | null {
  for (const b of report.blocks) {
    if (b.section !== "expected" || (b.kind !== "traceback" && b.kind !== "error-output")) continue;
    const ex =
      b.kind === "traceback" || b.language === "python"
        ? (parsePythonException(b.value) ?? parseNodeException(b.value))
        : (parseNodeException(b.value) ?? parsePythonException(b.value));
    if (ex) return { type: ex.type, message: ex.message };
  }
  return null;
}

export function reportedExpectations(report: ParsedReport): ReportedExpectations {
  const two = twoVersions(
    report,
    report.blocks.filter((b) => b.section !== "expected"),
  );
  if (two) {
    const { bad, good } = two;
    // What the two sides disagree on is the claim: lines both print, and a line that only prints the runtime's
    // own version (`3.11.5 | packaged by …`), say nothing about the bug.
    const key = (l: string) => l.replace(/\s+/g, "");
    const banner = (l: string) => /^(?:Python\s+|v)?\d+\.\d+\.\d+\S*(?:\s*[|(].*)?$/.test(l.trim());
    // A comment the reporter typed after a printed line (`[1, 2]  # Missing 0 (!)`) is not printed.
    const uncommented = (l: string) => l.replace(/\s{2,}(?:#|\/\/)\s.*$/, "");
    const differing = (a: string[], b: string[]) => {
      const other = new Set(b.map((l) => key(uncommented(l))));
      const lines = a.map(uncommented).filter((l) => !other.has(key(l)) && !banner(l));
      return lines.length > 0 ? lines : a.map(uncommented);
    };
    const badOutput = bad && good ? differing(bad.output, good.output) : (bad?.output ?? []);
    const goodOutput = bad && good ? differing(good.output, bad.output) : (good?.output ?? []);
    // Of one block's many versions, the others that show the bad side's outcome are not the expected behaviour.
    const outcome = (s: Side) =>
      s.exception ? `${s.exception.type}: ${s.exception.message}` : s.output.join("\n").replace(/\s+/g, "");
    // The same error on both sides, raised through frames only the bad side shows: those frames are the claim.
    const goodFiles = new Set((good?.frames ?? []).map((f) => f.file));
    const extraFrames =
      bad?.exception &&
      good?.exception &&
      bad.exception.type === good.exception.type &&
      bad.exception.message === good.exception.message
        ? framesOnlyIn(bad, good).map((f) => ({ ...f, own: goodFiles.has(f.file) }))
        : [];
    const others = two.sides
      .filter((s) => s !== bad && !(bad && outcome(s) === outcome(bad) && sameOutcome(s, bad)))
      .map((s) => `\`${s.label}\``);
    const actual: ReportedBehaviour = !bad
      ? none(`two transcripts, neither named as the wrong one: ${two.why}`)
      : bad.exception
        ? {
            kind: "exception",
            exceptionType: bad.exception.type,
            exceptionMessage: bad.exception.message || null,
            output: badOutput,
            ...(extraFrames.length > 0 ? { frames: extraFrames } : {}),
            source: `the \`${bad.label}\` transcript (${two.why}; ${others.join(", ")} ${others.length > 1 ? "show" : "shows"} the expected behaviour)`,
          }
        : {
            kind: "output",
            exceptionType: null,
            exceptionMessage: null,
            output: badOutput,
            source: `the \`${bad.label}\` transcript (${two.why}; ${others.join(", ")} ${others.length > 1 ? "show" : "shows"} the expected behaviour)`,
          };
    return {
      actual,
      expectedOutput: good && !good.exception ? goodOutput : [],
      expectedText: report.prose.expected.trim(),
      expectedException: good?.exception ?? null,
      twoVersions: two,
      invocation: bad?.block.shellRun?.script ?? null,
    };
  }
  const expectedOutput: string[] = [];
  for (const b of report.blocks) {
    if (b.section === "expected" && (b.kind === "output" || b.kind === "error-output")) {
      expectedOutput.push(...b.value.split("\n").filter((l) => l.trim() !== ""));
    }
  }
  if (expectedOutput.length === 0) {
    // Values on code the words call right (`control`) are the expectation only when no comment states what the
    // reported code does: beside such a claim they belong to another call (a working one set against the broken
    // one), which prints them whether the bug shows or not.
    const checks = programBlocks(report).flatMap((b) => b.checks);
    const claimed = checks.some((c) => c.role === "actual");
    for (const c of checks)
      if (c.role === "expected" && c.kind === "output" && !(c.control && claimed))
        expectedOutput.push(c.value);
  }
  if (expectedOutput.length === 0) expectedOutput.push(...(commentSides(report)?.good ?? []));
  // Values listed one per line under the Expected heading (`d1 is "4-53-2020"`).
  if (expectedOutput.length === 0) expectedOutput.push(...listedValues(report.prose.expected));
  if (expectedOutput.length === 0) expectedOutput.push(...proseClaims(report.proseWithCode).expected);
  if (expectedOutput.length === 0) {
    for (const c of report.inlineCode)
      if (c.section === "expected" && !/[()]/.test(c.value)) expectedOutput.push(c.value);
  }
  const shell = shellClaim(report.blocks.filter((b) => b.section !== "expected"));
  // The same invocation shown again with other output (what the reporter wants, for the case that fails).
  if (expectedOutput.length === 0 && shell?.wanted) expectedOutput.push(...shell.wanted);
  let actual = ownAssertion(report, actualBehaviour(report, shell));
  // The labelled line with the value after "instead of" is the expected line (not the bare value).
  if (actual.source.startsWith("the report's words on the program's")) {
    const expectedLine = labelledClaim(report)?.expected;
    if (expectedLine) expectedOutput.splice(0, expectedOutput.length, expectedLine);
  }
  // Values the prose ties to two versions ("on 3.10 this prints `GET`, on 3.11 `Method.GET`"): when the
  // report's only claim is its words, the bad version's value is the claim and the good one's the expectation.
  if (actual.kind === "unknown" || /^the report's words/.test(actual.source)) {
    const sides = proseTwoVersions(report.title, report.proseWithCode);
    if (sides) {
      actual = {
        kind: "output",
        exceptionType: null,
        exceptionMessage: null,
        output: [sides.bad.value],
        source: `the report's words: \`${sides.bad.value}\` on ${sides.bad.label}, \`${sides.good.value}\` on ${sides.good.label} (${sides.why})`,
      };
      expectedOutput.splice(0, expectedOutput.length, sides.good.value);
    }
  }
  // Values stated under Actual/Expected headings, after a label line, or in a block its lead names.
  if (actual.kind === "unknown") {
    const stated = statedSides(report);
    if (stated && stated.actual.length > 0) {
      actual = {
        kind: "output",
        exceptionType: null,
        exceptionMessage: null,
        output: stated.actual,
        source: stated.source,
      };
      if (stated.expected.length > 0) expectedOutput.splice(0, expectedOutput.length, ...stated.expected);
    } else if (stated && expectedOutput.length === 0) expectedOutput.push(...stated.expected);
  }
  // A package command the session runs, named as a label with its value (an issue template's "Version
  // (`retire --version`):" over "2.2.4"): what that command prints, as the reporter sees it.
  if (actual.kind === "unknown") {
    const prose = Object.values(report.prose).join("\n");
    for (const b of report.blocks) {
      const cli = b.shellRun?.cli;
      const value = cli ? labelledCommandValue(prose, cli.typed) : null;
      if (!cli || !value) continue;
      actual = {
        kind: "output",
        exceptionType: null,
        exceptionMessage: null,
        output: [value],
        source: `the report's words: \`${cli.typed}\` gives \`${value}\``,
      };
      break;
    }
  }
  // A session shown under the Expected heading: what it prints is what the reporter expects.
  if (expectedOutput.length === 0)
    for (const b of report.blocks)
      if (b.section === "expected" && b.shellRun && !b.shellRun.errorText && !b.shellRun.script)
        expectedOutput.push(...b.shellRun.output);
  // Only the expected output, as a block of its own, and words saying the code's output is not it ("lists are not
  // formatted as expected"): the claim is that the run prints something else.
  if (
    actual.kind === "unknown" &&
    expectedOutput.length > 0 &&
    report.blocks.some((b) => b.section === "expected" && b.kind === "output") &&
    saysNotAsExpected(Object.values(report.prose).join("\n"))
  )
    actual = {
      ...actual,
      notExpected: true,
      source: "the report's words: what the code prints is not the expected output it shows",
    };
  // The package's call printed beside a built-in reference on the same arguments, "not as expected": they differ.
  if (actual.kind === "unknown" && !actual.notExpected) {
    const pair = programBlocks(report)
      .map((b) => referencePrint(b.value, `${report.title}\n${Object.values(report.prose).join("\n")}`))
      .find((p) => p !== null);
    if (pair)
      actual = {
        ...actual,
        referencePrint: pair,
        source: "the report's words: its call's output differs from the reference it prints beside it",
      };
  }
  // Nothing claimed but that the call is slow: a run stopped at the time limit, busy on the CPU, shows it.
  if (
    actual.kind === "unknown" &&
    !actual.notExpected &&
    saysSlow(`${report.title}\n${report.proseWithCode}`)
  )
    actual = { ...actual, slow: true, source: "the report's words: the call is slow" };
  // The expected lines are an output a version label placed on the good side: said so in the verdict.
  const goodSide = report.blocks.find(
    (b) => b.goodSide && b.value.split("\n").some((l) => expectedOutput.includes(l)),
  )?.goodSide;
  return {
    actual,
    expectedOutput,
    expectedText: report.prose.expected.trim(),
    expectedException: shownAsExpected(report),
    ...(goodSide ? { expectedFrom: goodSide } : {}),
    twoVersions: null,
    // The claim is that run's (read from the run, or from the same error pasted in the session's block).
    invocation: shell && sameClaim(actual, shell.behaviour) ? (shell.block.shellRun?.script ?? null) : null,
  };
}

/** The first assertion the program's own code makes (`assert x == y`, `assert.equal(a, b)`, `self.assertEqual`), if any. */
/**
 * Words saying what the code gives is not what was expected, with no wanting before them: "are not formatted as
 * expected", "isn't displayed as expected", "does not print the expected output". Not "should not …", not a
 * question, not the words about a case that works ("works as expected").
 */
export function saysNotAsExpected(prose: string): boolean {
  return prose
    .split(/(?<=[.!?])\s+|\n/)
    .some(
      (sentence) =>
        !/\?\s*$/.test(sentence) &&
        /\b(?:(?:is|are|was|were|does|do|did)\s*n[o']?t|not)\s+(?:\w+\s+){0,2}?(?:as expected|the expected (?:output|result|format(?:ting)?))\b/i.test(
          sentence,
        ) &&
        !/\b(?:should|would|must|ought to|supposed to)\b[^.]*\bnot\b[^.]*\bexpected\b/i.test(sentence),
    );
}

/**
 * Words saying the call is slow, as what happens: "is extremely slow", "takes forever", "takes several minutes",
 * "catastrophic backtracking". Not negated or wanted ("is not slow", "no longer slow", "should not take minutes"),
 * not a question, not the past ("used to be slow").
 */
export function saysSlow(prose: string): boolean {
  return prose
    .split(/(?<=[.!?])\s+|\n/)
    .some(
      (sentence) =>
        !/\?\s*$/.test(sentence) &&
        /\b(?:(?:very|extremely|really|super|incredibly|too|so|painfully|unusably|quite)\s+slow(?:ly)?|slows?\s+down|takes?\s+(?:forever|ages|(?:several\s+|many\s+|a\s+few\s+)?(?:minutes|hours)|an?\s+(?:very\s+|really\s+)?long\s+time)|catastrophic\s+backtracking|exponential(?:ly)?\s+(?:time|slow\w*|backtracking))\b/i.test(
          sentence,
        ) &&
        !/\b(?:not|no\s+longer|never|isn't|aren't|wasn't|doesn't|don't|should|shouldn't|expected?|used\s+to)\b/i.test(
          sentence,
        ),
    );
}

export function firstOwnAssertion(report: ParsedReport): string | null {
  for (const b of programBlocks(report)) {
    const code = b.value;
    if (b.language === "python") {
      // `assert x == y` and `assert(x == y)` (a call's parentheses around the condition) alike.
      const m = /^[ \t]*(assert[\s(][^\n]+|self\.assert\w*\([^\n]*)/m.exec(code);
      if (m?.[1]) return m[1].trim();
      continue;
    }
    // Names bound to Node's assert module: `const assert = require('assert')`, `const { equal } = require('node:assert')`.
    const names = new Set<string>();
    const mod = String.raw`['"](?:node:)?assert(?:\/strict)?['"]`;
    for (const m of code.matchAll(
      new RegExp(String.raw`(?:const|let|var)\s+([\w$]+)\s*=\s*require\(\s*${mod}\s*\)`, "g"),
    ))
      names.add(m[1]!);
    for (const m of code.matchAll(
      new RegExp(String.raw`import\s+(?:\*\s+as\s+)?([\w$]+)\s+from\s+${mod}`, "g"),
    ))
      names.add(m[1]!);
    for (const m of code.matchAll(
      new RegExp(
        String.raw`(?:(?:const|let|var)\s+\{([^}]*)\}\s*=\s*require\(\s*${mod}\s*\)|import\s+\{([^}]*)\}\s+from\s+${mod})`,
        "g",
      ),
    ))
      for (const part of (m[1] ?? m[2] ?? "").split(","))
        names.add(
          part
            .split(/\s*(?::|\bas\b)\s*/)
            .pop()!
            .trim(),
        );
    // Jest's `expect(…).toBe(…)` called without an import (the runner's global, which completion defines).
    const jest =
      !/\b(?:function\s+expect\b|(?:const|let|var)\s+(?:expect\b|\{[^}]*\bexpect\b[^}]*\})|import\s[^;]*\bexpect\b)/.test(
        code,
      );
    for (const line of code.split("\n")) {
      const call = /^\s*([\w$]+)(?:\.[\w$]+)?\s*\(/.exec(line);
      if (call?.[1] && names.has(call[1])) return line.trim().replace(/\s*\/\/.*$/, "");
      if (jest && /^\s*(?:await\s+)?expect\s*\(.*\)\s*(?:\.\s*not\s*)?\.\s*to[A-Z]\w*\s*\(/.test(line))
        return line.trim().replace(/\s*\/\/.*$/, "");
    }
  }
  return null;
}

/**
 * When the report states no error or output of its own, the snippet's own assertion is the claim: the code
 * says what should hold, so its `AssertionError` is the reported bug, and a run where it holds is not one.
 */
function ownAssertion(report: ParsedReport, found: ReportedBehaviour): ReportedBehaviour {
  if (found.kind !== "unknown" && found.kind !== "error-unspecified") return found;
  const assertion = firstOwnAssertion(report);
  if (!assertion) return found;
  // The complaint may be the other way round: the test passes where it ought to fail (hold11 jasmine-1735,
  // "toEqual() lets a test pass that ought to fail"). Then the assertion failing is the behaviour asked for, and
  // the reported bug is a run that completes.
  const passes = testPassesWrongly(`${report.title}\n${report.proseWithCode}`);
  // Inside a runner's wrapper (`it('…', () => …)`) a completed run does not show the assertion ran at all (the
  // library's own `it` may only register it): the claim cannot be checked by a run, so none is made.
  if (passes && programBlocks(report).some((b) => /(?<![\w$.])(?:it|test|describe)\s*\(/.test(b.value)))
    return found;
  if (passes)
    return completesCleanly(
      `the report's words (\`${passes}\`): the snippet's own assertion (\`${assertion.slice(0, 100)}\`) holds where the report says it ought to fail`,
    );
  return {
    kind: "exception",
    exceptionType: "AssertionError",
    exceptionMessage: null,
    output: [],
    source: `the snippet's own assertion (\`${assertion.slice(0, 100)}\`), which states the expected behaviour: its failing is the reported bug`,
  };
}

/**
 * "The test passes", "lets a test pass that ought to fail", "this spec should fail": the report's subject is the
 * test itself (a test, spec, assertion or expectation), said to pass when it should not. A sentence about the
 * code under test ("parse should fail on `x`") is not one: its assertion failing is still the reported bug.
 */
const TEST_SUBJECT = String.raw`(?:test|spec|assertion|expectation|matcher|check)s?`;
const TEST_PASSES_WRONGLY = [
  new RegExp(
    String.raw`\b${TEST_SUBJECT}[ \t]+(?:that[ \t]+)?(?:ought[ \t]+to|should(?:[ \t]+have)?|must|is[ \t]+supposed[ \t]+to)[ \t]+(?:fail(?:ed)?|not[ \t]+pass)\b`,
    "i",
  ),
  new RegExp(String.raw`\blets?[ \t]+(?:an?|the|this|my)?[ \t]*${TEST_SUBJECT}[ \t]+pass\b`, "i"),
  new RegExp(
    String.raw`\b(?:the|this|my|that)[ \t]+${TEST_SUBJECT}[ \t]+(?:passes|passed|succeeds|succeeded|(?:is|are)[ \t]+passing|(?:does[ \t]*n[o']t|does[ \t]+not|never)[ \t]+fail)\b`,
    "i",
  ),
];

export function testPassesWrongly(prose: string): string | null {
  for (const re of TEST_PASSES_WRONGLY) {
    const m = re.exec(prose);
    if (m) return m[0].trim();
  }
  return null;
}

/**
 * An error the reporter pasted as plain text (no fence): Python's `Traceback (most recent call last):` and what
 * follows, or a Node error line (`TypeError: x`, `Error [ERR_REQUIRE_ESM]: …`) with `at …` stack frames within
 * the next lines. A name in a sentence ("it throws a TypeError") has no stack under it and is left to the
 * prose rules.
 */
export function pastedErrorDump(text: string): ReportedBehaviour | null {
  const tb = text.indexOf("Traceback (most recent call last):");
  if (tb >= 0) {
    const ex = parsePythonException(text.slice(tb));
    if (ex)
      return {
        kind: "exception",
        exceptionType: ex.type,
        exceptionMessage: ex.message || null,
        output: [],
        source: "the traceback pasted in the report's text",
      };
  }
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*(?:Uncaught\s+)?((?:[A-Z]\w*)?(?:Error|Exception))(?:\s+\[[A-Z0-9_]+\])?:\s+(\S.*)$/.exec(
      lines[i]!,
    );
    if (!m) continue;
    if (!lines.slice(i + 1, i + 6).some((l) => /^\s*at\s+\S+.*(?:\(.*:\d+:\d+\)|:\d+:\d+)\s*\{?\s*$/.test(l)))
      continue;
    return {
      kind: "exception",
      exceptionType: m[1]!,
      exceptionMessage: m[2]!.trim() || null,
      output: [],
      source: "the error and stack trace pasted in the report's text",
    };
  }
  return null;
}

type Block = ParsedReport["blocks"][number];

function sameClaim(a: ReportedBehaviour, b: ReportedBehaviour): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  return a.kind === "exception"
    ? a.exceptionType === b.exceptionType && a.exceptionMessage === b.exceptionMessage
    : a.kind === "output" && a.output.join("\n") === b.output.join("\n");
}

/**
 * The shell session's run the report shows as what happens: the error it ended with, else what it printed.
 * A script run several times with different arguments is one check per invocation, and the claim is the
 * invocation the report singles out: one shown again with other output (the first showing is what happens, the
 * later one what the reporter wants), else one the words introducing it call wrong, else the one that ends in an
 * error beside clean ones, else the first run with arguments (the one the report's command line names).
 */
function shellClaim(
  candidates: Block[],
): { behaviour: ReportedBehaviour; block: Block; wanted: string[] | null } | null {
  const shellBlocks = candidates.filter((b) => b.shellRun);
  const key = (b: Block) =>
    b.shellRun?.script ? `${b.shellRun.script.file}\u0000${b.shellRun.script.args.join("\u0000")}` : null;
  const printed = (b: Block) =>
    [...(b.shellRun?.output ?? []), b.shellRun?.errorText ?? ""].join("\n").trim();
  const scripted = shellBlocks.filter((b) => key(b) !== null);
  const invocations = new Set(scripted.map(key));
  let chosen: Block | undefined;
  let wanted: string[] | null = null;
  if (invocations.size >= 2) {
    const contested = scripted.find((b) =>
      scripted.some((o) => o !== b && key(o) === key(b) && printed(o) !== printed(b)),
    );
    if (contested) {
      chosen = contested;
      const later = scripted.filter((o) => key(o) === key(contested) && o !== contested);
      const w = later[later.length - 1];
      if (w && !w.shellRun?.errorText) wanted = w.shellRun?.output ?? null;
    }
    chosen ??= scripted.find(
      (b) => leadVerdict(b.lead ?? "") === "bad" && !scripted.some((o) => o !== b && o.lead === b.lead),
    );
    if (!chosen) {
      const failing = scripted.filter((b) => b.shellRun?.errorText);
      if (failing.length === 1) chosen = failing[0];
    }
  }
  // Otherwise the first run, unless it runs the script without arguments and a later run passes some.
  const first = shellBlocks[0];
  const withArgs = shellBlocks.find((b) => (b.shellRun?.script?.args.length ?? 0) > 0);
  chosen ??=
    first?.shellRun?.script && first.shellRun.script.args.length === 0 && withArgs ? withArgs : first;
  const order = chosen ? [chosen, ...shellBlocks.filter((b) => b !== chosen)] : shellBlocks;
  for (const b of order) {
    const r = b.shellRun!;
    // A script run several times: only the invocation the report singles out is the claim.
    if (invocations.size >= 2 && b !== chosen && key(b) !== null) continue;
    const ex = r.errorText
      ? r.runtime === "python"
        ? parsePythonException(r.errorText)
        : parseNodeException(r.errorText)
      : null;
    const source = `the shell session in the report (\`${r.interpreter}${r.script ? ` ${[r.script.file, ...r.script.args].join(" ")}` : ""}\`)`;
    if (ex)
      return {
        behaviour: {
          kind: "exception",
          exceptionType: ex.type,
          exceptionMessage: ex.message || null,
          output: r.output,
          source,
        },
        block: b,
        wanted,
      };
    if (r.output.length > 0)
      return {
        behaviour: { kind: "output", exceptionType: null, exceptionMessage: null, output: r.output, source },
        block: b,
        wanted,
      };
  }
  return null;
}

/** `labelledValueClaim` on the report's prose (Expected section aside) and the code it would run. */
function labelledClaim(report: ParsedReport): ReturnType<typeof labelledValueClaim> {
  const code = programBlocks(report)
    .map((b) => b.value)
    .join("\n");
  if (code === "") return null;
  const text = [report.title, report.prose.other, report.prose.steps, report.prose.actual].join("\n");
  return labelledValueClaim(text, code);
}

/** `segmentMarks` on the report's one Python code block, when nothing pasted shows an output or an error. */
function markedSegments(report: ParsedReport): ReportedBehaviour | null {
  const code = report.blocks.filter((b) => b.kind === "code" && b.section !== "expected");
  if (code.length !== 1 || code[0]!.language !== "python") return null;
  if (report.blocks.some((b) => b.kind !== "code" && b.kind !== "versions")) return null;
  const segments = segmentMarks(code[0]!.value);
  if (!segments) return null;
  return {
    kind: "error-unspecified",
    exceptionType: null,
    exceptionMessage: null,
    output: [],
    source: `the code's own marks (\`${segments.passMark}\` above the part that runs, \`${segments.failMark}\` above the part that raises)`,
    segments,
  };
}

function actualBehaviour(
  report: ParsedReport,
  shell: { behaviour: ReportedBehaviour } | null,
): ReportedBehaviour {
  const candidates = report.blocks.filter((b) => b.section !== "expected");
  // 1. A pasted traceback or error output.
  for (const b of candidates) {
    if (b.kind === "traceback" || b.kind === "error-output") {
      const ex =
        b.language === "python" || b.kind === "traceback"
          ? parsePythonException(b.value)
          : parseNodeException(b.value);
      const ex2 = ex ?? parseNodeException(b.value) ?? parsePythonException(b.value);
      if (ex2) {
        const raisedAt = pythonRaisingFrame(b.value);
        return {
          kind: "exception",
          exceptionType: ex2.type,
          exceptionMessage: ex2.message || null,
          output: [],
          source: b.kind === "traceback" ? "the traceback in the report" : "the error output in the report",
          ...(raisedAt ? { raisedAt } : {}),
        };
      }
    }
  }
  // 2. A REPL transcript: its traceback, else its printed lines.
  for (const b of candidates) {
    if (b.kind === "python-transcript" || b.kind === "node-transcript") {
      const t = parseTranscript(b.value, b.kind === "python-transcript" ? "python" : "node");
      if (t.errorText) {
        const ex =
          b.kind === "python-transcript"
            ? parsePythonException(t.errorText)
            : parseNodeException(t.errorText);
        if (ex) {
          const raisedAt = b.kind === "python-transcript" ? pythonRaisingFrame(t.errorText) : null;
          return {
            kind: "exception",
            exceptionType: ex.type,
            exceptionMessage: ex.message || null,
            output: t.output,
            source: "the REPL session in the report",
            ...(raisedAt ? { raisedAt } : {}),
          };
        }
      }
      if (t.output.length > 0) {
        return {
          kind: "output",
          exceptionType: null,
          exceptionMessage: null,
          // A remark typed after an echoed value (`(1+-1j) # should be 1-1j`) was never printed.
          output: t.output.map((l) => withoutOutputRemark(l).line),
          source: "the REPL session in the report",
        };
      }
    }
  }
  // 2a. A shell session (`$ python3 -c '…'`, `$ node cli.js -x`): the run the report singles out (`shellClaim`).
  if (shell) return shell.behaviour;
  // 2b. Outputs and errors stated in comments next to the code (`// => 1`, `# raises ValueError`).
  const fromComments = commentBehaviour(report);
  // The comments give the value the Expected section wants (`// #e8f1ff` beside "It ought to print #e8f1ff"), and
  // the Actual section opens with a value of its own in inline code: that value is the claim, the comment the
  // expectation (expected-comment.ts).
  const opening = fromComments ? expectedCommentActual(report, fromComments) : null;
  if (opening)
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: opening,
      source: `the Actual section (\`${opening.join("`, `")}\`; the code's comment gives the value the Expected section wants)`,
    };
  if (fromComments) return fromComments;
  // 2c. One Python snippet in parts its comments mark `# Succeeds` and `# Fails` (segment-marks.ts): the run must
  // raise in the failing part, after the working one ran. Only with no traceback or output pasted (above, below).
  const marked = markedSegments(report);
  if (marked) return marked;
  // 3. Pasted output in the "Actual" section (or unlabelled output right in the steps).
  const outputs = candidates.filter(
    (b) => b.kind === "output" && (b.section === "actual" || b.section === "steps" || b.section === "other"),
  );
  const actualOutputs = outputs.filter((b) => b.section === "actual");
  const chosen = actualOutputs.length > 0 ? actualOutputs : outputs;
  if (chosen.length > 0) {
    // A remark typed after a line (`… (width=2)  ← expected width ≤ 1`) was never printed: the line before it is.
    const lines = chosen
      .flatMap((b) => b.value.split("\n"))
      .filter((l) => l.trim() !== "" && !/^\$ /.test(l))
      .map((l) => withoutOutputRemark(l).line);
    if (lines.length > 0) {
      return {
        kind: "output",
        exceptionType: null,
        exceptionMessage: null,
        output: lines,
        source:
          actualOutputs.length > 0 ? "the output in the Actual section" : "the output pasted in the report",
      };
    }
  }
  // 3b. An error dump pasted without a fence: a traceback, or an error line with its stack under it.
  const pasted = pastedErrorDump(
    [report.prose.actual, report.prose.other, report.prose.steps].filter((t) => t.trim()).join("\n"),
  );
  if (pasted) return pasted;
  // 3c. A value the words give for a quantity the program prints with a label ("the exit code comes out as 1
  // instead of 0" beside `print(f"exit code: {code}")`): the printed line, before an exception the description
  // only names (it may be raised and swallowed where the program does not see it).
  const onLabel = labelledClaim(report);
  if (onLabel)
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: [onLabel.actual],
      source: `the report's words on the program's \`${onLabel.label}\` line (\`${onLabel.actual}\`)`,
    };
  // 3d. The Actual section says no error happens ("**Actual:** no error, exit code 0"): the claim is a run that
  // completes, whatever error the description names (often the one the report wants).
  const actualNoError = statedNoError(report.prose.actual, true);
  if (actualNoError) return actualNoError;
  // 4. An exception named in the Actual prose or its inline code, then anywhere but the Expected section.
  // Inline code the prose already holds is not added again: a copy on a line of its own loses the words around it,
  // so "It ought to raise `netrc.NetrcParseError`" would read as a bare, affirmative `NetrcParseError`.
  const withInline = (prose: string[], inline: string[]) => {
    const words = prose.join("\n");
    return [...prose, ...inline.filter((v) => !words.includes(v))].join("\n");
  };
  const actualText = withInline(
    [report.prose.actual],
    report.inlineCode.filter((c) => c.section === "actual").map((c) => c.value),
  );
  const otherText = withInline(
    [report.title, report.prose.other, report.prose.steps],
    report.inlineCode.filter((c) => c.section !== "expected").map((c) => c.value),
  );
  const expectedError = shownAsExpected(report);
  const shortName = (t: string) => t.split(".").pop() ?? t;
  for (const [text, source] of [
    [actualText, "the Actual section"],
    [otherText, "the report's description"],
  ] as const) {
    const inline = report.inlineCode.filter((c) => c.section !== "expected").map((c) => c.value);
    const formerSides = formerNowSides(text);
    const fromInline = inline
      .map((v) => EXCEPTION_IN_TEXT.exec(v))
      .find((m) => m?.[1] && text.includes(m[0]));
    // A bare `Error` (JavaScript's base class) counts only when quoted as code or followed by its message.
    const bareError = inline
      .map((v) => /^(?:Uncaught )?(Error)(?::\s*(.+))?$/.exec(v.trim()))
      .find((m) => m && text.includes(m[0]));
    // "does not raise ArgumentError", "should raise X", "instead of X": the exception the report expects, not the one it saw.
    // An error the report shows as the right behaviour (a block under Expected, or "whereas CPython raises:"),
    // named again in the description, is what the reporter wants, not the claim.
    const wantedType = (type: string | undefined) =>
      !!type && !!expectedError && shortName(type) === shortName(expectedError.type);
    const negated = (m: RegExpExecArray | null | undefined) => {
      if (!m) return true;
      const at = m.input === text && m.index !== undefined ? m.index : text.indexOf(m[0]);
      // "Before it was TypeError, now it is AttributeError": the error of the before side is the good behaviour.
      if (at >= 0 && formerSides.some((f) => at >= f.former[0] && at < f.former[1])) return true;
      const before = at < 0 ? "" : text.slice(Math.max(0, at - 40), at);
      return /\b(not|n't|never|instead of|rather than|should(?: have)?|expected?|expecting|ought to|supposed to|documented to)\b(\s+[\w.`]+){0,3}\s*[`"']?$/i.test(
        before,
      );
    };
    const affirmative = [...text.matchAll(new RegExp(EXCEPTION_IN_TEXT.source, "g"))].find(
      (x) => !negated(x) && !wantedType(x[1]),
    );
    const m =
      (fromInline && !negated(fromInline) && !wantedType(fromInline[1]) ? fromInline : undefined) ??
      affirmative ??
      bareError ??
      /\b(Error): (\S[^\n]*)/.exec(text);
    if (m?.[1]) {
      const message = m[2]
        ? stripInlineQuotes(m[2])
            .replace(/[`.]+$/, "")
            .trim()
        : null;
      return {
        kind: "exception",
        exceptionType: m[1],
        exceptionMessage: message || null,
        output: [],
        source,
      };
    }
  }
  // 4b. An error message quoted as code in the words that say it fails ("it throws `Invalid time value`",
  // "fails with `unknown option '-x'`"), with no exception name: the run must raise an error with that message.
  const quoted = quotedErrorMessage(report);
  if (quoted)
    return {
      kind: "exception",
      exceptionType: "Error",
      exceptionMessage: quoted,
      output: [],
      source: `the error message the report quotes (\`${quoted}\`)`,
    };
  // 5. Printed values quoted inline in the Actual section ("it prints `false`").
  const verbs =
    /\b(prints?|printed|returns?|returned|outputs?|gives?|gave|got|shows?|logs?|logged|evaluates? to|results? in)\b/i;
  const actualInline = report.inlineCode
    .filter((c) => c.section === "actual" && !/[()=;]/.test(c.value) && verbs.test(c.context))
    .map((c) => c.value);
  if (actualInline.length > 0) {
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: actualInline,
      source: "the Actual section",
    };
  }
  // 5b. A lone value right after an "Actual:" label ("**Actual:** `false`").
  const labelled = report.inlineCode
    .filter(
      (c) =>
        c.section === "actual" &&
        c.context
          .replace(/^[^:]{1,40}:\s*/, "")
          .trim()
          .replace(/[.]$/, "") === c.value.trim(),
    )
    .map((c) => c.value);
  if (labelled.length > 0) {
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: labelled,
      source: "the Actual section",
    };
  }
  // 5c. Values listed one per line under the Actual heading, each named (`d1 is "4-53-2021"`).
  const listed = listedValues(report.prose.actual);
  if (listed.length > 0) {
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: listed,
      source: "the values listed in the Actual section",
    };
  }
  // 6. Values stated in sentences: "I get `5000` but expected `1000`", "it returns X instead of Y".
  const claims = proseClaims(report.proseWithCode);
  if (claims.actual.length > 0) {
    return {
      kind: "output",
      exceptionType: null,
      exceptionMessage: null,
      output: claims.actual,
      source: `the report's words (${claims.actual.map((v) => `\`${v}\``).join(", ")} stated as what happens)`,
    };
  }
  // The code's own comment says its line does not raise (`# does not raise`) while the error pasted beside it is
  // the other setup's, set aside as the wanted side (conditional-error.ts): the claim is a run that completes.
  const noRaise = report.blocks.some(
    (b) => b.section === "expected" && (b.kind === "traceback" || b.kind === "error-output"),
  )
    ? programBlocks(report)
        .map((b) => noRaiseComment(b.value))
        .find((c) => c !== null)
    : undefined;
  if (noRaise)
    return completesCleanly(`the code's comment (\`${noRaise}\`: the line completes without raising)`);
  const prose = `${report.title}\n${report.prose.actual}\n${report.prose.other}\n${report.prose.steps}`;
  const exit = statedExit(prose);
  if (exit) return exit;
  if (
    /\b(hangs?|hanging|freez(es|ing)|never (returns|finishes|terminates|completes|ends)|infinite loop|endless loop|stuck|deadlocks?)\b/i.test(
      prose,
    ) ||
    HANG_WORDS.test(prose)
  ) {
    return {
      kind: "hang",
      exceptionType: null,
      exceptionMessage: null,
      output: [],
      source: "the report's description",
    };
  }
  const noThrow = statedNoThrow(prose);
  if (noThrow) return noThrow;
  const noError = statedNoError(prose, false);
  if (noError) return noError;
  const onlyWanted = onlyWantedError(prose);
  if (onlyWanted) return onlyWanted;
  if (ERROR_WORDS.test(prose)) {
    const processCrash = claimsProcessCrash(prose);
    return {
      kind: "error-unspecified",
      exceptionType: null,
      exceptionMessage: null,
      output: [],
      source: processCrash
        ? "the report's description (the process itself crashes, with no error of the language)"
        : "the report's description",
      ...(processCrash ? { processCrash } : {}),
    };
  }
  return none("nothing in the report");
}

/**
 * The report's complaint is that nothing is thrown: "`f(x)` ought to throw an exception, and it doesn't",
 * "should raise a ValueError but does not". The claim is a run that completes without an error (the exit kind,
 * status 0); a run that throws shows the behaviour the reporter asked for. Only the sentence that says both
 * (it should throw, it does not): "doesn't throw" alone may be said of a call that misbehaves otherwise.
 */
const SHOULD_THROW_BUT_DOES_NOT =
  /\b(?:ought[ \t]+to|should|must|is[ \t]+supposed[ \t]+to|(?:is[ \t]+)?expected[ \t]+to)[ \t]+(?:throw|raise)\b[^.!?\n]{0,60}?[,;]?[ \t]+(?:and|but|yet)[ \t]+(?:it[ \t]+)?(?:does[ \t]*n[o']t|does[ \t]+not|doesn't|never[ \t]+does)\b(?![ \t]+(?:\w+[ \t]+)?(?:return|print|give|output))/i;

export function statedNoThrow(prose: string): ReportedBehaviour | null {
  const m = SHOULD_THROW_BUT_DOES_NOT.exec(prose);
  if (!m) return null;
  return completesCleanly(`the report's words (\`${m[0].trim()}\`: the call completes without throwing)`);
}

/** Words that say something fails; alone they make an error claim whose error is not quoted. */
const ERROR_WORDS =
  /\b(crash(es|ed)?|throws?|raises?|errors? out|exception|fails? with|segfault|traceback)\b/i;

/**
 * A clause that says what ought to be raised ("It ought to raise `netrc.NetrcParseError`", "this should throw a
 * RangeError"), not negated ("should not raise" complains of an error that happens).
 */
const WANTED_RAISE =
  /\b(?:ought[ \t]+to|should(?:[ \t]+(?:have|be))?|must|is[ \t]+supposed[ \t]+to|(?:is[ \t]+)?expected[ \t]+to|(?:i|we)[ \t]+(?:would[ \t]+)?expect(?:ed)?[ \t]+(?:it|this|that)[ \t]+to)[ \t]+(?:(?!not\b|never\b)\w+[ \t]+){0,2}?(?:throw|raise|thrown|raised)\b(?:[^.!?\n]|[.!?](?=[\w`]))*/gi;

/**
 * The report's only error words are in clauses saying what ought to be raised ("parsing ends successfully and
 * quietly skips the rest. It ought to raise `NetrcParseError`."): the complaint is that nothing is raised, so the
 * claim is a run that completes (as statedNoThrow, whose sentence also says "but it doesn't"). Any other error word
 * ("it crashes; it should raise ValueError instead", "should not raise") leaves the claim an unquoted error.
 */
export function onlyWantedError(prose: string): ReportedBehaviour | null {
  const wanted = [...prose.matchAll(WANTED_RAISE)];
  if (wanted.length === 0) return null;
  if (ERROR_WORDS.test(prose.replace(WANTED_RAISE, " "))) return null;
  const said = (wanted[0]?.[0] ?? "").trim().replace(/[`:;,]+$/, "");
  return completesCleanly(
    `the report's words (\`${said.length > 100 ? `${said.slice(0, 99)}…` : said}\`: what ought to be raised, so the call completes without raising)`,
  );
}

/**
 * Words that say the code runs without an error: "this block finishes without any exception", "raises no
 * exception", "no exception is raised", "compiles without error"; in the Actual section also a bare "no error".
 * Not in a clause that says it should, or that names a version (one side of two: "on 3.10 it runs without error").
 */
const RUNS_CLEANLY =
  /\b(?:(?:finish(?:es|ed)?|runs?|ran|complet(?:es|ed)|compil(?:es|ed)|exit(?:s|ed)|pass(?:es|ed)|succeed(?:s|ed)?|returns?|returned)\s+(?:\w+\s+){0,3}?without\s+(?:any\s+|an\s+)?(?:error|exception|traceback|complaint)s?|(?:raises?|raised|throws?|threw|gives?|gave|shows?|showed)\s+no\s+(?:error|exception|traceback)s?|no\s+(?:error|exception)s?\s+(?:is\s+|was\s+|gets?\s+)?(?:raised|thrown))\b(?!\s*(?:message|output|text|code|log))/gi;
const BARE_NO_ERROR =
  /(?:^|[:\n]\s*)no\s+(?:error|exception|traceback)s?\b(?!\s*(?:message|output|text|code|log))/gi;

export function statedNoError(prose: string, actualSection: boolean): ReportedBehaviour | null {
  const found = [...prose.matchAll(RUNS_CLEANLY), ...(actualSection ? prose.matchAll(BARE_NO_ERROR) : [])];
  for (const m of found) {
    const at = m.index ?? 0;
    const clause = (
      prose
        .slice(Math.max(0, at - 80), at)
        .split(/[.!?;,](?=\s|$)|\n/)
        .pop() ?? ""
    ).trim();
    if (NOT_HAPPENING.test(clause) || /\b(?:if|when|unless|once|after)\b/i.test(clause)) continue;
    if (VERSION_IN_CLAUSE.test(clause)) continue;
    // "runs without error on small files, but crashes on large ones": the clean run is the contrast, not the
    // claim. A contrast with another runtime or version ("whereas CPython 3.10 raises:") keeps it.
    const end = at + m[0].length;
    const rest = prose.slice(end, end + 200).split(/[.!?](?=\s|$)|\n/)[0] ?? "";
    const contrast = /\b(?:but|however|yet|whereas|while|though|although)\b(.*)$/i.exec(rest)?.[1] ?? "";
    if (
      /\b(?:crash\w*|throws?|threw|raises?|raised|errors?|fails?|failed|hangs?|exceptions?)\b/i.test(
        contrast,
      ) &&
      !/\b(?:c?python|pypy|node(?:\.js)?|deno|bun|chrome|firefox|browser)\b|\d+\.\d+/i.test(contrast)
    )
      continue;
    return completesCleanly(
      `the report's words (\`${m[0].replace(/^[:\s]+/, "").trim()}\`: the code completes without an error)`,
    );
  }
  return null;
}

/** The claim that the program completes without an error (exit status 0), for `source`. */
function completesCleanly(source: string): ReportedBehaviour {
  return {
    kind: "exit",
    exceptionType: null,
    exceptionMessage: null,
    output: [],
    exitCode: 0,
    silent: false,
    source,
  };
}

/**
 * How the process ends, stated in words: "the program exits silently with exit status 0", "it exits with code 1",
 * "terminates quietly". Not in a clause that says it should or used to ("should exit with status 1").
 */
const EXIT_STATED =
  /\b(?:exits?|exited|quits?|terminates?|terminated)\b(?:[ \t]+(silently|quietly|without[ \t]+(?:any[ \t]+)?(?:output|error|warning|message)s?))?(?:(?:[ \t]*,)?[ \t]+with(?:[ \t]+an?)?(?:[ \t]+exit)?[ \t]+(?:status|code)[ \t]+(\d{1,3})\b)?/gi;

export function statedExit(prose: string): ReportedBehaviour | null {
  let found: ReportedBehaviour | null = null;
  for (const m of prose.matchAll(EXIT_STATED)) {
    const silent = m[1] !== undefined;
    const code = m[2] !== undefined ? Number(m[2]) : null;
    // A zero status alone says nothing (most programs exit 0): only silence or a failing status is a claim.
    if (!silent && (code === null || code === 0)) continue;
    const at = m.index ?? 0;
    const clause = (
      prose
        .slice(Math.max(0, at - 80), at)
        .split(/[.!?;,\n]/)
        .pop() ?? ""
    ).trim();
    if (NOT_HAPPENING.test(clause)) continue;
    // The mention that says most: "exits silently with exit status 0" over the title's "exit silently".
    const before = found as ReportedBehaviour | null;
    if (before && (before.exitCode !== null || code === null)) continue;
    found = {
      kind: "exit",
      exceptionType: null,
      exceptionMessage: null,
      output: [],
      exitCode: code,
      silent: silent || before?.silent === true,
      source: `the report's words (\`${m[0].trim()}\`)`,
    };
  }
  return found;
}

const FAILS_WITH =
  /\b(?:throws?|threw|thrown|raises?|raised|fails?\s+with|failed\s+with|errors?\s+(?:out\s+)?with|crash(?:es|ed)?\s+with|dies\s+with|(?:the\s+)?error(?:\s+message)?(?:\s+(?:is|was|says?|reads?))?)\s*:?\s*(?:an?\s+(?:error|exception)\s*:?\s*)?["'“]?$/i;
const NOT_HAPPENING =
  /\b(?:not|n't|never|no longer|should(?:\s+have)?|expected?|expecting|ought\s+to|supposed\s+to|instead\s+of|rather\s+than|would|could|might|wants?|wanted|used\s+to|previously|formerly|before)\b[^.!?]{0,40}$/i;
/** A release named in the clause ("in 2.0 it throws `x`"): one side of two versions, not the claim by itself. */
const VERSION_IN_CLAUSE = /\b(?:v|version\s*)?\d+\.\d+(?:\.\d+)?\b/i;

/**
 * An error message the report quotes as inline code right after the words that say it fails ("throws
 * `Invalid time value`", "the error is `unknown option '-x'`"), outside the Expected section and not as what
 * should happen ("should throw `x`"). A message, not code: words, no call or assignment.
 */
export function quotedErrorMessage(report: ParsedReport): string | null {
  // The first spans only: a report quotes its error early, and a hostile report of thousands of spans is not
  // searched span by span (bounded host work, issue 14).
  for (const c of report.inlineCode.slice(0, 200)) {
    if (c.section === "expected") continue;
    const v = c.value.trim();
    if (v.length < 8 || v.length > 200 || !/\s/.test(v) || /[(){};=]|=>/.test(v)) continue;
    if (EXCEPTION_IN_TEXT.test(v)) continue;
    const at = c.context.indexOf(v);
    if (at < 0) continue;
    const before = c.context.slice(Math.max(0, at - 80), at).replace(/[`]$/, "");
    if (!FAILS_WITH.test(before)) continue;
    const clause = before.split(/[.!?;]\s/).pop() ?? before;
    if (NOT_HAPPENING.test(clause.replace(FAILS_WITH, "")) || VERSION_IN_CLAUSE.test(clause)) continue;
    return v;
  }
  return null;
}
