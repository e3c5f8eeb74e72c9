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
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RUNNER = /^(?:Test \[)?(\d+)\/(\d+)\]? (.+?)\.\.\. (OK|FAIL|SKIP|SKIPPED)(?: \((\w+)\))?\s*$/;
const BUILD_FAILED = /^(?:[\w. -]+: )?error: '(.+)' failed(?:: (.*))?$/;
const EXECUTING = /^(?:[\w. -]+: )?error: while executing test '(.+)', the following test command failed:/;
const FRAME = /^(\S.*?\.zig):(\d+):(\d+): 0x[0-9a-f]+ in (.+?) \(([\w.-]+)\)$/;
const RUNNER_COUNTS = /^(\d+) passed; (\d+) skipped; (\d+) failed\.$/;
const ALL_PASSED = /^All (\d+) tests passed\.$/;
const BUILD_SUMMARY =
  /^Build Summary: \d+\/\d+ steps succeeded(?:; \d+ failed)?(?:; (\d+)\/(\d+) tests passed(?:; (\d+) skipped)?(?:; (\d+) failed)?)?/;
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
      message: o.errorType ? `${o.id} failed: error.${o.errorType}` : `${o.id} failed`,
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
        const b = BUILD_FAILED.exec(text);
        if (b && TEST_NAME.test(b[1]!)) {
          close();
          open = {
            id: own(b[1]!),
            errorType: null,
            frames: [],
            place: null,
            own: false,
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
            const failed = Number(s[4] ?? 0);
            sink.summary({
              passed: Number(s[1]),
              skipped: Number(s[3] ?? 0),
              failed: failed || (total - Number(s[1]) - Number(s[3] ?? 0) > 0 ? 1 : 0),
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
