/**
 * Classes from the hold23 set's misses and inventions (issue 10, fixer f10p). Each rule has a case where it must not
 * fire. All text below is written for these tests (no case's names).
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);

describe("mocha: a `failing` count counts only under mocha's `passing` count", () => {
  const printed = [
    "  kettle",
    "  3 failing",
    "  1) yesterday's run (already fixed)",
    "     Error: the boiler is offline",
    "    ✔ boils water",
    "TypeError: printed by the test, not thrown",
    "    ✔ pours",
    "",
    "",
    "  2 passing (4ms)",
    "",
  ];
  it("reports nothing from a green run whose tests print a failure report", () => {
    expect(ids(printed.join("\n"))).toEqual([]);
  });
  it("still reads mocha's own `failing` count under `passing` and `pending`", () => {
    const log = [
      "  kettle",
      "    ✔ boils water",
      "    1) pours",
      "",
      "",
      "  1 passing (4ms)",
      "  1 pending",
      "  1 failing",
      "",
      "  1) kettle",
      "       pours:",
      "     Error: spilled",
      "      at Context.<anonymous> (test/kettle.js:9:11)",
      "",
      "",
    ].join("\n");
    expect(ids(log)).toEqual(["kettle > pours"]);
  });
  it("takes a `passing` count at the margin (a paste's first line) as mocha's", () => {
    const log = [
      "12 passing (3s)",
      "  1 failing",
      "",
      "  1) kettle",
      "       pours:",
      "     Error: spilled",
      "",
    ].join("\n");
    expect(ids(log)).toEqual(["kettle > pours"]);
  });
});

describe("python: a traceback under unittest's rule is unittest's block, not an uncaught exception", () => {
  const tb = [
    "Traceback (most recent call last):",
    '  File "/build/pkg/tests/test_kettle.py", line 12, in test_boil',
    "    self.assertTrue(boiled)",
    "AssertionError: False is not true",
    "",
  ];
  it("reports nothing from a unittest tail cut above the block's header", () => {
    const log = [...tb, "-".repeat(70), "Ran 12 tests in 0.5s", "", "FAILED (failures=1)"].join("\n");
    expect(parseLog(log).failures).toEqual([]);
  });
  it("still reports an uncaught traceback with no rule under it", () => {
    const log = [...tb, "make: *** [check] Error 1"].join("\n");
    expect(parseLog(log).failures.map((f) => [f.test, f.file, f.errorType])).toEqual([
      [null, "/build/pkg/tests/test_kettle.py", "AssertionError"],
    ]);
  });
  it("still reports a traceback followed by a shorter dashed line", () => {
    const log = [...tb, "-".repeat(40)].join("\n");
    expect(parseLog(log).failures).toHaveLength(1);
  });
});

describe("automake: test-suite.log's section head names the test without its extension", () => {
  const section = (head: string, trailer: string) =>
    [
      "# TOTAL: 3",
      "# PASS:  2",
      "# SKIP:  0",
      "# XFAIL: 0",
      "# FAIL:  1",
      "# XPASS: 0",
      "# ERROR: 0",
      "",
      `FAIL: ${head}`,
      "=".repeat(head.length + 6),
      "",
      "boil test passed!",
      "pour test failed!",
      trailer,
    ].join("\n");
  it("reports the test once, by the driver trailer's name", () => {
    expect(ids(section("checks/kettle", "FAIL checks/kettle.sh (exit status: 1)"))).toEqual([
      "checks/kettle.sh",
    ]);
  });
  it("keeps two tests when the trailer's name is another test's", () => {
    expect(ids(section("checks/kettle", "FAIL checks/pot.sh (exit status: 1)")).sort()).toEqual([
      "checks/kettle",
      "checks/pot.sh",
    ]);
  });
});

describe("ExUnit: failure blocks after the last count line belong to a run the log did not count", () => {
  const block = (indent: string) => [
    `${indent}1) test pours tea (KettleTest)`,
    "     test/kettle_test.exs:12",
    "     Assertion with == failed",
    "     code:  pour() == :tea",
    "     left:  :water",
    "     right: :tea",
    "     stacktrace:",
    "       test/kettle_test.exs:13: (test)",
  ];
  const greenRun = [
    "Running ExUnit with seed: 1, max_cases: 4",
    "...",
    "Finished in 0.1 seconds (0.00s async, 0.1s sync)",
    "3 tests, 0 failures",
    "",
  ];
  it("reports a later run's block under an earlier run's green count", () => {
    expect(
      ids([...greenRun, "Running ExUnit with seed: 2, max_cases: 4", "", ...block("  ")].join("\n")),
    ).toEqual(["test pours tea (KettleTest)"]);
  });
  it("reports a block above its own run's count line once", () => {
    const red = ["Finished in 0.1 seconds (0.00s async, 0.1s sync)", "3 tests, 1 failure"];
    expect(ids([...block("  "), "", ...red].join("\n"))).toEqual(["test pours tea (KettleTest)"]);
  });
  it("reads a header indented by one space when ExUnit's lines follow it", () => {
    expect(ids(block(" ").join("\n"))).toEqual(["test pours tea (KettleTest)"]);
  });
  it("does not read a one-space numbered line without ExUnit's lines under it", () => {
    expect(ids([" 1) test pours tea (KettleTest)", "     the kettle is cold"].join("\n"))).toEqual([]);
  });
});

describe("AVA 0.x: numbered entries under its `N tests failed` count", () => {
  const entry = (n: number, title: string, line: number) => [
    `  ${n}. ${title}`,
    "  AssertionError: { kettle: 'cold' } deepEqual { kettle: 'hot' }",
    `      _callee${n}$ (test/kettle.js:${line}:7)`,
    "",
  ];
  it("reports each entry, placed by its frame", () => {
    const log = ["2 tests failed", "", ...entry(1, "kettle:boils", 12), ...entry(2, "kettle:pours", 30)].join(
      "\n",
    );
    expect(parseLog(log).failures.map((f) => [f.format, f.test, f.file, f.line])).toEqual([
      ["ava", "kettle:boils", "test/kettle.js", 12],
      ["ava", "kettle:pours", "test/kettle.js", 30],
    ]);
  });
  it("reads no more entries than the count", () => {
    const log = ["  1 failed", "", ...entry(1, "kettle:boils", 12), ...entry(2, "kettle:pours", 30)].join(
      "\n",
    );
    expect(ids(log)).toEqual(["kettle:boils"]);
  });
  it("does not read a numbered list without an error under each title", () => {
    const log = [
      "2 tests failed",
      "",
      "  1. kettle:boils",
      "  see the notes below",
      "  2. kettle:pours",
    ].join("\n");
    expect(ids(log)).toEqual([]);
  });
  it("does not read a numbered list with no count above it", () => {
    expect(ids(["Steps:", "", ...entry(1, "kettle:boils", 12)].join("\n"))).toEqual([]);
  });
});

describe("cargo: libtest's closing list whose `failures:` heading a tail cut off", () => {
  const tail = (result: string, names = ["kettle::boils", "kettle::pours"]) =>
    [
      "error: builder for '/nix/store/abc-kettle.drv' failed with exit code 101;",
      "       last 25 log lines:",
      ...names.map((n) => `       >     ${n}`),
      "       >",
      `       > ${result}`,
      "       For full logs, run 'nix log /nix/store/abc-kettle.drv'.",
    ].join("\n");
  it("reports the names right above `test result: FAILED`", () => {
    expect(ids(tail("test result: FAILED. 3 passed; 5 failed; 0 ignored"))).toEqual([
      "kettle::boils",
      "kettle::pours",
    ]);
  });
  it("reads no list above a green result", () => {
    expect(ids(tail("test result: ok. 3 passed; 0 failed; 0 ignored"))).toEqual([]);
  });
  it("reads no list longer than the result's failed count", () => {
    expect(ids(tail("test result: FAILED. 3 passed; 1 failed; 0 ignored"))).toEqual([]);
  });
  it("reads no indented lines with text after them before the result", () => {
    const log = [
      "    kettle::boils",
      "    kettle::pours",
      "note: see above",
      "",
      "test result: FAILED. 1 passed; 2 failed",
    ];
    expect(ids(log.join("\n"))).toEqual([]);
  });
});

describe("xcodebuild: the `Failing tests:` list closed by `** TEST FAILED **`", () => {
  const report = [
    "KettleTests.KettleTestCase",
    "testPour, failed - spilled",
    "/Users/ci/kettle/KettleTests/KettleTestCase.swift:21",
    "",
    "\t Executed 12 tests, with 1 failure (0 unexpected) in 0.5 (0.6) seconds",
  ];
  it("reports each listed test, placed by the parallel report", () => {
    const log = [
      ...report,
      "Failing tests:",
      "\tKettleTests:",
      "\t\tKettleTestCase.testPour()",
      "** TEST FAILED **",
    ];
    expect(parseLog(log.join("\n")).failures.map((f) => [f.test, f.line])).toEqual([
      ["KettleTestCase.testPour", 21],
    ]);
  });
  it("reads the old form `-[Module.Class method]`", () => {
    const log = ["Failing tests:", "\t-[KettleTests.KettleTestCase testBoil]", "** TEST FAILED **"];
    expect(ids(log.join("\n"))).toEqual(["KettleTestCase.testBoil"]);
  });
  it("reads no list that `** TEST FAILED **` does not close", () => {
    const log = ["Failing tests:", "\tKettleTestCase.testPour()", "Done."];
    expect(ids(log.join("\n"))).toEqual([]);
  });
  it("reports a test once when its `Test Case` line failed it too", () => {
    const log = [
      "Test Case '-[KettleTests.KettleTestCase testPour]' started.",
      "/k/KettleTests/KettleTestCase.swift:21: error: -[KettleTests.KettleTestCase testPour] : XCTAssertTrue failed - ",
      "Test Case '-[KettleTests.KettleTestCase testPour]' failed (0.002 seconds).",
      "Failing tests:",
      "\tKettleTestCase.testPour()",
      "** TEST FAILED **",
    ];
    expect(ids(log.join("\n"))).toEqual(["KettleTestCase.testPour"]);
  });
});

describe("dotted-status: a test script's `name...OK` / `name...FAIL` lines", () => {
  it("reports the FAIL lines of a run of three or more", () => {
    const log = ["test_boil...OK", "test_pour...FAIL", "test_lid...OK", "done"].join("\n");
    expect(parseLog(log).failures.map((f) => [f.format, f.test])).toEqual([["dotted-status", "test_pour"]]);
  });
  it("reads no run shorter than three lines", () => {
    expect(ids(["test_boil...OK", "test_pour...FAIL"].join("\n"))).toEqual([]);
  });
  it("reads no run where nothing passed", () => {
    expect(ids(["fetch...FAIL", "build...FAIL", "install...FAIL"].join("\n"))).toEqual([]);
  });
  it("reads no lines with spaces around the dots", () => {
    expect(ids(["checking gcc... OK", "checking make... FAIL", "checking ld... OK"].join("\n"))).toEqual([]);
  });
});
