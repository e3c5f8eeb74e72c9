/**
 * Code a report's words introduce as what the reporter wants ("I'd expect a message closer to this one:", "What I
 * would like:", "In 2.x it works:") gives, in its comments, the GOOD behaviour: printing it is never the claim, and
 * REPRODUCED needs the reported bad value (hold17's false REPRODUCED, molnarg/js-schema#25's shape). Reports
 * written here, in that shape.
 */
import { describe, expect, it } from "vitest";
import { foldRuns, matchRun, type RunObservation } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { referenceLead } from "../../../src/repro/reference-lead.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const f = "```";
const read = (md: string) => reportedExpectations(parseReport(md));
const verdict = (md: string, r: RunObservation) => {
  const exp = read(md);
  return foldRuns([matchRun(exp.actual, r, exp.expectedOutput, exp.expectedException)]).verdict;
};

// A bad block, then a good one introduced by what the reporter expects.
const twoBlocks = `# Unhelpful message from validate()

The code:

${f}javascript
var Shape = rules({ width: Number })
Shape.problems({ width: 'x' })
//=> [ '[object Object] fails [object Object] rule' ]
${f}

I'd expect a message closer to this one:

${f}javascript
var Num = rules(Number)
Num.problems('x')
//=> 'x is not a Number'
${f}
`;

describe("a code block introduced as the wanted behaviour", () => {
  it("reads expectation leads as the good side, and contrast or negation as not", () => {
    expect(referenceLead("I'd expect a message closer to this one:")).toBe(true);
    expect(referenceLead("I would expect:")).toBe(true);
    expect(referenceLead("What I want is:")).toBe(true);
    expect(referenceLead("I was expecting something like:")).toBe(true);
    expect(referenceLead("The desired output:")).toBe(true);
    expect(referenceLead("I'd prefer:")).toBe(true);
    expect(referenceLead("This is not what I expected:")).toBe(false);
    expect(referenceLead("I didn't expect this:")).toBe(false);
    expect(referenceLead("I'd expect `2`, but I get:")).toBe(false);
    // "Minimal working example" names the reproducer, not code that behaves right.
    expect(referenceLead("Smallest working example:")).toBe(false);
    expect(referenceLead("Here is a minimal working example:")).toBe(false);
  });

  it("takes the claim from the bad block, never from the wanted one", () => {
    const exp = read(twoBlocks);
    expect(exp.actual.kind).toBe("output");
    expect(exp.actual.output).toEqual(["[ '[object Object] fails [object Object] rule' ]"]);
    expect(exp.actual.output.join("\n")).not.toContain("x is not a Number");
  });

  it("a run printing only the good behaviour is NOT_REPRODUCED", () => {
    expect(verdict(twoBlocks, run({ stdout: "[ 'width: x is not a Number' ]\nx is not a Number\n" }))).toBe(
      "NOT_REPRODUCED",
    );
  });

  it("a run printing the reported bad value (and the good block's value) is REPRODUCED", () => {
    expect(
      verdict(
        twoBlocks,
        run({ stdout: "[ '[object Object] fails [object Object] rule' ]\nx is not a Number\n" }),
      ),
    ).toBe("REPRODUCED");
  });

  it("a report whose only annotated block is the bad one is unchanged", () => {
    const alone = `# Unhelpful message from validate()\n\nThe code:\n\n${f}javascript\nvar Shape = rules({ width: Number })\nShape.problems({ width: 'x' })\n//=> 'x fails rule'\n${f}\n\nIt should name the field.\n`;
    const exp = read(alone);
    expect(exp.actual.output).toEqual(["'x fails rule'"]);
    expect(verdict(alone, run({ stdout: "x fails rule\n" }))).toBe("REPRODUCED");
    expect(verdict(alone, run({ stdout: "width: x is not a Number\n" }))).toBe("NOT_REPRODUCED");
  });

  it("a wanted block alone is the expectation: a run printing it is NOT_REPRODUCED", () => {
    const wantedOnly = `# problems() should name the field\n\nCalling \`Shape.problems({ width: 'x' })\` gives an unreadable message. I'd expect this:\n\n${f}javascript\nvar Shape = rules({ width: Number })\nShape.problems({ width: 'x' })\n//=> 'width: x is not a Number'\n${f}\n`;
    const exp = read(wantedOnly);
    expect(exp.actual.output).not.toContain("'width: x is not a Number'");
    expect(exp.expectedOutput).toEqual(["'width: x is not a Number'"]);
    expect(verdict(wantedOnly, run({ stdout: "width: x is not a Number\n" }))).not.toBe("REPRODUCED");
  });

  it("a working call set against the broken one does not hide the bug when both print", () => {
    // The good block is another call: its value prints whether the bug shows or not.
    const control = `# set() does not nest\n\n${f}\nconst t = {};\nlib.set('a.b', 3, t);\nconsole.log(t); // => {}\n${f}\n\nWhere I expected \`{ a: { b: 3 } }\`. With get() it works:\n\n${f}\nconsole.log(lib.get('a.b', { a: { b: 3 } })); // => 3\n${f}\n`;
    const exp = read(control);
    expect(exp.actual.output).toEqual(["{}"]);
    expect(exp.expectedOutput).toEqual(["{ a: { b: 3 } }"]);
    expect(verdict(control, run({ stdout: "{}\n3\n" }))).toBe("REPRODUCED");
    expect(verdict(control, run({ stdout: "{ a: { b: 3 } }\n3\n" }))).toBe("NOT_REPRODUCED");
  });
});
