/**
 * A package Retrace guessed (an import the completion added, the repository's package bound to free names) that
 * does not install is not the report's: the program runs without the guessed import, and a run that then stops
 * on a missing name or module asks for the package (or, when the registry could not be asked, is an
 * infrastructure error) — never a verdict. The report's own imports of a package that does not install keep the
 * question without a run. Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import type { Program } from "../../../src/repro/complete.ts";
import type { ExecutedRun } from "../../../src/repro/execute.ts";
import { stoppedOnMissing, withoutGuessedImports } from "../../../src/repro/guessed-imports.ts";
import type { DependencyInstaller, InstallRequest, ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import type { Sandbox, SandboxRunRequest } from "../../../src/core/ports/sandbox.ts";
import { fakeSandbox, type ScriptedRun } from "../../support/fake-sandbox.ts";

const f = "```";

const js = (code: string, deps: string[]): Program => ({
  language: "javascript",
  runtime: "node",
  files: { "reproduction.cjs": code },
  entry: "reproduction.cjs",
  moduleFormat: "cjs",
  completions: [],
  dependencies: deps,
  ecosystem: "npm",
  placeholders: [],
});

describe("withoutGuessedImports", () => {
  it("drops an import the report never wrote, and the repository binder's call with it", () => {
    const program = js(
      'import * as _repositoryPackage from "fmtlib";\nfunction _bindPackage(m, w) {}\n_bindPackage(_repositoryPackage, [["format",[],false,true]]);\nconsole.log(format(1));\n',
      ["fmtlib"],
    );
    const out = withoutGuessedImports(program, ["fmtlib"], "console.log(format(1));");
    expect(out?.dropped).toEqual([
      'import * as _repositoryPackage from "fmtlib";',
      '_bindPackage(_repositoryPackage, [["format",[],false,true]]);',
    ]);
    expect(out?.program.files["reproduction.cjs"]).not.toMatch(/fmtlib|_bindPackage\(_repositoryPackage/);
    expect(out?.program.dependencies).toEqual([]);
  });

  it("drops an added `require` of a misread package name", () => {
    const program = js('const { format } = require("d");\nconsole.log(format(1)) // 2\n', ["d"]);
    const out = withoutGuessedImports(program, ["d"], "# t\n\n```js\nconsole.log(format(1)) // 2\n```\n");
    expect(out?.program.files["reproduction.cjs"]).toBe("console.log(format(1)) // 2\n");
  });

  it("Python: drops a guessed `import dateutil` for python-dateutil", () => {
    const program: Program = {
      ...js("import dateutil\nprint(dateutil.parser)\n", ["python-dateutil"]),
      language: "python",
      runtime: "python",
      ecosystem: "pypi",
      files: { "reproduction.py": "import dateutil\nprint(dateutil.parser)\n" },
      entry: "reproduction.py",
    };
    const out = withoutGuessedImports(program, ["python-dateutil"], "print(dateutil.parser)");
    expect(out?.dropped).toEqual(["import dateutil"]);
  });

  it("a run that never needs the guessed package is judged, and says it ran without it", async () => {
    // The sandbox prints the claimed value whatever the program (a snippet whose call is never reached by the
    // missing name): the verdict is the run's, with the package's absence said.
    const sb = fakeSandbox(() => ({
      exitCode: 0,
      stdout: "'2010-12-357'\n",
      stderr: "@@retrace-runtime v18.20.4\n",
    }));
    const { result } = await runRepro(
      spec(report, "fmtlib"),
      ports(sb, new FailingInstaller("fmtlib", "version")),
    );
    const code = Object.values(sb.requests[0]!.input?.files ?? {})
      .map(String)
      .join("\n");
    expect(code).not.toMatch(/fmtlib/);
    expect(result.reasons.join("\n")).toMatch(
      /Ran without `fmtlib` \(could not install fmtlib: no such package/,
    );
  });

  it("must not fire: the report's own import of the package is kept (null)", () => {
    const program = js('const semver = require("semver");\nsemver.valid("1.2.01");\n', ["semver"]);
    expect(
      withoutGuessedImports(
        program,
        ["semver"],
        'const semver = require("semver");\nsemver.valid("1.2.01");',
      ),
    ).toBeNull();
  });

  it("must not fire: a package the program never imports, or nothing failed", () => {
    const program = js('const a = require("left-pad");\n', ["left-pad"]);
    expect(withoutGuessedImports(program, ["other"], "")).toBeNull();
    expect(withoutGuessedImports(program, [], "")).toBeNull();
    // A specifier that only starts with the name is another package.
    expect(withoutGuessedImports(js('require("d3");\n', ["d3"]), ["d"], "")).toBeNull();
  });
});

describe("stoppedOnMissing", () => {
  const run = (p: Partial<ExecutedRun>): ExecutedRun => ({
    exitCode: 1,
    stoppedBy: null,
    stdout: "",
    stderr: "",
    exception: null,
    durationMs: 1,
    runtimeVersion: null,
    stdoutTruncated: false,
    stderrTruncated: false,
    ...p,
  });
  it("an undefined name or a module not found", () => {
    expect(
      stoppedOnMissing(
        run({
          exception: { type: "ReferenceError", message: "format is not defined" } as ExecutedRun["exception"],
        }),
      ),
    ).toBe(true);
    expect(
      stoppedOnMissing(
        run({
          exception: { type: "NameError", message: "name 'x' is not defined" } as ExecutedRun["exception"],
        }),
      ),
    ).toBe(true);
    expect(stoppedOnMissing(run({ stderr: "Error: Cannot find module 'd'\nRequire stack:" }))).toBe(true);
  });
  it("must not fire: another error, or a clean run", () => {
    expect(
      stoppedOnMissing(
        run({ exception: { type: "RangeError", message: "Invalid time value" } as ExecutedRun["exception"] }),
      ),
    ).toBe(false);
    expect(stoppedOnMissing(run({ exitCode: 0 }))).toBe(false);
  });
});

class FailingInstaller implements DependencyInstaller {
  readonly requests: InstallRequest[] = [];
  constructor(
    private readonly fail: string,
    private readonly how: "version" | "latest-unknown",
  ) {}
  async install(req: InstallRequest) {
    this.requests.push(req);
    if (this.how === "latest-unknown" && req.packages.some((p) => p.name === this.fail))
      throw new InfrastructureError(
        `could not install ${this.fail}: its latest version is unknown — the npm registry (npm_config_registry) could not be reached or holds no release of it`,
      );
    const failures = req.packages
      .filter((p) => p.name === this.fail)
      .map((p) => ({ name: p.name, version: p.version, reason: "no such package in the npm registry" }));
    return {
      dir: failures.length ? null : "/cache/x",
      pythonPath: null,
      installed: failures.length
        ? []
        : req.packages.map((p) => ({ name: p.name, version: p.version ?? "1.0.0" })),
      failures,
      cached: false,
      durationMs: 1,
    };
  }
}

const ports = (sandbox: Sandbox, installer: DependencyInstaller): ReproPorts => ({
  sandbox,
  installer,
  model: null,
  clock: new ManualClock(),
  registry: { latestVersion: async () => "1.0.0" },
  transpile: async (code) => code,
  compareLatest: false,
});
const spec = (markdown: string, pkg?: string) =>
  ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 2, ...(pkg ? { package: pkg } : {}) });

// Runs "format is not defined" when the program does not define `format` (the guessed import was dropped).
const node = (req: SandboxRunRequest): ScriptedRun => {
  const code = Object.values(req.input?.files ?? {})
    .map(String)
    .join("\n");
  return /_bindPackage\(_repositoryPackage|require\("fmtlib"\)|from "fmtlib"/.test(code)
    ? { exitCode: 0, stdout: "2010-12-357\n", stderr: "@@retrace-runtime v18.20.4\n" }
    : {
        exitCode: 1,
        stderr:
          "@@retrace-runtime v18.20.4\n/workspace/reproduction.mjs:1\nconsole.log(format(new Date(2010, 11, 23), 'YYYY-MM-DD'))\n            ^\n\nReferenceError: format is not defined\n    at file:///workspace/reproduction.mjs:1:13\n",
      };
};
const report = `# days\n\n${f}js\nconsole.log(format(new Date(2010, 11, 23), 'YYYY-MM-DD')) // '2010-12-357'\n${f}\n`;

describe("a guessed package that does not install (pipeline, fake ports)", () => {
  it("runs without the guessed import; a run that stops on the missing name asks for the package", async () => {
    const sb = fakeSandbox(node);
    const installer = new FailingInstaller("fmtlib", "version");
    const { result } = await runRepro(spec(report, "fmtlib"), ports(sb, installer));
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(sb.requests.length).toBeGreaterThan(0);
    expect(result.reasons.join("\n")).toMatch(
      /could not install fmtlib: no such package in the npm registry/,
    );
    expect(result.reasons.join("\n")).toMatch(
      /Ran without `fmtlib`: the run stopped on ReferenceError: format is not defined/,
    );
    expect(result.questions.join("\n")).toMatch(/`fmtlib`/);
  });

  it("the registry could not name the guessed package's latest release: an infrastructure error naming it", async () => {
    const sb = fakeSandbox(node);
    const installer = new FailingInstaller("fmtlib", "latest-unknown");
    await expect(runRepro(spec(report, "fmtlib"), ports(sb, installer))).rejects.toThrow(
      /could not install fmtlib: its latest version is unknown/,
    );
  });

  it("must not fire: the report's own import of a package that does not install ends without a run", async () => {
    const own = `# days\n\n${f}js\nconst { format } = require("fmtlib");\nconsole.log(format(new Date(2010, 11, 23), 'YYYY-MM-DD')) // '2010-12-357'\n${f}\n`;
    const sb = fakeSandbox(node);
    const { result } = await runRepro(
      spec(own, "fmtlib"),
      ports(sb, new FailingInstaller("fmtlib", "version")),
    );
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(sb.requests).toHaveLength(0);
    expect(result.reasons).toEqual(["could not install fmtlib: no such package in the npm registry"]);
  });
});
