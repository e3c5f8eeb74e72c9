/**
 * Robot Framework's console output (`robot`, `pybot`): each suite is headed by its full name between two `=` rules
 * (`Kiln.Dial :: documentation`, padded to the console width), each test prints `Name   …   | PASS |` or `| FAIL |`
 * with its message on the next line and a `-` rule after it; a suite closes with its own status line, followed by its
 * counts (`1 test, 0 passed, 1 failed`; older: `1 critical test, …`, `1 test total, …`).
 *
 * The id is the test's full name, the suite's printed name (without its ` :: ` documentation), `.`, the test's name:
 * what `--test` takes (docs/test-ids.md). A status line counts only under a suite heading read between rules, and
 * one followed by a count line is the suite's, not a test's.
 *
 * A suite's failed tests wait for its count lines: Robot 3.x prints a non-critical test's `| FAIL |` in a run that
 * passed, and a first count line `N critical tests, N passed, 0 failed` drops them; any other count line, or the end
 * of a log cut before one, reports them.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const EQ_RULE = /^={20,}[ \t]*$/;
const STATUS = /^(\S.*?)[ \t]+\| (PASS|FAIL|SKIP) \|[ \t]*$/;
const COUNTS = /^\d+ (?:critical )?tests?(?: total)?, \d+ passed, \d+ failed/;
const CRITICAL_GREEN = /^\d+ critical tests?, \d+ passed, 0 failed/;

export function createRobotParser(sink: ParserSink) {
  /** The last line right under an `=` rule, waiting for the closing rule that makes it a suite heading. */
  let heading: string | null = null;
  let prevRule = false;
  let suite: string | null = null;
  /** A FAIL status line, waiting for the next line: a count line makes it the suite's. */
  let held: { name: string; lineNo: number } | null = null;
  /** The suite's failed tests, waiting for its count lines. */
  let failed: { id: string; message: string; start: number; end: number }[] = [];

  function keep(message: string, end: number): void {
    const h = held!;
    held = null;
    const id = `${suite}.${h.name}`;
    if (failed.length < 10_000) failed.push({ id, message: message || id, start: h.lineNo, end });
  }

  function flush(): void {
    for (const f of failed) {
      sink.test(f.id, "failed");
      sink.failure({ category: "test", test: f.id, message: f.message, start: f.start, end: f.end });
    }
    failed = [];
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (held || failed.length > 0) {
        // A count line: the suite's (a FAIL line right above it is the suite's own status), deciding its tests.
        if (COUNTS.test(text)) {
          held = null;
          if (CRITICAL_GREEN.test(text)) failed = [];
          else flush();
          return true;
        }
        if (held) keep(EQ_RULE.test(text) || /^-{20,}[ \t]*$/.test(text) ? "" : text.trim(), lineNo);
      }
      const rule = text.charCodeAt(0) === 61 && EQ_RULE.test(text);
      if (rule) {
        if (heading !== null) suite = heading;
        heading = null;
        prevRule = true;
        return false;
      }
      const wasRule = prevRule;
      prevRule = false;
      heading = wasRule && text.trim() !== "" ? text.trim().replace(/ :: .*$/, "") : null;
      if (suite === null || !text.trimEnd().endsWith("|")) return false;
      const s = STATUS.exec(text);
      if (!s) return false;
      heading = null;
      if (s[2] === "FAIL") held = { name: s[1]!.trim(), lineNo };
      else sink.test(`${suite}.${s[1]!.trim()}`, s[2] === "PASS" ? "passed" : "skipped");
      return true;
    },
    end(): void {
      if (held) keep("", held.lineNo);
      flush();
    },
  };
}

export const robotFormat: FormatDefinition = {
  name: "robot",
  description: "Robot Framework console output (suite headings between = rules, `| FAIL |` test lines)",
  create: createRobotParser,
};
