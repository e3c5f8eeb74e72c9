/**
 * Cutter (the C/C++ unit testing framework, `cutter` runner's console): a failure opens with `Failure: case::test`
 * (the test case and test joined by `::`), then the failed assertion's expression in angle brackets
 * (`<expected == actual>`), then `expected:`/`actual:` values and a diff. The entry counts only with that expression line
 * right below it. The id is the name as printed (what `cutter -n` takes); Cutter prints no file before its count line.
 *
 * The entries wait for the run's closing count line (`3 test(s), 4 assertion(s), 1 failure(s), 0 error(s), …`): one
 * saying 0 failures and 0 errors drops them (the run passed); a log cut before it reports them.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEADER = /^(Failure|Error): ([A-Za-z_]\w*::[A-Za-z_]\w*)$/;
const EXPRESSION = /^<.+>$/;
const SUMMARY = /^\d+ test\(s\), \d+ assertion\(s\), (\d+) failure\(s\), (\d+) error\(s\)/;

export function createCutterParser(sink: ParserSink) {
  let pending: { test: string; start: number } | null = null;
  let count = 0;
  /** Entries read since the last count line, waiting for the next one. */
  let held: { test: string; message: string; start: number; end: number }[] = [];

  function flush(): void {
    for (const f of held) {
      sink.test(f.test, "failed");
      sink.failure({ category: "test", test: f.test, message: f.message, start: f.start, end: f.end });
    }
    held = [];
  }

  return {
    line(text: string, lineNo: number): boolean {
      const p = pending;
      pending = null;
      if (p && EXPRESSION.test(text) && count < 10_000) {
        count++;
        held.push({ test: own(p.test), message: own(text), start: p.start, end: lineNo });
        return true;
      }
      const sum = held.length > 0 && text.charCodeAt(0) <= 57 ? SUMMARY.exec(text) : null;
      if (sum) {
        if (sum[1] === "0" && sum[2] === "0") held = [];
        else flush();
        return true;
      }
      const h = text.charCodeAt(0) === 70 || text.charCodeAt(0) === 69 ? HEADER.exec(text) : null;
      if (h) {
        pending = { test: h[2]!, start: lineNo };
        return false;
      }
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const cutterFormat: FormatDefinition = {
  name: "cutter",
  description: "Cutter (C/C++): `Failure: case::test` over its `<expected == actual>` expression line",
  create: createCutterParser,
  wakesOn: /^(?:Failure|Error): \w+::\w+$/,
};
