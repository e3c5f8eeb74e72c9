/**
 * A standard-library function the Python snippet calls bare, whose module the report names by calling it under
 * that module in its title or prose (issue 12, hold19 statistics-92531: `statistics.median_grouped()` in the
 * title, `median_grouped([…])` at the prompt): imported from that module, guarded, so the sandbox's Python decides.
 * Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { stdlibModuleCalledFor } from "../../../src/repro/python-names.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const program = (md: string, pkg?: string) => {
  const report = parseReport(md);
  const p = completeProgram(report, reportedExpectations(report).invocation, pkg);
  return p?.files[p.entry] ?? "";
};

describe("a bare call of a standard-library function the report calls under its module", () => {
  it("names the module: a standard-library module, dotted too", () => {
    expect(stdlibModuleCalledFor("median_grouped", ["Wrong type from statistics.median_grouped()"])).toBe(
      "statistics",
    );
    expect(stdlibModuleCalledFor("join", ["see os.path.join (a, b)"])).toBe("os.path");
  });

  it("must not fire: a module outside the standard library, an object's method, a mention without a call", () => {
    expect(stdlibModuleCalledFor("median", ["numpy.median() differs"])).toBeNull();
    expect(stdlibModuleCalledFor("sort", ["data.sort() reorders"])).toBeNull();
    expect(stdlibModuleCalledFor("median_grouped", ["statistics.median_grouped is wrong"])).toBeNull();
    expect(stdlibModuleCalledFor("median_grouped", ["Statistics.median_grouped()"])).toBeNull();
    expect(stdlibModuleCalledFor("a.b", ["statistics.a.b()"])).toBeNull();
  });

  it("imports it guarded, from the title; a name the code binds itself is left alone", () => {
    const md = (code: string) =>
      `# Odd type from statistics.median_grouped()\n\nIt should return a float.\n\n${f}\n${code}\n${f}\n`;
    expect(program(md(">>> median_grouped([1.5])\n1.5"), "cpython")).toContain(
      "try:\n    from statistics import median_grouped\nexcept ImportError:\n    pass",
    );
    expect(
      program(md(">>> def median_grouped(x): return x\n>>> median_grouped([1.5])\n[1.5]"), "cpython"),
    ).not.toContain("from statistics import median_grouped");
  });

  it("must not fire: a module that is not the standard library's, named the same way", () => {
    const md = `# Odd type from numpy.median()\n\n${f}\n>>> median([1.5])\n1.5\n${f}\n`;
    expect(program(md)).not.toMatch(/import median\b/);
  });
});
