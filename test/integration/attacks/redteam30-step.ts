/**
 * Host-side steps of the thirtieth red team's cases, run in a process of their own
 * (`tsx redteam30-step.ts <dir> <id>…`, the shared wave-step.ts harness) so a case that holds the host can be killed
 * and measured. Waves 1–29 went to installs, lockfiles, git configuration and the git directory, parsers, patches,
 * model answers, caches, webhooks, the job database, runner files and build files of many ecosystems. This one goes
 * to classes none of them tried: the model's exploration tools' host work outside their caps, test oracles kept as
 * data outside the test globs, checker configuration that silences the failing check, tests embedded in source
 * files, pattern files git evaluates per path on the host, objects whose names git refuses to write, webhook event
 * names that are Object.prototype members, paths a CI log names read as the failing test's source, contents-API
 * answers other than a file's bytes read as the configuration, and package-spec chains in one token of a report.
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { short } from "./patch-step.ts";
import {
  appRun,
  type Outcome,
  ok,
  runStepCases,
  writeTree,
  caseGit,
  caseCommitAll,
  cpuWithChildren,
  measured,
} from "./wave-step.ts";

// A module is loaded by the groups that use it (the wave's test is bounded by CPU).
const load = {
  explore: () => import("../../../src/fix/pipeline.ts"),
  workspace: () => import("../../../src/git/fs-workspace.ts"),
  ports: () => import("../../../src/fix/build-ports.ts"),
  gather: () => import("../../../src/fix/context-gather.ts"),
  runner: () => import("../../../src/jobs/default-runner.ts"),
  git: () => import("../../../src/git/run-git.ts"),
  worktree: () => import("../../../src/cli/worktree.ts"),
  config: () => import("../../../src/config/repo-config.ts"),
  octokit: () => import("../../../src/github/octokit-port.ts"),
  report: () => import("../../../src/repro/context.ts"),
  app: () => import("../../e2e/support/app-harness.ts"),
};

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT30_MARKER ?? "/var/tmp/retrace-rt30-marker";
const HOST_SECRET = "RT30-HOST-FILE-SECRET-5b1c";
const MiB = 1024 * 1024;
/** Host CPU a case's Retrace calls may take (the wave's bound for non-report cases). */
const CPU_MS = 8_000;

const git = (cwd: string, ...args: string[]): string => caseGit(dir, cwd, ...args);

const commitAll = (at: string, message: string): string => caseCommitAll(dir, at, message);

// ---- The exploration tools (read_file, grep, list_dir) the fix pipeline gives the model.

async function explorer(repo: string) {
  const ws = await (await load.workspace()).createFsWorkspace(repo);
  return (await load.explore()).fixEnv({ workspace: ws } as never, {} as never).explorer;
}

async function grepCalls(repo: string, n: number): Promise<Outcome> {
  const ex = await explorer(repo);
  const r = await measured(async () => {
    const answers: string[] = [];
    for (let i = 0; i < n; i++)
      answers.push((await ex.run({ id: `c${i}`, name: "grep", input: { pattern: `needle${i}` } })).content);
    return answers;
  });
  const what = r.value instanceof Error ? `threw ${short(r.value.message, 100)}` : short(r.value[0]!, 100);
  return ok(`${n} grep calls: ${r.selfMs} ms CPU; first answer ${JSON.stringify(what)}`, r.selfMs <= CPU_MS);
}

// ---- The policy gate, as the fix pipeline builds it (src/fix/build-ports.ts createFixPorts: failing check, base
// sources, runner configs, tree names).

