/**
 * Runner shapes added on branch f10v (misses of the hold29 corpus, tainted once scored). Each log is written here
 * for a small kiln library of our own, in the runners' byte layout; each rule has a case where it must not fire.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("go: a whole log indented by a paste", () => {
  it("an indented `--- FAIL` as the log's first go line is a top-level result, old `seconds` form too", () => {
    const log = [
      "    --- FAIL: TestGlaze (0.00 seconds)",
      "        kiln_test.go:12: glaze cracked",
      "    --- FAIL: TestFire (0.01 seconds)",
      "        kiln_test.go:30: too cold",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["TestGlaze", "kiln_test.go", 12],
      ["TestFire", "kiln_test.go", 30],
    ]);
  });

  it("must not fire: an indented `--- FAIL` under a passing test is that test's output, not a result", () => {
    const log = [
      "=== RUN   TestQuote",
      "    kiln_test.go:5: the fixture says:",
      "    --- FAIL: TestOther (0.00s)",
      "--- PASS: TestQuote (0.00s)",
      "PASS",
      "ok  \texample.com/kiln\t0.01s",
    ];
    expect(found(log.join("\n"))).toEqual([]);
  });
});

describe("jest: a log cut inside a `Test suite failed to run` block", () => {
  const tail = [
    "      at Resolver.resolveModule (node_modules/jest-resolve/build/resolver.js:324:11)",
    "      at Object.<anonymous> (src/kiln/__tests__/fire.test.ts:3:1)",
    "",
  ];
  const next = [
    " FAIL  src/kiln/glaze.test.ts",
    "  ● Test suite failed to run",
    "",
    "    Cannot find module '@kiln/core' from 'src/kiln/glaze.test.ts'",
    "",
    "      at Resolver.resolveModule (node_modules/jest-resolve/build/resolver.js:324:11)",
    "      at Object.<anonymous> (src/kiln/glaze.test.ts:1:1)",
  ];

  it("the head frames' test file failed to run, at its top-level frame, once a FAIL header follows", () => {
    expect(found([...tail, ...next].join("\n"))).toEqual([
      [null, "src/kiln/__tests__/fire.test.ts", 3],
      [null, "src/kiln/glaze.test.ts", 1],
    ]);
  });

  it("must not fire: head frames with no jest-resolve frame, or a non-test file, or no jest header after them", () => {
    const other = [
      "      at Kiln.fire (src/kiln/kiln.ts:8:11)",
      "      at Object.<anonymous> (src/kiln/__tests__/fire.test.ts:3:1)",
      "",
    ];
    expect(found([...other, ...next].join("\n"))).toEqual([[null, "src/kiln/glaze.test.ts", 1]]);
    const notTest = [tail[0]!, "      at Object.<anonymous> (src/kiln/index.ts:3:1)", ""];
    expect(found([...notTest, ...next].join("\n"))).toEqual([[null, "src/kiln/glaze.test.ts", 1]]);
    expect(found(tail.join("\n"))).toEqual([]);
  });
});

describe("RSpec: a paste that starts inside a failure block's body", () => {
  const head = [
    "     Failure/Error: expect(kiln.heat).to eq(900)",
    "       expected: 900",
    "     # ./spec/kiln_spec.rb:12:in `block (2 levels) in <top (required)>'",
    "",
  ];
  it("the numbered blocks below the cut body are failures (the cut one names nothing)", () => {
    const log = [
      ...head,
      "  2) Kiln glaze is shiny",
      "     Failure/Error: expect(kiln.glaze).to be_shiny",
      "     # ./spec/kiln_spec.rb:20:in `block (2 levels) in <top (required)>'",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["spec/kiln_spec.rb > Kiln glaze is shiny", "spec/kiln_spec.rb", 20],
    ]);
  });

  it("must not fire: a numbered line without RSpec's `Failure/Error:` under it", () => {
    const log = [...head, "  2) Kiln glaze is shiny", "     it was fine"];
    expect(found(log.join("\n"))).toEqual([]);
  });
});

describe("Ginkgo v1: the failure list pasted without its heading or count line", () => {
  it("a `[Fail] … [It] …` line followed by its place is a failure, the GOPATH prefix taken off", () => {
    const log = [
      "[Fail] Kiln Specs [It] should fire at nine hundred ",
      "/home/ci/gopath/src/github.com/acme/kiln/integration/fire_test.go:41",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["Kiln Specs should fire at nine hundred", "integration/fire_test.go", 41],
    ]);
  });

  it("must not fire: a spec line with no place below it, or one followed by `SUCCESS!`", () => {
    expect(found("[Fail] Kiln Specs [It] should fire\nthe reporter's words")).toEqual([]);
    const green = [
      "[Fail] Kiln Specs [It] should fire",
      "/home/ci/kiln/fire_test.go:41",
      "Ran 3 of 3 Specs in 0.010 seconds",
      "SUCCESS! -- 3 Passed | 0 Failed | 0 Pending | 0 Skipped",
    ];
    expect(found(green.join("\n"))).toEqual([]);
  });
});

describe("seatest (C): fixture banners and `N run  M failed`", () => {
  it("a failure line inside a fixture whose count line counts failures", () => {
    const log = [
      "---------------- test_kiln.c ----------------",
      "test_heat_reaches_900    Line 31    Should of been true",
      "                 4 run  1 failed                  ",
    ];
    expect(found(log.join("\n"))).toEqual([["test_heat_reaches_900", "test_kiln.c", 31]]);
  });

  it("must not fire: the same line shape with `0 failed`, or without a banner", () => {
    const zero = [
      "---------------- test_kiln.c ----------------",
      "test_heat_reaches_900    Line 31    Should of been true",
      "                 4 run  0 failed                  ",
    ];
    expect(found(zero.join("\n"))).toEqual([]);
    expect(found("test_heat_reaches_900    Line 31    Should of been true\n  4 run  1 failed")).toEqual([]);
  });
});

describe("CloudSlang builder: `Following N tests failed:`", () => {
  it("each entry under the heading is a failure, timestamps and `[ERROR]` prefixes read through", () => {
    const log = [
      "04:49:31 [ERROR] Following 2 tests failed:",
      "04:49:31 [ERROR] - Test case failed: testFireHot [C:\\kiln\\test\\fire.inputs.yaml] - hot",
      "        Expected result: SUCCESS",
      "        Actual result: FAILURE",
      "04:49:31 [ERROR] - Error occurred while running test: testGlaze [C:\\kiln\\te",
    ];
    expect(found(log.join("\n"))).toEqual([
      ["testFireHot", null, null],
      ["testGlaze", null, null],
    ]);
  });

  it("must not fire: the same entry shape without the heading, or under `Following 0 tests failed:`", () => {
    const entry = "- Test case failed: testFireHot [C:\\kiln\\test\\fire.inputs.yaml] - hot";
    expect(found(entry)).toEqual([]);
    expect(found(`Following 0 tests failed:\n${entry}`)).toEqual([]);
  });
});
