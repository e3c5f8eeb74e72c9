/**
 * hold35's classes, second f10e pass (issue 10): a Catch2 program's failure block printed under its CTest entry
 * (`ctest --output-on-failure`) is that failure once, not the entry and the test case both; and checks that the
 * other hold35 classes hold for shapes the corpus does not have (a Windows CTest list with CRLF endings, `go test
 * -count=N`, a PHPUnit entry with no diff). The logs are written here for a small kettle project of our own, in the
 * runners' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const lines = (...l: string[]) => l.join("\n");
const failures = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const ids = (log: string) => parseLog(log).failures.map((f) => f.test);

const DASHES = "-".repeat(79);
const DOTS = ".".repeat(79);
const EQUALS = "=".repeat(79);

/** Catch2's console block for one test case with one failed REQUIRE. */
const catch2Block = (name: string, declared: string, failedAt: string) => [
  DASHES,
  name,
  DASHES,
  declared,
  DOTS,
  "",
  `${failedAt}: FAILED:`,
  "  REQUIRE( cup.level() == 250 )",
  "with expansion:",
  "  0 == 250",
  "",
  EQUALS,
  "test cases: 1 | 1 failed",
  "assertions: 1 | 1 failed",
  "",
];

/** `ctest --output-on-failure`: test 2 fails, its program's output printed under its result line. */
const ctestRun = (name: string, output: string[]) =>
  lines(
    "      Start  1: Boil Water",
    " 1/3 Test  #1: Boil Water .......................   Passed    0.10 sec",
    `      Start  2: ${name}`,
    ` 2/3 Test  #2: ${name} ${".".repeat(Math.max(3, 32 - name.length))}***Failed    0.12 sec`,
    ...output,
    "      Start  3: Lid Closes",
    " 3/3 Test  #3: Lid Closes .......................   Passed    0.09 sec",
    "",
    "67% tests passed, 1 tests failed out of 3",
    "",
    "Total Test time (real) =   0.31 sec",
    "",
    "The following tests FAILED:",
    `\t  2 - ${name} (Failed)`,
    "Errors while running CTest",
  );