async function gate(
  base: Record<string, string | Buffer>,
  after: Record<string, string | Buffer>,
  testCommand: string,
): Promise<Outcome> {
  const at = path.join(dir, "gate-repo");
  mkdirSync(at, { recursive: true });
  const put = (files: Record<string, string | Buffer>) => {
    for (const [f, t] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(at, f)), { recursive: true });
      writeFileSync(path.join(at, f), t);
    }
  };
  put(base);
  git(at, "init", "-q", "-b", "main");
  commitAll(at, "base");
  put(after);
  git(at, "add", "-A");
  const patch = git(at, "diff", "--cached", "--binary");
  git(at, "reset", "-q", "--hard");
  git(at, "clean", "-qfdx");
  const workspace = await (await load.workspace()).createFsWorkspace(at);
  const ports = await (await load.ports()).createFixPorts({
    workspace,
    sandbox: {} as never,
    jobId: "rt30",
    testCommand,
    model: null,
    dependencies: { js: async () => [] },
  });
  const g = ports.gate(patch);
  return ok(
    g.allowed
      ? `gate allowed (${patch.length} bytes of patch, check ${JSON.stringify(testCommand)})`
      : `gate refused: ${short(g.violations.map((v) => `${v.rule}: ${v.message}`).join("; "), 200)}`,
    !g.allowed,
  );
}

// ---- Host git on the checkout.

/** A tree object written as given (git's own tools refuse some names): entries [mode, name, sha]. */
function rawTree(at: string, entries: [string, string, string][]): string {
  const parts = entries
    .sort((a, b) => (a[1] < b[1] ? -1 : 1))
    .map(([mode, name, sha]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, "hex")]));
  return execFileSync("git", ["hash-object", "-t", "tree", "--literally", "-w", "--stdin"], {
    cwd: at,
    input: Buffer.concat(parts),
    encoding: "utf8",
  }).trim();
}

function blob(at: string, text: string): string {
  return execFileSync("git", ["hash-object", "-w", "--stdin"], {
    cwd: at,
    input: text,
    encoding: "utf8",
  }).trim();
}

/** A checkout at an ordinary first commit, then `tree` committed on top of it (not checked out). */
function checkoutWithCommit(at: string, tree: (at: string) => string): string {
  writeTree(at, { "README.md": "base\n" });
  git(at, "init", "-q", "-b", "main");
  commitAll(at, "base");
  const t = tree(at);
  return git(at, "commit-tree", t, "-p", "HEAD", "-m", "hostile tree").trim();
}

async function checkoutOutcome(at: string, sha: string): Promise<Outcome> {
  const r = await measured(() => load.runner().then((m) => m.ensureCheckoutAt(at, sha)));
  const there = existsSync(MARKER);
  const how = r.value instanceof Error ? `refused: ${short(r.value.message, 160)}` : "checked out";
  return ok(`${how}; marker ${there ? "WRITTEN" : "never written"}`, !there);
}

/** `n` wildcard patterns no fast path of git's matches (not a literal, not `*suffix`). */
function wildcardPatterns(n: number, attr: string): string {
  let s = "";
  for (let i = 0; i < n; i++) s += `*q${i}*z${attr}\n`;
  return s;
}

function manyFiles(at: string, n: number, under = "src"): void {
  // Written by a child process: the case's setup is not the host work the case measures (its CPU is not this
  // process's; the first try wrote them here, and 20,000 files cost up to 5 s of the step's CPU on a loaded host).
  const code = `const fs=require("fs"),p=require("path");for(let d=0;d<${n}/100;d++){const s=p.join(${JSON.stringify(at)},${JSON.stringify(under)},"d"+d);fs.mkdirSync(s,{recursive:true});for(let i=0;i<100;i++)fs.writeFileSync(p.join(s,"f"+i+".txt"),d+"."+i+"\\n")}`;
  execFileSync(process.execPath, ["-e", code]);
}

// ---- Paths a CI log names, read as the failing tests' sources.

const PYTEST_LOG = (names: string[]) =>
  [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.12.1, pytest-8.0.0",
    "collected 3 items",
    "",
    "=================================== FAILURES ===================================",
    ...names.flatMap((n) => [
      `___________________________________ ${n.split("::")[1]} ___________________________________`,
      "",
      "    def test():",
      ">       assert total(3) == 9",
      "E       assert 8 == 9",
      "",
      `${n.split("::")[0]}:2: AssertionError`,
    ]),
    "=========================== short test summary info ============================",
    ...names.map((n) => `FAILED ${n} - assert 8 == 9`),
    `============================== ${names.length} failed in 0.12s ===============================`,
  ].join("\n");

