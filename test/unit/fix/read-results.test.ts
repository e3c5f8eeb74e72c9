import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readResults, uniqueTestIds } from "../../../src/fix/test-runner/results.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const report = (name: string) => readFileSync(path.join(import.meta.dirname, "reports", name), "utf8");

describe("readResults", () => {
  it("reads pytest 7 JUnit XML (xunit1, as written in the sandbox image) as pytest node ids", () => {
    const tests = readResults("junit", report("pytest7-stats-xunit1.xml"));
    expect(tests.map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "tests/test_stats.py::test_mean passed",
      "tests/test_stats.py::test_median_odd passed",
      "tests/test_stats.py::test_median_even failed",
      "tests/test_stats.py::test_median_empty passed",
      "tests/test_stats.py::test_clamp[-5-0] passed",
      "tests/test_stats.py::test_clamp[5-5] passed",
      "tests/test_stats.py::test_clamp[15-10] passed",
    ]);
    expect(tests[2]).toMatchObject({
      file: "tests/test_stats.py",
      message: expect.stringContaining("assert 3 == 2.5"),
    });
  });

  it("reads Node 18's node:test TAP report as `describe > test` ids", () => {
    const tests = readResults("tap", report("node18-duration.tap"));
    expect(tests.map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "formatDuration > formats seconds passed",
      "formatDuration > formats minutes passed",
      "formatDuration > formats hours failed",
      "formatDuration > rejects negative input passed",
    ]);
  });

  it("reads mocha's xunit report as mocha's `describe > test` ids, as its spec output and --grep narrowing have them", () => {
    // Written by mocha 10's xunit reporter (the shape: suite name "Mocha Tests", classname = the suite's full title).
    const xml = [
      '<testsuite name="Mocha Tests" tests="3" failures="1" errors="1" skipped="0" timestamp="Thu, 26 Nov 2026 16:40:00 GMT" time="0.01">',
      '<testcase classname="range" name="includes both ends" time="0"><failure message="expected [2,3,4] to deeply equal [2,3,4,5]"/></testcase>',
      '<testcase classname="range" name="is empty when start &gt; end" time="0"/>',
      '<testcase classname="" name="a top-level test" time="0"/>',
      "</testsuite>",
    ].join("\n");
    expect(readResults("junit", xml).map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "range > includes both ends failed",
      "range > is empty when start > end passed",
      "a top-level test passed",
    ]);
    // mocha 11's xunit reporter adds each test's file (chai's suite): the same ids, the file kept.
    const mocha11 = [
      '<testsuite name="Mocha Tests" tests="2" failures="1" errors="1" skipped="0" timestamp="Thu, 26 Nov 2026 22:40:00 GMT" time="0.01">',
      '<testcase classname="expect" name="oneOf" file="/workspace/test/expect.js" time="0"><failure message="expected 1 to equal 2"/></testcase>',
      '<testcase classname="expect" name="below(n)" file="/workspace/test/expect.js" time="0"/>',
      "</testsuite>",
    ].join("\n");
    expect(readResults("junit", mocha11).map((t) => `${t.id} ${t.outcome} ${t.file}`)).toEqual([
      "expect > oneOf failed test/expect.js",
      "expect > below(n) passed test/expect.js",
    ]);
  });

  it("reads go test -json as package.TestName", () => {
    const tests = readResults("go-json", report("go-test.jsonl"));
    expect(tests.map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "example.com/m/calc.TestAdd failed",
      "example.com/m/calc.TestSub passed",
    ]);
  });

  it("reads jest --json: file > describe > title, pending as skipped, a suite that failed to run as an error", () => {
    const tests = readResults("jest-json", report("jest-report.json"));
    expect(tests).toEqual([
      {
        id: "src/calc.test.js > calc > add > adds two numbers",
        outcome: "failed",
        file: "src/calc.test.js",
        message: "Error: expect(received).toBe(expected) // Object.is equality",
      },
      { id: "src/calc.test.js > calc > subtracts", outcome: "passed", file: "src/calc.test.js" },
      { id: "src/calc.test.js > later", outcome: "skipped", file: "src/calc.test.js" },
      {
        id: "src/broken.test.js",
        outcome: "error",
        file: "src/broken.test.js",
        message: "● Test suite failed to run",
      },
    ]);
    expect(readResults("jest-json", "not json")).toEqual([]);
  });

  it("gives a title repeated in one jest suite its own id, in report order, without clashing with real ids", () => {
    const jest = JSON.stringify({
      testResults: [
        {
          name: "/workspace/a.test.js",
          assertionResults: [
            { ancestorTitles: ["parse"], title: "works", status: "passed" },
            { ancestorTitles: ["parse"], title: "works#2", status: "passed" },
            { ancestorTitles: ["parse"], title: "works", status: "failed", failureMessages: ["Error: boom"] },
            { ancestorTitles: ["parse"], title: "works", status: "passed" },
          ],
        },
      ],
    });
    expect(readResults("jest-json", jest).map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "a.test.js > parse > works passed",
      "a.test.js > parse > works#2 passed",
      "a.test.js > parse > works#3 failed",
      "a.test.js > parse > works#4 passed",
    ]);
  });

  it("keeps the failure of a JUnit test reported twice (duplicate name or retry), whichever comes last", () => {
    const F = '<failure message="boom">boom</failure>';
    const junit = (first: string, second: string) =>
      `<testsuite name="t"><testcase classname="t" name="works">${first}</testcase><testcase classname="t" name="works">${second}</testcase><testcase classname="t" name="other"/></testsuite>`;
    expect(readResults("junit", junit(F, "")).map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "t.works failed",
      "t.other passed",
    ]);
    expect(readResults("junit", junit("", F)).map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "t.works failed",
      "t.other passed",
    ]);
    expect(readResults("junit", junit("", "")).map((t) => `${t.id} ${t.outcome}`)).toEqual([
      "t.works passed",
      "t.other passed",
    ]);
  });

  it("reads a pytest collection error as an error keyed by the test file", () => {
    const xml = [
      '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="0" skipped="0" tests="1" time="0.1">',
      '<testcase classname="" name="tests.test_stats" file="tests/test_stats.py" time="0.000"><error message="collection failure">ImportError while importing test module \'/workspace/tests/test_stats.py\'.',
      "E   ModuleNotFoundError: No module named 'statz'</error></testcase></testsuite></testsuites>",
    ].join("\n");
    const tests = readResults("junit", xml);
    expect(tests.map((t) => [t.id, t.outcome, t.file])).toEqual([
      ["tests/test_stats.py", "error", "tests/test_stats.py"],
    ]);
  });
});

describe("uniqueTestIds with literal suffixes (wave 16)", () => {
  it("gives each repeat the smallest free suffix at or past its ordinal, skipping literal and given ones", () => {
    const ids = ["x", "x#2", "x", "x", "x#4", "x"].map((id) => ({ id, outcome: "passed" as const }));
    expect(uniqueTestIds(ids).map((t) => t.id)).toEqual(["x", "x#2", "x#3", "x#5", "x#4", "x#6"]);
  });

  it("stays linear when every suffix a repeat would take is already a test's own id", () => {
    const n = 40_000;
    const tests = [
      ...Array.from({ length: n }, () => ({ id: "x", outcome: "passed" as const })),
      ...Array.from({ length: n }, (_, i) => ({ id: `x#${i + 2}`, outcome: "passed" as const })),
    ];
    const { value: ids, ms } = cpuMs(() => uniqueTestIds(tests).map((x) => x.id));
    expect(ms).toBeLessThan(2_000);
    expect(new Set(ids).size).toBe(2 * n);
    expect(ids[1]).toBe(`x#${n + 2}`);
  });
});
