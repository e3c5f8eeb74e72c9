/**
 * Runner shapes added on branch f10ab (inventions and misses of the hold33 corpus, tainted once scored). Each log is
 * written here for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must
 * not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("PHPUnit 10's issue lists (`N tests triggered N PHPUnit deprecations:`) name tests that did not fail", () => {
  const head = [
    "PHPUnit 10.1.1 by Sebastian Bergmann and contributors.",
    "",
    "D...F                                                5 / 5 (100%)",
    "",
    "There was 1 PHPUnit test runner deprecation:",
    "",
    "1) Your XML configuration validates against a deprecated schema.",
    "",
    "--",
    "",
    "There was 1 failure:",
    "",
    "1) Kiln\\Tests\\KilnTest::test_heats",
    "Failed asserting that 800 matches expected 900.",
    "",
    "/home/me/kiln/tests/KilnTest.php:21",
    "",
    "--",
    "",
  ];
  it("reports the failure, not the tests of the deprecation list below it", () => {
    const log = [
      ...head,
      "2 tests triggered 2 PHPUnit deprecations:",
      "",
      "1) Kiln\\Tests\\KilnTest::test_cools",
      "Data Provider method Kiln\\Tests\\KilnTest::temps() is not static",
      "",
      "/home/me/kiln/tests/KilnTest.php:40",
      "",
      "2) Kiln\\Tests\\KilnTest::test_glazes",
      "Data Provider method Kiln\\Tests\\KilnTest::glazes() is not static",
      "",
      "/home/me/kiln/tests/KilnTest.php:52",
      "",
      "1 test triggered 1 warning:",
      "",
      "1) Kiln\\Tests\\KilnTest::test_fires",
      "Undefined variable $x",
      "",
      "/home/me/kiln/tests/KilnTest.php:60",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["Kiln\\Tests\\KilnTest::test_heats"]);
  });
  it("must not stop reading a failure list that follows an issue list", () => {
    const log = [
      "PHPUnit 10.1.1 by Sebastian Bergmann and contributors.",
      "",
      "1 test triggered 1 PHPUnit deprecation:",
      "",
      "1) Kiln\\Tests\\KilnTest::test_cools",
      "Data Provider method Kiln\\Tests\\KilnTest::temps() is not static",
      "",
      "/home/me/kiln/tests/KilnTest.php:40",
      "",
      "There was 1 failure:",
      "",
      "1) Kiln\\Tests\\KilnTest::test_heats",
      "Failed asserting that 800 matches expected 900.",
      "",
      "/home/me/kiln/tests/KilnTest.php:21",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["Kiln\\Tests\\KilnTest::test_heats"]);
  });
});

describe("VSTest: a `Failed   Name` line that ends a cut log with nothing below it names no test", () => {
  const entry = (name: string, line: number) => [
    `Failed   ${name}`,
    "Error Message:",
    "   Expected: 900",
    "  But was:  800",
    "",
    "Stack Trace:",
    `   at Kiln.Tests.KilnTests.${name.split("(")[0]}() in /src/tests/KilnTests.cs:line ${line}`,
    "",
  ];
  const start = ["Starting test execution, please wait..."];
  it("drops the cut last line (its name may be cut), keeps the entries above it", () => {
    const log = [...start, ...entry("Heats", 12), "Failed   Coo"].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["Kiln.Tests.KilnTests.Heats"]);
  });
  it("must not drop a `Failed` line followed by more of the log (another result, a blank line, the count)", () => {
    const log = [
      ...start,
      "Failed   Kiln.Tests.KilnTests.Cools",
      "Failed   Kiln.Tests.KilnTests.Heats",
      "",
      "Total tests: 2. Passed: 0. Failed: 2. Skipped: 0.",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["Kiln.Tests.KilnTests.Cools", "Kiln.Tests.KilnTests.Heats"]);
  });
});

describe("pytest: a paste that is nothing but collection errors' summary lines", () => {
  const err = (m: string) =>
    `ERROR tests/test_${m}.py - AttributeError: 'Kiln' object has no attribute '${m}'`;
  it("reads a run of them from the log's first line to its end, each reason a Python exception", () => {
    expect(found([err("heat")].join("\n"))).toEqual([["tests/test_heat.py", "tests/test_heat.py", null]]);
    expect(found([err("heat"), err("cool")].join("\n")).map((f) => f[0])).toEqual([
      "tests/test_heat.py",
      "tests/test_cool.py",
    ]);
  });
  it("must not fire with other output before or after them, nor on a reason that is no Python exception", () => {
    expect(found(["$ make check", err("heat")].join("\n"))).toEqual([]);
    expect(found([err("heat"), "make: *** [Makefile:12: check] Error 1"].join("\n"))).toEqual([]);
    expect(found("ERROR tests/test_heat.py - kiln too cold")).toEqual([]);
  });
});

describe("RSpec: re-run lines pasted without their `Failed examples:` heading", () => {
  const rerun = "rspec ./spec/kiln_spec.rb:14 # Kiln when full heats evenly";
  it("names the example, placed at the re-run line's file and line", () => {
    expect(found(rerun)).toEqual([
      ["spec/kiln_spec.rb > Kiln when full heats evenly", "spec/kiln_spec.rb", 14],
    ]);
    // A run of them, an id-form one (`[1:2]`) without a line.
    expect(found([rerun, "rspec ./spec/lid_spec.rb[1:2] # Lid seals"].join("\n"))).toEqual([
      ["spec/kiln_spec.rb > Kiln when full heats evenly", "spec/kiln_spec.rb", 14],
      ["spec/lid_spec.rb > Lid seals", "spec/lid_spec.rb", null],
    ]);
  });
  it("must not fire when the run's count line says nothing failed, nor on a command without the re-run form", () => {
    expect(
      found(
        [
          "Finished in 0.2 seconds (files took 0.1 seconds to load)",
          "3 examples, 0 failures",
          "",
          rerun,
        ].join("\n"),
      ),
    ).toEqual([]);
    expect(found("rspec ./spec/kiln_spec.rb:14")).toEqual([]);
    // A test's output printing one, in a log with the run's own failure list.
    const run = [
      rerun,
      "",
      "Failures:",
      "",
      "  1) Lid seals",
      "     Failure/Error: expect(lid).to be_sealed",
      "     # ./spec/lid_spec.rb:5:in `block (2 levels) in <top (required)>'",
      "",
      "Finished in 0.2 seconds (files took 0.1 seconds to load)",
      "3 examples, 1 failure",
      "",
      "Failed examples:",
      "",
      "rspec ./spec/lid_spec.rb:4 # Lid seals",
    ];
    expect(found(run.join("\n")).map((f) => f[0])).toEqual(["spec/lid_spec.rb > Lid seals"]);
    expect(found("bundle exec rspec spec/kiln_spec.rb:14 # Kiln heats")).toEqual([]);
  });
});

describe("Rust: a panic alone whose backtrace was cut inside the panic's own machinery", () => {
  const head = [
    "thread 'tests::heats_evenly' panicked at 'assertion failed: heat > 900', tests/kiln.rs:18:9",
    "stack backtrace:",
    "   0: backtrace::backtrace::libunwind::trace",
    "             at /cargo/registry/src/github.com-1ecc6299db9ec823/backtrace-0.3.44/src/backtrace/libunwind.rs:86",
    "   1: std::sys_common::backtrace::_print_fmt",
    "             at src/libstd/sys_common/backtrace.rs:78",
    "   2: core::fmt::write",
    "             at src/libcore/fmt/mod.rs:1069",
    "   3: std::panicking::default_hook::{{closure}}",
    "             at src/libstd/panicking.rs:198",
  ];
  it("names the test its module-path thread names, as with no backtrace", () => {
    expect(found(head.join("\n"))).toEqual([["tests::heats_evenly", "tests/kiln.rs", 18]]);
  });
  it("must not fire once the backtrace reaches a program frame that is not the thread's", () => {
    const log = [...head, "   4: kiln::worker::run", "             at src/worker.rs:40:5"].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("pytest: a pasted block whose body is a native traceback through pytest's own runner", () => {
  const title = "________________________ test_heat[900-glaze] ________________________";
  const tb = [
    "Traceback (most recent call last):",
    '  File "/usr/lib/python3.14/site-packages/_pytest/runner.py", line 341, in from_call',
    "    result: TResult | None = func()",
    '  File "/usr/lib/python3.14/site-packages/pluggy/_hooks.py", line 512, in __call__',
  ];
  it("names the block's test (a fragment's block with no `E   ` line)", () => {
    expect(found([title, ...tb].join("\n"))).toEqual([["test_heat[900-glaze]", null, null]]);
  });
  it("must not fire on a traceback that does not run through pytest's package, nor one that is not right under the title", () => {
    const other = [tb[0]!, '  File "/home/me/kiln/run.py", line 3, in <module>', "    main()"];
    expect(found([title, ...other].join("\n"))).toEqual([]);
    expect(found([title, "kiln: firing", ...tb].join("\n"))).toEqual([]);
  });
});

describe("unittest: a header with the test's duration, and a traceback wholly inside installed packages", () => {
  const egg = "/opt/py/lib/python3.11/site-packages";
  const block = (header: string, frames: string[]) => [
    "======================================================================",
    header,
    "Check that the kiln heats evenly.",
    "----------------------------------------------------------------------",
    "Traceback (most recent call last):",
    ...frames,
    "AssertionError: 800 != 900",
  ];
  const own = `  File "${egg}/kiln-1.0-py3.11.egg/test/unit/heat.py", line 22, in test_even`;
  const helper = `  File "${egg}/kiln_testing-0.3.egg/kiln_testing/case.py", line 93, in assertEqual`;
  it("reads the header and places the failure in the test module's own tree, not the helper's wrapper", () => {
    const log = block("FAIL [0.756s]: test_even (test.unit.heat.HeatTest)", [
      own,
      "    self.assertEqual(t, 900)",
      helper,
    ]);
    expect(found(log.join("\n"))).toEqual([["test.unit.heat.HeatTest.test_even", "test/unit/heat.py", 22]]);
  });
  it("must not move the place when a frame is the project's own (not installed)", () => {
    const log = block("FAIL: test_even (test.unit.heat.HeatTest)", [
      '  File "/home/me/kiln/test/unit/heat.py", line 22, in test_even',
      '  File "/home/me/kiln/kiln/oven.py", line 7, in heat',
    ]);
    expect(found(log.join("\n"))).toEqual([["test.unit.heat.HeatTest.test_even", "kiln/oven.py", 7]]);
  });
  it("must not read a bracket that is no duration as a header", () => {
    expect(found(block("FAIL [flaky]: test_even (test.unit.heat.HeatTest)", [own]).join("\n"))).toEqual([]);
  });
});

describe("shunit2: `ASSERT:` lines under a test's name line", () => {
  const run = [
    "test_heats",
    "test_cools",
    "kiln: cooling to 20",
    "ASSERT:the kiln should cool expected:<20> but was:<35>",
    "test_glazes",
    "ASSERT:[41] glaze missing",
  ];
  it("fails the name line above each, confirmed by shunit2's own lines", () => {
    const log = [
      ...run,
      "shunit2:ERROR test_glazes() returned non-zero return code.",
      "",
      "Ran 3 tests.",
      "",
      "FAILED (failures=2)",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["test_cools", null, null],
      ["test_glazes", null, null],
    ]);
    expect(parseLog(log.join("\n")).failures[1]!.message).toBe("glaze missing");
  });
  it("must not fire without shunit2's own lines, under `OK`, or with no name line above", () => {
    expect(found(run.join("\n"))).toEqual([]);
    expect(found([...run, "Ran 3 tests.", "", "OK"].join("\n"))).toEqual([]);
    expect(found(["ASSERT:the kiln should cool", "shunit2:WARN trap already set"].join("\n"))).toEqual([]);
  });
});

describe("cargo: a pasted libtest stdout block cut before its panic, right after a block that panicked", () => {
  const failed = (n: string, line: number) => [
    `---- tests::${n} stdout ----`,
    `thread 'tests::${n}' panicked at 'assertion failed: heat > 900', src/kiln.rs:${line}:9`,
  ];
  it("is a failure (libtest prints the successes' blocks before the failures')", () => {
    const log = [...failed("heats", 12), "---- tests::cools stdout ----", "th"].join("\n");
    expect(found(log)).toEqual([
      ["tests::heats", "src/kiln.rs", 12],
      ["tests::cools", null, null],
    ]);
  });
  it("must not fire alone, nor under a `successes:` heading", () => {
    expect(found(["---- tests::cools stdout ----", "th"].join("\n"))).toEqual([]);
    const shown = ["successes:", "", ...failed("heats", 12), "---- tests::cools stdout ----", "cooling"];
    expect(found(shown.join("\n")).map((f) => f[0])).not.toContain("tests::cools");
  });
});

describe("Boost.Test: check lines naming their case", () => {
  it("a count line with no case named: failed, nothing named", () => {
    const r = parseLog(
      ["Running 3 test cases...", "", '*** 3 failures are detected in the test module "kiln"'].join("\n"),
    );
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toContain("boost-test");
  });
  const check = (c: string, line: number) =>
    `test/kiln_test.cpp(${line}): error: in "Kiln/${c}": check heat == 900 has failed [800 != 900]`;
  it("one failure per case, at its first check, confirmed by Boost.Test's own lines", () => {
    const log = [
      "Running 4 test cases...",
      check("Heats", 12),
      check("Heats", 14),
      'unknown location(0): fatal error: in "Kiln/Cools": std::runtime_error: too hot',
      "",
      '*** 3 failures are detected in the test module "kiln"',
    ];
    expect(found(log.join("\n"))).toEqual([
      ["Kiln/Heats", "test/kiln_test.cpp", 12],
      ["Kiln/Cools", null, null],
    ]);
  });
  it("must not fire without Boost.Test's own lines, nor under `*** No errors detected`", () => {
    expect(found(check("Heats", 12))).toEqual([]);
    expect(
      found(["Running 1 test case...", check("Heats", 12), "", "*** No errors detected"].join("\n")),
    ).toEqual([]);
  });
});
