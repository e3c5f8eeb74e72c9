/**
 * A test script's own result lines, one per test: `test_help...OK`, `test_check_cli...FAIL` (the name, three dots with
 * no spaces around them, the verdict in capitals), as shell test scripts print them with no runner's summary after.
 * A line of that shape alone says little (`Building...OK`), so lines are read only as a run of at least RUN consecutive
 * ones, at least one of them passed: a single `name...FAIL` line is nobody's test. The id is the name as printed.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const LINE = /^([A-Za-z_][\w.:/-]{0,200})\.\.\.(OK|PASS|PASSED|FAIL|FAILED|ERROR|SKIP|SKIPPED)\s*$/;
const RUN = 3;
const FAILING = new Set(["FAIL", "FAILED", "ERROR"]);

export function createDottedStatusParser(sink: ParserSink) {
  let run: { name: string; verdict: string; text: string; lineNo: number }[] = [];

  function endRun(): void {
    const r = run;
    run = [];
    if (r.length < RUN || !r.some((x) => !FAILING.has(x.verdict) && !x.verdict.startsWith("SKIP"))) return;
    for (const x of r) {
      if (FAILING.has(x.verdict)) {
        sink.test(x.name, x.verdict === "ERROR" ? "error" : "failed");
        sink.failure({
          category: "test",
          test: x.name,
          message: `${x.name} ${x.verdict}`,
          stack: x.text,
          start: x.lineNo,
          end: x.lineNo,
        });
      } else sink.test(x.name, x.verdict.startsWith("SKIP") ? "skipped" : "passed");
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      const m = text.includes("...") ? LINE.exec(text) : null;
      if (!m) {
        if (run.length > 0) endRun();
        return false;
      }
      if (run.length < 10_000) run.push({ name: m[1]!, verdict: m[2]!, text, lineNo });
      return false;
    },
    end(): void {
      endRun();
    },
  };
}

export const dottedStatusFormat: FormatDefinition = {
  name: "dotted-status",
  description: "a test script's `name...OK` / `name...FAIL` lines (a run of at least three, one passed)",
  create: createDottedStatusParser,
};
