/**
 * Runner shapes added on branch f10u (misses of the hold28 corpus, tainted once scored). Each log is written here
 * for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);
const ids = (text: string) => parseLog(text).failures.map((f) => f.test);

describe("Gradle: a build plugin's `Tests with failures:` list above the count line", () => {
  const list = [
    "> Task :integrationTest",
    "",
    "Tests with failures:",
    " - org.kiln.api.OvenIntegrationTest.heatsToNineHundred",
    " - org.kiln.rest.KilnYamlTestSuiteIT.test {p0=firing/10_basic/Glaze with spaces}",
    "",
  ];

  it("each listed entry is a failure, parameters kept as printed, when the count line counts failures", () => {
    const log = [
      ...list,
      "493 tests completed, 2 failed",
      "There were failing tests. See the report at: file:///x",
    ];
    expect(ids(log.join("\n"))).toEqual([
      "org.kiln.api.OvenIntegrationTest.heatsToNineHundred",
      "org.kiln.rest.KilnYamlTestSuiteIT.test {p0=firing/10_basic/Glaze with spaces}",
    ]);
  });

  it("a test both listed and printed as `Class > method FAILED` is one failure", () => {
    const log = [
      "org.kiln.api.OvenIntegrationTest > heatsToNineHundred FAILED",
      "    java.lang.AssertionError at OvenIntegrationTest.java:12",
      ...list.slice(2, 4),
      "",
      "1 tests completed, 1 failed",
    ];
    expect(ids(log.join("\n"))).toEqual(["org.kiln.api.OvenIntegrationTest.heatsToNineHundred"]);
  });

  it("a YAML suite's `Class > test {p0=…} FAILED` line names the same id as the list", () => {
    const log = [
      "org.kiln.rest.KilnYamlTestSuiteIT > test {p0=firing/10_basic/Glaze with spaces} FAILED",
      "    java.lang.AssertionError at KilnYamlTestSuiteIT.java:40",
      "",
      ...list.slice(2),
      "2 tests completed, 2 failed",
    ];
    expect(ids(log.join("\n")).sort()).toEqual([
      "org.kiln.api.OvenIntegrationTest.heatsToNineHundred",
      "org.kiln.rest.KilnYamlTestSuiteIT.test {p0=firing/10_basic/Glaze with spaces}",
    ]);
  });

  it("must not fire: a count line that counts no failure", () => {
    expect(ids([...list, "12 tests completed"].join("\n"))).toEqual([]);
  });

  it("must not fire: the list interrupted by another line before the count line", () => {
    const log = [...list.slice(2), "BUILD SUCCESSFUL in 3s", "12 tests completed, 2 failed"];
    expect(ids(log.join("\n"))).toEqual([]);
  });
});

describe("pytest under a build tool's plugin: `../../tests/x.py` with no directory named", () => {
  const log = (path: string) =>
    [
      "=================================== FAILURES ===================================",
      "_________________________________ test_glaze __________________________________",
      "",
      "    def test_glaze():",
      ">       assert glaze(3) == 5",
      "E       assert 4 == 5",
      "",
      `${path}:5: AssertionError`,
      "========================= 1 failed, 1 warning in 0.03s =========================",
    ].join("\n");

  it("the path is taken from its topmost tests directory", () => {
    expect(found(log("../../tests/test_kiln.py"))).toEqual([
      ["tests/test_kiln.py::test_glaze", "tests/test_kiln.py", 5],
    ]);
  });

  it("must not fire: a climb into another directory stays as printed", () => {
    expect(found(log("../../kiln/check_kiln.py"))[0]![0]).toBe("../../kiln/check_kiln.py::test_glaze");
  });
});

describe("pytest: an inner run's summary printed right above the run's own summary", () => {
  const inner = [
    "=========================== short test summary info ============================",
    "FAILED test_inner_kiln.py::test - AssertionError: expected call not found",
    "============================== 1 failed in 0.19s ===============================",
  ];
  const outer = [
    "=============================================== short test summary info ================================================",
    "FAILED tests/test_kiln.py::test_glaze_introspection - Failed: nomatch: '*AssertionError*'",
    "========================================== 1 failed, 67 passed in 25.28s ===========================================",
  ];

  it("the inner entries and count are dropped", () => {
    const r = parseLog([...inner, ...outer].join("\n"));
    expect(r.failures.map((f) => f.test)).toEqual(["tests/test_kiln.py::test_glaze_introspection"]);
    expect(r.counts.pytest).toMatchObject({ failed: 1, passed: 67 });
  });

  it("must not fire: a run's summary followed by other lines keeps its entries", () => {
    const r = parseLog([...inner, "ERROR: InvocationError for command pytest", ""].join("\n"));
    expect(r.failures.map((f) => f.test)).toEqual(["test_inner_kiln.py::test"]);
  });
});

describe("mocha: an entry whose error has no stack leaves two blank lines before the next entry", () => {
  const log = (next: string) =>
    [
      "  Kiln",
      "    #fire",
      "      1) heats once and temp > 9 than initial",
      "      2) heats twice",
      "",
      "",
      "  0 passing (50ms)",
      "  2 failing",
      "",
      "  1) Kiln #fire heats once and temp > 9 than initial:",
      "     Uncaught AssertionError: expected false to be true",
      "",
      "",
      next,
      "     Uncaught AssertionError: expected 1 to equal 2",
      "",
    ].join("\n");

  it("the next numbered entry continues the failure details; titles holding ` > ` stay whole", () => {
    expect(ids(log("  2) Kiln #fire heats twice:"))).toEqual([
      "Kiln > #fire > heats once and temp > 9 than initial",
      "Kiln > #fire > heats twice",
    ]);
  });

  it("must not fire: a line that is not the next entry ends the details (the listing's entry stays)", () => {
    const r = ids(log("  7) Kiln #fire heats twice:"));
    expect(r).toContain("Kiln > #fire > heats once and temp > 9 than initial");
    expect(r).not.toContain("Kiln #fire heats twice");
  });
});

describe("go test before Go 1.5: `--- FAIL: TestX (0.00 seconds)`", () => {
  it("the old duration form is a result line", () => {
    const log = ["--- FAIL: TestKiln (0.00 seconds)", "\tkiln_test.go:9: too cold", "FAIL"].join("\n");
    expect(found(log)).toEqual([["TestKiln", "kiln_test.go", 9]]);
  });

  it("must not fire: a passing result in the old form", () => {
    expect(ids(["--- PASS: TestKiln (0.00 seconds)", "PASS"].join("\n"))).toEqual([]);
  });
});

describe("sbt: a compiler error the task failed on, after another subproject's tests passed", () => {
  const errors = [
    "[info] All tests passed.",
    "[error] ../kiln-core/src/test/scala/kiln/KilnSuite.scala:15: not found: type GlazeSuite",
    "[error]   ,new GlazeSuite",
    "[error]        ^",
    "[error] one error found",
  ];

  it("a build failure of the file, from the subproject's directory", () => {
    const log = [...errors, "[error] (kiln/test:compileIncremental) Compilation failed"].join("\n");
    const r = parseLog(log).failures;
    expect(r.map((f) => [f.test, f.file, f.line, f.category])).toEqual([
      [null, "kiln-core/src/test/scala/kiln/KilnSuite.scala", 15, "build"],
    ]);
  });

  it("sbt 1's task name (`Test / compileIncremental`) and zinc's column", () => {
    const log = [
      "[error] /home/runner/work/kiln/kiln/core/src/main/scala/kiln/Oven.scala:7:3: type mismatch;",
      "[error] (core / Test / compileIncremental) Compilation failed",
    ].join("\n");
    expect(found(log)).toEqual([[null, "core/src/main/scala/kiln/Oven.scala", 7]]);
  });

  it("must not fire: compiler-shaped lines with no `Compilation failed`", () => {
    expect(found(errors.join("\n"))).toEqual([]);
  });
});

describe("colour escapes printed in caret notation (`^[[31m` as text)", () => {
  it("a complete SGR escape in caret notation is removed before the parsers read the line", () => {
    const log = [
      "^[[2m RUN ^[[22m ^[[36mv1.6.0 ^[[39m^[[90m/home/runner/work/kiln/kiln^[[39m",
      "^[[31m⎯⎯⎯⎯⎯⎯^[[39m^[[1m^[[41m Failed Tests 1 ^[[49m^[[22m^[[31m⎯⎯⎯⎯⎯⎯^[[39m",
      "^[[41m^[[1m FAIL ^[[22m^[[49m src/kiln.test.ts^[[2m > ^[[22mkiln^[[2m > ^[[22mheats",
      "^[[31mAssertionError^[[39m: expected 850 to be 900",
      " ^[[36m ❯ src/kiln.test.ts:^[[2m4:17^[[22m^[[39m",
    ].join("\n");
    expect(found(log)).toEqual([["src/kiln.test.ts > kiln > heats", "src/kiln.test.ts", 4]]);
  });

  it("must not fire: a `^[` of other text (a regex in a message) is kept", () => {
    const r = parseLog(
      ["--- FAIL: TestKiln (0.00s)", "    kiln_test.go:9: pattern ^[[a-z]+$ did not match", "FAIL"].join(
        "\n",
      ),
    );
    expect(r.failures[0]!.message).toContain("^[[a-z]+$");
  });
});

describe("vitest: the pool could not start a worker for a test file", () => {
  it("a build failure of each file named, the runner home abbreviated as `~` removed", () => {
    const log = [
      "^[[2m Test Files ^[[22m ^[[2mno tests^[[22m",
      "^[[31m^[[1mError^[[22m: [vitest-pool]: Failed to start forks worker for test files ~/work/kiln/kiln/web/src/kiln.test.ts",
    ].join("\n");
    const r = parseLog(log).failures;
    expect(r.map((f) => [f.test, f.file, f.category])).toEqual([[null, "web/src/kiln.test.ts", "build"]]);
  });

  it("must not fire: the pool's error naming no test file, or another tool's words", () => {
    expect(found("Error: [vitest-pool]: Worker forks emitted error.")).toEqual([]);
    expect(found("Error: Failed to start forks worker for test files web/src/kiln.test.ts")).toEqual([]);
  });
});
