/**
 * Host-side steps of the twenty-eighth red team's cases, run in a process of their own
 * (`tsx redteam28-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–27 went to installs, lockfiles, git configuration keys, parsers, patches, model answers, format
 * characters, caches, clocks, webhook bytes, look-alike names, the App's final gate, the job database, runner
 * shadows, wrappers, conventions, import roots and build logic. This one goes to classes none of them tried: a
 * repository's own money and time budgets against the operator's, programs found through an empty or relative
 * PATH entry, a partial clone's promisor remote (git fetching missing objects by itself), config includes that
 * never end, binary hunks, a no-newline marker inside a hunk, GNU-diff and combined-diff spellings, copy headers
 * and type changes onto tests, lockfile source spellings, webhook request framing (a compressed body, repeated
 * or legacy signature headers, a form-encoded payload), the newest log parsers' per-line patterns, and pax
 * extended headers in the repository archive.
 * One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sign } from "@octokit/webhooks-methods";
import tar from "tar-stream";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { hostLimits } from "../../../src/core/host-limits.ts";
import { applyPatchToWorkspace } from "../../../src/fix/apply-patch.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { safeGit } from "../../../src/git/run-git.ts";
import { unpackTarball } from "../../../src/github/tarball.ts";
import { checkNpmLockfile, REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import { dailyLimitRule, fixBudget, reproBudget } from "../../../src/jobs/intake-rules.ts";
import { parseLog, wholeLog } from "../../../src/logs/index.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { example, SECRET as WEBHOOK_SECRET, startApp } from "../../e2e/support/app-harness.ts";
import { startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree, caseGit } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MARKER = process.env.RETRACE_RT28_MARKER ?? "/var/tmp/retrace-rt28-marker";

// ---- A repository's own budgets (.github/retrace.yml) against what the operator allows.

/** Contained when the config is refused or what it asks for is lowered before it becomes a job's budget. */
function asked(
  yaml: string,
  measure: (c: ReturnType<typeof parseRepoConfig>) => { got: number; asked: number; what: string },
): Outcome {
  let config: ReturnType<typeof parseRepoConfig>;
  try {
    config = parseRepoConfig(yaml);
  } catch (e) {
    return ok(`config refused: ${short((e as Error).message, 160)}`, true);
  }
  const m = measure(config);
  return ok(`${m.what}: asked ${m.asked}, the job gets ${m.got}`, m.got < m.asked);
}

// ---- Host git and PATH.

const git = (cwd: string, ...args: string[]): string => caseGit(dir, cwd, ...args);

function commitRepo(at: string, files: Record<string, string>): string {
  writeTree(at, files);
  git(at, "init", "-q", "-b", "main");
  git(at, "add", "-A");
  git(at, "commit", "-q", "-m", "base");
  return at;
}

/** A program named `name` in `where` that writes the marker file, then runs the real one. */
function plant(where: string, name: string): void {
  writeFileSync(
    path.join(where, name),
    `#!/bin/sh\necho "planted ${name} ran" > ${JSON.stringify(MARKER)}\nexec /usr/bin/${name} "$@"\n`,
    { mode: 0o755 },
  );
}

async function plantedGit(pathValue: string, cwdIsCheckout: boolean): Promise<Outcome> {
  const repo = commitRepo(path.join(dir, "checkout"), { "README.md": "x\n" });
  plant(repo, "git");
  if (cwdIsCheckout) process.chdir(repo);
  const before = process.env.PATH;
  process.env.PATH = pathValue;
  let how: string;
  try {
    const out = await safeGit(repo).raw(["rev-parse", "HEAD"]);
    how = `git ran: ${short(out, 60)}`;
  } catch (e) {
    how = `git refused/failed: ${short((e as Error).message, 120)}`;
  } finally {
    process.env.PATH = before;
    process.chdir(dir);
  }
  const ran = existsSync(MARKER);
  return ok(
    `PATH=${JSON.stringify(pathValue)}; ${how}; planted git ${ran ? "RAN on the host" : "never ran"}`,
    !ran,
  );
}

