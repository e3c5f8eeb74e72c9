/**
 * Jest's default and `--verbose` reporters: `PASS`/`FAIL <file>` headers, `✓`/`✕`/`○` test lines
 * nested under describe titles, `● describe › test` failure blocks (with `Test suite failed to
 * run` for files that did not load) and the `Tests:` summary.
 */
import type { FailureCategory } from "../failure.ts";
import {
  BlockBuffer,
  popToIndent,
  dedent,
  errorLine,
  type FormatDefinition,
  jsFrameLocation,
  type ParserSink,
} from "../parser.ts";

const FILE_HEADER = /^ ?(PASS|FAIL) {1,2}(\S+)(?: \([\d.]+ m?s\))?$/;
const TEST_LINE = /^(\s+)(✓|✕|○|√|×) (?:(skipped|todo) )?(.+?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const BULLET = /^ {2}● (.+)$/;
const SUMMARY = /^(Test Suites|Tests|Snapshots|Time|Ran all test suites)\b/;
const CODE_FRAME = /^\s*>?\s*\d+ \||^\s+\|/;

export function createJestParser(sink: ParserSink) {
  let active = false;
  let file: string | null = null;
  /** describe titles by indentation level under the current file header. */
  let path: { indent: number; title: string }[] = [];
  let block: { title: string; file: string | null; buf: BlockBuffer } | null = null;

  const idFor = (titles: string, f: string | null) => (f ? `${f} > ${titles}` : titles);

  function flush(): void {
    if (!block) return;
    const lines = dedent(block.buf.lines.slice(1));
    const body = lines.filter((l) => l.trim() !== "");
    const suite = block.title === "Test suite failed to run";
    let errorType: string | null = null;
    const messageLines: string[] = [];
    for (const l of body) {
      if (CODE_FRAME.test(l) || /^\s*at /.test(l)) break;
      messageLines.push(l);
      if (messageLines.length >= 30) break;
    }
    const first = messageLines[0] ?? "";
    const typed = errorLine(first);
    let message = messageLines.join("\n");
    if (typed) {
      errorType = typed.type;
      message = [typed.message, ...messageLines.slice(1)].join("\n");
    } else if (first.startsWith("expect(")) {
      errorType = "AssertionError";
    }
    let category: FailureCategory = "test";
    if (suite) {
      const all = body.join("\n");
      if (/error TS\d+/.test(all)) category = "type-check";
      else if (/SyntaxError/.test(all)) category = "syntax";
      else if (/Cannot find module|Module not found/.test(all)) category = "import";
      else category = "build";
    }
    const loc = jsFrameLocation(body, sink);
    const test = suite ? null : idFor(block.title.replace(/ › /g, " > "), block.file);
    sink.failure({
      category,
      test,
      file: loc?.file ?? block.file,
      line: loc?.line ?? null,
      column: loc?.column ?? null,
      errorType,
      message: message || block.title,
      stack: lines.join("\n"),
      start: block.buf.start,
      end: block.buf.end,
    });
    if (test) sink.test(test, "failed", block.file);
    block = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const h = FILE_HEADER.exec(text);
      if (h) {
        flush();
        active = true;
        file = sink.path(h[2]!);
        path = [];
        return true;
      }
      if (!active) return false;
      const b = BULLET.exec(text);
      if (b) {
        flush();
        block = { title: b[1]!.trim(), file, buf: new BlockBuffer(200, 16_000) };
        block.buf.push(text, lineNo);
        return true;
      }
      if (SUMMARY.test(text)) {
        flush();
        if (text.startsWith("Ran all test suites")) active = false;
        return true;
      }
      if (block) {
        block.buf.push(text, lineNo);
        return true;
      }
      const t = TEST_LINE.exec(text);
      if (t) {
        const indent = t[1]!.length;
        popToIndent(path, indent);
        const titles = [...path.map((p) => p.title), t[4]!].join(" > ");
        const mark = t[2]!;
        const outcome = mark === "✓" || mark === "√" ? "passed" : mark === "○" ? "skipped" : "failed";
        sink.test(idFor(titles, file), outcome, file);
        return true;
      }
      // A describe title in the verbose listing: an indented plain line.
      const d = /^(\s+)(\S.*)$/.exec(text);
      if (d && !text.includes("●")) {
        const indent = d[1]!.length;
        popToIndent(path, indent);
        path.push({ indent, title: d[2]!.trim() });
        return true;
      }
      return text.trim() === "";
    },
    end(): void {
      flush();
    },
  };
}

export const jestFormat: FormatDefinition = {
  name: "jest",
  description: "Jest default and --verbose reporters",
  create: createJestParser,
};
