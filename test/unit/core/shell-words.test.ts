import { describe, expect, it } from "vitest";
import { scanWords, shellWords } from "../../../src/core/shell-words.ts";

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
