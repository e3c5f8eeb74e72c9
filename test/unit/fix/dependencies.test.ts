import { describe, expect, it } from "vitest";
import {
  checkDependencies,
  checkJsDependencies,
  dependencyDirs,
  MissingDependenciesError,
  requireDependencies,
  runsJs,
  runsPython,
} from "../../../src/fix/dependencies.ts";
import {
  chooseRequirementsFiles,
  isTestRequirementsFile,
  parseIni,
  parseRequirements,
  pyprojectRequirements,
  requirementIncludes,
  setupCfgRequirements,
  toxRequirements,
} from "../../../src/fix/python-requirements.ts";
import type { TestCommand } from "../../../src/fix/test-runner/types.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { PolicyConfig } from "../../../src/policy/config.ts";
import { fakeSandbox, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";
import { cpuMs } from "../../support/cpu-time.ts";

const jest: TestCommand = {
  framework: "jest",
  command: "jest",
  detectedBy: "package.json scripts.test (jest)",
};
const pytest: TestCommand = { framework: "pytest", command: "python3 -m pytest", detectedBy: "pytest.ini" };
const pkg = JSON.stringify({
  scripts: { test: "jest" },
  dependencies: { ms: "^2.1.3" },
  devDependencies: { jest: "^29.0.0", "@types/node": "^20.0.0" },
});

describe("checkJsDependencies", () => {
  it("lists declared packages, the ones missing from node_modules, and the lockfile", async () => {
    const ws = memoryWorkspace({
      "package.json": pkg,
      "package-lock.json": "{}",
      "node_modules/ms/package.json": "{}",
    });
    expect(await checkJsDependencies(ws)).toEqual({
      declared: ["@types/node", "jest", "ms"],
      missing: ["@types/node", "jest"],
      lockfile: "package-lock.json",
    });
  });

  it("counts a linked package (pnpm, npm workspaces) as installed", async () => {
    const ws = memoryWorkspace(
      { "package.json": JSON.stringify({ devDependencies: { jest: "1" } }) },
      "/repo",
      ["node_modules/jest"],
    );
    expect((await checkJsDependencies(ws))?.missing).toEqual([]);
  });

  it("is null without package.json, and lockfile is null without one", async () => {
    expect(await checkJsDependencies(memoryWorkspace({ "a.py": "" }))).toBeNull();
    const ws = memoryWorkspace({ "package.json": JSON.stringify({ devDependencies: { jest: "1" } }) });
    expect(await checkJsDependencies(ws)).toEqual({ declared: ["jest"], missing: ["jest"], lockfile: null });
  });
});

describe("Python requirements", () => {
  it("reads requirements files without comments or options, and their -r includes", () => {
    const text =
      "# pinned\nrequests==2.31.0  # http\n\n-r base.txt\n--requirement=ci.txt\n--index-url x\nnumpy>=1 \\\n  ;python_version>'3'\n";
    expect(parseRequirements(text)).toEqual(["requests==2.31.0", "numpy>=1 ;python_version>'3'"]);
    expect(requirementIncludes(text)).toEqual(["base.txt", "ci.txt"]);
  });

  it("reads pyproject: [project] dependencies, the test extra before dev, and dependency groups with includes", () => {
    const toml = `[tool.x]\ndependencies = ["no"]\n\n[project]\nname = "Calc-Lib"\ndependencies = [\n  "attrs>=23", # note\n  'click',\n]\n[project.optional-dependencies]\ndev = ["black"]\nTests = ["freezegun", "calc_lib[extra]"]\ndocs = ["sphinx"]\n[dependency-groups]\nlint = ["ruff"]\nbase = ["pytest>=8"]\ntest = [{include-group = "base"}, "hypothesis", {include-group = "test"}]\n`;
    expect(pyprojectRequirements(toml)).toEqual({
      project: "Calc-Lib",
      requirements: ["attrs>=23", "click", "freezegun", "calc_lib[extra]", "pytest>=8", "hypothesis"],
      sources: [
        "pyproject.toml [project] dependencies",
        "pyproject.toml [project.optional-dependencies] Tests",
        "pyproject.toml [dependency-groups] test",
      ],
    });
    expect(pyprojectRequirements("[project]\nname='x'\n").requirements).toEqual([]);
    expect(pyprojectRequirements("[project\nnot toml").requirements).toEqual([]);
  });

  it("reads setup.cfg install_requires, tests_require and the testing extra; tox.ini deps and -r files", () => {
    const cfg =
      "[metadata]\nname = calc\n[options]\ninstall_requires =\n    six>=1\n    # comment\n    attrs\ntests_require = mock\n[options.extras_require]\ndocs = sphinx\ntesting =\n    pytest-cov\n";
    expect(setupCfgRequirements(cfg)).toEqual({
      project: "calc",
      requirements: ["six>=1", "attrs", "mock", "pytest-cov"],
      sources: [
        "setup.cfg [options] install_requires",
        "setup.cfg [options] tests_require",
        "setup.cfg [options.extras_require] testing",
      ],
    });
    expect(
      toxRequirements(
        "[tox]\nenvlist = py3\n[testenv]\ndeps =\n  pytest\n  -r{toxinidir}/requirements-test.txt\n  {[base]deps}\ncommands = pytest\n",
      ),
    ).toEqual({
      requirements: ["pytest"],
      includes: ["requirements-test.txt"],
    });
  });

  it("takes test and base requirements files, not docs, lint or release ones", () => {
    const take = [
      "requirements.txt",
      "requirements-test.txt",
      "test-requirements.txt",
      "dev-requirements.txt",
      "requirements/tests.txt",
      "requirements/base.txt",
      "tests/requirements.txt",
    ];
    const leave = [
      "requirements-docs.txt",
      "docs/requirements.txt",
      "requirements/lint.txt",
      "requirements/typing.txt",
      "release-requirements.txt",
      "requirements/packaging.txt",
      "requirements/extras.txt",
      "requirements-build.txt",
      "requirements.in",
      "src/pkg/requirements.txt",
      "constraints.txt",
    ];
    for (const f of take) expect(isTestRequirementsFile(f), f).toBe(true);
    for (const f of leave) expect(isTestRequirementsFile(f), f).toBe(false);
  });

  it("chooses the base and test files (dev ones only without test ones); includes of docs or packaging sets are left out", async () => {
    expect(
      chooseRequirementsFiles([
        "requirements/development.txt",
        "requirements/testing.txt",
        "requirements/typechecks.txt",
        "requirements/packaging.txt",
        "requirements.txt",
        "README.md",
      ]),
    ).toEqual(["requirements.txt", "requirements/testing.txt"]);
    expect(chooseRequirementsFiles(["dev-requirements.txt", "requirements-docs.txt"])).toEqual([
      "dev-requirements.txt",
    ]);
    const ws = memoryWorkspace({
      "requirements/development.txt":
        "--requirement testing.txt\n--requirement ../docs/requirements.txt\n-r packaging.txt\n",
      "requirements/testing.txt": "coverage\n",
      "requirements/packaging.txt": "flit\n",
      "docs/requirements.txt": "sphinx\n",
    });
    expect((await checkDependencies(ws)).python).toMatchObject({
      requirements: ["coverage"],
      sources: ["requirements/testing.txt"],
    });
  });

  it("checkDependencies reports both ecosystems: the project itself left out, includes followed inside the repository", async () => {
    const ws = memoryWorkspace({
      "requirements.txt": "pytest==8.0.0\n-r requirements/common.txt\n-r ../outside.txt\n",
      "requirements/common.txt": "six\n",
      "requirements-dev.txt": "hypothesis\n",
      "requirements-docs.txt": "sphinx\n",
      "pyproject.toml":
        '[project]\nname = "calc"\ndependencies = ["attrs"]\n[project.optional-dependencies]\ntest = ["calc[fast]", "freezegun"]\n',
      "src/calc/__init__.py": "",
    });
    expect(await checkDependencies(ws)).toEqual({
      js: null,
      python: {
        sources: [
          "pyproject.toml [project] dependencies",
          "pyproject.toml [project.optional-dependencies] test",
          "requirements.txt",
          "requirements/common.txt",
          "requirements-dev.txt",
        ],
        requirements: ["attrs", "freezegun", "pytest==8.0.0", "six", "hypothesis"],
        srcLayout: true,
      },
    });
    expect(
      (await checkDependencies(memoryWorkspace({ "src/__init__.py": "", "src/a/__init__.py": "" }))).python,
    ).toBeNull();
  });

  it("knows which commands run Python", () => {
    const cmd = (command: string, framework: TestCommand["framework"] = "unknown"): TestCommand => ({
      command,
      framework,
      detectedBy: "--test",
    });
    expect(runsPython(cmd("PYTHONPATH=src python -m unittest -v"))).toBe(true);
    expect(runsPython(cmd("python3.11 -m pytest"))).toBe(true);
    expect(runsPython(cmd("pytest -x"))).toBe(true);
    expect(runsPython(cmd("npm test"))).toBe(false);
    expect(runsPython(cmd("make test", "pytest"))).toBe(true);
  });
});

describe("requireDependencies", () => {
  const ws = memoryWorkspace({ "package.json": pkg, "package-lock.json": "{}" });

  it("throws an infrastructure error naming the missing packages and how to install them", async () => {
    const error = await requireDependencies(ws, jest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingDependenciesError);
    const e = error as MissingDependenciesError;
    expect(e.kind).toBe("infrastructure");
    expect(e.exitCode).toBe(3);
    expect(e.missing).toEqual(["@types/node", "jest", "ms"]);
    expect(e.message).toMatch(/^dependencies not installed: @types\/node, jest, ms/);
    expect(e.hint).toBe("run `npm ci --ignore-scripts` in the repository before Retrace");
  });

  it("asks for a lockfile when there is none, and names yarn's or pnpm's command for theirs", async () => {
    const noLock = memoryWorkspace({ "package.json": pkg });
    await expect(requireDependencies(noLock, jest)).rejects.toMatchObject({ hint: /commit a lockfile/ });
    const yarn = memoryWorkspace({ "package.json": pkg, "yarn.lock": "" });
    await expect(requireDependencies(yarn, jest)).rejects.toMatchObject({
      hint: /yarn install --frozen-lockfile/,
    });
  });

  it("passes when a node_modules is provided, when nothing is missing, and for non-JS commands", async () => {
    expect((await requireDependencies(ws, jest, { provided: true }))?.missing).toHaveLength(3);
    expect(await requireDependencies(ws, pytest)).toBeNull();
    const installed = memoryWorkspace({
      "package.json": JSON.stringify({ devDependencies: { jest: "1" } }),
      "node_modules/jest/package.json": "{}",
    });
    expect((await requireDependencies(installed, jest))?.missing).toEqual([]);
  });

  it("runsJs: JS frameworks and npm/npx/node commands", () => {
    expect(runsJs(jest)).toBe(true);
    expect(runsJs(pytest)).toBe(false);
    expect(runsJs({ framework: "unknown", command: "npx ava", detectedBy: "--test" })).toBe(true);
    expect(runsJs({ framework: "unknown", command: "make test", detectedBy: "--test" })).toBe(false);
    // A package script expanded to what it runs (`npm run tests-only` → `nyc tape …`) still runs JS.
    expect(
      runsJs({
        framework: "unknown",
        command: "nyc tape 'test/**/*.js'",
        detectedBy: "--test → package.json scripts.tests-only",
      }),
    ).toBe(true);
  });
});

describe("verifyPatch with missing dependencies", () => {
  const files = {
    "package.json": JSON.stringify({ scripts: { test: "node --test" }, devDependencies: { ms: "2.1.3" } }),
    "package-lock.json": "{}",
    "src/calc.js": "exports.add = (a, b) => a - b;\n",
  };
  const patch =
    "--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a - b;\n+exports.add = (a, b) => a + b;\n";
  const policy = PolicyConfig.parse({});

  it("throws before any sandbox run instead of rejecting the patch", async () => {
    const { sandbox, requests } = fakeSandbox([]);
    await expect(
      verifyPatch({ workspace: memoryWorkspace(files), sandbox, patch, policy, jobId: "j" }),
    ).rejects.toBeInstanceOf(MissingDependenciesError);
    expect(requests).toHaveLength(0);
  });

  it("runs with the provided node_modules, passing it to every sandbox run", async () => {
    const base = { exitCode: 1, report: tapReport({ adds: "failed" }) };
    const fixed = { exitCode: 0, report: tapReport({ adds: "passed" }) };
    const { sandbox, requests } = fakeSandbox([base, fixed]);
    const extraDirs = [{ hostDir: "/cache/repo-deps/abc", paths: ["node_modules"] }];
    const r = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch,
      policy,
      jobId: "j",
      runs: 1,
      extraDirs,
    });
    expect(r.verdict).toBe("VERIFIED");
    expect(requests.map((q) => q.input?.extraDirs)).toEqual([extraDirs, extraDirs]);
  });
});

