/**
 * Catch2's console reporter (v2 and v3). Each test case with a failed assertion gets a block: a rule of 79 dashes,
 * the test case's name and its sections (indented two spaces a level), another rule, the place it was declared,
 * a rule of dots, then each failed assertion — `tests/x.cpp:19: FAILED:` (MSVC `tests\x.cpp(19): FAILED:`), the
 * expression, `with expansion:` or `due to unexpected exception with message:` — until the next block or the
 * `====` rule before the counts (`test cases: 3 | 1 passed | 2 failed`, or `All tests passed (…)`).
 *
 * The id is the test case's name with its sections joined by `/`, as Catch2's JUnit reporter names it
 * (`stack limits/rejects a third push`, docs/test-ids.md). A block counts only with a `FAILED:` line in it.
 *
 * A paste cut just below a block's opening rule starts at the name: a rule followed at once by the place line (then
 * the dots) is such a block's second rule, and the line above it its name. GitHub's log view may turn digits of the
 * place into a markdown link (`x.cpp([64](https://github.com/…#step:19:65)4)`): the link's text is the digits.
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const DASHES = "-".repeat(79);
const DOTS = ".".repeat(79);
const EQUALS = "=".repeat(79);
const PLACE = /(?::\d+|\(\d+\))$/;
const MD_DIGITS = /\[(\d+)\]\(https?:\/\/[^\s()]*\)/g;
const undamaged = (text: string): string => (text.includes("](") ? text.replace(MD_DIGITS, "$1") : text);
const FAILED = /^(.+?)(?::(\d+)|\((\d+)\)): FAILED:$/;
const CUT_PLACE = /^(\S.*?)(?::(\d+)|\((\d+)\)): ?$/;
const COUNTS = /^test cases: +(\d+) \| +(?:(\d+) passed \| +)?(\d+) failed(?: \| +\d+ failed as expected)?$/;
const ALL_PASSED = /^All tests passed \(\d+ assertions? in (\d+) test cases?\)$/;
const NO_ASSERTIONS = /^No assertions in (?:section|test case) '(.*)'\s*$/;

export function createCatch2Parser(sink: ParserSink) {
  /** `names`: reading the name lines between the rules; `place`: before the dots; `body`: the assertions. */
  let state: "none" | "names" | "place" | "body" = "none";
  let names: string[] = [];
  let buf: BlockBuffer | null = null;
  let failed: { file: string; line: number; message: string[] } | null = null;
  /** The last line seen outside a block, and its number: the name of a block whose opening rule was cut. */
  let before: { text: string; lineNo: number } | null = null;
  /** In `place`: the line after the second rule was read (it must be the place). */
  let placeSeen = false;
  /** Blank lines passed over in a row inside a block's head. */
  let blankRun = 0;
  /** In `body`: an assertion's place whose `FAILED:` the copy put on a later line. */
  let cutPlace: { file: string; line: number } | null = null;
  /** The block's own place line (under its second rule), as printed. */
  let declared: string | null = null;

  function flush(): void {
    if (buf && failed) {
      const id = names.join("/");
      sink.test(id, "failed", failed.file);
      sink.failure({
        category: "test",
        test: id,
        file: failed.file,
        line: failed.line,
        errorType: failed.message.some((l) => /^due to unexpected exception/.test(l)) ? "exception" : null,
        message: failed.message.join("\n").trim() || id,
        stack: buf.text(),
        start: buf.start,
        end: buf.end,
      });
    }
    buf = null;
    failed = null;
    cutPlace = null;
    declared = null;
    names = [];
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (text === DASHES) {
        if (state === "names") {
          state = "place";
          placeSeen = false;
          buf?.push(text, lineNo);
          return true;
        }
        const above = state === "none" ? before : null;
        flush();
        state = "names";
        buf = new BlockBuffer();
        if (above && lineNo === above.lineNo + 1) buf.push(above.text, above.lineNo);
        buf.push(text, lineNo);
        before = null;
        return true;
      }
      // The counts end the last block (the `====` rule before them may be claimed by another format's section rule).
      if (state === "body" && (text.startsWith("test cases:") || text.startsWith("All tests passed"))) {
        flush();
        state = "none";
      }
      if (state === "none") {
        const c = text.startsWith("test cases:") ? COUNTS.exec(text) : null;
        if (c) {
          sink.summary({ passed: Number(c[2] ?? 0), failed: Number(c[3]) });
          return true;
        }
        const a = text.startsWith("All tests passed") ? ALL_PASSED.exec(text) : null;
        if (a) {
          sink.summary({ passed: Number(a[1]), failed: 0 });
          return true;
        }
        before = text.trim() !== "" && !text.startsWith(" ") && text.length <= 300 ? { text, lineNo } : null;
        return false;
      }
      // A copy that put a blank line between every two lines (a Debian build log pasted double-spaced): inside a
      // block's head the blank lines are the copy's, not Catch2's; up to three in a row are passed over.
      if ((state === "names" || state === "place") && text.trim() === "" && blankRun < 3) {
        blankRun++;
        return false;
      }
      blankRun = 0;
      if (state === "names") {
        // A place right under the rule: the rule was the block's second, its opening rule cut; the name is the line
        // above it (kept at the buffer's start), when there was one.
        if (names.length === 0 && PLACE.test(undamaged(text))) {
          if (buf!.lines.length < 2) {
            state = "none";
            buf = null;
            return false;
          }
          names.push(buf!.lines[0]!.trim());
          buf!.push(text, lineNo);
          declared = undamaged(text);
          state = "place";
          placeSeen = true;
          return true;
        }
        if (buf!.lines.length === 2 && names.length === 0) {
          // Not a cut block: the line kept above the rule is no name.
          const rule = buf!.lines[1]!;
          buf = new BlockBuffer();
          buf.push(rule, lineNo - 1);
        }
        // The test case's name at the margin, its sections two spaces deeper each.
        if (names.length >= 20 || (names.length > 0 && !text.startsWith("  "))) {
          state = "none";
          buf = null;
          names = [];
          return false;
        }
        names.push(text.trim());
        buf!.push(text, lineNo);
        return true;
      }
      if (state === "place") {
        const placeNext = !placeSeen;
        placeSeen = true;
        // The place the test case was declared (`tests/x.cpp:12`, MSVC `tests\x.cpp(12)`) comes first: a rule-framed
        // heading of another tool (Surefire's report file, `Test set: pkg.Class` between two rules) is not Catch2's.
        if (placeNext && !PLACE.test(undamaged(text))) {
          state = "none";
          buf = null;
          names = [];
          return false;
        }
        buf!.push(text, lineNo);
        if (placeNext) declared = undamaged(text);
        if (text === DOTS) state = "body";
        else if (buf!.lines.filter((l) => l.trim() !== "").length > 6) {
          state = "none";
          buf = null;
          names = [];
          return false;
        }
        return true;
      }
      // body
      if (text === EQUALS) {
        flush();
        state = "none";
        return true;
      }
      buf!.push(text, lineNo);
      const f = text.endsWith("FAILED:") ? FAILED.exec(text) : null;
      if (f && failed === null) {
        failed = { file: sink.path(f[1]!), line: Number(f[2] ?? f[3]), message: [] };
        return true;
      }
      // The same copy may break `x.cpp:17: FAILED:` after the place (`x.cpp:17: `, blank lines, `FAILED:`).
      if (failed === null) {
        const p = text.endsWith(": ") || text.endsWith(":") ? CUT_PLACE.exec(text) : null;
        if (p) {
          cutPlace = { file: p[1]!, line: Number(p[2] ?? p[3]) };
          return true;
        }
        if (text === "FAILED:" && cutPlace) {
          failed = { file: sink.path(cutPlace.file), line: cutPlace.line, message: [] };
          return true;
        }
        if (text.trim() !== "") cutPlace = null;
        // `-w NoAssertions`: the block's innermost section (or test case) made no assertion, which fails it.
        const n = text.startsWith("No assertions in ") ? NO_ASSERTIONS.exec(text) : null;
        const at =
          n && declared !== null && n[1] === names.at(-1)
            ? /^(.+?)(?::(\d+)|\((\d+)\))$/.exec(declared)
            : null;
        if (at) {
          failed = { file: sink.path(at[1]!), line: Number(at[2] ?? at[3]), message: [text.trim()] };
          return true;
        }
      }
      if (failed && failed.message.length < 20 && text.trim() !== "" && !FAILED.test(text))
        failed.message.push(text.trim());
      return true;
    },
    end(): void {
      flush();
    },
  };
}

export const catch2Format: FormatDefinition = {
  name: "catch2",
  description: "Catch2 console reporter (test case blocks with FAILED: assertions, counts)",
  create: createCatch2Parser,
};
