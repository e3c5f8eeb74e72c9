/**
 * Python unittest: `-v` outcome lines (`test_x (pkg.mod.Class.test_x) ... ok`) and the
 * `FAIL:`/`ERROR:` blocks between `=====` rules, each holding a traceback.
 */
import type { TestOutcome } from "../failure.ts";
import { BlockBuffer, categoryOfError, type FormatDefinition, type ParserSink } from "../parser.ts";
import { summarizeTraceback } from "./python-traceback.ts";

// A subTest prints its own line, indented, with its `[msg]` and `(key=value)` after the id.
const OUTCOME =
  /^(?: {2})?(\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)(?:\n|.*?) \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$/;
/** The test line of a test with subtests: its outcome comes on the subtests' own lines. */
const PARENT = /^(\w+) \(([\w.]+)\) \.\.\. ?$/;
const HEADER = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)$/;
const RULE_EQ = /^={40,}$/;
const RULE_DASH = /^-{40,}$/;
const RAN = /^Ran \d+ tests? in [\d.]+s$/;
const RESULT = /^(OK|FAILED)(?: \(.*\))?$/;

const FIXTURE = /^(?:setUpClass|tearDownClass|setUpModule|tearDownModule)$/;

/**
 * Python 3.11+ prints the full id in parentheses; older versions print only the class. A class or module
 * fixture's error (`ERROR: setUpClass (pkg.mod.Class)`) is no test of the class: its id is unittest's own,
 * `setUpClass (pkg.mod.Class)` (docs/test-ids.md).
 */
function idOf(name: string, inParens: string): string {
  if (FIXTURE.test(name)) return `${name} (${inParens})`;
  return inParens.endsWith(`.${name}`) ? inParens : `${inParens}.${name}`;
}

function outcomeOf(word: string): TestOutcome {
  if (word === "ok" || word === "unexpected success") return "passed";
  if (word === "FAIL") return "failed";
  if (word === "ERROR") return "error";
  return "skipped";
}

export function createUnittestParser(sink: ParserSink) {
  let state: "none" | "header" | "body" = "none";
  let current: { id: string; kind: string; buf: BlockBuffer } | null = null;
  let seen = false;
  let ran = false;

  function flush(): void {
    if (!current) return;
    const lines = current.buf.lines;
    const tb = summarizeTraceback(lines, sink);
    const errorType = tb.errorType;
    sink.failure({
      category: categoryOfError(errorType, "test"),
      test: current.id,
      file: tb.file,
      line: tb.line,
      errorType,
      message: tb.message || current.kind,
      stack: current.buf.text(),
      start: current.buf.start,
      end: current.buf.end,
    });
    sink.test(current.id, current.kind === "ERROR" ? "error" : "failed");
    current = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const o = text.includes(" ... ") ? OUTCOME.exec(text) : null;
      if (o) {
        seen = true;
        sink.test(idOf(o[1]!, o[2]!) + o[3]!, outcomeOf(o[4]!));
        return true;
      }
      if (text.endsWith("...") || text.endsWith("... ")) {
        if (PARENT.test(text)) {
          seen = true;
          return true;
        }
      }
      if (RULE_EQ.test(text)) {
        flush();
        state = "header";
        return true;
      }
      if (state === "header") {
        const h = HEADER.exec(text);
        if (h) {
          seen = true;
          current = { id: idOf(h[2]!, h[3]!) + h[4]!, kind: h[1]!, buf: new BlockBuffer() };
          current.buf.push(text, lineNo);
          state = "body";
          return true;
        }
        state = "none";
        return false;
      }
      if (state === "body" && current) {
        if (RULE_DASH.test(text) && current.buf.lines.length <= 1) return true;
        if (RULE_DASH.test(text)) {
          flush();
          state = "none";
          return true;
        }
        current.buf.push(text, lineNo);
        return true;
      }
      if (RAN.test(text)) {
        ran = true;
        return true;
      }
      const r = ran ? RESULT.exec(text) : null;
      if (r) {
        ran = false;
        const failures = Number(/failures=(\d+)/.exec(text)?.[1] ?? 0);
        const errors = Number(/errors=(\d+)/.exec(text)?.[1] ?? 0);
        sink.summary({
          failed: r[1] === "OK" ? 0 : failures,
          error: errors,
          skipped: Number(/skipped=(\d+)/.exec(text)?.[1] ?? 0),
        });
        return true;
      }
      if (seen && (RESULT.test(text) || RULE_DASH.test(text))) return true;
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const unittestFormat: FormatDefinition = {
  name: "unittest",
  description: "Python unittest (-v outcome lines, FAIL:/ERROR: blocks)",
  create: createUnittestParser,
};
