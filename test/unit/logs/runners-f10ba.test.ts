/**
 * Rules added on branch f10ba (issue 10: formats and shapes still missed): a JUnit 5 stack alone whose frames carry
 * a module's version (`java.base@11.0.11/`) and the JDK's reflective construction of the assertion, or pass through a
 * helper of the test's project; the Maven Invoker Plugin's failed integration builds; Julia's failing leaf testsets.
 * Each log is written here for a small kiln library of our own, in the runner's byte layout; each rule has a case
 * where it must not fire (a green log yields zero failures) and one where it must fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("java-stack: module versions in frames, reflective construction, helpers between", () => {
  const reflect = [
    "\tat java.base@17.0.2/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)",
    "\tat java.base@17.0.2/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance(NativeConstructorAccessorImpl.java:77)",
    "\tat java.base@17.0.2/jdk.internal.reflect.DelegatingConstructorAccessorImpl.newInstance(DelegatingConstructorAccessorImpl.java:45)",
  ];
  const called = [
    "\tat java.base@17.0.2/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
    "\tat java.base@17.0.2/java.lang.reflect.Method.invoke(Method.java:568)",
    "\tat app//org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:727)",
  ];
  it("a stack whose assertion the JDK built reflectively, frames behind `java.base@17.0.2/`", () => {
    const log = [
      "org.opentest4j.AssertionFailedError: ",
      "Expecting value to be true but was false",
      ...reflect,
      "\tat app//org.kettle.HeatTest.reachesNineHundred(HeatTest.java:31)",
      ...called,
    ].join("\n");
    expect(found(log)).toEqual([
      ["org.kettle.HeatTest.reachesNineHundred", "src/test/java/org/kettle/HeatTest.java", 31],
    ]);
  });
  it("test-named helpers between the assertion and the test reflection called", () => {
    const log = [
      "org.opentest4j.AssertionFailedError: expected: <900> but was: <800>",
      ...reflect,
      "\tat org.kettle.TestKilnRunner.run(TestKilnRunner.java:95)",
      "\tat org.kettle.KilnTest.probe(KilnTest.java:12)",
      "\tat org.kettle.glaze.GlazeTest.firesTwice(GlazeTest.java:41)",
      ...called,
    ].join("\n");
    expect(found(log)).toEqual([
      ["org.kettle.glaze.GlazeTest.firesTwice", "src/test/java/org/kettle/glaze/GlazeTest.java", 41],
    ]);
  });
  it("must not fire: the frame reflection called is no test class, application code stands between, or the type is the JDK's own AssertionError", () => {
    const notATest = [
      "org.opentest4j.AssertionFailedError: expected: <900> but was: <800>",
      ...reflect,
      "\tat org.kettle.GlazeTest.check(GlazeTest.java:41)",
      "\tat org.kettle.Harness.run(Harness.java:9)",
      ...called,
    ];
    const jdkAssert = [
      "java.lang.AssertionError: kiln invariant",
      "\tat org.kettle.Kiln.heat(Kiln.java:12)",
      "\tat org.kettle.KilnTest.heats(KilnTest.java:21)",
      ...called,
    ];
    expect(found(notATest.join("\n"))).toEqual([]);
    const appBetween = [
      "org.opentest4j.AssertionFailedError: expected: <900> but was: <800>",
      ...reflect,
      "\tat org.kettle.TestKilnRunner.run(TestKilnRunner.java:95)",
      "\tat org.kettle.Kiln.heat(Kiln.java:12)",
      "\tat org.kettle.glaze.GlazeTest.firesTwice(GlazeTest.java:41)",
      ...called,
    ];
    expect(found(appBetween.join("\n"))).toEqual([]);
    expect(found(jdkAssert.join("\n"))).toEqual([]);
  });
  it("must not fire in a green run: Maven's summary counts no failure", () => {
    const log = [
      "org.opentest4j.AssertionFailedError: expected: <900> but was: <800>",
      ...reflect,
      "\tat org.kettle.TestKilnRunner.run(TestKilnRunner.java:95)",
      "\tat org.kettle.glaze.GlazeTest.firesTwice(GlazeTest.java:41)",
      ...called,
      "[INFO] Results:",
      "[INFO] ",
      "[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0",
      "[INFO] BUILD SUCCESS",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("maven-invoker: `The following builds failed:` under the invoker's Build Summary", () => {
  const rule = "[INFO] -------------------------------------------------";
  it("each `*  ` entry is a failed integration build, named as printed", () => {
    const log = [
      rule,
      "[INFO] Build Summary:",
      "[INFO]   Passed: 3, Failed: 1, Errors: 1, Skipped: 0",
      rule,
      "[ERROR] The following builds failed:",
      "[ERROR] *  fires-glaze/pom.xml",
      "[ERROR] *  cools-slowly/pom.xml",
      rule,
      "[INFO] BUILD FAILURE",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.format, f.test])).toEqual([
      ["maven-invoker", "fires-glaze/pom.xml"],
      ["maven-invoker", "cools-slowly/pom.xml"],
    ]);
  });
  it("must not fire: a green invoker run, or a bulleted list under another heading", () => {
    const green = [
      rule,
      "[INFO] Build Summary:",
      "[INFO]   Passed: 4, Failed: 0, Errors: 0, Skipped: 0",
      rule,
      "[INFO] BUILD SUCCESS",
    ].join("\n");
    expect(found(green)).toEqual([]);
    const other = [
      "[INFO] The following projects were built:",
      "[INFO] *  fires-glaze/pom.xml",
      "[INFO] BUILD SUCCESS",
    ];
    expect(found(other.join("\n"))).toEqual([]);
  });
});

describe("julia: a failing testset with no nested testset in the Test Summary table", () => {
  it("the table's failing leaf is named, by its path of testsets", () => {
    const single = [
      "Test Summary:   | Pass  Fail  Total",
      "Kiln heat curve |    1     1      2",
      "ERROR: LoadError: Some tests did not pass: 1 passed, 1 failed, 0 errored, 0 broken.",
    ].join("\n");
    expect(found(single)).toEqual([["Kiln heat curve", null, null]]);
    const nested = [
      "Test Summary: | Pass  Fail  Error  Total",
      "Kiln          |    5     1      1      7",
      "  heat        |    3     1             4",
      "  glaze       |    2                   2",
      "  cool        |                 1      1",
      "ERROR: LoadError: Some tests did not pass: 5 passed, 1 failed, 1 errored, 0 broken.",
    ].join("\n");
    expect(found(nested)).toEqual([
      ["Kiln/heat", null, null],
      ["Kiln/cool", null, null],
    ]);
  });
  it("placed by the failure above the table when one leaf failed: `Test Failed at`, else the first own frame", () => {
    const table = [
      "Test Summary:   | Pass  Fail  Total",
      "Kiln heat curve |    1     1      2",
      "ERROR: LoadError: Some tests did not pass: 1 passed, 1 failed, 0 errored, 0 broken.",
    ];
    const failedAt = [
      "Kiln heat curve: Test Failed at /home/runner/work/kiln/kiln/test/runtests.jl:12",
      "  Expression: heat(k) == 900",
      "   Evaluated: 800 == 900",
    ];
    // Julia 1.8+ prints the testset's name before `Test Failed at`; older ones print the line alone.
    for (const log of [failedAt, failedAt.map((l) => l.replace(/^Kiln heat curve: /, ""))])
      expect(found([...log, ...table].join("\n"))).toEqual([["Kiln heat curve", "test/runtests.jl", 12]]);
    const frames = [
      "Stacktrace:",
      " [1] macro expansion",
      "   @ C:\\Users\\me\\AppData\\Local\\Programs\\Julia-1.7.3\\share\\julia\\stdlib\\v1.7\\Test\\src\\Test.jl:445 [inlined]",
      " [2] macro expansion",
      "   @ C:\\Users\\me\\.julia\\packages\\Kiln\\2rphi\\test\\runtests.jl:27 [inlined]",
      " [3] top-level scope",
      "   @ C:\\Users\\me\\.julia\\packages\\Kiln\\2rphi\\test\\runtests.jl:18",
    ];
    expect(found([...frames, ...table].join("\n"))).toEqual([["Kiln heat curve", "test/runtests.jl", 27]]);
  });
  it("must not fire: a green table, or a failing testset whose failures are its own beside passing children", () => {
    const green = [
      "Test Summary: | Pass  Total",
      "Kiln          |    7      7",
      "  heat        |    4      4",
    ];
    expect(found(green.join("\n"))).toEqual([]);
    const aggregate = [
      "Test Summary: | Pass  Fail  Total",
      "Kiln          |    6     2      8",
      "  heat        |    3            3",
      "  glaze       |    1            1",
      "ERROR: LoadError: Some tests did not pass: 6 passed, 2 failed, 0 errored, 0 broken.",
    ].join("\n");
    const r = parseLog(aggregate);
    expect(r.failures).toEqual([]);
    expect(r.unnamedFailuresIn).toContain("julia");
  });
});

describe("eunit: failures wait for their run's summary", () => {
  const failure = [
    "kiln_tests: heat_test...*failed*",
    "in function kiln_tests:heat_test/0 (test/kiln_tests.erl, line 12)",
    "**error:{assertEqual_failed,[{module,kiln_tests},{line,12},{expected,900},{value,800}]}",
    '  output:<<"">>',
    "",
  ];
  it("still fires when the summary counts a failure, and in a log cut before any summary", () => {
    const counted = [
      ...failure,
      "=======================================================",
      "  Failed: 1.  Skipped: 0.  Passed: 3.",
    ];
    expect(found(counted.join("\n"))).toEqual([["kiln_tests:heat_test/0", "test/kiln_tests.erl", 12]]);
    expect(found(failure.join("\n"))).toEqual([["kiln_tests:heat_test/0", "test/kiln_tests.erl", 12]]);
  });
  it("must not fire in a run that closes `All N tests passed.` whatever its tests printed", () => {
    const green = [
      "==> kiln (eunit)",
      "ERROR: kiln probe offline, retrying",
      ...failure,
      "  All 4 tests passed.",
    ];
    expect(found(green.join("\n"))).toEqual([]);
    // A failing run, then a green run of another application: the first run's failure stays.
    const two = [
      ...failure,
      "  Failed: 1.  Skipped: 0.  Passed: 3.",
      "==> glaze (eunit)",
      "  All 2 tests passed.",
    ];
    expect(found(two.join("\n"))).toEqual([["kiln_tests:heat_test/0", "test/kiln_tests.erl", 12]]);
  });
});

describe("shunit2: a CI retry of the same script keeps the last run's verdict", () => {
  const failing = [
    "test_heats",
    "ASSERT:the kiln should heat expected:<900> but was:<800>",
    "test_cools",
    "Ran 2 tests.",
    "",
    "FAILED (failures=1)",
  ];
  const retried = ["test_heats", "test_cools", "Ran 2 tests.", "", "OK"];
  it("must not fire when the retry ran the failed test again and closed `OK`", () => {
    expect(found([...failing, "retrying (2/3)", ...retried].join("\n"))).toEqual([]);
  });
  it("still fires when the retry failed it again, when the green run ran other tests, and when the log is cut in the retry", () => {
    expect(found([...failing, ...failing].join("\n"))).toEqual([["test_heats", null, null]]);
    const other = ["test_glazes", "Ran 1 test.", "", "OK"];
    expect(found([...failing, ...other].join("\n"))).toEqual([["test_heats", null, null]]);
    expect(found([...failing, "test_heats"].join("\n"))).toEqual([["test_heats", null, null]]);
  });
  it("a green first run then a failing retry: failed", () => {
    expect(found([...retried, ...failing].join("\n"))).toEqual([["test_heats", null, null]]);
  });
});

describe("Boost.Test: a CI retry of the same binary keeps the last run's verdict", () => {
  const check = (c: string, line: number) =>
    `test/kiln_test.cpp(${line}): error: in "Kiln/${c}": check heat == 900 has failed [800 != 900]`;
  const count = (n: number) =>
    `*** ${n} failure${n > 1 ? "s are" : " is"} detected in the test module "kiln"`;
  it("a retry of the same module that fails another case only: the first case passed there", () => {
    const log = [
      "Running 3 test cases...",
      check("Heats", 12),
      "",
      count(1),
      "Running 3 test cases...",
      check("Cools", 30),
      "",
      count(1),
    ];
    expect(found(log.join("\n"))).toEqual([["Kiln/Cools", "test/kiln_test.cpp", 30]]);
  });
  it("a retry at `--log_level=test_suite` that enters and leaves the case with no failed check", () => {
    const verbose = [
      "Running 2 test cases...",
      'Entering test module "kiln"',
      'test/kiln_test.cpp(8): Entering test suite "Kiln"',
      'test/kiln_test.cpp(10): Entering test case "Heats"',
      'test/kiln_test.cpp(10): Leaving test case "Heats"; testing time: 41us',
      'test/kiln_test.cpp(20): Entering test case "Cools"',
      'test/kiln_test.cpp(20): Leaving test case "Cools"; testing time: 12us',
      'test/kiln_test.cpp(8): Leaving test suite "Kiln"; testing time: 80us',
      'Leaving test module "kiln"; testing time: 95us',
      "",
      "*** No errors detected",
    ];
    const first = ["Running 2 test cases...", check("Heats", 12), "", count(1)];
    expect(found([...first, ...verbose].join("\n"))).toEqual([]);
  });
  it("still fires: a bare `*** No errors detected` names no module (another binary), a retry that fails it again, a retry cut before its close", () => {
    const first = ["Running 2 test cases...", check("Heats", 12), "", count(1)];
    expect(found([...first, "Running 2 test cases...", "", "*** No errors detected"].join("\n"))).toEqual([
      ["Kiln/Heats", "test/kiln_test.cpp", 12],
    ]);
    expect(found([...first, ...first].join("\n"))).toEqual([["Kiln/Heats", "test/kiln_test.cpp", 12]]);
    const cut = [
      "Running 2 test cases...",
      'Entering test module "kiln"',
      'test/kiln_test.cpp(8): Entering test suite "Kiln"',
    ];
    expect(found([...first, ...cut].join("\n"))).toEqual([["Kiln/Heats", "test/kiln_test.cpp", 12]]);
  });
  it("a case failing at `--log_level=test_suite` is still read", () => {
    const log = [
      "Running 1 test case...",
      'Entering test module "kiln"',
      'test/kiln_test.cpp(8): Entering test suite "Kiln"',
      'test/kiln_test.cpp(10): Entering test case "Heats"',
      check("Heats", 12),
      'test/kiln_test.cpp(10): Leaving test case "Heats"; testing time: 41us',
      'test/kiln_test.cpp(8): Leaving test suite "Kiln"; testing time: 80us',
      'Leaving test module "kiln"; testing time: 95us',
      "",
      count(1),
    ];
    expect(found(log.join("\n"))).toEqual([["Kiln/Heats", "test/kiln_test.cpp", 12]]);
  });
});

describe("nim: std/unittest's `[FAILED]` lines and nimble's failed test programs", () => {
  const red = [
    "",
    "[Suite] kiln",
    "  [OK] heats",
    "    /home/me/kiln/tests/tkiln.nim(12, 5): Check failed: cool(k) == 20",
    "    cool(k) was 35",
    "  [FAILED] cools",
    "  [SKIPPED] glazes",
  ];
  it("a failed test under its suite, placed at its check line", () => {
    expect(found(red.join("\n"))).toEqual([["kiln::cools", "/home/me/kiln/tests/tkiln.nim", 12]]);
    const bare = ["/home/me/kiln/tests/tkiln.nim(12, 5): Check failed: cool(k) == 20", "[FAILED] cools"];
    expect(found(bare.join("\n"))).toEqual([["cools", "/home/me/kiln/tests/tkiln.nim", 12]]);
    expect(found(["[Suite] kiln", "[OK] heats", "[FAILED] cools"].join("\n"))).toEqual([
      ["cools", null, null],
    ]);
  });
  it("must not fire: margin `[OK]`/`[FAILED]` statuses with no `[Suite]` or check line (a retry loop)", () => {
    expect(found(["[FAILED] db not ready, retrying", "[OK] db ready"].join("\n"))).toEqual([]);
    expect(found(["[OK] heats", "[FAILED] cools"].join("\n"))).toEqual([]);
  });
  it("a passing rerun cancels: a later `[OK]` for the same id, or nimble's `Success: All tests passed`", () => {
    const failed = ["[Suite] kiln", "  [FAILED] heats", "  [FAILED] cools"];
    expect(found([...failed, "[Suite] kiln", "  [OK] heats"].join("\n"))).toEqual([
      ["kiln::cools", null, null],
    ]);
    expect(found([...failed, "[Suite] glaze", "  [OK] heats"].join("\n"))).toEqual([
      ["kiln::heats", null, null],
      ["kiln::cools", null, null],
    ]);
    expect(
      found([...failed, "[Suite] kiln", "  [OK] heats", "   Success: All tests passed"].join("\n")),
    ).toEqual([]);
  });
  it("must not fire: a green unittest run, or a `[FAILED]` line with none of unittest's lines (a service manager)", () => {
    expect(found(["[Suite] kiln", "  [OK] heats", "  [OK] cools"].join("\n"))).toEqual([]);
    expect(
      found(
        ["[FAILED] Failed to start kiln.service.", "See 'systemctl status kiln.service' for details."].join(
          "\n",
        ),
      ),
    ).toEqual([]);
  });
  const nimble = (verdict: string) =>
    [
      "  Compiling /tmp/kiln/tests/tkiln (from package kiln) using c backend",
      "        ... Error: execution of an external program failed: '/tmp/kiln/tests/tkiln'",
      verdict,
    ].join("\n");
  it("nimble: a test program that failed, counted by `Only N/M tests passed`", () => {
    expect(found(nimble("     Error: Only 0/1 tests passed"))).toEqual([["tests/tkiln", null, null]]);
  });
  it("must not fire: nimble's `All tests passed`, or the program line with no nimble count", () => {
    expect(found(nimble("   Success: All tests passed"))).toEqual([]);
    expect(found(nimble("done"))).toEqual([]);
  });
});

describe("as-pect: `❌ test` entries under a failed file's `Pass: N / M` header", () => {
  it("a failed test under its group, also when a paste joined it to the `Reason:` line", () => {
    const log = [
      "✔ assembly/__tests__/glaze.spec.ts Pass: 3 / 3 Todo: 0 Time: 0.912ms",
      "❌ assembly/__tests__/kiln.spec.ts Pass: 4 / 5 Todo: 0 Time: 1.741ms",
      "  Kiln",
      "  Reason: Test suite Kiln failed.",
      "    ❌ heats to 900 - ",
      "      [Expected]: 900",
      "      [Actual]  : 800",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["assembly/__tests__/kiln.spec.ts > Kiln > heats to 900", null, null],
    ]);
    const joined = [log[1]!, log[2]!, `${log[3]!}    ❌ heats to 900 - `, log[5]!, log[6]!];
    expect(found(joined.join("\n"))).toEqual([
      ["assembly/__tests__/kiln.spec.ts > Kiln > heats to 900", null, null],
    ]);
  });
  it("must not fire: every file passed, whatever the lines under them print", () => {
    const log = [
      "✔ assembly/__tests__/glaze.spec.ts Pass: 3 / 3 Todo: 0 Time: 0.912ms",
      "    ❌ not a failure - a test's own log line",
      "✔ assembly/__tests__/kiln.spec.ts Pass: 5 / 5 Todo: 0 Time: 1.741ms",
    ];
    expect(found(log.join("\n"))).toEqual([]);
  });
});
