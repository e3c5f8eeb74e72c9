/**
 * The cheap tests that run before a parser's regular expression (issue 10's speed pass) must let through every line
 * the expression matches: each case sits at the edge of what its expression accepts.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import { idleQuiet } from "../../../src/logs/parsers/unittest.ts";
import { prefixOf } from "../../../src/logs/prefix.ts";
import { xmlStream } from "../../../src/logs/parsers/xml-stream.ts";

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

describe("an XML report's start (JUnit, TRX), asked only about lines that hold a `<`", () => {
  it("passes over a line without `<` without asking, and asks about one with `<` anywhere in it", () => {
    const asked: string[] = [];
    const doc = xmlStream({
      startAt: (text) => {
        asked.push(text);
        return text.indexOf("<r>");
      },
      scan: () => {},
    });
    for (const line of ["  ✓ adds (3 ms)", "r>", "", "a < b"]) expect(doc.line(line, 1)).toBe(false);
    expect(asked).toEqual(["a < b"]);
    expect(doc.line("report follows: <r>", 2)).toBe(true);
    expect(doc.text).toBe("<r>");
    // Inside the document every line is its own, `<` or not.
    expect(doc.line("text of r", 3)).toBe(true);
  });
  it("still reads a TRX root after other text on its line and a JUnit suite opened mid-line", () => {
    const trx = parseLog(
      'log: <TestRun id="1"><Results><UnitTestResult testId="2" testName="K.T.Half" outcome="Failed"><Output><ErrorInfo><Message>boom</Message></ErrorInfo></Output></UnitTestResult></Results></TestRun>\n',
      { format: "trx" },
    );
    expect(trx.failures.map((f) => f.test)).toEqual(["K.T.Half"]);
    const junit = parseLog(
      'out: <testsuite name="s"><testcase classname="a.B" name="c"><failure message="m">x</failure></testcase></testsuite>\n',
      { format: "junit" },
    );
    expect(junit.failures.map((f) => f.test)).toEqual(["a.B.c"]);
  });
});

describe("unittest, idle, passes over lines no branch can take (idleQuiet)", () => {
  it("asks about every line a branch starts from: one per first character, `...` anywhere", () => {
    for (const line of [
      "test_x (m.C) ... ok",
      "test_x (m.C.test_x)",
      "  test_x (m.C.test_x)",
      "======================================================================",
      "`======================================================================`",
      "FAIL: test_x (m.C.test_x)",
      "ERROR: test_x (m.C.test_x)",
      "    FAIL: test_x (m.C.test_x)",
      "  ERROR: test_x (m.C.test_x)",
      "Ran 3 tests in 0.01s",
      "OK",
      "FAILED (failures=1)",
      "----------------------------------------------------------------------",
      "Check the parser ... ok",
      "\tm.C.test_x ... FAIL",
      "test_parent (m.C) ...",
      "  ✓ adds ...",
    ])
      expect(idleQuiet(line), JSON.stringify(line)).toBe(false);
  });
  it("passes over jest's lines, blank lines and others that open with no such character", () => {
    for (const line of [
      "  ✓ adds (3 ms)",
      "",
      "    ",
      "PASS src/a.test.js",
      "\tat x (y.js:1:2)",
      "  ● a › b",
    ])
      expect(idleQuiet(line), JSON.stringify(line)).toBe(true);
  });
  it("reads a -v run and its blocks after a jest run's lines", () => {
    const log = [
      "  ✓ adds (3 ms)",
      "  ● a › b",
      "test_pours (tests.test_kettle.KettleTests.test_pours) ... FAIL",
      "test_boils (tests.test_kettle.KettleTests.test_boils) ... ok",
      "",
      "======================================================================",
      "FAIL: test_pours (tests.test_kettle.KettleTests.test_pours)",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/w/tests/test_kettle.py", line 9, in test_pours',
      "AssertionError: 3 != 5",
      "",
      "----------------------------------------------------------------------",
      "Ran 2 tests in 0.001s",
      "",
      "FAILED (failures=1)",
    ].join("\n");
    const r = parseLog(log, { format: "unittest" });
    expect(r.failures.map((f) => f.test)).toEqual(["tests.test_kettle.KettleTests.test_pours"]);
    expect(r.counts.unittest).toMatchObject({ failed: 1, passed: 1 });
  });
});

describe("tasty's result line, asked only when it holds a `:`", () => {
  it("reads a result whose `:` is the earliest the expression allows (index 3)", () => {
    const r = parseLog("  ✓ adds (3 ms)\n  a: FAIL\n    expected 1\n1 out of 1 tests failed (0.01s)\n", {
      format: "tasty",
    });
    expect(r.failures.map((f) => f.test)).toEqual(["a"]);
  });
});

describe("nunit-console's headings, asked only when the line opens with E, T or R", () => {
  for (const heading of ["Errors and Failures:", "Test Run Summary", "Run Settings"])
    it(`ends an entry's block at ${JSON.stringify(heading)}`, () => {
      const r = parseLog(
        `1) Failed : Kettle.Tests.PourTests.Pours\n  Expected: 5\n${heading}\n    Setting: after\n`,
        { format: "nunit-console" },
      );
      expect(r.failures.map((f) => f.test)).toEqual(["Kettle.Tests.PourTests.Pours"]);
      expect(r.failures[0]!.stack ?? "").not.toContain("Setting: after");
    });
});

describe("hspec's location line, asked only when it opens with a space and holds `hs:`", () => {
  for (const file of ["test/KettleSpec.hs", "test/KettleSpec.lhs"])
    it(`reads ${file}`, () => {
      const r = parseLog(
        `  ${file}:12:5: \n  1) Kettle pours\n       expected: 5\n        but got: 3\n\n1 example, 1 failure\n`,
        { format: "hspec" },
      );
      expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([["Kettle pours", file, 12]]);
    });
});

describe("go test -json: run, pass and skip events read by their shape, the others through JSON.parse", () => {
  const ev = (action: string, pkg: string, test: string, tail = "") =>
    `{"Time":"2024-05-02T10:00:00Z","Action":"${action}","Package":"${pkg}","Test":"${test}"${tail}}`;
  const lines = [
    ev("run", "example.com/m", "TestOk"),
    ev("pass", "example.com/m", "TestOk", ',"Elapsed":0'),
    ev("run", "example.com/m", "TestSkip/case_é ✓"),
    ev("skip", "example.com/m", "TestSkip/case_é ✓", ',"Elapsed":0.01'),
    // Escapes, an exponent and an empty package are left to JSON.parse.
    ev("pass", "example.com/m", 'TestQ\\"uoted', ',"Elapsed":1e-05'),
    ev("pass", "", "TestNoPackage", ',"Elapsed":0'),
    ev("run", "example.com/m", "TestRed"),
    ev("output", "example.com/m", "TestRed", ',"Output":"    x_test.go:9: want 2, got 3\\n"'),
    ev("fail", "example.com/m", "TestRed", ',"Elapsed":0'),
    '{"Time":"2024-05-02T10:00:00Z","Action":"fail","Package":"example.com/m","Elapsed":0.2}',
  ];
  const read = (log: string[]) => parseLog(`${log.join("\n")}\n`, { format: "go-json" });
  it("reads the tests JSON.parse gives", () => {
    const r = read(lines);
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["example.com/m.TestOk", "passed"],
      ["example.com/m.TestSkip/case_é ✓", "skipped"],
      ['example.com/m.TestQ"uoted', "passed"],
      [".TestNoPackage", "passed"],
      ["example.com/m.TestRed", "failed"],
    ]);
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["example.com/m.TestRed", "x_test.go", 9],
    ]);
  });
  it("gives what the same events give through JSON.parse (a space after each, which the shape refuses)", () => {
    expect(read(lines.map((l) => `${l} `))).toEqual(read(lines));
  });
  it("leaves a line that is not JSON unclaimed whatever its head", () => {
    const broken = `${ev("pass", "example.com/m", "TestOk", ',"Elapsed":0')}x`;
    expect(read([broken]).tests).toEqual([]);
  });
});

describe("Ant's task column, asked only when 1 to 8 spaces open the line and a `[` follows them", () => {
  it("reads the column after one space and after eight, the expression's edges", () => {
    expect(prefixOf(" [abcdefgh] compiling")).toEqual({ shape: "ant:abcdefgh", length: 12 });
    expect(prefixOf("        [x] compiling")).toEqual({ shape: "ant:x", length: 12 });
    expect(prefixOf("        [x]")).toEqual({ shape: "ant:x", length: 11 });
  });
  it("reads nothing after nine spaces, or where another character comes before the `[`", () => {
    expect(prefixOf("         [x] compiling")).toBeNull();
    expect(prefixOf("   ✓ [x] case (3 ms)")).toBeNull();
    expect(prefixOf("\t   [exec] running")).toBeNull();
  });
});
