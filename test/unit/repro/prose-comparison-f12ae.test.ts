/**
 * A sentence led as a comparison with another implementation (issue 12, hold22 dequal-2): "For comparison,
 * lodash's `isEqual` … returns true" states the other library's value, the behaviour held up as right, so it is the
 * expected side and never the reported code's output. Sentences written for these tests.
 */
import { describe, expect, it } from "vitest";
import { proseClaims } from "../../../src/repro/prose-claims.ts";

describe("a comparison's value is the wanted side", () => {
  it("comparison leads put the value on the expected side", () => {
    for (const text of [
      "For comparison, lodash's `isEqual` does compare Sets, and returns true for the case above.",
      "By contrast, `Array.from(x)` gives `[1, 2]` here.",
      "Compared to Chrome, Firefox prints `NaN`.",
      "In comparison, the old parser returned `42`.",
    ]) {
      const c = proseClaims(text);
      expect(c.actual).toEqual([]);
      expect(c.expected.length).toBe(1);
    }
    expect(
      proseClaims(
        "For comparison, lodash's `isEqual` does compare Sets, and returns true for the case above.",
      ),
    ).toEqual({ actual: [], expected: ["true"] });
  });

  it("must not fire: the report's own sentence, a comparison word inside the sentence", () => {
    expect(proseClaims("The library returns `false` for two equal Sets.").actual).toEqual(["false"]);
    expect(proseClaims("The comparison returns `false` for two equal Sets.").actual).toEqual(["false"]);
  });
});
