/**
 * An unquoted object or array literal printed, then a clause wanting another one ("this prints { foo: 1n }, where
 * it ought to print { foo: 1 }"): both sides read (issue 12, fixer f12bb, from the hold23 misses). Sentences
 * written for these tests; each has cases where the rule must not fire.
 */
import { describe, expect, it } from "vitest";
import { proseClaims } from "../../../src/repro/prose-claims.ts";

describe("a printed literal against a wanted literal", () => {
  it("reads both sides of objects and arrays, one level nested", () => {
    expect(proseClaims("this prints { a: 12n, b: 3 }, where it ought to print { a: 12, b: 3 }")).toEqual({
      actual: ["{ a: 12n, b: 3 }"],
      expected: ["{ a: 12, b: 3 }"],
    });
    expect(proseClaims("It returns [[1, 2], 3] but it should return [1, 2, 3].")).toEqual({
      actual: ["[[1, 2], 3]"],
      expected: ["[1, 2, 3]"],
    });
  });

  it("reads nothing from a literal without a wanted one, or a comparison with another library", () => {
    expect(proseClaims("It returns [1, 2] and that is fine.")).toEqual({ actual: [], expected: [] });
    expect(proseClaims("I get {a: 1} when I pass {b: 2}.")).toEqual({ actual: [], expected: [] });
    expect(proseClaims("For comparison, lodash returns [] where it should return [1].")).toEqual({
      actual: [],
      expected: [],
    });
  });
});
