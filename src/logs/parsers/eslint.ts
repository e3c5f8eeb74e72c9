/**
 * ESLint's stylish formatter (a file path line, then `  line:col  error  message  rule-id` rows)
 * and the unix formatter (`file:line:col: message [Error/rule-id]`). Warnings are counted as
 * seen but are not failures.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const ROW = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(@?[\w/-]+))?\s*$/;
const UNIX = /^(.+?):(\d+):(\d+): (.*) \[(Error|Warning)(?:\/(\S+))?\]$/;
const PATH = /^(?:[A-Za-z]:[\\/]|\/|\.{0,2}[\w@][\w@.-]*[\\/]|[\w@][\w@.-]*\.\w+$)\S*\.[A-Za-z]\w*$/;
const SUMMARY =
  /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)$|^\s+\d+ errors? and \d+ warnings? potentially fixable/;

export function createEslintParser(sink: ParserSink) {
  let candidate: { path: string; lineNo: number } | null = null;
  let file: string | null = null;

  return {
    line(text: string, lineNo: number): boolean {
      const u = UNIX.exec(text);
      if (u) {
        if (u[5] === "Error") {
          sink.failure({
            category: "lint",
            file: sink.path(u[1]!),
            line: Number(u[2]),
            column: Number(u[3]),
            errorType: u[6] ?? null,
            message: u[4]!,
            start: lineNo,
            end: lineNo,
          });
        }
        return true;
      }
      if (file || candidate) {
        const r = ROW.exec(text);
        if (r) {
          if (!file && candidate) file = sink.path(candidate.path);
          candidate = null;
          if (r[3] === "error") {
            sink.failure({
              category: "lint",
              file,
              line: Number(r[1]),
              column: Number(r[2]),
              errorType: r[5] ?? null,
              message: r[4]!.trim(),
              start: lineNo,
              end: lineNo,
            });
          }
          return true;
        }
      }
      if (SUMMARY.test(text)) {
        file = null;
        candidate = null;
        return true;
      }
      if (PATH.test(text)) {
        file = null;
        candidate = { path: text.trim(), lineNo };
        return false;
      }
      if (text.trim() === "") {
        file = null;
        return false;
      }
      candidate = null;
      return false;
    },
    end(): void {},
  };
}

export const eslintFormat: FormatDefinition = {
  name: "eslint",
  description: "ESLint stylish and unix formatters",
  create: createEslintParser,
};
