/**
 * TestCafe's spec reporter (the default). Under its heading ` Running tests in:` and the browser lines (` - Chrome 74 /
 * Windows 10`), each fixture's name at one space of indent, its tests below it: ` ✓ name` passed, ` ✖ name` failed
 * (Windows' console figures: ` √ name`, ` × name`), ` - name` skipped, a failed test's numbered errors indented under
 * it (`   1) AssertionError: …`); at the end ` 1/2 failed (1s)` or ` 2 passed (1s)`, and ` N skipped`.
 *
 * The id is the fixture's name, ` > `, the test's name, as a describe and its test (docs/test-ids.md); the marks
 * ` (unstable)` and ` (screenshots: …)` TestCafe appends are not the name's. Lines are read only under TestCafe's own
 * heading. No place (the error block prints the spec file's source with a `>` marker, not always).
 *
 * A paste may have lost the heading's leading space (`Running tests in:` at the margin, the first line of a fenced
 * block): it counts when a browser line follows it. A long screenshot path wraps the mark onto the next line
 * (` ✖ name (screenshots:`, then the path and `)`): the open mark is not the name's either.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEADING = /^ ?Running tests in:\s*$/;
const BROWSER = /^ - \S/;
const TEST = /^ (✓|✖|√|×|-) (\S.*?)(?: \(unstable\))?(?: \(screenshots:(?: .*\))?)?\s*$/;
const FAILED_COUNT = /^ (\d+)\/(\d+) failed \([^)]*\)\s*$/;
const PASSED_COUNT = /^ (\d+) passed \([^)]*\)\s*$/;
const SKIPPED_COUNT = /^ (\d+) skipped\s*$/;
const FIXTURE = /^ (\S.*?)\s*$/;

export function createTestcafeParser(sink: ParserSink) {
  let running = false;
  let browsers = false;
  let fixture: string | null = null;
  let blankAbove = false;
  /** The heading was read at the margin: the next line that is not blank must be a browser line. */
  let unsure = false;
  const reported = new Set<string>();

  return {
    line(text: string, lineNo: number): boolean {
      if (HEADING.test(text)) {
        running = true;
        browsers = true;
        fixture = null;
        blankAbove = false;
        unsure = !text.startsWith(" ");
        return true;
      }
      if (!running) return false;
      const blank = text.trim() === "";
      const wasBlank = blankAbove;
      blankAbove = blank;
      if (blank) return true;
      if (unsure) {
        unsure = false;
        if (!BROWSER.test(text)) {
          running = false;
          return false;
        }
      }
      if (browsers && BROWSER.test(text)) return true;
      browsers = false;
      const fc = FAILED_COUNT.exec(text);
      if (fc) {
        sink.summary({ passed: Number(fc[2]) - Number(fc[1]), failed: Number(fc[1]) });
        running = false;
        return true;
      }
      const pc = PASSED_COUNT.exec(text);
      if (pc) {
        sink.summary({ passed: Number(pc[1]), failed: 0 });
        running = false;
        return true;
      }
      if (SKIPPED_COUNT.test(text)) return true;
      const t = TEST.exec(text);
      if (t) {
        const id = own(fixture === null ? t[2]! : `${fixture} > ${t[2]}`);
        const mark = t[1]!;
        if (mark === "✓" || mark === "√") sink.test(id, "passed");
        else if (mark === "-") sink.test(id, "skipped");
        else if (!reported.has(id) && reported.size < 10_000) {
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
        }
        return true;
      }
      // A fixture's name: one space of indent after a blank line (a test's errors are indented further).
      const f = wasBlank ? FIXTURE.exec(text) : null;
      if (f && f[1]!.length < 300) {
        fixture = own(f[1]!);
        return true;
      }
      return text.startsWith("  ");
    },
    end(): void {},
  };
}

export const testcafeFormat: FormatDefinition = {
  name: "testcafe",
  description:
    "TestCafe spec reporter: fixtures, ` ✖ test` lines and ` N/M failed` under ` Running tests in:`",
  create: createTestcafeParser,
  wakesOn: /^ ?Running tests in:/,
};
