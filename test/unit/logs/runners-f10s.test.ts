/**
 * Runner shapes added on branch f10s (misses of the hold26 corpus, tainted once scored): testthat's older and cut
 * report shapes and a test file R could not parse, old Go's GOMAXPROCS suffix, an annotation that counts no tests.
 * Each log is written here for a small kettle library of our own, in the runners' byte layout; each rule has a case
 * where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("R testthat, older and cut shapes", () => {
  it("testthat 1.x–2.x numbered recap and its OK/FAILED count", () => {
    const log = [
      "testthat results ================================================================",
      "OK: 2 SKIPPED: 0 FAILED: 1",
      "1. Error: kettle pours half (@test-kettle.R#9) ",
      "2. Failure: lid clicks (@test_lid.R#14) ---------------------------------------",
      "lid not equal to TRUE.",
      "Error: testthat unit tests failed",
    ].join("\n");
    expect(found(log)).toEqual([
      ["tests/testthat/test-kettle.R > kettle pours half", "tests/testthat/test-kettle.R", 9],
      ["tests/testthat/test_lid.R > lid clicks", "tests/testthat/test_lid.R", 14],
    ]);
  });

  it("testthat 0.x `N. Failure (at file#line): name`, once per failed expectation, is one test", () => {
    const log = [
      "  1. Failure (at test-spout.r#144): spout drips slowly ",
      "  2. Failure (at test-spout.r#144): spout drips slowly ",
      "  3. Failure (at test-spout.r#150): spout drips slowly ",
      "  Error: testthat unit tests failed",
    ].join("\n");
    expect(found(log)).toEqual([
      ["tests/testthat/test-spout.r > spout drips slowly", "tests/testthat/test-spout.r", 144],
    ]);
  });

  it("a header whose rules a paste lost, read with its quoted place only", () => {
    const log = [
      " Failed tests",
      "",
      " Failure ('test-kettle.R:120:5'): kettle whistles when hot",
      "",
      " Expected 0 successes and 1 failure.",
      "[ FAIL 1 | WARN 0 | SKIP 5 | PASS 312 ]",
    ].join("\n");
    expect(found(log)).toEqual([
      ["tests/testthat/test-kettle.R > kettle whistles when hot", "tests/testthat/test-kettle.R", 120],
    ]);
    // Unquoted, or an old recap with no `(@file#line)`, is prose.
    expect(
      found(["Failure (test-kettle.R:120:5): kettle whistles", "1. Failure: kettle whistles"].join("\n")),
    ).toEqual([]);
  });

  it("an old count that says FAILED: 0 keeps no test failure", () => {
    const log = ["1. Failure: printed by a test (@test-fake.R#1)", "OK: 12 SKIPPED: 0 FAILED: 0"].join("\n");
    expect(found(log)).toEqual([]);
  });

  it("a test file R could not parse is the file's failure, whatever the count", () => {
    const log = [
      "Running the tests in ‘tests/testthat.R’ failed.",
      "Last 13 lines of output:",
      "  Error in parse(text = lines, n = -1, srcfile = srcfile) : ",
      "    testthat/test_kettle.R:3:70: unexpected '{'",
      "  2: ",
      '  3: test_that("kettle pours" {',
      "  testthat results ================================================================",
      "  OK: 87 SKIPPED: 0 FAILED: 0",
      "  Execution halted",
    ].join("\n");
    const parsed = parseLog(log);
    expect(parsed.failures.map((f) => [f.test, f.file, f.line, f.category, f.message])).toEqual([
      [null, "tests/testthat/test_kettle.R", 3, "build", "unexpected '{'"],
    ]);
    // A `file:line:col:` line not right under R's `Error in parse(` is no parse error of a test file.
    expect(
      found(["  Error in eval(expr) : ", "    testthat/test_kettle.R:3:70: unexpected '{'"].join("\n")),
    ).toEqual([]);
  });
});

describe("go test, GOMAXPROCS suffix", () => {
  it("old Go's `--- FAIL: TestX-4` is TestX; a subtest's own `-4` stays", () => {
    const log = [
      "--- FAIL: TestPour-4 (0.00s)",
      "\tkettle_test.go:89: spilled",
      "--- FAIL: TestLid (0.00s)",
      "    --- FAIL: TestLid/size-4 (0.00s)",
      "    \tkettle_test.go:12: loose",
      "FAIL",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["TestPour", "TestLid/size-4"]);
  });
});

describe("GitHub Actions annotations", () => {
  it("`No tests found` counts zero tests, not a failure; other annotations stay", () => {
    expect(found("##[error]Error: No tests found for kettle\nExecution halted\n")).toEqual([]);
    expect(found("##[error]Error: kettle.R could not be sourced\n")).toEqual([[null, null, null]]);
  });
});

describe("CTest's failed list", () => {
  it("a blank line between `The following tests FAILED:` and its first entry (Travis' view)", () => {
    const log = ["The following tests FAILED:", "", "\t 25 - kettle::pour_group (Failed)", "", "Done."].join(
      "\n",
    );
    expect(found(log)).toEqual([["kettle::pour_group", null, null]]);
    // An entry-shaped line after a blank line that follows some other line is no entry.
    expect(found(["Kettle notes:", "", "\t 25 - kettle::pour_group (Failed)"].join("\n"))).toEqual([]);
  });
});

describe("Catch2, a block cut below its opening rule", () => {
  const rule = "-".repeat(79);
  const dots = ".".repeat(79);
  it("the line above a rule that the place follows is the name; a markdown link in the place's digits", () => {
    const log = [
      "kettle pours half",
      rule,
      "D:\\a\\kettle\\kettle\\tests\\kettle_test.cpp([64](https://github.com/acme/kettle/actions/runs/1/job/2#step:19:65)4)",
      dots,
      "",
      "D:\\a\\kettle\\kettle\\tests\\kettle_test.cpp(624): FAILED:",
      "  REQUIRE( pour(1000) == 500 )",
      "with expansion:",
      "  499 == 500",
      "",
    ].join("\n");
    expect(found(log)).toEqual([["kettle pours half", "tests/kettle_test.cpp", 624]]);
  });

  it("a whole block keeps its own name, not the line above its opening rule", () => {
    const log = [
      "Randomness seeded to: 42",
      rule,
      "kettle pours half",
      rule,
      "tests/kettle_test.cpp:60",
      dots,
      "",
      "tests/kettle_test.cpp:64: FAILED:",
      "  REQUIRE( pour(1000) == 500 )",
      "",
      "=".repeat(79),
      "test cases: 1 | 1 failed",
    ].join("\n");
    expect(found(log)).toEqual([["kettle pours half", "tests/kettle_test.cpp", 64]]);
  });
});

describe("old hspec, an entry at the margin", () => {
  it("`1) spec path` with HUnit's expected/but got under it; no place", () => {
    const log = [
      "1) kettle pours half a cup",
      "expected: 500",
      " but got: 499",
      "",
      "Randomized with seed 1361376607",
    ].join("\n");
    expect(found(log)).toEqual([["kettle pours half a cup", null, null]]);
    // A numbered line with no HUnit reason under it is prose.
    expect(found(["1) kettle pours half a cup", "expected: 500", "then it stopped"].join("\n"))).toEqual([]);
    expect(found(["1) fill the kettle", "2) boil it"].join("\n"))).toEqual([]);
  });
});

describe("Python doctest", () => {
  const stars = "*".repeat(70);
  it("a failing example's File line names the docstring test; two examples of one docstring are one test", () => {
    const log = [
      "Trying:",
      "    pour(1000)",
      "Expecting:",
      "    500",
      stars,
      'File "/home/me/build/kettle-1.0/test/test_pour.py", line 207, in __main__.test',
      "Failed example:",
      "    pour(1000)",
      "Expected:",
      "    500",
      "Got:",
      "    499",
      stars,
      'File "/home/me/build/kettle-1.0/test/test_pour.py", line 212, in __main__.test',
      "Failed example:",
      "    lid()",
      "Exception raised:",
      "    Traceback (most recent call last):",
      "    ValueError: no lid",
      stars,
      'File "kettle/spout.py", line 9, in kettle.spout.drip',
      "Failed example:",
      "    drip()",
      "Expected:",
      "    1",
      "Got nothing",
      stars,
      "2 items had failures:",
      "   2 of  14 in __main__.test",
      "***Test Failed*** 3 failures.",
    ].join("\n");
    expect(found(log)).toEqual([
      ["__main__.test", "test/test_pour.py", 207],
      ["kettle.spout.drip", "kettle/spout.py", 9],
    ]);
  });

  it("a File line with no `Failed example:` under it is no doctest failure", () => {
    const log = [stars, 'File "kettle/spout.py", line 9, in kettle.spout.drip', "Something else"].join("\n");
    expect(parseLog(log).failures.filter((f) => f.format === "doctest")).toEqual([]);
  });
});

describe("prove without TAP lines", () => {
  const report = [
    "t/00-load.t ...... ok",
    "t/lid.t .......... ok",
    "t/pour.t ......... 1/2",
    "#   Failed test 'pours half'",
    "#   at t/pour.t line 9.",
    "# Looks like you failed 1 test of 2.",
    "t/pour.t ......... Dubious, test returned 1 (wstat 256, 0x100)",
    "Failed 1/2 subtests",
    "",
    "Test Summary Report",
    "-------------------",
    "t/lid.t (Wstat: 0 Tests: 3 Failed: 0)",
    "  TODO passed:   1, 3",
    "t/pour.t       (Wstat: 256 Tests: 2 Failed: 1)",
    "  Failed test:  2",
    "  Non-zero exit status: 1",
    "Files=3, Tests=9,  1 wallclock secs",
    "Result: FAIL",
  ];
  it("a TODO-passed entry that exited 0 is no failure; the file's failure placed at its first diagnostic", () => {
    expect(found(report.join("\n"))).toEqual([[null, "t/pour.t", 9]]);
  });

  it("a log cut before the report: the harness's Dubious lines", () => {
    const cut = [
      "t/pour.t .. 1/6",
      "#   Failed test at t/pour.t line 17.",
      "#          got: '1'",
      "#     expected: '10'",
      "t/pour.t .. Dubious, test returned 4 (wstat 1024, 0x400)",
      "Failed 4/6 subtests",
      "t/spout.t .. Dubious, test returned 255 (wstat 65280, 0xff00)",
      "t/zlid.t ..",
    ].join("\n");
    expect(found(cut)).toEqual([
      [null, "t/pour.t", 17],
      [null, "t/spout.t", null],
    ]);
    // With TAP lines in the log the tap format names the failures; a `Dubious` in prose is nothing.
    expect(found("The result was Dubious, test returned 4 (wstat 1024, 0x400)")).toEqual([]);
  });
});

describe("TeamCity service messages", () => {
  it("testFailed names the test by its name attribute, unescaped; started+finished passed; ignored skipped", () => {
    const log = [
      "##teamcity[testSuiteStarted name='KettleSpec' flowId='1']",
      "##teamcity[testStarted name='pours half' flowId='1']",
      "##teamcity[testFailed name='pours half' message='expected:<500> but was:<499>' details='at KettleSpec.kt:12|nat x' flowId='1']",
      "##teamcity[testFinished name='pours half' flowId='1']",
      "##teamcity[testStarted name='lid |'clicks|' |[1|]' flowId='1']",
      "##teamcity[testFinished name='lid |'clicks|' |[1|]' flowId='1']",
      "##teamcity[testIgnored name='whistles' message='no speaker']",
    ].join("\n");
    const parsed = parseLog(log);
    expect(parsed.failures.map((f) => [f.test, f.message])).toEqual([
      ["pours half", "expected:<500> but was:<499>"],
    ]);
    expect(parsed.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["pours half", "failed"],
      ["lid 'clicks' [1]", "passed"],
      ["whistles", "skipped"],
    ]);
  });

  it("a testFailed message quoted in prose, or with no name, is nothing", () => {
    expect(found("see ##teamcity[testFailed name='pours half'] in the docs")).toEqual([]);
    expect(found("##teamcity[testFailed message='no name']")).toEqual([]);
  });
});

describe("VS Code C# extension's test summary", () => {
  it("entries under `Test Execution Summary` by full name; the count closes it", () => {
    const log = [
      '----- Running test method "Kettle.Tests.PourTests.PoursHalf" -----',
      "Build succeeded.",
      "----- Test Execution Summary -----",
      "",
      "Kettle.Tests.PourTests.PoursHalf: Failed",
      "    Outcome: Failed",
      "    Error Message: Assert.AreEqual failed. Expected:<500>. Actual:<499>.",
      "    ",
      "Kettle.Tests.PourTests.Boils: Passed",
      "    Outcome: Passed",
      "Total tests: 2. Passed: 1. Failed: 1. Skipped: 0",
    ].join("\n");
    const parsed = parseLog(log);
    expect(parsed.failures.map((f) => [f.test, f.message])).toEqual([
      ["Kettle.Tests.PourTests.PoursHalf", "Assert.AreEqual failed. Expected:<500>. Actual:<499>."],
    ]);
    expect(parsed.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["Kettle.Tests.PourTests.PoursHalf", "failed"],
      ["Kettle.Tests.PourTests.Boils", "passed"],
    ]);
  });

  it("a `Name: Failed` line with no summary heading above it is nothing", () => {
    expect(found(["Kettle.Tests.PourTests.PoursHalf: Failed", "    Outcome: Failed"].join("\n"))).toEqual([]);
  });
});

describe("a test file that did not compile, by the documented file form", () => {
  it("flutter's `loading /abs/path/test/x_test.dart [E]`: the file from its test/ directory, no test id", () => {
    const log = [
      "00:05 +0 -1: loading /Users/me/dev/kettle/app/test/pour_test.dart [E]",
      '  Failed to load "/Users/me/dev/kettle/app/test/pour_test.dart":',
      "  Compilation failed",
      "00:05 +0 -1: Some tests failed.",
    ].join("\n");
    expect(found(log)).toEqual([[null, "test/pour_test.dart", null]]);
  });

  it("a Swift compile error on a machine path: from the package's topmost Sources/ or Tests/; SwiftPM's exit status", () => {
    const log = [
      "Compile Swift Module 'KettleTests' (6 sources)",
      "/home/me/src/kettle/Tests/KettleTests/Fixtures/Runner.swift:22:21: error: use of unresolved identifier 'XCTContext'",
      "error: terminated(1): /home/me/.swiftenv/versions/4.1/usr/bin/swift-build-tool -f /home/me/src/kettle/.build/debug.yaml test output:",
    ].join("\n");
    expect(found(log)).toEqual([[null, "Tests/KettleTests/Fixtures/Runner.swift", 22]]);
    // Not a Swift file, or no Sources/Tests directory: kept as printed.
    expect(found("/home/me/src/kettle/Tests/x.c:3:1: error: boom")).toEqual([
      [null, "/home/me/src/kettle/Tests/x.c", 3],
    ]);
    expect(found("/home/me/src/kettle/Pour.swift:3:1: error: boom")).toEqual([
      [null, "/home/me/src/kettle/Pour.swift", 3],
    ]);
  });

  it("jest: a log that ends in a FAIL file's `●` header cut mid-line is the file's failure", () => {
    const log = [" FAIL  src/__tests__/pour.js", "  ● Tes"].join("\n");
    expect(found(log)).toEqual([[null, "src/__tests__/pour.js", null]]);
    // A header with its block below it keeps its test id.
    const whole = [
      " FAIL  src/__tests__/pour.js",
      "  ● pours half",
      "",
      "    expect(received).toBe(expected)",
      "",
    ].join("\n");
    expect(found(whole).map((f) => f[0])).toEqual(["src/__tests__/pour.js > pours half"]);
  });

  it("exercism's results.json: the Go runner's `build` pseudo-test is the file's build failure; failed tests by name", () => {
    const build = [
      "{",
      '\t"status": "error",',
      '\t"tests": [',
      "\t\t{",
      '\t\t\t"name": "build",',
      '\t\t\t"status": "error",',
      '\t\t\t"message": "./kettle_test.go:37:1: missing return at end of function"',
      "\t\t}",
      "\t]",
      "}",
    ].join("\n");
    expect(found(build)).toEqual([[null, "kettle_test.go", 37]]);
    const failed = [
      "{",
      '  "version": 2,',
      '  "status": "fail",',
      '  "tests": [',
      "    {",
      '      "name": "TestPour/half",',
      '      "status": "fail",',
      '      "message": "got 499, want 500"',
      "    },",
      "    {",
      '      "name": "TestLid",',
      '      "status": "pass"',
      "    }",
      "  ]",
      "}",
    ].join("\n");
    expect(parseLog(failed).failures.map((f) => [f.test, f.message])).toEqual([
      ["TestPour/half", "got 499, want 500"],
    ]);
    // A JSON object whose first field is not a runner status is not read.
    expect(
      found(
        [
          "{",
          '  "state": "fail",',
          '  "tests": [',
          "    {",
          '      "name": "x",',
          '      "status": "fail"',
          "    }",
          "  ]",
          "}",
        ].join("\n"),
      ),
    ).toEqual([]);
  });
});
