/**
 * TypeScript compiler diagnostics: `file(line,col): error TS2322: message` (plain, the default
 * when not on a terminal), `file:line:col - error TS2322: message` (`--pretty`), global
 * `error TS5058: …` lines, and indented continuation lines of multi-line messages.
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const PLAIN = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - error (TS\d+): (.*)$/;
const GLOBAL = /^error (TS\d+): (.*)$/;
const FOUND = /^Found \d+ errors?(?: in \d+ files?)?\.?$|^Errors {2}Files$|^\s+\d+ {2}\S+:\d+$/;

export function createTscParser(sink: ParserSink) {
  let current: {
    file: string | null;
    line: number | null;
    column: number | null;
    code: string;
    message: string[];
    buf: BlockBuffer;
    pretty: boolean;
  } | null = null;

  function flush(): void {
    if (!current) return;
    sink.failure({
      category: "type-check",
      file: current.file,
      line: current.line,
      column: current.column,
      errorType: current.code,
      message: current.message.join("\n"),
      stack: current.pretty ? current.buf.text() : null,
      start: current.buf.start,
      end: current.buf.end,
    });
    current = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const m = PLAIN.exec(text) ?? PRETTY.exec(text);
      if (m) {
        flush();
        current = {
          file: sink.path(m[1]!),
          line: Number(m[2]),
          column: Number(m[3]),
          code: m[4]!,
          message: [m[5]!],
          buf: new BlockBuffer(40, 4_000),
          pretty: !text.includes("): error TS"),
        };
        current.buf.push(text, lineNo);
        return true;
      }
      const g = GLOBAL.exec(text);
      if (g) {
        flush();
        current = {
          file: null,
          line: null,
          column: null,
          code: g[1]!,
          message: [g[2]!],
          buf: new BlockBuffer(40, 4_000),
          pretty: false,
        };
        current.buf.push(text, lineNo);
        return true;
      }
      if (current) {
        if (FOUND.test(text)) {
          flush();
          return true;
        }
        if (current.pretty) {
          // Code frame and related-information lines until the next diagnostic or the summary.
          if (text.trim() === "" || /^\s/.test(text) || /^\d+ /.test(text)) {
            current.buf.push(text, lineNo);
            return true;
          }
        } else if (/^ {2,}\S/.test(text) && current.message.length < 20) {
          current.message.push(text.trim());
          current.buf.push(text, lineNo);
          return true;
        }
        flush();
      }
      return FOUND.test(text);
    },
    end(): void {
      flush();
    },
  };
}

export const tscFormat: FormatDefinition = {
  name: "tsc",
  description: "TypeScript compiler errors (plain and --pretty)",
  create: createTscParser,
};
