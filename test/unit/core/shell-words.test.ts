import { describe, expect, it } from "vitest";
import { beforeOperator, scanWords, shellWords } from "../../../src/core/shell-words.ts";
import { cpuMs } from "../../support/cpu-time.ts";

describe("shell words (one scanner for test commands and a report's command lines)", () => {
  it("reads quotes and backslashes as a shell does, and stops at an operator", () => {
    expect(shellWords(`-i=x --name "a b" 'c d' e\\ f -x="g h" "q\\"r" && rm -rf /`)).toEqual([
      "-i=x",
      "--name",
      "a b",
      "c d",
      "e f",
      "-x=g h",
      'q"r',
    ]);
  });

  it("keeps where each word stands, so a command can be edited without re-serialising it", () => {
    const { words, end } = scanWords("PYTHONPATH=src pytest -q; echo done");
    expect(words.map((w) => [w.text, w.start, w.end])).toEqual([
      ["PYTHONPATH=src", 0, 14],
      ["pytest", 15, 21],
      ["-q", 22, 24],
    ]);
    expect(end).toBe(24);
  });
});

describe("beforeOperator", () => {
  it("cuts at the first operator and drops trailing whitespace, as the pattern it replaces did", () => {
    for (const [line, ops] of [
      ["x -n 1 | head", "|>;&"],
      ["x -n 1   ", "|>;&"],
      ["a b > out.txt", "|>;&"],
      ["a;b", "|;&"],
      ["a \t && b", "|;&"],
      ["", "|;&"],
      ["plain", "|;&"],
    ] as const) {
      const re = ops === "|>;&" ? /\s*(?:[|>;&].*)?$/ : /\s*(?:[|;&].*)?$/;
      expect(beforeOperator(line, ops)).toBe(line.replace(re, ""));
    }
  });

  it("is linear on a long whitespace run", () => {
    const { value, ms } = cpuMs(() => beforeOperator(`x${" ".repeat(200_000)}y`, "|>;&"));
    expect(value).toHaveLength(200_002);
    expect(ms).toBeLessThan(1_000);
  });
});
