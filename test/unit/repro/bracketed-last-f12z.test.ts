/**
 * A last statement over several lines whose brackets close on its last line (`JSON.stringify(f({` … `}), null,
 * 4);`): its first line is where the brackets open, so the whole expression is what a REPL echoes.
 */
import { describe, expect, it } from "vitest";
import { bracketedStatementStart } from "../../../src/repro/complete.ts";

describe("the start of a bracketed last statement", () => {
  it("goes back to the line that opens the brackets", () => {
    const lines = [
      "const f = require('f');",
      "JSON.stringify(f({",
      '  "a_b": [',
      "    1,",
      "  ],",
      "}), null, 4);",
    ];
    expect(bracketedStatementStart(lines, 5)).toBe(1);
  });
  // Must not fire: a balanced last line, a statement opened mid-way (not at the margin), a previous line that did
  // not end a statement.
  it("stays on a balanced line and on anything it cannot place", () => {
    expect(bracketedStatementStart(["a();", "b();"], 1)).toBe(1);
    expect(bracketedStatementStart(["a();", "  f(g(", "  ));"], 2)).toBe(2);
    expect(bracketedStatementStart(["x = 1 +", "f(", ");"], 2)).toBe(2);
  });
});

describe("a bracketed last statement handed a function", () => {
  it("is a registration, not a value to echo", () => {
    const lines = ["test('x', () => {", "  f(1);", "});"];
    expect(bracketedStatementStart(lines, 2)).toBe(2);
    expect(bracketedStatementStart(["init({", "  h: function (k) { return k; },", "});"], 2)).toBe(2);
  });
});
