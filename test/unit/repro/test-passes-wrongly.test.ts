/**
 * Reports about tests themselves (issue 12; hold11's false REPRODUCED, jasmine-1735): a report that a test PASSES
 * where it ought to fail states the opposite claim from one whose assertion fails, and a report about a test
 * runner or assertion library is about that library's own matchers, which Retrace's stand-in `expect` must not
 * replace. Every report here is written for these tests; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations, testPassesWrongly } from "../../../src/repro/reported-behaviour.ts";
import { isTestLibrary } from "../../../src/repro/test-globals.ts";

const f = "```";
const read = (md: string) => reportedExpectations(parseReport(md));
const program = (md: string, pkg?: string) => {
  const report = parseReport(md);
  const p = completeProgram(report, reportedExpectations(report).invocation, pkg);
  return p?.files[p.entry] ?? "";
};

const specReport = (title: string, current: string) =>
  [
    `# ${title}`,
    "",
    "## Expected Behavior",
    "",
    `${f}js`,
    "it('keeps names', () => {",
    "  const want = [{ name: 'a title' }];",
    "  const got = [{ name: {} }];",
    "  expect(got).toEqual(want);",
    "});",
    f,
    "",
    "This test ought to fail.",
    "",
    "## Current Behavior",
    "",
    current,
    "",
  ].join("\n");

describe("a test said to pass where it ought to fail", () => {
  it("makes a completed run the claim, not the assertion's failure", () => {
    const exp = read(
      [
        "# deepEqual lets an assertion pass that ought to fail",
        "",
        `${f}js`,
        "const assert = require('assert');",
        "assert.deepEqual([{ name: {} }], [{ name: 'a title' }]);",
        f,
        "",
        "This assertion should fail. It passes.",
        "",
      ].join("\n"),
    );
    expect(exp.actual.kind).toBe("exit");
    expect(exp.actual.exitCode).toBe(0);
    expect(exp.actual.source).toMatch(/should fail/);
  });

  it("makes no claim inside a runner's wrapper, where completing does not show the assertion ran", () => {
    const exp = read(specReport("toEqual() lets a test pass that ought to fail", "The test passes."));
    expect(exp.actual.kind).not.toBe("exit");
    expect(exp.actual.exceptionType).not.toBe("AssertionError");
  });

  it("reads the usual ways of saying it", () => {
    expect(testPassesWrongly("This spec should fail, but it is green")).toBe("spec should fail");
    expect(testPassesWrongly("the assertion passes although the arrays differ")).toBe("the assertion passes");
    expect(testPassesWrongly("my test doesn't fail when the values differ")).toBe("my test doesn't fail");
    expect(testPassesWrongly("toEqual lets a test pass")).toBe("lets a test pass");
  });

  it("does not fire on a sentence about the code under test", () => {
    expect(testPassesWrongly("parse should fail on an empty string, but returns {}")).toBeNull();
    expect(testPassesWrongly("The build fails and the install passes")).toBeNull();
    const exp = read(
      [
        "# parse accepts an empty string",
        "",
        `${f}js`,
        "const assert = require('assert');",
        "const { parse } = require('tiny-parse');",
        "assert.throws(() => parse(''));",
        f,
        "",
        "parse should fail on an empty string.",
        "",
      ].join("\n"),
    );
    expect(exp.actual.kind).toBe("exception");
    expect(exp.actual.exceptionType).toBe("AssertionError");
  });
});

describe("a report about a test runner or assertion library", () => {
  it("knows the libraries whose matchers the stand-in would replace", () => {
    for (const name of [
      "jasmine-core",
      "jasmine",
      "jest",
      "expect",
      "@jest/expect",
      "chai",
      "vitest",
      "should",
    ])
      expect(isTestLibrary(name), name).toBe(true);
    for (const name of ["lodash", "assertion-free", "expectations-lib", "chalk", "shoulder", "tape-measure"])
      expect(isTestLibrary(name), name).toBe(false);
  });

  it("gets no stand-in expect: the library's own code is what the report is about", () => {
    const md = specReport("toEqual() lets a test pass that ought to fail", "The test passes.");
    expect(program(md, "jasmine-core")).not.toMatch(/class AssertionError/);
  });

  it("still gets the stand-in when the report is about another package", () => {
    const md = [
      "# slug drops digits",
      "",
      `${f}js`,
      "test('keeps digits', () => {",
      "  expect(slug('a1')).toBe('a1');",
      "});",
      f,
      "",
    ].join("\n");
    expect(program(md, "slugger")).toMatch(/class AssertionError/);
  });
});
