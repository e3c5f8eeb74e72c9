/**
 * Reports written as test code (issue 12): Jest's `expect(…).toBe(…)` pasted without an import, the snippet's
 * own expectation being the reported bug; and actual/expected sentences whose subject is a quoted call.
 * Reports written for these tests.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { testGlobalsNeeded, testGlobalsPrelude } from "../../../src/repro/test-globals.ts";
import { findVersionMentions } from "../../../src/repro/versions.ts";

const f = "```";

/** Runs the prelude and `code` in a fresh context: the error it throws (name and message), or null. */
function runShim(
  code: string,
  names = ["expect", "test", "it", "describe"],
): { name: string; message: string } | null {
  try {
    runInNewContext(`${testGlobalsPrelude(names)}\n${code}`, { setImmediate });
    return null;
  } catch (error) {
    const e = error as Error;
    return { name: e.name, message: e.message };
  }
}

describe("Jest's expect in a pasted snippet", () => {
  it("is needed only when `expect(…).toX(…)` is called unbound and no runner or assertion library is imported", () => {
    const none = new Set<string>();
    expect(testGlobalsNeeded("expect(sum(1, 2)).toBe(3);", none, [])).toEqual(["expect"]);
    expect(testGlobalsNeeded("test('a', () => {\n  expect(f()).not.toEqual([1]);\n});", none, [])).toEqual([
      "expect",
      "test",
    ]);
    expect(testGlobalsNeeded("expect(x).toBe(1);", none, ["vitest"])).toEqual([]);
    expect(testGlobalsNeeded("expect(x).to.equal(1);", none, ["chai"])).toEqual([]);
    // chai's chain without an import is not Jest's expect.
    expect(testGlobalsNeeded("expect(x).to.equal(1);", none, [])).toEqual([]);
    expect(testGlobalsNeeded("expect(x).toBe(1);", new Set(["expect"]), [])).toEqual([]);
    // Hooks need a runner's ordering: left to fail on the missing name.
    expect(testGlobalsNeeded("beforeEach(() => {});\ntest('a', () => expect(1).toBe(1));", none, [])).toEqual(
      [],
    );
  });

  it("fails like Jest, with an AssertionError, and holds where Jest holds", () => {
    expect(runShim("expect(1 + 1).toBe(3);")).toMatchObject({ name: "AssertionError", message: /toBe/ });
    expect(runShim("expect({ a: [1, { b: 2 }] }).toEqual({ a: [1, { b: 3 }] });")?.name).toBe(
      "AssertionError",
    );
    expect(
      runShim("class A { constructor() { this.a = 1; } }\nexpect(new A()).toStrictEqual({ a: 1 });")?.name,
    ).toBe("AssertionError");
    expect(runShim("expect(() => 1).toThrow();")?.name).toBe("AssertionError");
    expect(runShim("expect([1, 2]).not.toContain(2);")?.name).toBe("AssertionError");
    // toEqual ignores undefined properties, compares Dates by time and Sets in any order (as Jest does).
    expect(
      runShim(
        "expect({ a: 1, b: undefined, d: new Date(0), s: new Set([1, { x: 1 }]) }).toEqual({ a: 1, d: new Date(0), s: new Set([{ x: 1 }, 1]) });",
      ),
    ).toBeNull();
    expect(
      runShim(
        "expect(() => { throw new TypeError('bad input'); }).toThrow('bad');\nexpect(() => { throw new TypeError('x'); }).toThrow(TypeError);\nexpect(0.1 + 0.2).toBeCloseTo(0.3);\nexpect('abc').toMatch(/b/);\nexpect([1]).toHaveLength(1);\nexpect(NaN).toBe(NaN);",
      ),
    ).toBeNull();
    // A matcher it does not define is a TypeError, never an assertion failure.
    expect(runShim("expect(1).toMatchSnapshot();")?.name).toBe("TypeError");
  });

  it("runs `test`/`it` callbacks inside `describe`, so a failing expectation in them throws", () => {
    expect(
      runShim("describe('x', () => {\n  it('y', () => {\n    expect('a').toBe('b');\n  });\n});")?.name,
    ).toBe("AssertionError");
    expect(
      runShim("test.skip('x', () => { expect(1).toBe(2); });\ntest('y', () => { expect(2).toBe(2); });"),
    ).toBeNull();
  });

  it("makes the snippet's expectation the claim, and the program defines the globals", () => {
    const md = `# sum is off by one\n\n${f}js\nconst { sum } = require('adder');\n\ntest('adds', () => {\n  expect(sum(1, 2)).toBe(3);\n});\n${f}\n`;
    const report = parseReport(md);
    const exp = reportedExpectations(report);
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "AssertionError" });
    expect(exp.actual.source).toMatch(/expect\(sum\(1, 2\)\)\.toBe\(3\)/);
    const program = completeProgram(report)!;
    const code = program.files[program.entry]!;
    expect(code).toMatch(/^class AssertionError extends Error/);
    expect(code).toContain("const test = Object.assign(");
    // The test runner's names are not taken for the package's exports.
    expect(code).not.toMatch(/const \{[^}]*\b(?:expect|test)\b[^}]*\} = require\("adder"\)/);
    expect(program.completions.join("\n")).toMatch(/test runner's globals/);
  });

  it("does not let the expectation override what the report itself says happens", () => {
    const md = `# t\n\n${f}js\nconst { sum } = require('adder');\nexpect(sum(1, 2)).toBe(3);\n${f}\n\nIt throws:\n\n${f}\nTypeError: sum is not a function\n${f}\n`;
    const exp = reportedExpectations(parseReport(md));
    expect(exp.actual).toMatchObject({ kind: "exception", exceptionType: "TypeError" });
  });
});

