/**
 * Runner outputs and framings added on branch pl10g (issue 10, classes seen in real pasted CI logs): lines in inline
 * code, Surefire's default package / lower-case classes / report file, pytest setup errors with absolute paths and
 * pytest-subtests' `SUBFAIL`, a cargo run cut before its result, a VSTest entry pasted alone, a go panic after the
 * binary's PASS, Gradle's wrapped `FAILED`, mocha double-spaced, PHPUnit lists without heading, Playwright's bare
 * and old-recap headers, jest below npm's package directory and cut after a header, web-view line numbers, BuildKit
 * and turborepo + concurrently columns. The logs are written here for a small kettle library of our own, in the
 * runners' byte layout; each rule has a case that must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import { stripInlineCode } from "../../../src/logs/normalize.ts";
import { prefixOf } from "../../../src/logs/prefix.ts";

const parsed = (lines: string[]) => parseLog(lines.join("\n"));
const found = (lines: string[]) => parsed(lines).failures.map((f) => [f.test, f.file, f.line]);
const ids = (lines: string[]) => parsed(lines).failures.map((f) => f.test);

describe("inline code around a pasted line", () => {
  it("drops markdown's backticks, not the log's", () => {
    expect(stripInlineCode("`[ERROR] x <<< FAILURE!`  ")).toBe("[ERROR] x <<< FAILURE!");
    expect(stripInlineCode("`1) Kettle\\PourTest::testHalf")).toBe("1) Kettle\\PourTest::testHalf");
    expect(stripInlineCode("Failed asserting that false is true.`")).toBe(
      "Failed asserting that false is true.",
    );
    expect(stripInlineCode("```")).toBe("```");
    expect(stripInlineCode("`npm ci` then `npm test`")).toBe("`npm ci` then `npm test`");
    expect(stripInlineCode("run `npm ci`")).toBe("run `npm ci`");
  });

  it("reads Surefire 3 detail lines each in backticks", () => {
    const log = [
      "`[ERROR] org.kettle.PourTest.pourHalf -- Time elapsed: 0.016 s <<< FAILURE!`  ",
      "`org.opentest4j.AssertionFailedError: half ==> expected: <250> but was: <249>`  ",
      "`at org.kettle.PourTest.pourHalf(PourTest.java:31)`",
      "",
      "`[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.4 s <<< FAILURE! -- in org.kettle.PourTest`",
    ];
    expect(ids(log)).toEqual(["org.kettle.PourTest.pourHalf"]);
  });

  it("reads one PHPUnit entry in a span over three lines, by PHPUnit's assertion wording", () => {
    const log = [
      "`1) Tests\\Feature\\KettleTest::test_kettle_pours_half",
      "Response status code [500] is not a successful status code.",
      "Failed asserting that false is true.`",
    ];
    expect(ids(log)).toEqual(["Tests\\Feature\\KettleTest::test_kettle_pours_half"]);
    // A numbered line with no assertion wording and no frame is not PHPUnit's.
    expect(ids(["`1) Tests\\Feature\\KettleTest::test_kettle_pours_half", "it went wrong`"])).toEqual([]);
  });
});

describe("Surefire", () => {
  it("names a default-package class by itself, the 80-column wrap of its class line aside", () => {
    const log = [
      "-------------------------------------------------------",
      " T E S T S",
      "-------------------------------------------------------",
      "Running KettleTest",
      "Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.051 sec <<< FA",
      "ILURE!",
      "pourHalf(KettleTest)  Time elapsed: 0.047 sec  <<< FAILURE!",
      "java.lang.AssertionError: expected:<250> but was:<249>",
      "        at org.junit.Assert.fail(Assert.java:88)",
      "        at KettleTest.pourHalf(KettleTest.java:31)",
      "",
    ];
    expect(ids(log)).toEqual(["KettleTest.pourHalf"]);
  });

  it("reads an indented Surefire 2 block whose class is in lower case", () => {
    const log = [
      "    pours_half_Test(org.kettle.test.pour_Test)  Time elapsed: 0.264 sec  <<< FAILURE!",
      "    junit.framework.AssertionFailedError: expected:<250> but was:<249>",
      "      at junit.framework.Assert.fail(Assert.java:50)",
      "      at org.kettle.test.pour_Test.pours_half_Test(pour_Test.java:139)",
    ];
    expect(ids(log)).toEqual(["org.kettle.test.pour_Test.pours_half_Test"]);
  });

  it("reads a Surefire report file (`Test set:` between rules), which is no Catch2 block", () => {
    const rule = "-".repeat(79);
    const log = [
      rule,
      "Test set: org.kettle.LidTest",
      rule,
      "Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 2.957 sec <<< FAILURE!",
      "clicksShut(org.kettle.LidTest)  Time elapsed: 2.207 sec  <<< FAILURE!",
      "java.lang.AssertionError: lid open",
      "\tat org.kettle.LidTest.clicksShut(LidTest.java:79)",
      "",
    ];
    expect(ids(log)).toEqual(["org.kettle.LidTest.clicksShut"]);
  });

  it("still reads Catch2's block, whose place follows its name", () => {
    const log = [
      "-".repeat(79),
      "kettle pours half",
      "-".repeat(79),
      "tests/kettle.cpp:12",
      ".".repeat(79),
      "",
      "tests/kettle.cpp:19: FAILED:",
      "  REQUIRE( pour(500) == 250 )",
      "with expansion:",
      "  249 == 250",
      "",
      "=".repeat(79),
      "test cases: 2 | 1 passed | 1 failed",
    ];
    expect(found(log)).toEqual([["kettle pours half", "tests/kettle.cpp", 19]]);
  });
});

describe("pytest", () => {
  it("gives a lone setup error the node id under the path's tests directory", () => {
    const log = [
      "_______________ ERROR at setup of TestKettle.test_pour ________________",
      "file /home/me/src/kettle/tests/test_kettle.py, line 78",
      "      def test_pour(self, full_kettle):",
      "E       fixture 'full_kettle' not found",
      ">       available fixtures: cache, capfd, monkeypatch, tmp_path",
      ">       use 'pytest --fixtures [testpath]' for help on them.",
      "",
    ];
    expect(found(log)).toEqual([["tests/test_kettle.py::TestKettle::test_pour", "tests/test_kettle.py", 78]]);
  });

  it("keeps the bare title when the absolute path has no tests directory", () => {
    const log = [
      "_______________ ERROR at setup of test_pour ________________",
      "file /home/me/src/kettle/check_kettle.py, line 8",
      "  def test_pour(full_kettle):",
      "E       fixture 'full_kettle' not found",
      "",
    ];
    expect(ids(log)).toEqual(["test_pour"]);
  });

  it("maps a Gentoo portage build directory to the repository", () => {
    const log = [
      "____________________ ERROR at setup of test_pour _____________________",
      "file /var/tmp/portage/dev-python/kettle-1.2.0/work/kettle-1.2.0/tests/test_data.py, line 27",
      "  def test_pour(data):",
      "E       fixture 'postgresql' not found",
      "",
    ];
    expect(found(log)).toEqual([["tests/test_data.py::test_pour", "tests/test_data.py", 27]]);
  });

  it("reads pytest-subtests' SUBFAIL summary as one failing test", () => {
    const log = [
      "=========================== short test summary info ============================",
      "SUBFAIL tests/test_kettle.py::KettleCase::test_pour - AssertionError: 249 != 250",
      "SUBFAIL tests/test_kettle.py::KettleCase::test_pour - AssertionError: 248 != 250",
      "SUBPASS tests/test_kettle.py::KettleCase::test_lid",
      "========================= 2 failed, 1 passed in 0.12s ==========================",
    ];
    expect(ids(log)).toEqual(["tests/test_kettle.py::KettleCase::test_pour"]);
  });
});

describe("cargo: a run cut before its result line", () => {
  const log = [
    "running 0 tests",
    "",
    "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    "",
    "running 3 tests",
    "test lid ... ok",
    "test pour_half ... FAILED",
    "test pour_full ... ok",
    "",
    "failures:",
    "",
    "---- pour_half stdout ----",
    "thread 'pour_half' panicked at 'assertion failed: left == right', tests/pour.rs:9:5",
  ];
  it("is not made green by an earlier binary's result", () => {
    expect(ids(log)).toEqual(["pour_half"]);
  });
  it("a run whose own result is ok stays green", () => {
    const green = log
      .slice(0, 6)
      .concat(["test pour_full ... ok", "", "test result: ok. 2 passed; 0 failed; 0 ignored"]);
    expect(ids(green)).toEqual([]);
  });
});

describe("dotnet: a VSTest entry pasted alone", () => {
  it("counts with its Error Message section", () => {
    const log = [
      "Failed   KettleTest.Pours_half_a_cup",
      "Error Message:",
      " Assert.Equal() Failure",
      "Expected: 250",
      "Actual:   249",
    ];
    expect(ids(log)).toEqual(["KettleTest.Pours_half_a_cup"]);
  });
  it("a `Failed` line of prose does not", () => {
    expect(ids(["Failed   to pour the kettle", "retrying"])).toEqual([]);
  });
});

describe("go: a panic after the binary's PASS", () => {
  const log = [
    "=== RUN   TestPour",
    "=== RUN   TestPour/half",
    "--- PASS: TestPour (0.00s)",
    "    --- PASS: TestPour/half (0.00s)",
    "PASS",
    "panic: runtime error: invalid memory address or nil pointer dereference",
    "",
    "goroutine 38 [running]:",
    "example.com/kettle.(*Heater).loop(0xc0000cc000)",
    "\t/home/runner/work/kettle/kettle/heater.go:61 +0x681",
    "created by example.com/kettle.(*Heater).Start",
    "\t/home/runner/work/kettle/kettle/heater.go:40 +0x875",
    "FAIL\texample.com/kettle\t0.569s",
  ];
  it("blames no test that passed", () => {
    expect(ids(log)).toEqual([]);
  });
  it("a panic before PASS still fails the running test", () => {
    const during = log.slice(0, 2).concat(log.slice(5));
    expect(ids(during)).toEqual(["example.com/kettle.TestPour/half"]);
  });
});

describe("gradle: FAILED wrapped to the next line", () => {
  it("joins the header and its outcome", () => {
    const log = [
      "org.kettle.LidTest > clicksShut ",
      "FAILED",
      "    java.lang.AssertionError at LidTest.groovy:66",
      "",
      "3 tests completed, 1 failed",
    ];
    expect(ids(log)).toEqual(["org.kettle.LidTest.clicksShut"]);
  });
  it("a wrapped PASSED is no failure", () => {
    expect(ids(["org.kettle.LidTest > clicksShut ", "PASSED", "1 tests completed"])).toEqual([]);
  });
});

describe("mocha: CircleCI's double spacing", () => {
  const log = [
    "  41 passing (1m)",
    "",
    "  1 failing",
    "",
    "",
    "",
    "",
    "  1) Kettle with a real heater:",
    "",
    "       pours half:",
    "",
    "     Error: Timeout of 30000ms exceeded.",
    "",
    "      at listOnTimeout (internal/timers.js:549:17)",
    "",
  ];
  it("reads the failure list, the describe's own colon kept", () => {
    expect(ids(log)).toEqual(["Kettle with a real heater: > pours half"]);
  });
  it("single-spaced, the same titles", () => {
    const single = [
      "  41 passing (1m)",
      "  1 failing",
      "",
      "  1) Kettle",
      "       pours half:",
      "     Error: Timeout of 30000ms exceeded.",
      "      at listOnTimeout (internal/timers.js:549:17)",
      "",
      "",
    ];
    expect(ids(single)).toEqual(["Kettle > pours half"]);
  });
});

describe("PHPUnit: a list after the banner without its heading", () => {
  it("reads the entry", () => {
    const log = [
      "PHPUnit 9.5.28 by Sebastian Bergmann and contributors.",
      "",
      "...",
      "",
      "1) mod_kettle_pour_testcase::test_pour_half",
      "Failed asserting that two strings are equal.",
      "",
      "/var/www/site/mod/kettle/tests/pour_test.php:56",
    ];
    expect(ids(log)).toEqual(["mod_kettle_pour_testcase::test_pour_half"]);
  });
  it("a test's own output that looks like an entry is not one", () => {
    const log = [
      "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.",
      "",
      "Kettle (Tests\\Kettle)",
      " ✔ Pours half",
      "1) Foo::testBar",
      "",
      "Lid (Tests\\Lid)",
      " ✔ Clicks shut",
      "",
      "OK (2 tests, 2 assertions)",
    ];
    expect(ids(log)).toEqual([]);
  });
});

describe("playwright", () => {
  it("reads a header without its number when a Retry rule follows", () => {
    const log = [
      " [chromium] › kettle.spec.ts:65:3 › Kettle › pours half ",
      "",
      `    Retry #1 ${"─".repeat(40)}`,
      "",
      "    Error: expect(page).toHaveScreenshot(expected) failed",
      "",
      "      1203 pixels (ratio 0.01 of all image pixels) are different.",
    ];
    expect(ids(log)).toEqual(["kettle.spec.ts > Kettle > pours half"]);
    // The same line followed by prose is not a failure block.
    expect(ids([log[0]!, "", "the kettle page"])).toEqual([]);
  });
  it("drops Playwright 1.12's project label after the place, keeps a title's lower-case tag", () => {
    const recap = (title: string) => [
      "  1 failed",
      `    tests/kettle.spec.ts:25:3 › ${title} `,
      "  3 passed (34s)",
    ];
    expect(ids(recap("[Chromium] pours half"))).toEqual(["tests/kettle.spec.ts > pours half"]);
    expect(ids(recap("[bug] pours half"))).toEqual(["tests/kettle.spec.ts > [bug] pours half"]);
  });
});

describe("jest", () => {
  it("puts the files under the directory npm's header names", () => {
    const log = [
      "> kettle-web@0.11.4 test /var/lib/jenkins/workspace/kettle--release/web",
      "> jest",
      "",
      " FAIL  lib/pour.spec.js",
      "  ● Kettle › pours half",
      "",
      "    expect(received).toBe(expected)",
      "",
      "      at Object.<anonymous> (lib/pour.spec.js:18:50)",
    ];
    expect(found(log)).toEqual([["web/lib/pour.spec.js > Kettle > pours half", "web/lib/pour.spec.js", 18]]);
    // At the repository's root (the runner prefix is the whole path) the printed paths stay.
    const root = ["> kettle-web@0.11.4 test /home/runner/work/kettle/kettle", ...log.slice(1)];
    expect(ids(root)).toEqual(["lib/pour.spec.js > Kettle > pours half"]);
  });

  it("a header cut after a describe's title is no failure of its own", () => {
    const log = [
      " FAIL  test/pour.test.js",
      "  Kettle",
      "    ✕ pours half (1 ms)",
      "    ✕ pours full (1 ms)",
      "",
      "  ● Kettle › pours half",
      "",
      "    TypeError: Cannot read properties of undefined (reading 'pour')",
      "",
      "      at Object.pour (test/pour.test.js:5:10)",
      "",
      "  ● Kettle",
    ];
    expect(ids(log).sort()).toEqual([
      "test/pour.test.js > Kettle > pours full",
      "test/pour.test.js > Kettle > pours half",
    ]);
  });
});

describe("framing prefixes", () => {
  it("reads web-view line numbers with the prefix after them as that prefix", () => {
    expect(prefixOf("642\t#98  55.71 --- FAIL: TestX (0.1s)")).toEqual({ shape: "buildkit", length: 15 });
    expect(prefixOf("#98  55.71 --- FAIL: TestX (0.1s)")).toEqual({ shape: "buildkit", length: 11 });
    expect(prefixOf("12\tplain")).toEqual({ shape: "lineno", length: 3 });
    expect(prefixOf("# comment")).toBeNull();
  });

  it("reads a go failure inside BuildKit's output copied with line numbers", () => {
    const log = [
      "#98  55.71 --- FAIL: TestKettle/TestPour (0.17s)",
      "642\t#98  55.71 kettle_test.go:62: pour: expected 250, got 249",
      "643\t#98  55.71 FAIL",
      "644\t#98  55.71 FAIL\texample.com/kettle\t0.2s",
    ];
    expect(ids(log)).toEqual(["example.com/kettle.TestKettle/TestPour"]);
  });

  it("strips turborepo's task column with concurrently's inside it", () => {
    const pre = "@kettle/web:test: [test:e2e  ] ";
    const log = [
      "",
      "  1) [webkit] › e2e/pour.test.ts:16:2 › Kettle › pours half ",
      "",
      "    Error: expect(page).toHaveScreenshot",
      "",
      "      at e2e/pour.test.ts:32:22",
    ].map((l) => pre + l);
    expect(ids(log)).toEqual(["e2e/pour.test.ts > Kettle > pours half"]);
  });
});
