/**
 * The value the prose says the code gives, for a title that is one comparison (issue 12, rv23 / fx4): only
 * first-person or present-actual wording says what the code gives; a value the documentation states or one the
 * code gave in the past is not the reported behaviour.
 */
import { describe, expect, it } from "vitest";
import { readExpectations } from "../../../src/repro/context.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport, statedValue } from "../../../src/repro/parse-report.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { run } from "./observed-run.ts";

describe("statedValue: what the docs state or the code once gave is not what it gives", () => {
  it("must not fire: the reviewer's report (the documentation's value) claims nothing", () => {
    const md =
      "# isEmpty({}) === false\n\nThe documentation says isEmpty returns `true` for an object with no own keys.\n";
    const r = parseReport(md);
    expect(r.blocks.filter((b) => b.kind === "code").map((b) => b.value)).toEqual([
      "console.log(isEmpty({}))",
    ]);
    const { expectations } = readExpectations(r);
    expect(expectations.actual.output).not.toContain("true");
    const m = matchRun(expectations.actual, run({ stdout: "true\n" }), expectations.expectedOutput);
    expect(foldRuns([m]).verdict).not.toBe("REPRODUCED");
  });

  it("must not fire: docs, README, 'according to', 'says', 'should', 'used to', a past release", () => {
    for (const prose of [
      "The docs say it returns `true`.",
      "According to the README, it returns `true` here.",
      "The changelog states it gives `true`.",
      "It should return `true`.",
      "It used to return `true`.",
      "In 1.2 it returned `true`.",
      "It returns `true`.",
    ])
      expect(statedValue(prose), prose).toBeNull();
  });

  it("counter-examples: first-person and present-actual wording is read", () => {
    expect(statedValue("I get `true`.")).toBe("true");
    expect(statedValue("It returns `true` for me.")).toBe("true");
    expect(statedValue("After upgrading it now returns `0`.")).toBe("0");
    expect(statedValue("It returns `null` instead.")).toBe("null");
    expect(statedValue("It should return `false`, but it returns `true`.")).toBe("true");
    expect(statedValue("The docs say `false`. I got `true` when I ran it.")).toBe("true");
    expect(statedValue("The docs say it returns `false`, but I get `true`.")).toBe("true");
  });

  it("proseClaims: a documented value is no actual one; the reporter's own value beside it still is", () => {
    expect(
      proseClaims("The documentation says isEmpty returns `true` for an object with no own keys.").actual,
    ).toEqual([]);
    expect(proseClaims("It used to return `1`.").actual).toEqual([]);
    expect(proseClaims("The docs say it returns `false`, but I get `true`.").actual).toEqual(["true"]);
    expect(proseClaims("It returns `true` for an empty object.").actual).toEqual(["true"]);
  });

  it("counter-example: a first-person value on a title comparison is still the claim", () => {
    const r = parseReport("# isEmpty({}) === false\n\nI get `true`.\n");
    expect(r.blocks.filter((b) => b.kind === "code").map((b) => b.value)).toEqual(["isEmpty({}) // => true"]);
    const { expectations } = readExpectations(r);
    const m = matchRun(expectations.actual, run({ stdout: "true\n" }), expectations.expectedOutput);
    expect(foldRuns([m]).verdict).toBe("REPRODUCED");
  });
});
