/**
 * The parser's layers agree: a format parser's failures win, the fallback formats never repeat them,
 * a log whose runners say they passed yields nothing, summary lines are counts, and a log without line
 * breaks costs linear time.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLogParser, parseLog } from "../../../src/logs/index.ts";

const ROOT = path.join(import.meta.dirname, "../../fixtures/logs");
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");

describe("layers that agree", () => {
  it("a green jest run that prints console output, even an error-shaped line, yields no failure", () => {
    const log = read("jest/green-console.log");
    // The same run with the test's console.error line printed flush left, as a plain reporter would.
    const withLine = log.replace(
      "Test Suites:",
      "src/cart.js:3:10: error something printed by the test\n::error file=src/cart.js,line=3::printed\nTest Suites:",
    );
    for (const text of [log, withLine]) {
      const r = parseLog(text);
      expect(r.failures).toEqual([]);
      expect(r.counts["jest"]).toMatchObject({ passed: 2, failed: 0 });
    }
  });

  it("the same error-shaped line in a failing log is still reported (the rule is the summary, not the line)", () => {
    const log = read("jest/green-console.log")
      .replace("Test Suites:", "src/cart.js:3:10: error something printed by the test\nTest Suites:")
      .replace("Tests:       2 passed, 2 total", "Tests:       1 failed, 1 passed, 2 total");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.format, f.file, f.line])).toEqual([["generic", "src/cart.js", 3]]);
  });

  it("a suite that failed to run makes the run red even when every test that ran passed", () => {
    const log = read("jest/green-console.log")
      .replace("Test Suites:", "src/cart.js:3:10: error something printed by the test\nTest Suites:")
      .replace("Test Suites: 1 passed, 1 total", "Test Suites: 1 failed, 1 passed, 2 total");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.format, f.file, f.line])).toEqual([["generic", "src/cart.js", 3]]);
  });

  it("a lone `not ok` line a test printed is output, not a TAP stream, in a red run as in a green one", () => {
    const spec = read("node-test/spec.log");
    const plain = parseLog(spec).failures.map((f) => f.test);
    const r = parseLog(`not ok 1 - this line is printed by the test, not a result\n${spec}`);
    expect(r.failures.map((f) => f.test)).toEqual(plain);
    // A real TAP stream still counts from its first line (mocha's reporter prints no version line).
    expect(parseLog(read("tap/mocha-tap.log")).failures.length).toBeGreaterThan(0);
  });

  it("jest's `● Console` block (jest 24 and --useStderr) is output, not a failing test named Console", () => {
    // Hand-written in jest 24's layout: a passing file that logs, then a failing one.
    const log = [
      "PASS src/a.test.js",
      "  ● Console",
      "",
      "    console.log src/a.js:2",
      "      computing",
      "",
      "FAIL src/b.test.js",
      "  ● b › fails",
      "",
      "    expect(received).toBe(expected) // Object.is equality",
      "",
      "      at Object.<anonymous> (src/b.test.js:3:17)",
      "",
      "Test Suites: 1 failed, 1 passed, 2 total",
      "Tests:       1 failed, 1 passed, 2 total",
    ].join("\n");
    const r = parseLog(log);
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["src/b.test.js > b > fails", "src/b.test.js", 3],
    ]);
  });

  it("vitest's ::error annotations repeat its failures: each failure is reported once, by vitest", () => {
    const r = parseLog(read("vitest/github-actions-reporter.log"));
    expect(r.failures.map((f) => [f.format, f.test])).toEqual([
      ["vitest", "test/vi.test.js > cart > sums"],
      ["vitest", "test/vi.test.js > other > sums"],
    ]);
  });

  it("cargo's `error: 2 targets failed:` is a count, not a failure", () => {
    const text = read("cargo/two-targets.log");
    expect(text).toContain("error: 2 targets failed:");
    const r = parseLog(text);
    expect(r.failures.map((f) => f.test)).toEqual(["tests::adds", "tests::inner::deep", "adds"]);
    expect(r.failures.every((f) => f.category === "test")).toBe(true);
  });

  it("pytest without -v counts passed and skipped tests from its summary line", () => {
    const r = parseLog(read("pytest/run.log"));
    expect(r.counts["pytest"]).toMatchObject({ passed: 2, skipped: 1 });
    const q = parseLog(read("pytest/default-same-names.log"));
    expect(q.counts["pytest"]).toMatchObject({ passed: 3, failed: 3 });
  });

  it("same-named tests in different files stay distinct, each with its own location", () => {
    const r = parseLog(read("pytest/default-same-names.log"));
    expect(r.failures.map((f) => [f.test, f.file, f.line])).toEqual([
      ["tests/api/test_same.py::TestDiv::test_same", "tests/api/test_same.py", 6],
      ["tests/api/test_same.py::ParseTests::test_parts", "tests/api/test_same.py", 15],
      ["tests/db/test_same.py::TestDiv::test_same", "calc.py", 2],
    ]);
  });

  it("unittest subtests are tests of their own, named by their parameters", () => {
    const r = parseLog(read("unittest/subtests.log"));
    expect(r.failures.map((f) => f.test)).toEqual([
      "tests.test_x.ParseCoordTests.test_valid_inputs (text='1,2,3')",
      "tests.test_x.ParseCoordTests.test_valid_inputs (text='x,1')",
      "tests.test_x.ParseCoordTests.test_msg [odd] (i=1)",
    ]);
    expect(r.failures.every((f) => f.format === "unittest" && f.file === "tests/test_x.py")).toBe(true);
  });
});

describe("a log without line breaks", () => {
  /**
   * Counts the characters String.prototype.indexOf may scan while `fn` runs: an upper bound of the work of
   * finding line breaks and markers. Deterministic, unlike a timing: re-searching the pending text on every
   * chunk (the quadratic way) scans ~n²/2 characters for n, a linear parser a small multiple of n.
   */
  function scanned(fn: () => void): number {
    const original = String.prototype.indexOf;
    let total = 0;
    String.prototype.indexOf = function (this: string, search: string, from?: number) {
      total += this.length - Math.max(0, Math.min(from ?? 0, this.length));
      return original.call(this, search, from);
    };
    try {
      fn();
    } finally {
      String.prototype.indexOf = original;
    }
    return total;
  }

  it("does work linear in its size: 8 MiB fed in 64 KiB chunks scans a small multiple of 8 MiB", () => {
    const chunk = "x".repeat(1024).concat(" error: nothing\t").repeat(64);
    const feed = (mb: number) => () => {
      const p = createLogParser();
      const n = Math.round((mb * 1024 * 1024) / chunk.length);
      for (let i = 0; i < n; i++) p.write(chunk);
      const r = p.end();
      expect(r.lines).toBe(1);
      expect(r.failures).toEqual([]);
    };
    const size = 8 * 1024 * 1024;
    const work = scanned(feed(8));
    // Re-scanning the pending line on each of the 128 chunks would be ~64 times the input.
    expect(work).toBeLessThan(4 * size);
    // And the work per MiB does not grow with the size.
    expect(work / 8).toBeLessThan(2 * scanned(feed(1)) + 1024 * 1024);
  });

  it("still reads a one-line JUnit XML report of any size whole (Rust libtest writes one line)", () => {
    const passing = '<testcase classname="tests" name="ok_N" time="0"/>';
    const body = Array.from({ length: 40_000 }, (_, i) => passing.replace("N", String(i))).join("");
    const failing =
      '<testcase classname="tests::inner" name="deep" time="0"><failure type="assert"/><system-out><![CDATA[thread \'tests::inner::deep\' (9051) panicked at src/lib.rs:7:37:]]>&#xA;<![CDATA[boom at depth]]></system-out></testcase>';
    const xml = `<?xml version="1.0" encoding="UTF-8"?><testsuites><testsuite name="test" package="test" id="0" errors="0" failures="1" tests="40001" skipped="0" >${body}${failing}</testsuite></testsuites>`;
    expect(xml.length).toBeGreaterThan(2 * 1024 * 1024);
    const p = createLogParser();
    for (let i = 0; i < xml.length; i += 65_536) p.write(xml.slice(i, i + 65_536));
    const r = p.end();
    expect(r.counts["junit"]).toMatchObject({ passed: 40_000, failed: 1 });
    // A test in the one-level module `tests` is `tests::ok_7`, as libtest names it.
    expect(r.tests[7]?.id).toBe("tests::ok_7");
    expect(r.failures.map((f) => [f.test, f.file, f.line, f.message])).toEqual([
      ["tests::inner::deep", "src/lib.rs", 7, "boom at depth"],
    ]);
  });
});
