/**
 * Want-wording around a code block (sindresorhus/dot-prop#38's shape, re-worded here): the words before the block
 * say what the reporter wants, the words after it tell in prose what happens now, so the block's `// x` comment is
 * the wanted value, never the claim. A run printing it is not a reproduction.
 */
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun, type RunObservation } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { proseAround, wantedAround } from "../../../src/repro/want-around.ts";
import { run } from "./observed-run.ts";

const f = "```";
const read = (md: string) => reportedExpectations(parseReport(md));
const verdict = (md: string, r: RunObservation) => {
  const exp = read(md);
  return foldRuns([matchRun(exp.actual, r, exp.expectedOutput, exp.expectedException)]).verdict;
};

const wish = `# pick() on null should give the fallback

It would be nice if \`lib.pick()\` handed back the fallback even when the source is not an object.

For example:

${f}js
var src = null;

lib.pick(src, 'a.b', 7);
// 7
${f}

Right now it hands back the source itself.
`;

describe("want-wording before and a present-tense description after a block", () => {
  it("reads the block's comment as the wanted side", () => {
    const exp = read(wish);
    expect(exp.expectedOutput).toEqual(["7"]);
    expect(exp.actual.output).toEqual([]);
  });

  it("never calls a run printing the wished value REPRODUCED", () => {
    expect(verdict(wish, run({ stdout: "7\n" }))).not.toBe("REPRODUCED");
  });

  it("finds the prose on both sides of a fence", () => {
    const around = proseAround(wish, 7);
    expect(around?.before).toContain("For example:");
    expect(around?.after).toContain("Right now it hands back");
  });

  // Must not fire.
  it("keeps the comment as the claim with a wish but no present-tense prose after the block", () => {
    const md = wish.replace("Right now it hands back the source itself.\n", "");
    expect(read(md).actual.output).toEqual(["7"]);
  });

  it("keeps the comment as the claim when the prose after the block quotes that value", () => {
    const md = wish.replace("// 7", "// null").replace("the source itself.", "`null`.");
    expect(read(md).actual.output).toEqual(["null"]);
  });

  it("keeps the comment as the claim when the words before complain rather than wish", () => {
    const md = wish.replace(
      "It would be nice if `lib.pick()` handed back the fallback even when the source is not an object.",
      "`lib.pick()` does not hand back the fallback when the source is not an object.",
    ).replace("# pick() on null should give the fallback", "# pick() on null");
    expect(read(md).actual.output).toEqual(["7"]);
  });

  it("needs both sides", () => {
    expect(wantedAround("It should return 7.", "", ["7"])).toBe(false);
    expect(wantedAround("Example:", "Currently it returns the source.", ["7"])).toBe(false);
    expect(wantedAround("It should return 7.", "Currently it returns the source.", ["7"])).toBe(true);
    expect(wantedAround("It should return 7.", "Currently it returns `null`.", ["null"])).toBe(false);
  });
});
