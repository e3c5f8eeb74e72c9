/**
 * Runners the hold36 test half showed missing (issue 10, branch f10t): busted blocks pasted without their count line
 * (behind a build service's elapsed-time prefix), TestCafe's spec reporter, zig 0.14+'s build runner, deno's 2018
 * harness, a Failsafe recap entry naming a class-level hook. Each rule reads the
 * runner's documented output and has a case where it must not fire. The logs are written here, not copied from the
 * corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const places = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const lines = (...l: string[]) => l.join("\n");

describe("busted blocks without their count line", () => {
  const block = (prefix: string) =>
    lines(
      ...[
        "Failure -> spec/kettle_spec.lua @ 12",
        "kettle boils at sea level",
        "spec/kettle_spec.lua:14: Expected objects to be equal.",
        "Passed in:",
        "(number) 90",
        "Expected:",
        "(number) 100",
        "",
        "stack traceback:",
        "\tspec/kettle_spec.lua:14: in function <spec/kettle_spec.lua:12>",
        "",
        "",
        "Error -> spec/pour_spec.lua @ 4",
        "pour fills a cup",
        "spec/pour_spec.lua:6: attempt to index a nil value (local 'cup')",
        "",
        "stack traceback:",
        "\tspec/pour_spec.lua:6: in function <spec/pour_spec.lua:4>",
        "",
      ].map((l) => prefix + l),
    );

  it("reads a block whose Lua traceback follows its message, behind a build service's prefix or not", () => {
    const want = [
      ["kettle boils at sea level", "spec/kettle_spec.lua", 12],
      ["pour fills a cup", "spec/pour_spec.lua", 4],
    ];
    expect(places(block(""))).toEqual(want);
    expect(places(block("[  123s] "))).toEqual(want);
  });

  it("does not read a block with no Lua traceback, or one naming no Lua spec file", () => {
    const noTrace = lines(
      "Failure -> spec/kettle_spec.lua @ 12",
      "kettle boils",
      "it did not",
      "",
      "next step",
      "",
    );
    expect(ids(noTrace)).toEqual([]);
    const notLua = lines(
      "Failure -> checks/kettle.py @ 12",
      "kettle boils",
      "it did not",
      "",
      "stack traceback:",
      "\tchecks/kettle.py:12: in function <x>",
      "",
    );
    expect(ids(notLua)).toEqual([]);
  });

  it("does not read an uncounted block in a log whose busted count line says green", () => {
    const green = lines(
      "●●●",
      "3 successes / 0 failures / 0 errors / 0 pending : 0.01 seconds",
      "",
      block(""),
    );
    expect(ids(green)).toEqual([]);
  });
});

describe("TestCafe's spec reporter", () => {
  const run = (mark: string, count: string) =>
    lines(
      " Running tests in:",
      " - Chrome 120.0.0.0 / Ubuntu 22.04",
      "",
      " Kettle page",
      ` ${mark} pours a cup`,
      "",
      "   1) AssertionError: expected 90 to deeply equal 100",
      "",
      "      Browser: Chrome 120.0.0.0 / Ubuntu 22.04",
      "",
      " ✓ whistles",
      "",
      " Lid",
      " ✓ clicks shut",
      "",
      "",
      ` ${count}`,
    );

  it("names a failed test by its fixture and title, with Unicode or Windows marks", () => {
    expect(ids(run("✖", "1/3 failed (2s)"))).toEqual(["Kettle page > pours a cup"]);
    expect(ids(run("×", "1/3 failed (2s)"))).toEqual(["Kettle page > pours a cup"]);
  });

  it("reports nothing for a green run, nor for a `×` line without TestCafe's heading", () => {
    expect(ids(run("✓", "3 passed (2s)"))).toEqual([]);
    expect(ids(lines(" Kettle page", " × pours a cup", " ✓ whistles"))).toEqual([]);
  });
});

describe("zig 0.14+ build runner", () => {
  const red = (q: string) =>
    lines(
      "test",
      "└─ run test 24 pass, 1 fail (25 total)",
      `error: ${q}test.kettle.test.boil${q} failed:`,
      "       expected 100, found 90",
      "failed command: ./.zig-cache/o/0123/test --cache-dir=./.zig-cache --seed=0x1 --listen=-",
      "",
      "Build Summary: 7/9 steps succeeded (1 failed); 24/25 tests passed (1 failed)",
      "test transitive failure",
      "",
      "error",
    );

  it("reads `error: 'test.x' failed:` at the margin as the test's failure, not a rustc diagnostic", () => {
    const r = parseLog(red("'"));
    expect(r.failures.map((f) => [f.format, f.test, f.category])).toEqual([
      ["zig", "test.kettle.test.boil", "test"],
    ]);
    expect(r.failures[0]!.message).toContain("expected 100, found 90");
  });

  it("takes HTML's escaped quotes of a copied web page as the quotes", () => {
    expect(ids(red("&#x27;"))).toEqual(["test.kettle.test.boil"]);
  });

  it("counts the parenthesized summary, and a green one gives nothing", () => {
    expect(parseLog(red("'")).counts.zig).toMatchObject({ passed: 24, failed: 1 });
    const green = lines("Build Summary: 9/9 steps succeeded; 25/25 tests passed", "");
    expect(ids(green)).toEqual([]);
  });

  it("leaves a rustc error that names no zig test to cargo", () => {
    const rustc = lines(
      "error[E0425]: cannot find value `x` in this scope",
      "  --> src/lib.rs:3:5",
      "",
      "error: 'build' failed: could not compile",
    );
    expect(parseLog(rustc).failures.every((f) => f.format !== "zig")).toBe(true);
  });
});

describe("deno's 2018 harness", () => {
  it("names the test a `Test FAIL` line names after its progress line", () => {
    const log = lines(
      "1/3 +0 -0: tests_kettle",
      "2/3 +1 -0: tests_pour",
      "ERROR:",
      "Test FAIL tests_pour",
      "deno(123,0x70000) malloc: *** error for object 0x1: pointer being freed was not allocated",
    );
    expect(ids(log)).toEqual(["tests_pour"]);
  });

  it("reads no `Test FAIL` line without the harness's progress line naming that test", () => {
    expect(ids(lines("Test FAIL tests_pour", "bye"))).toEqual([]);
    expect(ids(lines("1/3 +0 -0: tests_kettle", "Test FAIL tests_pour"))).toEqual([]);
    expect(ids(lines("1/2 +0 -0: tests_kettle", "2/2 +1 -0: tests_pour", "DONE"))).toEqual([]);
  });
});

describe("Surefire/Failsafe recap naming a class-level hook", () => {
  const recap = (entry: string) =>
    lines(
      "[INFO] Results:",
      "[INFO] ",
      "[ERROR] Errors: ",
      `[ERROR]   ${entry}`,
      "[INFO] ",
      "[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0",
      "[INFO] ",
      "[INFO] BUILD SUCCESS",
    );

  it("takes an inherited @BeforeAll's entry as the class's failure, with no place in the base class", () => {
    expect(places(recap("KettleIT>ContainerSupport.beforeAll:56 » Runtime Error while starting"))).toEqual([
      ["KettleIT", null, null],
    ]);
    expect(ids(recap("KettleTest.setUpClass:12 » IllegalState no water"))).toEqual(["KettleTest"]);
  });

  it("keeps an inherited test, and a test whose name only starts like a hook, as tests", () => {
    expect(ids(recap("KettleIT>KettleCases.boils:205 » Runtime no heat"))).toEqual(["KettleIT.boils"]);
    expect(ids(recap("KettleTest.beforeAllowsPour:12 » IllegalState no water"))).toEqual([
      "KettleTest.beforeAllowsPour",
    ]);
  });
});
