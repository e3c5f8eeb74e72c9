/**
 * A number with a unit or magnitude written onto it is a value a sentence can state (issue 12, hold16: "`shortNumber(1000)`
 * gives back 1000K"): `1000K`, `4.3MB`, `30ms`, whole. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { outputAppears } from "../../../src/repro/match.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";

describe("numbers with a unit suffix in prose claims", () => {
  it("takes the whole token as the stated value", () => {
    expect(proseClaims("`shortNumber(1000)` gives back 1000K :\\").actual).toEqual(["1000K"]);
    expect(proseClaims("I get 30ms")).toEqual({ actual: ["30ms"], expected: [] });
    expect(proseClaims("it returns 4.3MB instead of 4.3KB")).toEqual({
      actual: ["4.3MB"],
      expected: ["4.3KB"],
    });
  });

  it("must not fire: a word after a number is not its unit; a number before a space stays a number", () => {
    expect(proseClaims("it gives 1000Kelvin").actual).toEqual([]);
    expect(proseClaims("it gives 3x speedup").actual).toEqual([]);
    expect(proseClaims("I get 12 items").actual).toEqual(["12"]);
  });

  it("must not fire: the expected side printed is not the stated actual value, nor a longer number around it", () => {
    const { actual, expected } = proseClaims("it returns 4.3MB instead of 4.3KB");
    expect(outputAppears(actual, `${expected[0]}\n`)).toBe(false);
    expect(outputAppears(["1000K"], "1K\n")).toBe(false);
    expect(outputAppears(["1000K"], "1000K\n")).toBe(true);
  });
});