const HOST_SECRET = "RT28-HOST-REPOSITORY-SECRET-5f1c";

/** A host repository (the victim) and a checkout that is a blobless partial clone of it, its remote renamed. */
function partialClone(): { host: string; checkout: string; head: string } {
  const host = commitRepo(path.join(dir, "host-vault"), { "notes.txt": "public\n" });
  writeFileSync(path.join(host, "notes.txt"), `${HOST_SECRET}\n`);
  git(host, "commit", "-qam", "second");
  git(host, "config", "uploadpack.allowFilter", "true");
  git(host, "config", "uploadpack.allowAnySHA1InWant", "true");
  const checkout = path.join(dir, "checkout");
  git(
    dir,
    "-c",
    "protocol.file.allow=always",
    "clone",
    "-q",
    "--no-checkout",
    "--filter=blob:none",
    `file://${host}`,
    checkout,
  );
  git(checkout, "remote", "rename", "origin", "vault");
  git(checkout, "remote", "add", "origin", "https://github.com/octo/app.git");
  return { host, checkout, head: git(checkout, "rev-parse", "HEAD").trim() };
}

function packsOf(checkout: string): number {
  return readdirSync(path.join(checkout, ".git", "objects", "pack")).filter((f) => f.endsWith(".pack"))
    .length;
}

async function lazyFetch(command: (checkout: string, head: string) => string[]): Promise<Outcome> {
  const { checkout, head } = partialClone();
  const packs = packsOf(checkout);
  let how: string;
  let out = "";
  try {
    out = await safeGit(checkout).raw(command(checkout, head), { timeoutMs: 60_000 });
    how = "git ran";
  } catch (e) {
    how = `git refused/failed: ${short((e as Error).message, 160)}`;
  }
  const fetched = packsOf(checkout) - packs;
  const inTree = existsSync(path.join(checkout, "notes.txt"))
    ? readFileSync(path.join(checkout, "notes.txt"), "utf8").includes(HOST_SECRET)
    : false;
  const shown = out.includes(HOST_SECRET);
  return ok(
    `${how}; packs fetched from the host repository: ${fetched}; its content in the work tree: ${inTree}; in git's output: ${shown}`,
    fetched === 0 && !inTree && !shown,
  );
}

async function configInclude(target: (repo: string) => string): Promise<Outcome> {
  const repo = commitRepo(path.join(dir, "checkout"), { "README.md": "x\n" });
  git(repo, "config", "include.path", target(repo));
  const t = Date.now();
  let how: string;
  try {
    await safeGit(repo).raw(["status", "--porcelain"]);
    how = "git ran";
  } catch (e) {
    how = `refused: ${short((e as Error).message, 160)}`;
  }
  const ms = Date.now() - t;
  return ok(`${how} after ${ms} ms`, how.startsWith("refused") && ms < 30_000);
}

// ---- Patches: the gate with the base text, then the applier on a repository holding it.

const GRADLE_BASE = [
  "plugins { id 'java' }",
  "",
  "test {",
  "    useJUnitPlatform()",
  "}",
  "",
  "dependencies {",
  "    testImplementation 'org.junit.jupiter:junit-jupiter:5.10.0'",
  "}",
  "",
].join("\n");
const EXCLUDE = "exclude '**/AuthTest*'";
const TEST_OK = "def test_ok():\n    assert True\n";
const TEST_AUTH = "from app import login\n\n\ndef test_auth():\n    assert login('a', 'b')\n";

/**
 * Contained when the gate refuses, the applier refuses, or what the applier writes does not hold `bad` in `file`
 * (the harmful change did not land).
 */
