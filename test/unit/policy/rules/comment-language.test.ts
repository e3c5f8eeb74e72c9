/**
 * A whole-line comment is read in the file's language (src/policy/lines.ts `isCommentLine`): `#digits = …` is a
 * class's private field in JavaScript, code a rule must read, and a comment in Python, which no rule reads.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines } from "../helpers.ts";

const tagsOf = (patch: string) =>
  evaluatePatch(patch, {}).violations.map((v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`);

describe("a `#` line read in the file's language", () => {
  it("blocks a JavaScript private field deciding a value on whether the module runs from source", () => {
    const patch = addLines("src/index.js", [
      "class Format {",
      '  #digits = __filename.endsWith(".ts") ? 3 : 2;',
      "}",
    ]);
    expect(tagsOf(patch)).toContain("test-awareness:source-kind-gate");
  });

  it("allows the same words as a Python comment", () => {
    const patch = addLines("pkg/policy.py", [
      '# digits = 3 if __file__.endswith(".py") else 2',
      "DIGITS = 2",
    ]);
    expect(tagsOf(patch).filter((t) => t.includes("source-kind"))).toEqual([]);
  });
});
