/**
 * Robot Framework's console output (`robot`, `pybot`): each suite is headed by its full name between two `=` rules
 * (`Kiln.Dial :: documentation`, padded to the console width), each test prints `Name   …   | PASS |` or `| FAIL |`
 * with its message on the next line and a `-` rule after it; a suite closes with its own status line, followed by its
 * counts (`1 test, 0 passed, 1 failed`; older: `1 critical test, …`, `1 test total, …`).
 *
 * The id is the test's full name, the suite's printed name (without its ` :: ` documentation), `.`, the test's name:
 * what `--test` takes (docs/test-ids.md). A status line counts only under a suite heading read between rules, and
 * one followed by a count line is the suite's, not a test's.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const EQ_RULE = /^={20,}[ \t]*$/;
const STATUS = /^(\S.*?)[ \t]+\| (PASS|FAIL|SKIP) \|[ \t]*$/;
const COUNTS = /^\d+ (?:critical )?tests?(?: total)?, \d+ passed, \d+ failed/;

export function createRobotParser(sink: ParserSink) {
  /** The last line right under an `=` rule, waiting for the closing rule that makes it a suite heading. */
  let heading: string | null = null;
  let prevRule = false;
  let suite: string | null = null;
  /** A FAIL status line, waiting for the next line: a count line makes it the suite's. */
  let held: { name: string; lineNo: number } | null = null;

  function emit(message: string, end: number): void {
    const h = held!;
    held = null;
    const id = `${suite}.${h.name}`;
    sink.test(id, "failed");
    sink.failure({ category: "test", test: id, message: message || id, start: h.lineNo, end });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (held) {
        if (COUNTS.test(text)) {
          held = null;
          return true;
        }
        emit(EQ_RULE.test(text) || /^-{20,}[ \t]*$/.test(text) ? "" : text.trim(), lineNo);
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
      if (held) emit("", held.lineNo);
    },
  };
}

export const robotFormat: FormatDefinition = {
  name: "robot",
  description: "Robot Framework console output (suite headings between = rules, `| FAIL |` test lines)",
  create: createRobotParser,
};
