/**
 * Classes from the hold21 set's misses (issue 10, fixer f10m): DejaGnu's result lines, nextest's padded binary column,
 * RSpec logs of two runs, npm's lifecycle blocks under a failed test script. Each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const byFormat = (log: string) => parseLog(log).failures.map((f) => [f.format, f.test]);

describe("DejaGnu: result lines placed by its own lines", () => {
  const head = [
    "Running target unix",
    "Using /usr/share/dejagnu/baseboards/unix.exp as board description file for target.",
    "Running ../../testsuite/kettle.pour/pour.exp ...",
  ];
  it("reports each FAIL under `Running …exp ...`, named by the whole text after `FAIL: `", () => {
    const r = parseLog(
      [
        ...head,
        "FAIL: kettle.pour/half.c -O0 execution test",
        "FAIL: kettle.pour/half.c -O2 execution test",
        "XFAIL: kettle.pour/lid.c -O0 (test for excess errors)",
        "",
        "\t\t=== kettle Summary ===",
        "",
        "# of expected passes\t\t40",
        "# of unexpected failures\t2",
        "# of expected failures\t\t1",
        "/usr/bin/gcc  version 12.2.0",
      ].join("\n"),
    );
    expect(r.failures.map((f) => [f.format, f.test, f.file])).toEqual([
      ["dejagnu", "kettle.pour/half.c -O0 execution test", null],
      ["dejagnu", "kettle.pour/half.c -O2 execution test", null],
    ]);
  });
  it("reads a paste of the result lines right above the summary, with no `Running` line", () => {
    const log = [
      "FAIL: gcc.dg/kettle-1.c (test for excess errors)",
      "XPASS: gcc.dg/kettle-2.c scan-assembler pour",
      "",
      "\t\t=== gcc Summary ===",
      "",
      "# of expected passes\t\t112127",
      "# of unexpected failures\t1",
      "# of unexpected successes\t1",
    ].join("\n");
    expect(ids(log)).toEqual([
      "gcc.dg/kettle-1.c (test for excess errors)",
      "gcc.dg/kettle-2.c scan-assembler pour",
    ]);
  });
  it("a log cut inside its last result line: that line names no test", () => {
    expect(ids([...head, "FAIL: kettle.pour/half.c -O0 execution test", "FAIL: kettle."].join("\n"))).toEqual(
      ["kettle.pour/half.c -O0 execution test"],
    );
  });
  it("must not fire: automake's `FAIL:` lines with its summary box", () => {
    const log = [
      "FAIL: test/check_kettle",
      "PASS: test/check_lid",
      "============================================================================",
      "Testsuite summary for kettle 1.0",
      "============================================================================",
      "# TOTAL: 2",
      "# PASS:  1",
      "# SKIP:  0",
      "# XFAIL: 0",
      "# FAIL:  1",
      "# XPASS: 0",
      "# ERROR: 0",
    ].join("\n");
    expect(byFormat(log)).toEqual([["automake", "test/check_kettle"]]);
  });
  it("must not fire: automake's lines after a DejaGnu run's summary ended", () => {
    const log = [
      ...head,
      "",
      "\t\t=== kettle Summary ===",
      "",
      "# of expected passes\t\t40",
      "/usr/bin/gcc  version 12.2.0",
      "FAIL: test/check_kettle",
      "============================================================================",
      "Testsuite summary for kettle 1.0",
      "============================================================================",
      "# TOTAL: 1",
      "# PASS:  0",
      "# SKIP:  0",
      "# XFAIL: 0",
      "# FAIL:  1",
      "# XPASS: 0",
      "# ERROR: 0",
    ].join("\n");
    expect(byFormat(log)).toEqual([["automake", "test/check_kettle"]]);
  });
  it("must not fire: bare `FAIL:` lines with no DejaGnu line, Dart's old unittest, nose's headers", () => {
    expect(ids("FAIL: kettle.pour/half.c -O0 execution test\nFAIL: lid\n")).toEqual([]);
    const dart = ["FAIL: handler", "  Expected: 2", "    Actual: 3", "0 PASSED, 1 FAILED, 0 ERRORS"].join(
      "\n",
    );
    expect(byFormat(dart)).toEqual([["dart-unittest", "handler"]]);
    const nose = [
      "======================================================================",
      "FAIL: tests.test_kettle.test_pour",
      "----------------------------------------------------------------------",
      "Traceback (most recent call last):",
      '  File "/src/tests/test_kettle.py", line 4, in test_pour',
      "    assert False",
      "AssertionError",
      "",
      "----------------------------------------------------------------------",
      "Ran 1 test in 0.001s",
      "",
      "FAILED (failures=1)",
    ].join("\n");
    expect(parseLog(nose).failures.some((f) => f.format === "dejagnu")).toBe(false);
  });
});

describe("nextest: the binary id padded to a column", () => {
  it("reads a FAIL line whose binary id is padded, and a block whose output was cut", () => {
    const log = [
      "        FAIL [   0.010s]              openssl pkey::tests::test_ec_gen",
      "",
      "--- STDOUT:                           openssl pkey::tests::test_ec_gen ---",
      "",
      "running 1 test",
    ].join("\n");
    expect(byFormat(log)).toEqual([["nextest", "pkey::tests::test_ec_gen"]]);
  });
  it("must not fire: a PASS line padded the same way", () => {
    const r = parseLog("        PASS [   0.010s]              openssl pkey::tests::test_ec_gen\n");
    expect(r.failures).toEqual([]);
  });
});

describe("RSpec: two runs in one log", () => {
  const first = [
    "Failures:",
    "",
    "  1) Kettle pours half",
    "     Failure/Error: expect(kettle.pour).to eq 1",
    "",
    "       expected: 1",
    "            got: 2",
    "",
    "     # ./spec/kettle_spec.rb:5:in `block (2 levels) in <top (required)>'",
    "",
    "Finished in 1.2 seconds (files took 0.5 seconds to load)",
    "4 examples, 1 failure",
    "",
    "Failed examples:",
    "",
    "rspec ./spec/kettle_spec.rb:4 # Kettle pours half",
    "",
  ];
  it("a second run cut before its count line keeps its own failure", () => {
    const log = [
      ...first,
      "Failures:",
      "",
      "  1) Lid#closed should eq true",
      "     Failure/Error: it { expect(lid.closed).to eq true }",
      "       expected: true",
      "            got: false",
      "     # ./spec/lid_spec.rb:9:in `block (3 levels) in <top (required)>'",
    ].join("\n");
    expect(ids(log)).toEqual([
      "spec/kettle_spec.rb > Kettle pours half",
      "spec/lid_spec.rb > Lid#closed should eq true",
    ]);
  });
  it("must not fire: in one run, a block its re-run list does not name (a test's output) stays dropped", () => {
    const log = [
      "Failures:",
      "",
      "  1) Kettle pours half",
      "     Failure/Error: expect(kettle.pour).to eq 1",
      "       expected: 1",
      "     # ./spec/kettle_spec.rb:5:in `block (2 levels) in <top (required)>'",
      "",
      "  2) Fixture example printed by a spec",
      "     Failure/Error: expect(1).to eq 2",
      "     # ./spec/fixture_spec.rb:3:in `block (2 levels) in <top (required)>'",
      "",
      "Finished in 1.2 seconds (files took 0.5 seconds to load)",
      "4 examples, 1 failure",
      "",
      "Failed examples:",
      "",
      "rspec ./spec/kettle_spec.rb:4 # Kettle pours half",
    ].join("\n");
    expect(ids(log)).toEqual(["spec/kettle_spec.rb > Kettle pours half"]);
  });
});

describe("npm: lifecycle blocks of a failed test script", () => {
  const formatCheck = [
    "npm ERR! code ELIFECYCLE",
    "npm ERR! errno 1",
    'npm ERR! kettle@1.0.0 format:check: `prettier --list-different "src/**/*.js"`',
    "npm ERR! Exit status 1",
    "npm ERR!",
    "npm ERR! Failed at the kettle@1.0.0 format:check script.",
  ];
  const testScript = [
    "npm ERR! code ELIFECYCLE",
    "npm ERR! errno 1",
    "npm ERR! kettle@1.0.0 test: `npm run format:check && jest`",
    "npm ERR! Exit status 1",
  ];
  it("a script the failed test script ran is the test run's exit status; a cut debug-log pointer is nothing", () => {
    const r = parseLog(
      [...formatCheck, "", ...testScript, "", "npm ERR! A complete log of this r"].join("\n"),
    );
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toEqual(["npm"]);
  });
  it("must not fire: a failed script no test script ran stays a build failure; a pointer's other text is kept", () => {
    const lint = parseLog(
      [...formatCheck, "", ...testScript.map((l) => l.replace("npm run format:check", "npm run lint"))].join(
        "\n",
      ),
    );
    expect(lint.failures.map((f) => [f.format, f.category, f.errorType])).toEqual([
      ["npm", "build", "ELIFECYCLE"],
    ]);
    const odd = parseLog("npm ERR! A complete meltdown of the registry\n");
    expect(odd.failures.map((f) => f.category)).toEqual(["install"]);
  });
});

