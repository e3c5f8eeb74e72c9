/**
 * The repository's package is installed only when the code uses it (issue 12, hold12): a snippet that imports
 * only the standard library runs without it, and says so; names bound inside the snippet (a lambda's parameters,
 * a tuple loop target) are never looked up in the package; a report that names the other runtime is not about a
 * package of this one; a build number or an operating system's version in the prose is not the package's release.
 * Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";
import { pinDependencies } from "../../../src/repro/dependencies.ts";
import { findBareVersions, findVersionMentions } from "../../../src/repro/versions.ts";

const f = "```";
const complete = (md: string, pkg?: string) => {
  const report = parseReport(md);
  return completeProgram(report, reportedExpectations(report).invocation, pkg)!;
};

describe("the repository's package, when the code does not use it", () => {
  const stdlibOnly = `# sorted() with a key drops ties in my addon\n\n${f}python\nfrom functools import reduce\n\nrows = [(2, "b"), (1, "a"), (2, "c")]\npairs = sorted(rows, key=lambda r: r[0])\nfor key, label in pairs:\n    print(key, label)\ntotal = reduce(lambda acc, r: acc + r[0], rows, 0)\nprint(total)\nprint((n := len(rows)))\n${f}\n`;

  it("Python: lambda parameters, tuple targets and walrus names are bound, so nothing is looked up or installed", () => {
    const p = complete(stdlibOnly, "shopkit");
    expect(p.dependencies).toEqual([]);
    expect(p.files[p.entry]).not.toContain("shopkit");
    expect(p.completions.join("\n")).toContain("ran without `shopkit`");
  });

  it("Python: a name the snippet never binds is still looked up in the package (the binding stays)", () => {
    const md = `# tabulate drops a column\n\n${f}python\nrows = [[1, 2]]\nprint(tabulate(rows))\n${f}\n`;
    const p = complete(md, "tabulate");
    expect(p.dependencies).toEqual(["tabulate"]);
    expect(p.completions.join("\n")).not.toContain("ran without");
  });

  it("JavaScript: a report that names Python as its runtime binds no npm package of the repository's name", () => {
    const md = `# re.split changed in python3.7\n\ntext = "a b"\nre.split("\\s*", text)\n\nIn python3.7 the result differs.\n`;
    const p = complete(md, "docs-kr");
    expect(p.dependencies).not.toContain("docs-kr");
  });

  it("JavaScript: the binding stays for a report that names Node.js", () => {
    const md = `# filesize rounds wrong on Node 18\n\n${f}js\nconsole.log(filesize(1024))\n${f}\n`;
    const p = complete(md, "filesize");
    expect(p.dependencies).toEqual(["filesize"]);
  });

  it("no note without a repository package", () => {
    expect(complete(stdlibOnly).completions.join("\n")).not.toContain("ran without");
  });
});

describe("versions in the prose that are not the package's", () => {
  it("a number that goes on (an OS build) is none", () => {
    expect(findBareVersions("Version Microsoft Windows [Version 10.0.18362.356]")).toEqual([]);
    expect(findBareVersions("version 1.2.3.4")).toEqual([]);
  });

  it("a version the words give to an operating system or a browser is none", () => {
    expect(findBareVersions("OS: macOS version 12.6.1")).toEqual([]);
    expect(findBareVersions("Browser: Chrome version 119.0")).toEqual([]);
  });

  it("the package's own version is still read", () => {
    expect(findBareVersions("version 2.4.1 of the library")).toEqual(["2.4.1"]);
    expect(findBareVersions("OS: Windows 11\nlibrary version 3.0.2")).toEqual(["3.0.2"]);
  });
});

describe("a CDN address names the package's release", () => {
  it("cdnjs, unpkg and jsDelivr addresses", () => {
    const v = (t: string) => findVersionMentions(t).map((m) => `${m.name}@${m.version}`);
    expect(v("loaded from https://cdnjs.cloudflare.com/ajax/libs/fitcurve/2.3.1/fitcurve.min.js")).toEqual([
      "fitcurve@2.3.1",
    ]);
    expect(v('<script src="https://unpkg.com/tiny-chart@0.9.4/dist/chart.js">')).toEqual([
      "tiny-chart@0.9.4",
    ]);
    expect(v("https://cdn.jsdelivr.net/npm/@scope/widget@1.2.0/index.js")).toEqual(["@scope/widget@1.2.0"]);
  });

  it("not an address without a release, or another host's path", () => {
    const v = (t: string) => findVersionMentions(t).map((m) => `${m.name}@${m.version}`);
    expect(v("https://cdnjs.cloudflare.com/ajax/libs/fitcurve/latest/fitcurve.js")).toEqual([]);
    expect(v("https://example.com/ajax/libs/fitcurve/2.3.1/x.js")).toEqual([]);
  });

  it("the release pins the package the code needs", () => {
    const md =
      "# fitcurve.cubic is not a function\n\nI load fitcurve from https://cdnjs.cloudflare.com/ajax/libs/fitcurve/2.3.1/fitcurve.min.js and run:\n\n`const c = fitcurve.cubic([[0, 1], [2, 3]]);`\n\nIt says `fitcurve.cubic is not a function`.\n";
    const report = parseReport(md);
    const program = completeProgram(report, reportedExpectations(report).invocation, "fitcurve")!;
    expect(program.dependencies).toEqual(["fitcurve"]);
    expect(pinDependencies(program, report, null, "fitcurve")).toEqual([
      { name: "fitcurve", version: "2.3.1", source: "reported" },
    ]);
  });
});
