/**
 * A program that never loads the report's package cannot prove the package's bug (issue 12, hold12
 * sugar700/python-format#6): the report shows Python's own `"{:,.2f}%".format(-200)` as the reference and the
 * library's call as the bug; running the Python session printed the reference and was counted REPRODUCED. Every
 * REPRODUCED and PARTIAL passes `usedPackageOnly`: without the package it becomes NEEDS_INFO. It must not fire on
 * a runtime's report, on a sub-path require, on the package's CLI, nor without a package. Reports written for
 * these tests, the first re-worded from the python-format one.
 */
import { describe, expect, it } from "vitest";
import type { AttemptOutcome } from "../../../src/repro/attempt.ts";
import { usedPackageOnly } from "../../../src/repro/build-result.ts";
import { completeProgram, type Program } from "../../../src/repro/complete.ts";
import type { ReproContext } from "../../../src/repro/context.ts";
import { packageNotUsed, programLoadsPackage } from "../../../src/repro/package-use.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { reportedExpectations } from "../../../src/repro/reported-behaviour.ts";

const f = "```";
const complete = (md: string, pkg?: string): Program => {
  const report = parseReport(md);
  return completeProgram(report, reportedExpectations(report).invocation, pkg)!;
};

const reproduced: AttemptOutcome = {
  verdict: "REPRODUCED",
  fold: { verdict: "REPRODUCED", reproducedRuns: 3, detail: "printed the reported output", questions: [] },
  runs: [],
  versions: [],
  matrix: [],
  matrixSummary: null,
  questions: [],
  reasons: [],
  runtimeVersion: "3.11.2",
};
const ctxOf = (pkg: string | undefined, md: string) =>
  ({ spec: { package: pkg }, report: parseReport(md) }) as unknown as ReproContext;
/** Only the code of one language, as the guard completes the other language's blocks. */
const completeOnly = (md: string, pkg: string, family: "python" | "js"): Program =>
  completeProgram(parseReport(md), null, pkg, family)!;

const referenceSession = `# negative numbers come out wrong\n\nIn Python\n\n    In [1]: "{:,.2f}%".format(-200)\n    Out[1]: '-200.00%'\n\nWith the library\n\n    format('{:,.2f}%', -200)\n    "-,200.00%"\n`;

describe("a run without the report's package", () => {
  it("the Python reference session of an npm package's report is not the package: REPRODUCED becomes NEEDS_INFO", () => {
    const p = complete(referenceSession, "pyformat-lib");
    expect(p.runtime).toBe("python");
    expect(programLoadsPackage(p, "pyformat-lib")).toBe(false);
    const out = usedPackageOnly(ctxOf("pyformat-lib", referenceSession), p, reproduced);
    expect(out.verdict).toBe("NEEDS_INFO");
    expect(out.fold?.verdict).toBe("NEEDS_INFO");
    expect(out.fold?.reproducedRuns).toBe(0);
    expect(out.fold?.detail).toContain("does not use `pyformat-lib`");
    expect(out.questions[0]).toContain("`pyformat-lib`");
  });

  it("PARTIAL too; other verdicts pass unchanged", () => {
    const p = complete(referenceSession, "pyformat-lib");
    expect(
      usedPackageOnly(ctxOf("pyformat-lib", referenceSession), p, { ...reproduced, verdict: "PARTIAL" })
        .verdict,
    ).toBe("NEEDS_INFO");
    const notRepro = { ...reproduced, verdict: "NOT_REPRODUCED" as const };
    expect(usedPackageOnly(ctxOf("pyformat-lib", referenceSession), p, notRepro)).toBe(notRepro);
  });
});