describe("actual and expected sentences with a quoted subject", () => {
  it("takes the value next to 'instead of', not the call quoted as the subject", () => {
    expect(proseClaims("`lib.ok(1)` returns `false` instead of `true`.")).toEqual({
      actual: ["false"],
      expected: ["true"],
    });
    expect(proseClaims("Calling `isEmail('a@b')` gives `true` rather than `false`.")).toEqual({
      actual: ["true"],
      expected: ["false"],
    });
  });

  it("reads 'the output is X', 'but received X' and 'the desired/correct value is Y'", () => {
    expect(proseClaims("The output is `x`, it should be `y`.")).toEqual({ actual: ["x"], expected: ["y"] });
    expect(proseClaims("Expected `1` but received `2`.")).toEqual({ actual: ["2"], expected: ["1"] });
    expect(proseClaims("The correct return value is `3`, the output is `4`.")).toEqual({
      actual: ["4"],
      expected: ["3"],
    });
    expect(proseClaims("The desired output is `y`.")).toEqual({ actual: [], expected: ["y"] });
    expect(proseClaims("The expected output is `y`.")).toEqual({ actual: [], expected: ["y"] });
  });

  it("reads 'the returned value / result of `call` is X'; a value of a name is no output", () => {
    expect(proseClaims("The returned value of `_.pick(o, 'a')` is `{}`.")).toEqual({
      actual: ["{}"],
      expected: [],
    });
    expect(proseClaims("The expected result of `f(1)` is `2`, but the result of `f(1)` is `3`.")).toEqual({
      actual: ["3"],
      expected: ["2"],
    });
    expect(proseClaims("The value of `n` is `5` before the call.")).toEqual({ actual: [], expected: [] });
  });

  it("runs a call quoted in a sentence whose result the sentence states", () => {
    const md = "# t\n\nIn lodash 4.0.0 the returned value of `_.isEmpty({ a: 1 })` is `true`.\n";
    const report = parseReport(md);
    expect(reportedExpectations(report).actual).toMatchObject({ kind: "output", output: ["true"] });
    const program = completeProgram(report)!;
    expect(program.files[program.entry]).toContain("_echo(_.isEmpty({ a: 1 }));");
  });
});

describe("a package's version at a sentence's end", () => {
  it("reads 'a bug in lodash 4.0.0.'; a decimal before a full stop is no release", () => {
    expect(findVersionMentions("I think it has a bug in lodash 4.0.0.")).toEqual([
      { name: "lodash", version: "4.0.0", style: "word" },
    ]);
    expect(findVersionMentions("Fails with mathjs 6.2.5-beta.1.")[0]?.version).toBe("6.2.5-beta.1");
    expect(findVersionMentions("yet the library gives me 3.9473684210526314.")).toEqual([]);
  });
});

describe("Node's assert inside a runner's wrapper", () => {
  it("defines the wrappers the snippet calls, and runs the assertion", () => {
    const scan = `test("joins", () => {\n  assert.equal(join("/a", "b"), "/a/b");\n});`;
    expect(testGlobalsNeeded(scan, new Set(), [])).toEqual(["test"]);
    expect(
      testGlobalsNeeded(`describe("x", () => { it("y", () => { assert(ok) }) })`, new Set(), []),
    ).toEqual(["it", "describe"]);
  });

  it("not without an assertion, nor where the snippet binds expect or imports its runner", () => {
    expect(testGlobalsNeeded(`test("x", () => { join("/a") });`, new Set(), [])).toEqual([]);
    expect(testGlobalsNeeded(`test("x", () => { assert.ok(1) });`, new Set(["expect"]), [])).toEqual([]);
    expect(testGlobalsNeeded(`test("x", () => { assert.ok(1) });`, new Set(), ["node:test"])).toEqual([]);
    // `myassert.equal(…)` is not Node's assert.
    expect(testGlobalsNeeded(`test("x", () => { myassert.equal(1, 2) });`, new Set(), [])).toEqual([]);
  });
});
