/**
 * Log shapes from hold35's misses (issue 10, branch f10bb): CTest's failed list with spaced names, cut at either end
 * or retyped under its count line. Each log is written here for a small kettle project of our own, in the runner's byte
 * layout (not copied from the corpus); each rule has a case where it must not fire and a green log that yields nothing.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const lines = (...l: string[]) => l.join("\n");

describe("CTest: test names with spaces", () => {
  it("reads a list entry and a result line whose name holds spaces", () => {
    const log = lines(
      "    Start 1: Pour One Cup",
      "1/2 Test #1: Pour One Cup .....................   Passed    0.01 sec",
      "    Start 2: Pour Two Cups",
      "2/2 Test #2: Pour Two Cups ....................***Failed    0.02 sec",
      "",
      "50% tests passed, 1 tests failed out of 2",
      "",
      "Total Test time (real) =   0.04 sec",
      "",
      "The following tests FAILED:",
      "\t  2 - Pour Two Cups (Failed)",
      "Errors while running CTest",
    );
    const r = parseLog(log);
    expect(r.failures.map((f) => f.test)).toEqual(["Pour Two Cups"]);
    expect(r.tests.find((t) => t.id === "Pour One Cup")?.outcome).toBe("passed");
  });
  it("reads a name that holds parentheses up to the status", () => {
    expect(
      ids(
        lines("The following tests FAILED:", "\t  4 - lid (glass) (SEGFAULT)", "Errors while running CTest"),
      ),
    ).toEqual(["lid (glass)"]);
  });
  it("green: spaced names that all passed yield nothing", () => {
    const log = lines(
      "1/2 Test #1: Pour One Cup .....................   Passed    0.01 sec",
      "2/2 Test #2: Pour Two Cups ....................   Passed    0.02 sec",
      "",
      "100% tests passed, 0 tests failed out of 2",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("CTest: the list cut inside an entry's status", () => {
  const head = ["40% tests passed, 3 tests failed out of 5", "", "The following tests FAILED:"];
  it("reads the cut entry when it is the log's last line (its name ends before ` (`)", () => {
    expect(ids(lines(...head, "\t  2 - Pour Two Cups (SEGFAULT)", "\t  3 - Pour Half (SEGF"))).toEqual([
      "Pour Two Cups",
      "Pour Half",
    ]);
  });
  it("does not read a cut entry that is not the last line, nor one with no heading, nor a name cut before ` (`", () => {
    expect(ids(lines(...head, "\t  3 - Pour Half (SEGF", "make: *** [test] Error 8"))).toEqual([]);
    expect(ids(lines("\t  3 - Pour Half (SEGF"))).toEqual([]);
    expect(ids(lines(...head, "\t  2 - Pour Two Cups (Failed)", "\t  3 - Pour Ha"))).toEqual([
      "Pour Two Cups",
    ]);
  });
});

describe("CTest: a list with no heading whose closing line the log's end cut", () => {
  const entries = [
    "\t 76 - kettle_boil (Not Run)",
    "\t 77 - kettle_pour (SEGFAULT)",
    "\t 79 - kettle_lid (Failed)",
  ];
  it("reads the entries when `Errors while running CTest` is cut at the log's end", () => {
    expect(ids(lines(...entries, "Errors while r"))).toEqual(["kettle_boil", "kettle_pour", "kettle_lid"]);
    expect(ids(lines(...entries, "Errors"))).toEqual(["kettle_boil", "kettle_pour", "kettle_lid"]);
  });
  it("does not read them when the cut line is not the last, is too short, or is not CTest's", () => {
    expect(ids(lines(...entries, "Errors while r", "make: *** [test] Error 8"))).toEqual([]);
    expect(ids(lines(...entries, "Err"))).toEqual([]);
    expect(ids(lines(...entries, "Errors were found"))).toEqual([]);
    expect(ids(lines(...entries, "", "Errors while r"))).toEqual([]);
  });
});

describe("CTest: a list with no heading right under the count line that counts it", () => {
  it("reads the entries a count line counts exactly (a reporter's retyping: bold, singular, lower case)", () => {
    const log = lines(
      "**80% test passed, 2 test failed out of 10",
      "",
      "3 - kettle_boil (failed)",
      "7 - kettle_pour (failed)",
      "",
      "Error while running Ctest**",
    );
    const r = parseLog(log);
    expect(r.failures.map((f) => f.test)).toEqual(["kettle_boil", "kettle_pour"]);
    expect(r.counts.gtest).toMatchObject({ passed: 8, failed: 2 });
    // CTest's own layout with its heading cut: the time line between.
    expect(
      ids(
        lines(
          "80% tests passed, 2 tests failed out of 10",
          "",
          "Total Test time (real) =   1.20 sec",
          "\t  3 - kettle_boil (Failed)",
          "\t  7 - kettle_pour (Timeout)",
        ),
      ),
    ).toEqual(["kettle_boil", "kettle_pour"]);
  });
  it("does not read entries the count does not count, nor ones with other text between", () => {
    expect(
      ids(
        lines(
          "80% tests passed, 3 tests failed out of 10",
          "",
          "3 - kettle_boil (failed)",
          "7 - kettle_pour (failed)",
        ),
      ),
    ).toEqual([]);
    expect(
      ids(
        lines(
          "80% tests passed, 2 tests failed out of 10",
          "see below:",
          "3 - kettle_boil (failed)",
          "7 - kettle_pour (failed)",
        ),
      ),
    ).toEqual([]);
    expect(ids(lines("100% tests passed, 0 tests failed out of 10", "", "1 - step one (optional)"))).toEqual(
      [],
    );
  });
  it("green: a passing count line and a numbered list of notes yield nothing", () => {
    expect(
      ids(lines("**100% tests passed, 0 tests failed out of 2**", "", "1 - boil (fast)", "2 - pour (slow)")),
    ).toEqual([]);
  });
});

describe("go test run again and again (a shell loop), the last run cut before its package line", () => {
  const pkg = "example.com/kettle";
  const ok = `ok  \t${pkg}\t0.31s`;
  const failRun = (name: string, msg: string) => [
    `--- FAIL: ${name} (0.00s)`,
    `    kettle_test.go:12: ${msg}`,
    "FAIL",
    `FAIL\t${pkg}\t0.30s`,
    "FAIL",
  ];
  it("names the cut test by the one package every package line of the log names", () => {
    const log = lines(
      ok,
      ok,
      ...failRun("TestPour", "spilled"),
      ok,
      "--- FAIL: TestBoil (0.00s)",
      "    kettle_t",
    );
    expect(ids(log)).toEqual([`${pkg}.TestPour`, `${pkg}.TestBoil`]);
  });
  it("reports a test the cut run repeats once", () => {
    const log = lines(
      ok,
      ...failRun("TestPour", "spilled"),
      "--- FAIL: TestPour (0.00s)",
      "    kettle_test.go:12: spil",
    );
    expect(ids(log)).toEqual([`${pkg}.TestPour`]);
  });
  it("keeps the bare name when one package line only, or two packages, came before", () => {
    const cut = ["--- FAIL: TestBoil (0.00s)", "    kettle_test.go:30: cold"];
    expect(ids(lines(ok, ...cut))).toEqual(["TestBoil"]);
    expect(ids(lines(ok, `ok  \texample.com/kettle/lid\t0.10s`, ok, ...cut))).toEqual(["TestBoil"]);
  });
  it("keeps the bare name when lines follow the block (an elision: the run was not cut by the log's end)", () => {
    expect(ids(lines(ok, ok, "--- FAIL: TestBoil (0.00s)", "    kettle_test.go:30: cold", "[...]"))).toEqual([
      "TestBoil",
    ]);
  });
  it("does not report again a parent an earlier run failed through its subtest, its subtest line cut", () => {
    const run = [
      "--- FAIL: TestPour (0.00s)",
      "    --- FAIL: TestPour/half (0.00s)",
      "FAIL",
      `FAIL\t${pkg}\t0.30s`,
      "FAIL",
    ];
    expect(ids(lines(...run, ...run, "--- FAIL: TestPour (0.00s)", "    --- FAI"))).toEqual([
      `${pkg}.TestPour/half`,
    ]);
  });
  it("green: a loop of passing runs yields nothing", () => {
    expect(ids(lines(ok, ok, ok))).toEqual([]);
  });
});

describe("gocheck: go's `--- FAIL: Test` wrapper under gocheck's count line", () => {
  const report = [
    "-".repeat(70),
    "PANIC: kettle_test.go:45: KettleSuite.TestPour",
    "",
    "... Panic: runtime error: index out of range (PC=0x5DC1E)",
    "",
    "kettle_test.go:61",
    "  in KettleSuite.TestPour",
  ];
  const tail = [
    "OOPS: 12 passed, 1 PANICKED",
    "--- FAIL: Test (0.30s)",
    "FAIL",
    "FAIL\texample.com/kettle\t0.35s",
  ];
  it("reports the suite's test once, not the wrapper", () => {
    expect(ids(lines(...report, ...tail))).toEqual(["KettleSuite.TestPour"]);
  });
  it("keeps go's line when no gocheck report was read (cut above), and any test that is not right under the count", () => {
    expect(ids(lines(...tail))).toEqual(["example.com/kettle.Test"]);
    const other = [
      "OOPS: 12 passed, 1 PANICKED",
      "",
      "--- FAIL: TestLid (0.01s)",
      "    lid_test.go:9: stuck",
    ];
    expect(ids(lines(...report, ...other, "FAIL", "FAIL\texample.com/kettle\t0.35s"))).toEqual([
      "KettleSuite.TestPour",
      "example.com/kettle.TestLid",
    ]);
  });
  it("green: gocheck's `OK:` count under go's PASS yields nothing", () => {
    expect(ids(lines("OK: 13 passed", "PASS", "ok  \texample.com/kettle\t0.35s"))).toEqual([]);
  });
});

describe("jest 0.x: a file that failed to run, its error under its `FAIL` header", () => {
  const failed = (...after: string[]) =>
    lines(
      "Using Jest CLI v0.5.1",
      " FAIL  test/kettle.spec.js",
      "TypeError: Cannot read property 'pour' of undefined",
      ...after,
    );
  it("is the file's failure once jest 0.x's count line counts a failed test", () => {
    const r = parseLog(failed("1 test failed, 0 tests passed (1 total)"));
    expect(r.failures.map((f) => [f.test, f.file])).toEqual([[null, "test/kettle.spec.js"]]);
  });
  it("is nothing without that count line, or under a header with a duration, or under today's jest", () => {
    expect(ids(failed())).toEqual([]);
    expect(ids(failed("Run time: 1.2s"))).toEqual([]);
    const timed = lines(
      " FAIL  test/kettle.spec.js (0.02s)",
      "TypeError: x",
      "1 test failed, 0 tests passed (1 total)",
    );
    expect(ids(timed)).toEqual([]);
    const today = lines(
      " FAIL  test/kettle.spec.js",
      "TypeError: printed by a child process",
      "  ● kettle › pours",
      "",
      "    expect(received).toBe(expected)",
      "",
      "      at Object.<anonymous> (test/kettle.spec.js:4:17)",
      "",
      "Tests:       1 failed, 1 total",
    );
    expect(ids(today)).toEqual(["test/kettle.spec.js > kettle > pours"]);
  });
  it("green: jest 0.x's passing files and count yield nothing", () => {
    expect(
      ids(lines(" PASS  test/kettle.spec.js (0.02s)", "3 tests passed (3 total)", "Run time: 1.1s")),
    ).toEqual([]);
  });
});

describe("PHPUnit: an entry pasted in a block indented as a whole (a markdown indented code block)", () => {
  const ind = (...l: string[]) => l.map((x) => (x === "" ? "" : `    ${x}`)).join("\n");
  it("reads the entry with PHPUnit's assertion wording under it", () => {
    const log = ind(
      "1) Kettle\\Tests\\PourTest::testPoursHalf",
      "Failed asserting that two arrays are equal.",
      "--- Expected",
      "+++ Actual",
      "@@ @@",
      " Array (",
      "     'cups' => 2",
      " )",
    );
    expect(ids(log)).toEqual(["Kettle\\Tests\\PourTest::testPoursHalf"]);
  });
  it("reads it with a PHP frame under it, placed by the frame", () => {
    const log = ind("1) Kettle\\Tests\\PourTest::testPoursHalf", "lid stuck", "", "tests/PourTest.php:31");
    expect(parseLog(log).failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["Kettle\\Tests\\PourTest::testPoursHalf", "tests/PourTest.php", 31],
    ]);
  });
  it("does not read an indented numbered line with neither the wording nor a frame under it", () => {
    expect(
      ids(ind("1) Kettle\\Tests\\PourTest::testPoursHalf", "was renamed in 2.0", "2) see the changelog")),
    ).toEqual([]);
    expect(
      ids(lines("    1) Kettle\\Tests\\PourTest::testPoursHalf", "Release notes", "  Failed asserting that")),
    ).toEqual([]);
  });
  it("green: an indented passing PHPUnit run yields nothing", () => {
    expect(
      ids(
        ind(
          "PHPUnit 9.6.0 by Sebastian Bergmann and contributors.",
          "",
          "...   3 / 3 (100%)",
          "",
          "OK (3 tests, 5 assertions)",
        ),
      ),
    ).toEqual([]);
  });
});