async function gateApply(
  patch: string,
  files: Record<string, string>,
  file: string,
  bad: (text: string | undefined, removed: boolean) => boolean,
): Promise<Outcome> {
  const g = evaluatePatch(patch, {}, { sourceFiles: files, treeFiles: Object.keys(files) });
  const repo = writeTree(path.join(dir, "repo"), files);
  let applied: string;
  let landed = false;
  let appliedOk = false;
  try {
    const p = await applyPatchToWorkspace(await createFsWorkspace(repo), patch);
    appliedOk = true;
    landed = bad(p.files[file], p.remove.includes(file));
    applied = `applied (${p.changed.join(", ")}): ${short(JSON.stringify(p.files[file] ?? null), 120)}`;
  } catch (e) {
    applied = `applier refused: ${short((e as Error).message, 140)}`;
  }
  const gate = g.allowed
    ? "gate allowed"
    : `gate refused: ${short(g.violations.map((v) => `${v.rule}: ${v.message}`).join("; "), 180)}`;
  return ok(`${gate}; ${applied}`, !g.allowed || !appliedOk || !landed);
}

const excluded = (t: string | undefined) => (t ?? "").includes(EXCLUDE);

/** `git diff --binary` of `file` going from `before` to `after`, the file marked binary (`-diff -text`). */
function binaryPatch(file: string, before: string | null, after: string): string {
  const at = path.join(dir, "binrepo");
  commitRepo(at, { ".gitattributes": `${file} binary\n`, ...(before === null ? {} : { [file]: before }) });
  writeTree(at, { [file]: after });
  git(at, "add", "-A");
  return git(at, "diff", "--cached", "--binary", "--", file);
}

const gradleHunk = (lines: string[]) =>
  `@@ -3,3 +3,${3 + lines.length} @@\n test {\n     useJUnitPlatform()\n${lines.map((l) => `+${l}`).join("\n")}\n }\n`;

// ---- Lockfiles.

const NPMJS = "https://registry.npmjs.org/";

function lockEntry(resolved: string): Outcome {
  const lock = {
    name: "victim",
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "victim", version: "1.0.0", dependencies: { leaf: "1.0.0" } },
      "node_modules/leaf": {
        version: "1.0.0",
        resolved,
        integrity:
          "sha512-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==",
      },
    },
  };
  const problems = checkNpmLockfile(lock, NPMJS, REGISTRY_ONLY);
  return ok(
    problems.length === 0
      ? `${JSON.stringify(resolved)} read as a registry entry: allowed`
      : `refused: ${short(problems.map((p) => `${p.entry}: ${p.reason} (${p.field ?? "no field"})`).join("; "), 180)}`,
    problems.length > 0,
  );
}

// ---- The App's webhook endpoint.

async function webhook(
  send: (url: string) => Promise<Response>,
): Promise<{ status: number; jobs: number; rssMb: number; text: string }> {
  const github = await startFakeGitHub();
  github.state.permissions.set("Codertocat/Hello-World:Codertocat", "admin");
  const runner = {
    run: async () => {
      throw new Error("no job runs in this case");
    },
  };
  const app = await startApp(github, runner as never, { dbPath: path.join(dir, "jobs.sqlite") });
  try {
    const r = await send(`${app.url}/api/github/webhooks`);
    const text = await r.text();
    await app.service.idle();
    return {
      status: r.status,
      jobs: app.store.all().filter((j) => j.state !== "skipped").length,
      rssMb: Math.round(process.memoryUsage().rss / 1048576),
      text,
    };
  } finally {
    await app.close();
    await github.close();
  }
}

function reproComment(): string {
  const p = example("issue_comment", "created");
  p.comment.id = 2801;
  p.comment.body = "/repro";
  p.comment.user = { login: "Codertocat", type: "User" };
  p.sender = { login: "Codertocat", type: "User" };
  return JSON.stringify(p);
}

const baseHeaders = (id: string) => ({
  "content-type": "application/json",
  "x-github-event": "issue_comment",
  "x-github-delivery": id,
});

// ---- Logs.

