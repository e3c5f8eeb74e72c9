/**
 * gleeunit (Gleam's test runner, `gleam test`), its numbered failure report: `1) module.function` (a nested module
 * `app/jar_test.pours_test`), the error's lines indented under it, `location: module.function:26` (the line in that
 * module), then `stacktrace:` and `output:`.
 *
 * An entry counts only with its `location:` line naming the same `module.function` (ExUnit's and minitest's numbered
 * entries have none). The id is `module.function` as printed (what a Gleam test is called by); placed at the location's
 * line in the module's file, `test/<module>.gleam` (Gleam compiles the test modules from `test/`).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const ENTRY = /^\s*\d+\) ([a-z_][\w/]*\.[a-z_]\w*)\s*$/;
const LOCATION = /^\s+location: ([a-z_][\w/]*\.[a-z_]\w*):(\d+)\s*$/;

export function createGleeunitParser(sink: ParserSink) {
  let entry: { test: string; start: number; lines: string[] } | null = null;

  return {
    line(text: string, lineNo: number): boolean {
      const e = ENTRY.exec(text);
      if (e) {
        entry = { test: own(e[1]!), start: lineNo, lines: [] };
        return false;
      }
      if (!entry) return false;
      const l = LOCATION.exec(text);
      if (l) {
        const test = entry.test;
        const message = entry.lines.join("\n") || `gleeunit test failed: ${test}`;
        const start = entry.start;
        entry = null;
        if (l[1] !== test) return false;
        const file = `test/${test.slice(0, test.lastIndexOf("."))}.gleam`;
        sink.test(test, "failed", file);
        sink.failure({ category: "test", test, file, line: Number(l[2]), message, start, end: lineNo });
        return true;
      }
      if (/^\s+\S/.test(text) && entry.lines.length < 40) {
        entry.lines.push(own(text.trim()));
        return false;
      }
      if (entry.lines.length >= 40 || text.trim() !== "") entry = null;
      return false;
    },
    end(): void {
      entry = null;
    },
  };
}

export const gleeunitFormat: FormatDefinition = {
  name: "gleeunit",
  description:
    "gleeunit's numbered `1) module.function` entries with their `location: module.function:N` line",
  create: createGleeunitParser,
  wakesOn: [/^\s*\d+\) [a-z_]/],
};
