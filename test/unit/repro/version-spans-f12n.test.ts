/**
 * A package and its release are read from one place: a sentence, or one inline code span. Two spans far apart
 * (`d` in "`D` and `d` look swapped", `2.0.0-alpha.11` two lines below) are not "d 2.0.0-alpha.11". And a bare
 * release the prose calls one ("the `2.0.0-alpha.11` release") is the repository package's release. Reports
 * written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { pinDependencies } from "../../../src/repro/dependencies.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { findProseVersions } from "../../../src/repro/versions.ts";

const f = "```";
const pins = (md: string, pkg?: string) => {
  const report = parseReport(md);
  const p = completeProgram(report, reportedExpectations(report).invocation, pkg)!;
  return pinDependencies(p, report, null, pkg).map((x) => `${x.name}@${x.version}`);
};

describe("versions read from one span", () => {
  const swapped = [
    "# format mixes up days",
    "",
    "Is the format function buggy with days (`D` and `d` look swapped)?",
    "",
    `${f}js`,
    "console.log(format(new Date(2010, 11, 23), 'YYYY-MM-DD')) // '2010-12-357'",
    f,
    "",
    "This is with the `2.0.0-alpha.11` release",
  ].join("\n");

  it("two inline spans are not a package and its release", () => {
    expect(parseReport(swapped).versions.map((v) => v.name)).not.toContain("d");
  });

  it("the repository's package is imported and pinned to the release the prose names", () => {
    expect(pins(swapped, "date-fns")).toEqual(["date-fns@2.0.0-alpha.11"]);
  });

  it("must not fire: a package and its release inside one span, or in one sentence, still count", () => {
    const one = parseReport("# x\n\nI use `lodash 4.17.4` here.\n\n```js\nconsole.log(1) // 2\n```\n");
    expect(one.versions).toContainEqual(expect.objectContaining({ name: "lodash", version: "4.17.4" }));
    const sentence = parseReport(
      "# x\n\nWith `lodash` `4.17.4` it breaks.\n\n```js\nconsole.log(1) // 2\n```\n",
    );
    expect(sentence.versions).toContainEqual(expect.objectContaining({ name: "lodash", version: "4.17.4" }));
    const at = parseReport("# x\n\nSee `semver@5.3.0`.\n\n```js\nconsole.log(1) // 2\n```\n");
    expect(at.versions).toContainEqual(expect.objectContaining({ name: "semver", version: "5.3.0" }));
  });
});

describe("a release the prose calls one", () => {
  it("reads 'the X release' and 'with the X release'", () => {
    expect(findProseVersions("This is with the 2.0.0-alpha.11 release")).toEqual(["2.0.0-alpha.11"]);
    expect(findProseVersions("It broke in the 3.1.4 release.")).toEqual(["3.1.4"]);
    expect(findProseVersions("Tested on the v1.2.3 version")).toEqual(["1.2.3"]);
  });

  it("must not fire: a number the words do not call a release, or a two-part number", () => {
    expect(findProseVersions("the 3.1.4 value is wrong")).toEqual([]);
    expect(findProseVersions("the 3.1 release")).toEqual([]);
    expect(findProseVersions("the 2.0.0 results differ")).toEqual([]);
  });
});
