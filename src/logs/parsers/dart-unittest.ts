/**
 * Dart's old `unittest` package (before `package:test`): its compact configuration prints `PASS: name`, `FAIL: name`
 * or `ERROR: name` per test, a failure's Expected/Actual/Which lines indented under it, and the run's count line
 * `0 PASSED, 2 FAILED, 0 ERRORS`. `FAIL: name` is also automake's and other harnesses' shape, so the lines are held
 * and reported only when that count line follows them; the id is the name as printed (the `dart test` row's name
 * alone: no file is printed).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RESULT = /^(PASS|FAIL|ERROR): (\S.*)$/;
const COUNTS = /^(\d+) PASSED, (\d+) FAILED, (\d+) ERRORS$/;

export function createDartUnittestParser(sink: ParserSink) {
  let held: { name: string; error: boolean; message: string[]; start: number; end: number }[] = [];
  let passed: string[] = [];
  let last: (typeof held)[number] | null = null;

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      if (c0 === 80 || c0 === 70 || c0 === 69) {
        const r = RESULT.exec(text);
        if (r) {
          last = null;
          if (r[1] === "PASS") {
            if (passed.length < 10_000) passed.push(own(r[2]!));
          } else if (held.length < 1_000) {
            last = {
              name: own(r[2]!.trim()),
              error: r[1] === "ERROR",
              message: [],
              start: lineNo,
              end: lineNo,
            };
            held.push(last);
          }
          return false;
        }
      }
      if (last && (c0 === 32 || c0 === 9)) {
        if (last.message.length < 30) last.message.push(own(text.trim()));
        last.end = lineNo;
        return false;
      }
      last = null;
      if (c0 >= 48 && c0 <= 57) {
        const c = COUNTS.exec(text);
        if (c) {
          for (const p of passed) sink.test(p, "passed");
          for (const h of held) {
            sink.test(h.name, h.error ? "error" : "failed");
            sink.failure({
              category: "test",
              test: h.name,
              file: null,
              line: null,
              errorType: null,
              message: h.message.filter((m) => m !== "...").join("\n") || `${h.name} failed`,
              stack: null,
              start: h.start,
              end: h.end,
            });
          }
          held = [];
          passed = [];
          sink.summary({ passed: Number(c[1]), failed: Number(c[2]), error: Number(c[3]) });
          return true;
        }
      }
      return false;
    },
    end(): void {},
  };
}

export const dartUnittestFormat: FormatDefinition = {
  name: "dart-unittest",
  description:
    "Dart's old unittest package: PASS:/FAIL:/ERROR: lines confirmed by `N PASSED, M FAILED, K ERRORS`",
  create: createDartUnittestParser,
};
