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

describe("a documented result the prose says the reporter does not get", () => {
  const doc = (prose: string) =>
    [
      "# to() and strings",
      "",
      "````",
      "var F = fmt({ prefix: '$' });",
      "",
      "F.to ( '9000' );",
      "    => '$9,000'",
      "````",
      "",
      prose,
      "",
    ].join("\n");

  it("is the expected behaviour; the prose's own value is the claim", async () => {
    const { parseReport } = await import("../../../src/repro/parse-report.ts");
    const { reportedExpectations } = await import("../../../src/repro/reported-behaviour.ts");
    const c = reportedExpectations(
      parseReport(doc("I do not get the promised `'$9,000'`: the call returns `false`.")),
    );
    expect(c.actual.output).toEqual(["false"]);
    expect(c.expectedOutput).toEqual(["'$9,000'"]);
  });

  it("must not fire: without such words the comment stays the claim", async () => {
    const { parseReport } = await import("../../../src/repro/parse-report.ts");
    const { reportedExpectations } = await import("../../../src/repro/reported-behaviour.ts");
    expect(reportedExpectations(parseReport(doc("This is what I see."))).actual.output).toEqual(["'$9,000'"]);
  });

  it("must not fire: the value the reporter does not get is never the claim, even with no other value stated", async () => {
    const { parseReport } = await import("../../../src/repro/parse-report.ts");
    const { reportedExpectations } = await import("../../../src/repro/reported-behaviour.ts");
    const c = reportedExpectations(parseReport(doc("But I don't get `'$9,000'` at all.")));
    expect(c.actual.output).not.toContain("'$9,000'");
  });

  it("'I don't get X, I get Y': X expected, Y actual", () => {
    expect(proseClaims("I don't get `5`, I get `6`")).toEqual({ actual: ["6"], expected: ["5"] });
  });
});
