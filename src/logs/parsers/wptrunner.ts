/**
 * wptrunner (web-platform-tests, run by `mach test-wpt` or `wpt run`) with mozlog's mach formatter: each test opens
 * with `TEST_START: [thread ]/path/to/test.html` and closes with `TEST_END: [thread ]STATUS`, where a result other than
 * the one the test's metadata expects is printed `TIMEOUT, expected FAIL` (an unexpected result, what makes the run
 * fail). Every line opens with the run's elapsed time (` 1:28.96 `). Threads (`Thread-TestrunnerManager-31`) run tests
 * side by side: a TEST_END is paired with its thread's TEST_START.
 *
 * The id is the test's path as printed (what `mach test-wpt PATH` takes); no place. An unexpected failing status
 * (FAIL, ERROR, TIMEOUT, CRASH, …) is a failure; an expected one, or an unexpected pass, is none.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const THREAD = String.raw`(?:(Thread-\S+|MainThread) )?`;
const START = new RegExp(String.raw`^[ \t]*\d+:\d{2}\.\d{2} TEST_START: ${THREAD}(/\S*)$`);
const END = new RegExp(
  String.raw`^[ \t]*\d+:\d{2}\.\d{2} TEST_END: ${THREAD}(?:Test )?([A-Z_]+)(?:, expected ([A-Z_]+))?(?:\b|$)`,
);
const FAILING = new Set([
  "FAIL",
  "ERROR",
  "TIMEOUT",
  "CRASH",
  "ASSERT",
  "PRECONDITION_FAILED",
  "INTERNAL-ERROR",
]);

export function createWptrunnerParser(sink: ParserSink) {
  /** The test each thread runs (its TEST_START line); "" for lines that name no thread. */
  const running = new Map<string, { path: string; start: number }>();

  return {
    line(text: string, lineNo: number): boolean {
      if (!text.includes("TEST_")) return false;
      const s = START.exec(text);
      if (s) {
        if (running.size < 1_000) running.set(s[1] ?? "", { path: own(s[2]!), start: lineNo });
        return true;
      }
      const e = END.exec(text);
      if (!e) return false;
      const thread = e[1] ?? "";
      const started = running.get(thread);
      if (!started) return false;
      running.delete(thread);
      const [status, expected] = [e[2]!, e[3]];
      if (expected !== undefined && FAILING.has(status)) {
        sink.test(started.path, "failed");
        sink.failure({
          category: "test",
          test: started.path,
          message: own(text.trim().replace(/^\d+:\d{2}\.\d{2} TEST_END: /, "")),
          start: started.start,
          end: lineNo,
        });
      } else if (expected === undefined && (status === "OK" || status === "PASS")) {
        sink.test(started.path, "passed");
      }
      return true;
    },
    end(): void {},
  };
}

export const wptrunnerFormat: FormatDefinition = {
  name: "wptrunner",
  description: "wptrunner (web-platform-tests) with mozlog's mach formatter: `TEST_START:`/`TEST_END:` lines",
  create: createWptrunnerParser,
  wakesOn: /^[ \t]*\d+:\d{2}\.\d{2} TEST_START: /,
};
