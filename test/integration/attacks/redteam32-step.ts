/**
 * Host-side steps of the thirty-second red team's cases, run in a process of their own
 * (`tsx redteam32-step.ts <dir> <id>…`, the shared wave-step.ts harness) so a case that holds the host can be killed
 * and measured. Waves 1–31 went to installs, lockfiles, git configuration and the git directory, parsers, patches,
 * model answers, caches, webhooks, the job database's files, runner and build files of many ecosystems, the
 * exploration tools, file modes and escaping caps. This one goes to classes none of them tried: diff path prefixes
 * other than a/ and b/, creation and deletion headers that disagree with the tree, integrity values npm cannot
 * check, lockfile fields of another JSON type, credentials inside the operator's registry URLs, ids that are not
 * exact integers, the App's other paths and methods, caps that cut a surrogate pair or a fence, GFM tables and link
 * reference definitions in a report, YAML keys that are not strings and tags that change a type, text encodings
 * other than UTF-8 (config, log, build file), SQL metacharacters in stored text, the runner's command files and
 * Action inputs holding line breaks.
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { short } from "./patch-step.ts";
import {
  caseCommitAll,
  caseGit,
  cpuWithChildren,
  jobRecord,
  measured,
  type Outcome,
  ok,
  runStepCases,
  writeTree,
} from "./wave-step.ts";

// A module is loaded by the cases that use it (the wave's test is bounded by CPU).
const load = {
  workspace: () => import("../../../src/git/fs-workspace.ts"),
  ports: () => import("../../../src/fix/build-ports.ts"),
  applier: () => import("../../../src/fix/apply-patch.ts"),
  policy: () => import("../../../src/policy/index.ts"),
  lockPolicy: () => import("../../../src/install/lockfile-policy.ts"),
  deps: () => import("../../../src/fix/dependencies.ts"),
  repoDeps: () => import("../../../src/install/repo-deps.ts"),
  registry: () => import("../install/local-registry.ts"),
  docker: () => import("../../support/docker.ts"),
  config: () => import("../../../src/config/load.ts"),
  intake: () => import("../../../src/jobs/intake-rules.ts"),
  hostLimits: () => import("../../../src/core/host-limits.ts"),
  triggers: () => import("../../../src/jobs/triggers.ts"),
  app: () => import("../../e2e/support/app-harness.ts"),
  fakeGitHub: () => import("../../e2e/support/fake-github.ts"),
  store: () => import("../../../src/app/job-store.ts"),
  report: () => import("../../../src/repro/context.ts"),
  octokit: () => import("../../../src/github/octokit-port.ts"),
  registryConfig: () => import("../../../src/install/registry-config.ts"),
  lookup: () => import("../../../src/install/registry-lookup.ts"),
  pip: () => import("../../../src/install/pip.ts"),
  cache: () => import("../../../src/install/cache.ts"),
  container: () => import("../../../src/install/container.ts"),
  engine: () => import("../../../src/sandbox/engine.ts"),
  inputs: () => import("../../../src/action/inputs.ts"),
};

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT32_MARKER ?? "/var/tmp/retrace-rt32-marker";
const HOST_SECRET = "RT32-HOST-FILE-SECRET-5c1a";
/** The operator's registry password in the userinfo case (not the wave's token: that one must never be printed). */
const REGISTRY_PASSWORD = "rt32RegistryPassw0rdQ7x";
const MiB = 1024 * 1024;
/** Host CPU a case's Retrace calls may take (the wave's bound for non-report cases). */
const CPU_MS = 8_000;

const git = (cwd: string, ...args: string[]): string => caseGit(dir, cwd, ...args);
const commitAll = (at: string, message: string): string => caseCommitAll(dir, at, message);

/** Every regular file under `at` (no `.git`) whose bytes hold `needle`. */
function filesHolding(at: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== ".git") walk(p);
      } else if (e.isFile() && readFileSync(p).includes(needle)) out.push(path.relative(at, p));
    }
  };
  if (existsSync(at)) walk(at);
  return out;
}

// ---- The policy gates and the applier on a patch written by hand.

const TREE = {
  "pytest.ini": "[pytest]\n",
  "src/app.py": "def add(a, b):\n    return a - b\n",
  "tests/test_app.py": "from src.app import add\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  "tests/conftest.py": "import pytest\n",
  ".github/workflows/ci.yml":
    "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n",
};

/**
 * The fix pipeline's gate (the checkout as its base), the App's final gate and the applier on `patch`, on a fresh
 * copy of TREE. Contained when a gate refuses, the applier refuses, or the applier changed only files the gate
 * read under the same names (`protectedFiles` unchanged unless a gate read them).
 */
async function gateAndApply(name: string, patch: string, protectedFiles: string[]): Promise<Outcome> {
  const at = path.join(dir, name);
  writeTree(at, TREE);
  const workspace = await (await load.workspace()).createFsWorkspace(at);
  const ports = await (await load.ports()).createFixPorts({
    workspace,
    sandbox: {} as never,
    jobId: "rt32",
    testCommand: "pytest",
    model: null,
  });
  const g = ports.gate(patch);
  const final = (await load.policy()).evaluatePatch(patch, {}, {});
  let applied: string;
  let changed: string[] = [];
  try {
    const r = await (await load.applier()).applyPatchToWorkspace(workspace, patch);
    changed = Object.keys(TREE).filter((f) => {
      const p = path.join(at, f);
      return !existsSync(p) || readFileSync(p, "utf8") !== (TREE as Record<string, string>)[f];
    });
    applied = `applier changed ${changed.join(", ") || "nothing of the tree"} (${short(JSON.stringify(r.changed ?? r).slice(0, 200), 120)})`;
  } catch (e) {
    applied = `applier refused: ${short((e as Error).message, 120)}`;
  }
  const gateText = g.allowed
    ? "fix gate allowed"
    : `fix gate refused: ${short([...new Set(g.violations.map((v) => v.rule))].join(","), 100)}`;
  const finalText = final.allowed
    ? "final gate allowed"
    : `final gate refused: ${short([...new Set(final.violations.map((v) => v.rule))].join(","), 100)}`;
  const hit = changed.filter((f) => protectedFiles.includes(f));
  return ok(`${gateText}; ${finalText}; ${applied}`, !g.allowed || !final.allowed || hit.length === 0);
}

