/**
 * ExUnit (`mix test`): numbered failure blocks `  1) test adds (MathTest)` (`  1) doctest Calc.add/2 (1) (CalcTest)`),
 * then, indented, the test's place `test/math_test.exs:5`, the assertion (`Assertion with == failed`, `code:`,
 * `left:`, `right:`) or the exception (`** (RuntimeError) boom`), and `stacktrace:` frames
 * (`test/math_test.exs:6: (test)`); the count line `1 doctest, 11 tests, 1 failure` (`, 2 excluded`, `, 1 skipped`).
 *
 * The id is what ExUnit prints in the header, `test <name> (<Module>)` (docs/test-ids.md). A header is taken only
 * with ExUnit's own lines under it (a place ending in `.exs`/`.ex`, `** (`, `Assertion`, `code:`, `stacktrace:`),
 * so a mocha block `  1) test (Suite)` is not read as ExUnit. A header indented by one space (a paste that lost a
 * column) is taken the same way.
 *
 * ExUnit prints a run's failure blocks before its count line: blocks after the last count line belong to a later run
 * whose count line the log does not hold (a loop of runs, a cut log), and the earlier run's `0 failures` does not
 * speak for them; they are counted as that run's failures.
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const HEADER = /^ {1,2}(\d+)\) ((?:test|doctest|property) .+ \(([A-Z][\w.]*)\))$/;
const FINISHED = /^Finished in [\d.]+ seconds \([\d.]+s (?:async|on load)/;
const PLACE = /^\s+(?:at )?((?:[A-Za-z]:)?[^\s:]+\.exs?):(\d+)(?::|$)/;
const EXUNIT_LINE =
  /^\s+(?:\*\* \(|Assertion with |Expected truthy|code: |left: |right: |stacktrace:|[^\s:]+\.exs?:\d+)/;
const COUNTS = /^(?:(\d+) doctests?, )?(?:(\d+) propert(?:y|ies), )?(\d+) tests?, (\d+) failures?(?:, .*)?$/;

export function createExunitParser(sink: ParserSink) {
  let pending: { id: string; buf: BlockBuffer } | null = null;
  let block: { id: string; buf: BlockBuffer } | null = null;
  /** ExUnit's `Finished in 0.05 seconds (…)` was seen: the count line after it is ExUnit's. */
  let finished = false;
  /** A count line was seen, and the failure blocks closed since the last one. */
  let counted = false;
  let blocksSinceCount = 0;

  function close(): void {
    if (!block) return;
    const b = block;
    block = null;
    const lines = b.buf.lines.slice(1);
    let file: string | null = null;
    let line: number | null = null;
    for (const l of lines) {
      const p = PLACE.exec(l);
      if (!p) continue;
      file = sink.path(p[1]!);
      line = Number(p[2]);
      break;
    }
    const ex = lines.map((l) => /^\s+\*\* \(([\w.]+)\) ?(.*)$/.exec(l)).find((m) => m !== null) ?? null;
    const message = lines
      .map((l) => l.trim())
      .filter((t) => t !== "" && !PLACE.test(` ${t}`) && t !== "stacktrace:")
      .slice(0, 20);
    blocksSinceCount++;
    sink.test(b.id, "failed", file);
    sink.failure({
      category: "test",
      test: b.id,
      file,
      line,
      errorType: ex ? ex[1]! : null,
      message: message.join("\n") || b.id,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (pending) {
        const p = pending;
        pending = null;
        if (EXUNIT_LINE.test(text)) {
          close();
          block = p;
          block.buf.push(text, lineNo);
          return true;
        }
      }
      if (block) {
        // The block is indented under its header: a blank line or an indented line continues it.
        if (text === "" || text.startsWith("     ")) {
          block.buf.push(text, lineNo);
          return true;
        }
        close();
      }
      if (text.charCodeAt(0) === 32 && text.charCodeAt(text.length - 1) === 41 /* ) */) {
        const h = HEADER.exec(text);
        if (h) {
          const buf = new BlockBuffer();
          buf.push(text, lineNo);
          // Only the line under it confirms ExUnit; a header without ExUnit's lines under it is dropped.
          pending = { id: h[2]!, buf };
          return true;
        }
      }
      if (text.startsWith("Finished in ") && FINISHED.test(text)) {
        finished = true;
        return false;
      }
      if (finished && (text.includes(" tests, ") || text.includes(" test, "))) {
        const c = COUNTS.exec(text);
        if (!c) return false;
        const total = Number(c[1] ?? 0) + Number(c[2] ?? 0) + Number(c[3]);
        const failed = Number(c[4]);
        sink.summary({ failed, passed: Math.max(0, total - failed) });
        counted = true;
        blocksSinceCount = 0;
        return true;
      }
      return false;
    },
    end(): void {
      close();
      if (counted && blocksSinceCount > 0) sink.summary({ failed: blocksSinceCount, passed: 0 });
    },
  };
}

export const exunitFormat: FormatDefinition = {
  name: "exunit",
  description: "ExUnit / mix test (numbered `1) test … (Module)` failure blocks and the count line)",
  create: createExunitParser,
};