describe("CTest: a Catch2 failure block printed under its entry", () => {
  it("one failure, placed, when CTest's test is the Catch2 test case (catch_discover_tests)", () => {
    const log = ctestRun("Pour Cup", catch2Block("Pour Cup", "tests/pour.cpp:14", "tests/pour.cpp:21"));
    expect(failures(log)).toEqual([["Pour Cup", "tests/pour.cpp", 21]]);
  });
  it("the Catch2 test case instead of the entry when the entry runs a whole Catch2 program", () => {
    const log = ctestRun(
      "kettle_unit",
      catch2Block("pours a full cup", "tests/pour.cpp:14", "tests/pour.cpp:21"),
    );
    expect(failures(log)).toEqual([["pours a full cup", "tests/pour.cpp", 21]]);
  });
  it("an MSVC place (`tests\\pour.cpp(21): FAILED:`) likewise", () => {
    const log = ctestRun(
      "kettle_unit",
      catch2Block("pours a full cup", "tests\\pour.cpp(14)", "tests\\pour.cpp(21)"),
    );
    expect(ids(log)).toEqual(["pours a full cup"]);
  });
  it("must not drop the entry: the Catch2 block's head was cut (no rule, place and dots), so Catch2 names nothing", () => {
    const cut = catch2Block("Pour Cup", "tests/pour.cpp:14", "tests/pour.cpp:21").slice(5);
    expect(ids(ctestRun("Pour Cup", cut))).toEqual(["Pour Cup"]);
  });
  it("must not drop the entry: a rule-framed heading of another tool (no place under the rule) before a FAILED: line", () => {
    const other = [DASHES, "Test set: kettle.PourTest", DASHES, DOTS, "", "tests/pour.cpp:21: FAILED:", ""];
    expect(ids(ctestRun("Pour Cup", other))).toEqual(["Pour Cup"]);
  });
  it("must not drop the entry: a Catch2 program run after CTest's count line is another run", () => {
    const log = lines(
      " 1/1 Test  #1: kettle_unit ......................***Failed    0.12 sec",
      "",
      "0% tests passed, 1 tests failed out of 1",
      "",
      "The following tests FAILED:",
      "\t  1 - kettle_unit (Failed)",
      "Errors while running CTest",
      "$ ./build/kettle_spout_tests",
      "",
      ...catch2Block("spout pours", "tests/spout.cpp:8", "tests/spout.cpp:12"),
    );
    expect(ids(log)).toEqual(["kettle_unit", "spout pours"]);
  });
  it("green: CTest and Catch2 both passing yield nothing", () => {
    const log = lines(
      " 1/1 Test  #1: kettle_unit ......................   Passed    0.12 sec",
      "",
      "100% tests passed, 0 tests failed out of 1",
      "",
      "All tests passed (12 assertions in 4 test cases)",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("CTest on Windows: a list mixing (Not Run), (SEGFAULT), (Failed) and an exit code, CRLF endings", () => {
  const crlf = (...l: string[]) => `${l.join("\r\n")}\r\n`;
  it("every entry is a failure, once, with its result line", () => {
    const log = crlf(
      "2/4 Test #2: kettle_pour ......................***Exception: SegFault  0.02 sec",
      "Unable to find executable: C:/src/kettle/build/Debug/kettle_lid.exe",
      "3/4 Test #3: kettle_lid .......................***Not Run   0.00 sec",
      "4/4 Test #4: kettle_spout .....................***Failed    0.03 sec",
      "",
      "25% tests passed, 3 tests failed out of 4",
      "",
      "The following tests FAILED:",
      "\t  2 - kettle_pour (SEGFAULT)",
      "\t  3 - kettle_lid (Not Run)",
      "\t  4 - kettle_spout (Failed)",
      "Errors while running CTest",
    );
    expect(ids(log)).toEqual(["kettle_pour", "kettle_lid", "kettle_spout"]);
  });
  it("a tail of the list, its heading above the excerpt, with an NTSTATUS exit code", () => {
    const log = crlf(
      "\t  3 - kettle_lid (Not Run)",
      "\t  5 - kettle_handle (Exit code 0xc0000135)",
      "Errors while running CTest",
    );
    expect(ids(log)).toEqual(["kettle_lid", "kettle_handle"]);
  });
  it("must not fire: the did-not-run list's (Disabled) entries, and numbered notes with no CTest line", () => {
    expect(
      ids(
        crlf(
          "The following tests did not run:",
          "\t  6 - kettle_steam (Disabled)",
          "",
          "100% tests passed, 0 tests failed out of 5",
        ),
      ),
    ).toEqual([]);
    expect(
      ids(
        crlf(
          "Known issues:",
          "\t  2 - kettle pours slowly (Failed)",
          "\t  3 - lid sticks (Not Run)",
          "Fixed in 2.1.",
        ),
      ),
    ).toEqual([]);
  });
});

describe("go test -count=N: the same test failing in every run", () => {
  const run = (pkg: string, msg: string, times: number) =>
    Array.from({ length: times }, () => ["--- FAIL: TestPour (0.00s)", `    pour_test.go:14: ${msg}`])
      .flat()
      .concat(["FAIL", `FAIL\texample.com/kettle/${pkg}\t0.004s`]);
  it("is one failure, at its line", () => {
    const r = parseLog(
      lines("$ go test -count=3 ./kettle/", ...run("kettle", "level = 0, want 250", 3), "FAIL"),
    );
    expect(r.failures.map((f) => [f.test, f.line])).toEqual([["example.com/kettle/kettle.TestPour", 14]]);
  });
  it("a test failing once then passing (-v) is one failure, not two and not none", () => {
    const log = lines(
      "=== RUN   TestPour",
      "    pour_test.go:14: level = 0, want 250",
      "--- FAIL: TestPour (0.00s)",
      "=== RUN   TestPour",
      "--- PASS: TestPour (0.00s)",
      "FAIL",
      "FAIL\texample.com/kettle/kettle\t0.004s",
    );
    expect(ids(log)).toEqual(["example.com/kettle/kettle.TestPour"]);
  });
  it("must keep apart: the same test name failing in two packages is two failures", () => {
    const log = lines(...run("kettle", "level = 0, want 250", 2), ...run("spout", "spout closed", 2), "FAIL");
    expect(ids(log)).toEqual(["example.com/kettle/kettle.TestPour", "example.com/kettle/spout.TestPour"]);
  });
  it("green: every run passing yields nothing", () => {
    const log = lines(
      "=== RUN   TestPour",
      "--- PASS: TestPour (0.00s)",
      "=== RUN   TestPour",
      "--- PASS: TestPour (0.00s)",
      "PASS",
      "ok  \texample.com/kettle/kettle\t0.004s",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("PHPUnit: one entry with no diff lines", () => {
  it("is the test's failure, placed at its frame", () => {
    const log = lines(
      "There was 1 failure:",
      "",
      "1) Kettle\\Tests\\PourTest::testFillsCup",
      "Failed asserting that two arrays are equal.",
      "",
      "/home/ci/kettle/tests/PourTest.php:21",
      "",
      "FAILURES!",
      "Tests: 4, Assertions: 6, Failures: 1.",
    );
    expect(failures(log)).toEqual([["Kettle\\Tests\\PourTest::testFillsCup", "tests/PourTest.php", 21]]);
  });
  it("must not fire: a numbered method list in a green run's output", () => {
    const log = lines(
      "Slowest tests:",
      "1) Kettle\\Tests\\PourTest::testFillsCup",
      "",
      "OK (4 tests, 6 assertions)",
    );
    expect(ids(log)).toEqual([]);
  });
});

describe("go: a panic's frame under a checkout the log does not name (a reporter's machine)", () => {
  const panicLog = (fnLine: string, fileLine: string) =>
    lines(
      "--- FAIL: TestPour (0.00s)",
      "panic: runtime error: index out of range [3] with length 3 [recovered]",
      "\tpanic: runtime error: index out of range [3] with length 3",
      "",
      "goroutine 7 [running]:",
      "testing.tRunner.func1.2({0x5e2a40, 0xc0000a4018})",
      "\t/usr/local/go/src/testing/testing.go:1545 +0x238",
      "panic({0x5e2a40?, 0xc0000a4018?})",
      "\t/usr/local/go/src/runtime/panic.go:914 +0x21f",
      fnLine,
      fileLine,
      "testing.tRunner(0xc000007860, 0x60c2a8)",
      "\t/usr/local/go/src/testing/testing.go:1595 +0xff",
      "FAIL\tgithub.com/kettleco/kettle/spout\t0.012s",
      "FAIL",
    );
  const place = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
  it("is placed from the repository's directory on, when the directory ends with the repository and package", () => {
    const log = panicLog(
      "github.com/kettleco/kettle/spout.TestPour(0xc000007860)",
      "\t/Users/me/dev/kettle/spout/pour_test.go:14 +0x1d",
    );
    expect(place(log)).toEqual([["github.com/kettleco/kettle/spout.TestPour", "spout/pour_test.go", 14]]);
  });
  it("a helper in another package of the same repository, and Go's own golang.org/x repositories", () => {
    const log = panicLog(
      "github.com/kettleco/kettle/internal/level.Read(...)",
      "\tC:/src/kettle/internal/level/read.go:9 +0x1d",
    );
    expect(place(log)).toEqual([["github.com/kettleco/kettle/spout.TestPour", "internal/level/read.go", 9]]);
    const x = panicLog(
      "golang.org/x/text/language.regionDist(0x139005a00cf0165)",
      "\t/home/me/text/language/match.go:676 +0x13b",
    ).replace("github.com/kettleco/kettle/spout", "golang.org/x/text/language");
    expect(place(x)).toEqual([["golang.org/x/text/language.TestPour", "language/match.go", 676]]);
  });
  it("must not place: another repository's package, a vendored copy, or a directory that does not end so", () => {
    const other = panicLog(
      "github.com/pourlib/flow/spout.Pour(...)",
      "\t/Users/me/dev/flow/spout/pour.go:14 +0x1d",
    );
    const vendored = panicLog(
      "github.com/kettleco/kettle/spout.TestPour(0xc000007860)",
      "\t/Users/me/app/vendor/github.com/kettleco/kettle/spout/pour_test.go:14 +0x1d",
    );
    const elsewhere = panicLog(
      "github.com/kettleco/kettle/spout.TestPour(0xc000007860)",
      "\t/tmp/build-1234/pour_test.go:14 +0x1d",
    );
    for (const log of [other, vendored, elsewhere])
      expect(place(log)).toEqual([["github.com/kettleco/kettle/spout.TestPour", null, null]]);
  });
});
