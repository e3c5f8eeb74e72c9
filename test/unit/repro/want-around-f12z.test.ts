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
    const md = wish
      .replace(
        "It would be nice if `lib.pick()` handed back the fallback even when the source is not an object.",
        "`lib.pick()` does not hand back the fallback when the source is not an object.",
      )
      .replace("# pick() on null should give the fallback", "# pick() on null");
    expect(read(md).actual.output).toEqual(["7"]);
  });

  it("needs both sides", () => {
    expect(wantedAround("It should return 7.", "", ["7"])).toBe(false);
    expect(wantedAround("Example:", "Currently it returns the source.", ["7"])).toBe(false);
    expect(wantedAround("It should return 7.", "Currently it returns the source.", ["7"])).toBe(true);
    expect(wantedAround("It should return 7.", "Currently it returns `null`.", ["null"])).toBe(false);
  });
});

/**
 * Bare label lines inside a block (sindresorhus/camelcase-keys#32's shape, re-worded): `expect` / `actual` on
 * lines of their own, each followed by `//=>` lines, give those lines their side.
 */
describe("label lines inside a code block", () => {
  const labelled = `# deep option leaves nested keys

${f}
convert({'a-b': 1, inner: {c_d: 2}}, {deep: true});
expect
//=> {aB: 1, inner: {cD: 2}}
actual
//=> {aB: 1, inner: {c_d: 2}}
${f}
`;
  it("reads the value under `expect` as the expected side and the one under `actual` as the claim", () => {
    const exp = read(labelled);
    expect(exp.expectedOutput).toEqual(["{aB: 1, inner: {cD: 2}}"]);
    expect(exp.actual.output).toEqual(["{aB: 1, inner: {c_d: 2}}"]);
  });
  it("keeps the label words out of the program", () => {
    const b = parseReport(labelled).blocks[0]!;
    expect(b.runValue).not.toMatch(/^expect$/m);
    expect(b.runValue).not.toMatch(/^actual$/m);
    expect(b.runValue).toMatch(/_echo\(convert\(/);
  });
  it("a run printing the expected value is not a reproduction; one printing the claim is", () => {
    expect(verdict(labelled, run({ stdout: "{ aB: 1, inner: { cD: 2 } }\n" }))).not.toBe("REPRODUCED");
    expect(verdict(labelled, run({ stdout: "{ aB: 1, inner: { c_d: 2 } }\n" }))).toBe("REPRODUCED");
  });
  // Must not fire: a word that is code (an assignment, a call) or a lone word not followed by an annotation line.
  it("leaves code alone", () => {
    const notLabel = `${f}js
const actual = convert({'a-b': 1});
actual
//=> {aB: 1}
${f}`;
    const b = parseReport(notLabel).blocks[0]!;
    expect(b.checks.map((c) => [c.code, c.role])).toEqual([["actual", "actual"]]);
    const noComment = `${f}js
convert({'a-b': 1});
expect
${f}`;
    expect(parseReport(noComment).blocks[0]!.runValue).toMatch(/^expect$/m);
  });
});
