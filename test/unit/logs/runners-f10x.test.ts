/**
 * Runner shapes added on branch f10x (misses of the hold30 corpus, tainted once scored). Each log is written here
 * for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("unittest: a log rendered as markdown (rules turned into headings)", () => {
  it("`## FAIL: test_x (m.C)` is a header; `# ` and `---` close its block; a cut name is no test", () => {
    const log = [
      "Creating test database for alias 'default'...",
      "# ....F....F..",
      "## FAIL: test_glaze (kiln.tests.GlazeTests)",
      "",
      "Traceback (most recent call last):",
      '  File "/home/me/env/lib/python2.6/site-packages/kiln/tests.py", line 14, in test_glaze',
      "    self.assertEqual(glaze(), 'shiny')",
      "AssertionError: u'' != 'shiny'",
      "# ",
      "## ERROR: test_fire (kiln.tests.FireTests)",
      "",
      "Traceback (most recent call last):",
      '  File "/home/me/env/lib/python2.6/site-packages/kiln/tests.py", line 40, in test_fire',
      "    fire(900)",
      "ValueError: too cold",
      "",
      "---",
      "",
      "Ran 14 tests in 0.100s",
      "## FAIL: test_default_sets_html_for_",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["kiln.tests.GlazeTests.test_glaze", "kiln/tests.py", 14],
      ["kiln.tests.FireTests.test_fire", "kiln/tests.py", 40],
    ]);
  });

  it("a module that failed to import, as a markdown heading, is one failure (no import error beside it)", () => {
    const log = [
      "kiln (unittest.loader._FailedTest) ... ERROR",
      "# ",
      "## ERROR: kiln (unittest.loader._FailedTest)",
      "",
      "ImportError: Failed to import test module: kiln",
      "Traceback (most recent call last):",
      '  File "/usr/lib/python3.5/unittest/loader.py", line 369, in _get_module_from_name',
      "    __import__(name)",
      '  File "/build/kiln/kiln.py", line 3, in <module>',
      "    from packaging.version import parse",
      "ImportError: No module named 'packaging'",
      "",
      "---",
      "",
      "Ran 1 test in 0.000s",
      "",
      "FAILED (errors=1)",
    ];
    expect(parseLog(log.join("\n")).failures.map((f) => f.test)).toEqual([
      "unittest.loader._FailedTest.kiln",
    ]);
  });

  it("must not fire: a markdown heading that merely mentions FAIL is no header", () => {
    const log = ["## FAIL: what to do when the kiln cracks", "", "Open the lid.", "---"];
    expect(found(log.join("\n"))).toEqual([]);
  });
});

const files = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file]);

describe("prove: verdict lines and a report whose heading was elided", () => {
  it("`Failed N/M subtests` fails the program when an entry confirms prove; machine paths from `tests/`", () => {
    const log = [
      "$ prove -r ~/src/kiln/",
      "/home/me/src/kiln/tests/fire/01.t ............ Failed 2/10 subtests",
      "/home/me/src/kiln/tests/fire/02.t ............ Failed 1/10 subtests",
      "/home/me/src/kiln/tests/fire/03.t ............ ok",
      "...",
      "/home/me/src/kiln/tests/fire/01.t   (Wstat: 0 Tests: 10 Failed: 2)",
      "  Failed tests:  2-3",
    ];
    expect(files(log.join("\n")).sort()).toEqual([
      [null, "tests/fire/01.t"],
      [null, "tests/fire/02.t"],
    ]);
  });

  it("a program without `.t` under the report's heading, and prove's `Result: FAIL` is no tasty test", () => {
    const log = [
      "  $ prove ./kilntest",
      "  ./kilntest .. Failed 3/40 subtests",
      "          (less 2 skipped subtests: 35 okay)",
      "",
      "  Test Summary Report",
      "  -------------------",
      "  ./kilntest (Wstat: 0 Tests: 40 Failed: 3)",
      "    Failed tests:  2, 4, 9",
      "  Files=1, Tests=40,  0 wallclock secs ( 0.02 usr +  0.00 sys =  0.02 CPU)",
      "  Result: FAIL",
    ];
    expect(files(log.join("\n"))).toEqual([[null, "kilntest"]]);
  });

  it("must not fire: a verdict line with none of prove's own lines around it names nothing", () => {
    expect(files("t/glaze.t .. Failed 1/3 subtests\n")).toEqual([]);
  });

  it("must not fire: a tasty test called Result is still read when no prove count line is above it", () => {
    const log = ["kiln", "  Result: FAIL", "    cracked", "1 out of 1 tests failed (0.01s)"];
    expect(files(log.join("\n"))).toEqual([["kiln.Result", null]]);
  });
});

describe("TAP: a producer's count sentence is no tape header", () => {
  it("`# All 1 test passed.` after the last test line is a count (Common Lisp prove), not a test that died", () => {
    const log = [
      "# glaze",
      "    # coat 1",
      "    ok 1 - coat 1",
      "    # coat 2",
      "    ok 2 - coat 2",
      "not ok 1 - glaze",
      "# All 1 test passed.",
    ];
    expect(files(log.join("\n"))).toEqual([["glaze", null]]);
  });

  it("must not fire: a header that ends the stream without its plan still names the test the process died in", () => {
    const log = ["TAP version 13", "# glaze", "ok 1 should be equal", "# fire all pots"];
    expect(files(log.join("\n"))).toEqual([["fire all pots", null]]);
  });
});

describe("CppUTest", () => {
  it("`Failure in TEST(Group, Name)` is the test Group.Name at its file and line; a `[FAIL]` line names the same", () => {
    const log = [
      "TEST(KilnGroup, Heats)",
      "tests/kiln_test.cpp:17: error: Failure in TEST(KilnGroup, Heats)",
      "\texpected <900>",
      "\tbut was  <850>",
      "",
      "TEST(KilnGroup, Heats) - 3 ms [FAIL]",
      "TEST(KilnGroup, Cools) - 1 ms [FAIL]",
      "TEST(KilnGroup, Opens) - 0 ms",
      "",
      "Errors (2 failures, 3 tests, 3 ran, 4 checks, 0 ignored, 0 filtered out, 4 ms)",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["KilnGroup.Heats", "tests/kiln_test.cpp", 17],
      ["KilnGroup.Cools", null, null],
    ]);
  });

  it("must not fire: passing `-v` lines and the macro in source code name nothing", () => {
    const log = [
      "TEST(KilnGroup, Opens) - 0 ms",
      "TEST(KilnGroup, Heats)",
      "{",
      "  CHECK(true);",
      "}",
      "OK (2 tests, 2 ran, 1 checks, 0 ignored, 0 filtered out, 0 ms)",
    ];
    expect(found(log.join("\n"))).toEqual([]);
  });
});

describe("cucumber: the Failing Scenarios list", () => {
  it("a listed scenario is its title, at the feature's line, when the count line counts failures", () => {
    const log = [
      "Failing Scenarios:",
      "cucumber features/kiln.feature:3 # Scenario: firing a full kiln",
      "features/glaze.feature:12 # Scenario Outline: glazing <pot>",
      "",
      "4 scenarios (2 failed, 2 passed)",
      "12 steps (2 failed, 10 passed)",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["firing a full kiln", "features/kiln.feature", 3],
      ["glazing <pot>", "features/glaze.feature", 12],
    ]);
  });

  it("must not fire: a list without a failing count line under it names nothing", () => {
    const log = ["Failing Scenarios:", "features/kiln.feature:3 # Scenario: firing a full kiln", "", "Done."];
    expect(found(log.join("\n"))).toEqual([]);
    const zero = ["Failing Scenarios:", "features/kiln.feature:3 # Scenario: x", "1 scenario (1 passed)"];
    expect(found(zero.join("\n"))).toEqual([]);
  });
});