describe("dependencyDirs", () => {
  const ws = memoryWorkspace({ "package.json": pkg, "package-lock.json": "{}" });
  const installed = [{ hostDir: "/cache/repo-deps/h", paths: ["node_modules"] }];

  it("asks the provider for missing packages pinned by an npm lockfile, and keeps the given dirs", async () => {
    const calls: string[][] = [];
    const given = [{ hostDir: "/x", paths: ["fixtures"] }];
    const dirs = await dependencyDirs(ws, jest, {
      extraDirs: given,
      provider: {
        js: async (_w, js) => {
          calls.push(js.missing);
          return installed;
        },
      },
    });
    expect(dirs).toEqual([...given, ...installed]);
    expect(calls).toEqual([["@types/node", "jest", "ms"]]);
  });

  it("asks the provider whatever the lockfile (npm's, yarn's, none); never when nothing is missing or the command runs no JS", async () => {
    const lockfiles: (string | null)[] = [];
    const provider = {
      js: async (_w: unknown, js: { lockfile: string | null }) => {
        lockfiles.push(js.lockfile);
        return installed;
      },
    };
    await dependencyDirs(memoryWorkspace({ "package.json": pkg, "yarn.lock": "" }), jest, { provider });
    await dependencyDirs(memoryWorkspace({ "package.json": pkg }), jest, { provider });
    expect(lockfiles).toEqual(["yarn.lock", null]);
    await expect(dependencyDirs(memoryWorkspace({ "package.json": pkg }), jest)).rejects.toMatchObject({
      hint: /commit a lockfile/,
    });
    expect(await dependencyDirs(ws, pytest, { provider })).toEqual([]);
    expect(await dependencyDirs(ws, jest, { provider, extraDirs: installed })).toEqual(installed);
    expect(lockfiles).toHaveLength(2);
  });
});

