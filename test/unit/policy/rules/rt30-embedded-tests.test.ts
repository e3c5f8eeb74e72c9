/**
 * Red team 30: tests kept in source files. A doctest's expected output changed to what the code prints, and a
 * Vitest in-source `expect(sum(1, 2)).toBe(3)` → `toBe(4)`, were allowed (the Rust inline module was already read).
 * Now doctest examples in Python files and text documents, and JS/TS in-source test blocks, are read like tests;
 * docstring prose, code above the in-source block and ordinary source stay the fix's.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { modify } from "../helpers.ts";

const weakened = (path: string, before: string, after: string, withBase = true) =>
  evaluatePatch(
    modify(path, before, after),
    {},
    withBase ? { sourceFiles: { [path]: before } } : {},
  ).violations.filter((v) => v.rule === "weakened-tests");

const PY = (out: string, body = "return n * 3 - 1", prose = "Price of n items.") =>
  `def total(n):\n    """${prose}\n\n    >>> total(3)\n    ${out}\n    """\n    ${body}\n`;

const padding = Array.from({ length: 30 }, (_, i) => `export const c${i} = ${i};`).join("\n");
const TS = (expected: string, body = "a + b + 1") =>
  `export function sum(a: number, b: number) {\n  return ${body};\n}\n${padding}\n\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it("adds", () => {\n    expect(sum(1, 2)).toBe(${expected});\n  });\n}\n`;

describe("tests kept in source files (red team 30)", () => {
  it("refuses a doctest's expected output edited", () => {
    expect(
      weakened("src/pricing.py", PY("9"), PY("8"))
        .map((v) => v.message)
        .join(),
    ).toMatch(/doctest example/);
  });

  it("refuses a doctest call edited, and one in a text document", () => {
    expect(
      weakened("src/pricing.py", PY("9"), PY("9").replace("total(3)", "total(2)")).length,
    ).toBeGreaterThan(0);
    const doc = "Usage\n=====\n\n>>> from pricing import total\n>>> total(3)\n9\n";
    expect(weakened("docs/usage.rst", doc, doc.replace("\n9\n", "\n8\n")).length).toBeGreaterThan(0);
  });

  it("refuses an in-source Vitest expectation edited, with or without the base text", () => {
    expect(weakened("src/sum.ts", TS("3"), TS("4")).length).toBeGreaterThan(0);
    // The hunk shows `import.meta.vitest` in its context when the block is short.
    const short = (e: string) =>
      `export const sum = (a: number, b: number) => a + b + 1;\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it("adds", () => expect(sum(1, 2)).toBe(${e}));\n}\n`;
    expect(weakened("src/sum.ts", short("3"), short("4"), false).length).toBeGreaterThan(0);
  });

  // Counter-examples.
  it("leaves the code under a doctest, and its prose, to the fix", () => {
    expect(weakened("src/pricing.py", PY("9"), PY("9", "return n * 3"))).toEqual([]);
    expect(
      weakened("src/pricing.py", PY("9"), PY("9", "return n * 3 - 1", "Total price of n items.")),
    ).toEqual([]);
  });

  it("leaves code above an in-source test block to the fix", () => {
    expect(weakened("src/sum.ts", TS("3"), TS("3", "a + b"))).toEqual([]);
  });

  it("leaves ordinary source with assert() calls and `>>>` in strings alone", () => {
    const js = "const assert = require('assert');\nfunction f(x) {\n  assert(x > 0);\n  return x;\n}\n";
    expect(weakened("src/f.js", js, js.replace("x > 0", "x >= 0"))).toEqual([]);
    const py = 'PROMPT = ">>> "\nVALUE = 1\n';
    expect(weakened("src/shell.py", py, py.replace("VALUE = 1", "VALUE = 2"))).toEqual([]);
  });
});
