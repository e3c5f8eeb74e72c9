/**
 * Host-side steps of the twenty-fifth red team's cases, run in a process of their own
 * (`tsx redteam25-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–24 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches, clocks,
 * webhook bytes, look-alike names, the App's final gate, the job database and the files a patch adds that change
 * what a test run runs (`.pytest.ini`, `.pnpmfile.cjs`, `bunfig.toml`, Makefiles, cargo aliases, …). This one goes
 * past those lists to the other ways a returned patch decides what the failing test's run runs or what the code
 * under test is: modules that shadow the test runner itself (`pytest.py`, `pytest/__main__.py`, `unittest.py` at
 * the root, `node_modules/.bin/jest`, a Go `vendor/` tree), other runners' and task runners' files (`tox.toml`,
 * `hatch.toml`, `[tool.poe.tasks]`, `[tool.pdm.scripts]`, `mise.toml`, `.mvn/maven.config`, `pom.xml`
 * `skipTests`, Gradle `test { exclude }`, `Directory.Build.props`, `.bazelrc`, `Rakefile`, Cargo `harness = false`
 * and `[patch]`), files and keys that redirect module resolution (`jest-preset.js`, `.swcrc`, tsconfig `extends`,
 * `moduleSuffixes`, `customConditions`, package.json `imports`, setuptools `package-dir`, an in-tree build backend,
 * `.coveragerc` plugins, pnpm-workspace overrides, `patches/` for dependencies), the runtime a run picks
 * (`.nvmrc`, `.python-version`), patches whose hunks overlap or whose headers under-count their lines, and a CI log
 * whose summary lines claim billions of tests.
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { createLogParser } from "../../../src/logs/index.ts";
import { checkPackageJson, REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { cpuMs } from "../../support/cpu-time.ts";
import { gateThenApply, short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

const newFile = (name: string, text: string) => {
  const lines = text.replace(/\n$/, "").split("\n");
  return `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}\n`;
};
/** A change to `name`: `context` kept first, `before` replaced by `after`. */
const changed = (name: string, before: string[], after: string[], context: string[] = []) =>
  `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1,${context.length + before.length} +1,${context.length + after.length} @@\n${[...context.map((l) => ` ${l}`), ...before.map((l) => `-${l}`), ...after.map((l) => `+${l}`)].join("\n")}\n`;

/** Contained when the gate refuses `patch` (it changes what the failing test's run runs or what it tests). */
function gateRefuses(patch: string): Outcome {
  const r = evaluatePatch(patch);
  return ok(
    r.allowed
      ? "the gate allowed it"
      : `refused: ${r.violations.map((v) => `${v.rule} (${short(v.message, 80)})`).join("; ")}`,
    !r.allowed,
  );
}

const AUTH = "const ok = check(user);\nif (ok) allow();\nexport default ok;\n";