/** Several sub-cases: contained only when every one is. */
async function all(parts: [string, () => Promise<Outcome>][]): Promise<Outcome> {
  const seen: string[] = [];
  let contained = true;
  for (const [what, run] of parts) {
    const r = await run();
    seen.push(`${what}: ${r.outcome}`);
    if (r.contained !== true) contained = false;
  }
  return ok(seen.join(" | "), contained);
}

// ---- Lockfiles.

const INTEGRITY_OK = `sha512-${"A".repeat(86)}==`;

function lockWith(entries: Record<string, Record<string, unknown>>, registry: string): unknown {
  const packages: Record<string, unknown> = {
    "": {
      name: "app",
      version: "1.0.0",
      dependencies: Object.fromEntries(Object.keys(entries).map((k) => [k, "1.0.0"])),
    },
  };
  for (const [name, fields] of Object.entries(entries))
    packages[`node_modules/${name}`] = {
      version: "1.0.0",
      resolved: `${registry}${name}/-/${name}-1.0.0.tgz`,
      ...fields,
    };
  return { name: "app", version: "1.0.0", lockfileVersion: 3, requires: true, packages };
}

/** A host repository holding a package `leaf` whose file holds the host secret; its commit sha. */
function hostPackageRepo(): { repo: string; sha: string } {
  const repo = path.join(dir, "host-repo");
  writeTree(repo, {
    "package.json": JSON.stringify({ name: "leaf", version: "1.0.0" }),
    "index.js": `module.exports = ${JSON.stringify(HOST_SECRET)};\n`,
  });
  git(repo, "init", "-q", "-b", "main");
  return { repo, sha: commitAll(repo, "host") };
}

// ---- The App on raw HTTP.

/** One raw request on its own socket; the first 2,000 bytes of the answer (or how it ended). */
function rawRequest(url: string, text: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port), u.hostname);
    let got = "";
    const done = () => {
      s.destroy();
      resolve(got.slice(0, 2_000) || "(closed without an answer)");
    };
    s.setTimeout(5_000, done);
    s.on("data", (d) => {
      got += String(d);
      if (got.length > 4_000) done();
    });
    s.on("end", done);
    s.on("error", (e) => {
      got ||= `(error ${e.message})`;
      done();
    });
    s.write(text);
  });
}

// ---- Reports.

async function reportTimes(bodies: [string, string][]): Promise<Outcome> {
  const { readReport } = await load.report();
  const seen: string[] = [];
  let worst = 0;
  let threw = false;
  for (const [what, body] of bodies) {
    const a = cpuWithChildren().self;
    let how: string;
    try {
      const r = readReport(body);
      how = r.unreadable ? `not read (${short(r.unreadable, 60)})` : `${r.report.blocks.length} block(s)`;
    } catch (e) {
      threw = true;
      how = `threw ${short((e as Error).message, 80)}`;
    }
    const ms = cpuWithChildren().self - a;
    worst = Math.max(worst, ms);
    seen.push(`${what} (${body.length} chars): ${how} in ${ms} ms CPU`);
  }
  // Per report: twice the parse limit (1 s of CPU here). First try: the case parsed four 65,536-character reports
  // under the wave's 3 s step bound, which assumed two (a defect of the case). Its first per-report bound, 1.3 s, was
  // tighter than the reading holds on a loaded host: at load 7–30 one report took 1,360 ms of CPU (gfm-table-wide,
  // link-reference-definitions), refused by the 1 s limit but past it by a third — the limit is checked between
  // steps of the parse, not inside one. Earlier waves bound a report at 3 s; an unbounded reading still fails here.
  return ok(seen.join("; "), !threw && worst <= 2_000);
}

// ---- Configuration.

/**
 * Each YAML text through loadConfigFromString and the operator's clamps (clampBudget for budgets, clampLimits with
 * operatorMaxLimits for sandbox.limits, as the job layer applies them): contained unless a value is still above the
 * operator's maximum after them, is not finite, or a key that is not a string was accepted. First try: the check
 * judged the parsed configuration before the clamps (a quoted `"sandbox"` key is the ordinary key, and its 65536 is
 * lowered like any repository's value): a defect of the case.
 */
async function configTexts(texts: [string, string][]): Promise<Outcome> {
  const { loadConfigFromString } = await load.config();
  const { clampBudget } = await load.intake();
  const { hostLimits } = await load.hostLimits();
  const { clampLimits, operatorMaxLimits } = await import("../../../src/sandbox/limits.ts");
  const limits = hostLimits();
  const max = operatorMaxLimits();
  const defaults = JSON.stringify(loadConfigFromString(""));
  const seen: string[] = [];
  let through = 0;
  for (const [what, text] of texts) {
    try {
      const c = loadConfigFromString(text) as unknown as Record<string, Record<string, unknown>>;
      const fix = clampBudget(c.fix as never, Number.POSITIVE_INFINITY, limits);
      const repro = clampBudget(c.repro as never, Number.POSITIVE_INFINITY, limits);
      const sandbox = clampLimits(
        ((c.sandbox as Record<string, unknown>)?.limits ?? {}) as never,
        max,
      ).limits;
      const over = Object.entries(sandbox).filter(
        ([k, v]) =>
          typeof v !== "number" || !Number.isFinite(v) || v > (max as unknown as Record<string, number>)[k]!,
      );
      const json = JSON.stringify(c);
      const raised =
        over.length > 0 ||
        !Number.isFinite(fix.maxUsd) ||
        !Number.isFinite(repro.maxUsd) ||
        fix.maxUsd > limits.jobUsd ||
        repro.maxUsd > limits.jobUsd ||
        typeof (c.fix as Record<string, unknown>)?.testCommand === "object" ||
        json.includes("[object Object]");
      if (raised) through++;
      seen.push(
        `${what}: read${json === defaults ? " as the defaults" : ` (clamped: fix $${fix.maxUsd}, repro $${repro.maxUsd}, limits ${short(JSON.stringify(sandbox), 80)})`}${raised ? " — RAISED" : ""}`,
      );
    } catch (e) {
      seen.push(`${what}: refused (${short((e as Error).message, 110)})`);
    }
  }
  return ok(seen.join("; "), through === 0);
}

