/**
 * A report about Python's standard library is Python from end to end (issue 12, hold15): every standard module
 * is known as one (never sent to pip), and a report filed on a Python implementation's repository never runs as
 * JavaScript with an npm package named after the repository. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { PYTHON_STDLIB } from "../../../src/repro/known-modules.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const program = (md: string, pkg?: string) => {
  const report = parseReport(md);
  return completeProgram(report, reportedExpectations(report).invocation, pkg)!;
};

describe("the standard library is Python's own list", () => {
  it("knows modules a hand-typed list left out, and none that are packages", () => {
    for (const m of ["plistlib", "doctest", "pickletools", "cmd", "bdb", "pyexpat", "_thread", "test"])
      expect(PYTHON_STDLIB.has(m), m).toBe(true);
    for (const m of ["requests", "numpy", "yaml", "attrs", "six", "typing_extensions", "parser"])
      expect(PYTHON_STDLIB.has(m), m).toBe(false);
  });

  it("a plistlib report installs nothing", () => {
    const p = program(
      [
        "# plistlib: a bad <date> raises AttributeError",
        "",
        `${f}python`,
        "import plistlib",
        'plistlib.loads(b"<plist><date>nope</date></plist>")  # AttributeError',
        f,
      ].join("\n"),
      "cpython",
    );
    expect(p.language).toBe("python");
    expect(p.dependencies).toEqual([]);
  });

  it("a module that is a PyPI package is still installed", () => {
    const p = program(
      ["# yaml", "", `${f}python`, "import requests", "print(requests.__version__)", f].join("\n"),
    );
    expect(p.dependencies).toEqual(["requests"]);
  });
});

describe("a Python implementation's repository is about Python", () => {
  const inline = [
    "# glob.glob(): include_hidden is documented wrongly",
    "",
    "The flag affects every wildcard: `glob.glob('*',include_hidden=True)` matches dotfiles too.",
  ].join("\n");

  it("inline code that also parses as JavaScript runs as Python, with no npm package", () => {
    for (const repo of ["cpython", "pypy"]) {
      const p = program(inline, repo);
      expect(p.language, repo).toBe("python");
      expect(p.dependencies, repo).toEqual([]);
      expect(p.files["reproduction.py"]).toContain("import glob");
      expect(JSON.stringify(p.files)).not.toContain(repo === "cpython" ? '"cpython"' : '"pypy"');
    }
  });

  it("must not fire: the same report filed on an npm package's repository stays JavaScript", () => {
    const p = program(inline, "glob");
    expect(p.language).toBe("javascript");
  });

  it("must not fire: a fenced JavaScript block on a Python repository is not re-read", () => {
    const p = program(
      ["# brython: wrong value", "", `${f}js`, "console.log([1, 2].includes(2));", f].join("\n"),
      "cpython",
    );
    expect(p.language).toBe("javascript");
    expect(p.dependencies).not.toContain("cpython");
  });
});
