/**
 * "Before it was X, now it is Y" / "Previously X; now Y" / "used to X, now Y": the now side is the reported
 * behaviour, the before side the good one (issue 12; hold21-py-shlex-138804's sentence, where the prose reader took
 * the before side's `TypeError` as the claim). Reports written here.
 */
import { describe, expect, it } from "vitest";
import { formerNowSides } from "../../../src/repro/former-now.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { proseClaims } from "../../../src/repro/prose-claims.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const report = (prose: string) =>
  `# textwrap.dedent changed\n\n${prose}\n\n${f}python\nimport textwrap\ntextwrap.dedent(7)\n${f}\n`;

describe("a before/now sentence", () => {
  it.each([
    ['Before it was "1", now it is "2".', ["2"], ["1"]],
    ["Previously `1`; now `2`.", ["2"], ["1"]],
    ["It used to return `1`, now it returns `2`.", ["2"], ["1"]],
    ["It used to print `1` but now prints `2`.", ["2"], ["1"]],
    ["Before the upgrade it printed `1`. Now it prints `2`.", ["2"], ["1"]],
    ["Previously it returned `true`, whereas now it gives `false`.", ["false"], ["true"]],
    // rv21 (cosmetic): the call after "now" is the code, not a value seen.
    ["It used to return `1`, and now `f(1)` returns `2`.", ["2"], ["1"]],
  ])("%s: the now side is the claim, the before side the expectation", (s, actual, expected) => {
    const c = proseClaims(s);
    expect(c.actual).toEqual(actual);
    expect(c.expected).toEqual(expected);
  });

  it("an exception named on the before side is never the claim; the now side's is", () => {
    for (const p of [
      'Before it was "TypeError", now it is "AttributeError".',
      "Previously `TypeError`; now `AttributeError`.",
      "It used to raise TypeError, now it raises AttributeError.",
    ]) {
      const e = reportedExpectations(parseReport(report(p)));
      expect(e.actual.kind).toBe("exception");
      expect(e.actual.exceptionType).toBe("AttributeError");
    }
  });

  it("must not fire: 'before' or 'earlier' with no now side, and one claim alone", () => {
    expect(formerNowSides("I ran it before lunch and got `3`.")).toEqual([]);
    expect(formerNowSides("Before calling f, I set x. It returns `2`.")).toEqual([]);
    expect(formerNowSides("As I said earlier, it returns `2`.")).toEqual([]);
    expect(proseClaims("I ran it before lunch and got `3`.").actual).toEqual(["3"]);
    expect(proseClaims("Earlier I said it returns `2`, but it returns `3`.").actual).toEqual(["2", "3"]);
    const e = reportedExpectations(parseReport(report("It raises TypeError. I checked before filing.")));
    expect(e.actual.exceptionType).toBe("TypeError");
  });

  it("must not fire: 'now' with no before side keeps the value as seen", () => {
    expect(proseClaims("Right now it returns `2`.").actual).toEqual(["2"]);
    expect(proseClaims("Now it returns `2` instead of `1`.")).toEqual({ actual: ["2"], expected: ["1"] });
  });
});
