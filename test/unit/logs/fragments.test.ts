/**
 * Reports and runner output that reach the log in part: JUnit `<testcase>` elements with no `<testsuite>` around
 * them (pasted, or cut mid-file), and reporters whose lines each runner worker prefixes. Each rule has a case where
 * it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("JUnit XML fragments", () => {
  it("testcases with no testsuite: each failure or error is a failing test, passing ones pass", () => {
    const log = [
      "Here is the report:",
      '  <testcase classname="com.acme.CartTest" name="addsTax" time="0.1">',
      '    <failure message="expected 13 but was 12" type="java.lang.AssertionError">java.lang.AssertionError: expected 13 but was 12',
      "\tat com.acme.CartTest.addsTax(CartTest.java:21)",
      "</failure>",
      "  </testcase>",
      '  <testcase classname="com.acme.CartTest" name="empty" time="0.1"/>',
      '  <testcase classname="com.acme.CartTest" name="removes" time="0.1">',
      '    <error type="java.lang.NullPointerException"/>',
      "  </testcase>",
      "Any idea why?",
    ].join("\n");
    const parsed = parseLog(log);
    expect(found(log)).toEqual([
      ["com.acme.CartTest.addsTax", "src/test/java/com/acme/CartTest.java", 21],
      ["com.acme.CartTest.removes", null, null],
    ]);
    expect(parsed.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["com.acme.CartTest.addsTax", "failed"],
      ["com.acme.CartTest.empty", "passed"],
      ["com.acme.CartTest.removes", "error"],
    ]);
  });

  it("a fragment ends at the first line that is not XML: later text is not the report's", () => {
    const log = [
      '<testcase classname="a.B" name="ok"/>',
      "FAILED: something else printed this",
      "<failure>not inside any testcase</failure>",
    ].join("\n");
    expect(parseLog(log).tests.map((t) => t.id)).toEqual(["a.B.ok"]);
    expect(found(log).filter((f) => f[0] !== null)).toEqual([]);
  });

  it("a testcase cut inside its failure's message attribute failed, with the message written so far", () => {
    const log = [
      '    <testcase classname="Calc.Tests.AddTests" name="Adds(1,2)" time="0.7">',
      '      <failure type="failure" message="Expected: 3&#xD;&#xA;  But was: 4&#xD;&#xA; and then the pas',
    ].join("\n");
    const f = parseLog(log).failures;
    expect(f.map((x) => x.test)).toEqual(["Calc.Tests.AddTests.Adds(1,2)"]);
    expect(f[0]!.message).toContain("But was: 4");
  });

  it("a passing testcase cut before its end is no failure, and a testcase mentioned mid-line starts nothing", () => {
    const cut = ['<testcase classname="a.B" name="ok" time="1">', "  <system-out>hello"].join("\n");
    expect(found(cut)).toEqual([]);
    const prose = 'we expected <testcase name="x"><failure/></testcase> in the file';
    expect(parseLog(prose).tests).toEqual([]);
    expect(found(prose)).toEqual([]);
  });
});
