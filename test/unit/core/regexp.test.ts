import { describe, expect, it } from "vitest";
import { escapeRegExp } from "../../../src/core/regexp.ts";

describe("escapeRegExp", () => {
  it("makes every syntax character match itself", () => {
    const s = String.raw`a.b*c+d?e^f$g{h}i(j)k|l[m]n\o`;
    expect(new RegExp(`^${escapeRegExp(s)}$`).test(s)).toBe(true);
    expect(new RegExp(`^${escapeRegExp("a.b")}$`).test("axb")).toBe(false);
    expect(new RegExp(`^${escapeRegExp("x+")}$`, "u").test("x+")).toBe(true);
  });
  it("leaves other characters as they are", () => {
    expect(escapeRegExp("@scope/pkg-name_1")).toBe("@scope/pkg-name_1");
  });
});