// ---- Contents-API answers read as the configuration.

const CONFIG_TEXT = "repro:\n  enabled: false\nlimits:\n  usdPerDay: 1\n";

async function configFrom(data: unknown): Promise<string> {
  const port = (await load.octokit()).createGitHubPort({ request: async () => ({ status: 200, data }) });
  try {
    const c = await (await load.config()).loadRepoConfig(port, { owner: "octo", repo: "app" });
    return `read: repro.enabled=${c.repro.enabled}, usdPerDay=${c.limits.usdPerDay}`;
  } catch (e) {
    return `refused: ${short((e as Error).message, 120)}`;
  }
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  "explore-grep-files-over-grep-limit-read-uncounted": async () => {
    const repo = path.join(dir, "checkout");
    mkdirSync(path.join(repo, "gen"), { recursive: true });
    writeFileSync(path.join(repo, "src.py"), "def total(n):\n    return n * 3\n");
    for (let i = 0; i < 40; i++) {
      const f = path.join(repo, "gen", `blob${i}.txt`);
      writeFileSync(f, "");
      truncateSync(f, Math.round(7.5 * MiB));
    }
    return grepCalls(repo, 20);
  },
  "explore-grep-binary-files-read-uncounted": async () => {
    const repo = path.join(dir, "checkout");
    mkdirSync(path.join(repo, "assets"), { recursive: true });
    for (let i = 0; i < 400; i++) {
      const f = path.join(repo, "assets", `a${i}.bin`);
      writeFileSync(f, "");
      truncateSync(f, 900 * 1024);
    }
    return grepCalls(repo, 20);
  },
  "explore-grep-20000-small-files-per-call": async () => {
    const repo = path.join(dir, "checkout");
    manyFiles(repo, 20_000);
    return grepCalls(repo, 20);
  },
  "explore-tool-input-extremes": async () => {
    const repo = path.join(dir, "checkout");
    writeTree(repo, { "a.txt": "one\ntwo\n" });
    manyFiles(repo, 20_000, "big");
    const ex = await explorer(repo);
    const calls = [
      { name: "read_file", input: { path: "a.txt", start_line: 2 ** 53, end_line: 1 } },
      { name: "read_file", input: { path: "a.txt", start_line: 2, end_line: 1 } },
      { name: "read_file", input: { path: "a\0.txt" } },
      { name: "read_file", input: { path: `${"a/".repeat(100_000)}x` } },
      { name: "list_dir", input: { path: "big/d0" } },
      { name: "list_dir", input: { path: "." } },
      { name: "grep", input: { pattern: "x".repeat(MiB) } },
    ];
    const r = await measured(async () => {
      const out: string[] = [];
      for (const [i, c] of calls.entries()) out.push((await ex.run({ id: `c${i}`, ...c })).content);
      return out;
    });
    if (r.value instanceof Error) return ok(`threw: ${short(r.value.message, 160)}`, false);
    const longest = Math.max(...r.value.map((a) => a.length));
    return ok(
      `${calls.length} calls in ${r.selfMs} ms CPU; longest answer ${longest} chars; answers: ${short(r.value.map((a) => a.slice(0, 40)).join(" | "), 240)}`,
      longest <= 20_100 && r.selfMs <= CPU_MS,
    );
  },

  "patch-go-testdata-golden-rewritten": () =>
    gate(
      {
        "go.mod": "module example.com/render\n\ngo 1.22\n",
        "render/render.go":
          'package render\n\nimport "strings"\n\n// Table renders rows separated by " | ".\nfunc Table(rows []string) string {\n\treturn strings.Join(rows, "|")\n}\n',
        "render/render_test.go":
          'package render\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestTable(t *testing.T) {\n\twant, _ := os.ReadFile("testdata/table.golden")\n\tif got := Table([]string{"a", "b"}); got != string(want) {\n\t\tt.Fatalf("got %q want %q", got, want)\n\t}\n}\n',
        "render/testdata/table.golden": "a | b",
      },
      { "render/testdata/table.golden": "a|b" },
      "go test ./...",
    ),
  "patch-approvaltests-approved-file-rewritten": () =>
    gate(
      {
        "src/Pricing.cs":
          "namespace Shop;\npublic static class Pricing {\n  public static decimal Total(int n) => n * 2.5m;\n}\n",
        "src/PricingChecks.cs":
          "using ApprovalTests;\nusing Xunit;\nnamespace Shop;\npublic class PricingChecks {\n  [Fact] public void Total() => Approvals.Verify(Pricing.Total(3).ToString());\n}\n",
        "src/PricingChecks.Total.approved.txt": "9.0\n",
        "src/Shop.csproj":
          '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n',
      },
      { "src/PricingChecks.Total.approved.txt": "7.5\n" },
      "dotnet test",
    ),
  "patch-root-fixtures-expected-json-rewritten": () =>
    gate(
      {
        "package.json": JSON.stringify({ name: "render", scripts: { test: "node --test test/" } }, null, 2),
        "src/render.js": "exports.render = (xs) => xs.map((x) => ({ id: x, label: String(x) }));\n",
        "test/render.test.js":
          "const test = require('node:test');\nconst assert = require('node:assert');\nconst { render } = require('../src/render');\nconst expected = require('../fixtures/expected/render.json');\ntest('render', () => assert.deepStrictEqual(render([1]), expected));\n",
        "fixtures/expected/render.json": '[{ "id": 1, "label": "#1" }]\n',
      },
      { "fixtures/expected/render.json": '[{ "id": 1, "label": "1" }]\n' },
      "npm test",
    ),
  "patch-jest-image-snapshot-replaced": () =>
    gate(
      {
        "package.json": JSON.stringify({ name: "ui", scripts: { test: "jest" } }, null, 2),
        "src/button.js": "module.exports = () => '<button>ok</button>';\n",
        "src/button.test.js":
          "test('renders', async () => { expect(await shot()).toMatchImageSnapshot(); });\n",
        "src/__image_snapshots__/button-test-js-renders-1-snap.png": Buffer.from(
          "89504e470d0a1a0a0000000d4948445200000001000000010806000000",
          "hex",
        ),
      },
      {
        "src/__image_snapshots__/button-test-js-renders-1-snap.png": Buffer.from(
          "89504e470d0a1a0a0000000d4948445200000002000000020806000000",
          "hex",
        ),
      },
      "npx jest",
    ),

  "patch-eslint-config-rule-off-check-runs-eslint": () =>
    gate(
      {
        "package.json": JSON.stringify({ name: "app", scripts: { lint: "eslint ." } }, null, 2),
        ".eslintrc.json": JSON.stringify({ root: true, rules: { "no-undef": "error" } }, null, 2),
        "src/app.js": "module.exports = () => missing();\n",
      },
      {
        ".eslintrc.json": JSON.stringify({ root: true, rules: { "no-undef": "off" } }, null, 2),
      },
      "npm run lint",
    ),
  "patch-mypy-ini-ignore-errors-check-runs-mypy": () =>
    gate(
      {
        "mypy.ini": "[mypy]\nstrict = True\n",
        "src/billing/charge.py": "def charge(amount: int) -> int:\n    return amount + '1'\n",
      },
      { "mypy.ini": "[mypy]\nstrict = True\n\n[mypy-src.billing.*]\nignore_errors = True\n" },
      "mypy src",
    ),
  "patch-tsconfig-strict-false-check-runs-tsc": () =>
    gate(
      {
        "package.json": JSON.stringify({ name: "app", devDependencies: { typescript: "5.4.0" } }, null, 2),
        "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }, null, 2),
        "src/a.ts": "export function f(x) { return x.y; }\n",
      },
      {
        "tsconfig.json": JSON.stringify(
          { compilerOptions: { strict: false, noImplicitAny: false, noEmit: true } },
          null,
          2,
        ),
      },
      "tsc --noEmit",
    ),
  "patch-ruff-per-file-ignores-check-runs-ruff": () =>
    gate(
      {
        "pyproject.toml":
          '[project]\nname = "app"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["E", "F"]\n',
        "src/app.py": "def f():\n    return undefined_name\n",
      },
      {
        "pyproject.toml":
          '[project]\nname = "app"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["E", "F"]\n\n[tool.ruff.lint.per-file-ignores]\n"src/*" = ["F821"]\n',
      },
      "ruff check .",
    ),
  "patch-golangci-disable-linter-check-runs-golangci-lint": () =>
    gate(
      {
        "go.mod": "module example.com/app\n\ngo 1.22\n",
        ".golangci.yml": "linters:\n  enable:\n    - errcheck\n    - govet\n",
        "main.go": 'package main\n\nimport "os"\n\nfunc main() { os.Remove("x") }\n',
      },
      { ".golangci.yml": "linters:\n  enable:\n    - govet\n  disable:\n    - errcheck\n" },
      "golangci-lint run ./...",
    ),

  "patch-rust-inline-test-module-assert-changed": () =>
    gate(
      {
        "Cargo.toml": '[package]\nname = "pricing"\nversion = "0.1.0"\nedition = "2021"\n',
        "src/lib.rs":
          "pub fn total(n: u32) -> u32 {\n    n * 3 - 1\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn total_rounds() {\n        assert_eq!(total(3), 9);\n    }\n}\n",
      },
      {
        "src/lib.rs":
          "pub fn total(n: u32) -> u32 {\n    n * 3 - 1\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn total_rounds() {\n        assert_eq!(total(3), 8);\n    }\n}\n",
      },
      "cargo test",
    ),
  "patch-python-doctest-expected-output-changed": () =>
    gate(
      {
        "pyproject.toml": '[project]\nname = "pricing"\nversion = "0.1.0"\n',
        "src/pricing.py":
          'def total(n):\n    """Price of n items.\n\n    >>> total(3)\n    9\n    """\n    return n * 3 - 1\n',
      },
      {
        "src/pricing.py":
          'def total(n):\n    """Price of n items.\n\n    >>> total(3)\n    8\n    """\n    return n * 3 - 1\n',
      },
      "pytest --doctest-modules src",
    ),
  "patch-vitest-in-source-test-block-changed": () =>
    gate(
      {
        "package.json": JSON.stringify({ name: "sum", scripts: { test: "vitest run" } }, null, 2),
        "vitest.config.ts":
          "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { includeSource: ['src/**/*.ts'] } });\n",
        "src/sum.ts":
          "export function sum(a: number, b: number) {\n  return a + b + 1;\n}\n\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it('adds', () => {\n    expect(sum(1, 2)).toBe(3);\n  });\n}\n",
      },
      {
        "src/sum.ts":
          "export function sum(a: number, b: number) {\n  return a + b + 1;\n}\n\nif (import.meta.vitest) {\n  const { it, expect } = import.meta.vitest;\n  it('adds', () => {\n    expect(sum(1, 2)).toBe(4);\n  });\n}\n",
      },
      "npm test",
    ),

  "git-gitattributes-50k-patterns-on-checkout": async () => {
    const at = path.join(dir, "checkout");
    writeTree(at, { "README.md": "base\n" });
    git(at, "init", "-q", "-b", "main");
    const base = commitAll(at, "base");
    manyFiles(at, 4_000);
    commitAll(at, "files");
    writeFileSync(path.join(at, ".gitattributes"), wildcardPatterns(50_000, " -text"));
    const target = commitAll(at, "attributes");
    git(at, "checkout", "-q", "--detach", base);
    const r = await measured(() => load.runner().then((m) => m.ensureCheckoutAt(at, target)));
    const how = r.value instanceof Error ? `refused: ${short(r.value.message, 120)}` : "checked out";
    return ok(`${how}; git ${r.childMs} ms CPU, Retrace ${r.selfMs} ms`, r.childMs <= CPU_MS);
  },
  "git-gitignore-50k-patterns-on-status": async () => {
    const at = path.join(dir, "checkout");
    writeTree(at, { "README.md": "base\n", ".gitignore": wildcardPatterns(50_000, "") });
    git(at, "init", "-q", "-b", "main");
    commitAll(at, "base");
    manyFiles(at, 4_000, "work");
    const r = await measured(async () =>
      (await load.worktree()).uncommittedChanges((await load.git()).safeGit(at)),
    );
    const how =
      r.value instanceof Error
        ? `refused: ${short(r.value.message, 120)}`
        : `${r.value.length} changed paths`;
    return ok(`${how}; git ${r.childMs} ms CPU, Retrace ${r.selfMs} ms`, r.childMs <= CPU_MS);
  },
  "git-tree-entry-dotdot-on-checkout": async () => {
    const at = path.join(dir, "checkout");
    const sha = checkoutWithCommit(at, (a) => {
      // The marker's own path, below as many `..` as the checkout is deep.
      let t = rawTree(a, [["100644", path.basename(MARKER), blob(a, "written by a tree entry\n")]]);
      for (const seg of path.dirname(MARKER).split("/").filter(Boolean).reverse())
        t = rawTree(a, [["40000", seg, t]]);
      for (let i = 0; i < at.split("/").filter(Boolean).length; i++) t = rawTree(a, [["40000", "..", t]]);
      return rawTree(a, [
        ["40000", "..", t],
        ["100644", "README.md", blob(a, "base\n")],
      ]);
    });
    return checkoutOutcome(at, sha);
  },
  "git-tree-entry-uppercase-dotgit-hooks-on-checkout": async () => {
    const at = path.join(dir, "checkout");
    const sha = checkoutWithCommit(at, (a) => {
      const hook = blob(a, `#!/bin/sh\necho ran > ${MARKER}\n`);
      const hooks = rawTree(a, [["100755", "post-checkout", hook]]);
      const gitDir = rawTree(a, [["40000", "hooks", hooks]]);
      const config = rawTree(a, [["100644", "config", blob(a, `[core]\n\thooksPath = .GIT/hooks\n`)]]);
      return rawTree(a, [
        ["40000", ".GIT", gitDir],
        ["40000", ".Git", config],
        ["100644", "README.md", blob(a, "base\n")],
      ]);
    });
    return checkoutOutcome(at, sha);
  },

  "webhook-event-name-object-prototype-members": async () => {
    const { example, postWebhook } = await load.app();
    let health = "";
    const names = ["constructor", "__proto__", "hasOwnProperty", "toString", "valueOf"];
    const run = await appRun(dir, async (app) => {
      const rs: Response[] = [];
      for (const name of names) {
        const p = example("issue_comment", "created");
        p.comment.body = "/repro";
        rs.push(await postWebhook(app, name, p));
      }
      const h = await fetch(`${app.url}/healthz`).catch((e: Error) => e);
      health = h instanceof Error ? `health failed: ${h.message}` : `health ${h.status}`;
      return rs;
    });
    const statuses = JSON.parse(run.statuses) as Record<string, number>;
    const fiveHundreds = Object.keys(statuses).filter((s) => Number(s) >= 500).length;
    return ok(
      `${names.length} deliveries: statuses ${run.statuses}; ${run.jobs} job(s); ${health}`,
      run.jobs === 0 && fiveHundreds === 0 && health === "health 200",
    );
  },

  "log-failing-test-paths-outside-checkout-gathered": async () => {
    const victim = path.join(dir, "host-victim");
    writeTree(victim, { "secret_test.py": `# ${HOST_SECRET}\ndef test_y():\n    assert False\n` });
    const repo = path.join(dir, "checkout");
    writeTree(repo, {
      "pytest.ini": "[pytest]\n",
      "src/pricing.py": "def total(n):\n    return n * 3 - 1\n",
      "tests/test_a.py": "from src.pricing import total\n\ndef test_a():\n    assert total(3) == 9\n",
    });
    symlinkSync("/proc/self/environ", path.join(repo, "tests", "link_test.py"));
    const log = PYTEST_LOG([
      "/proc/self/environ::test_x",
      "../host-victim/secret_test.py::test_y",
      "/workspace/../host-victim/secret_test.py::test_y2",
      "tests/link_test.py::test_z",
      "tests/test_a.py::test_a",
    ]);
    const workspace = await (await load.workspace()).createFsWorkspace(repo);
    const ports = await (await load.ports()).createFixPorts({
      workspace,
      sandbox: {} as never,
      jobId: "rt30",
      testCommand: "pytest",
      model: null,
    });
    const failures = ports.parseLog(log, new Set(await workspace.listFiles()));
    const env = (await load.explore()).fixEnv(ports, {} as never);
    const gathered = await (await load.gather()).gatherContext({ failures, repo: env.repo });
    const text = JSON.stringify({ failures, gathered });
    const token = process.env.GITHUB_TOKEN ?? "";
    const leaks = [
      text.includes(HOST_SECRET) ? "the host file's secret" : "",
      token && text.includes(token) ? "the environment's token" : "",
      /\bPATH=/.test(text) ? "an environment block" : "",
    ].filter(Boolean);
    return ok(
      `${failures.length} failures (${short(failures.map((f) => f.file ?? "-").join(", "), 120)}); ${gathered.length} gathered (${short(gathered.map((g) => g.path).join(", "), 120)}); ${leaks.length ? `LEAKED ${leaks.join(", ")}` : "no host content"}`,
      leaks.length === 0,
    );
  },

  "config-api-answers-other-than-file-bytes": async () => {
    const big = `${CONFIG_TEXT}# ${"x".repeat(1_100_000)}\n`;
    const answers: [string, unknown, boolean][] = [
      // [what, contents-API data, must be refused (true) or may be read as absent (false)]
      [
        "a file over 1 MB (encoding none)",
        { type: "file", encoding: "none", size: big.length, content: "" },
        true,
      ],
      ["a symbolic link", { type: "symlink", target: "../../etc/retrace.yml", size: 21 }, true],
      ["a directory listing", [{ type: "file", name: "x.yml", path: ".github/retrace.yml/x.yml" }], false],
      ["a submodule", { type: "submodule", submodule_git_url: "https://github.com/octo/cfg.git" }, false],
      [
        "the file itself (control)",
        { type: "file", encoding: "base64", content: Buffer.from(CONFIG_TEXT).toString("base64") },
        false,
      ],
    ];
    const seen: string[] = [];
    let failOpen = 0;
    for (const [what, data, mustRefuse] of answers) {
      const r = await configFrom(data);
      seen.push(`${what}: ${r}`);
      if (mustRefuse && !r.startsWith("refused")) failOpen++;
      if (r.startsWith("threw") || /TypeError/.test(r)) failOpen++;
    }
    return ok(short(seen.join("; "), 400), failOpen === 0);
  },

  "report-65k-package-spec-chains-one-token": async () => {
    const { readReport } = await load.report();
    const bodies = [
      "@a/b@1.0.0-".repeat(6_000).slice(0, 65_536),
      ["npm:@a/b@1.0.0", "x==1.0", "@s/p@^2", "pip install y==2"].join("-").repeat(2_000).slice(0, 65_536),
    ];
    const seen: string[] = [];
    let worst = 0;
    let threw = false;
    for (const body of bodies) {
      const a = cpuWithChildren().self;
      let what: string;
      try {
        const r = readReport(body);
        what = r.unreadable ? `not read (${short(r.unreadable, 60)})` : `${r.report.blocks.length} block(s)`;
      } catch (e) {
        threw = true;
        what = `threw ${short((e as Error).message, 80)}`;
      }
      const ms = cpuWithChildren().self - a;
      worst = Math.max(worst, ms);
      seen.push(`${body.length} chars: ${what} in ${ms} ms CPU`);
    }
    return ok(seen.join("; "), !threw && worst < 3_000);
  },
};

runStepCases(cases, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => process.exit(0));
