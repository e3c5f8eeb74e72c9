/**
 * Runners the hold36 dev half showed missing (issue 10, branch f10s): busted, Node.js core's tools/test.py TAP, Karma
 * over QUnit, sbt with junit-interface, a Playwright recap pasted alone, xcpretty. Each rule reads the runner's
 * documented output and has a case where it must not fire. The logs are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const places = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const lines = (...l: string[]) => l.join("\n");

describe("busted (Lua)", () => {
  const utf = lines(
    "●●◼●✱◌",
    "3 successes / 1 failure / 1 error / 1 pending : 0.02 seconds",
    "",
    "Pending → spec/kettle_spec.lua @ 30",
    "kettle whistles later",
    "",
    "Failure → spec/kettle_spec.lua @ 12",
    "kettle boils at sea level",
    "spec/kettle_spec.lua:13: Expected objects to be equal.",
    "Passed in:",
    "(number) 90",
    "Expected:",
    "(number) 100",
    "",
    "Error → spec/pour_spec.lua @ 4",
    "pour fills a cup",
    "spec/pour_spec.lua:6: attempt to index a nil value (local 'cup')",
    "",
  );

  it("reads the Failure and Error blocks under the count line, named by the full name under the header", () => {
    expect(places(utf)).toEqual([
      ["kettle boils at sea level", "spec/kettle_spec.lua", 12],
      ["pour fills a cup", "spec/pour_spec.lua", 4],
    ]);
  });
  it("reads the plain output handler's ASCII arrows the same way", () => {
    expect(ids(utf.replace(/ → /g, " -> ").replace("●●◼●✱◌", "++-+*."))).toEqual([
      "kettle boils at sea level",
      "pour fills a cup",
    ]);
  });
  it("gives no place for a path busted shortened", () => {
    const cut = utf.replace(
      "Failure → spec/kettle_spec.lua @ 12",
      "Failure → ...ts\\me\\kettle\\spec\\kettle_spec.lua @ 12",
    );
    expect(places(cut)[0]).toEqual(["kettle boils at sea level", null, null]);
  });
  it("reports nothing for a green run, pending entries included (busted 2 and busted 1.x count lines)", () => {
    const green2 = lines(
      "●●●◌",
      "3 successes / 0 failures / 0 errors / 1 pending : 0.01 seconds",
      "",
      "Pending → spec/kettle_spec.lua @ 30",
      "kettle whistles later",
      "",
    );
    expect(ids(green2)).toEqual([]);
    const green1 = lines(
      "++++-",
      "4 successes, 0 failures, and 1 pending in 0.01 seconds.",
      "",
      "Pending: ...\\kettle\\spec\\kettle_spec.lua @ 30",
      "kettle whistles later",
    );
    expect(ids(green1)).toEqual([]);
  });
  it("does not read a Failure line with no busted count line above it", () => {
    const alone = lines(
      "Failure → spec/kettle_spec.lua @ 12",
      "kettle boils at sea level",
      "spec/kettle_spec.lua:13: Expected objects to be equal.",
    );
    expect(ids(alone).filter((t) => t === "kettle boils at sea level")).toEqual([]);
  });
});

describe("Node.js core's tools/test.py TAP", () => {
  const block = (severity: string, directive = "") =>
    lines(
      `not ok 12 parallel/test-kettle-boil${directive}`,
      "  ---",
      "  duration_ms: 120.5",
      `  severity: ${severity}`,
      "  stack: |-",
      "    /home/ci/workspace/node-test/nodes/alpine/test/parallel/test-kettle-boil.js:10",
      "      throw new Error('Timeout');",
      "      ^",
      "    Error: Timeout",
      "        at Timeout._onTimeout (/home/ci/workspace/node-test/nodes/alpine/test/parallel/test-kettle-boil.js:10:9)",
      "        at listOnTimeout (timers.js:365:14)",
      "  ...",
    );

  it("reads a lone `not ok` with tools/test.py's diagnostics, placed in the checkout's test/ directory", () => {
    expect(places(block("fail"))).toEqual([
      ["parallel/test-kettle-boil", "test/parallel/test-kettle-boil.js", 10],
    ]);
  });
  it("does not fail a test marked flaky (`# TODO`)", () => {
    expect(ids(block("flaky", " # TODO : Fix flaky test"))).toEqual([]);
  });
  it("does not read a lone `not ok` a program printed, with no diagnostics of tools/test.py", () => {
    const printed = lines("not ok 12 parallel/test-kettle-boil", "  ---", "  message: oops", "  ...");
    expect(ids(printed)).toEqual([]);
  });
});

describe("Karma over QUnit", () => {
  it("drops the space an empty module leaves after the browser label", () => {
    const log = lines(
      "Chrome 29.0.1547 (Mac OS X 10.8.4)  pours a cup FAILED",
      "    Expected 2, got 1",
      "        at Object...",
    );
    expect(ids(log)).toEqual(["pours a cup"]);
  });
  it("keeps the module's name when there is one, and a passing run has no failure", () => {
    expect(
      ids(lines("Chrome 29.0.1547 (Mac OS X 10.8.4) kettle pours a cup FAILED", "    Expected 2, got 1")),
    ).toEqual(["kettle pours a cup"]);
    expect(
      ids("Chrome 29.0.1547 (Mac OS X 10.8.4): Executed 4 of 4 SUCCESS (0.02 secs / 0.01 secs)"),
    ).toEqual([]);
  });
});

describe("sbt with junit-interface", () => {
  const run = (prefix: string) =>
    lines(
      ...[
        "Test org.kettle.BoilTest.boils failed: expected:<100> but was:<90>, took 0.003 sec",
        "Failed: Total 3, Failed 1, Errors 0, Passed 2",
        "Failed tests:",
        "\torg.kettle.BoilTest",
        "(test:test) sbt.TestsFailedException: Tests unsuccessful",
      ].map((l) => `${prefix}${l}`),
    );

  it("names the test from junit-interface's line, the class's Failed tests entry adding nothing", () => {
    expect(ids(run("[error] "))).toEqual(["org.kettle.BoilTest.boils"]);
  });
  it("reads an sbt run inside another (every line behind the outer run's `[info] `)", () => {
    expect(ids(run("[info] [error] "))).toEqual(["org.kettle.BoilTest.boils"]);
  });
  it("does not read the line at info level, and a green run has no failure", () => {
    expect(
      ids("[info] Test org.kettle.BoilTest.boils failed: expected:<100> but was:<90>, took 0.003 sec"),
    ).toEqual([]);
    const green = lines(
      "[info] Test run started",
      "[info] Test org.kettle.BoilTest.boils started",
      "[info] Test run finished: 0 failed, 0 ignored, 3 total, 0.01s",
      "[info] Passed: Total 3, Failed 0, Errors 0, Passed 3",
    );
    expect(ids(green)).toEqual([]);
  });
});

describe("Playwright's recap pasted alone, its first line at the margin", () => {
  const recap = (entry: string) =>
    lines(
      "1 failed",
      entry,
      "  2 flaky",
      "    [firefox] › tests/kettle.spec.ts:21:9 › Kettle › whistles ",
      "    [firefox] › tests/kettle.spec.ts:30:9 › Kettle › cools ",
    );

  it("reads the failed entries, not the flaky ones, without the project label", () => {
    expect(ids(recap("    [firefox] › tests/kettle.spec.ts:12:7 › Kettle › boils "))).toEqual([
      "tests/kettle.spec.ts > Kettle > boils",
    ]);
  });
  it("does not take a margin `1 failed` that no recap entry follows", () => {
    expect(ids(lines("1 failed", "see the report for details"))).toEqual([]);
  });
});

describe("xcpretty", () => {
  const run = (prefix: string) =>
    lines(
      ...[
        "▸ KettleTests",
        "▸ ✓ testBoils (0.120 seconds)",
        '▸ ✗ testPours, XCTAssertEqual failed: ("1") is not equal to ("2")',
        "▸ ✗ testPours, Asynchronous wait failed: Exceeded timeout of 15 seconds",
        "▸ CupTests",
        "▸ ✓ testFills (0.010 seconds)",
      ].map((l) => `${prefix}${l}`),
    );

  it("names a ✗ line's method under its class heading, one failure for a test's two assertions", () => {
    expect(ids(run(""))).toEqual(["KettleTests.testPours"]);
    expect(ids(run("INFO [2018-11-07 14:45:28.70]: "))).toEqual(["KettleTests.testPours"]);
    expect(ids(run("[14:45:28]: "))).toEqual(["KettleTests.testPours"]);
  });
  it("reads xcpretty's own indentation (heading at the margin, results indented)", () => {
    const raw = lines(
      "KettleTests",
      "    ✓ testBoils (0.120 seconds)",
      "    ✗ testPours, XCTAssertTrue failed",
    );
    expect(ids(raw)).toEqual(["KettleTests.testPours"]);
  });
  it("does not read a ✗ line of another runner (a title that is no XCTest method), nor a green run", () => {
    const other = lines(
      "  Kettle",
      "    ✗ testPours, then stops",
      "    ✓ boils (12ms)",
      "    ✗ pours, then stops",
    );
    expect(parseLog(other).failures.filter((f) => f.format === "xcpretty")).toEqual([]);
    expect(ids(run("").replace(/▸ ✗ .*\n/g, ""))).toEqual([]);
  });
});
