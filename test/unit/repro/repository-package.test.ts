/**
 * A report filed on a package's own repository calls the package without importing it (`filesize(…)`, `isodate.
 * parse_duration(…)`): with the repository's package known (`--package`, ReproJobSpec.package) the completion
 * imports it, as it does for a package the report names. Without it, the name stays undefined and the verdict asks
 * for the import. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const program = (md: string, pkg?: string) => {
  const report = parseReport(md);
  const p = completeProgram(report, reportedExpectations(report).invocation, pkg);
  return { code: p?.files[p.entry] ?? "", deps: p?.dependencies ?? [] };
};

describe("the repository's own package", () => {
  it("JavaScript: a call of the package's camel-cased binding gets its require", () => {
    const md = `# wrong unit\n\n${f}\nconsole.log(sizeOf(4096)) // "4 KiB"\n${f}\n`;
    expect(program(md).code).not.toContain("require(");
    const { code, deps } = program(md, "size-of");
    expect(code).toContain('const sizeOf = require("size-of");');
    expect(deps).toEqual(["size-of"]);
  });

  it("Python: a module attribute of the package gets its import", () => {
    const md = `# wrong period\n\n${f}python\nprint(periods.parse("P1W"))  # 7 days\n${f}\n`;
    const { code, deps } = program(md, "periods");
    expect(code).toMatch(/^import periods$/m);
    expect(deps).toEqual(["periods"]);
  });

  it("a name the code binds itself is left alone; other bare calls are the package's named exports", () => {
    const md = `# x\n\n${f}js\nconst sizeOf = (n) => n;\nconsole.log(sizeOf(1), parse("2 KiB"))\n${f}\n`;
    const { code } = program(md, "size-of");
    expect(code).not.toContain("const sizeOf = require");
    // As for a package the report names (the only one): `parse(…)` is taken as its named export.
    expect(code).toContain('const { parse } = require("size-of");');
  });

  it("the job spec takes npm and PyPI names only", () => {
    const base = { kind: "repro", id: "r1", markdown: "# x" };
    for (const ok of ["filesize", "@scope/name", "python-dateutil", "zope.interface"])
      expect(ReproJobSpec.safeParse({ ...base, package: ok }).success, ok).toBe(true);
    for (const bad of ["../x", "a b", "", "https://evil.example/x.tgz", "x@1.0.0", "git+ssh://h/r"])
      expect(ReproJobSpec.safeParse({ ...base, package: bad }).success, bad).toBe(false);
  });
});
