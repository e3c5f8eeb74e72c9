/**
 * Node.js core's own test runner, tools/test.py (`make test`, `python tools/test.py`): each failed test prints a
 * block `=== release test-fs-read ===`, `Path: parallel/test-fs-read`, the test's output, `Command: out/Release/node
 * …/test/parallel/test-fs-read.js` (and `--- TIMEOUT ---` / `--- CRASHED (Signal: 11) ---`); the progress line ends
 * with `[01:02|% 100|+ 2654|-   2]: Done`.
 *
 * The id is the `Path:` value, `parallel/test-fs-read`: what tools/test.py takes to run the test again
 * (docs/test-ids.md). Places are taken from the checkout's `test/` directory.
 */
import {
  BlockBuffer,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
  underTopDir,
} from "../parser.ts";

const HEADER = /^=== (?:release|debug) (\S+) ===\s*$/;
const PATH = /^Path: (\S+)$/;
const DONE = /\[\d\d:\d\d\|% *\d+\|\+ *(\d+)\|- *(\d+)\]: Done/;

export function createNodeTestPyParser(sink: ParserSink) {
  let block: { id: string | null; buf: BlockBuffer } | null = null;

  function close(): void {
    if (!block) return;
    const b = block;
    block = null;
    if (b.id === null) return;
    const lines = b.buf.lines.slice(2);
    const at = jsFrameLocation(lines, sink);
    const file = at ? underTopDir(at.file, "test") : null;
    const message = lines
      .filter((l) => l.trim() !== "" && !l.trimStart().startsWith("at ") && !l.startsWith("Command: "))
      .slice(0, 20);
    sink.test(b.id, "failed", file);
    sink.failure({
      category: "test",
      test: b.id,
      file,
      line: at ? at.line : null,
      column: at ? at.column : null,
      message: message.join("\n") || b.id,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (text.startsWith("=== ")) {
        const h = HEADER.exec(text);
        if (h) {
          close();
          block = { id: null, buf: new BlockBuffer() };
          block.buf.push(text, lineNo);
          return true;
        }
      }
      if (block) {
        if (block.id === null) {
          const p = PATH.exec(text);
          if (!p) {
            block = null;
            return false;
          }
          block.id = p[1]!;
          block.buf.push(text, lineNo);
          return true;
        }
        block.buf.push(text, lineNo);
        if (text.startsWith("Command: ")) close();
        return true;
      }
      if (text.includes("]: Done")) {
        const d = DONE.exec(text);
        if (d) {
          sink.summary({ passed: Number(d[1]), failed: Number(d[2]) });
          return true;
        }
      }
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const nodeTestPyFormat: FormatDefinition = {
  name: "node-testpy",
  description: "Node.js core's tools/test.py (=== release test-x === / Path: blocks)",
  create: createNodeTestPyParser,
};
