/**
 * xcpretty, the formatter of `xcodebuild test` output (also under fastlane's `scan`, which prints each of its lines
 * behind `▸ `, and fastlane's own `INFO [2018-11-07 14:33:07.97]: ` or `[14:33:07]: ` prefix). Its simple formatter
 * prints the test class as a heading line (`LoginPageTests`), then one line per test method under it: `✓ testEmpty
 * (0.012 seconds)` for a pass and `✗ testTrailingSpace, Failed to find "x" Button` for each failed assertion of a
 * failing one (two assertions, two lines).
 *
 * The id is XCTest's `Class.method` (docs/test-ids.md): the heading the result lines are under, and the method. A
 * `✗` line counts only with XCTest's method shape (`test…`, what XCTest runs) and a `, ` before the reason, and only
 * once xcpretty's shape showed above it: a class heading with a result line right under it, or a `✓ testX (0.01
 * seconds)` line. Without a heading (a paste cut below it) the method alone is the id.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

/**
 * fastlane's log prefix before scan's `▸ ` (`INFO [2018-11-07 14:33:07.97]: `, `[14:33:07]: `; the colon alone when the
 * engine took the clock as the log's framing).
 */
const FASTLANE = /^(?:(?:INFO|DEBUG|WARN|ERROR) )?(?:\[[\d\- :.T]+\])?: (?=▸ )/;
const PASS = /^\s*✓ (test\w*) \([\d.]+ seconds\)\s*$/;
const FAIL = /^\s*✗ (test\w*), (.*)$/;
const HEADING = /^([A-Za-z_]\w*)\s*$/;

export function createXcprettyParser(sink: ParserSink) {
  /** The last class heading; a heading counts once a result line follows it. */
  let heading: string | null = null;
  let candidate: string | null = null;
  /** A `✓ testX (N seconds)` line was seen: xcpretty's own. */
  let shaped = false;
  const reported = new Set<string>();

  return {
    line(raw: string, lineNo: number): boolean {
      let text = raw;
      const f = FASTLANE.exec(text);
      if (f) text = text.slice(f[0].length);
      const scan = text.startsWith("▸ ");
      if (scan) text = text.slice(2);
      const pass = text.includes("✓") ? PASS.exec(text) : null;
      const fail = !pass && text.includes("✗") ? FAIL.exec(text) : null;
      if (pass || fail) {
        if (candidate !== null) heading = candidate;
        candidate = null;
        const method = (pass ?? fail)![1]!;
        const id = heading !== null ? `${heading}.${method}` : method;
        if (pass) {
          shaped = true;
          sink.test(own(id), "passed");
          return true;
        }
        if (!shaped && heading === null) return false;
        if (reported.has(id) || reported.size >= 10_000) return true;
        reported.add(id);
        sink.test(own(id), "failed");
        sink.failure({
          category: "test",
          test: own(id),
          message: own(fail![2]!.trim()) || `${id} failed`,
          start: lineNo,
          end: lineNo,
        });
        return true;
      }
      // A heading is a bare class name: at the margin in xcpretty's own output, behind `▸ ` under scan.
      const h = HEADING.exec(text);
      if (h && (scan || text === raw)) {
        candidate = own(h[1]!);
        return false;
      }
      if (text.trim() !== "") candidate = null;
      return false;
    },
    end(): void {},
  };
}

export const xcprettyFormat: FormatDefinition = {
  name: "xcpretty",
  description: "xcpretty's `✓ testX (N seconds)` / `✗ testX, reason` lines under their class heading",
  create: createXcprettyParser,
};
