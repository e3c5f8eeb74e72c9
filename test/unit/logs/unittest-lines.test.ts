/**
 * unittest's test lines read in linear time (src/logs/parsers/unittest-lines.ts): the same captures as the regular
 * expressions they replace, on random lines built from the tokens those expressions care about, and a bounded
 * cost on lines shaped to make those expressions backtrack (ninth red team).
 */
import { describe, expect, it } from "vitest";
import { createLogParser } from "../../../src/logs/index.ts";
import { headerLine, outcomeLine, testIdLine } from "../../../src/logs/parsers/unittest-lines.ts";

// The expressions as they were (the reference for the captures).
const OUTCOME =
  /^(?: {2})?(\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)(?:\n|.*?) \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$/;
const TEST_HEAD = /^(?: {2})?(\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)$/;
const HEADER = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)$/;

/** A deterministic generator, so a failure names a line that can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TOKENS = [
  "test_a",
  " (",
  "m.C",
  ")",
  " [",
  "]",
  " ... ",
  "ok",
  "FAIL",
  "ERROR",
  "skipped",
  " ",
  "x",
  "(",
  "[",
  "\r",
  ".",
  "expected failure",
  "unexpected success",
  "  ",
];

function randomLines(n: number, seed: number, prefix: () => string): string[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    let s = prefix();
    const k = Math.floor(r() * 9);
    for (let j = 0; j < k; j++) s += TOKENS[Math.floor(r() * TOKENS.length)];
    return s;
  });
}

const captures = (m: RegExpExecArray | null) => (m ? m.slice(1) : null);

describe("unittest test lines, linear", () => {
  it("capture what the expressions captured, on 200,000 random lines", () => {
    const r = rng(7);
    const heads = ["test_a (m.C)", "  test_a (m.C)", "test_b (pkg.mod.Case.test_b)", "", "test_a(m.C)"];
    const lines = randomLines(200_000, 1, () => heads[Math.floor(r() * heads.length)]!);
    let matched = 0;
    for (const line of lines) {
      const o = captures(OUTCOME.exec(line));
      expect(outcomeLine(line), JSON.stringify(line)).toEqual(o);
      const h = captures(TEST_HEAD.exec(line));
      expect(testIdLine(line), JSON.stringify(line)).toEqual(h);
      if (o || h) matched++;
    }
    expect(matched).toBeGreaterThan(10_000);
  });

  it("read headers as the header expression did", () => {
    const r = rng(11);
    const heads = [
      "FAIL: test_a (m.C)",
      "ERROR: test_a (m.C)",
      "UNEXPECTED SUCCESS: t (a)",
      "FAIL:  test_a (m.C)",
    ];
    for (const line of randomLines(50_000, 3, () => heads[Math.floor(r() * heads.length)]!)) {
      expect(headerLine(line), JSON.stringify(line)).toEqual(captures(HEADER.exec(line)));
    }
  });

  it("reads real lines", () => {
    expect(outcomeLine("test_x (pkg.mod.Class.test_x) ... ok")).toEqual([
      "test_x",
      "pkg.mod.Class.test_x",
      "",
      "ok",
    ]);
    expect(outcomeLine("  test_x (pkg.C.test_x) [msg] (i=1) ... FAIL")).toEqual([
      "test_x",
      "pkg.C.test_x",
      " [msg] (i=1)",
      "FAIL",
    ]);
    expect(outcomeLine("test_y (m.C) ... skipped 'no network'")).toEqual([
      "test_y",
      "m.C",
      "",
      "skipped 'no network'",
    ]);
    expect(testIdLine("  test_x (pkg.C.test_x) [msg] (i=1)")).toEqual([
      "test_x",
      "pkg.C.test_x",
      " [msg] (i=1)",
    ]);
    expect(headerLine("FAIL: test_x (pkg.C.test_x) (i=2)")).toEqual([
      "FAIL",
      "test_x",
      "pkg.C.test_x",
      " (i=2)",
    ]);
  });

  it("costs time linear in the line on lines shaped for backtracking", () => {
    const shapes = [
      `test_a (m.C) (${"(x) ... ".repeat(2_000)}`,
      `test_a (m.C) (x ... skipped${")(".repeat(8_000)}`,
      `  test_a (m.C) [${"x] ... [".repeat(2_000)}`,
      `test_a (m.C) [${"] (".repeat(5_000)}x`,
      `test_a (m.C)${" ...".repeat(4_000)}`,
    ];
    const started = process.cpuUsage();
    for (let i = 0; i < 64; i++)
      for (const s of shapes) {
        outcomeLine(s);
        testIdLine(s);
        headerLine(`FAIL: ${s}`);
      }
    const used = process.cpuUsage(started);
    // 64 × 5 lines of 16 KiB: the expressions took minutes; a linear read is well under a second.
    expect((used.user + used.system) / 1000).toBeLessThan(1_500);
  });

  it("reads a 1 MiB log of each shape whole, within a small share of its budget, and real nose lines still", () => {
    const shapes = [
      `test_a (pkg.mod.Case) (${"(x) ... ".repeat(1_900)}`,
      `  test_a (pkg.mod.Case) [${"x] ... [".repeat(1_800)}`,
      `a.${"test".repeat(4_000)} ... x`,
      `FAIL: a.${"test".repeat(4_000)}x`,
    ];
    for (const line of shapes) {
      const parser = createLogParser();
      const text = `${line}\n`.repeat(Math.ceil((1 << 20) / (line.length + 1)));
      const started = process.cpuUsage();
      for (let at = 0; at < text.length; at += 16_384) parser.write(text.slice(at, at + 16_384));
      const r = parser.end();
      const used = process.cpuUsage(started);
      expect(r.stopped, line.slice(0, 40)).toBeNull();
      expect((used.user + used.system) / 1000, line.slice(0, 40)).toBeLessThan(1_500);
    }
    const parser = createLogParser();
    for (const l of [
      "test_even.test_even1 ... FAIL",
      "tests.test_gen.test_sum(1, 2) ... ok",
      "tests.helpers.setup ... ok",
      "",
      "Ran 2 tests in 0.01s",
      "FAILED (failures=1)",
    ])
      parser.line(l);
    const tests = parser.end().tests.map((t) => `${t.id} ${t.outcome}`);
    expect(tests).toContain("test_even.test_even1 failed");
    expect(tests).toContain("tests.test_gen.test_sum(1, 2) passed");
    expect(tests.some((t) => t.startsWith("tests.helpers.setup"))).toBe(false);
  });
});
