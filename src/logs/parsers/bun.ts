/**
 * `bun test`: after `bun test v1.x`, each test file's path on a line of its own (`test/price.test.ts:`), then one
 * result line per test — `(pass)`/`(fail)`/`(skip)`/`(todo)` without a terminal, `✓`/`✗`/`»`/`✎` with one — named
 * `describe > test`, with its duration (`[0.25ms]`). A failure's details come before its `(fail)` line: the code
 * frame (`10 |   expect(x).toBe(116);`), `error: expect(received).toBe(expected)`, `Expected:`/`Received:` and
 * the `at` frames. The counts close the run (` 6 pass`, ` 3 fail`, `Ran 11 tests across 3 files.`).
 *
 * Ids are jest's and vitest's, `file > describe … > test` (docs/test-ids.md). A `(fail)` line that is a test's own
 * output (console.log) has neither a duration nor an error before it: it is not taken.
 *
 * A paste that starts at a test file's line (`index.spec.ts:`, no `bun test` header) is read the same way, but what
 * it finds counts only once bun's own closing lines (` 1 fail`, `Ran 1 tests across 1 files.`) confirm the run.
 */
import {
  BlockBuffer,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
  underKnown,
} from "../parser.ts";

const HEADER = /^bun test v\d+\.\d+/;
const FILE = /^(\S(?:.*\S)?\.(?:test|spec|_test|_spec)\.[cm]?[jt]sx?):$/;
const RESULT = /^(?:\((pass|fail|skip|todo)\)|(✓|✗|»|✎)) (.+?)(?: \[(\d+(?:\.\d+)?m?s)\])?$/;
const COUNT = /^ ?(\d+) (pass|fail|skip|todo)$/;
const RAN = /^Ran \d+ tests? across \d+ files?\./;
const SYMBOL: Record<string, string> = { "✓": "pass", "✗": "fail", "»": "skip", "✎": "todo" };

export function createBunParser(sink: ParserSink) {
  let active = false;
  let file: string | null = null;
  /** Lines since the last result line: the next `(fail)` test's details. */
  let pending = new BlockBuffer(80, 8_000);
  /** Headerless: results wait here until bun's count lines confirm the run (null: the run is confirmed). */
  let unconfirmed: (() => void)[] | null = null;
  const report = (f: () => void) => {
    if (unconfirmed === null) f();
    else if (unconfirmed.length < 10_000) unconfirmed.push(f);
  };
  const confirm = () => {
    if (unconfirmed === null) return;
    for (const f of unconfirmed) f();
    unconfirmed = null;
  };

  return {
    line(text: string, lineNo: number): boolean {
      if (!active) {
        if (text.charCodeAt(0) === 98 /* b */ && HEADER.test(text)) {
          active = true;
          unconfirmed = null;
          return true;
        }
        const headless = text.endsWith(":") ? FILE.exec(text) : null;
        if (!headless) return false;
        active = true;
        unconfirmed = [];
      }
      const f = FILE.exec(text);
      if (f) {
        file = sink.path(f[1]!);
        pending = new BlockBuffer(80, 8_000);
        return true;
      }
      const r = text.charCodeAt(0) === 40 /* ( */ || text.charCodeAt(0) > 127 ? RESULT.exec(text) : null;
      if (r && file !== null) {
        const kind = r[1] ?? SYMBOL[r[2]!]!;
        const id = `${file} > ${r[3]!}`;
        const body = pending.lines;
        const hasError = body.some((l) => /^error: /.test(l.trim())) || body.some((l) => /^\s*at /.test(l));
        const block = pending;
        pending = new BlockBuffer(80, 8_000);
        if (kind === "fail") {
          if (r[4] === undefined && !hasError) return false;
          let errorType: string | null = null;
          const message: string[] = [];
          let inError = false;
          for (const l of body) {
            const t = l.trim();
            if (t.startsWith("at ")) break;
            if (!inError) {
              if (t.startsWith("error: ")) {
                inError = true;
                message.push(t.slice("error: ".length));
              } else {
                const e = errorLine(t);
                if (e) {
                  inError = true;
                  errorType = e.type;
                  message.push(e.message);
                }
              }
              continue;
            }
            if (t !== "" && message.length < 20) message.push(t);
          }
          // The frame of the test file, else the first in-repo frame; else the code frame's marked line.
          const frames = body.filter((l) => /^\s*at /.test(l));
          const own = frames.filter((l) => file !== null && l.includes(file));
          const loc = jsFrameLocation(own.length > 0 ? own : frames, sink);
          const testFile = file;
          report(() => {
            sink.test(id, "failed", testFile);
            sink.failure({
              category: "test",
              test: id,
              file: loc ? underKnown(loc.file, testFile) : testFile,
              line: loc?.line ?? null,
              column: loc?.column ?? null,
              errorType: errorType ?? (/^expect\(/.test(message[0] ?? "") ? "AssertionError" : null),
              message: message.join("\n").trim() || id,
              stack: block.empty ? null : block.text(),
              start: block.empty ? lineNo : block.start,
              end: lineNo,
            });
          });
          return true;
        }
        const testFile = file;
        report(() => sink.test(id, kind === "pass" ? "passed" : "skipped", testFile));
        return true;
      }
      const c = COUNT.exec(text);
      if (c) {
        const n = Number(c[1]);
        confirm();
        if (c[2] === "pass") sink.summary({ passed: n, failed: 0 });
        else if (c[2] === "fail") sink.summary({ failed: n });
        else sink.summary({ skipped: n, failed: 0 });
        return true;
      }
      if (RAN.test(text)) {
        confirm();
        active = false;
        file = null;
        return true;
      }
      if (file !== null) {
        pending.push(text, lineNo);
        return true;
      }
      return false;
    },
    end(): void {
      unconfirmed = null;
    },
  };
}

export const bunFormat: FormatDefinition = {
  name: "bun",
  description: "bun test (per-file (pass)/(fail) lines after each failure's error, counts)",
  create: createBunParser,
};
