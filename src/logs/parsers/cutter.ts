/**
 * Cutter (the C/C++ unit testing framework, `cutter` runner's console): a failure opens with `Failure: case::test`
 * (the test case and test joined by `::`), then the failed assertion's expression in angle brackets
 * (`<expected == actual>`), then `expected:`/`actual:` values and a diff. The entry counts only with that expression line
 * right below it. The id is the name as printed (what `cutter -n` takes); Cutter prints no file before its count line.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEADER = /^(Failure|Error): ([A-Za-z_]\w*::[A-Za-z_]\w*)$/;
const EXPRESSION = /^<.+>$/;

export function createCutterParser(sink: ParserSink) {
  let pending: { test: string; start: number } | null = null;
  let count = 0;

  return {
    line(text: string, lineNo: number): boolean {
      const p = pending;
      pending = null;
      if (p && EXPRESSION.test(text) && count < 10_000) {
        count++;
        const test = own(p.test);
        sink.test(test, "failed");
        sink.failure({ category: "test", test, message: own(text), start: p.start, end: lineNo });
        return true;
      }
      const h = text.charCodeAt(0) === 70 || text.charCodeAt(0) === 69 ? HEADER.exec(text) : null;
      if (h) {
        pending = { test: h[2]!, start: lineNo };
        return false;
      }
      return false;
    },
    end(): void {},
  };
}

export const cutterFormat: FormatDefinition = {
  name: "cutter",
  description: "Cutter (C/C++): `Failure: case::test` over its `<expected == actual>` expression line",
  create: createCutterParser,
  wakesOn: /^(?:Failure|Error): \w+::\w+$/,
};
