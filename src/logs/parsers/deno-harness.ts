/**
 * deno's own test harness before `deno test` (2018, `tools/unit_tests.py` running `js/unit_tests.ts`): it prints a
 * progress line before each test, `2/5 +1 -0: tests_fetch` (the test's number, the total, the passed and failed
 * counts so far, the test's name), and `Test FAIL tests_fetch` when one fails (its error under it, or the process's
 * crash: a malloc abort, a panic).
 *
 * The id is the test's name as printed (docs/test-ids.md). A `Test FAIL name` line counts only when a progress line of
 * the same log named that test: the line alone is any program's words. No place (the harness prints none).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const PROGRESS = /^(\d+)\/(\d+) \+(\d+) -(\d+): (\S.*?)\s*$/;
const FAILED = /^Test FAIL (\S.*?)\s*$/;

export function createDenoHarnessParser(sink: ParserSink) {
  /** The names the progress lines announced. */
  const started = new Set<string>();
  const reported = new Set<string>();

  return {
    line(text: string, lineNo: number): boolean {
      const p = PROGRESS.exec(text);
      if (p && Number(p[1]) <= Number(p[2]) && Number(p[3]) + Number(p[4]) < Number(p[1])) {
        if (started.size < 10_000) started.add(own(p[5]!));
        return true;
      }
      const f = text.startsWith("Test FAIL ") ? FAILED.exec(text) : null;
      if (f && started.has(f[1]!)) {
        const id = own(f[1]!);
        if (reported.has(id)) return true;
        reported.add(id);
        sink.test(id, "failed");
        sink.failure({
          category: "test",
          test: id,
          file: null,
          line: null,
          errorType: null,
          message: `${id} failed`,
          start: lineNo,
          end: lineNo,
        });
        return true;
      }
      return false;
    },
    end(): void {},
  };
}

export const denoHarnessFormat: FormatDefinition = {
  name: "deno-harness",
  description: "deno's 2018 test harness: `N/M +P -F: name` progress lines and `Test FAIL name`",
  create: createDenoHarnessParser,
  wakesOn: /^\d+\/\d+ \+\d+ -\d+: \S/,
};
