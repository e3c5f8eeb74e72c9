/**
 * One pasted output labelled with a version the report places on the good side of a regression (issue 12, hold20's
 * false REPRODUCED, python/cpython#108682's shape): "3.11.5 regression … since python 3.11.5" over "The output on
 * python 3.11.4:" is how it worked; a run printing it is NOT_REPRODUCED, said so. Reports written here.
 */
import { describe, expect, it } from "vitest";
import { goodVersionLead, regressionReleases } from "../../../src/repro/good-version-lead.ts";
import { foldRuns, matchRun } from "../../../src/repro/match.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { run } from "./observed-run.ts";

const f = "```";
const report = (title: string, prose: string, lead: string, output: string) =>
  `# ${title}\n\n${prose}\n\n${f}python\nfrom enum import IntFlag\nColour = IntFlag('Colour', {'RED': 1, 'BLUE': 2})\nprint(list(Colour))\n${f}\n\n${lead}\n${f}\n${output}\n${f}\n`;
const shown = "[<Colour.RED: 1>, <Colour.BLUE: 2>]";

describe("an output labelled with the release before the regression", () => {
  const md = report(
    "3.8.2 regression: iterating a functional IntFlag",
    "Iterating works differently since python 3.8.2: the members are no longer listed.",
    "What python 3.8.1 prints:",
    shown,
  );

  it("is the expected side, never the claim", () => {
    const e = reportedExpectations(parseReport(md));
    expect(e.actual.kind).toBe("unknown");
    expect(e.actual.output).toEqual([]);
    expect(e.expectedOutput).toEqual([shown]);
    expect(e.expectedFrom).toContain("3.8.1, where it worked");
  });

  it("a run printing it is NOT_REPRODUCED in those words; one printing something else is no reproduction", () => {
    const e = reportedExpectations(parseReport(md));
    const same = matchRun(e.actual, run({ stdout: `${shown}\n` }), e.expectedOutput, null, {
      expectedFrom: e.expectedFrom!,
    });
    expect(same.kind).toBe("clean");
    expect(same.detail).toContain("the output the report shows for 3.8.1, where it worked");
    expect(foldRuns([same]).verdict).toBe("NOT_REPRODUCED");
    const other = matchRun(e.actual, run({ stdout: "[]\n" }), e.expectedOutput, null);
    expect(foldRuns([other]).verdict).not.toBe("REPRODUCED");
  });

  it("reads the bad release from the words a regression is said in", () => {
    const at = (t: string) => regressionReleases(t).map((r) => r.text);
    expect(at("3.11.5 regression: x")).toEqual(["3.11.5"]);
    expect(at("It behaves differently since python 3.11.5.")).toEqual(["3.11.5"]);
    expect(at("Broken after upgrading to left-pad@1.4.0")).toEqual(["1.4.0"]);
    expect(at("This is a regression in 2.7.1 of the parser")).toEqual(["2.7.1"]);
    expect(at("I have used it since 2019 on Linux")).toEqual([]);
  });

  it("package versions too: the release before the one upgraded to", () => {
    const text = "Since upgrading to tiny-csv@2.1.0 the header row is dropped.";
    expect(goodVersionLead("Output with tiny-csv@2.0.3:", text)?.version).toBe("2.0.3");
    // Another package's version is not compared with it.
    expect(goodVersionLead("Output with other-lib@1.0.0:", text)).toBeNull();
  });

  it("the words saying a version worked place it on the good side without a bad release", () => {
    expect(
      goodVersionLead("Node 18.2 output:", "This worked in 18.2 and fails on 20.1 for me.")?.version,
    ).toBe("18.2");
  });
});

describe("must not fire", () => {
  it("a block labelled with the bad release stays the claim", () => {
    const md = report(
      "3.8.2 regression: iterating a functional IntFlag",
      "Iterating works differently since python 3.8.2.",
      "The output on python 3.8.2:",
      "[]",
    );
    const e = reportedExpectations(parseReport(md));
    expect(e.actual).toMatchObject({ kind: "output", output: ["[]"] });
    expect(e.expectedFrom).toBeUndefined();
    // A later release than the bad one is not the good side either.
    expect(goodVersionLead("The output on python 3.8.5:", "3.8.2 regression")).toBeNull();
  });

  it("a block labelled with a version, in a report with no regression words, stays the claim", () => {
    const md = report(
      "IntFlag iteration lists members oddly",
      "Iterating lists this.",
      "The output on python 3.8.1:",
      shown,
    );
    const e = reportedExpectations(parseReport(md));
    expect(e.actual).toMatchObject({ kind: "output", output: [shown] });
    expect(
      goodVersionLead("The output on python 3.8.1:", "IntFlag iteration lists members oddly"),
    ).toBeNull();
  });

  it("a lead with contrast words, two versions, or only the bad release's line is not taken", () => {
    const text = "Regression since 3.11.5";
    expect(goodVersionLead("On 3.11.4 it was fine, but now it prints:", text)).toBeNull();
    expect(goodVersionLead("Output on 3.11.4 and 3.11.5:", text)).toBeNull();
    // `3.11` is neither before nor after `3.11.5`.
    expect(goodVersionLead("Output on python 3.11:", text)).toBeNull();
    // Another major without a name in common: not compared.
    expect(goodVersionLead("Output with 2.9.0:", text)).toBeNull();
  });

  it("a package version is not compared with a runtime's bad release", () => {
    expect(goodVersionLead("With pandas 1.5.3:", "Broken since python 3.12.1")).toBeNull();
  });
});
