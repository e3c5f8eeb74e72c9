/**
 * Classes from the hold25 set's misses (issue 10, fixer f10r). Each rule has a case where it must not fire. All text
 * below is written for these tests (no case's names).
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);

describe("cargo: libtest's closing `failures:` list cut before its `test result:` line", () => {
  const frames = [
    "   3: kettle::tests::check",
    "             at ./src/tests.rs:40:9",
    "   4: kettle::tests::boils_dry",
    "             at ./src/tests.rs:88:5",
    "   5: kettle::tests::boils_dry::{{closure}}",
    "             at ./src/tests.rs:87:1",
    "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
    "",
    "",
  ];
  const list = ["failures:", "    tests::lid_opens", "    tests::pours_half", "    tests::whistles"];
  it("places the backtrace's test in a Debian registry copy of the crate under the crate's root", () => {
    const log = [
      "   4: kettle::tests::boils_dry",
      "             at /usr/share/cargo/registry/kettle-0.3.1/src/tests.rs:88:5",
      "   5: kettle::tests::boils_dry::{{closure}}",
      "             at /usr/share/cargo/registry/kettle-0.3.1/src/tests.rs:87:1",
      "",
      ...list,
    ];
    const f = parseLog(log.join("\n")).failures.find((x) => x.test === "tests::boils_dry");
    expect([f?.file, f?.line]).toEqual(["src/tests.rs", 88]);
  });
  it("reports every listed name but the last (it may be cut inside its name), and the backtrace's test", () => {
    expect(ids([...frames, ...list, ""].join("\n")).sort()).toEqual([
      "tests::boils_dry",
      "tests::lid_opens",
      "tests::pours_half",
    ]);
  });
  it("takes libtest's backtrace note alone as the evidence", () => {
    const log = [
      "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      "",
      ...list,
    ];
    expect(ids(log.join("\n"))).toEqual(["tests::lid_opens", "tests::pours_half"]);
  });
  it("does not fire on a bare `failures:` list with nothing of libtest around it", () => {
    expect(ids(["Build summary", "", ...list, ""].join("\n"))).toEqual([]);
  });
  it("reports a list closed by `test result: FAILED` in full, as before", () => {
    const log = [...frames, ...list, "", "test result: FAILED. 4 passed; 3 failed; 0 ignored"];
    expect(ids(log.join("\n")).sort()).toEqual([
      "tests::boils_dry",
      "tests::lid_opens",
      "tests::pours_half",
      "tests::whistles",
    ]);
  });
});

describe("regrtest: CPython's `python -m test` progress and verdict lines", () => {
  it("reads 3.7's `-- test_x failed` suffix and the `test test_x failed --` verdict line", () => {
    const log = [
      "0:01:02 load avg: 0.50 [ 7/90/0] test_kettle",
      "0:01:03 load avg: 0.50 [ 8/90/1] test_lid -- test_kettle failed",
      "0:01:04 load avg: 0.50 [ 9/90/1] test_spout",
      "test test_spout failed -- Traceback (most recent call last):",
      '  File "test.test_spout", line 3, in t',
    ];
    expect(ids(log.join("\n"))).toEqual(["test_kettle", "test_spout"]);
  });
  it("reads 3.8+'s `[i/n/f] test_x failed (…)` and the closing list, and not `(env changed)`", () => {
    const log = [
      "0:00:05 load avg: 1.1 [ 3/40/1] test_kettle failed (2 failures) -- running: test_lid (31.0 sec)",
      "0:00:06 load avg: 1.1 [ 4/40/1] test_lid failed (env changed)",
      "0:00:07 load avg: 1.1 [ 5/40/1] test_spout passed",
      "",
      "2 tests failed:",
      "    test_kettle test_steam.test_valve",
      "",
      "Total duration: 7 sec",
    ];
    expect(ids(log.join("\n"))).toEqual(["test_kettle", "test_steam.test_valve"]);
  });
  it("drops the last name of a closing list cut by the end of the log", () => {
    expect(ids(["3 tests failed:", "    test_kettle test_lid", "    test_spo"].join("\n"))).toEqual([
      "test_kettle",
      "test_lid",
    ]);
  });
  it("does not fire on prose or other runners' lines", () => {
    const log = [
      "test the kettle failed -- see above",
      "[1/3] Building C object kettle.o",
      "[2/3] test_kettle",
      "2 tests failed:",
      "    kettle lid",
    ];
    expect(ids(log.join("\n"))).toEqual([]);
  });
});

describe("autotest: GNU Autotest's `NNN: title   FAILED (file.at:N)` lines", () => {
  it("reads a failed test by its title", () => {
    const log = [
      " 12: kettle boils dry                              ok",
      " 13: kettle whistles at low heat                   FAILED (kettle.at:48)",
      "",
      "## ------------- ##",
      "## Test results. ##",
      "## ------------- ##",
      "",
      "ERROR: 13 tests were run,",
      "1 failed unexpectedly.",
      "   Subject: [GNU Kettle 1.0] testsuite: 13 failed",
    ];
    expect(ids(log.join("\n"))).toEqual(["kettle whistles at low heat"]);
  });
  it("does not fire on a numbered FAILED line without an Autotest `.at` source", () => {
    const log = ["13: kettle whistles FAILED (kettle.c:48)", "2: step FAILED (exit 1)"];
    expect(parseLog(log.join("\n")).failures.some((f) => f.test?.startsWith("kettle"))).toBe(false);
  });
});

describe("node-tap's terminal reporter: ` FAIL  file N failed of M`, ` ✖ path`, a marked code frame", () => {
  it("reads a failed assertion under its file's FAIL line, placed at the frame's marked line", () => {
    const log = [
      " FAIL  test/kettle.js 1 failed of 40 1.2s",
      " ✖ boil > should be equal",
      "    test/helpers/pour.js                     ",
      "    8     const cup = fill(kettle);",
      "    9     t.equal(cup.level, 3);",
      "    ━━━━━━┛                 ",
      "    10    t.end();",
    ];
    const r = parseLog(log.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["boil > should be equal", "test/helpers/pour.js", 9],
    ]);
  });
  it("does not read `✖` lines without node-tap's FAIL count line (jest's FAIL line has none)", () => {
    const log = [" FAIL  test/kettle.test.js (1.2 s)", " ✖ boil > should be equal", ""];
    expect(ids(log.join("\n"))).not.toContain("boil > should be equal");
  });
});

describe("test-unit: `Failure: test_x(Class):` on one line between `=====` rules", () => {
  const rule = "=".repeat(79);
  it("reads the failure as Class#test_x, placed at its frame under test/", () => {
    const log = [
      rule,
      "Failure: test_pours(TestKettle):",
      "  <3> expected but was",
      "  <2>.",
      "/home/runner/work/kettle/kettle/test/kettle/test_kettle.rb:12:in `test_pours'",
      "     11:   def test_pours",
      "  => 12:     assert_equal(3, @k.pour)",
      rule,
      "Finished in 0.5 seconds.",
      "40 tests, 80 assertions, 1 f",
    ];
    const r = parseLog(log.join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line, f.message])).toEqual([
      ["TestKettle#test_pours", "test/kettle/test_kettle.rb", 12, "<3> expected but was\n  <2>."],
    ]);
  });
  it("reads an error's exception on the name's line", () => {
    const log = [rule, "Error: test_lid(TestKettle): NameError: undefined local variable `lid'", rule];
    const r = parseLog(log.join("\n"));
    expect(r.failures.map((f) => [f.test, f.errorType])).toEqual([["TestKettle#test_lid", "NameError"]]);
  });
  it("does not fire on a `Failure:` line naming no test(Class)", () => {
    expect(ids(["Failure: connect(Socket): refused", "Error: kettle(Cold)"].join("\n"))).toEqual([]);
  });
});

describe("vitest: a pasted `Failed Tests` section cut after a header", () => {
  const first = [
    " FAIL  test/kettle.test.ts > kettle > boils",
    "AssertionError: expected 1 to be 2",
    " ❯ test/kettle.test.ts:12:5",
    "",
    "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯",
    "",
  ];
  it("reports the cut block's test when its header is whole and an earlier block was Vitest's", () => {
    const log = [...first, " FAIL  test/kettle.test.ts > kettle > pours", "Asse"];
    expect(ids(log.join("\n"))).toEqual([
      "test/kettle.test.ts > kettle > boils",
      "test/kettle.test.ts > kettle > pours",
    ]);
  });
  it("does not report a header that is the log's last line (it may be cut), nor a lone header block", () => {
    expect(ids([...first, " FAIL  test/kettle.test.ts > kettle > pou"].join("\n"))).toEqual([
      "test/kettle.test.ts > kettle > boils",
    ]);
    expect(ids([" FAIL  test/kettle.test.ts > kettle > pours", "Asse"].join("\n"))).toEqual([]);
  });
});
