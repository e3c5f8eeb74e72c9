/**
 * hold37's dev classes (issue 10, f10u): minitest's numbered skips whose verbose entry prints a `Failure:` block,
 * testthat 0.x's `(@file#line)` entries and its `(unknown)` name for code outside `test_that()`, Nim's `[FAILED]`
 * lines right above nimble's failed-program line, WebdriverIO 4's closing report, and hspec's rerun line for an
 * entry the paste cut. Each rule with the logs it must leave alone. The logs are written here for a small kettle
 * project of our own, in the runners' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const lines = (...l: string[]) => l.join("\n");
const failures = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const ids = (log: string) => parseLog(log).failures.map((f) => f.test);

describe("minitest: a numbered skip's entry that prints a Failure: block", () => {
  const run = (...entries: string[]) =>
    lines(
      "Run options: -v --seed 4242",
      "",
      "# Running:",
      "",
      "KettleTest#test_boils = 0.00 s = .",
      "KettleTest#test_pours_half = 0.00 s = S",
      "KettleTest#test_whistles = 0.00 s = .",
      "",
      "Finished in 0.012345s, 243.0000 runs/s, 162.0000 assertions/s.",
      "",
      ...entries,
    );
  const skipEntry = [
    "  1) Skipped:",
    "KettleTest#test_pours_half [/home/me/kettle/test/kettle_test.rb:21]:",
    "lid not modelled yet",
    "",
  ];
  const recorded = (name: string) => [
    "Failure:",
    `${name} [/home/me/kettle/test/kettle_test.rb:21]:`,
    "Expected: 250",
    "  Actual: 0",
    "",
  ];

  it("the block naming the skipped test is the skip's record: a green run", () => {
    const log = run(
      ...skipEntry,
      ...recorded("KettleTest#test_pours_half"),
      "3 runs, 2 assertions, 0 failures, 0 errors, 1 skips",
    );
    expect(failures(log)).toEqual([]);
  });

  it("the same when the log ends inside the block's name", () => {
    const log = run(...skipEntry, "Failure:", "KettleTest#test_pours_ha");
    expect(failures(log)).toEqual([]);
  });

  it("an unnumbered block naming another test is still a failure", () => {
    const log = run(
      ...skipEntry,
      ...recorded("KettleTest#test_whistles"),
      "3 runs, 2 assertions, 1 failures, 0 errors, 1 skips",
    );
    expect(failures(log)).toEqual([["KettleTest#test_whistles", "test/kettle_test.rb", 21]]);
  });

  it("a numbered failure after the skip is a failure", () => {
    const log = run(
      ...skipEntry,
      "  2) Failure:",
      "KettleTest#test_whistles [/home/me/kettle/test/kettle_test.rb:30]:",
      "Expected: true",
      "  Actual: false",
      "",
      "3 runs, 2 assertions, 1 failures, 0 errors, 1 skips",
    );
    expect(failures(log)).toEqual([["KettleTest#test_whistles", "test/kettle_test.rb", 30]]);
  });

  it("Rails' unnumbered Failure: block with no skip above it is a failure (even naming a test skipped elsewhere)", () => {
    const log = lines(
      "Running via Spring preloader in process 4242",
      "Run options: --seed 4242",
      "",
      "# Running:",
      "",
      "F",
      "",
      "Failure:",
      "KettleTest#test_pours_half [/home/me/kettle/test/models/kettle_test.rb:21]:",
      "Expected: 250",
      "  Actual: 0",
      "",
      "bin/rails test test/models/kettle_test.rb:21",
      "",
      "Finished in 0.101010s, 9.9000 runs/s, 9.9000 assertions/s.",
      "1 runs, 1 assertions, 1 failures, 0 errors, 0 skips",
    );
    expect(failures(log)).toEqual([["KettleTest#test_pours_half", "test/models/kettle_test.rb", 21]]);
  });
});

describe("testthat 0.x: `(@file#line)` entries and `(unknown)`", () => {
  const check = (...body: string[]) =>
    lines(
      "* checking tests ...",
      "  Running ‘testthat.R’",
      " ERROR",
      "Running the tests in ‘tests/testthat.R’ failed.",
      "Last 13 lines of output:",
      ...body,
      "  ",
      "  Error: testthat unit tests failed",
      "  Execution halted",
    );

  it("`N. Failure (@file#line): name ----` names the test, placed at the line", () => {
    const log = check(
      `  1. Failure (@test-kettle.R#24): kettle pours half ${"-".repeat(30)}`,
      "  pour(k, 0.5) not equal to 250",
      "  ",
      `  testthat results ${"=".repeat(60)}`,
      "  OK: 12 SKIPPED: 0 FAILED: 1",
      "  1. Failure (@test-kettle.R#24): kettle pours half ",
    );
    expect(failures(log)).toEqual([
      ["tests/testthat/test-kettle.R > kettle pours half", "tests/testthat/test-kettle.R", 24],
    ]);
  });

  it("`(unknown)` (code outside test_that) is its file's failure, one per file", () => {
    const log = check(
      `  2. Failure (at test-lid.R#8): (unknown) ${"-".repeat(30)}`,
      "  lid$closed isn't true",
      "  ",
      `  testthat results ${"=".repeat(60)}`,
      "  OK: 30 SKIPPED: 0 FAILED: 2",
      "  1. Failure (at test-kettle.R#3): (unknown) ",
      "  2. Failure (at test-lid.R#8): (unknown) ",
    );
    const f = parseLog(log).failures.map((x) => [x.test, x.file, x.line]);
    expect(f).toHaveLength(2);
    expect(f).toEqual(
      expect.arrayContaining([
        [null, "tests/testthat/test-kettle.R", 3],
        [null, "tests/testthat/test-lid.R", 8],
      ]),
    );
  });

  it("a named 0.x entry keeps its name; a `FAILED: 0` count keeps none", () => {
    const named = check(
      `  testthat results ${"=".repeat(60)}`,
      "  OK: 5 SKIPPED: 0 FAILED: 1",
      "  1. Failure (at test-kettle.R#5): boils at sea level ",
    );
    expect(ids(named)).toEqual(["tests/testthat/test-kettle.R > boils at sea level"]);
    const green = lines(
      "  1. Failure (@test-kettle.R#5): boils at sea level ",
      `  testthat results ${"=".repeat(60)}`,
      "  OK: 6 SKIPPED: 0 FAILED: 0",
    );
    expect(failures(green)).toEqual([]);
  });

  it("a `(@file#line)` entry of another language's file is not testthat's", () => {
    expect(failures(lines("1. Failure (@kettle.test.js#5): boils", "OK: 5 SKIPPED: 0 FAILED: 1"))).toEqual(
      [],
    );
  });
});

describe("Nim: `[FAILED]` lines right above nimble's failed program", () => {
  const nimble = (...output: string[]) =>
    lines(
      "  Executing task test in /home/me/kettle/kettle.nimble",
      "  Verifying dependencies for kettle@0.1.0",
      "  Compiling /home/me/kettle/tests/tkettle.nim (from package kettle) using c backend",
      ...output,
    );

  it("tests outside a suite, no check line: each `[FAILED]` title is a failure, the program none of its own", () => {
    const log = nimble(
      "[OK] boils at sea level",
      "[FAILED] pours half a cup",
      "[FAILED] whistles when boiling",
      "Error: execution of an external program failed: '/home/me/kettle/tests/tkettle '",
      "  Compiling /home/me/kettle/tests/tlid.nim (from package kettle) using c backend",
      "[OK] lid closes",
    );
    expect(failures(log)).toEqual([
      ["pours half a cup", null, null],
      ["whistles when boiling", null, null],
    ]);
  });

  it("a retry loop's `[FAILED]` lines with no nimble failure line are nothing", () => {
    const log = lines(
      "[FAILED] db not ready, retrying",
      "[FAILED] db not ready, retrying",
      "[OK] db ready",
      "Starting kettle service",
    );
    expect(failures(log)).toEqual([]);
  });

  it("`[FAILED]` lines not right above the failure line do not belong to the program", () => {
    const log = nimble(
      "[FAILED] db not ready, retrying",
      "connecting to db at 127.0.0.1",
      "Error: execution of an external program failed: '/home/me/kettle/tests/tkettle'",
    );
    expect(ids(log)).not.toContain("db not ready, retrying");
  });
});

describe("WebdriverIO 4's closing report", () => {
  const epilogue = (...tail: string[]) => lines("=".repeat(66), "Number of specs: 3", "", ...tail);

  it("an entry failing in two browsers is one failure, named by its title", () => {
    const log = epilogue(
      "11 passing (42.10s)",
      "2 failing",
      "",
      "1) kettle page pours half a cup:",
      "expected 0 to equal 250",
      "running chrome (v120)",
      "running firefox",
      "AssertionError: expected 0 to equal 250",
      "    at Context.<anonymous> (/home/runner/work/kettle/kettle/test/specs/pour.e2e.js:14:22)",
      "",
    );
    expect(failures(log)).toEqual([["kettle page pours half a cup", "test/specs/pour.e2e.js", 14]]);
  });

  it("two entries are two failures; the lines after the last entry's stack are not its", () => {
    const log = epilogue(
      "10 passing (40.00s)",
      "2 failing",
      "",
      "1) kettle page pours half a cup:",
      "expected 0 to equal 250",
      "running chrome",
      "AssertionError: expected 0 to equal 250",
      "    at Context.<anonymous> (/home/runner/work/kettle/kettle/test/specs/pour.e2e.js:14:22)",
      "",
      "2) kettle page whistles:",
      "element not found",
      "running chrome",
      "Error: element not found",
      "    at Context.<anonymous> (/home/me/kettle/test/specs/whistle.e2e.js:9:5)",
      "",
      "npm ERR! Test failed.  See above for more details.",
    );
    expect(ids(log)).toEqual(["kettle page pours half a cup", "kettle page whistles"]);
  });

  it("a green report is no failure", () => {
    expect(failures(epilogue("12 passing (20.31s)", "1 pending", ""))).toEqual([]);
  });

  it("numbered `title:` lines with no failing count under `Number of specs:` are not entries", () => {
    const log = epilogue(
      "12 passing (20.31s)",
      "",
      "1) first step:",
      "open the lid",
      "2) second step:",
      "pour",
    );
    expect(failures(log)).toEqual([]);
  });
});

describe("hspec: the rerun line of an entry the paste cut", () => {
  const entry = (n: number, line: number, title: string) => [
    "  test/KettleSpec.hs:" + line + ":7: ",
    `  ${n}) Kettle, pour, ${title}`,
    "       expected: 250",
    "        but got: 0",
    "",
    `  To rerun use: --match "/Kettle/pour/${title}/"`,
    "",
  ];

  it("names the cut entry's test from its --match path, with no place", () => {
    const log = lines(
      "        but got: 0",
      "",
      '  To rerun use: --match "/Kettle/pour/pours a \\"full\\" cup/"',
      "",
      ...entry(2, 14, "pours half a cup"),
      "Randomized with seed 4242",
      "",
      "12 examples, 2 failures",
    );
    expect(failures(log)).toEqual([
      ['Kettle, pour, pours a "full" cup', null, null],
      ["Kettle, pour, pours half a cup", "test/KettleSpec.hs", 14],
    ]);
  });

  it("a rerun line under its own entry adds nothing", () => {
    const log = lines(
      "Failures:",
      "",
      ...entry(1, 10, "pours a full cup"),
      ...entry(2, 14, "pours half a cup"),
      "12 examples, 2 failures",
    );
    expect(ids(log)).toEqual(["Kettle, pour, pours a full cup", "Kettle, pour, pours half a cup"]);
  });
});
