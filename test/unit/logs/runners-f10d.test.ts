/**
 * Log shapes from hold15's misses (issue 10, branch f10d), each read by a general rule, each with a case where it must
 * not fire. The logs are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const places = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const lines = (...l: string[]) => l.join("\n");

describe("XCTest on Linux: assertion lines without their Test Case lines", () => {
  it("reads one failure per test, in order, a repeated test once, with the SwiftPM path", () => {
    const log = lines(
      '/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: PourTests.testHalf : XCTAssertEqual failed: ("1") is not equal to ("2") - ',
      '/srv/kettle/Tests/KettleTests/PourTests.swift:13: error: PourTests.testHalf : XCTAssertEqual failed: ("3") is not equal to ("4") - ',
      "/srv/kettle/Tests/KettleTests/Helpers.swift:40: error: LidTests.testSeal : XCTAssertTrue failed - ",
      '/srv/kettle/Tests/KettleTests/PourTests.swift:30: error: PourTests.testFull : XCTAssertNil failed: "x" - ',
    );
    expect(places(log)).toEqual([
      ["PourTests.testHalf", "Tests/KettleTests/PourTests.swift", 12],
      ["LidTests.testSeal", "Tests/KettleTests/Helpers.swift", 40],
      ["PourTests.testFull", "Tests/KettleTests/PourTests.swift", 30],
    ]);
    expect(parseLog(log).failures.every((f) => f.format === "xctest")).toBe(true);
  });
  it("closes an assertion-opened test when another test's Test Case line comes", () => {
    const log = lines(
      '/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: PourTests.testHalf : XCTAssertEqual failed: ("1") is not equal to ("2") - ',
      "Test Case 'PourTests.testFull' started at 2024-05-02 10:11:12.345",
      "Test Case 'PourTests.testFull' passed (0.001 seconds)",
    );
    expect(ids(log)).toEqual(["PourTests.testHalf"]);
  });
  it("does not take an inner suite's count line as the run's in a log that opens inside the run", () => {
    const log = lines(
      "Test Case 'LidTests.testSeal' started at 2024-05-02 10:11:12.345",
      "Test Case 'LidTests.testSeal' passed (0.001 seconds)",
      "Test Suite 'LidTests' passed at 2024-05-02 10:11:12.346",
      "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds",
      "Test Suite 'PourTests' started at 2024-05-02 10:11:12.346",
      "Test Case 'PourTests.testHalf' started at 2024-05-02 10:11:12.346",
      '/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: PourTests.testHalf : XCTAssertEqual failed: ("x\' started at 2024") is not equal to ("y") - ',
      "/srv/kettle/Tests/Kettle",
    );
    expect(places(log)).toEqual([["PourTests.testHalf", "Tests/KettleTests/PourTests.swift", 12]]);
  });
  it("still trusts the outermost suite's count line of a whole run", () => {
    const log = lines(
      "Test Suite 'All tests' started at 2024-05-02 10:11:12.345",
      "Test Suite 'LidTests' started at 2024-05-02 10:11:12.345",
      "Test Case 'LidTests.testSeal' started at 2024-05-02 10:11:12.345",
      "Test Case 'LidTests.testSeal' passed (0.001 seconds)",
      "Test Suite 'LidTests' passed at 2024-05-02 10:11:12.346",
      "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds",
      "Test Suite 'All tests' passed at 2024-05-02 10:11:12.346",
      "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds",
    );
    const r = parseLog(log);
    expect(r.failures).toEqual([]);
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([["LidTests.testSeal", "passed"]]);
  });
  it("does not read a compiler's `error:` line, nor a line not naming a test, as a test", () => {
    const log = lines(
      "/srv/kettle/Sources/Kettle/Pour.swift:12:5: error: cannot find 'x' in scope",
      "/srv/kettle/Tests/KettleTests/PourTests.swift:12: error: something went wrong",
    );
    expect(parseLog(log).failures.filter((f) => f.format === "xctest")).toEqual([]);
  });
});

describe("sbt: the test task's Failed tests / Error during tests lists", () => {
  it("reads the classes under either heading, tab- or space-indented, behind a clock", () => {
    const log = lines(
      "[04-09 22:41:59.531] [info] *** 1 TEST FAILED ***",
      "[04-09 22:41:59.536] [error] Failed: Total 12, Failed 1, Errors 1, Passed 10",
      "[04-09 22:41:59.536] [error] Failed tests:",
      "[04-09 22:41:59.538] [error] \tcom.acme.kettle.PourSpec",
      "[04-09 22:41:59.539] [error] Error during tests:",
      "[04-09 22:41:59.539] [error]     com.acme.kettle.LidSpec",
      "[04-09 22:41:59.540] [error] (core / Test / test) sbt.TestsFailedException: Tests unsuccessful",
    );
    expect(ids(log)).toEqual(["com.acme.kettle.PourSpec", "com.acme.kettle.LidSpec"]);
  });
  it("reads no class from a forked JVM's command line, and nothing under a green count", () => {
    const log = lines(
      "[info] Tests: succeeded 3, failed 0, canceled 0, ignored 0, pending 0",
      "[info] All tests passed.",
      "[error] Error: Total 0, Failed 0, Errors 0, Passed 0",
      "[error] Error during tests:",
      "[error]         Running java with options -classpath /x/y.jar sbt.ForkMain 35839 failed with exit code 1",
      "[error] (test:test) sbt.TestsFailedException: Tests unsuccessful",
    );
    expect(ids(log)).toEqual([]);
  });
  it("does not read an indented name after any other [error] line", () => {
    expect(ids(lines("[error] Compilation failed:", "[error] \tcom.acme.kettle.PourSpec"))).toEqual([]);
  });
});

describe("ScalaTest's tree", () => {
  it("names a failed test by its suite, subjects and text, once even when sbt lists its suite", () => {
    const log = lines(
      "[info] KettleSpec:",
      "[info] A Kettle",
      "[info] - should boil water",
      "[info] - should pour *** FAILED ***",
      "[info]   2 did not equal 3 (KettleSpec.scala:18)",
      "[info] LidSpec:",
      "[info] A Lid",
      "[info]   when closed",
      "[info]   - should seal *** FAILED ***",
      "[info]     false was not true (LidSpec.scala:9)",
      "[info]   - should not leak",
      "[info] Tests: succeeded 2, failed 2, canceled 0, ignored 0, pending 0",
      "[error] Failed tests:",
      "[error] \tcom.acme.KettleSpec",
      "[error] \tcom.acme.LidSpec",
    );
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.test, f.message])).toEqual([
      ["KettleSpec.A Kettle should pour", "2 did not equal 3 (KettleSpec.scala:18)"],
      ["LidSpec.A Lid when closed should seal", "false was not true (LidSpec.scala:9)"],
    ]);
    expect(r.tests.filter((t) => t.outcome === "passed").map((t) => t.id)).toEqual([
      "KettleSpec.A Kettle should boil water",
      "LidSpec.A Lid when closed should not leak",
    ]);
  });
  it("does not read a markdown list item or a passing tree as failures", () => {
    expect(ids(lines("Changes:", "- should pour faster", "- fix the lid"))).toEqual([]);
    expect(ids(lines("[info] KettleSpec:", "[info] A Kettle", "[info] - should pour"))).toEqual([]);
  });
});

describe("tasty and cabal test", () => {
  it("names a failed test by its group path, reads its reason, skips expected failures", () => {
    const log = lines(
      "Test suite kettle-tests: RUNNING...",
      "Kettle",
      "  pour",
      "    half:   OK (0.01s)",
      "    full:   FAIL (0.02s)",
      "      expected: 2",
      "       but got: 3",
      "  lid:      FAIL (expected)",
      "    expected: 1 (expected failure)",
      "",
      "1 out of 3 tests failed (0.05s)",
      "Test suite kettle-tests: FAIL",
    );
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.format, f.test, f.message])).toEqual([
      ["tasty", "Kettle.pour.full", "expected: 2\nbut got: 3"],
    ]);
  });
  it("after a reader's elision, names the test alone", () => {
    expect(ids(lines("test/Kettle.hs", "...", "  boils:     FAIL", "    expected: True"))).toEqual(["boils"]);
  });
  it("names a failed cabal suite whose output named no failing test", () => {
    const log = lines(
      "Running 2 test suites...",
      "Test suite kettle-tests: RUNNING...",
      "kettle-tests: src/Kettle.hs:(48,13)-(52,20): Missing field in record construction",
      "Test suite kettle-tests: FAIL",
      "Test suite lid-tests: RUNNING...",
      "Test suite lid-tests: PASS",
      "1 of 2 test suites (1 of 2 test cases) passed.",
    );
    expect(ids(log)).toEqual(["kettle-tests"]);
  });
  it("does not read a passing suite, nor a status table outside a tree, as failures", () => {
    expect(ids(lines("Test suite spec: RUNNING...", "Test suite spec: PASS"))).toEqual([]);
    expect(ids(lines("All 3 tests passed (0.01s)", "Test suite spec: PASS"))).toEqual([]);
    // hspec's count line under cabal: the suite's failures are hspec's to name, not the suite.
    expect(
      ids(lines("Test suite spec: RUNNING...", "3 examples, 1 failure", "Test suite spec: FAIL")),
    ).toEqual([]);
    expect(ids(lines("Health:", "  Database: OK", "  Cache: FAIL (expected)"))).toEqual([]);
  });
});

describe("zig test and zig build test", () => {
  it("reads the test runner's FAIL line with its trace's place in the test, not in std", () => {
    const log = lines(
      "1/3 test.pour... OK",
      "2/3 test.boil... FAIL (TestUnexpectedResult)",
      "/opt/zig/lib/std/testing.zig:509:14: 0x2241c7 in expect (test)",
      "    if (!ok) return error.TestUnexpectedResult;",
      "             ^",
      "src/kettle.zig:86:5: 0x22467a in test.boil (test)",
      "    try testing.expect(boil(10) == 100);",
      "    ^",
      "3/3 test.lid... OK",
      "2 passed; 0 skipped; 1 failed.",
    );
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.format, f.test, f.file, f.line, f.errorType])).toEqual([
      ["zig", "test.boil", "src/kettle.zig", 86, "TestUnexpectedResult"],
    ]);
  });
  it("reads the build runner's failed test once, its first frame on the same line", () => {
    const log = lines(
      "run test: error: 'kettle.test.boil water' failed: /opt/zig/lib/std/testing.zig:515:14: 0x227a9f in expect (test)",
      "    if (!ok) return error.TestUnexpectedResult;",
      "             ^",
      "src/kettle.zig:97:5: 0x227c37 in kettle.test.boil water (test)",
      "    try testing.expect(1 == 2);",
      "    ^",
      "run test: error: while executing test 'kettle.test.boil water', the following test command failed:",
      ".zig-cache/o/8cab546e/test --listen=- ",
      "Build Summary: 1/3 steps succeeded; 1 failed; 0/1 tests passed; 1 failed",
      "test transitive failure",
      "└─ run test 0/1 passed, 1 failed",
    );
    expect(places(log)).toEqual([["kettle.test.boil water", "src/kettle.zig", 97]]);
  });
  it("names nothing from a summary alone, nor from a compile error or another tool's progress line", () => {
    expect(
      ids(
        lines(
          "Build Summary: 12/16 steps succeeded; 2 failed; 452/513 tests passed; 61 failed",
          "test transitive failure",
        ),
      ),
    ).toEqual([]);
    // (a generic `error:` line may be read by the fallback formats; zig reads neither as a test)
    expect(
      parseLog(lines("3/5 Downloading kettle... FAIL", "error: 'build' failed")).failures.filter(
        (f) => f.format === "zig",
      ),
    ).toEqual([]);
    expect(
      parseLog("src/kettle.zig:10:5: error: use of undeclared identifier 'x'").failures.map((f) => f.format),
    ).not.toContain("zig");
  });
});

describe("pytest: collection errors' summary lines in a run with node-id summary lines", () => {
  it("reads the module once when FAILED/ERROR node-id lines follow directly", () => {
    const log = lines(
      "ERROR tests/test_lid.py - IndexError: tuple index out of range",
      "ERROR tests/test_lid.py - IndexError: tuple index out of range",
      "FAILED tests/test_pour.py::test_half - assert 1 == 2",
    );
    expect(ids(log)).toEqual(["tests/test_lid.py", "tests/test_pour.py::test_half"]);
  });
  it("does not read them when another line stands between", () => {
    const log = lines(
      "ERROR tests/test_lid.py - IndexError: tuple index out of range",
      "make: *** [Makefile:3: check] Error 1",
      "FAILED tests/test_pour.py::test_half - assert 1 == 2",
    );
    expect(ids(log)).toEqual(["tests/test_pour.py::test_half"]);
  });
});

describe("prove's Test Summary Report", () => {
  const report = [
    "Test Summary Report",
    "-------------------",
    "t/pour.t   (Wstat: 512 Tests: 7 Failed: 2)",
    "  Failed tests:  3, 5",
    "  Non-zero exit status: 2",
    "t/lid.t    (Wstat: 11 (Signal: SEGV) Tests: 2 Failed: 0)",
    "  Non-zero wait status: 11",
    "Files=3, Tests=12,  1 wallclock secs ( 0.01 usr  0.00 sys +  0.10 cusr  0.02 csys =  0.13 CPU)",
    "Result: FAIL",
  ];
  it("gives each failed test program a failure of its file (no test id) when the log holds no TAP lines", () => {
    expect(places(lines(...report))).toEqual([
      [null, "t/pour.t", null],
      [null, "t/lid.t", null],
    ]);
  });
  it("adds nothing when the TAP lines name the failures", () => {
    const log = lines(
      "t/pour.t .. ",
      "ok 1 - boils",
      "not ok 2 - pours",
      "1..2",
      "Failed 1/2 subtests",
      ...report,
    );
    expect(ids(log)).toEqual(["pours"]);
  });
});

describe("karma-mocha-reporter's failure tree", () => {
  it("names each ✖ test under its describes, placed by its first project frame", () => {
    const log = lines(
      "FAILED TESTS:",
      "  Kettle",
      "    pour()",
      "      ✖ fills the cup",
      "        Chrome Headless 123.0.6312.87 (Linux x86_64)",
      "      AssertionError: expected 1 to equal 2",
      "    at  (test/kettle.test.ts:12:5)",
      "",
      "",
      "",
      "      ✖ stops when full",
      "        Chrome Headless 123.0.6312.87 (Linux x86_64)",
      "      AssertionError: expected 3 to equal 2",
      "    at  (test/kettle.test.ts:20:7)",
    );
    expect(places(log)).toEqual([
      ["Kettle > pour() > fills the cup", "test/kettle.test.ts", 12],
      ["Kettle > pour() > stops when full", "test/kettle.test.ts", 20],
    ]);
  });
  it("does not read a ✖ line with no browser label under it", () => {
    expect(
      parseLog(lines("  lint", "    ✖ src/a.ts has 2 problems", "    done")).failures.filter(
        (f) => f.format === "karma-mocha",
      ),
    ).toEqual([]);
  });
});

describe("vitest: tests failing alike share one block", () => {
  const header = (t: string) => ` FAIL  test/kettle.test.ts > pour > ${t}`;
  it("gives each header right above the block that block's place", () => {
    const log = lines(
      " RUN  v3.2.4 /repo",
      header("pours 1"),
      header("pours 2"),
      "AssertionError: expected 'cold' to be 'hot'",
      " ❯ test/kettle.test.ts:18:44",
      "⎯⎯⎯⎯⎯⎯⎯[1/2]⎯",
      header("boils"),
      "AssertionError: expected 1 to be 2",
      " ❯ test/kettle.test.ts:25:5",
    );
    expect(places(log)).toEqual([
      ["test/kettle.test.ts > pour > pours 1", "test/kettle.test.ts", 18],
      ["test/kettle.test.ts > pour > pours 2", "test/kettle.test.ts", 18],
      ["test/kettle.test.ts > pour > boils", "test/kettle.test.ts", 25],
    ]);
  });
  it("does not share a block across a body", () => {
    const log = lines(
      " RUN  v3.2.4 /repo",
      header("pours 1"),
      "Error: boom",
      header("pours 2"),
      "AssertionError: expected 'cold' to be 'hot'",
      " ❯ test/kettle.test.ts:18:44",
    );
    expect(places(log)).toEqual([
      ["test/kettle.test.ts > pour > pours 1", "test/kettle.test.ts", null],
      ["test/kettle.test.ts > pour > pours 2", "test/kettle.test.ts", 18],
    ]);
  });
});

describe("Rust panics placed in a dependency's source", () => {
  it("give no place: cargo's registry is not the repository", () => {
    const log = lines(
      "running 1 test",
      "test tests::pours ... FAILED",
      "",
      "failures:",
      "",
      "---- tests::pours stdout ----",
      "thread 'tests::pours' panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/poem-3.0.3/src/test/response.rs:21:9:",
      "assertion `left == right` failed",
      "",
      "failures:",
      "    tests::pours",
      "",
      "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    );
    expect(places(log)).toEqual([["tests::pours", null, null]]);
  });
  it("keep the repository's own place", () => {
    const log = lines(
      "test tests::pours ... FAILED",
      "---- tests::pours stdout ----",
      "thread 'tests::pours' panicked at src/lib.rs:21:9:",
      "assertion failed",
      "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    );
    expect(places(log)).toEqual([["tests::pours", "src/lib.rs", 21]]);
  });
});

describe("Dart's old unittest package", () => {
  const body = [
    "PASS: pours",
    "FAIL: boils",
    "  Expected: <2>",
    "    Actual: <0>",
    "  ...",
    "ERROR: lid",
    "  Test failed: Caught Bad state: no lid",
  ];
  it("reads FAIL:/ERROR: lines when its count line follows", () => {
    const r = parseLog(lines(...body, "1 PASSED, 1 FAILED, 1 ERRORS", "Unhandled exception:"));
    expect(r.failures.map((f) => [f.format, f.test, f.message])).toEqual([
      ["dart-unittest", "boils", "Expected: <2>\nActual: <0>"],
      ["dart-unittest", "lid", "Test failed: Caught Bad state: no lid"],
    ]);
  });
  it("reads nothing without its count line (automake's and others' FAIL: lines)", () => {
    expect(parseLog(lines(...body)).failures.filter((f) => f.format === "dart-unittest")).toEqual([]);
  });
});