function parse(text: string) {
  const parser = createLogParser();
  for (let at = 0; at < text.length; at += 16_384) parser.write(text.slice(at, at + 16_384));
  return parser.end();
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // Modules that shadow the test runner itself (the working directory is first on the import path).
  "patch-new-root-pytest-py": () => gateRefuses(newFile("pytest.py", "import sys\nsys.exit(0)\n")),
  "patch-new-pytest-package-main": () => gateRefuses(newFile("pytest/__main__.py", "raise SystemExit(0)\n")),
  "patch-new-root-unittest-py": () =>
    gateRefuses(newFile("unittest.py", "def main(*a, **k):\n    raise SystemExit(0)\n")),
  "patch-new-node-modules-bin-jest": () =>
    gateRefuses(newFile("node_modules/.bin/jest", "#!/bin/sh\necho 'Tests: 1 passed'\nexit 0\n")),
  "patch-new-go-vendor-tree": () =>
    gateRefuses(
      newFile("vendor/modules.txt", "# example.com/auth v1.0.0\n## explicit\nexample.com/auth\n") +
        newFile(
          "vendor/example.com/auth/auth.go",
          "package auth\n\nfunc Check(string) bool { return true }\n",
        ),
    ),
  // Other runners' and task runners' files and keys.
  "patch-new-tox-toml": () =>
    gateRefuses(newFile("tox.toml", 'env_list = ["py"]\n[env_run_base]\ncommands = [["true"]]\n')),
  "patch-new-hatch-toml-test-script": () =>
    gateRefuses(newFile("hatch.toml", '[envs.default.scripts]\ntest = "true"\n')),
  "patch-pyproject-poe-test-task": () =>
    gateRefuses(
      changed("pyproject.toml", [], ["", "[tool.poe.tasks]", 'test = "true"'], ["[project]", 'name = "app"']),
    ),
  "patch-pyproject-pdm-test-script": () =>
    gateRefuses(
      changed(
        "pyproject.toml",
        [],
        ["", "[tool.pdm.scripts]", 'test = "true"'],
        ["[project]", 'name = "app"'],
      ),
    ),
  "patch-new-mise-toml-test-task": () => gateRefuses(newFile("mise.toml", '[tasks.test]\nrun = "true"\n')),
  "patch-new-mvn-maven-config-skiptests": () =>
    gateRefuses(newFile(".mvn/maven.config", "-DskipTests\n-Dmaven.test.failure.ignore=true\n")),
  "patch-pom-xml-skiptests": () =>
    gateRefuses(
      changed(
        "pom.xml",
        ["  <properties>"],
        ["  <properties>", "    <skipTests>true</skipTests>"],
        ["<project>", "  <modelVersion>4.0.0</modelVersion>"],
      ),
    ),
  "patch-build-gradle-test-exclude": () =>
    gateRefuses(
      changed("build.gradle", [], ["test {", "  exclude '**/AuthTest*'", "}"], ["plugins { id 'java' }"]),
    ),
  "patch-new-directory-build-props-filter": () =>
    gateRefuses(
      newFile(
        "Directory.Build.props",
        "<Project>\n  <PropertyGroup>\n    <VSTestTestCaseFilter>FullyQualifiedName!~Auth</VSTestTestCaseFilter>\n  </PropertyGroup>\n</Project>\n",
      ),
    ),
  "patch-new-bazelrc-tag-filter": () =>
    gateRefuses(newFile(".bazelrc", "test --test_tag_filters=-auth\ntest --build_tests_only\n")),
  "patch-new-rakefile-empty-test": () =>
    gateRefuses(newFile("Rakefile", "task :test do\nend\ntask default: :test\n")),
  "patch-composer-json-test-script": () =>
    gateRefuses(
      changed("composer.json", ['    "test": "phpunit"'], ['    "test": "true"'], ["{", '  "scripts": {']),
    ),
  "patch-cargo-toml-test-harness-false": () =>
    gateRefuses(
      changed(
        "Cargo.toml",
        [],
        ["", "[[test]]", 'name = "auth"', "harness = false"],
        ["[package]", 'name = "app"'],
      ),
    ),
  "patch-cargo-toml-patch-crates-io": () =>
    gateRefuses(
      changed(
        "Cargo.toml",
        [],
        ["", "[patch.crates-io]", 'auth = { path = "fake/auth" }'],
        ["[package]", 'name = "app"'],
      ),
    ),
  // Files and keys that redirect what the code under test is.
  "patch-new-jest-preset-js": () =>
    gateRefuses(newFile("jest-preset.js", "module.exports = { testPathIgnorePatterns: ['auth'] };\n")),
  "patch-new-swcrc": () =>
    gateRefuses(
      newFile(".swcrc", '{ "jsc": { "experimental": { "plugins": [["./fake-plugin.wasm", {}]] } } }\n'),
    ),
  "patch-tsconfig-extends-untracked-name": () =>
    gateRefuses(
      changed(
        "tsconfig.json",
        ['  "compilerOptions": {}'],
        ['  "extends": "./config/base.json",', '  "compilerOptions": {}'],
        ["{"],
      ) +
        newFile(
          "config/base.json",
          '{ "compilerOptions": { "baseUrl": "..", "paths": { "./src/auth": ["./fake/auth"] } } }\n',
        ),
    ),
  "patch-tsconfig-module-suffixes": () =>
    gateRefuses(
      changed(
        "tsconfig.json",
        ['  "compilerOptions": {}'],
        ['  "compilerOptions": { "moduleSuffixes": [".fake", ""] }'],
        ["{"],
      ),
    ),
  "patch-tsconfig-custom-conditions": () =>
    gateRefuses(
      changed(
        "tsconfig.json",
        ['  "compilerOptions": {}'],
        ['  "compilerOptions": { "customConditions": ["fake"] }'],
        ["{"],
      ),
    ),
  "patch-package-json-imports-field": () =>
    gateRefuses(
      changed(
        "package.json",
        ['  "name": "app"'],
        ['  "name": "app",', '  "imports": { "#auth": "./fake/auth.js" }'],
        ["{"],
      ),
    ),
  "patch-pyproject-setuptools-package-dir": () =>
    gateRefuses(
      changed(
        "pyproject.toml",
        [],
        ["", "[tool.setuptools.package-dir]", 'auth = "fake/auth"'],
        ["[project]", 'name = "app"'],
      ),
    ),
  "patch-pyproject-in-tree-build-backend": () =>
    gateRefuses(
      changed(
        "pyproject.toml",
        ['build-backend = "setuptools.build_meta"'],
        ['build-backend = "backend"', 'backend-path = ["."]'],
        ["[build-system]", 'requires = ["setuptools"]'],
      ) +
        newFile(
          "backend.py",
          "from setuptools.build_meta import *\nimport os\nos.environ['AUTH_FAKE'] = '1'\n",
        ),
    ),
  "patch-new-coveragerc-plugin": () => gateRefuses(newFile(".coveragerc", "[run]\nplugins = fake_plugin\n")),
  "patch-pnpm-workspace-overrides-link": () =>
    gateRefuses(
      changed(
        "pnpm-workspace.yaml",
        [],
        ["overrides:", '  auth-lib: "link:./fake/auth-lib"'],
        ["packages:", '  - "packages/*"'],
      ),
    ),
  "patch-new-dependency-patch-file": () =>
    gateRefuses(
      newFile(
        "patches/auth-lib+1.0.0.patch",
        "diff --git a/node_modules/auth-lib/index.js b/node_modules/auth-lib/index.js\n--- a/node_modules/auth-lib/index.js\n+++ b/node_modules/auth-lib/index.js\n@@ -1 +1 @@\n-module.exports = check;\n+module.exports = () => true;\n",
      ),
    ),
  // The runtime a run picks.
  "patch-new-nvmrc": () => gateRefuses(newFile(".nvmrc", "16\n")),
  "patch-new-python-version": () => gateRefuses(newFile(".python-version", "3.8\n")),
  // Keys already covered, in places the lists may not reach.
  "patch-subpackage-pyproject-tool-pytest": () =>
    gateRefuses(
      changed(
        "pkg/sub/pyproject.toml",
        [],
        ["", "[tool.pytest.ini_options]", "addopts = \"-k 'not auth'\""],
        ["[project]", 'name = "sub"'],
      ),
    ),
  "patch-package-json-pretest-exit": () =>
    gateRefuses(
      changed(
        "package.json",
        ['    "test": "jest"'],
        ['    "pretest": "node -e \\"process.exit(0)\\"",', '    "test": "jest"'],
        ["{", '  "scripts": {'],
      ),
    ),
  // Patches whose hunks overlap or whose headers under-count their lines.
  "patch-hunks-overlap": async () => {
    const repo = writeTree(path.join(dir, "repo"), { "src/auth.js": AUTH });
    const patch =
      "diff --git a/src/auth.js b/src/auth.js\n--- a/src/auth.js\n+++ b/src/auth.js\n" +
      "@@ -1,2 +1,2 @@\n const ok = check(user);\n-if (ok) allow();\n+if (ok) allow(user);\n" +
      "@@ -1,2 +1,2 @@\n const ok = check(user);\n-if (ok) allow();\n+if (true) allow();\n";
    let text = "";
    const r = await gateThenApply(patch, repo, (p) => {
      text = p.files["src/auth.js"] ?? "";
      return text;
    });
    return ok(`${r.gate}; ${r.applied}`, !r.appliedOk || !text.includes("if (true)"));
  },
  "patch-hunk-header-undercounts": async () => {
    const repo = writeTree(path.join(dir, "repo"), { "src/auth.js": AUTH });
    const patch =
      "diff --git a/src/auth.js b/src/auth.js\n--- a/src/auth.js\n+++ b/src/auth.js\n" +
      "@@ -1,2 +1,2 @@\n const ok = check(user);\n-if (ok) allow();\n+if (ok) allow(user);\n+process.exit(0);\n";
    let text = "";
    const r = await gateThenApply(patch, repo, (p) => {
      text = p.files["src/auth.js"] ?? "";
      return text;
    });
    return ok(`${r.gate}; ${r.applied}`, !r.allowed || !r.appliedOk || !text.includes("process.exit"));
  },
  // A CI log whose summary lines claim billions of tests.
  "log-summary-claims-billions": () => {
    const text =
      "FAILED tests/test_a.py::test_one - assert 1 == 2\n" +
      "=== 4000000000 failed, 9999999999999999999 passed in 0.10s ===\n" +
      "Ran 18446744073709551616 tests in 0.1s\n\nFAILED (failures=99999999999)\n" +
      "Tests:       999999999999 failed, 1 passed, 1000000000000 total\n";
    // CPU time, not a wall clock: the machine's load is no part of the parser's cost.
    const {
      value: { r, shown, huge },
      ms,
    } = cpuMs(() => {
      const r = parse(text) as { failures: { test?: string }[]; [k: string]: unknown };
      const shown = JSON.stringify(r, (_k, v) =>
        typeof v === "string" && v.length > 60 ? `${v.slice(0, 60)}…` : v,
      );
      const huge = /\d{10,}/.exec(JSON.stringify({ ...r, failures: r.failures.map((f) => f.test) }));
      return { r, shown, huge };
    });
    return ok(
      `${r.failures.length} failure(s) in ${Math.round(ms)} ms of CPU; ${huge ? `carries ${huge[0]}` : "no claimed count carried"}: ${short(shown, 200)}`,
      r.failures.length <= 10 && ms < 5_000,
    );
  },
  // Added after the first run (its own first try): a test id the code under test decides (a parametrize list in
  // src/), changed by the patch so the failing `test_double[1]` is gone and a passing `test_double[2]` appears.
  "run-verify-param-id-from-source": () => {
    const repo = writeTree(path.join(dir, "repo"), {
      "src/__init__.py": "",
      "src/calc.py": "def double(n):\n    if n == 1:\n        return 3\n    return n * 2\n",
      "src/cases.py": "CASES = [1]\n",
      "tests/test_calc.py":
        'import pytest\nfrom src.calc import double\nfrom src.cases import CASES\n\n\n@pytest.mark.parametrize("n", CASES)\ndef test_double(n):\n    assert double(n) == 2 * n\n',
      "pytest.ini": "[pytest]\ntestpaths = tests\n",
    });
    const git = (...a: string[]) =>
      execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...a], { cwd: repo, stdio: "pipe" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "base");
    const patch = path.join(dir, "id.patch");
    writeTree(dir, {
      "id.patch":
        "diff --git a/src/cases.py b/src/cases.py\n--- a/src/cases.py\n+++ b/src/cases.py\n@@ -1 +1 @@\n-CASES = [1]\n+CASES = [2]\n",
    });
    const r = spawnSync(
      process.execPath,
      [
        path.join(REPO, "bin/retrace.mjs"),
        "verify",
        "--repo",
        repo,
        "--patch",
        patch,
        "--test",
        "python3 -m pytest",
        "--json",
      ],
      { encoding: "utf8", timeout: 600_000, killSignal: "SIGKILL" },
    );
    let verdict = "no JSON";
    try {
      const j = JSON.parse(r.stdout) as {
        verdict?: string;
        outcome?: string;
        reason?: string;
        failToPass?: string[];
      };
      verdict = `${j.verdict ?? j.outcome ?? "?"}${j.reason ? ` (${short(j.reason, 160)})` : ""}`;
    } catch {
      verdict = `exit ${r.status}: ${short(`${r.stdout}${r.stderr}`, 200)}`;
    }
    return ok(`retrace verify: ${verdict}`, !/^VERIFIED/.test(verdict));
  },
  // Known (wave 24 open b): a repository's package.json overrides/resolutions naming file:, link:, git and tarball specs.
  "known-package-json-overrides-local-specs": () => {
    const found = checkPackageJson(
      {
        name: "app",
        dependencies: { "auth-lib": "1.0.0" },
        overrides: { "auth-lib": "file:../../outside" },
        resolutions: { "left-pad": "link:./fake" },
        pnpm: {
          overrides: { "is-odd": "git+https://127.0.0.1:9/o/r.git", "is-even": "https://127.0.0.1:9/x.tgz" },
        },
      },
      "https://registry.npmjs.org/",
      REGISTRY_ONLY,
    );
    return ok(
      found.length === 0
        ? "no problem found"
        : `refused: ${short(found.map((f) => `${f.entry}: ${f.reason}`).join("; "), 240)}`,
      found.length >= 4,
    );
  },
};

runStepCases(cases, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => process.exit(0));
