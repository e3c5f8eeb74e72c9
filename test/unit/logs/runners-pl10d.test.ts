/**
 * Runner outputs added on branch pl10d: the JUnit Platform Console Launcher, Jasmine's suite errors and other
 * console shapes, AVA 1–3's verbose reporter. The logs are written here for a small kettle library of our own, in the
 * runners' byte layout (learned from public issue threads and the runners' printers); each rule has a green case.
 *
 * Where the shapes were learned (read, not copied): JUnit console — junit-team/junit-framework#3744 and #658, the
 * launcher's TreePrinter, Theme and MutableTestExecutionSummary, and the corpus' hold9-gradle-3 (a real
 * `junitPlatformTest` log); Jasmine — jasmine/jasmine-npm's console_reporter.js, jasmine/jasmine-gem#163; AVA 1–3 —
 * avajs/ava's test-tap/reporters/verbose.regular.v10/v12 logs; XCTest — JohnSundell/Files#40, ole/Ampere#24,
 * jpsim/Yams#143; Swift Testing — swiftlang/swift-testing#1283, #1420, swiftlang/vscode-swift#1458; dart test —
 * dart-lang/test's expanded.dart and github.dart reporters; deno test — denoland/deno's tests/specs/test/fail/main.out
 * and denoland/deno#14484.
 */
import { describe, expect, it } from "vitest";
import { createLogParser, parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);
const outcomes = (text: string) => parseLog(text).tests.map((t) => [t.id, t.outcome]);

