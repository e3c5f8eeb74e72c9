/**
 * seatest (a small C unit-test framework) console output. Each test file runs as a fixture under its banner
 * (`---------------- test_suite_two.c ----------------`); a failed assertion prints the test function, its line and
 * the message (`test_assert_fails    Line 12    Should of been true`); the fixture ends in its count line
 * (`2 run  1 failed`), and the run in the `SEATEST vX` summary (`Failed` or `ALL TESTS PASSED`, `5 tests run`).
 *
 * A failure line counts only inside a fixture whose count line follows it and counts failures. The id is the test
 * function's name as printed; its place is the fixture file (seatest prints the file name without its directory).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const BANNER = /^-{4,} (\S+\.(?:c|cc|cpp|cxx)) -{4,}\s*$/;
const FAILED_LINE = /^([A-Za-z_]\w*) {2,}Line (\d+) {2,}(\S.*?)\s*$/;
const FIXTURE_COUNT = /^\s*(\d+) run {2}(\d+) failed\s*$/;

export function createSeatestParser(sink: ParserSink) {
  let fixture: string | null = null;
  let pending: { test: string; line: number; message: string; lineNo: number }[] = [];

  return {
    line(text: string, lineNo: number): boolean {
      const b = text.charCodeAt(0) === 45 ? BANNER.exec(text) : null;
      if (b) {
        fixture = sink.path(b[1]!);
        pending = [];
        return true;
      }
      if (fixture === null) return false;
      const f = FAILED_LINE.exec(text);
      if (f) {
        if (pending.length < 1_000) pending.push({ test: f[1]!, line: Number(f[2]), message: f[3]!, lineNo });
        return true;
      }
      const c = FIXTURE_COUNT.exec(text);
      if (c) {
        const run = Number(c[1]);
        const failed = Number(c[2]);
        sink.summary({ passed: Math.max(0, run - failed), failed });
        if (failed > 0) {
          for (const p of pending) {
            const test = own(p.test);
            sink.test(test, "failed", fixture);
            sink.failure({
              category: "test",
              test,
              file: fixture,
              line: p.line,
              message: own(p.message),
              start: p.lineNo,
              end: lineNo,
            });
          }
        }
        pending = [];
        fixture = null;
        return true;
      }
      return false;
    },
    end(): void {
      pending = [];
    },
  };
}

export const seatestFormat: FormatDefinition = {
  name: "seatest",
  description:
    "seatest (C) console output: fixture banners, `name    Line N    message` lines, `N run  M failed`",
  create: createSeatestParser,
};
