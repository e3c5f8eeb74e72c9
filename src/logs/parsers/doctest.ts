/**
 * Python's doctest report (`python -m doctest`, `doctest.testmod()`, a build's `%check` running a module's docstring
 * tests): each failing example is a block under a rule of 70 stars, `File "x.py", line 207, in __main__.test`, then
 * `Failed example:` (its source, `Expected:`/`Got:` or `Exception raised:`), up to the next rule; the closing
 * `N items had failures:` list and `***Test Failed*** N failures.` are counts.
 *
 * The id is doctest's own name of the docstring test, the `in NAME` of the File line (`__main__.test`,
 * `kettle.pour`: the module and the object whose docstring holds the example); several failing examples of one
 * docstring are one test (the first one's place). A file named by a machine's absolute path is taken from its
 * topmost `tests`/`test` directory (as pytest's blocks are), else kept as the checkout mapping leaves it.
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const STARS = "*".repeat(70);
const FILE = /^File "([^"]+)", line (\d+), in (\S+)$/;
const FAILED_EXAMPLE = /^(?:Failed example|Exception raised):$/;

function underTests(file: string): string {
  if (!/^(?:\/|[A-Za-z]:\/)/.test(file)) return file;
  const at = file.search(/\/tests?\//);
  return at === -1 ? file : file.slice(at + 1);
}

export function createDoctestParser(sink: ParserSink) {
  /** `rule`: after a star rule; `file`: after its File line; `block`: reading a failing example. */
  let state: "none" | "rule" | "file" | "block" = "none";
  let head: { file: string; line: number; name: string; text: string; lineNo: number } | null = null;
  let block: { file: string; line: number; name: string; buf: BlockBuffer } | null = null;
  const reported = new Set<string>();

  function close(): void {
    const b = block;
    block = null;
    if (!b || reported.has(b.name) || reported.size >= 1_000) return;
    reported.add(b.name);
    const body = b.buf.lines.slice(1).map((l) => l.trimEnd());
    sink.test(b.name, "failed", b.file);
    sink.failure({
      category: "test",
      test: b.name,
      file: b.file,
      line: b.line,
      errorType: body.includes("Exception raised:") ? "exception" : null,
      message:
        body
          .filter((l) => l.trim() !== "")
          .slice(0, 12)
          .join("\n") || "failed example",
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (text === STARS) {
        close();
        state = "rule";
        return true;
      }
      if (state === "rule") {
        const f = text.startsWith("File ") ? FILE.exec(text) : null;
        state = f ? "file" : "none";
        if (!f) return false;
        head = { file: underTests(sink.path(f[1]!)), line: Number(f[2]), name: f[3]!, text, lineNo };
        return true;
      }
      if (state === "file") {
        const h = head!;
        head = null;
        if (!FAILED_EXAMPLE.test(text)) {
          state = "none";
          return false;
        }
        block = { file: h.file, line: h.line, name: h.name, buf: new BlockBuffer(120, 12_000) };
        block.buf.push(h.text, h.lineNo);
        block.buf.push(text, lineNo);
        state = "block";
        return true;
      }
      if (state === "block") {
        // The example's source, its expected and actual output are indented under their headings.
        if (/^(?:\s|Expected:$|Got:$|Got nothing$|Exception raised:$|$)/.test(text)) {
          block!.buf.push(text, lineNo);
          return true;
        }
        close();
        state = "none";
      }
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const doctestFormat: FormatDefinition = {
  name: "doctest",
  description: 'Python doctest (File "x.py", line N, in name / Failed example: blocks under star rules)',
  create: createDoctestParser,
  wakesOn: /^\*{70}$/,
};
