/**
 * hold38's test-half classes (issue 10, scored once on both halves, so tainted now): Catch2's `-w NoAssertions`
 * failure (`No assertions in section 'x'`, no `FAILED:` line), hspec 1.x's failure list with its ` FAILED` marks,
 * TestCafe's heading at the margin and its screenshot mark wrapped onto the next line, WebdriverIO 4's epilogue cut
 * above `Number of specs:` (its stack quoted behind `> `), and `zig build test` whose binary crashed in a named test.
 * Each rule with the logs it must leave alone. The logs are written here for a small greenhouse project of our own, in
 * the runners' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const lines = (...l: string[]) => l.join("\n");
const failures = (log: string) => parseLog(log).failures.map((f) => [f.format, f.test, f.file, f.line]);

const DASHES = "-".repeat(79);
const DOTS = ".".repeat(79);
const EQUALS = "=".repeat(79);

describe("Catch2: -w NoAssertions fails a section that asserted nothing", () => {
  const head = [
    "~".repeat(79),
    "greenhouse_tests is a Catch v2.13.10 host application.",
    "Run with -? for options",
    "",
  ];

  it("a section's `No assertions in section` is the failure of the test case and its section", () => {
    const log = lines(
      ...head,
      DASHES,
      "greenhouse",
      "  waters the ferns",
      DASHES,
      "tests/greenhouse.cpp:14",
      DOTS,
      "",
      "",
      "No assertions in section 'waters the ferns'",
      "",
      EQUALS,
      "test cases: 2 | 1 passed | 1 failed",
      "assertions: 5 | 4 passed | 1 failed",
      "",
    );
    expect(failures(log)).toEqual([["catch2", "greenhouse/waters the ferns", "tests/greenhouse.cpp", 14]]);
    expect(parseLog(log).counts.catch2).toMatchObject({ passed: 1, failed: 1 });
  });

  it("a test case's `No assertions in test case` names the test case", () => {
    const log = lines(
      ...head,
      DASHES,
      "seeds sprout",
      DASHES,
      "tests/seeds.cpp:3",
      DOTS,
      "",
      "",
      "No assertions in test case 'seeds sprout'",
      "",
      EQUALS,
      "test cases: 1 | 1 failed",
      "assertions: 1 | 1 failed",
    );
    expect(failures(log)).toEqual([["catch2", "seeds sprout", "tests/seeds.cpp", 3]]);
  });

  it("a green Catch2 run yields no failure (counter-example)", () => {
    const log = lines(...head, EQUALS, "All tests passed (12 assertions in 3 test cases)", "");
    expect(failures(log)).toEqual([]);
  });

  it("the line outside a Catch2 block, or naming another section than the block's, fails nothing (counter-example)", () => {
    expect(
      failures(lines("running checks", "No assertions in section 'waters the ferns'", "done", "")),
    ).toEqual([]);
    const log = lines(
      ...head,
      DASHES,
      "greenhouse",
      "  waters the ferns",
      DASHES,
      "tests/greenhouse.cpp:14",
      DOTS,
      "",
      "No assertions in section 'opens the vents'",
      "",
      EQUALS,
      "All tests passed (3 assertions in 1 test case)",
    );
    expect(failures(log)).toEqual([]);
  });
});

describe("hspec 1.x: entries marked ` FAILED` in the failure list", () => {
  it("a specdoc run with nested describes and ` FAILED [n]` items: each numbered entry, without the mark", () => {
    const log = lines(
      "",
      "Greenhouse.Vents",
      "  open",
      "    - opens at noon",
      "    - closes at dusk FAILED [1]",
      "Greenhouse.Ferns",
      "  - are watered FAILED [2]",
      "",
      "1) Greenhouse.Vents.open, closes at dusk FAILED",
      "expected: Closed",
      " but got: Open",
      "",
      "2) Greenhouse.Ferns, are watered FAILED",
      "water level 0 is below 3",
      "",
      "Finished in 0.0012 seconds",
      "3 examples, 2 failures",
      "",
    );
    expect(failures(log)).toEqual([
      ["hspec", "Greenhouse.Vents.open, closes at dusk", null, null],
      ["hspec", "Greenhouse.Ferns, are watered", null, null],
    ]);
  });

  it("a list with no items above it counts once hspec's seed line follows its entries", () => {
    const log = lines(
      "1) Greenhouse.Ferns, with --seed, are watered FAILED",
      'predicate failed on: ["","- fern FAILED [1]","","1) fern FAILED","1 example, 1 failure"]',
      "",
      "Randomized with seed 77",
      "",
    );
    expect(failures(log)).toEqual([["hspec", "Greenhouse.Ferns, with --seed, are watered", null, null]]);
  });

  it("a numbered ` FAILED` line with no hspec line to confirm it is no failure (counter-example)", () => {
    expect(failures(lines("Stages:", "1) fetch sources FAILED", "2) build skipped", ""))).toEqual([]);
    // A seed line above the list (RSpec prints one at the start of its run) confirms nothing below it.
    expect(
      failures(lines("Randomized with seed 4242", "", "1) fetch sources FAILED", "retry later", "")),
    ).toEqual([]);
  });

  it("a green hspec 1.x run yields no failure (counter-example)", () => {
    const log = lines(
      "Greenhouse.Vents",
      "  - opens at noon",
      "  - closes at dusk",
      "",
      "Finished in 0.0009 seconds",
      "2 examples, 0 failures",
      "",
    );
    expect(failures(log)).toEqual([]);
  });
});

describe("TestCafe: heading at the margin, screenshot mark wrapped", () => {
  it("a ` ✖` test whose `(screenshots:` mark wraps is the fixture's test, in a paste cut before the counts", () => {
    const log = lines(
      "Running tests in:",
      " - Firefox 115.0 / Linux 0.0",
      "",
      " Greenhouse page",
      " ✓ shows the ferns",
      " ✖ opens the vents (screenshots:",
      " /home/me/greenhouse/screenshots/2026-11-29_10-00-00/test-2/Firefox_115.0_Linux_0.0/errors/1.png)",
      "",
      "   1) AssertionError: expected 'closed' to deeply equal 'open'",
      "",
      "      Browser: Firefox 115.0 / Linux 0.0",
      "",
    );
    expect(failures(log)).toEqual([["testcafe", "Greenhouse page > opens the vents", null, null]]);
  });

  it("a margin heading with no browser line under it is not TestCafe's (counter-example)", () => {
    const log = lines("Running tests in:", "", " Greenhouse page", " ✖ opens the vents", "");
    expect(failures(log)).toEqual([]);
  });

  it("a green run with its heading at the margin yields no failure (counter-example)", () => {
    const log = lines(
      "Running tests in:",
      " - Chrome 120.0.0.0 / Ubuntu 22.04",
      "",
      " Greenhouse page",
      " ✓ shows the ferns",
      " ✓ opens the vents",
      "",
      "",
      " 2 passed (3s)",
      "",
    );
    expect(failures(log)).toEqual([]);
    expect(parseLog(log).tests.map((t) => [t.id, t.outcome])).toEqual([
      ["Greenhouse page > shows the ferns", "passed"],
      ["Greenhouse page > opens the vents", "passed"],
    ]);
  });
});

describe("WebdriverIO 4's epilogue cut above `Number of specs:`", () => {
  const entry = [
    "1) greenhouse vents open at noon:",
    "",
    "> An element could not be located on the page using the given search parameters.",
    "> running firefox",
    "> Error: An element could not be located on the page using the given search parameters.",
    ">     at Object.Future.wait (/usr/local/lib/node_modules/wdio-mocha-framework/node_modules/fibers/future.js:420:15)",
    ">     at Context.<anonymous> (/Users/me/code/greenhouse-e2e/test/specs/vents.js:9:17)",
    ">     at /usr/local/lib/node_modules/wdio-mocha-framework/node_modules/wdio-sync/build/index.js:569:24",
  ];

  it("mocha's counts at the margin and an entry with its `running <browser>` line: the entry, at the spec's frame", () => {
    const log = lines("3 passing (9.10s)", "1 failing", "", ...entry, "");
    expect(failures(log)).toEqual([
      ["wdio-epilogue", "greenhouse vents open at noon", "test/specs/vents.js", 9],
    ]);
    expect(parseLog(log).counts["wdio-epilogue"]).toMatchObject({ passed: 3, failed: 1 });
  });

  it("the same counts and entry with no `running` line are not WebdriverIO's (counter-example)", () => {
    const log = lines(
      "3 passing (9.10s)",
      "1 failing",
      "",
      "1) greenhouse vents open at noon:",
      "AssertionError: expected 'closed' to equal 'open'",
      "    at Context.<anonymous> (test/vents.test.js:9:17)",
      "",
    );
    expect(parseLog(log).failures.filter((f) => f.format === "wdio-epilogue")).toEqual([]);
  });

  it("a green run's counts at the margin yield no failure (counter-example)", () => {
    expect(failures(lines("4 passing (12.01s)", "", ""))).toEqual([]);
  });
});

describe("zig build test: the test binary crashed in a named test", () => {
  it("`while executing test 'x', the following command terminated with signal` is that test's failure, alone", () => {
    const log = lines(
      "run test: error: while executing test 'greenhouse.test.vents open', the following command terminated with signal 11 (expected exited with code 0):",
      "/home/me/greenhouse/zig-cache/o/0f3a/test --listen=-",
      "Build Summary: 1/3 steps succeeded; 1 failed; 40/64 tests passed; 24 failed",
      "test transitive failure",
      "└─ run test 40/64 passed, 24 failed",
      "   └─ zig test Debug native success 3s MaxRSS:201M",
      "error: the following build command failed with exit code 1:",
      "",
    );
    expect(failures(log)).toEqual([["zig", "greenhouse.test.vents open", null, null]]);
  });

  it("a green `zig build test` yields no failure (counter-example)", () => {
    const log = lines("Build Summary: 3/3 steps succeeded; 64/64 tests passed", "test success", "");
    expect(failures(log)).toEqual([]);
  });

  it("a test that failed on its own is one failure, its `test command failed` line no second (counter-example)", () => {
    const log = lines(
      "run test: error: 'greenhouse.test.ferns watered' failed: /home/me/greenhouse/src/ferns.zig:12:5: 0x1038c8a in test.ferns watered (test)",
      "run test: error: while executing test 'greenhouse.test.ferns watered', the following test command failed:",
      "/home/me/greenhouse/zig-cache/o/0f3a/test --listen=-",
      "Build Summary: 1/3 steps succeeded; 1 failed; 63/64 tests passed; 1 failed",
      "",
    );
    expect(parseLog(log).failures.map((f) => f.test)).toEqual(["greenhouse.test.ferns watered"]);
  });
});
