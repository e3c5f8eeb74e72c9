/**
 * `zig test` and `zig build test`.
 *
 * zig's test runner prints `2/3 test.sub... FAIL (TestUnexpectedResult)` (`Test [2/3] test.sub... FAIL` before 0.11)
 * and `N passed; M skipped; K failed.`; under `zig build` the build runner prints `run test: error: 'test.sub' failed:`
 * (the first frame on the same line), `while executing test 'test.sub', the following test command failed:` and
 * `Build Summary: 1/3 steps succeeded; 1 failed; 0/1 tests passed; 1 failed`. A failure's error return trace is a
 * run of frames `path:86:5: 0x22467a in test.sub (test)`, each followed by its source line and a caret: the frames
 * are the failure's stack, not failures of their own (zig's std/testing.zig is where `expect` returns). The id is the
 * test's name as zig prints it (`test.sub`, `main.test.sign and verify`); the place is the frame in the test's own
 * function, else the first frame outside zig's library.
 *
 * zig 0.14+ prints the error at the margin under the step tree (`error: 'test.sub' failed:`, the expectation's message
 * indented below it) and its summary with counts in parentheses (`Build Summary: 7/9 steps succeeded (1 failed);
 * 24/25 tests passed (1 failed)`). A copy taken from a web page's `<pre>` may keep HTML's escaped quotes around the
 * name (`&#x27;test.sub&#x27;`, `&#39;`): they are the quotes.
 *
 * A test that crashed the test binary (a segfault, an abort) prints no `'test.x' failed` line: the build runner names
 * it in `while executing test 'test.x', the following command terminated with signal 11 (expected exited with code
 * 0):` (`… exited with code N`, `… stopped with signal N`: the binary reports a test's failure to the build runner and
 * exits 0), and that test is the failure. The summary's failed count may be far larger (the
 * tests the crash kept from running are counted failed), but no other line names them: they are counts, not failures.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RUNNER = /^(?:Test \[)?(\d+)\/(\d+)\]? (.+?)\.\.\. (OK|FAIL|SKIP|SKIPPED)(?: \((\w+)\))?\s*$/;
/** The quote around a name: `'`, or HTML's escaped one in a copy of a web page. */
const Q = "(?:'|&#x27;|&#39;)";
const BUILD_FAILED = new RegExp(`^(?:[\\w. -]+: )?error: ${Q}(.+)${Q} failed(?::(?: (.*))?)?$`);
const EXECUTING = new RegExp(
  `^(?:[\\w. -]+: )?error: while executing test ${Q}(.+)${Q}, the following test command failed:`,
);
/** The test binary died in the named test: `…, the following command terminated with signal 11 (expected …):`. */
const CRASHED = new RegExp(
  `^(?:[\\w. -]+: )?error: while executing test ${Q}(.+)${Q}, the following command (?:terminated with signal \\w+|stopped with signal \\w+|exited with code \\d+|terminated for unknown reason)\\b`,
);
const FRAME = /^(\S.*?\.zig):(\d+):(\d+): 0x[0-9a-f]+ in (.+?) \(([\w.-]+)\)$/;
const RUNNER_COUNTS = /^(\d+) passed; (\d+) skipped; (\d+) failed\.$/;
const ALL_PASSED = /^All (\d+) tests passed\.$/;
/** `…; 1 failed; 0/1 tests passed; 1 failed` (before 0.14), `… (1 failed); 24/25 tests passed (1 skipped, 1 failed)`. */
const BUILD_SUMMARY =
  /^Build Summary: \d+\/\d+ steps succeeded(?:; \d+ failed| \([^)]*\))?(?:; (\d+)\/(\d+) tests passed(?:; (\d+) skipped)?(?:; (\d+) failed)?(?: \(([^)]*)\))?)?/;
/** A zig test's name: `test.x`, `module.test.x`, an anonymous `test_0`. */
const TEST_NAME = /(?:^|\.)test[._]/;
/** zig's own library: where `expect` returns from, never the test's place. */
const STD = /\/lib\/(?:zig\/)?std\//;

