import { describe, expect, it } from "vitest";
import { isCommentLine } from "../../../src/policy/lines.ts";

describe("isCommentLine", () => {
  it.each([
    ["  #count = 0;", "js"],
    ["  static #created = 0;", "js"],
    ["  #stable = ++created > 3;", "js"],
    ["  #reset() {", "js"],
    ["  #cache;", "js"],
  ] as const)("reads the JavaScript private class member `%s` as code", (text, lang) => {
    expect(isCommentLine(text, lang)).toBe(false);
  });

  it.each([
    ["# comment", "python"],
    ["    #count = 0", "python"],
    ["# comment", undefined],
    ["  #count = 0;", undefined],
    ["  // #count = 0;", "js"],
    ["  /* #count */", "js"],
    ["  # a note, not a member", "js"],
  ] as const)("reads `%s` (%s) as a comment", (text, lang) => {
    expect(isCommentLine(text, lang)).toBe(true);
  });

  it("keeps Rust attributes and shebangs as code", () => {
    expect(isCommentLine("#[test]", "rust")).toBe(false);
    expect(isCommentLine("#!/usr/bin/env node", "js")).toBe(false);
  });
});