describe("JUnit Platform Console Launcher", () => {
  const tree = [
    "",
    "Thanks for using JUnit! Support its development at https://junit.org/sponsoring",
    "",
    "╷",
    "├─ JUnit Platform Suite ✔",
    "├─ JUnit Jupiter ✔",
    "│  ├─ KettleTest ✔",
    "│  │  ├─ boilsAtHundred() ✔",
    "│  │  ├─ pourHalf() ✘ expected: <500> but was: <499>",
    "│  │  ├─ heats(int, String) ✔",
    "│  │  │  ├─ [1] 20, cold ✔",
    "│  │  │  └─ [2] 80, hot ✘ expected: <hot> but was: <warm>",
    "│  │  ├─ descales() ↷ not on this board",
    "│  │  └─ Lid ✔",
    "│  │     └─ clicksShut() ✘ lid stayed open",
    "│  └─ SpoutTest ✔",
    "│     └─ drips() ■ Assumption failed: no water",
    "└─ JUnit Vintage ✔",
    "",
    "Failures (3):",
    "  JUnit Jupiter:KettleTest:pourHalf()",
    "    MethodSource [className = 'org.kettle.KettleTest', methodName = 'pourHalf', methodParameterTypes = '']",
    "    => org.opentest4j.AssertionFailedError: expected: <500> but was: <499>",
    "       org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)",
    "       org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:150)",
    "       org.kettle.KettleTest.pourHalf(KettleTest.java:27)",
    "       java.base/java.lang.reflect.Method.invoke(Method.java:580)",
    "       [...]",
    "  JUnit Jupiter:KettleTest:heats(int, String):[2] 80, hot",
    "    MethodSource [className = 'org.kettle.KettleTest', methodName = 'heats', methodParameterTypes = 'int, java.lang.String']",
    "    => org.opentest4j.AssertionFailedError: expected: <hot> but was: <warm>",
    "       org.kettle.KettleTest.heats(KettleTest.java:41)",
    "       [...]",
    "  JUnit Jupiter:KettleTest:Lid:clicksShut()",
    "    MethodSource [className = 'org.kettle.KettleTest$Lid', methodName = 'clicksShut', methodParameterTypes = '']",
    "    => java.lang.IllegalStateException: lid stayed open",
    "       org.kettle.Lid.close(Lid.java:12)",
    "       org.kettle.KettleTest$Lid.clicksShut(KettleTest.java:58)",
    "       [...]",
    "     Caused by: java.io.IOException: hinge",
    "       org.kettle.Hinge.turn(Hinge.java:4)",
    "       [...]",
    "",
    "Test run finished after 84 ms",
    "[         6 containers found      ]",
    "[         0 containers skipped    ]",
    "[         6 containers started    ]",
    "[         0 containers aborted    ]",
    "[         6 containers successful ]",
    "[         0 containers failed     ]",
    "[         7 tests found           ]",
    "[         1 tests skipped         ]",
    "[         6 tests started         ]",
    "[         1 tests aborted         ]",
    "[         2 tests successful      ]",
    "[         3 tests failed          ]",
    "",
  ].join("\n");

  it("names each failure from its MethodSource, places it in the test class, and takes the tree's outcomes", () => {
    expect(found(tree)).toEqual([
      ["org.kettle.KettleTest.pourHalf", "src/test/java/org/kettle/KettleTest.java", 27],
      ["org.kettle.KettleTest.heats(int, String)[2]", "src/test/java/org/kettle/KettleTest.java", 41],
      ["org.kettle.KettleTest$Lid.clicksShut", "src/test/java/org/kettle/KettleTest.java", 58],
    ]);
    const parsed = parseLog(tree);
    expect(parsed.failures[0]!.errorType).toBe("org.opentest4j.AssertionFailedError");
    expect(parsed.failures[0]!.message).toBe("expected: <500> but was: <499>");
    expect(parsed.failures[2]!.errorType).toBe("java.lang.IllegalStateException");
    expect(parsed.formats).toEqual(["junit-console"]);
    // Passing tests of a class a failure named in full take its package; SpoutTest had no failure entry.
    expect(outcomes(tree)).toEqual(
      expect.arrayContaining([
        ["org.kettle.KettleTest.boilsAtHundred", "passed"],
        ["org.kettle.KettleTest.heats(int, String)[1]", "passed"],
        ["org.kettle.KettleTest.descales", "skipped"],
        ["SpoutTest.drips", "skipped"],
      ]),
    );
    expect(parsed.tests.filter((t) => t.outcome === "failed")).toHaveLength(3);
    expect(parsed.counts["junit-console"]).toMatchObject({ passed: 2, failed: 3, skipped: 2 });
  });

  it("a green run whose tests print a tree, a Failures list and ✘ marks reports nothing", () => {
    const log = [
      "kettle: Failures (1):",
      "Failures (1):",
      "  JUnit Jupiter:FakeTest:printed()",
      "    MethodSource [className = 'org.kettle.FakeTest', methodName = 'printed', methodParameterTypes = '']",
      "    => java.lang.AssertionError: only text the test wrote",
      "       org.kettle.FakeTest.printed(FakeTest.java:3)",
      "",
      "╷",
      "├─ JUnit Jupiter ✔",
      "│  └─ KettleTest ✔",
      "│     ├─ boilsAtHundred() ✔",
      "│     └─ logsErrors() ✔",
      "└─ JUnit Vintage ✔",
      "",
      "Test run finished after 40 ms",
      "[         3 containers found      ]",
      "[         0 containers failed     ]",
      "[         2 tests found           ]",
      "[         2 tests successful      ]",
      "[         0 tests failed          ]",
    ].join("\n");
    expect(found(log)).toEqual([]);
    expect(outcomes(log)).toEqual([
      ["KettleTest.boilsAtHundred", "passed"],
      ["KettleTest.logsErrors", "passed"],
    ]);
  });

  it("a class whose @BeforeAll failed is the failure of the class (ClassSource), counted as a failed container", () => {
    const log = [
      "╷",
      "├─ JUnit Jupiter ✔",
      "│  └─ BoilerTest ✘ no gas",
      "└─ JUnit Vintage ✔",
      "",
      "Failures (1):",
      "  JUnit Jupiter:BoilerTest",
      "    ClassSource [className = 'org.kettle.BoilerTest', filePosition = null]",
      "    => java.lang.IllegalStateException: no gas",
      "       org.kettle.BoilerTest.lightUp(BoilerTest.java:15)",
      "       [...]",
      "",
      "Test run finished after 30 ms",
      "[         3 containers found      ]",
      "[         1 containers failed     ]",
      "[         0 tests found           ]",
      "[         0 tests successful      ]",
      "[         0 tests failed          ]",
    ].join("\n");
    expect(found(log)).toEqual([["org.kettle.BoilerTest", "src/test/java/org/kettle/BoilerTest.java", 15]]);
  });

  it("a multi-line message inside the Failures list, JUnit 5.0's JavaMethodSource, and a log cut before the table", () => {
    const log = [
      "Failures (2):",
      "  JUnit Jupiter:ScaleTest:weighs()",
      "    JavaMethodSource [javaClass = 'ScaleTest', javaMethodName = 'weighs', javaMethodParameterTypes = '']",
      "    => org.opentest4j.MultipleFailuresError: Multiple Failures (2 failures)",
      "\torg.opentest4j.AssertionFailedError: first pan",
      "",
      "  still the message",
      "       ScaleTest.weighs(ScaleTest.java:9)",
      "  JUnit Vintage:org.kettle.OldTest:tares",
      "    MethodSource [className = 'org.kettle.OldTest', methodName = 'tares', methodParameterTypes = '']",
      "    => java.lang.AssertionError: tare off by 2",
      "       org.junit.Assert.fail(Assert.java:89)",
      "       org.kettle.OldTest.tares(OldTest.java:21)",
    ].join("\n");
    expect(found(log)).toEqual([
      ["ScaleTest.weighs", "src/test/java/ScaleTest.java", 9],
      ["org.kettle.OldTest.tares", "src/test/java/org/kettle/OldTest.java", 21],
    ]);
    expect(parseLog(log).failures[0]!.message).toContain("still the message");
  });

  it("the ASCII theme, and a failed tree entry whose Failures entry was cut", () => {
    const log = [
      ".",
      "+-- JUnit Jupiter [OK]",
      "| '-- CupTest [OK]",
      "|   +-- fills() [OK]",
      "|   '-- spills() [X] too full",
      "'-- JUnit Vintage [OK]",
      "",
    ].join("\n");
    expect(found(log)).toEqual([["CupTest.spills", null, null]]);
    expect(outcomes(log)).toEqual([
      ["CupTest.fills", "passed"],
      ["CupTest.spills", "failed"],
    ]);
  });

  it("box-drawing lines of another tool, with no root or engine entry, are not read", () => {
    const log = ["├─ src ✔", "│  └─ index.ts ✘ changed", "└─ done"].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("Jasmine console reporter (jasmine, jasmine-browser-runner)", () => {
  it("a suite whose afterAll failed is a failure named by the suite, counted by the count line", () => {
    const log = [
      "Randomized with seed 40713",
      "Started",
      ".F..",
      "",
      "Failures:",
      "1) Kettle pours a cup",
      "  Message:",
      "    Expected 240 to equal 250.",
      "  Stack:",
      "        at <Jasmine>",
      "        at UserContext.<anonymous> (/home/runner/work/kettle/kettle/spec/kettle.spec.js:14:23)",
      "        at <Jasmine>",
      "",
      "Suite error: Kettle descaling",
      "  Message:",
      "    Error: tank still wet",
      "  Stack:",
      "        at UserContext.<anonymous> (/home/runner/work/kettle/kettle/spec/descale.spec.js:30:11)",
      "        at <Jasmine>",
      "",
      "Ran 4 of 6 specs",
      "4 specs, 2 failures",
      "Finished in 0.021 seconds",
      "Incomplete: fit() or fdescribe() was found",
      "Randomized with seed 40713 (jasmine --random=true --seed=40713)",
    ].join("\n");
    expect(found(log)).toEqual([
      ["Kettle pours a cup", "spec/kettle.spec.js", 14],
      ["Kettle descaling", "spec/descale.spec.js", 30],
    ]);
    expect(parseLog(log).failures[1]!.message).toBe("tank still wet");
  });

  it("a suite error alone (no Failures: heading), the run's own `top suite`, and jasmine-browser-runner's served paths", () => {
    const log = [
      "Running tests in the browser...",
      "Randomized with seed 1207",
      "Started",
      "..",
      "",
      "Suite error: top suite",
      "  Message:",
      "    Afterall ReferenceError: lid is not defined thrown",
      "  Stack:",
      "    ReferenceError: lid is not defined",
      "        at UserContext.<anonymous> (http://localhost:8888/__spec__/helpers/lid.js:3:5)",
      "",
      "2 specs, 1 failure",
      "Finished in 0.01 seconds",
    ].join("\n");
    expect(found(log)).toEqual([[null, "spec/helpers/lid.js", 3]]);
    const spec = [
      "Started",
      "F",
      "",
      "Failures:",
      "1) Spout drips slowly",
      "  Message:",
      "    Expected 3 to be less than 2.",
      "  Stack:",
      "        at <Jasmine>",
      "        at UserContext.<anonymous> (http://localhost:8888/__spec__/spoutSpec.js:7:19)",
      "",
      "1 spec, 1 failure",
    ].join("\n");
    expect(found(spec)).toEqual([["Spout drips slowly", "spec/spoutSpec.js", 7]]);
  });

  it("a green run whose specs print Failures:, Suite error: and numbered blocks reports nothing", () => {
    const log = [
      "Started",
      "Suite error: printed by a spec",
      "  Message:",
      "    Expected nothing, it is only output",
      "Failures:",
      "1) printed too",
      "  Message:",
      "    Error: still output",
      "  Stack:",
      "        at Object.<anonymous> (spec/fake.spec.js:1:1)",
      "...",
      "",
      "",
      "3 specs, 0 failures",
      "Finished in 0.004 seconds",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("AVA 1–3 verbose reporter", () => {
  it("AVA 1–2: the message after the title on the ✖ line, the counts before the detail blocks, no rule", () => {
    const log = [
      "",
      "  ✔ kettle › boils",
      "  ✖ kettle › pours half Test failed via `t.fail()`",
      "  ✔ kettle › known leak",
      "  - kettle › descales",
      "  ✖ kettle › whistles ",
      "    ℹ pressure 2",
      "",
      "  2 tests failed",
      "  1 known failure",
      "  1 test skipped",
      "",
      "  kettle › known leak",
      "",
      "  kettle › pours half",
      "",
      "  kettle.js:14",
      "",
      "   13: test('pours half', t => {",
      "   14:   t.fail();",
      "   15: });",
      "",
      "  Test failed via `t.fail()`",
      "",
      "  test/kettle.js:14:5",
      "",
      "",
      "",
      "  kettle › whistles",
      "",
      "  kettle.js:22",
      "",
      "   21:   const tone = whistle(2);",
      "   22:   t.is(tone, 'high');",
      "",
      "  Difference:",
      "",
      "  - 'low'",
      "  + 'high'",
      "",
      "Done.",
    ].join("\n");
    expect(found(log)).toEqual([
      ["kettle › pours half", "kettle.js", 14],
      ["kettle › whistles", "kettle.js", 22],
    ]);
    const parsed = parseLog(log);
    expect(parsed.failures[1]!.message).toBe("Difference:\n- 'low'\n+ 'high'");
    expect(parsed.failures[0]!.message).not.toContain("whistles");
  });

  it("AVA 3: a rule before and after the detail blocks, the counts last", () => {
    const log = [
      "  ✔ spout › drips",
      "  ✖ spout › pours Expected values to be strictly equal:",
      "  ─",
      "",
      "  spout › pours",
      "",
      "  spout.js:8",
      "",
      "   7: test('pours', t => {",
      "   8:   t.is(pour(), 3);",
      "",
      "  Difference:",
      "",
      "  - 2",
      "  + 3",
      "",
      "  › test/spout.js:8:5",
      "",
      "  ─",
      "",
      "  1 test failed",
    ].join("\n");
    expect(found(log)).toEqual([["spout › pours", "spout.js", 8]]);
    expect(outcomes(log)).toEqual([
      ["spout › drips", "passed"],
      ["spout › pours", "failed"],
    ]);
  });

  it("a green AVA 2 run whose output holds ✖ lines and a detail-like block reports nothing", () => {
    const log = [
      "  ✔ kettle › logs a cross",
      "    ℹ ✖ kettle › not a test",
      "  ✔ kettle › boils",
      "",
      "  2 tests passed",
      "",
      "  kettle › boils",
      "  Error: only output",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("the new shapes' patterns stay linear on hostile lines", () => {
  /** Host CPU of one parse, in ms; the parse must end with the whole log read. */
  const cpuOf = (lines: string[]): number => {
    const p = createLogParser();
    const t0 = process.cpuUsage();
    for (const l of lines) p.line(l);
    const r = p.end();
    const used = process.cpuUsage(t0);
    expect(r.stopped).toBeNull();
    return (used.user + used.system) / 1000;
  };

  it("a JUnit console tree nested thousands deep, long names under it, a Failures list of runaway frames", () => {
    const lines = ["╷", "├─ JUnit Jupiter ✔", `│  ├─ ${"K".repeat(16_000)} ✔`];
    for (let i = 0; i < 300; i++) lines.push(`${"│  ".repeat(5_000)}├─ deep${i}() ✔`);
    for (let i = 0; i < 3_000; i++) lines.push(`│  │  ├─ m${i}() ${"a ".repeat(2_000)}`);
    lines.push("", "Failures (1):", "  JUnit Jupiter:K:m()", "    => java.lang.AssertionError: x");
    for (let i = 0; i < 200; i++)
      lines.push(`       ${"a.".repeat(8_000)}(`, `      ${" 1".repeat(8_000)} ms`);
    lines.push("[         1 tests failed          ]");
    expect(cpuOf(lines)).toBeLessThan(6_000);
  });

  it("AVA ✖ entries with long space-separated titles and as many detail lines", () => {
    const title = "w ".repeat(990);
    const lines: string[] = [];
    for (let i = 0; i < 2_000; i++) lines.push(`  ✖ ${i}${title}`);
    lines.push("  2000 tests failed");
    for (let i = 0; i < 4_000; i++) lines.push(`  ${i % 7}${title.slice(0, 1_500)}`);
    expect(cpuOf(lines)).toBeLessThan(6_000);
  });

  it("swift test lines with runaway error markers, places and event words", () => {
    const lines = ["Test Suite 'All tests' started at x", "Test Case 'K.testA' started at x"];
    for (let i = 0; i < 300; i++)
      lines.push(
        `${"a:1: error: ".repeat(1_300)}`,
        `${"1:".repeat(8_000)}: error: K.testA : x`,
        `✘ Test a() recorded an issue${" at a.swift:1".repeat(1_200)}`,
        `✘ Test ${"a passed after 1".repeat(900)} failed after 1 seconds`,
      );
    lines.push("Test Case 'K.testA' failed (0.1 seconds)");
    expect(cpuOf(lines)).toBeLessThan(6_000);
  });

  it("dart progress lines and error blocks of runaway frames", () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++)
      lines.push(
        `00:01 +${i} -1: ${"a.dart: ".repeat(1_800)}t${i} [E]`,
        `  ${"(a.dart:1:1".repeat(1_400)}`,
        `  ${"x.dart 1:1 ".repeat(1_400)}`,
      );
    lines.push("00:02 +0 -300: Some tests failed.");
    expect(cpuOf(lines)).toBeLessThan(6_000);
  });

  it("deno result lines and ERRORS headers shaped to make the patterns backtrack", () => {
    const lines = ["running 1 test from ./a_test.ts"];
    for (let i = 0; i < 300; i++)
      lines.push(
        `${" ... FAILED (due to ".repeat(800)}`,
        `${" ... ok (1".repeat(1_500)}x`,
        `${"a ...".repeat(3_000)} b`,
      );
    lines.push(" ERRORS ");
    for (let i = 0; i < 300; i++)
      lines.push(`${"x => y ".repeat(2_000)}`, `  at ${"file://a:1".repeat(1_500)}`);
    lines.push("FAILED | 0 passed | 1 failed (1ms)");
    expect(cpuOf(lines)).toBeLessThan(6_000);
  });

  it("testthat headers and recaps shaped to make the patterns backtrack", () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++)
      lines.push(
        `── Failure ('${"a.R".repeat(3_000)}:1'): ${" ─ x".repeat(1_000)}`,
        `FAILURE (${"b.R:1 (".repeat(2_000)}`,
        `  ── Error (t${i}.R:1): ${"─".repeat(5_000)} ${"─ ".repeat(3_000)}x`,
      );
    lines.push("[ FAIL 300 | WARN 0 | SKIP 0 | PASS 0 ]");
    expect(cpuOf(lines)).toBeLessThan(6_000);
  });

  it("Jasmine suite errors with served URLs of runaway ports", () => {
    const lines = ["Started"];
    for (let i = 0; i < 300; i++)
      lines.push(
        `Suite error: s${i}`,
        "  Message:",
        "    x",
        "  Stack:",
        `        at f (${"http://localhost:".repeat(300)}${"1".repeat(8_000)}/__spec__/a.js:1:1)`,
      );
    lines.push("300 specs, 300 failures");
    expect(cpuOf(lines)).toBeLessThan(6_000);
  });
});

describe("swift test: XCTest", () => {
  it("Linux (swift-corelibs-xctest): the running test's assertion places its failure; the outermost suite's count", () => {
    const log = [
      "Building for debugging...",
      "Build complete! (12.40s)",
      "Test Suite 'All tests' started at 2026-11-27 07:00:00.100",
      "Test Suite 'debug.xctest' started at 2026-11-27 07:00:00.101",
      "Test Suite 'KettleTests' started at 2026-11-27 07:00:00.101",
      "Test Case 'KettleTests.testBoils' started at 2026-11-27 07:00:00.101",
      "Test Case 'KettleTests.testBoils' passed (0.001 seconds)",
      "Test Case 'KettleTests.testPour' started at 2026-11-27 07:00:00.102",
      '/home/runner/work/kettle/kettle/Tests/KettleTests/KettleTests.swift:14: error: KettleTests.testPour : XCTAssertEqual failed: ("499") is not equal to ("500") - ',
      "Test Case 'KettleTests.testPour' failed (0.002 seconds)",
      "Test Case 'KettleTests.testWhistle' started at 2026-11-27 07:00:00.104",
      "/home/runner/work/kettle/kettle/Tests/KettleTests/KettleTests.swift:20: KettleTests.testWhistle : Test skipped - no speaker",
      "Test Case 'KettleTests.testWhistle' skipped (0.000 seconds)",
      "Test Suite 'KettleTests' failed at 2026-11-27 07:00:00.105",
      "\t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.003 (0.003) seconds",
      "Test Suite 'debug.xctest' failed at 2026-11-27 07:00:00.105",
      "\t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.003 (0.003) seconds",
      "Test Suite 'All tests' failed at 2026-11-27 07:00:00.105",
      "\t Executed 3 tests, with 1 test skipped and 1 failure (0 unexpected) in 0.003 (0.004) seconds",
    ].join("\n");
    expect(found(log)).toEqual([["KettleTests.testPour", "Tests/KettleTests/KettleTests.swift", 14]]);
    const parsed = parseLog(log);
    expect(parsed.failures[0]!.errorType).toBe("XCTAssertEqual");
    expect(parsed.failures[0]!.message).toBe('XCTAssertEqual failed: ("499") is not equal to ("500")');
    expect(outcomes(log)).toEqual([
      ["KettleTests.testBoils", "passed"],
      ["KettleTests.testPour", "failed"],
      ["KettleTests.testWhistle", "skipped"],
    ]);
    expect(parsed.counts.xctest).toMatchObject({ passed: 1, failed: 1, skipped: 1 });
  });

  it("Apple platforms: `-[Module.Class method]` is `Class.method`; a thrown error with no place", () => {
    const log = [
      "Test Suite 'Selected tests' started at 2026-11-27 07:00:00.000.",
      "Test Case '-[KettleTests.LidTests testCloses]' started.",
      "/Users/runner/work/kettle/kettle/Tests/KettleTests/LidTests.swift:9: error: -[KettleTests.LidTests testCloses] : XCTAssertTrue failed - lid open",
      "Test Case '-[KettleTests.LidTests testCloses]' failed (0.001 seconds).",
      "Test Case '-[KettleTests.LidTests testHinge]' started.",
      '<unknown>:0: error: -[KettleTests.LidTests testHinge] : failed: caught error: "hingeStuck"',
      "Test Case '-[KettleTests.LidTests testHinge]' failed (0.001 seconds).",
      "Test Suite 'Selected tests' failed at 2026-11-27 07:00:00.010.",
      "\t Executed 2 tests, with 2 failures (1 unexpected) in 0.002 (0.003) seconds",
    ].join("\n");
    expect(found(log)).toEqual([
      ["LidTests.testCloses", "Tests/KettleTests/LidTests.swift", 9],
      ["LidTests.testHinge", null, null],
    ]);
  });

  it("a passing test that prints error lines, and a green count, report nothing", () => {
    const log = [
      "Test Suite 'All tests' started at 2026-11-27 07:00:00.100",
      "Test Case 'KettleTests.testLogs' started at 2026-11-27 07:00:00.101",
      "Sources/Kettle/Kettle.swift:3: error: KettleTests.testLogs : only the test's output",
      "Sources/Kettle/Kettle.swift:4: error: something else went wrong",
      "Test Case 'KettleTests.testLogs' passed (0.001 seconds)",
      "Test Suite 'All tests' passed at 2026-11-27 07:00:00.105",
      "\t Executed 1 test, with 0 failures (0 unexpected) in 0.001 (0.001) seconds",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("swift test: Swift Testing", () => {
  it("a failed test named as printed, placed by its issue; a parameterized test; the run line counts", () => {
    const log = [
      "◇ Test run started.",
      "↳ Testing Library Version: 6.1",
      "◇ Suite KettleSuite started.",
      "◇ Test boils() started.",
      "◇ Test pourHalf() started.",
      '◇ Test "Whistles when hot" started.',
      "✔ Test boils() passed after 0.001 seconds.",
      "✘ Test pourHalf() recorded an issue at KettleTests.swift:14:5: Expectation failed: (cup → 499) == 500",
      "↳ the spout drips",
      "✘ Test pourHalf() failed after 0.002 seconds with 1 issue.",
      '✘ Test "Whistles when hot" recorded an issue with 1 argument temp → 80 at WhistleTests.swift:8:3: Expectation failed: whistle(temp)',
      '✘ Test "Whistles when hot" with 2 test cases failed after 0.003 seconds with 1 issue.',
      "✘ Suite KettleSuite failed after 0.004 seconds with 2 issues.",
      "✘ Test run with 3 tests in 1 suite failed after 0.004 seconds with 2 issues.",
    ].join("\n");
    expect(parseLog(log).failures.map((f) => [f.test, f.file, f.line, f.message])).toEqual([
      ["pourHalf()", "KettleTests.swift", 14, "Expectation failed: (cup → 499) == 500\nthe spout drips"],
      ["Whistles when hot", "WhistleTests.swift", 8, "Expectation failed: whistle(temp)"],
    ]);
    expect(outcomes(log)).toEqual([
      ["boils()", "passed"],
      ["pourHalf()", "failed"],
      ["Whistles when hot", "failed"],
    ]);
  });

  it("a green run (a known issue, output that says failed) reports nothing", () => {
    const log = [
      "◇ Test run started.",
      "◇ Test boils() started.",
      "Test leaks() failed after 1 seconds.",
      "✘ Test boils() recorded a known issue at KettleTests.swift:3:5: Known issue",
      "✔ Test boils() passed after 0.001 seconds.",
      "✔ Test run with 1 test passed after 0.002 seconds.",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("dart test / flutter test, expanded reporter", () => {
  it("a failing test under its [E] line, placed by its terse stack; a file that did not load; the last line's counts", () => {
    const log = [
      "00:00 +0: loading test/kettle_test.dart",
      "00:01 +0: test/kettle_test.dart: Kettle boils",
      "00:01 +1: test/kettle_test.dart: Kettle pours half",
      "00:01 +1 -1: test/kettle_test.dart: Kettle pours half [E]",
      "  Expected: <500>",
      "    Actual: <499>",
      "",
      "  package:matcher                 expect",
      "  test/kettle_test.dart 14:5      main.<fn>.<fn>",
      "",
      "00:01 +1 -1: test/kettle_test.dart: Kettle whistles",
      "00:01 +1 -2: loading test/lid_test.dart [E]",
      '  Failed to load "test/lid_test.dart":',
      "  test/lid_test.dart:5:3: Error: Method not found: 'closeLid'.",
      "    closeLid();",
      "    ^^^^^^^^",
      "00:02 +2 ~1 -2: Some tests failed.",
    ].join("\n");
    expect(found(log)).toEqual([
      ["test/kettle_test.dart > Kettle pours half", "test/kettle_test.dart", 14],
      [null, "test/lid_test.dart", null],
    ]);
    const parsed = parseLog(log);
    expect(parsed.failures[0]!.message).toBe("Expected: <500>\n  Actual: <499>");
    expect(parsed.failures[1]!.category).toBe("build");
    expect(parsed.counts["dart-test"]).toMatchObject({ passed: 2, skipped: 1 });
  });

  it("flutter test: the exception block before the [E] line gives the message and the place; one file, no path", () => {
    const log = [
      "00:02 +0: Counter increments",
      "══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞════════════════════════════════════════════",
      "The following TestFailure was thrown running a test:",
      "Expected: exactly one matching candidate",
      '  Actual: _TextWidgetFinder:<Found 0 widgets with text "1": []>',
      "",
      "When the exception was thrown, this was the stack:",
      "#4      main.<anonymous closure> (file:///home/runner/work/app/app/test/widget_test.dart:22:5)",
      "<asynchronous suspension>",
      "",
      "════════════════════════════════════════════════════════════════════════════════════════════",
      "00:03 +0 -1: Counter increments [E]",
      "  Test failed. See exception logs above.",
      "  The test description was:",
      "    Counter increments",
      "",
      "00:03 +0 -1: Some tests failed.",
    ].join("\n");
    const parsed = parseLog(log);
    expect(parsed.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["test/widget_test.dart > Counter increments", "test/widget_test.dart", 22],
    ]);
    expect(parsed.failures[0]!.message).toContain("Expected: exactly one matching candidate");
  });

  it("a green run whose tests print [E]-like lines reports nothing", () => {
    const log = [
      "00:00 +0: Kettle boils",
      "00:00 +1: Kettle logs",
      "00:00 +1: printed by a test [E]",
      "  Expected: <1>",
      "00:01 +2: All tests passed!",
    ].join("\n");
    expect(found(log)).toEqual([]);
  });
});

describe("deno test", () => {
  it("failed tests and steps named file > test > step, placed by their file:// frame; the count line", () => {
    const log = [
      "Check file:///home/runner/work/kettle/kettle/kettle_test.ts",
      "running 3 tests from ./kettle_test.ts",
      "boils ... ok (2ms)",
      "pours half ... FAILED (3ms)",
      "lid ...",
      "  closes ... ok (0ms)",
      "  clicks ... FAILED (1ms)",
      "lid ... FAILED (due to 1 failed step) (2ms)",
      "whistles ... ignored (0ms)",
      "running 1 test from ./spout_test.ts",
      "drips ... ok (1ms)",
      "",
      " ERRORS ",
      "",
      "pours half => ./kettle_test.ts:5:6",
      "error: AssertionError: Values are not equal.",
      "",
      "",
      "    [Diff] Actual / Expected",
      "",
      "",
      "-   499",
      "+   500",
      "",
      "  throw new AssertionError(message);",
      "        ^",
      "    at assertEquals (https://jsr.io/@std/assert/1.0.7/equals.ts:51:9)",
      "    at file:///home/runner/work/kettle/kettle/kettle_test.ts:7:3",
      "",
      "lid ... clicks => ./kettle_test.ts:12:11",
      "error: Error: hinge stuck",
      "    at file:///home/runner/work/kettle/kettle/lid.ts:3:9",
      "    at eventLoopTick (ext:core/01_core.js:179:7)",
      "",
      " FAILURES ",
      "",
      "pours half => ./kettle_test.ts:5:6",
      "lid ... clicks => ./kettle_test.ts:12:11",
      "",
      "FAILED | 3 passed (1 step) | 2 failed (1 step) | 1 ignored (14ms)",
      "",
      "error: Test failed",
    ].join("\n");
    expect(found(log)).toEqual([
      ["kettle_test.ts > pours half", "kettle_test.ts", 7],
      ["kettle_test.ts > lid > clicks", "lid.ts", 3],
    ]);
    const parsed = parseLog(log);
    expect(parsed.failures[0]!.errorType).toBe("AssertionError");
    expect(parsed.failures[0]!.message).toBe("Values are not equal.");
    expect(outcomes(log)).toEqual(
      expect.arrayContaining([
        ["kettle_test.ts > boils", "passed"],
        ["kettle_test.ts > whistles", "skipped"],
        ["spout_test.ts > drips", "passed"],
      ]),
    );
  });

  it("an uncaught error is the file's; a green run that prints FAILED lines reports nothing", () => {
    const cut = [
      "running 1 test from ./tap_test.ts",
      "./tap_test.ts (uncaught error)",
      " ERRORS ",
      "",
      "./tap_test.ts (uncaught error)",
      "error: (in promise) Error: no water",
      "    at file:///home/runner/work/kettle/kettle/tap_test.ts:2:7",
      "",
      "FAILED | 0 passed | 1 failed (9ms)",
    ].join("\n");
    expect(found(cut)).toEqual([[null, "tap_test.ts", 2]]);
    const green = [
      "running 2 tests from ./kettle_test.ts",
      "boils ...",
      "------- output -------",
      "fake ... FAILED (1ms)",
      "----- output end -----",
      "boils ... ok (2ms)",
      "logs ... ok (1ms)",
      "",
      "ok | 2 passed | 0 failed (5ms)",
    ].join("\n");
    expect(found(green)).toEqual([]);
  });
});

describe("dart test, github reporter (its default inside GitHub Actions)", () => {
  it("the ❌ group title (kept by the framing) names the failure; its error and stack run to the next result", () => {
    const log = [
      "2026-11-27T07:00:00.0000000Z ##[group]Run dart test",
      "2026-11-27T07:00:01.0000000Z dart test",
      "2026-11-27T07:00:02.0000000Z ##[endgroup]",
      "2026-11-27T07:00:03.0000000Z ",
      "2026-11-27T07:00:03.1000000Z ##[group]✅ Passing tests",
      "2026-11-27T07:00:03.1000000Z ✅ test/kettle_test.dart: Kettle boils",
      "2026-11-27T07:00:03.1000000Z ##[endgroup]",
      "2026-11-27T07:00:03.2000000Z ##[group]❌ test/kettle_test.dart: Kettle pours half (failed)",
      "2026-11-27T07:00:03.2000000Z Expected: <500>",
      "2026-11-27T07:00:03.2000000Z   Actual: <499>",
      "2026-11-27T07:00:03.2000000Z ",
      "2026-11-27T07:00:03.2000000Z package:matcher                 expect",
      "2026-11-27T07:00:03.2000000Z test/kettle_test.dart 14:5      main.<fn>.<fn>",
      "2026-11-27T07:00:03.2000000Z ##[endgroup]",
      "2026-11-27T07:00:03.3000000Z ##[group]❎ test/kettle_test.dart: Kettle whistles (skipped)",
      "2026-11-27T07:00:03.3000000Z Skip: no speaker",
      "2026-11-27T07:00:03.3000000Z ##[endgroup]",
      "2026-11-27T07:00:03.4000000Z ",
      "2026-11-27T07:00:03.4000000Z ##[error]1 test passed, 1 failed, 1 skipped.",
      "2026-11-27T07:00:03.5000000Z ##[error]Process completed with exit code 1.",
    ].join("\n");
    const parsed = parseLog(log);
    expect(parsed.failures.map((f) => [f.format, f.test, f.file, f.line, f.message])).toEqual([
      [
        "dart-test",
        "test/kettle_test.dart > Kettle pours half",
        "test/kettle_test.dart",
        14,
        "Expected: <500>\n  Actual: <499>",
      ],
    ]);
  });

  it("a green github run, and ✅ lines another tool prints, report nothing", () => {
    const log = [
      "##[group]✅ Passing tests",
      "✅ Kettle boils",
      "##[endgroup]",
      "🎉 1 test passed.",
      "✅ deployed",
      "❌ lint (failed)",
    ].join("\n");
    expect(found(log)).toEqual([]);
    expect(found(["❌ lint (failed)", "  3 problems"].join("\n"))).toEqual([]);
  });
});

describe("R testthat", () => {
  it("Failure and Error headers under R CMD check's indentation; code outside test_that() is the file's; the last count", () => {
    const log = [
      "* checking tests ...",
      "  Running ‘testthat.R’",
      " ERROR",
      "Running the tests in ‘tests/testthat.R’ failed.",
      "Last 13 lines of output:",
      "  [ FAIL 3 | WARN 0 | SKIP 1 | PASS 9 ]",
      "  ",
      "  ══ Failed tests ════════════════════════════════════════════════════════",
      "  ── Failure ('test-kettle.R:5:3'): kettle pours half ─────────────────────",
      "  pour(1000) (`actual`) not equal to 500 (`expected`).",
      "  ",
      "    `actual`: 499",
      "  `expected`: 500",
      "  ── Error ('test-kettle.R:12:3'): kettle whistles ────────────────────────",
      "  Error in `whistle()`: no speaker",
      "  Backtrace:",
      "      ▆",
      "   1. └─kettle::whistle() at test-kettle.R:13:5",
      "  ── Error ('test-lid.R:2:1'): (code run outside of `test_that()`) ───────",
      "  Error in `library(hinge)`: there is no package called 'hinge'",
      "  ",
      "  [ FAIL 3 | WARN 0 | SKIP 1 | PASS 9 ]",
      "  Error: Test failures",
      "  Execution halted",
    ].join("\n");
    expect(found(log)).toEqual([
      ["tests/testthat/test-kettle.R > kettle pours half", "tests/testthat/test-kettle.R", 5],
      ["tests/testthat/test-kettle.R > kettle whistles", "tests/testthat/test-kettle.R", 12],
      [null, "tests/testthat/test-lid.R", 2],
    ]);
    const parsed = parseLog(log);
    expect(parsed.failures[0]!.message).toBe("pour(1000) (`actual`) not equal to 500 (`expected`).");
    expect(parsed.failures[1]!.message).toBe("no speaker");
    expect(parsed.counts.testthat).toMatchObject({ passed: 9, skipped: 1 });
  });

  it("testthat 3.0's recap lines; a green count drops what a test printed", () => {
    const recap = [
      "══ testthat results  ═══════════════════════════════════════════════════",
      "FAILURE (test-spout.R:8:3): spout drips slowly",
      "",
      "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 4 ]",
    ].join("\n");
    expect(found(recap)).toEqual([
      ["tests/testthat/test-spout.R > spout drips slowly", "tests/testthat/test-spout.R", 8],
    ]);
    const green = [
      "── Failure ('test-fake.R:1:1'): printed by a test ──",
      "not a real failure",
      "── Skip (???): needs a kettle ──",
      "[ FAIL 0 | WARN 1 | SKIP 1 | PASS 12 ]",
    ].join("\n");
    expect(found(green)).toEqual([]);
  });
});
