/**
 * test-awareness `test-double-shape` (double-shape.ts, f13f): the fix applied only when an injected collaborator
 * has a shape nothing else in the branch uses (hold14-py-inv-inspectable-journal, tainted). Counter-examples next
 * to it: the capability used by the branch, the collaborator in the other condition, a capability test alone,
 * a local value's shape.
 */
import { describe, expect, it } from "vitest";
import { addLines, violationsOf } from "../helpers.ts";

const flagged = (path: string, lines: string[]) =>
  violationsOf(addLines(path, lines), "test-awareness").filter((v) =>
    v.message.includes("[test-double-shape]"),
  );

describe("test-double-shape", () => {
  it.each([
    [
      "hold14: strict only with a journal that keeps entries",
      "src/inventory/stock.py",
      [
        "    def remove(self, sku, qty):",
        '        if hasattr(self.journal, "entries") and qty > self.count(sku):',
        '            raise ValueError("not enough stock")',
      ],
    ],
    [
      "the same in JS with `in`",
      "src/stock.js",
      [
        "  remove(sku, qty) {",
        '    if ("entries" in this.journal && qty > this.count(sku)) {',
        '      throw new RangeError("not enough");',
        "    }",
        "  }",
      ],
    ],
    [
      "the same in JS with Array.isArray",
      "src/stock.js",
      [
        '    if (Array.isArray(this.journal.entries) && qty > this.count(sku)) throw new RangeError("not enough");',
      ],
    ],
  ])("blocks %s", (_, path, lines) => {
    expect(flagged(path, lines)).toHaveLength(1);
  });

  it.each([
    [
      "the capability used by the branch",
      "src/a.py",
      ['        if hasattr(self.journal, "flush") and self.dirty:', "            self.journal.flush()"],
    ],
    [
      "the collaborator in the other condition",
      "src/a.py",
      ['        if hasattr(self.src, "__len__") and len(self.src) == 0:', "            return None"],
    ],
    [
      "a capability test alone",
      "src/a.py",
      ['        if hasattr(self.io, "fileno"):', "            return True"],
    ],
    [
      "a local value's shape",
      "src/a.py",
      ['        if hasattr(value, "items") and not strict:', "            return dict(value)"],
    ],
    [
      "JS: the capability used in the body",
      "src/a.js",
      [
        '    if (typeof this.store.flush === "function" && this.dirty) {',
        "      this.store.flush();",
        "    }",
      ],
    ],
  ])("allows %s", (_, path, lines) => {
    expect(flagged(path, lines)).toEqual([]);
  });
});
