/**
 * Classes of real reports the held-out set hold27's dev half showed read wrong (issue 12). Reports written for
 * these tests, in the forms those reports take, never their text.
 */
import { describe, expect, it } from "vitest";
import { leadLiteralClaims } from "../../../src/repro/lead-literal.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";

describe("an unquoted literal after a lead naming its side", () => {
  it("reads 'I expected to get [...]' as expected and 'What I actually got was [...]' as seen", () => {
    const prose = [
      "Sorting mixed tokens goes wrong.",
      "",
      'I expected to get ["a1", "a2", "b1"]',
      "",
      'What I actually got was ["a2", "a1", "b1"]',
    ].join("\n");
    expect(leadLiteralClaims(prose)).toEqual({
      actual: ['["a2", "a1", "b1"]'],
      expected: ['["a1", "a2", "b1"]'],
    });
    const claims = proseClaims(prose);
    expect(claims.actual).toContain('["a2", "a1", "b1"]');
    expect(claims.expected).toContain('["a1", "a2", "b1"]');
  });

  it("reads an object after 'the output is'", () => {
    expect(leadLiteralClaims("The output is { a: 1, b: 2 }").actual).toEqual(["{ a: 1, b: 2 }"]);
  });

  it("takes no side from a lead that names none or both, nor from a one-item literal", () => {
    for (const line of [
      "The input is [3, 1, 2]",
      "I sort [3, 1, 2] with the comparator",
      "I expected what I got to be [1, 2]",
      "I get [x]",
      "I expected to get [1, 2] but",
      "What I got was [1, 2] and [3, 4]",
    ])
      expect(leadLiteralClaims(line), line).toEqual({ actual: [], expected: [] });
  });
});
