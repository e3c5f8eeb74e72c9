/**
 * The cheap tests that run before a parser's regular expression (issue 10's speed pass) must let through every line
 * the expression matches: each case sits at the edge of what its expression accepts.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

describe("nunit-console's count line, behind a test for its fixed head", () => {
  const count = (indent: string) =>
    parseLog(
      `Test Run Summary\n${indent}Test Count: 7, Passed: 4, Failed: 2, Warnings: 0, Inconclusive: 0, Skipped: 1\n`,
      { format: "nunit-console" },
    ).counts["nunit-console"];
  it("reads it indented by zero to four spaces, as the expression does", () => {
    for (const indent of ["", " ", "  ", "   ", "    "])
      expect(count(indent), JSON.stringify(indent)).toMatchObject({ passed: 4, skipped: 1 });
  });
  it("does not read it indented by five spaces or a tab (the expression does not either)", () => {
    for (const indent of ["     ", "\t"]) expect(count(indent)?.passed ?? 0, JSON.stringify(indent)).toBe(0);
  });
  it("reads a numbered entry, which opens with a digit", () => {
    const r = parseLog(
      "Errors, Failures and Warnings\n\n12) Failed : Kettle.Tests.PourTests.Pours\n  Expected: 5\n  But was:  3\n",
      { format: "nunit-console" },
    );
    expect(r.failures.map((f) => f.test)).toEqual(["Kettle.Tests.PourTests.Pours"]);
  });
});

describe("unittest's indented FAIL/ERROR header, behind a test for its first letter", () => {
  for (const head of ["FAIL", "ERROR"])
    for (const indent of [" ", "    "])
      it(`reads ${JSON.stringify(`${indent}${head}: …`)}`, () => {
        const log = [
          `${indent}======================================================================`,
          `${indent}${head}: test_pours (tests.test_kettle.KettleTests.test_pours)`,
          `${indent}----------------------------------------------------------------------`,
          `${indent}Traceback (most recent call last):`,
          `${indent}  File "/w/tests/test_kettle.py", line 9, in test_pours`,
          `${indent}    self.assertEqual(pour(), 5)`,
          `${indent}AssertionError: 3 != 5`,
          "",
          `${indent}----------------------------------------------------------------------`,
          `${indent}Ran 1 test in 0.001s`,
          "",
          `${indent}FAILED (${head === "FAIL" ? "failures" : "errors"}=1)`,
        ].join("\n");
        expect(parseLog(log).failures.map((f) => f.test)).toContain(
          "tests.test_kettle.KettleTests.test_pours",
        );
      });
});
