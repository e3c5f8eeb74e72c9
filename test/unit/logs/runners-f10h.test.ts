/**
 * Shapes added on branch f10h (hold18's classes): glibc's `make check` result lines confirmed by its own `Summary of
 * test results:` count, and cargo's count of failed targets cut after the count. The logs are written here for a
 * small kettle library of our own, in the tools' byte layout.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.format, f.category, f.test]);

describe("glibc's `make check`: FAIL: lines under its `Summary of test results:` count", () => {
  const results = [
    "FAIL: kettle/tst-boil-long",
    "UNSUPPORTED: kettle/tst-whistle-cet",
    "XPASS: kettle/tst-lid-race",
    "FAIL: pour/tst-spout",
  ];
  const summary = [
    "Summary of test results:",
    "      2 FAIL",
    "    412 PASS",
    "      1 UNSUPPORTED",
    "      1 XPASS",
    "make[1]: *** [Makefile:647: tests] Error 1",
  ];

  it("the count confirms the result lines: each FAIL: line is a failure named as printed", () => {
    expect(found(`${[...results, ...summary].join("\n")}\n`)).toEqual([
      ["automake", "test", "kettle/tst-boil-long"],
      ["automake", "test", "pour/tst-spout"],
    ]);
  });

  it("must not fire: an XPASS: line under glibc's count fails nothing (glibc fails the run on FAIL and ERROR only)", () => {
    const text = ["XPASS: kettle/tst-lid-race", "PASS: kettle/tst-boil", ...summary].join("\n");
    expect(found(`${text}\n`)).toEqual([]);
  });

  it("must not fire: a green glibc run (its count with no FAIL row) gives no failure", () => {
    const text = [
      "PASS: kettle/tst-boil",
      "XFAIL: kettle/tst-lid-race",
      "Summary of test results:",
      "    412 PASS",
      "      1 XFAIL",
    ].join("\n");
    expect(found(`${text}\n`)).toEqual([]);
  });

  it("must not fire: the head with no count row under it confirms nothing", () => {
    const text = [...results, "Summary of test results:", "", "see the logs above"].join("\n");
    expect(found(`${text}\n`)).toEqual([]);
  });
});

describe("cargo's count of failed targets, cut after the count, names nothing", () => {
  const log = [
    "running 3 tests",
    "test tests::boil ... FAILED",
    "test tests::pour ... ok",
    "test tests::lid ... ok",
    "",
    "failures:",
    "",
    "---- tests::boil stdout ----",
    "thread 'tests::boil' panicked at 'assertion failed: hot', src/lib.rs:12:9",
    "",
    "failures:",
    "    tests::boil",
    "",
    "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    "",
    "error: test failed, to rerun pass `--lib`",
  ];

  it("`error: 1 target` as the log's last line: only the test fails", () => {
    expect(found(`${[...log, "error: 1 target"].join("\n")}\n`)).toEqual([["cargo", "test", "tests::boil"]]);
  });

  it("`error: 2 targets failed:` whole reads the same", () => {
    expect(
      found(`${[...log, "error: 2 targets failed:", "    `--lib`", "    `--test kettle`"].join("\n")}\n`),
    ).toEqual([["cargo", "test", "tests::boil"]]);
  });

  it("must not fire: a rustc error that starts with a count of something else stays a build failure", () => {
    const text = [
      "error[E0308]: mismatched types",
      "  --> src/lib.rs:4:5",
      "   |",
      "4  |     1 target",
      "   |     ^^^^^^^^ expected `u8`, found `&str`",
    ].join("\n");
    expect(found(`${text}\n`).map((f) => f[1])).toEqual(["build"]);
  });
});

describe("Ant's <junit> task: a test's own Testcase verdict line", () => {
  const head = [
    "test:",
    "    [junit] Testsuite: org.kettle.BoilTest",
    "    [junit] Tests run: 4, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 0.31 sec",
  ];
  const brief = [
    ...head,
    "    [junit] Testcase: testWhistle(org.kettle.BoilTest):\tFAILED",
    "    [junit] expected:<loud> but was:<quiet>",
    "    [junit] junit.framework.AssertionFailedError: expected:<loud> but was:<quiet>",
    "    [junit] \tat org.kettle.BoilTest.testWhistle(BoilTest.java:31)",
    "    [junit] ",
    "    [junit] Testcase: testLid(org.kettle.BoilTest):\tCaused an ERROR",
    "    [junit] null",
    "    [junit] java.lang.NullPointerException",
    "    [junit] \tat org.kettle.BoilTest.testLid(BoilTest.java:40)",
    "    [junit] ",
    "    [junit] Test org.kettle.BoilTest FAILED",
  ];

  it("the brief formatter's FAILED and Caused an ERROR lines are failures named Class.method", () => {
    const parsed = parseLog(`${brief.join("\n")}\n`);
    expect(parsed.failures.map((f) => [f.format, f.test, f.message])).toEqual([
      ["ant-junit", "org.kettle.BoilTest.testWhistle", "expected:<loud> but was:<quiet>"],
      ["ant-junit", "org.kettle.BoilTest.testLid", "null"],
    ]);
  });

  it("a brief line cut inside its class name as the log's last line is a failure under the suite's class", () => {
    const text = [...brief.slice(0, 7), "    [junit] Testcase: testPour(org.kettle.Bo"].join("\n");
    expect(found(`${text}\n`)).toEqual([
      ["ant-junit", "test", "org.kettle.BoilTest.testWhistle"],
      ["ant-junit", "test", "org.kettle.BoilTest.testPour"],
    ]);
  });

  it("must not fire: a cut line whose class is not the suite's, or that is not the last line, names nothing", () => {
    const other = [...head, "    [junit] Testcase: testPour(org.other.Ju"].join("\n");
    expect(found(`${other}\n`)).toEqual([]);
    const notLast = [...head, "    [junit] Testcase: testPour(org.kettle.Bo", "BUILD SUCCESSFUL"].join("\n");
    expect(found(`${notLast}\n`)).toEqual([]);
  });

  it("the plain formatter: a `took` line with FAILED on the next line is the failure", () => {
    const text = [
      ...head,
      "    [junit] Testcase: testBoil took 0.01 sec",
      "    [junit] Testcase: testWhistle took 0.02 sec",
      "    [junit] \tFAILED",
      "    [junit] expected:<loud> but was:<quiet>",
    ].join("\n");
    expect(found(`${text}\n`)).toEqual([["ant-junit", "test", "org.kettle.BoilTest.testWhistle"]]);
  });

  it("must not fire: a green plain run (Testcase took lines, a zero count) gives no failure", () => {
    const text = [
      "    [junit] Testsuite: org.kettle.BoilTest",
      "    [junit] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.31 sec",
      "    [junit] Testcase: testBoil took 0.01 sec",
      "    [junit] Testcase: testWhistle took 0.02 sec",
      "BUILD SUCCESSFUL",
    ].join("\n");
    expect(found(`${text}\n`)).toEqual([]);
  });
});
