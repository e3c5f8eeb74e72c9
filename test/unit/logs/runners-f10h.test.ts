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
