/**
 * Green-run rules added on branch f10ad (issue 10: a green log yields zero failures): Robot Framework 3.x's
 * non-critical failures in a passing run, Cutter's closing count line, and shunit2/Boost.Test logs holding several runs.
 * Each log is written here for a small kiln library of our own, in the runner's byte layout; each rule has a case
 * where it must not fire and one where it must still fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("Robot Framework 3.x: a non-critical test's `| FAIL |` in a run whose critical tests passed", () => {
  const eq = "=".repeat(78);
  const dash = "-".repeat(78);
  const pad = (name: string, status: string) => `${name.padEnd(70)}| ${status} |`;
  const suite = (status: string, counts: string[]) => [
    eq,
    "Kiln :: Kiln tests",
    eq,
    pad("Turns Left", "PASS"),
    dash,
    pad("Turns Right", "FAIL"),
    "4 != 5",
    dash,
    pad("Kiln :: Kiln tests", status),
    ...counts,
    eq,
    "Output:  /home/me/kiln/output.xml",
  ];
  it("must not fire when the suite's counts say `critical … 0 failed`", () => {
    const log = suite("PASS", ["1 critical test, 1 passed, 0 failed", "2 tests total, 1 passed, 1 failed"]);
    expect(found(log.join("\n"))).toEqual([]);
  });
  it("must not fire in a child suite whose counts say `critical … 0 failed`, and still fires in its failing sibling", () => {
    const log = [
      eq,
      "Kiln :: Kiln tests",
      eq,
      "Kiln.Dial :: Dial behaviour",
      eq,
      pad("Turns Right", "FAIL"),
      "4 != 5",
      dash,
      pad("Kiln.Dial :: Dial behaviour", "PASS"),
      "0 critical tests, 0 passed, 0 failed",
      "1 test total, 0 passed, 1 failed",
      eq,
      "Kiln.Door :: Door behaviour",
      eq,
      pad("Opens", "FAIL"),
      "door stuck",
      dash,
      pad("Kiln.Door :: Door behaviour", "FAIL"),
      "1 critical test, 0 passed, 1 failed",
      "1 test total, 0 passed, 1 failed",
      eq,
      pad("Kiln :: Kiln tests", "FAIL"),
      "1 critical test, 0 passed, 1 failed",
      "2 tests total, 0 passed, 2 failed",
      eq,
    ];
    const r = parseLog(log.join("\n"));
    expect(r.failures.map((f) => f.test)).toEqual(["Kiln.Door.Opens"]);
    expect(r.failures[0]!.message).toBe("door stuck");
  });
  it("still fires when a critical test failed, and in a log cut before the counts", () => {
    const log = suite("FAIL", ["1 critical test, 0 passed, 1 failed", "2 tests total, 1 passed, 1 failed"]);
    expect(found(log.join("\n"))).toEqual([["Kiln.Turns Right", null, null]]);
    expect(parseLog(log.join("\n")).failures[0]!.message).toBe("4 != 5");
    expect(found(log.slice(0, 8).join("\n"))).toEqual([["Kiln.Turns Right", null, null]]);
  });
});

describe("Cutter: the closing `N failure(s), N error(s)` count line", () => {
  const entry = [
    "F",
    "",
    "Failure: testKiln::test_heats",
    "<expected == actual>",
    "expected: <900>",
    "  actual: <800>",
  ];
  const counts = (failures: number, errors: number) => [
    "",
    "Finished in 0.011024 seconds (total: 0.000219 seconds)",
    "",
    `3 test(s), 4 assertion(s), ${failures} failure(s), ${errors} error(s), 0 pending(s), 0 omission(s), 0 notification(s)`,
    "100% passed",
  ];
  it("must not fire when it says 0 failures and 0 errors", () => {
    expect(found([...entry, ...counts(0, 0)].join("\n"))).toEqual([]);
  });
  it("still fires when it counts a failure or an error, and with no count line", () => {
    expect(found([...entry, ...counts(1, 0)].join("\n"))).toEqual([["testKiln::test_heats", null, null]]);
    expect(found([...entry, ...counts(0, 1)].join("\n"))).toEqual([["testKiln::test_heats", null, null]]);
    expect(found(entry.join("\n"))).toEqual([["testKiln::test_heats", null, null]]);
  });
});

describe("shunit2: each run closes with its own `Ran N tests.` and `OK`/`FAILED (…)`", () => {
  const failing = [
    "test_heats",
    "ASSERT:the kiln should heat expected:<900> but was:<800>",
    "Ran 1 test.",
    "",
    "FAILED (failures=1)",
  ];
  const green = ["test_cools", "Ran 1 test.", "", "OK"];
  it("still fires for a failing run followed by a green one", () => {
    expect(found([...failing, ...green].join("\n"))).toEqual([["test_heats", null, null]]);
    expect(found([...green, ...failing].join("\n"))).toEqual([["test_heats", null, null]]);
  });
  it("must not fire when every run closes `OK`, nor for an `ASSERT:` in a run that closed `OK`", () => {
    expect(found([...green, ...green].join("\n"))).toEqual([]);
    const asserted = ["test_glazes", "ASSERT:glaze missing", "Ran 1 test.", "", "OK"];
    expect(found([...failing, ...asserted].join("\n"))).toEqual([["test_heats", null, null]]);
  });
});

describe("Boost.Test: each `Running N test cases...` opens a run of its own", () => {
  const check = (c: string, line: number) =>
    `test/kiln_test.cpp(${line}): error: in "Kiln/${c}": check heat == 900 has failed [800 != 900]`;
  const failing = [
    "Running 1 test case...",
    check("Heats", 12),
    "",
    '*** 1 failure is detected in the test module "kiln"',
  ];
  const green = ["Running 2 test cases...", "", "*** No errors detected"];
  it("still fires for a failing binary followed by a green one", () => {
    expect(found([...failing, ...green].join("\n"))).toEqual([["Kiln/Heats", "test/kiln_test.cpp", 12]]);
  });
  it("must not fire when every binary closes `*** No errors detected`", () => {
    const r = parseLog([...green, ...green].join("\n"));
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn ?? []).not.toContain("boost-test");
  });
  it("a failing binary with no case named, then a green one: failed, nothing named", () => {
    const r = parseLog(
      ["Running 1 test case...", '*** 1 failure is detected in the test module "kiln"', ...green].join("\n"),
    );
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toContain("boost-test");
  });
});