// ---- The Action through the real @actions/core.

const REPO = "Codertocat/Hello-World";
const SHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";

async function actionWithFailingRunner(
  message: string,
): Promise<{ output: string; summary: string; error: string }> {
  const core = await import("@actions/core");
  const { runAction } = await import("../../../src/action/run.ts");
  const { createGitHubPort } = await load.octokit();
  const { evaluatePatch } = await load.policy();
  const { failedWorkflowRun } = await load.app();
  const { startFakeGitHub } = await load.fakeGitHub();
  const github = await startFakeGitHub();
  github.state.runJobs.set(30433642, [{ id: 2, name: "test", conclusion: "failure" }]);
  github.state.jobLogs.set(2, "FAILED test_add\n");
  github.state.branches.set(`${REPO}:feature`, SHA);
  const payload = failedWorkflowRun(REPO, SHA, "feature", 30433642);
  const eventPath = path.join(dir, "event.json");
  writeFileSync(eventPath, JSON.stringify(payload));
  writeFileSync(path.join(dir, "output"), "");
  writeFileSync(path.join(dir, "summary"), "");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_EVENT_NAME: "workflow_run",
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPO,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: path.join(dir, "output"),
    GITHUB_STEP_SUMMARY: path.join(dir, "summary"),
    GITHUB_RUN_ID: "555",
    GITHUB_RUN_ATTEMPT: "1",
    RUNNER_TEMP: dir,
    GITHUB_API_URL: github.url,
    "INPUT_GITHUB-TOKEN": "ghs_rt32actionTOKEN00000000000000000000",
    "INPUT_ANTHROPIC-API-KEY": "sk-ant-api03-rt32keyrt32keyrt32key",
    INPUT_MODE: "auto",
  };
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  let error = "";
  try {
    const { Octokit } = await import("@octokit/core");
    await runAction({
      env,
      core,
      github: (token) => createGitHubPort(new Octokit({ auth: token, baseUrl: github.url }) as never),
      runner: () =>
        (async () => {
          throw new Error(message);
        }) as never,
      gate: evaluatePatch,
    });
  } catch (e) {
    error = (e as Error).message;
  } finally {
    process.stdout.write = write;
    for (const k of Object.keys(env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    await github.close();
  }
  return {
    output: readFileSync(path.join(dir, "output"), "utf8"),
    summary: readFileSync(path.join(dir, "summary"), "utf8"),
    error,
  };
}

/** GITHUB_OUTPUT as the runner reads it: `name<<DELIM` … `DELIM` blocks and `name=value` lines. */
function parseOutputFile(text: string): [string, string][] {
  const out: [string, string][] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(l);
    if (heredoc) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]!);
      out.push([heredoc[1]!, value.join("\n")]);
    } else if (l.includes("=")) out.push([l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]);
  }
  return out;
}

/** Whether a value, read as one path, names an existing file of the host (resolved from the case's directory). */
function namesHostFile(value: string): boolean {
  return existsSync(path.resolve(dir, value));
}

