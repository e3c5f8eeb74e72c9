/**
 * Classes from the hold22 set's misses (issue 10, fixer f10n): mocha's numbered failure whose spec tree lost its top
 * describe (a paste drops the first line's indentation), xUnit's bare `Method [FAIL]` named by its async frame.
 * Each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);

describe("mocha: a spec tree whose top describe lost its indentation", () => {
  const tail = [
    " ",
    "  0 passing (32ms)",
    "  1 failing",
    " ",
    "  1) Kettle pours a full cup:",
    "     TypeError: undefined is not a function",
    "      at Context.<anonymous> (kettleTest.js:12:27)",
  ];
  it("takes the describe from the failure's joined titles when the entry's indent says one level is missing", () => {
    const r = parseLog(["Kettle", "", "    1) pours a full cup", ...tail].join("\n"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["Kettle > pours a full cup", "kettleTest.js", 12],
    ]);
  });
  it("keeps the deeper describes the listing did read", () => {
    const log = [
      "Kettle",
      "    when full",
      "      1) pours a full cup",
      " ",
      "  0 passing (3ms)",
      "  1 failing",
      " ",
      "  1) Kettle when full pours a full cup:",
      "     Error: spilled",
      "      at Context.<anonymous> (kettleTest.js:9:3)",
    ].join("\n");
    expect(ids(log)).toEqual(["Kettle > when full > pours a full cup"]);
  });
  it("must not fire: a root-level test (indent 2) keeps the failure's title as printed", () => {
    expect(ids(["  1) Kettle pours a full cup", ...tail].join("\n"))).toEqual(["Kettle pours a full cup"]);
  });
  it("must not fire: two levels missing cannot be split at a space", () => {
    const log = [
      "      1) pours a full cup",
      " ",
      "  0 passing (3ms)",
      "  1 failing",
      " ",
      "  1) Kettle when full pours a full cup:",
      "     Error: spilled",
      "      at Context.<anonymous> (kettleTest.js:9:3)",
    ].join("\n");
    expect(ids(log)).toEqual(["Kettle when full pours a full cup"]);
  });
});

describe("xUnit: a bare `Method [FAIL]` named by the test's own frame", () => {
  const fail = (frame: string) =>
    [
      "[xUnit.net 00:00:06.91]     PoursFullCup [FAIL]",
      "[xUnit.net 00:00:06.91]       Assert.Equal() Failure",
      "[xUnit.net 00:00:06.91]       Expected: 0",
      "[xUnit.net 00:00:06.91]       Actual:   1",
      "[xUnit.net 00:00:06.92]       Stack Trace:",
      `[xUnit.net 00:00:06.92]         ${frame}`,
      "[xUnit.net 00:00:06.92]         --- End of stack trace from previous location where exception was thrown ---",
      "[xUnit.net 00:00:06.92]            at System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw()",
    ].join("\n");
  it("an async test's state-machine frame gives the class, and places it even in a Microsoft.* namespace", () => {
    const r = parseLog(
      fail(
        "/src/test/Microsoft.Kettle.Tests/PourTests.cs(55,0): at Microsoft.Kettle.Tests.PourTests.<PoursFullCup>d__0.MoveNext()",
      ),
    );
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["Microsoft.Kettle.Tests.PourTests.PoursFullCup", "/src/test/Microsoft.Kettle.Tests/PourTests.cs", 55],
    ]);
  });
  it("a synchronous frame of the method names it too", () => {
    expect(ids(fail("at Kettle.Tests.PourTests.PoursFullCup() in /src/PourTests.cs:line 9"))).toEqual([
      "Kettle.Tests.PourTests.PoursFullCup",
    ]);
  });
  it("must not fire: a frame of another method leaves the bare name", () => {
    expect(
      ids(fail("/src/Kettle/Pour.cs(55,0): at Microsoft.Kettle.Pour.<FillAsync>d__3.MoveNext()")),
    ).toEqual(["PoursFullCup"]);
  });
});

describe("gocheck: problem reports under its separator line", () => {
  const sep = "-".repeat(70);
  it("reads `FAIL: file.go:N: Suite.Method` under the separator, named Suite.Method, with no place", () => {
    const log = [
      "=== RUN   Test",
      sep,
      "FAIL: kettle_test.go:206: KettleSuite.TestPour",
      "",
      "kettle_test.go:207:",
      "    c.Assert(cups, check.Equals, 2)",
      "... obtained int = 1",
      "... expected int = 2",
      "",
      sep,
      "PANIC: kettle_test.go:90: KettleSuite.TestBoil",
      "",
      "... Panic: boiled dry (PC=0x4A8F2C)",
      "",
      "OOPS: 12 passed, 1 FAILED, 1 PANICKED",
      "--- FAIL: Test (3.10s)",
      "FAIL",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.format, f.test, f.file, f.message])).toEqual([
      ["gocheck", "KettleSuite.TestPour", null, "... obtained int = 1\n... expected int = 2"],
      ["gocheck", "KettleSuite.TestBoil", null, "... Panic: boiled dry (PC=0x4A8F2C)"],
      // go test's own wrapper test that runs the suite (`func Test(t) { check.TestingT(t) }`) failed only through
      // them: the same failures again, not a test of its own (as a go parent that failed only through its subtests).
    ]);
  });
  it("must not fire: a `FAIL: x.go:N: A.B` line with no separator above it, or DejaGnu-like lines under one", () => {
    const log = [
      "FAIL: kettle_test.go:206: KettleSuite.TestPour",
      sep,
      "FAIL: kettle.pour/half.c -O0 execution test",
    ];
    expect(parseLog(log.join("\n")).failures.filter((f) => f.format === "gocheck")).toEqual([]);
  });
});

describe("PHPUnit: an entry pasted as one line, name and assertion joined", () => {
  it("counts once a PHP frame follows; a global-namespace class right in `test/` learns the checkout", () => {
    const log = [
      "KettleTest::testPoursCup Failed asserting that 500 matches expected 200",
      "",
      "C:\\xampp\\htdocs\\shop\\api\\test\\KettleTest.php:15",
      "C:\\xampp\\php\\pear\\PHPUnit\\TextUI\\Command.php:176",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.format, f.test, f.file, f.line, f.message])).toEqual([
      [
        "phpunit",
        "KettleTest::testPoursCup",
        "test/KettleTest.php",
        15,
        "Failed asserting that 500 matches expected 200",
      ],
    ]);
  });
  it("a namespaced class with a data set keeps the data set in its id", () => {
    const log = [
      'Shop\\Tests\\KettleTest::testPours with data set "full" Failed asserting that false is true.',
      "/home/me/shop/tests/KettleTest.php:21",
    ].join("\n");
    expect(ids(log)).toEqual(['Shop\\Tests\\KettleTest::testPours with data set "full"']);
  });
  it("must not fire: the joined line with no frame after it, or prose naming a static call", () => {
    expect(ids("KettleTest::testPoursCup Failed asserting that 500 matches expected 200\nDone.")).toEqual([]);
    expect(ids("Cache::forget Failed asserting that it was called, see docs\nnothing else")).toEqual([]);
  });
});

describe("java-stack: a Java assertion's stack alone names its test by the test's own frame", () => {
  const junit5 = [
    "\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)",
    "\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:177)",
    "\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1145)",
  ];
  it("the test class's outermost frame, called by reflection, is the test", () => {
    const log = [
      "org.opentest4j.AssertionFailedError: expected: <2> but was: <1>",
      ...junit5,
      "\tat org.kettle.PourTest.check(PourTest.java:40)",
      "\tat org.kettle.PourTest.poursTwoCups(PourTest.java:21)",
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
      "\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)",
      "BUILD FAILED",
    ].join("\n");
    expect(parseLog(log).failures.map((f) => [f.format, f.test, f.file, f.line, f.message])).toEqual([
      [
        "java-stack",
        "org.kettle.PourTest.poursTwoCups",
        "src/test/java/org/kettle/PourTest.java",
        40,
        "expected: <2> but was: <1>",
      ],
    ]);
  });
  it("a paste cut right after the test's frame (Gradle's `app//` loader prefix)", () => {
    const log = [
      "org.opentest4j.AssertionFailedError: ==> expected: <true> but was: <false>",
      "\tat app//org.junit.jupiter.api.AssertTrue.assertTrue(AssertTrue.java:36)",
      "\tat app//org.kettle.PourTest.pours(PourTest.java:85)",
    ].join("\n");
    expect(ids(log)).toEqual(["org.kettle.PourTest.pours"]);
  });
  it("must not fire: an ordinary exception's stack through a test class", () => {
    const log = [
      "java.lang.NullPointerException: cup",
      "\tat org.kettle.Kettle.pour(Kettle.java:12)",
      "\tat org.kettle.PourTest.pours(PourTest.java:85)",
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
    ].join("\n");
    expect(ids(log)).toEqual([]);
  });
  it("must not fire: an assertion thrown in application code, or a test class called by application code", () => {
    const inApp = [
      "java.lang.AssertionError: invariant broken",
      "\tat org.kettle.Kettle.pour(Kettle.java:12)",
      "\tat org.kettle.PourTest.pours(PourTest.java:85)",
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
    ];
    const calledByApp = [
      "org.opentest4j.AssertionFailedError: expected: <2> but was: <1>",
      ...junit5,
      "\tat org.kettle.PourTest.check(PourTest.java:40)",
      "\tat org.kettle.Harness.run(Harness.java:9)",
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
    ];
    const notATest = [
      "org.opentest4j.AssertionFailedError: expected: <2> but was: <1>",
      ...junit5,
      "\tat org.kettle.Checks.verify(Checks.java:40)",
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
    ];
    expect(ids(inApp.join("\n"))).toEqual([]);
    expect(ids(calledByApp.join("\n"))).toEqual([]);
    expect(ids(notATest.join("\n"))).toEqual([]);
  });
  it("must not fire: under a green runner summary; and a runner's report of the same block wins", () => {
    const stack = [
      "org.opentest4j.AssertionFailedError: expected: <2> but was: <1>",
      ...junit5,
      "\tat org.kettle.PourTest.pours(PourTest.java:21)",
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
    ];
    expect(
      ids(
        [
          ...stack,
          "[INFO] Results:",
          "[INFO] ",
          "[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0",
          "[INFO] BUILD SUCCESS",
        ].join("\n"),
      ),
    ).toEqual([]);
    const surefire = [
      "[INFO] Running org.kettle.PourTest",
      "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! - in org.kettle.PourTest",
      "[ERROR] pours  Time elapsed: 0.01 s  <<< FAILURE!",
      ...stack,
      "",
      "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0",
    ];
    expect(parseLog(surefire.join("\n")).failures.map((f) => [f.format, f.test])).toEqual([
      ["surefire", "org.kettle.PourTest.pours"],
    ]);
  });
});

describe("Codeception: failure entries named by their ` Test ` line", () => {
  it("reads `1) Cest: title` with ` Test  path:method` under it, placed at the failing step in that file", () => {
    const log = [
      "Codeception PHP Testing Framework v4.1.0",
      "There were 2 failures:",
      "",
      "---------",
      "1) KettleCest: Pour a cup",
      " Test  tests/api/KettleCest.php:pourACup",
      " Step  See response code is 200",
      " Fail  Expected HTTP Status Code: 200 (OK). Actual Status Code: 500",
      "Failed asserting that 500 matches expected 200.",
      "",
      "Scenario Steps:",
      "",
      " 2. $I->seeResponseCodeIs(200) at tests/api/KettleCest.php:19",
      ' 1. $I->sendGET("/cups") at tests/api/KettleCest.php:18',
      "",
      "---------",
      "2) BoilCept: Boil water",
      " Test  tests/acceptance/BoilCept.php",
      ' Fail  Element "#done" was not found.',
      "",
      "FAILURES!",
      "Tests: 5, Assertions: 9, Failures: 2.",
    ].join("\n");
    expect(parseLog(log).failures.map((f) => [f.format, f.test, f.file, f.line])).toEqual([
      ["codeception", "tests/api/KettleCest.php:pourACup", "tests/api/KettleCest.php", 19],
      ["codeception", "tests/acceptance/BoilCept.php", null, null],
    ]);
  });
  it("must not fire: PHPUnit's numbered entries, or a ` Test ` line not right under a number", () => {
    const log = [
      "There was 1 failure:",
      "",
      "1) Shop\\KettleTest::testPour",
      "Failed asserting that false is true.",
      "",
      " Test  tests/api/KettleCest.php:pourACup",
    ].join("\n");
    expect(parseLog(log).failures.filter((f) => f.format === "codeception")).toEqual([]);
  });
});