describe("must not fire", () => {
  it("a CPython report: the runtime is what every program uses", () => {
    // The same two-language report filed at CPython: its Python run is about the runtime itself.
    const p = complete(referenceSession, "cpython");
    expect(packageNotUsed(p, "cpython", parseReport(referenceSession))).toBeNull();
    expect(usedPackageOnly(ctxOf("cpython", referenceSession), p, reproduced)).toBe(reproduced);
  });

  it("code that requires a sub-path of the package, beside a Python reference", () => {
    const md = `# fp/map differs from Python's map\n\n${f}python\nprint(list(map(lambda x: x + 1, [1, 2])))\n${f}\n\n${f}js\nconst map = require('lodash/fp/map');\nconsole.log(map(x => x + 1)([1, 2]));\n${f}\n`;
    const js = completeOnly(md, "lodash", "js");
    expect(js.runtime).toBe("node");
    expect(packageNotUsed(js, "lodash", parseReport(md))).toBeNull();
    expect(usedPackageOnly(ctxOf("lodash", md), js, reproduced)).toBe(reproduced);
    // The Python reference run of the same report is not lodash.
    const py = completeOnly(md, "lodash", "python");
    expect(usedPackageOnly(ctxOf("lodash", md), py, reproduced).verdict).toBe("NEEDS_INFO");
  });

  it("a run in the package's own language without it (a runtime change filed at an application) stands", () => {
    const md = `# EnumTransformer breaks on 3.11\n\n${f}python\nimport enum\nclass C(enum.Enum):\n    a = "a"\nprint("a" in C)\n${f}\n`;
    const p = complete(md, "flytekit-app");
    expect(packageNotUsed(p, "flytekit-app", parseReport(md))).toBeNull();
  });

  it("code of the other language that does not use the package either (a Python/Node JSON interop report)", () => {
    const md = `# Infinity in JSON\n\n${f}python\n>>> json.dumps({'x': float('inf')})\n'{"x": Infinity}'\n${f}\n\n${f}js\n> JSON.parse('{"x": Infinity}')\nSyntaxError: Unexpected token I in JSON at position 6\n${f}\n`;
    const p = completeOnly(md, "sentry-app", "python");
    expect(packageNotUsed(p, "sentry-app", parseReport(md))).toBeNull();
  });

  it("an ES import of a sub-path, found in the program's text alone", () => {
    const p: Program = {
      ...complete(`# x\n\n${f}js\nconsole.log(1)\n${f}\n`),
      dependencies: [],
      files: { "reproduction.mjs": "import fp from 'lodash/fp/map.js';\nconsole.log(fp);\n" },
      entry: "reproduction.mjs",
    };
    expect(programLoadsPackage(p, "lodash")).toBe(true);
    expect(programLoadsPackage(p, "lodas")).toBe(false);
  });

  it("the package's CLI run by `npx pkg` or `node_modules/.bin/pkg`", () => {
    const base = complete(`# x\n\n${f}js\nconsole.log(1)\n${f}\n`);
    for (const line of [
      "execSync('npx retire --version')",
      "spawnSync('./node_modules/.bin/retire', ['--js'])",
      "execSync('npx -p retire retire --js')",
    ]) {
      const p: Program = { ...base, dependencies: [], files: { [base.entry]: `${line}\n` } };
      expect(programLoadsPackage(p, "retire"), line).toBe(true);
    }
    const npx = complete(`# retire prints nothing\n\n${f}\n$ npx retire --version\n2.2.5\n${f}\n`, "retire");
    expect(packageNotUsed(npx, "retire", parseReport(""))).toBeNull();
    expect(programLoadsPackage(npx, "retire")).toBe(true);
  });

  it("a report with no mapped package", () => {
    const p = complete(referenceSession);
    expect(packageNotUsed(p, undefined, parseReport(referenceSession))).toBeNull();
    expect(usedPackageOnly(ctxOf(undefined, referenceSession), p, reproduced)).toBe(reproduced);
  });

  it("a Python import of the package under its import name, and a stdlib module of the repository's name", () => {
    const p = complete(
      `# parse drops tz\n\n${f}python\nfrom dateutil import parser\nprint(parser.parse("2020"))\n${f}\n`,
      "python-dateutil",
    );
    expect(programLoadsPackage(p, "python-dateutil")).toBe(true);
    const t = complete(
      `# typing\n\n${f}python\nimport typing\nprint(typing.get_args(list[int]))\n${f}\n`,
      "typing",
    );
    expect(programLoadsPackage(t, "typing")).toBe(true);
  });

  it("a package published from the same repository", () => {
    const base = complete(`# x\n\n${f}js\nconsole.log(1)\n${f}\n`);
    const loads = (dep: string, pkg: string) => programLoadsPackage({ ...base, dependencies: [dep] }, pkg);
    expect(loads("lodash.isequal", "lodash")).toBe(true);
    expect(loads("@ltd/j-toml", "j-toml")).toBe(true);
    expect(loads("@fast-csv/parse", "fast-csv")).toBe(true);
    expect(loads("messageformat", "messageformat-monorepo")).toBe(true);
    expect(loads("left-pad", "lodash")).toBe(false);
  });
});