// ---- Cases.

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  "patch-prefix-mnemonic-workflow": () =>
    all([
      [
        "c/ w/",
        () =>
          gateAndApply(
            "mnemonic",
            [
              "diff --git c/.github/workflows/ci.yml w/.github/workflows/ci.yml",
              "--- c/.github/workflows/ci.yml",
              "+++ w/.github/workflows/ci.yml",
              "@@ -5,2 +5,2 @@",
              "     steps:",
              "-      - run: pytest",
              "+      - run: exit 0",
              "",
            ].join("\n"),
            [".github/workflows/ci.yml"],
          ),
      ],
      [
        "i/ w/ on a test",
        () =>
          gateAndApply(
            "mnemonic-test",
            [
              "diff --git i/tests/test_app.py w/tests/test_app.py",
              "--- i/tests/test_app.py",
              "+++ w/tests/test_app.py",
              "@@ -3,2 +3,2 @@",
              " def test_add():",
              "-    assert add(1, 2) == 3",
              "+    assert add(1, 2) == -1",
              "",
            ].join("\n"),
            ["tests/test_app.py"],
          ),
      ],
    ]),

  "patch-no-prefix-test-file": () =>
    all([
      [
        "--no-prefix",
        () =>
          gateAndApply(
            "noprefix",
            [
              "diff --git tests/test_app.py tests/test_app.py",
              "--- tests/test_app.py",
              "+++ tests/test_app.py",
              "@@ -3,2 +3,2 @@",
              " def test_add():",
              "-    assert add(1, 2) == 3",
              "+    assert add(1, 2) == -1",
              "",
            ].join("\n"),
            ["tests/test_app.py"],
          ),
      ],
      [
        "a/ on one side of diff --git only",
        () =>
          gateAndApply(
            "oneprefix",
            [
              "diff --git a/tests/test_app.py tests/test_app.py",
              "--- a/tests/test_app.py",
              "+++ tests/test_app.py",
              "@@ -3,2 +3,2 @@",
              " def test_add():",
              "-    assert add(1, 2) == 3",
              "+    assert add(1, 2) == -1",
              "",
            ].join("\n"),
            ["tests/test_app.py"],
          ),
      ],
    ]),

  "patch-new-file-header-over-existing-file": () =>
    all([
      [
        "new pytest.ini over the tree's",
        () =>
          gateAndApply(
            "new-ini",
            [
              "diff --git a/pytest.ini b/pytest.ini",
              "new file mode 100644",
              "--- /dev/null",
              "+++ b/pytest.ini",
              "@@ -0,0 +1,2 @@",
              "+[pytest]",
              '+addopts = -k "not test_add"',
              "",
            ].join("\n"),
            ["pytest.ini"],
          ),
      ],
      [
        "new tests/conftest.py over the tree's",
        () =>
          gateAndApply(
            "new-conftest",
            [
              "diff --git a/tests/conftest.py b/tests/conftest.py",
              "new file mode 100644",
              "--- /dev/null",
              "+++ b/tests/conftest.py",
              "@@ -0,0 +1,3 @@",
              "+import pytest",
              "+def pytest_collection_modifyitems(items):",
              "+    items.clear()",
              "",
            ].join("\n"),
            ["tests/conftest.py"],
          ),
      ],
    ]),

  "patch-deleted-file-header-with-added-lines": () =>
    gateAndApply(
      "deleted-adds",
      [
        "diff --git a/src/app.py b/src/app.py",
        "deleted file mode 100644",
        "--- a/src/app.py",
        "+++ /dev/null",
        "@@ -1,2 +1,3 @@",
        " def add(a, b):",
        "     return a - b",
        "+import tests.test_app as t; t.test_add = lambda: None",
        "",
      ].join("\n"),
      ["src/app.py", "tests/test_app.py"],
    ),

  "lockfile-integrity-npm-cannot-check": async () => {
    const { checkNpmLockfile, REGISTRY_ONLY } = await load.lockPolicy();
    const reg = "https://registry.npmjs.org/";
    const bad: Record<string, string> = {
      "empty-integrity": "",
      "md5-integrity": "md5-AAAAAAAAAAAAAAAAAAAAAA==",
      "not-base64": "sha512-not base64!",
      "short-digest": "sha512-AAAA",
      "unknown-words": "hello world",
    };
    const good: Record<string, string> = {
      "good-sha512": INTEGRITY_OK,
      "good-sha1": `sha1-${"A".repeat(27)}=`,
      "good-two": `sha1-${"A".repeat(27)}= ${INTEGRITY_OK}`,
    };
    const entries: Record<string, Record<string, unknown>> = {};
    for (const [n, v] of Object.entries({ ...bad, ...good })) entries[n] = { integrity: v };
    const problems = checkNpmLockfile(lockWith(entries, reg), reg, REGISTRY_ONLY);
    const named = (n: string) => problems.some((p) => p.entry.includes(`node_modules/${n}`));
    const missed = Object.keys(bad).filter((n) => !named(n));
    const wrong = Object.keys(good).filter(named);
    return ok(
      `${problems.length} problem(s); unverifiable entries let through: ${missed.join(", ") || "none"}; legitimate entries refused: ${wrong.join(", ") || "none"}`,
      missed.length === 0 && wrong.length === 0,
    );
  },

  "lockfile-fields-of-another-json-type": async () => {
    const host = hostPackageRepo();
    const { checkNpmLockfile, REGISTRY_ONLY } = await load.lockPolicy();
    const registry = await (await load.registry()).startLocalRegistry([{ name: "leaf", version: "1.0.0" }]);
    try {
      const gitUrl = `git+file://${host.repo}#${host.sha}`;
      const variants: [string, Record<string, unknown>][] = [
        ["resolved an array", { resolved: [gitUrl], integrity: registry.integrity("leaf", "1.0.0") }],
        ["resolved an object", { resolved: { toString: gitUrl, url: gitUrl } }],
        ["version a number, resolved absent", { resolved: undefined, version: 1 }],
        ["link a string", { link: "true", resolved: host.repo }],
      ];
      const seen: string[] = [];
      let policyPassed = 0;
      for (const [what, fields] of variants) {
        const lock = lockWith(
          { leaf: { integrity: registry.integrity("leaf", "1.0.0"), ...fields } },
          registry.url,
        );
        const problems = checkNpmLockfile(lock, registry.url, REGISTRY_ONLY);
        if (problems.length === 0) policyPassed++;
        seen.push(
          `${what}: ${problems.length ? `refused (${short(problems[0]!.reason, 70)})` : "policy passed"}`,
        );
      }
      // The first variant through the real install container.
      const repo = path.join(dir, "repo");
      writeTree(repo, {
        "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { leaf: "1.0.0" } }),
        "package-lock.json": JSON.stringify(
          lockWith(
            { leaf: { resolved: [gitUrl], integrity: registry.integrity("leaf", "1.0.0") } },
            registry.url,
          ),
        ),
      });
      const workspace = await (await load.workspace()).createFsWorkspace(repo);
      const js = await (await load.deps()).checkJsDependencies(workspace);
      let how: string;
      try {
        const dirs = await (await load.repoDeps()).installRepoDependencies(workspace, js!, {
          cacheDir: path.join(dir, "cache"),
          registryConfig: {
            npm: registry.url,
            pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
            caFile: null,
          },
          image: (await load.docker()).sandboxImage,
          timeoutMs: 90_000,
        });
        how = `installed (${dirs.length} dir(s))`;
      } catch (e) {
        how = `install refused/failed: ${short((e as Error).message, 160)}`;
      }
      const leaked = filesHolding(path.join(dir, "cache"), HOST_SECRET);
      return ok(
        `${seen.join("; ")}; real install of the array: ${how}; registry asked ${registry.requests.length} time(s); host repository content in the install: ${leaked.length ? leaked.slice(0, 3).join(", ") : "none"}`,
        // The committed criterion: refused naming the entry, or nothing fetched from the host repository. First
        // try: the step also required the policy to refuse every variant (stricter than the case: a defect of it);
        // that the policy passes them is reported in the outcome.
        leaked.length === 0 && !existsSync(MARKER) && (policyPassed === 0 || !how.startsWith("installed")),
      );
    } finally {
      await registry.close();
    }
  },

  "lockfile-registry-url-userinfo": async () => {
    const auth: string[] = [];
    const server = http.createServer((req, res) => {
      auth.push(req.headers.authorization ?? "(none)");
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not here");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as net.AddressInfo).port;
    const pipUrl = `http://rt32user:${REGISTRY_PASSWORD}@127.0.0.1:${port}/simple`;
    const npmUrl = `http://rt32user:${REGISTRY_PASSWORD}@127.0.0.1:${port}/`;
    const where: string[] = [];
    try {
      const rc = await load.registryConfig();
      const config = await rc.readRegistryConfig({
        ...process.env,
        PIP_INDEX_URL: pipUrl,
        npm_config_registry: npmUrl,
        HOME: dir,
      });
      if (JSON.stringify(config).includes(REGISTRY_PASSWORD)) where.push("JSON of the configuration");
      if (rc.registryKey(config, "npm").includes(REGISTRY_PASSWORD)) where.push("npm cache-key part");
      if (rc.registryKey(config, "pypi").includes(REGISTRY_PASSWORD)) where.push("pypi cache-key part");
      // The look-up (its disk cache under `dir`).
      const lookup = (await load.lookup()).createRegistryLookup({
        registryConfig: config,
        cacheDir: path.join(dir, "lookup"),
      });
      const answers = [
        await lookup.latestRelease!("npm", "leftpad"),
        await lookup.latestRelease!("pypi", "leftpad"),
      ];
      if (filesHolding(path.join(dir, "lookup"), REGISTRY_PASSWORD).length) where.push("look-up disk cache");
      // A real pip install in the install container, the host's process table sampled meanwhile.
      const { InstallCache } = await load.cache();
      const { DEFAULT_INSTALL_LIMITS } = await load.container();
      const { connectDocker } = await load.engine();
      const ctx = {
        docker: connectDocker(),
        image: (await load.docker()).sandboxImage,
        registry: config,
        cache: new InstallCache({ root: path.join(dir, "cache") }),
        limits: { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 90_000 },
        jobId: "rt32",
      };
      const inArgv = new Set<string>();
      const sample = setInterval(() => {
        for (const pid of readdirSync("/proc")) {
          if (!/^\d+$/.test(pid)) continue;
          try {
            const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
            if (cmd.includes(REGISTRY_PASSWORD))
              inArgv.add(short(cmd.replaceAll("\0", " ").replaceAll(REGISTRY_PASSWORD, "[password]"), 90));
          } catch {
            // gone
          }
        }
      }, 40);
      let how: string;
      try {
        await (await load.pip()).installPipPackages(ctx as never, [{ name: "leftpad", version: "1.0.0" }]);
        how = "installed";
      } catch (e) {
        const m = (e as Error).message;
        if (m.includes(REGISTRY_PASSWORD)) where.push("install error");
        how = `failed: ${short(m.replaceAll(REGISTRY_PASSWORD, "[password]"), 140)}`;
      } finally {
        clearInterval(sample);
      }
      if (inArgv.size) where.push(`host process table (${[...inArgv].slice(0, 2).join(" / ")})`);
      if (filesHolding(path.join(dir, "cache"), REGISTRY_PASSWORD).length) where.push("install cache files");
      const sent = auth.filter((a) => a !== "(none)").length;
      return ok(
        `look-ups: ${answers.map((a) => a.kind).join(", ")}; pip: ${how}; ${auth.length} request(s) reached the index, ${sent} with Authorization; password found in: ${where.join("; ") || "nothing"}`,
        where.length === 0,
      );
    } finally {
      server.close();
    }
  },

  "webhook-ids-not-exact-integers": async () => {
    const { parseEvent } = await load.triggers();
    const { example } = await load.app();
    const seen: string[] = [];
    let accepted = 0;
    // biome-ignore lint/suspicious/noExplicitAny: example payloads are edited freely.
    const variants: [string, (p: Record<string, any>) => void, string][] = [
      ["issue.number 1.5", (p) => (p.issue.number = 1.5), '"number":1.5'],
      ["issue.number -7", (p) => (p.issue.number = -7), '"number":-7'],
      ["issue.number 0", (p) => (p.issue.number = 0), '"number":0'],
      ["issue.number 9007199254740993", (p) => (p.issue.number = "__BIG__"), '"number":9007199254740993'],
      ["installation.id 1e300", (p) => (p.installation = { id: "__HUGE__" }), '"id":1e300'],
    ];
    for (const [what, edit] of variants) {
      const p = example("issue_comment", "created");
      p.comment.body = "/repro";
      p.comment.author_association = "OWNER";
      edit(p);
      const text = JSON.stringify(p).replace('"__BIG__"', "9007199254740993").replace('"__HUGE__"', "1e300");
      const payload = JSON.parse(text);
      for (const surface of [
        { kind: "action" as const },
        { kind: "app" as const, identity: { appId: 1, appSlug: "retrace" } },
      ]) {
        const d = parseEvent("issue_comment", payload, surface as never);
        const t = d.accept ? (d.trigger as unknown as Record<string, unknown>) : null;
        const bad =
          t !== null &&
          [t.issueNumber, t.installationId].some(
            (n) => typeof n === "number" && (!Number.isSafeInteger(n) || n <= 0),
          );
        if (bad) accepted++;
        seen.push(
          `${what} (${surface.kind}): ${d.accept ? `accepted issue ${String(t?.issueNumber)} installation ${String(t?.installationId)}` : `skipped (${short(d.reason, 60)})`}`,
        );
      }
    }
    return ok(seen.join("; "), accepted === 0);
  },

  "app-paths-and-methods-other-than-webhook": async () => {
    const h = await load.app();
    const { startFakeGitHub } = await load.fakeGitHub();
    const github = await startFakeGitHub();
    const forwarded: string[] = [];
    const trap = http.createServer((req, res) => {
      forwarded.push(`${req.method} ${req.url}`);
      res.end("trap");
    });
    await new Promise<void>((r) => trap.listen(0, "127.0.0.1", () => r()));
    const trapPort = (trap.address() as net.AddressInfo).port;
    const app = await h.startApp(
      github,
      (async () => {
        throw new Error("no job runs");
      }) as never,
      { dbPath: path.join(dir, "jobs.sqlite") },
    );
    try {
      const requests: [string, string][] = [
        ["traversal", "GET /../../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
        [
          "encoded traversal",
          "GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ],
        [
          "health then traversal",
          "GET /healthz/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ],
        [
          "absolute form",
          `GET http://127.0.0.1:${trapPort}/x HTTP/1.1\r\nHost: 127.0.0.1:${trapPort}\r\nConnection: close\r\n\r\n`,
        ],
        ["asterisk form", "OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
        [
          "TRACE with a cookie",
          "TRACE / HTTP/1.1\r\nHost: x\r\nCookie: session=RT32COOKIE\r\nConnection: close\r\n\r\n",
        ],
        ["CONNECT", `CONNECT 127.0.0.1:${trapPort} HTTP/1.1\r\nHost: 127.0.0.1:${trapPort}\r\n\r\n`],
        ["60,000-byte path", `GET /${"a".repeat(60_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
        ["webhook path by GET", "GET /api/github/webhooks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
      ];
      const seen: string[] = [];
      let bad = 0;
      for (const [what, text] of requests) {
        const answer = await rawRequest(app.url, text);
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? "none";
        const leaked =
          /root:.*:0:0:/.test(answer) || answer.includes("RT32COOKIE") || answer.includes("trap");
        if (leaked || status.startsWith("2")) bad++;
        seen.push(`${what}: ${status}${leaked ? " LEAKED" : ""}`);
      }
      const health = await fetch(`${app.url}/healthz`).then((r) => r.status);
      return ok(
        `${seen.join("; ")}; forwarded ${forwarded.length}; health ${health}`,
        bad === 0 && forwarded.length === 0 && health === 200,
      );
    } finally {
      await app.close();
      await github.close();
      trap.close();
    }
  },

  "comment-cap-cuts-surrogate-and-fence": async () => {
    const { createGitHubPort } = await load.octokit();
    const sent: { where: string; text: string }[] = [];
    const port = createGitHubPort({
      request: async (route: string, params: Record<string, unknown>) => {
        const out = params.output as { summary?: string; title?: string } | undefined;
        if (typeof params.body === "string") sent.push({ where: route, text: params.body });
        if (out?.summary !== undefined) sent.push({ where: `${route} summary`, text: out.summary });
        if (out?.title !== undefined) sent.push({ where: `${route} title`, text: out.title });
        if (typeof params.title === "string") sent.push({ where: `${route} title`, text: params.title });
        return {
          status: 200,
          data: route.startsWith("GET") ? [] : { id: 7, number: 3, html_url: "https://github.test/x" },
        };
      },
    } as never);
    const repo = { owner: "octo", repo: "app" };
    const emoji = "\u{1F600}";
    // The cap keeps 64,960 units: one ASCII character then emoji puts a pair across that boundary.
    const astral = `x${emoji.repeat(40_000)}`;
    const fenced = `Output:\n\n\`\`\`text\n${"log line\n".repeat(9_000)}`;
    const calls: [string, () => Promise<unknown>][] = [
      ["comment", () => port.createComment(repo, 1, astral)],
      ["comment with a fence", () => port.createComment(repo, 1, fenced)],
      [
        "check run",
        () =>
          port.createCheckRun(repo, SHA, "Retrace", {
            title: `x${emoji.repeat(200)}`,
            summary: astral,
          } as never),
      ],
    ];
    const seen: string[] = [];
    for (const [what, call] of calls) {
      try {
        await call();
        seen.push(`${what}: sent`);
      } catch (e) {
        seen.push(`${what}: threw ${short((e as Error).message, 80)}`);
      }
    }
    const lone = sent.filter((s) =>
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s.text),
    );
    const open = sent.filter((s) => {
      const fences = s.text.match(/^(`{3,}|~{3,})/gm) ?? [];
      return fences.length % 2 === 1 && /truncated by Retrace/.test(s.text.slice(s.text.lastIndexOf("```")));
    });
    return ok(
      `${seen.join("; ")}; ${sent.length} text(s) sent (${sent.map((s) => `${s.where.split(" ")[0]} ${s.text.length}`).join(", ")}); with a lone surrogate: ${lone.map((s) => s.where).join(", ") || "none"}; ending inside an open fence over Retrace's note: ${open.map((s) => s.where).join(", ") || "none"}`,
      lone.length === 0 && open.length === 0,
    );
  },

  "report-gfm-table-wide": () =>
    reportTimes([
      ["a row of 20,000 cells", `${"|a".repeat(16_000)}|\n${"|-".repeat(16_000)}|\n`.slice(0, 65_536)],
      [
        "3,000 rows of 10 columns",
        `${"| a ".repeat(10)}|\n${"|---".repeat(10)}|\n${`${"| x ".repeat(10)}|\n`.repeat(3_000)}`.slice(
          0,
          65_536,
        ),
      ],
      ["30,000 delimiter rows", "|-|\n".repeat(16_384)],
      [
        "cells of backslashes and pipes",
        `| a | b |\n|---|---|\n${"| \\| \\\\| `|` ".repeat(6_000)}\n`.slice(0, 65_536),
      ],
    ]),

  "report-link-reference-definitions": () => {
    let defs = "";
    for (let i = 0; defs.length < 40_000; i++) defs += `[${"L".repeat(90)}${i}]: /u${i}\n`;
    let refs = "";
    for (let i = 0; refs.length < 25_000; i++)
      refs += `[x][${"l".repeat(90)}${i % 300}] [${"L".repeat(90)}${i % 300}][] `;
    return reportTimes([
      ["long labels, case-folded references", `${refs}\n\n${defs}`.slice(0, 65_536)],
      ["20,000 definitions of one label", `[a]\n\n${"[a]: b\n".repeat(9_300)}`.slice(0, 65_536)],
      ["unclosed label openers", "[".repeat(65_536)],
      ["definitions with titles that never close", `[a]: /u "${"x\n".repeat(32_000)}`.slice(0, 65_536)],
    ]);
  },

  "config-yaml-non-string-keys": () =>
    configTexts([
      ["? [sandbox]", "? [sandbox]\n: {limits: {memoryMb: 65536}}\n"],
      ["? {fix: 1}", "? {fix: 1}\n: {maxUsd: 1000000000}\n"],
      ["null key", "~: x\n"],
      ["numeric key", "1: y\n"],
      ["nested complex key", "sandbox:\n  ? [limits]\n  : {pids: 32768}\n"],
      ["quoted key like a section", '"sandbox": {limits: {memoryMb: 65536}}\n'],
    ]),

  "config-yaml-type-changing-tags": () =>
    configTexts([
      ["!!binary testCommand", "testCommand: !!binary cHl0ZXN0IC0tY292\n"],
      ["!!float maxUsd", 'fix:\n  maxUsd: !!float "1e9"\n'],
      ["!!omap limits", "sandbox:\n  limits: !!omap [ {memoryMb: 65536} ]\n"],
      ["!!set commands", "commands: !!set {a, b}\n"],
      ["!!timestamp maxUsd", "repro:\n  maxUsd: !!timestamp 2001-12-14\n"],
      ["!!pairs sandbox", "sandbox: !!pairs [ {limits: {pids: 32768}} ]\n"],
      ["!!int hex limits", "sandbox:\n  limits:\n    pids: !!int 0x8000\n"],
    ]),

  "config-text-encodings": async () => {
    const { loadRepoConfigFile } = await load.config();
    const yaml = "sandbox:\n  limits:\n    memoryMb: 65536\n";
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(yaml, "utf16le")]);
    const utf16be = Buffer.from(utf16le).swap16();
    const utf32le = Buffer.alloc(4 + yaml.length * 4);
    utf32le.writeUInt32LE(0xfeff, 0);
    for (let i = 0; i < yaml.length; i++) utf32le.writeUInt32LE(yaml.charCodeAt(i), 4 + i * 4);
    const variants: [string, Buffer, boolean][] = [
      ["UTF-16LE with a BOM", utf16le, false],
      ["UTF-16BE with a BOM", utf16be, false],
      ["UTF-32LE with a BOM", utf32le, false],
      ["UTF-8 with NULs between keys", Buffer.from("sandbox:\0\n  limits:\0\n    memoryMb: 65536\n"), false],
      ["UTF-8 with a BOM (counter-example)", Buffer.from("\uFEFFfix:\n  testCommand: pytest -q\n"), true],
    ];
    const seen: string[] = [];
    let bad = 0;
    for (const [what, bytes, mustRead] of variants) {
      const at = path.join(dir, `enc-${seen.length}`);
      writeTree(at, {});
      writeTree(at, { ".github/.keep": "" });
      writeFileSync(path.join(at, ".github/retrace.yml"), bytes);
      try {
        const c = (await loadRepoConfigFile(at)) as unknown as Record<string, unknown>;
        const json = JSON.stringify(c);
        const raised = json.includes("65536");
        const readRight = !mustRead || (c.fix as Record<string, unknown>)?.testCommand === "pytest -q";
        if (raised || !readRight) bad++;
        seen.push(
          `${what}: read${raised ? " — RAISED" : ""}${mustRead ? ` (fix.testCommand ${JSON.stringify((c.fix as Record<string, unknown>)?.testCommand)})` : ""}`,
        );
      } catch (e) {
        const m = (e as Error).message;
        if (mustRead || m.length > 600) bad++;
        seen.push(`${what}: refused (${m.length} chars: ${short(m.replace(/[^\x20-\x7e]/g, "?"), 100)})`);
      }
    }
    return ok(seen.join("; "), bad === 0);
  },

  "log-utf16-utf32-encodings": async () => {
    const body: string[] = [];
    let size = 0;
    for (let i = 0; size < MiB; i++) {
      const l = `tests/test_a.py::test_ok_${i} PASSED`;
      body.push(l);
      size += l.length + 1;
    }
    body.push("FAILED tests/test_a.py::test_x - assert 8 == 9", "1 failed, 100 passed in 0.12s");
    const text = body.join("\r\n");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const utf32 = Buffer.alloc(4 + text.length * 4);
    utf32.writeUInt32LE(0xfeff, 0);
    for (let i = 0; i < text.length; i++) utf32.writeUInt32LE(text.charCodeAt(i), 4 + i * 4);
    const repo = path.join(dir, "checkout");
    writeTree(repo, { "pytest.ini": "[pytest]\n", "tests/test_a.py": "def test_x():\n    assert 8 == 9\n" });
    const workspace = await (await load.workspace()).createFsWorkspace(repo);
    const ports = await (await load.ports()).createFixPorts({
      workspace,
      sandbox: {} as never,
      jobId: "rt32",
      testCommand: "pytest",
      model: null,
    });
    const files = new Set(await workspace.listFiles());
    const seen: string[] = [];
    let bad = 0;
    for (const [what, bytes] of [
      ["UTF-16LE", utf16],
      ["UTF-16BE", Buffer.from(utf16).swap16()],
      ["UTF-32LE", utf32.subarray(0, 4 * MiB)],
    ] as const) {
      const log = bytes.toString("utf8");
      const r = await measured(async () => ports.parseLog(log, files));
      const ids = r.value instanceof Error ? [] : (r.value as { testId: string }[]).map((f) => f.testId);
      const junk = ids.filter((t) => /[\0\uFFFD]/.test(t));
      if (r.selfMs > CPU_MS || junk.length) bad++;
      seen.push(
        `${what} (${log.length} chars): ${r.value instanceof Error ? `refused (${short(r.value.message, 90)})` : `${ids.length} failure(s) ${short(ids.join(", ").replace(/\0/g, "\\0"), 80)}`} in ${r.selfMs} ms CPU${junk.length ? " — ids with NUL/U+FFFD" : ""}`,
      );
    }
    return ok(seen.join("; "), bad === 0);
  },

  "build-json-bom-and-crlf": async () => {
    const crlf = (s: string) => s.replace(/\n/g, "\r\n");
    const base = {
      "package.json": `\uFEFF${crlf(
        `${JSON.stringify(
          {
            name: "app",
            version: "1.0.0",
            scripts: { test: "jest" },
            jest: { testEnvironment: "node" },
          },
          null,
          2,
        )}\n`,
      )}`,
      "src/auth.js": "module.exports = () => false;\n",
      "src/auth.test.js": "test('auth', () => expect(require('./auth')()).toBe(true));\n",
    };
    const after = {
      "package.json": base["package.json"]
        .replace('"test": "jest"', '"test": "jest --passWithNoTests src/none"')
        .replace(
          '"testEnvironment": "node"',
          '"testEnvironment": "node",\r\n    "testPathIgnorePatterns": ["auth"]',
        ),
    };
    const at = path.join(dir, "gate-repo");
    writeTree(at, base);
    git(at, "init", "-q", "-b", "main");
    git(at, "config", "core.autocrlf", "false");
    commitAll(at, "base");
    writeTree(at, after);
    git(at, "add", "-A");
    const patch = git(at, "diff", "--cached");
    git(at, "reset", "-q", "--hard");
    const workspace = await (await load.workspace()).createFsWorkspace(at);
    const ports = await (await load.ports()).createFixPorts({
      workspace,
      sandbox: {} as never,
      jobId: "rt32",
      testCommand: "npx jest",
      model: null,
      dependencies: { js: async () => [] },
    } as never);
    const g = ports.gate(patch);
    const rules = [...new Set(g.violations.map((v) => v.rule))];
    return ok(
      g.allowed
        ? `gate allowed (${patch.length} bytes of patch)`
        : `gate refused: ${short(g.violations.map((v) => `${v.rule}: ${v.message}`).join("; "), 220)}`,
      !g.allowed && rules.includes("package-scripts") && rules.some((r) => r !== "package-scripts"),
    );
  },

  "jobstore-sql-metacharacters": async () => {
    const { openSqliteJobStore } = await load.store();
    const file = path.join(dir, "db", "jobs.sqlite");
    const store = await openSqliteJobStore(file);
    const hostile = {
      ...jobRecord("job-sql-1"),
      prBranch: "x'); DELETE FROM jobs; --",
      lineage: "%_\\",
      trigger: { ...jobRecord("x").trigger, actor: 'a"; DROP TABLE deliveries;--' },
    };
    const plain = jobRecord("job-plain-2");
    store.insert(plain as never);
    store.insert(hostile as never);
    const firstDelivery = store.recordDelivery("' OR '1'='1", Date.now());
    const again = store.recordDelivery("' OR '1'='1", Date.now());
    const other = store.recordDelivery("d-2", Date.now());
    store.close();
    const reopened = await openSqliteJobStore(file);
    try {
      const back = reopened.get("job-sql-1") as unknown as Record<string, unknown> | null;
      const samePlain = JSON.stringify(reopened.get("job-plain-2")) === JSON.stringify(plain);
      const same =
        back !== null &&
        back.prBranch === hostile.prBranch &&
        back.lineage === hostile.lineage &&
        (back.trigger as Record<string, unknown>).actor === hostile.trigger.actor;
      const byBranch = reopened.findByPrBranch("octo/app", hostile.prBranch)?.id ?? null;
      const wildcard = reopened.findByPrBranch("octo/app", "%")?.id ?? null;
      const lineageCount = reopened.countLineageFixes("octo/app", "%");
      return ok(
        `rows back equal: ${same}, other row unchanged: ${samePlain}, ${reopened.all().length} row(s); by branch: ${byBranch}; by '%': ${wildcard}; lineage '%' fixes: ${lineageCount}; deliveries: first ${firstDelivery}, repeat ${again}, other ${other}`,
        same &&
          samePlain &&
          byBranch === "job-sql-1" &&
          wildcard === null &&
          lineageCount === 0 &&
          firstDelivery &&
          !again &&
          other,
      );
    } finally {
      reopened.close();
    }
  },

  "action-command-files-forged-lines-and-size": async () => {
    const message = `run failed\nverdict=VERIFIED\nghadelimiter_x\n::set-output name=verdict::VERIFIED\n${"e".repeat(4 * MiB)}`;
    const r = await actionWithFailingRunner(message);
    const outputs = parseOutputFile(r.output);
    const verdicts = outputs.filter(([k]) => k === "verdict").map(([, v]) => v);
    const summaryBytes = Buffer.byteLength(r.summary);
    return ok(
      // "the Action's error": a step that throws is reported by the suite as `threw: …`, which this is not.
      `the Action's error: ${short(r.error, 60)}; outputs ${outputs.map(([k, v]) => `${k}=${short(v, 20)}`).join(", ")}; verdicts ${JSON.stringify(verdicts)}; step summary ${summaryBytes} bytes`,
      verdicts.length === 1 && verdicts[0] !== "VERIFIED" && summaryBytes <= MiB,
    );
  },

  "action-inputs-line-breaks": async () => {
    const { readInputs } = await load.inputs();
    const base: Record<string, string> = {
      "github-token": "ghs_x",
      "anthropic-api-key": "sk-x",
      mode: "auto",
    };
    const variants: [string, Record<string, string>, (i: Record<string, unknown>) => boolean][] = [
      // The committed criterion: refused, or read as one value that names no host file. First try: any line break
      // read counted as through (stricter than the case: a defect of it).
      [
        "config two paths",
        { config: ".github/retrace.yml\n/etc/shadow" },
        (i) => namesHostFile(String(i.config)),
      ],
      ["mode two words", { mode: "fix\nrepro" }, () => true],
      ["sandbox-image with an option", { "sandbox-image": "img\n--privileged" }, () => true],
      ["max-attempts two numbers", { "max-attempts": "3\n20" }, () => true],
      ["budget-usd two numbers", { "budget-usd": "1\n1e9" }, () => true],
      ["model with a line break", { model: "claude\n--help" }, (i) => namesHostFile(String(i.model))],
    ];
    const seen: string[] = [];
    let bad = 0;
    for (const [what, over, isBad] of variants) {
      const values = { ...base, ...over };
      // @actions/core getInput trims the value; nothing else.
      try {
        const i = readInputs((name) => (values[name] ?? "").trim()) as unknown as Record<string, unknown>;
        const b = isBad(i);
        if (b) bad++;
        seen.push(`${what}: read${b ? " — ACCEPTED" : ""}`);
      } catch (e) {
        seen.push(`${what}: refused (${short((e as Error).message, 80)})`);
      }
    }
    return ok(seen.join("; "), bad === 0);
  },
};

runStepCases(cases, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => process.exit(0));
