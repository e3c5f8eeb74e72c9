/**
 * Runner shapes added on branch f10ac (inventions and misses of the hold34 corpus, tainted once scored). Each log is
 * written here for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must
 * not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";
import { gluedNumbers } from "../../../src/logs/prefix.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("go test's alarm (`panic: test timed out`) with no `running tests:` list (Go before 1.20)", () => {
  const dump = [
    "panic: test timed out after 10m0s",
    "",
    "goroutine 40 [running]:",
    "testing.(*M).startAlarm.func1()",
    "\t/usr/local/go/src/testing/testing.go:1459 +0xdf",
    "created by time.goFunc",
    "\t/usr/local/go/src/time/sleep.go:168 +0x44",
    "",
    "goroutine 1 [chan receive, 8 minutes]:",
    "testing.(*T).Run(0xc000147320, 0x8d13bd, 0x8, 0x8f0c70, 0x4bfeb6)",
    "\t/usr/local/go/src/testing/testing.go:1043 +0x37e",
    "testing.(*M).Run(0xc000158100, 0x0)",
    "\t/usr/local/go/src/testing/testing.go:1199 +0x15f",
    "github.com/kilnworks/kiln/firing.TestMain(0xc000158100)",
    "\t/go/src/github.com/kilnworks/kiln/firing/kiln_test.go:20 +0x187",
    "main.main()",
    "\t_testmain.go:42 +0x135",
    "",
  ];
  it("takes the test the dump shows running, not TestMain, placed at its own frame under GOPATH", () => {
    const log = [
      ...dump,
      "goroutine 6 [chan receive]:",
      "testing.(*T).Run(0xc000146000, 0xc0000240f0, 0x2d, 0xc00007c0f0, 0x2)",
      "\t/usr/local/go/src/testing/testing.go:1043 +0x37e",
      "github.com/kilnworks/kiln/firing.TestFiring(0xc000147320)",
      "\t/go/src/github.com/kilnworks/kiln/firing/kiln_test.go:88 +0x4fb",
      "testing.tRunne",
      "",
    ].join("\n");
    expect(found(log)).toEqual([["github.com/kilnworks/kiln/firing.TestFiring", "firing/kiln_test.go", 88]]);
  });
  it("names no test when only TestMain's goroutine shows a test function", () => {
    const r = parseLog(dump.join("\n"));
    expect(r.failures.filter((f) => f.test !== null)).toEqual([]);
  });
});

describe("a GOPATH prompt's `go test` names the package of a paste cut before its package line", () => {
  const body = [
    "--- FAIL: TestGlaze (0.00s)",
    "    glaze_test.go:26: glaze didn't set",
    "    glaze_test.go:27: got 3 coats",
  ];
  it("takes the import path below `src` of a Windows prompt", () => {
    const log = ["E:\\go\\src\\github.com\\kilnworks\\kiln>go test -v", ...body].join("\n");
    expect(found(log)).toEqual([["github.com/kilnworks/kiln.TestGlaze", "glaze_test.go", 26]]);
  });
  it("takes it from a Unix prompt, the file under the package's directory", () => {
    const log = ["me@box:~/go/src/github.com/kilnworks/kiln/glaze$ go test -run TestGlaze", ...body].join(
      "\n",
    );
    expect(found(log)).toEqual([["github.com/kilnworks/kiln/glaze.TestGlaze", "glaze/glaze_test.go", 26]]);
  });
  it("does not fire for a prompt naming packages (`./...`), outside GOPATH, or when go prints the package", () => {
    expect(found(["E:\\go\\src\\github.com\\kilnworks\\kiln>go test ./...", ...body].join("\n"))).toEqual([
      ["TestGlaze", "glaze_test.go", 26],
    ]);
    expect(found(["C:\\work\\kiln>go test", ...body].join("\n"))).toEqual([
      ["TestGlaze", "glaze_test.go", 26],
    ]);
    const printed = [
      "E:\\go\\src\\github.com\\kilnworks\\kiln>go test",
      ...body,
      "FAIL",
      "FAIL\tgithub.com/kilnworks/kiln/v2\t0.01s",
    ].join("\n");
    expect(found(printed).map((f) => f[0])).toEqual(["github.com/kilnworks/kiln/v2.TestGlaze"]);
  });
});

describe("a Surefire recap entry ending the log with no line and no message may be cut mid-name", () => {
  const recap = [
    "[INFO] Results:",
    "[INFO] ",
    "[ERROR] Failures: ",
    "[ERROR]   KilnTest.heats:75 expected: <0> but was: <2>",
    "[ERROR]   KilnTest.heats:75 expected: <0> but was: <2>",
  ];
  it("leaves the last, bare entry out and reports a repeated parameterized entry once", () => {
    const log = [...recap, "[ERROR]   GlazeTest.coatsTheP"].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["KilnTest.heats"]);
  });
  it("keeps a bare entry the log goes on after (the count line follows it)", () => {
    const log = [
      ...recap,
      "[ERROR]   GlazeTest.coatsThePot",
      "[INFO] ",
      "[ERROR] Tests run: 9, Failures: 3, Errors: 0, Skipped: 0",
    ].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["KilnTest.heats", "GlazeTest.coatsThePot"]);
  });
  it("keeps a last entry that has its line", () => {
    const log = [...recap, "[ERROR]   GlazeTest.coatsThePot:12"].join("\n");
    expect(found(log).map((f) => f[0])).toEqual(["KilnTest.heats", "GlazeTest.coatsThePot"]);
  });
});

describe("a paste that starts inside Surefire 2's recap (its heading cut)", () => {
  const entries = [
    "  KilnTest.heatsToNineHundred:941 ",
    "Expected: iterable containing [900]",
    "     but: item 0: was 800",
    "  KilnTest.cools:864 expected:<20> but was:<40>",
    "",
  ];
  it("reads the entries when the run's count line with failures follows their block", () => {
    const log = [
      ...entries,
      "Tests run: 69, Failures: 2, Errors: 0, Skipped: 0",
      "",
      "[INFO] BUILD FAILURE",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.test, f.line])).toEqual([
      ["KilnTest.heatsToNineHundred", 941],
      ["KilnTest.cools", 864],
    ]);
    expect(r.failures[0]!.message).toContain("but: item 0: was 800");
  });
  it("reads nothing without the count line, with a count of no failures, or below other lines", () => {
    expect(parseLog([...entries, "[INFO] BUILD FAILURE"].join("\n")).failures).toEqual([]);
    expect(
      parseLog([...entries, "Tests run: 69, Failures: 0, Errors: 0, Skipped: 0"].join("\n")).failures,
    ).toEqual([]);
    expect(
      parseLog(["kiln log", ...entries, "Tests run: 69, Failures: 2, Errors: 0, Skipped: 0"].join("\n"))
        .failures,
    ).toEqual([]);
  });
});

describe("a Travis job's line numbers glued to Ant's task column (`277   [testng] FAILED: x`)", () => {
  const body = [
    "   [testng] FAILED: testPours",
    "   [testng] java.lang.AssertionError: ",
    "   [testng] \tat org.testng.AssertJUnit.fail(AssertJUnit.java:59)",
    "   [testng] \tat org.testng.AssertJUnit.assertTrue(AssertJUnit.java:24)",
    "   [testng] \tat org.kettle.KettleTest.testPours(KettleTest.java:138)",
    "   [testng] \tat sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)",
    "   [testng] \tat java.lang.reflect.Method.invoke(Method.java:601)",
    "   [testng] \tat org.testng.internal.Invoker.invokeMethod(Invoker.java:701)",
  ];
  it("takes the numbers off, then the column, and reads the stack", () => {
    const log = body.map((l, i) => `${277 + i}${l}`).join("\n");
    expect(parseLog(log).failures.map((f) => f.test)).toEqual(["org.kettle.KettleTest.testPours"]);
  });
  it("counts only a column right-aligned to 11 as the glue, never a list's number", () => {
    expect(gluedNumbers(["7   [testng] a", "8   [testng] b", "9   [testng] c"])).toEqual([7, 8, 9]);
    expect(gluedNumbers(["7  [testng] a", "8  [testng] b", "9  [testng] c"])).toBeNull();
    expect(gluedNumbers(["1. [junit] a", "2. [junit] b", "3. [junit] c"])).toBeNull();
  });
});

describe("wptrunner's mach lines (`TEST_START:` / `TEST_END: … TIMEOUT, expected FAIL`)", () => {
  it("fails a test whose result was not the expected one, pairing TEST_END with its thread's TEST_START", () => {
    const log = [
      " 1:28.96 TEST_START: Thread-TestrunnerManager-31 /kiln/heat-001.htm",
      " 1:29.10 TEST_START: Thread-TestrunnerManager-32 /kiln/cool-002.htm",
      " 1:30.00 TEST_END: Thread-TestrunnerManager-32 PASS",
      " 1:45.02 TEST_END: Thread-TestrunnerManager-31 TIMEOUT, expected FAIL",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.test, f.file])).toEqual([["/kiln/heat-001.htm", null]]);
    expect(r.tests.map((t) => [t.id, t.outcome])).toEqual([
      ["/kiln/cool-002.htm", "passed"],
      ["/kiln/heat-001.htm", "failed"],
    ]);
  });
  it("fails nothing for an expected failure, an unexpected pass, or a TEST_END with no TEST_START", () => {
    const log = [
      " 0:01.00 TEST_START: /kiln/heat-001.htm",
      " 0:02.00 TEST_END: FAIL",
      " 0:03.00 TEST_START: /kiln/cool-002.htm",
      " 0:04.00 TEST_END: PASS, expected FAIL",
      " 0:05.00 TEST_END: Thread-TestrunnerManager-9 TIMEOUT, expected OK",
    ].join("\n");
    expect(parseLog(log).failures).toEqual([]);
  });
});

describe("NUnitLite under Touch.Unit (`[FAIL] Class.Method :` with a mono stack)", () => {
  it("names the test by the frame that gives its namespace", () => {
    const log = [
      "    [FAIL] KilnTest.Heats :   Expected: True",
      "        But was:  False",
      "    \t  at kiln.KilnTest.Heats () [0x00052] in tests/kiln/KilnTests.fs:34",
      "    \t  at (wrapper managed-to-native) System.Reflection.MonoMethod.InternalInvoke(System.Reflection.MonoMethod,object,object[],System.Exception&)",
    ].join("\n");
    expect(found(log)).toEqual([["kiln.KilnTest.Heats", "tests/kiln/KilnTests.fs", 34]]);
  });
  it("reads nothing when no frame below the line names that method", () => {
    const noFrame = ["[FAIL] KilnTest.Heats :   Expected: True", "  But was:  False"].join("\n");
    expect(found(noFrame)).toEqual([]);
    const other = [
      "[FAIL] KilnTest.Heats : boom",
      "  at kiln.Oven.Heats () [0x00052] in src/Oven.fs:3",
      "  at kiln.Other.Test () [0x00001] in src/Other.fs:9",
    ].join("\n");
    expect(found(other)).toEqual([]);
  });
});

describe("Cutter's `Failure: case::test` entries", () => {
  it("reads an entry with its assertion's expression line below it", () => {
    const log = [
      "#   testKiln::test_heats:              F",
      "",
      "Failure: testKiln::test_heats",
      "<expected == actual>",
      "expected: <900>",
      "  actual: <800>",
    ].join("\n");
    expect(found(log)).toEqual([["testKiln::test_heats", null, null]]);
  });
  it("reads nothing without the expression line", () => {
    expect(found(["Failure: testKiln::test_heats", "kiln went cold"].join("\n"))).toEqual([]);
  });
});
