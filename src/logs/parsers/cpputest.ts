/**
 * CppUTest (C/C++). A failed check prints `path/x_test.cpp:17: error: Failure in TEST(Group, Name)` (Visual Studio's
 * `x_test.cpp(17): error: …` on Windows), the expectation indented under it; `-v` prints each test as it ends,
 * `TEST(Group, Name) - 3 ms`, with `[FAIL]` after it in runners that mark the failed ones.
 *
 * The id is `Group.Name`, what CppUTest's `-t Group.Name` selects; placed at the failure line's file and line. A test
 * named by both lines is one failure. A `TEST(Group, Name)` line without `Failure in` or `[FAIL]` (a passing `-v`
 * line, the macro in source code) names nothing.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const FAILURE = /^(\S.*?)(?::(\d+):|\((\d+)\):) error: Failure in TEST\((\w+), (\w+)\)\s*$/;
const MARKED = /^\s*TEST\((\w+), (\w+)\) - \d+ ms \[FAIL\]\s*$/;

export function createCpputestParser(sink: ParserSink) {
  const found = new Map<
    string,
    { file: string | null; line: number | null; message: string[]; start: number; end: number }
  >();
  /** The failure whose indented expectation lines follow. */
  let open: string | null = null;

  return {
    line(text: string, lineNo: number): boolean {
      if (!text.includes("TEST(")) {
        const o = open ? found.get(open) : undefined;
        if (o && /^\s+\S/.test(text) && o.message.length < 20) {
          o.message.push(own(text.trim()));
          o.end = lineNo;
          return true;
        }
        open = null;
        return false;
      }
      open = null;
      const f = FAILURE.exec(text);
      if (f) {
        const id = own(`${f[4]}.${f[5]}`);
        const known = found.get(id);
        const place = { file: sink.path(f[1]!), line: Number(f[2] ?? f[3]) };
        if (known) Object.assign(known, known.file === null ? place : {});
        else if (found.size < 1_000) found.set(id, { ...place, message: [], start: lineNo, end: lineNo });
        open = id;
        return true;
      }
      const m = MARKED.exec(text);
      if (m) {
        const id = own(`${m[1]}.${m[2]}`);
        if (!found.has(id) && found.size < 1_000)
          found.set(id, { file: null, line: null, message: [], start: lineNo, end: lineNo });
        return true;
      }
      return false;
    },
    end(): void {
      for (const [id, f] of found) {
        sink.test(id, "failed", f.file ?? undefined);
        sink.failure({
          category: "test",
          test: id,
          file: f.file,
          line: f.line,
          message: f.message.join("\n") || `Failure in TEST(${id.replace(".", ", ")})`,
          start: f.start,
          end: f.end,
        });
      }
      found.clear();
    },
  };
}

export const cpputestFormat: FormatDefinition = {
  name: "cpputest",
  description: "CppUTest: `file:17: error: Failure in TEST(Group, Name)` and `-v` lines marked `[FAIL]`",
  create: createCpputestParser,
  wakesOn: [/^\s*TEST\(/, / error: Failure in TEST\(/],
};
