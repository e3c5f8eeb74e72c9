/**
 * Shapes added on branch f10c (issue 10): a Java assertion's stack pasted alone and cut in its next frame (`\tat `
 * and nothing more), and elixir-koans' `mix meditate` failure block. The logs are written here for a small kettle
 * library of our own, in the runners' byte layout; each rule has look-alikes it must not fire on.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("a Java stack alone, the paste cut in a frame", () => {
  const head = [
    "java.lang.AssertionError",
    "\tat org.junit.Assert.fail(Assert.java:87)",
    "\tat org.junit.Assert.assertTrue(Assert.java:42)",
    "\tat org.junit.Assert.assertTrue(Assert.java:53)",
  ];

  it("a bare `at ` after the test class's frame ends the paste: that frame is the outermost one shown", () => {
    const r = found(
      [...head, "\tat org.kettle.its.PourIT.checkCups(PourIT.java:51)", "\tat ", ""].join("\n"),
    );
    expect(r).toHaveLength(1);
    expect(r[0]![0]).toBe("org.kettle.its.PourIT.checkCups");
    expect(r[0]![1]).toMatch(/org\/kettle\/its\/PourIT\.java$/);
    expect(r[0]![2]).toBe(51);
  });

  it("a whole stack: the helper's caller in the same test class is the test (reflection calls it)", () => {
    const r = found(
      [
        ...head,
        "\tat org.kettle.PourTest.checkCups(PourTest.java:51)",
        "\tat org.kettle.PourTest.poursTwoCups(PourTest.java:20)",
        "\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
        "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
        "",
      ].join("\n"),
    );
    expect(r.map((f) => f[0])).toEqual(["org.kettle.PourTest.poursTwoCups"]);
  });

  it("must not fire: the cut frame still names part of a class (it may be the test calling the helper)", () => {
    expect(
      found(
        [
          ...head,
          "\tat org.kettle.PourTest.checkCups(PourTest.java:51)",
          "\tat org.kettle.PourTest.pou",
          "",
        ].join("\n"),
      ),
    ).toEqual([]);
  });

  it("must not fire: a line of another kind follows the bare `at ` (the stack did not end there)", () => {
    expect(
      found(
        [
          ...head,
          "\tat org.kettle.PourTest.checkCups(PourTest.java:51)",
          "\tat ",
          "and then the kettle boiled over",
          "",
        ].join("\n"),
      ),
    ).toEqual([]);
  });

  it("must not fire: an ordinary exception, or an assertion thrown from application code, cut the same way", () => {
    expect(
      found(
        [
          "java.lang.IllegalStateException: kettle empty",
          "\tat org.kettle.PourTest.checkCups(PourTest.java:51)",
          "\tat ",
          "",
        ].join("\n"),
      ),
    ).toEqual([]);
    expect(
      found(
        [
          "java.lang.AssertionError: lid open",
          "\tat org.kettle.Kettle.pour(Kettle.java:12)",
          "\tat org.kettle.PourTest.checkCups(PourTest.java:51)",
          "\tat ",
          "",
        ].join("\n"),
      ),
    ).toEqual([]);
  });
});

describe("elixir-koans' `mix meditate`", () => {
  it("the koan named under the heading and rule, placed at `Assertion failed in file:line`", () => {
    const r = parseLog(
      [
        "Now meditate upon Kettles",
        "|=========>                    | 12 of 40",
        "----------------------------------------",
        "A full kettle pours two cups",
        "Assertion failed in lib/koans/03_kettles.ex:21",
        "Kettle.pour(kettle) == ___",
        "",
        "left:  2",
        "right: 3",
        "",
      ].join("\n"),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["A full kettle pours two cups", "lib/koans/03_kettles.ex", 21],
    ]);
  });

  it("an older runner (no progress bar) and an error that is no assertion: `Error in file:line`", () => {
    expect(
      found(
        [
          "Now meditate upon Kettles",
          "---------------------------------------",
          "Pouring from an empty kettle raises",
          "Error in lib/koans/03_kettles.ex:30",
          "** (ArithmeticError) bad argument in arithmetic expression",
          "",
        ].join("\n"),
      ),
    ).toEqual([["Pouring from an empty kettle raises", "lib/koans/03_kettles.ex", 30]]);
  });

  it("must not fire: a finished run (no failure block), even when it prints the runner's heading words", () => {
    const r = parseLog(
      [
        "Considering Kettles...",
        "Now meditate upon nothing: every koan is done",
        "You have learned much. You must find your own path now.",
        "",
      ].join("\n"),
    );
    expect(r.failures).toEqual([]);
  });

  it("must not fire: `Assertion failed in file:line` with no heading, rule and koan name above it", () => {
    const r = parseLog(
      ["Building kettle firmware", "Assertion failed in lib/kettle/boil.ex:8", "lid == :closed", ""].join(
        "\n",
      ),
    );
    expect(r.failures.filter((f) => f.test)).toEqual([]);
    expect(r.formats).not.toContain("elixir-koans");
    expect(
      found(
        [
          "Now meditate upon Kettles",
          "----------------------------------------",
          "",
          "Assertion failed in lib/koans/03_kettles.ex:21",
          "",
        ].join("\n"),
      ),
    ).toEqual([]);
  });
});

describe("shunit2's counts over a retried script", () => {
  const red = [
    "test_boils",
    "test_pours",
    "ASSERT:expected:<2> but was:<3>",
    "shunit2:ERROR test_pours() returned non-zero return code.",
    "test_lid",
    "",
    "Ran 3 tests.",
    "FAILED (failures=1)",
  ];
  const green = ["test_boils", "test_pours", "test_lid", "", "Ran 3 tests.", "OK"];

  it("a retry that passes: three tests passed, not six", () => {
    const r = parseLog([...red, ...green, ""].join("\n"));
    expect(r.failures).toEqual([]);
    expect(r.counts.shunit2).toMatchObject({ passed: 3, failed: 0 });
  });

  it("a retry that fails the same test: one failed, two passed", () => {
    const r = parseLog([...red, ...red, ""].join("\n"));
    expect(r.failures.map((f) => f.test)).toEqual(["test_pours"]);
    expect(r.counts.shunit2).toMatchObject({ passed: 2, failed: 1 });
  });

  it("must still add up: two different scripts in one job count all their tests", () => {
    const other = ["test_descales", "test_whistles", "", "Ran 2 tests.", "OK"];
    const r = parseLog([...red, ...other, ""].join("\n"));
    expect(r.failures.map((f) => f.test)).toEqual(["test_pours"]);
    expect(r.counts.shunit2).toMatchObject({ passed: 4, failed: 1 });
  });
});

describe("Boost.Test at the default log level, run again", () => {
  const failedRun = (command: string | null) => [
    ...(command ? [command] : []),
    "Running 3 test cases...",
    'test/kettle.cpp(12): error: in "kettle/boils": check t == 100 has failed [99 != 100]',
    "",
    '*** 1 failure is detected in the test module "Kettle"',
  ];
  const greenRun = (command: string | null, cases = 3) => [
    ...(command ? [command] : []),
    `Running ${cases} test cases...`,
    "",
    "*** No errors detected",
  ];
  const ids = (lines: string[]) =>
    parseLog([...lines, ""].join("\n")).failures.map((f) => [f.test, f.file, f.line]);

  it("the same command line starts a green run: a retry of that binary, the case passed there", () => {
    expect(ids([...failedRun("+ ./build/kettle_test"), ...greenRun("+ ./build/kettle_test")])).toEqual([]);
    expect(
      ids([
        ...failedRun("$ build/kettle_test --log_level=error"),
        ...greenRun("$ build/kettle_test --log_level=error"),
      ]),
    ).toEqual([]);
  });

  it("a retry that fails the same case again keeps it, once", () => {
    expect(ids([...failedRun("+ ./build/kettle_test"), ...failedRun("+ ./build/kettle_test")])).toEqual([
      ["kettle/boils", "test/kettle.cpp", 12],
    ]);
  });

  it("must not pass it: another binary's green run (another command line, or the same count under another program)", () => {
    expect(ids([...failedRun("+ ./build/kettle_test"), ...greenRun("+ ./build/teapot_test")])).toEqual([
      ["kettle/boils", "test/kettle.cpp", 12],
    ]);
    expect(ids([...failedRun("+ ./build/kettle_test"), ...greenRun("+ ./build/kettle_test", 4)])).toEqual([
      ["kettle/boils", "test/kettle.cpp", 12],
    ]);
  });

  it("must not pass it: runs with no command line above them, or under a heading that names no program", () => {
    expect(ids([...failedRun(null), ...greenRun(null)])).toEqual([["kettle/boils", "test/kettle.cpp", 12]]);
    expect(ids([...failedRun("Running unit tests"), ...greenRun("Running unit tests")])).toEqual([
      ["kettle/boils", "test/kettle.cpp", 12],
    ]);
  });
});