export function createZigParser(sink: ParserSink) {
  let open: {
    id: string;
    errorType: string | null;
    frames: string[];
    place: { file: string; line: number; column: number } | null;
    own: boolean;
    /** zig 0.14+'s message lines, indented under `error: 'test.x' failed:` (`       expected 3, found 2`). */
    detail: string[];
    start: number;
    end: number;
  } | null = null;
  /** Lines left of the current frame's source line and caret. */
  let frameTail = 0;
  const reported = new Set<string>();

  function close(): void {
    if (!open) return;
    const o = open;
    open = null;
    frameTail = 0;
    if (reported.has(o.id)) return;
    if (reported.size < 10_000) reported.add(o.id);
    sink.test(o.id, "failed", o.place?.file ?? null);
    sink.failure({
      category: "test",
      test: o.id,
      file: o.place?.file ?? null,
      line: o.place?.line ?? null,
      column: o.place?.column ?? null,
      errorType: o.errorType,
      message: o.errorType
        ? `${o.id} failed: error.${o.errorType}`
        : o.detail.length > 0
          ? `${o.id} failed: ${o.detail.join("\n")}`
          : `${o.id} failed`,
      stack: o.frames.join("\n") || null,
      start: o.start,
      end: o.end,
    });
  }

  function frame(text: string, lineNo: number): boolean {
    const f = FRAME.exec(text);
    if (!f || !open) return false;
    if (open.frames.length < 40) open.frames.push(own(text));
    open.end = lineNo;
    const inTest = f[4] === open.id;
    if (!STD.test(f[1]!) && (inTest ? !open.own : open.place === null)) {
      open.place = { file: own(sink.path(f[1]!)), line: Number(f[2]), column: Number(f[3]) };
      open.own = inTest;
    }
    frameTail = 2;
    return true;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (open && frameTail > 0 && !FRAME.test(text)) {
        // The frame's source line and its caret.
        frameTail--;
        open.end = lineNo;
        return true;
      }
      if (open && frame(text, lineNo)) return true;
      if (open && open.frames.length === 0 && open.detail.length < 20 && /^\s{2,}\S/.test(text)) {
        open.detail.push(own(text.trim()));
        open.end = lineNo;
        return true;
      }
      const r = text.length < 2_000 && text.includes("... ") ? RUNNER.exec(text) : null;
      if (r && TEST_NAME.test(r[3]!)) {
        close();
        const name = own(r[3]!);
        if (r[4] === "OK") sink.test(name, "passed");
        else if (r[4] !== "FAIL") sink.test(name, "skipped");
        else
          open = {
            id: name,
            errorType: r[5] ?? null,
            frames: [],
            place: null,
            own: false,
            detail: [],
            start: lineNo,
            end: lineNo,
          };
        return true;
      }
      if (text.includes("error: ")) {
        const x = EXECUTING.exec(text);
        if (x) {
          close();
          return true;
        }
        const k = CRASHED.exec(text);
        if (k && TEST_NAME.test(k[1]!)) {
          close();
          open = {
            id: own(k[1]!),
            errorType: null,
            frames: [],
            place: null,
            own: false,
            detail: [text.slice(text.indexOf("the following command ") + 22).replace(/:\s*$/, "")],
            start: lineNo,
            end: lineNo,
          };
          return true;
        }
        const b = BUILD_FAILED.exec(text);
        if (b && TEST_NAME.test(b[1]!)) {
          close();
          open = {
            id: own(b[1]!),
            errorType: null,
            frames: [],
            place: null,
            own: false,
            detail: [],
            start: lineNo,
            end: lineNo,
          };
          if (b[2]) frame(b[2], lineNo);
          return true;
        }
      }
      const c0 = text.charCodeAt(0);
      if (c0 >= 48 && c0 <= 57) {
        const c = RUNNER_COUNTS.exec(text);
        if (c) {
          close();
          sink.summary({ passed: Number(c[1]), skipped: Number(c[2]), failed: Number(c[3]) });
          return true;
        }
      }
      if (c0 === 65 /* A */ || c0 === 66 /* B */) {
        const a = ALL_PASSED.exec(text);
        if (a) {
          close();
          sink.summary({ passed: Number(a[1]), failed: 0 });
          return true;
        }
        const s = BUILD_SUMMARY.exec(text);
        if (s) {
          close();
          if (s[1] !== undefined) {
            const total = Number(s[2]);
            const inParens = (word: string) =>
              Number(new RegExp(`(\\d+) ${word}`).exec(s[5] ?? "")?.[1] ?? 0);
            const skipped = Number(s[3] ?? 0) || inParens("skipped");
            const failed = Number(s[4] ?? 0) || inParens("failed");
            sink.summary({
              passed: Number(s[1]),
              skipped,
              failed: failed || (total - Number(s[1]) - skipped > 0 ? 1 : 0),
            });
          }
          return true;
        }
      }
      if (open) close();
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const zigFormat: FormatDefinition = {
  name: "zig",
  description:
    "zig test / zig build test: N/M test.x... FAIL lines, 'test.x' failed errors, traces, Build Summary",
  create: createZigParser,
};