describe("hostile Python manifests (fourth red team)", () => {
  it("an INI line of a 1 MiB space run is read in linear time; keys and values as before", () => {
    const { value: ini, ms } = cpuMs(() =>
      parseIni(`[options]\na${" ".repeat(1024 * 1024)}\nname : x \ninstall_requires=\n  a==1\n=v\n`),
    );
    expect(ms).toBeLessThan(1_000);
    expect([...(ini.get("options")?.entries() ?? [])]).toEqual([
      ["name", "x"],
      ["install_requires", "\na==1"],
    ]);
    expect(toxRequirements(`[testenv]\ndeps${" ".repeat(1024 * 1024)}x\n`).requirements).toEqual([]);
  });

  it("a chain of 20,000 include-groups is expanded without recursion, in order, cycles cut", () => {
    const lines = ["[dependency-groups]", 'test = ["t==1", {include-group = "g0"}, "u==1"]'];
    for (let i = 0; i < 20_000; i++) lines.push(`g${i} = ["p${i}==1", {include-group = "g${i + 1}"}]`);
    lines.push('g20000 = [{include-group = "test"}, "last==1"]');
    const r = pyprojectRequirements(`${lines.join("\n")}\n`);
    expect(r.requirements).toHaveLength(20_003);
    expect(r.requirements.slice(0, 3)).toEqual(["t==1", "p0==1", "p1==1"]);
    expect(r.requirements.slice(-2)).toEqual(["last==1", "u==1"]);
  });
});
