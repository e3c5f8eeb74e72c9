/** Repository text in the PR body stays inside its code span (fifth red team: test ids as markdown). */
import { describe, expect, it } from "vitest";
import { code } from "../../../src/report/markdown.ts";

describe("code", () => {
  it("keeps ordinary text as written", () => {
    expect(code("tests/test_a.py::test_a[1-2]")).toBe("`tests/test_a.py::test_a[1-2]`");
    expect(code("Calc > adds")).toBe("`Calc > adds`");
  });

  it("outnumbers the backticks inside, so none closes the span", () => {
    expect(code("a`b")).toBe("``a`b``");
    expect(code("``x")).toBe("``` ``x ```");
  });

  it("writes control, bidi and line-separator characters as escapes: one line, no hidden text", () => {
    const shown = code("t\n# INJECTED <!-- \u202e\u0000\u2028");
    expect(shown).not.toMatch(/[\n\u202e\u0000\u2028]/);
    expect(shown).toBe("`t\\u{a}# INJECTED <!-- \\u{202e}\\u{0}\\u{2028}`");
  });

  it("handles 200,000 backtick runs without spreading them into arguments", () => {
    expect(code("`a".repeat(200_000)).startsWith("`` `a")).toBe(true);
  });
});
