/**
 * luvit's own test runner (`make test`, its `tests/runner.lua`): one line per test file, `test-dns.lua SUCCESS` or
 * `test-dns.lua FAILED`, then for each failed file a `FAIL (test-dns.lua)` block with its failed assertions indented
 * under it (`  FAIL assert - assertion failed - Line: 23`), and `Done` closing the run.
 *
 * A `FAILED` line counts only when a `FAIL (file)` block names the same file; a later run of the same file that
 * succeeds makes it pass (a run again after a fix). The id is the test file as printed (what the runner runs); no place
 * (the line number names no path of the repository).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RESULT = /^([\w.-]+\.lua) (SUCCESS|FAILED)\s*$/;
const BLOCK = /^FAIL \(([\w.-]+\.lua)\)\s*$/;

export function createLuvitParser(sink: ParserSink) {
  const failedLine = new Map<string, number>();
  const reported = new Map<string, { start: number; end: number; lines: string[] }>();
  let block: { file: string; start: number; end: number; lines: string[] } | null = null;

  function closeBlock(): void {
    if (!block) return;
    if (failedLine.has(block.file) && !reported.has(block.file) && reported.size < 10_000)
      reported.set(block.file, { start: failedLine.get(block.file)!, end: block.end, lines: block.lines });
    block = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const r = RESULT.exec(text);
      if (r) {
        closeBlock();
        const file = own(r[1]!);
        if (r[2] === "FAILED") {
          if (failedLine.size < 10_000) failedLine.set(file, lineNo);
        } else {
          failedLine.delete(file);
          reported.delete(file);
        }
        return true;
      }
      const b = BLOCK.exec(text);
      if (b) {
        closeBlock();
        // Only for a file a `FAILED` line named: a fresh parser keeps nothing of a line that does not wake it.
        if (!failedLine.has(b[1]!)) return false;
        block = { file: own(b[1]!), start: lineNo, end: lineNo, lines: [] };
        return true;
      }
      if (block && /^\s+\S/.test(text)) {
        block.end = lineNo;
        if (block.lines.length < 40) block.lines.push(own(text.trim()));
        return true;
      }
      closeBlock();
      return text === "Done" && failedLine.size + reported.size > 0;
    },
    end(): void {
      closeBlock();
      for (const [file, f] of reported) {
        sink.test(file, "failed", null);
        sink.failure({
          category: "test",
          test: file,
          message: f.lines.join("\n") || `luvit test failed: ${file}`,
          start: f.start,
          end: f.end,
        });
      }
    },
  };
}

export const luvitFormat: FormatDefinition = {
  name: "luvit",
  description: "luvit's test runner: `test-x.lua FAILED` lines confirmed by their `FAIL (test-x.lua)` block",
  create: createLuvitParser,
  wakesOn: [/^[\w.-]+\.lua (?:SUCCESS|FAILED)/],
};
