/**
 * GNU Autotest (the `testsuite` script autoconf's `AT_INIT` builds; `make check` in libtool, autoconf, bison, m4):
 * one result line per test, `169: Run tests with low max_cmd_len                  FAILED (cmdline_wrap.at:48)`, the
 * number padded to three places, the title padded to a column, then `ok`, `skipped (x.at:N)`, `expected failure
 * (x.at:N)`, `FAILED (x.at:N)` or `UNEXPECTED PASS`; then the `## Test results. ##` box (`ERROR: 148 tests were run,`
 * / `7 failed (4 expected failures).`) and the bug-report hint `testsuite: 67 71 169 failed`.
 *
 * Only `FAILED` lines are read, and only with their `(file.at:N)` trailer, autotest's own (the test's source is an Autotest `.at`
 * file). The id is the title as printed (autotest reruns a test by its number, which changes as tests are added; the
 * title does not). The `.at` file is printed without its directory (`tests/`): no place is read from it. The hint's
 * numbers name no test.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const FAILED = /^ *(\d+): (\S.*?) +(FAILED \([\w.+-]+\.at:\d+\))$/;

export function createAutotestParser(sink: ParserSink) {
  const failed = new Set<string>();
  return {
    line(text: string, lineNo: number): boolean {
      // Only the failed lines: an `ok` line (`1: title   ok`) is too plain to be autotest's by its shape alone.
      const m = text.endsWith(")") ? FAILED.exec(text) : null;
      if (!m) return false;
      const title = m[2]!;
      const status = m[3]!;
      if (!failed.has(title)) {
        failed.add(own(title));
        sink.test(title, "failed");
        sink.failure({
          category: "test",
          test: title,
          message: `${m[1]}: ${title} ${status}`,
          stack: text,
          start: lineNo,
          end: lineNo,
        });
      }
      return true;
    },
    end(): void {},
  };
}

export const autotestFormat: FormatDefinition = {
  name: "autotest",
  description: "GNU Autotest's testsuite result lines (169: title   FAILED (file.at:48))",
  create: createAutotestParser,
  wakesOn: /^ *\d+: \S.* FAILED \([\w.+-]+\.at:\d+\)$/,
};