describe("dart test / flutter test: a padded progress line, a failure cut before its [E] line", () => {
  it("reads an `[E]` progress line padded with spaces (a Windows path in its description)", () => {
    const log = [
      `05:44 +16 ~9 -1: test\\integration.shard\\kettle_test.dart: kettle pours half [E]${" ".repeat(40)}`,
      "  Expected: <1>",
      "    Actual: <2>",
    ].join("\n");
    expect(byFormat(log)).toEqual([
      ["dart-test", "test/integration.shard/kettle_test.dart > kettle pours half"],
    ]);
  });
  const box = [
    "══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞════════════════════════════════",
    "The following TestFailure object was thrown running a test:",
    "  Expected: no matching nodes in the widget tree",
    '  Actual: _TextFinder:<exactly one widget with text "0">',
    "",
    "When the exception was thrown, this was the stack:",
    "#4      main.<anonymous closure> (file:///Users/me/kettle/test/widget_test.dart:27:5)",
    "<asynchronous suspension>",
    "#5      testWidgets.<anonymous closure>.<anonymous closure> (package:flutter_test/src/widget_tester.dart:124:25)",
  ];
  it("a log cut inside Flutter's exception box: the test the last progress line started, placed by its frame", () => {
    const f = parseLog(
      [`00:14 +0: Counter increments smoke test${" ".repeat(30)}`, ...box].join("\n"),
    ).failures;
    expect(f.map((x) => [x.format, x.test, x.file, x.line, x.errorType])).toEqual([
      [
        "dart-test",
        "test/widget_test.dart > Counter increments smoke test",
        "test/widget_test.dart",
        27,
        "TestFailure",
      ],
    ]);
  });
  it("must not fire: a box under an earlier test, the run going on; a progress line with no box", () => {
    expect(
      ids(["00:14 +0: Counter increments smoke test", ...box, "00:15 +1: Counter decrements"].join("\n")),
    ).toEqual([]);
    expect(ids("00:14 +0: Counter increments smoke test\nsome output\n")).toEqual([]);
  });
});
