/**
 * Issue 12, tainted hold20 classes (fixer f12ac): output a report pastes in a `python` fence right after its
 * code, as lines of exception reprs (python/cpython#123473's shape); a side stated as "What I actually get is: <label>:
 * <value>" and a float printed one apart in its last digit (python/cpython#97600's shape). Every report here is written for these tests,
 * each rule with cases where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { floatsAgreeButLastDigit, lastDigitApart } from "../../../src/repro/float-digits.ts";
import { exceptionReprs, parseReport } from "../../../src/repro/parse-report.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";

describe("a block of exception reprs after the report's code", () => {
  const code = `import json\n\nfor text in ["{", "[1,"]:\n    try:\n        json.loads(text)\n    except ValueError as e:\n        print(repr(e))\n`;
  it("is what that code printed, the reported output", () => {
    const md = `# t\n\nTo reproduce:\n\n${f}python\n${code}${f}\n\n${f}python\nJSONDecodeError('Expecting property name')\nJSONDecodeError("Expecting value")\n${f}\n`;
    const report = parseReport(md);
    expect(report.blocks.map((b) => b.kind)).toEqual(["code", "output"]);
    const exp = reportedExpectations(report);
    expect(exp.actual.kind).toBe("output");
    expect(exp.actual.output).toEqual([
      "JSONDecodeError('Expecting property name')",
      'JSONDecodeError("Expecting value")',
    ]);
  });
  it("is not output before any code (the report's list of the errors it means)", () => {
    const md = `# t\n\nThese are raised:\n\n${f}python\nValueError('a')\nKeyError('b')\n${f}\n\nCode:\n\n${f}python\n${code}${f}\n`;
    expect(parseReport(md).blocks.map((b) => b.kind)).toEqual(["code", "code"]);
  });
  it("is not output when a sentence introduces it (a lead decides then)", () => {
    const md = `# t\n\n${f}python\n${code}${f}\n\nThe fix would raise these:\n\n${f}python\nValueError('a')\nKeyError('b')\n${f}\n`;
    expect(parseReport(md).blocks.map((b) => b.kind)).toEqual(["code", "code"]);
  });
  it("needs every line to be a repr: a statement, a raise or one line alone is code", () => {
    expect(exceptionReprs("ValueError('a')\nKeyError('b')")).toBe(true);
    expect(exceptionReprs("ValueError('a')")).toBe(false);
    expect(exceptionReprs("raise ValueError('a')\nKeyError('b')")).toBe(false);
    expect(exceptionReprs("ValueError('a')\nprint(x)")).toBe(false);
    expect(exceptionReprs("e = ValueError('a')\nKeyError('b')")).toBe(false);
    expect(exceptionReprs("ValueError(msg)\nKeyError('b')")).toBe(false);
    expect(exceptionReprs("validate('a')\nparse('b')")).toBe(false);
  });
});

describe("a side stated after a lead and a label of the value's own", () => {
  it("reads 'What I actually get is: <label>: <value>' and the expected one the same way", () => {
    const c = proseClaims(
      "I expected the mean deviation to be: Mean deviation, d: 2.5\n\nWhat I actually get is: Mean deviation, d: 3.75",
    );
    expect(c).toEqual({ actual: ["3.75"], expected: ["2.5"] });
  });
  it("takes no side from a lead that names none", () => {
    expect(proseClaims("Environment: Node: 18.2")).toEqual({ actual: [], expected: [] });
    expect(proseClaims("Versions I actually use: Node: 18.2")).toEqual({ actual: [], expected: [] });
  });
  it("needs the value's own label: a lead and a value alone take no side", () => {
    expect(proseClaims("The right `Url` would be:\n3.14\n").expected).toEqual([]);
    expect(proseClaims("Right now this makes one test fail: `test/x.py:12`").expected).toEqual([]);
    expect(proseClaims("I expected it to be: `x:1`").expected).toEqual([]);
  });
});

describe("a float printed one apart in its last digit", () => {
  it("is the reported output when the expected value is far from it", () => {
    expect(floatsAgreeButLastDigit(["5.237229365663817"], "5.237229365663818\n", ["4.8989794855664"])).toBe(
      true,
    );
  });
  it("is not when the report gives no expected value (the last digits may be the claim)", () => {
    expect(floatsAgreeButLastDigit(["5.237229365663817"], "5.237229365663818\n", [])).toBe(false);
  });
  it("is not when the expected value is the printed one or near it (the dispute is the last digit)", () => {
    expect(floatsAgreeButLastDigit(["5.237229365663817"], "5.237229365663818\n", ["5.237229365663818"])).toBe(
      false,
    );
    expect(floatsAgreeButLastDigit(["0.30000000000000004"], "0.30000000000000003\n", ["0.3"])).toBe(false);
  });
  it("needs full precision, the same length and one digit apart", () => {
    expect(lastDigitApart("5.237229365663817", "5.237229365663818")).toBe(true);
    expect(lastDigitApart("5.237229365663817", "5.237229365663819")).toBe(false);
    expect(lastDigitApart("5.2372293656638", "5.2372293656639")).toBe(false);
    expect(lastDigitApart("0.30000000000000004", "0.3")).toBe(false);
    expect(lastDigitApart("-1.234567890123456", "1.234567890123457")).toBe(false);
    expect(lastDigitApart("5.237229365663819", "5.237229365663820")).toBe(true);
  });
  it("is not when the run printed other lines besides", () => {
    expect(floatsAgreeButLastDigit(["5.237229365663817"], "5.237229365663818\nmore\n", ["4.89"])).toBe(false);
  });
});

describe("a question asking for a value (issue 12 class: the claim read from a question)", () => {
  it("'Shouldn't X return Y?' states Y as the expected value, never as what happens", () => {
    expect(proseClaims("Shouldn't `parse('1')` return `1`?")).toEqual({ actual: [], expected: ["1"] });
    expect(proseClaims("So shouldn't this give true? It gives false instead.")).toEqual({
      actual: ["false"],
      expected: ["true"],
    });
    expect(proseClaims("Should it not return `1`?").expected).toEqual(["1"]);
  });
  it("a value inside the question's subject, or a clause of what happens, is not asked for", () => {
    expect(proseClaims("Shouldn't a helper that returns false hide the block?")).toEqual({
      actual: [],
      expected: [],
    });
    expect(proseClaims("Should I file this elsewhere, since `f()` returns `2`?")).toEqual({
      actual: ["2"],
      expected: [],
    });
  });
  it("a modal question whose verb says what happens never makes the happening value the expected one (rv20)", () => {
    expect(proseClaims("Would anyone know why `f()` returns `2`?")).toEqual({ actual: ["2"], expected: [] });
    expect(proseClaims("Should I worry that `f()` returns `null`?")).toEqual({
      actual: ["null"],
      expected: [],
    });
    expect(proseClaims("Should this be fixed so `f()` no longer returns `2`?").expected).toEqual([]);
    expect(proseClaims("Should `f()` really return `NaN`?").expected).toEqual([]);
  });
  it("the wanted value of a modal question with a second clause is never what happens (rv20)", () => {
    expect(proseClaims("Shouldn't `f()` return `1`, not `2`?").actual).toEqual([]);
    expect(proseClaims("Shouldn't `f()` return `1` rather than `2`?").actual).toEqual([]);
  });
  it("'Why does X print Z?' still states Z as what happens", () => {
    expect(proseClaims("Why does `fmt(5)` print `5.0`?")).toEqual({ actual: ["5.0"], expected: [] });
  });
  it("a clock time or an offset is no number: `-04:00` is not the value `-04`", () => {
    expect(proseClaims("Why does it show -04:00?")).toEqual({ actual: [], expected: [] });
    expect(proseClaims("It prints 12:30 now").actual).toEqual([]);
    expect(proseClaims("yet it gives me -4").actual).toEqual(["-4"]);
    expect(proseClaims("it returns 5: odd").actual).toEqual(["5"]);
  });
});
