/**
 * Log shapes from the dev half's misses left after f10c (issue 10, branch f10d, second pass), each read by a general
 * rule, each with a case where it must not fire. The logs are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const places = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const lines = (...l: string[]) => l.join("\n");

describe("Playwright behind a turborepo task prefix, the paste starting inside a cut block", () => {
  const turbo = (frame: string) =>
    lines(
      ...[
        frame,
        "",
        "    Error Context: test-results/kiln-glaze-chromium/error-context.md",
        "",
        "  2) [webkit] › e2e/kiln/glaze.spec.ts:9:3 › Glaze › fires evenly ─────────────────────────",
        "",
        "    Error: expect(locator).toHaveText(expected) failed",
        "",
        '    Expected: "even"',
        '    Received: "patchy"',
        "",
      ].map((l) => `@pottery/studio:test: ${l}`),
    );

  it("takes the spec's repository path from a frame above the first header, under the workspace directory", () => {
    expect(ids(turbo("        at studio-checkout/packages/studio/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "packages/studio/e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
  });
  it("keeps a frame's leading directories that are no checkout above a workspace directory", () => {
    expect(ids(turbo("        at web/tests/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "web/tests/e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
    expect(ids(turbo("        at home/ci/packages/studio/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "home/ci/packages/studio/e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
  });
  it("does not take a frame of another file, or one under node_modules", () => {
    expect(ids(turbo("        at studio-checkout/packages/studio/e2e/kiln/clay.spec.ts:14:7"))).toEqual([
      "e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
    expect(ids(turbo("        at node_modules/x/packages/studio/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
  });
});

describe("pytest: a failure block cut before its `file:N:` line", () => {
  const block = (name: string, file: string | null, line: number) => [
    `${"_".repeat(30)} ${name} ${"_".repeat(30)}`,
    "",
    `    def ${name}():`,
    ">       assert brew() == 3",
    "E       assert 2 == 3",
    "",
    ...(file ? [`${file}:${line}: AssertionError`] : []),
  ];
  it("takes the one test file the section's other blocks ran in", () => {
    const log = lines(
      `${"=".repeat(30)} FAILURES ${"=".repeat(30)}`,
      ...block("test_steep", "tests/test_tea.py", 4),
      ...block("test_pour", "tests/test_tea.py", 9),
      ...block("test_sip", null, 0),
    );
    expect(places(log)).toEqual([
      ["tests/test_tea.py::test_steep", "tests/test_tea.py", 4],
      ["tests/test_tea.py::test_pour", "tests/test_tea.py", 9],
      ["tests/test_tea.py::test_sip", null, null],
    ]);
  });
  it("keeps the bare name when the other blocks ran in two files, or when no other block names one", () => {
    const two = lines(
      `${"=".repeat(30)} FAILURES ${"=".repeat(30)}`,
      ...block("test_steep", "tests/test_tea.py", 4),
      ...block("test_pour", "tests/test_cup.py", 9),
      ...block("test_sip", null, 0),
    );
    expect(ids(two)[2]).toBe("test_sip");
    const alone = lines(`${"=".repeat(30)} FAILURES ${"=".repeat(30)}`, ...block("test_sip", null, 0));
    expect(ids(alone)).toEqual(["test_sip"]);
  });
});

describe("PHPUnit's count line pasted without the banner", () => {
  it("reads a red count line as counts, the run red with nothing named", () => {
    const r = parseLog(lines("Tests: 12, Assertions: 30, Errors: 1, Failures: 4.", ""));
    expect(r.failures).toEqual([]);
    expect(r.counts.phpunit?.passed).toBe(7);
    expect(r.unnamedFailuresIn).toEqual(["phpunit"]);
  });
  it("reads a green one (issues only) as passed, with nothing red", () => {
    const r = parseLog(
      lines("OK, but there were issues!", "Tests: 6, Assertions: 9, PHPUnit Deprecations: 2.", ""),
    );
    expect(r.failures).toEqual([]);
    expect(r.counts.phpunit?.passed).toBe(6);
    expect(r.unnamedFailuresIn).toBeUndefined();
  });
  it("leaves jest's and Pest's `Tests:` lines alone", () => {
    const jest = parseLog(lines("Tests:       1 failed, 3 passed, 4 total", "Time:        1.2 s", ""));
    expect(jest.counts.phpunit).toBeUndefined();
    const pest = parseLog(lines("  Tests:    1 failed, 2 passed (3 assertions)", "  Duration: 0.12s", ""));
    expect(pest.counts.phpunit).toBeUndefined();
  });
});

describe("go test run twice at one shell prompt, the second run cut before its package line", () => {
  const second = [
    "--- FAIL: TestBrew (0.00s)",
    "    --- FAIL: TestBrew/oolong (0.01s)",
    "        brew_test.go:12: too weak",
    "[...]",
  ];
  it("takes the package the first run at the same prompt printed alone", () => {
    const log = lines(
      "$ go test",
      "PASS",
      "ok      example.com/tea/brew    0.41s",
      "$ go test -count=1 -coverprofile=c.out",
      ...second,
    );
    expect(places(log)).toEqual([["example.com/tea/brew.TestBrew/oolong", "brew_test.go", 12]]);
  });
  it("keeps both runs' failures, each under its package, once", () => {
    const log = lines(
      "$ go test",
      "--- FAIL: TestSteep (0.00s)",
      "    steep_test.go:8: cold",
      "FAIL",
      "FAIL    example.com/tea/brew    0.12s",
      "$ go test -run Brew",
      ...second,
    );
    expect(ids(log)).toEqual(["example.com/tea/brew.TestSteep", "example.com/tea/brew.TestBrew/oolong"]);
  });
  it("does not carry a package across another command, another directory, or a run of several packages", () => {
    const cd = lines(
      "$ go test",
      "ok      example.com/tea/brew    0.41s",
      "$ cd ../cup",
      "$ go test",
      ...second,
    );
    expect(ids(cd)).toEqual(["TestBrew/oolong"]);
    const dirs = lines(
      "me@box:~/tea/brew$ go test",
      "ok      example.com/tea/brew    0.41s",
      "me@box:~/tea/cup$ go test",
      ...second,
    );
    expect(ids(dirs)).toEqual(["TestBrew/oolong"]);
    const many = lines(
      "$ go test ./...",
      "ok      example.com/tea/brew    0.41s",
      "ok      example.com/tea/cup    0.21s",
      "$ go test ./...",
      ...second,
    );
    expect(ids(many)).toEqual(["TestBrew/oolong"]);
    const twoPkgs = lines(
      "$ go test",
      "ok      example.com/tea/brew    0.41s",
      "ok      example.com/tea/cup    0.21s",
      "$ go test",
      ...second,
    );
    expect(ids(twoPkgs)).toEqual(["TestBrew/oolong"]);
  });
});

describe("CTest: a failed-list entry without its heading, confirmed by the test's own `N: ` output", () => {
  const out =
    "    7: kettle_test: /builddir/build/BUILD/kettle-1.2/src/boil/test.c:41: pour: Assertion `t > 90' failed.";
  it("reads the entry whose number's output named it, placed at the output's failed assert", () => {
    expect(places(lines(out, "", "      7 - kettle_test (Timeout)", ""))).toEqual([
      ["kettle_test", "src/boil/test.c", 41],
    ]);
    const cmd = lines(
      "3: Test command: /build/tests/ring_test",
      "3: ring: 2 != 3",
      "",
      "\t  3 - ring_test (Failed)",
    );
    expect(ids(cmd)).toEqual(["ring_test"]);
  });
  it("reads nothing without that output, with another number's, another name's, or a status CTest does not print", () => {
    expect(ids(lines("      7 - kettle_test (Timeout)", ""))).toEqual([]);
    expect(ids(lines(out.replace("    7:", "    8:"), "", "      7 - kettle_test (Timeout)"))).toEqual([]);
    expect(ids(lines(out, "", "      7 - teapot_test (Timeout)"))).toEqual([]);
    expect(ids(lines("2: apples: picked in May", "  2 - apples (Fresh)"))).toEqual([]);
  });
});

describe("automake: the Check library's lines in a test-suite.log section", () => {
  const section = (body: string[]) =>
    lines(
      "=========================================",
      "   kettle 1.2: tests/test-suite.log",
      "=========================================",
      "",
      "# TOTAL: 1",
      "# PASS:  0",
      "# FAIL:  1",
      "",
      "FAIL: check_boil",
      "================",
      "",
      ...body,
    );
  it("places a section's test at the Check library's first failure line", () => {
    const log = section([
      "Running suite(s): boil",
      "50%: Checks: 2, Failures: 1, Errors: 0",
      "check_boil.c:88:F:core:test_temp:0: Assertion 't == 100' failed",
    ]);
    expect(places(log)).toEqual([["check_boil", "check_boil.c", 88]]);
  });
  it("takes no place from a passing Check line or a line that only looks like one", () => {
    const log = section(["check_boil.c:12:P:core:test_ok:0: Passed", "note: x.c:3:F: not Check's"]);
    expect(places(log)).toEqual([["check_boil", null, null]]);
  });
});

describe("stack's summary of a failed Haskell test suite", () => {
  const head = [
    "Test suite failure for package teapot-0.3.1",
    "    teapot-test:  exited with: ExitFailure 1",
    "",
  ];
  const tree = (status: string) => [
    "teapot",
    "  Pour",
    `    fills the cup:   ${status}`,
    "  Brew",
    "    steeps:          OK",
  ];
  it("is the failure when no line names a failing test (the suite's output cut, or all OK)", () => {
    expect(ids(lines(...head, ...tree("OK")))).toEqual(["teapot-test"]);
    expect(ids(lines(...head, "Logs printed to console", ""))).toEqual(["teapot-test"]);
  });
  it("gives way to the tests the output names, and is not read without its heading", () => {
    expect(
      ids(lines(...head, ...tree("FAIL"), "      expected 3, got 2", "", "1 out of 2 tests failed (0.01s)")),
    ).toEqual(["teapot.Pour.fills the cup"]);
    expect(ids(lines("    teapot-test:  exited with: ExitFailure 1", ""))).toEqual([]);
  });
  it("is named once when cabal's own suite line said FAIL too", () => {
    const log = lines("Test suite teapot-test: RUNNING...", "Test suite teapot-test: FAIL", ...head);
    expect(ids(log)).toEqual(["teapot-test"]);
  });
});

describe("OCaml oasis's failed test lines", () => {
  const fails =
    "W: Test 'kettle' fails: Command '/build/kettle-1.0/_build/tests/test.native' terminated with error code 2";
  it("reads the test section's name, placed at the uncaught exception above it", () => {
    const log = lines(
      'Fatal error: exception File "tests/test_pour.ml", line 41, characters 2-8: Assertion failed',
      fails,
      'E: Failure("Tests had a 100.00% failure rate")',
    );
    expect(places(log)).toEqual([["kettle", "tests/test_pour.ml", 41]]);
    const assertFailure = lines('Fatal error: exception Assert_failure("tests/test_pour.ml", 12, 4)', fails);
    expect(places(assertFailure)).toEqual([["kettle", "tests/test_pour.ml", 12]]);
  });
  it("leaves an exception with no oasis line alone, and places no test at another test's exception", () => {
    expect(
      ids(
        lines('Fatal error: exception File "tests/test_pour.ml", line 41, characters 2-8: Assertion failed'),
      ),
    ).toEqual([]);
    const two = lines(
      'Fatal error: exception File "tests/test_pour.ml", line 41, characters 2-8: Assertion failed',
      fails,
      "W: Test 'lid' fails: Command 'lid.native' terminated with error code 1",
    );
    expect(places(two)).toEqual([
      ["kettle", "tests/test_pour.ml", 41],
      ["lid", null, null],
    ]);
  });
  it("is not read from an ordinary warning", () => {
    expect(ids(lines("W: Test 'kettle' is slow", "W: Field 'Test' is deprecated"))).toEqual([]);
  });
});