function logCost(text: string): Outcome {
  const t = process.cpuUsage();
  let how: string;
  try {
    const parsed = wholeLog(parseLog(text), "the log");
    how = `read: ${parsed.failures.length} failures`;
  } catch (e) {
    how = `refused: ${short((e as Error).message, 160)}`;
  }
  const used = process.cpuUsage(t);
  const ms = Math.round((used.user + used.system) / 1000);
  return ok(`${Math.round(text.length / 1024)} KiB: ${how} in ${ms} ms CPU`, ms < 6_000);
}

// ---- The repository archive.

async function archive(
  entries: { header: Partial<tar.Header> & { name: string }; body?: string }[],
): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c) => {
    chunks.push(c as Buffer);
  });
  const done = new Promise<void>((r) => pack.on("end", () => r()));
  for (const e of entries) {
    await new Promise<void>((resolve, reject) =>
      pack.entry(e.header as tar.Header, e.body ?? "", (err) => (err ? reject(err) : resolve())),
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

async function unpack(
  entries: { header: Partial<tar.Header> & { name: string }; body?: string }[],
  check: (out: string) => string | null,
): Promise<Outcome> {
  const out = path.join(dir, "unpacked");
  mkdirSync(out, { recursive: true });
  let how: string;
  try {
    const r = await unpackTarball(await archive(entries), out);
    how = `unpacked: ${short(JSON.stringify(r), 140)}`;
  } catch (e) {
    how = `refused: ${short((e as Error).message, 160)}`;
  }
  const bad = check(out);
  return ok(`${how}${bad ? `; ${bad}` : ""}`, bad === null);
}

const TOP = "octo-app-0123456789abcdef";

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // A repository's own budgets against the operator's.
  "config-repo-usd-per-day-unclamped": () =>
    asked("limits:\n  usdPerDay: 1000000000\nfix:\n  maxUsd: 1000000000\n", (c) => {
      const day = dailyLimitRule(c, { jobs: 0, usd: 5_000 }, hostLimits(process.env));
      const got = "refuse" in day ? 0 : fixBudget(c, day.remainingUsd, hostLimits(process.env)).maxUsd;
      return {
        got,
        asked: 1_000_000_000 - 5_000,
        what: "dollars one App fix job may spend after $5,000 today",
      };
    }),
  "config-repo-fix-max-usd-unclamped-no-daily-usage": () =>
    asked("fix:\n  maxUsd: 1000000000\n", (c) => ({
      got: fixBudget(c, Number.POSITIVE_INFINITY, hostLimits(process.env)).maxUsd,
      asked: 1_000_000_000,
      what: "dollars one fix job may spend (a surface with no daily count)",
    })),
  "config-repo-max-wall-ms-unclamped": () =>
    asked("repro:\n  maxWallMs: 1000000000000\nfix:\n  maxWallMs: 1000000000000\n", (c) => ({
      got: Math.max(
        reproBudget(c, Number.POSITIVE_INFINITY, hostLimits(process.env)).maxWallMs ?? 0,
        fixBudget(c, Number.POSITIVE_INFINITY, hostLimits(process.env)).maxWallMs ?? 0,
      ),
      asked: 1_000_000_000_000,
      what: "wall-clock ms of one job",
    })),
  "config-repo-jobs-per-day-unclamped": () =>
    asked("limits:\n  jobsPerDay: 1000000000\n", (c) => {
      const day = dailyLimitRule(c, { jobs: 100_000, usd: 0 }, hostLimits(process.env));
      return {
        got: "refuse" in day ? 100_000 : c.limits.jobsPerDay,
        asked: 1_000_000_000,
        what: "jobs per day (100,000 already started today)",
      };
    }),
  "config-repo-max-tokens-unclamped": () =>
    asked("repro:\n  maxTokens: 1000000000000\nfix:\n  maxTokens: 1000000000000\n", (c) => ({
      got: Math.max(
        reproBudget(c, Number.POSITIVE_INFINITY, hostLimits(process.env)).maxTokens ?? 0,
        fixBudget(c, Number.POSITIVE_INFINITY, hostLimits(process.env)).maxTokens ?? 0,
      ),
      asked: 1_000_000_000_000,
      what: "model tokens of one job",
    })),
  // Programs found through an empty or relative PATH entry (`PATH=$EXTRA:$PATH` with EXTRA unset; `.` in PATH).
  "child-git-empty-path-entry-checkout-cwd": () =>
    plantedGit(`:${process.env.PATH ?? "/usr/bin:/bin"}`, false),
  "child-git-dot-path-entry-process-cwd": () => plantedGit(`.:${process.env.PATH ?? "/usr/bin:/bin"}`, true),
  // A partial clone's promisor remote: git fetches missing objects by itself, from wherever the config says.
  "git-promisor-remote-lazy-fetch-host-repo": () =>
    lazyFetch((_c, head) => ["checkout", "--quiet", "--detach", head]),
  "git-promisor-remote-lazy-fetch-on-diff": () =>
    lazyFetch(() => ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD~1", "HEAD"]),
  // Config includes that never end.
  "git-config-include-fifo-blocks": () =>
    configInclude((repo) => {
      execFileSync("mkfifo", [path.join(repo, ".git", "hold")]);
      return path.join(repo, ".git", "hold");
    }),
  "git-config-include-dev-zero": () => configInclude(() => "/dev/zero"),
  // Binary hunks carrying text the rules would read.
  "patch-binary-literal-build-gradle-exclude": () =>
    gateApply(
      binaryPatch(
        "build.gradle",
        GRADLE_BASE,
        GRADLE_BASE.replace("useJUnitPlatform()", `useJUnitPlatform()\n    ${EXCLUDE}`),
      ),
      { "build.gradle": GRADLE_BASE },
      "build.gradle",
      excluded,
    ),
  "patch-binary-literal-new-conftest-py": () =>
    gateApply(
      binaryPatch(
        "conftest.py",
        null,
        "def pytest_collection_modifyitems(items):\n    items[:] = [i for i in items if 'auth' not in i.nodeid]\n",
      ),
      { "tests/test_auth.py": TEST_AUTH },
      "conftest.py",
      (t) => (t ?? "").includes("pytest_collection_modifyitems"),
    ),
  // A no-newline marker inside a hunk: the gate reads two lines, an applier may join them.
  "patch-no-newline-marker-mid-hunk-joins-lines": () =>
    gateApply(
      `diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n@@ -3,3 +3,5 @@\n test {\n     useJUnitPlatform()\n+    exclu\n\\ No newline at end of file\n+de '**/AuthTest*'\n }\n`,
      { "build.gradle": GRADLE_BASE },
      "build.gradle",
      excluded,
    ),
  // GNU diff spellings: names with a tab and a timestamp, no diff --git header, CRLF line ends, combined format.
  "patch-plus-name-tab-timestamp-build-gradle": () =>
    gateApply(
      `--- build.gradle.orig\t2026-11-28 10:00:00.000000000 +0000\n+++ build.gradle\t2026-11-28 10:00:01.000000000 +0000\n${gradleHunk([`    ${EXCLUDE}`])}`,
      { "build.gradle": GRADLE_BASE },
      "build.gradle",
      excluded,
    ),
  "patch-plain-unified-no-git-header-build-gradle": () =>
    gateApply(
      `--- a/build.gradle\n+++ b/build.gradle\n${gradleHunk([`    ${EXCLUDE}`])}`,
      { "build.gradle": GRADLE_BASE },
      "build.gradle",
      excluded,
    ),
  "patch-crlf-whole-patch-build-gradle-exclude": () =>
    gateApply(
      `diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n${gradleHunk([`    ${EXCLUDE}`])}`.replace(
        /\n/g,
        "\r\n",
      ),
      { "build.gradle": GRADLE_BASE },
      "build.gradle",
      excluded,
    ),
  "patch-copy-header-onto-existing-test-file": () =>
    gateApply(
      "diff --git a/tests/test_ok.py b/tests/test_auth.py\nsimilarity index 100%\ncopy from tests/test_ok.py\ncopy to tests/test_auth.py\n",
      { "tests/test_ok.py": TEST_OK, "tests/test_auth.py": TEST_AUTH },
      "tests/test_auth.py",
      (t) => t !== undefined && !t.includes("login"),
    ),
  "patch-combined-diff-cc-format": () =>
    gateApply(
      `diff --cc build.gradle\nindex 1111111,2222222..3333333\n--- a/build.gradle\n+++ b/build.gradle\n@@@ -3,3 -3,3 +3,4 @@@\n  test {\n      useJUnitPlatform()\n++    ${EXCLUDE}\n  }\n`,
      { "build.gradle": GRADLE_BASE },
      "build.gradle",
      excluded,
    ),
  "patch-type-change-test-file-to-symlink": () =>
    gateApply(
      "diff --git a/tests/test_auth.py b/tests/test_auth.py\nold mode 100644\nnew mode 120000\n--- a/tests/test_auth.py\n+++ b/tests/test_auth.py\n@@ -1,5 +1 @@\n-from app import login\n-\n-\n-def test_auth():\n-    assert login('a', 'b')\n+test_ok.py\n\\ No newline at end of file\n",
      { "tests/test_ok.py": TEST_OK, "tests/test_auth.py": TEST_AUTH },
      "tests/test_auth.py",
      (t) => t !== undefined && !t.includes("login"),
    ),
  // Lockfile source spellings.
  "lock-npm-resolved-scp-like-git": () =>
    lockEntry("git@github.com:attacker/leaf.git#0123456789abcdef0123456789abcdef01234567"),
  "lock-npm-resolved-uppercase-git-scheme": () =>
    lockEntry("GIT+SSH://git@github.com/attacker/leaf.git#0123456789abcdef0123456789abcdef01234567"),
  "lock-npm-resolved-https-without-slashes-other-host": () =>
    lockEntry("https:attacker.example/leaf/-/leaf-1.0.0.tgz"),
  "lock-npm-resolved-protocol-relative-other-host": () =>
    lockEntry("//attacker.example/leaf/-/leaf-1.0.0.tgz"),
  // Webhook request framing.
  "webhook-gzip-content-encoding-body": async () => {
    // 1 GiB of spaces as 16 gzip members of 64 MiB each (one stream to a gunzip), about 1 MB, unsigned. The first
    // run compressed 1 GiB in this process and counted that attacker-side work against the App (case defect):
    // the App's CPU and memory are now measured around the delivery only.
    const member = gzipSync(Buffer.alloc(64 << 20, 0x20), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 16 }, () => member));
    const rssBefore = process.memoryUsage().rss;
    const cpu = process.cpuUsage();
    const r = await webhook((url) =>
      fetch(url, {
        method: "POST",
        headers: {
          ...baseHeaders("rt28-gzip"),
          "content-encoding": "gzip",
          "x-hub-signature-256": "sha256=00",
        },
        body: bomb,
      }),
    );
    const used = process.cpuUsage(cpu);
    const appMs = Math.round((used.user + used.system) / 1000);
    const grewMb = Math.round((process.memoryUsage().rss - rssBefore) / 1048576);
    return ok(
      `${Math.round(bomb.length / 1024)} KiB gzip: status ${r.status}; jobs ${r.jobs}; the App took ${appMs} ms CPU, RSS grew ${grewMb} MiB; ${short(r.text, 100)}`,
      r.status >= 400 && r.jobs === 0 && grewMb < 256 && appMs < 4_000,
    );
  },
  "webhook-duplicate-signature-headers": async () => {
    const body = reproComment();
    const forged = `sha256=${"0".repeat(64)}`;
    const r = await webhook((url) => {
      const h = new Headers(baseHeaders("rt28-dup"));
      h.append("x-hub-signature-256", forged);
      h.append("x-hub-signature-256", `sha256=${"f".repeat(64)}`);
      return fetch(url, { method: "POST", headers: h, body });
    });
    return ok(`status ${r.status}; jobs ${r.jobs}; ${short(r.text, 120)}`, r.status >= 400 && r.jobs === 0);
  },
  "webhook-sha1-signature-only": async () => {
    const body = reproComment();
    const { createHmac } = await import("node:crypto");
    const sha1 = `sha1=${createHmac("sha1", "not-the-secret").update(body).digest("hex")}`;
    const r = await webhook((url) =>
      fetch(url, { method: "POST", headers: { ...baseHeaders("rt28-sha1"), "x-hub-signature": sha1 }, body }),
    );
    return ok(`status ${r.status}; jobs ${r.jobs}; ${short(r.text, 120)}`, r.status >= 400 && r.jobs === 0);
  },
  "webhook-form-urlencoded-payload": async () => {
    // GitHub's form content type: `payload=<JSON>`, signed with the App's secret as GitHub signs it.
    const body = `payload=${encodeURIComponent(reproComment())}`;
    const r = await webhook(async (url) =>
      fetch(url, {
        method: "POST",
        headers: {
          ...baseHeaders("rt28-form"),
          "content-type": "application/x-www-form-urlencoded",
          "x-hub-signature-256": await sign(WEBHOOK_SECRET, body),
        },
        body,
      }),
    );
    // Contained: no crash of the endpoint (a status, not a reset), and a job only if the payload was read whole.
    return ok(`status ${r.status}; jobs ${r.jobs}; ${short(r.text, 120)}`, r.status > 0 && r.status < 500);
  },
  // The newest parsers' per-line patterns (lines are cut at 16 KiB before the parsers).
  "log-robot-status-line-space-runs": () => {
    const rule = "=".repeat(78);
    const line = `x${" ".repeat(16_000)}| FAI`;
    return logCost(`${rule}\nSuite\n${rule}\n${Array.from({ length: 250 }, () => line).join("\n")}\n`);
  },
  "log-boost-test-check-line-repeated-openers": () => {
    const line = 'a(1): error: in "'.repeat(900);
    return logCost(`Running 3 test cases...\n${Array.from({ length: 250 }, () => line).join("\n")}\n`);
  },
  // pax extended headers in the repository archive.
  "tarball-pax-size-override-larger": () =>
    unpack(
      [
        { header: { name: `${TOP}/`, type: "directory" } },
        { header: { name: `${TOP}/a.txt`, type: "file", pax: { size: "999999999999" } }, body: "a\n" },
        { header: { name: `${TOP}/b.txt`, type: "file" }, body: "b\n" },
      ],
      () => null,
    ),
  "tarball-pax-linkpath-out-of-tree": () =>
    unpack(
      [
        { header: { name: `${TOP}/`, type: "directory" } },
        { header: { name: `${TOP}/target.txt`, type: "file" }, body: "t\n" },
        {
          header: {
            name: `${TOP}/link`,
            type: "symlink",
            linkname: "target.txt",
            pax: { linkpath: "/etc/passwd" },
          },
        },
      ],
      (out) => {
        try {
          const text = readFileSync(path.join(out, "link"), "utf8");
          return text.includes("root:") ? "the link reads /etc/passwd" : null;
        } catch {
          return null;
        }
      },
    ),
  "tarball-pax-path-dotgit": () =>
    unpack(
      [
        { header: { name: `${TOP}/`, type: "directory" } },
        {
          header: { name: `${TOP}/harmless.txt`, type: "file", pax: { path: `${TOP}/.git/config` } },
          body: "[core]\n\tfsmonitor = touch /tmp/x\n",
        },
      ],
      (out) => (existsSync(path.join(out, ".git", "config")) ? "wrote .git/config" : null),
    ),
};

runStepCases(cases, root, ids, (d) => {
  dir = d;
  process.chdir(d);
}).then(() => process.exit(0));
