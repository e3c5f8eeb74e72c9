/**
 * Host-side steps of the twenty-second red team's cases, run in a process of their own
 * (`tsx redteam22-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–21 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches, clocks,
 * webhook bytes, names that look like others and what the host unpacks; this one goes to a patch's names that
 * reach git's own directory or CI (`.git/`, `GIT~1`, `.GIT`, nested `.git`, `.gitmodules`, workflows, composite
 * actions, CODEOWNERS, the repository's Retrace config), the case twin of a file already in the tree (wave 21's open
 * class), logs with NUL bytes, invalid UTF-8, line separators and one gigantic test name, YAML configs that pollute
 * prototypes or nest merge keys, an Action event file that is a link into /proc, deeply nested signed webhooks,
 * a writer's retry after a refusal, a gzip stream that inflates without end, an install stream that stalls, and an
 * `--out` directory that is a link out of the checkout. One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import tarStream from "tar-stream";
import { readEventFile } from "../../../src/action/event-file.ts";
import { writeOutDir } from "../../../src/cli/out-dir.ts";
import { loadConfigFromString } from "../../../src/config/load.ts";
import { unpackTarball } from "../../../src/github/tarball.ts";
import { InstallCache } from "../../../src/install/cache.ts";
import { extractChecked } from "../../../src/install/extract.ts";
import { ContainerDependencyInstaller } from "../../../src/install/installer.ts";
import { readRegistryConfig } from "../../../src/install/registry-config.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { provisionSandboxImage } from "../../../src/sandbox/image.ts";
import { sandboxImage } from "../../support/docker.ts";
import { createLogParser } from "../../../src/logs/index.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { example, postWebhook, startApp } from "../../e2e/support/app-harness.ts";
import { startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { gateThenApply, prTitleOf, short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MiB = 1024 * 1024;
const MARKER = process.env.RETRACE_RT22_MARKER ?? "/var/tmp/retrace-rt22-marker";
/** The checkout (child processes run from it, where `tsx` resolves). */
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

// ---- Patches that reach git's directory, CI, or fold onto a file of the tree.

const TREE = {
  "src/auth.js": "const ok = check(user);\nif (ok) allow();\n",
  "src/config.js": "module.exports = {};\n",
  "src/caf\u00e9.js": "module.exports = 1;\n",
  ".github/workflows/ci.yml": "on: push\njobs: {}\n",
};

function repo(): string {
  const r = writeTree(path.join(dir, "repo"), TREE);
  execFileSync("git", ["init", "-q"], { cwd: r });
  return r;
}

const newFile = (name: string, line = "module.exports = () => true;") =>
  `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1 @@\n+${line}\n`;

/** Contained when the gate refuses the patch (the pipeline gates before it applies); the tree's names are given
 * as the fix pipeline gives them. */
async function gated(patch: string): Promise<Outcome> {
  const r = await gateThenApply(patch, repo(), (p) => JSON.stringify(Object.keys(p.files).slice(0, 3)));
  let gate = r.gate;
  let allowed = r.allowed;
  const withTree = evaluatePatch(patch, {}, { treeFiles: Object.keys(TREE) });
  if (withTree.allowed !== r.allowed) {
    allowed = withTree.allowed;
    gate = withTree.allowed
      ? "gate (with the tree) allowed"
      : `gate (with the tree) refused: ${short(withTree.violations.map((v) => `${v.rule}: ${v.message}`).join("; "), 240)}`;
  }
  const leaked = existsSync(MARKER) ? " MARKER PRESENT" : "";
  return ok(`${gate} | ${r.applied}${leaked}`, !allowed && !leaked);
}

// ---- Logs.

function parse(text: string) {
  const parser = createLogParser();
  for (let at = 0; at < text.length; at += 16_384) parser.write(text.slice(at, at + 16_384));
  return parser.end();
}

/** Contained when the parse finishes and no failure's name carries a control or separator character, or is longer
 * than `maxName` characters. */
function logNames(text: string, maxName = 4_096): Outcome {
  const t0 = process.cpuUsage();
  const r = parse(text);
  const u = process.cpuUsage(t0);
  const names = r.failures.map((f) => `${f.test ?? ""}${(f as { name?: string }).name ?? ""}`);
  const odd = names.filter((n) => /[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029\u0085]/.test(n));
  const longest = Math.max(0, ...names.map((n) => n.length));
  const excerpt = JSON.stringify(r.failures.map((f) => f.message ?? "").join("")).length;
  return ok(
    `${r.stopped ? `stopped at line ${r.stopped.line}: ${r.stopped.reason.slice(0, 60)}` : "read"}: ${r.failures.length} failures, longest name ${longest}, message chars ${excerpt}, odd names ${JSON.stringify(odd.map((n) => short(n, 40)))}, ${Math.round((u.user + u.system) / 1000)} ms`,
    odd.length === 0 && longest <= maxName,
  );
}

// ---- YAML config.

function config(text: string, check: (c: unknown) => boolean): Outcome {
  try {
    const c = loadConfigFromString(text);
    const polluted = ({} as Record<string, unknown>).polluted !== undefined;
    return ok(
      `loaded: ${short(JSON.stringify(c), 120)}${polluted ? " (Object.prototype polluted)" : ""}`,
      !polluted && check(c),
    );
  } catch (e) {
    return ok(`refused: ${short((e as Error).message, 160)}`, true);
  }
}

// ---- The App.

async function appRun(
  deliveries: (app: { url: string }) => Promise<Response[]>,
  permission: string,
  login = "Codertocat",
): Promise<{ jobs: number; statuses: string }> {
  const github = await startFakeGitHub();
  github.state.permissions.set(`Codertocat/Hello-World:${login}`, permission);
  const runner = {
    run: async () => {
      throw new Error("no job runs in this case");
    },
  };
  const app = await startApp(github, runner as never, { dbPath: path.join(dir, "jobs.sqlite") });
  try {
    const rs = await deliveries(app);
    await app.service.idle();
    const counts: Record<number, number> = {};
    for (const r of rs) counts[r.status] = (counts[r.status] ?? 0) + 1;
    return { jobs: app.store.all().length, statuses: JSON.stringify(counts) };
  } finally {
    await app.close();
    await github.close();
  }
}

function comment(login: string, body: string) {
  const p = example("issue_comment", "created");
  p.comment.id = Math.floor(Math.random() * 1e9);
  p.comment.body = body;
  p.comment.user = { login, type: "User" };
  p.sender = { login, type: "User" };
  return p;
}

// ---- Archives and streams.

async function tarHeaderOnly(name: string, size: number): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const e = pack.entry({ name, size, mode: 0o644 });
  e.write(Buffer.alloc(512));
  // Only the header and one block are taken; the stream is not finished.
  await new Promise((r) => setTimeout(r, 10));
  return Buffer.concat(chunks);
}

/** `p`, or "timeout" after `ms` (a timer that keeps the process alive: an unsettled await then shows as "timeout"). */
function within<T>(ms: number, p: Promise<T>): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), ms))),
  ]).finally(() => clearTimeout(timer));
}

// ---- A wheel that carries scripts, data outside its package, `..` in RECORD, a `.pth` and a sitecustomize.

async function wheelInstall(): Promise<Outcome> {
  const root = path.join(dir, "pypi");
  mkdirSync(path.join(root, "files"), { recursive: true });
  const wheel = path.join(root, "files", "rt22wheel-1.0-py3-none-any.whl");
  const touch = `import os; open(${JSON.stringify(MARKER)}, "w").write("pth")`;
  execFileSync("python3", [
    "-c",
    `import zipfile,sys
z=zipfile.ZipFile(sys.argv[1],"w")
z.writestr("rt22wheel/__init__.py","")
z.writestr("rt22wheel_evil.pth",sys.argv[2]+"\\n")
z.writestr("sitecustomize.py",sys.argv[2].replace("import os; ","")+"\\n")
z.writestr("rt22wheel-1.0.data/scripts/rt22tool","#!/bin/sh\\ntouch "+sys.argv[3]+"\\n")
z.writestr("rt22wheel-1.0.data/data/etc/rt22.conf","x")
z.writestr("rt22wheel-1.0.dist-info/METADATA","Metadata-Version: 2.1\\nName: rt22wheel\\nVersion: 1.0\\n")
z.writestr("rt22wheel-1.0.dist-info/WHEEL","Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
z.writestr("rt22wheel-1.0.dist-info/RECORD","../../../../../tmp/rt22-record,,\\n/etc/rt22-abs,,\\n")
z.close()`,
    wheel,
    touch,
    MARKER,
  ]);
  const sha = createHash("sha256").update(readFileSync(wheel)).digest("hex");
  mkdirSync(path.join(root, "simple", "rt22wheel"), { recursive: true });
  writeFileSync(
    path.join(root, "simple", "rt22wheel", "index.html"),
    `<a href="/files/rt22wheel-1.0-py3-none-any.whl#sha256=${sha}">rt22wheel-1.0-py3-none-any.whl</a>`,
  );
  const index = http.createServer((req, res) => {
    const p = new URL(req.url ?? "/", "http://x").pathname.replace(/\/$/, "/index.html");
    const file = path.join(root, p);
    if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => index.listen(0, "127.0.0.1", r));
  const cacheDir = path.join(dir, "cache");
  try {
    const url = `http://127.0.0.1:${(index.address() as AddressInfo).port}/simple`;
    const r = await new ContainerDependencyInstaller({
      registryConfig: {
        npm: "http://127.0.0.1:9/",
        pip: { indexUrl: url, extraIndexUrls: [], findLinks: [] },
        caFile: null,
      },
      cacheDir,
      image: sandboxImage,
    }).install({ ecosystem: "pypi", packages: [{ name: "rt22wheel", version: "1.0" }] });
    // The host then reads the operator's registry configuration with its own pip3 (a Python on the host).
    await readRegistryConfig({ ...process.env });
    const files = existsSync(cacheDir)
      ? (readdirSync(cacheDir, { recursive: true }) as string[]).filter((f) => !f.includes(".retrace-entry"))
      : [];
    const outside = ["/tmp/rt22-record", "/etc/rt22-abs"].filter((f) => existsSync(f));
    const marker = existsSync(MARKER);
    return ok(
      `install ${r.dir ? "done" : `refused (${JSON.stringify(r.failures.map((f) => f.name))})`}; cached ${JSON.stringify(files.filter((f) => /pth|sitecustom|rt22tool|rt22\.conf/.test(f)))}; outside ${JSON.stringify(outside)}; marker ${marker}`,
      !marker && outside.length === 0,
    );
  } finally {
    index.closeAllConnections();
    index.close();
  }
}

// ---- The Action's saved sandbox image (RUNNER_TOOL_CACHE): a copy that holds more than it was saved for.

function imageTar(file: string, tags: string[]): void {
  const tmpTag = `rt22-src-${randomUUID().slice(0, 8)}:1`;
  const work = path.join(dir, "img");
  mkdirSync(path.join(work, "empty"), { recursive: true });
  mkdirSync(path.join(work, "x"), { recursive: true });
  execFileSync("sh", [
    "-c",
    `tar -c -C "$1" . | docker import - "$2" >/dev/null`,
    "sh",
    path.join(work, "empty"),
    tmpTag,
  ]);
  execFileSync("docker", ["save", tmpTag, "-o", path.join(work, "a.tar")]);
  execFileSync("docker", ["rmi", tmpTag], { stdio: "ignore" });
  execFileSync("tar", ["-x", "-f", path.join(work, "a.tar"), "-C", path.join(work, "x")]);
  const m = JSON.parse(readFileSync(path.join(work, "x", "manifest.json"), "utf8"));
  m[0].RepoTags = tags;
  writeFileSync(path.join(work, "x", "manifest.json"), JSON.stringify(m));
  execFileSync("rm", ["-f", path.join(work, "x", "repositories")]);
  execFileSync("tar", ["-c", "-f", file, "-C", path.join(work, "x"), "."]);
}

async function imageCache(tags: (target: string) => string[], victim: string): Promise<Outcome> {
  const docker = connectDocker();
  // Nothing listens on port 1: the pull after the cached copy fails at once.
  const target = `127.0.0.1:1/rt22/never@sha256:${"0".repeat(64)}`;
  const cacheDir = path.join(dir, "tool-cache");
  mkdirSync(cacheDir);
  imageTar(path.join(cacheDir, `${target.replace(/[^A-Za-z0-9._-]+/g, "_")}.tar`), tags(target));
  let how: string;
  try {
    const r = await provisionSandboxImage(docker, { image: target, cacheDir, timeoutMs: 20_000 });
    how = `provisioned ${r.image} (${r.how})`;
  } catch (e) {
    how = `refused: ${short((e as Error).message, 140)}`;
  }
  const tagged = await docker
    .getImage(victim)
    .inspect()
    .then(
      () => true,
      () => false,
    );
  if (tagged)
    await docker
      .getImage(victim)
      .remove()
      .catch(() => undefined);
  return ok(`${how}; ${victim} ${tagged ? "TAGGED on the engine" : "absent"}`, !tagged);
}

// ---- Two jobs on one install-cache key: one killed while it commits, another committing and reading.

async function cacheRace(): Promise<Outcome> {
  const cacheDir = path.join(dir, "cache");
  mkdirSync(path.join(cacheDir, "npm"), { recursive: true });
  const child = (body: string, killAfterMs?: number) =>
    new Promise<string>((resolve) => {
      const script = `import { InstallCache } from ${JSON.stringify(path.join(REPO, "src/install/cache.ts"))};
import { mkdirSync, writeFileSync } from "node:fs";
const c = new InstallCache({ root: ${JSON.stringify(cacheDir)} });
const tmp = await c.tempDir("npm", "k1");
mkdirSync(tmp + "/node_modules/a", { recursive: true });
for (let i = 0; i < 400; i++) writeFileSync(tmp + "/node_modules/a/f" + i + ".js", ${JSON.stringify(body)}.repeat(2000));
await c.commit("npm", "k1", tmp, { who: ${JSON.stringify(body)} });
console.log("committed");`;
      const p = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        cwd: REPO,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      p.stdout.on("data", (d) => {
        out += d;
      });
      p.stderr.on("data", (d) => {
        out += d;
      });
      if (killAfterMs !== undefined) setTimeout(() => p.kill("SIGKILL"), killAfterMs);
      p.on("close", (code, sig) => resolve(`${short(out, 60)}${sig ? ` (${sig})` : ` (exit ${code})`}`));
    });
  const [a, b, c] = await Promise.all([child("A", 1_800), child("B"), child("C")]);
  const cache = new InstallCache({ root: cacheDir });
  const hit = await cache.lookup<{ who: string }>("npm", "k1");
  let whole = false;
  if (hit) {
    const names = readdirSync(path.join(hit.dir, "node_modules", "a"));
    const bodies = new Set(
      names.map((n) => readFileSync(path.join(hit.dir, "node_modules", "a", n), "utf8")[0]),
    );
    whole = names.length === 400 && bodies.size === 1 && bodies.has(hit.marker.meta.who);
  }
  const left = readdirSync(path.join(cacheDir, "npm"));
  return ok(
    `writers: ${a} | ${b} | ${c}; read ${hit ? `entry of ${hit.marker.meta.who}, ${whole ? "whole" : "MIXED OR PARTIAL"}` : "nothing"}; left ${JSON.stringify(left.map((n) => n.replace(/-[0-9a-f]{8}$/, "-…")))}`,
    hit !== null && whole,
  );
}

// ---- `retrace replay` on an edited trace: a field far larger than any run writes.

function replayHuge(): Outcome {
  const file = path.join(dir, "trace.json");
  // Written in pieces: the case's own process never holds the 300 MiB.
  const fd = openSync(file, "w");
  writeSync(
    fd,
    '{"version":1,"steps":[],"result":{"outcome":"NOT_REPRODUCED"},"job":{"kind":"repro","id":"rt22","model":null,"markdown":"',
  );
  const chunk = "x".repeat(MiB);
  for (let i = 0; i < 300; i++) writeSync(fd, chunk);
  writeSync(fd, '"}}');
  closeSync(fd);
  const t0 = Date.now();
  let out: string;
  try {
    out = execFileSync(process.execPath, [path.join(REPO, "bin/retrace.mjs"), "replay", file], {
      cwd: REPO,
      env: { ...process.env, RETRACE_CLI_FROM_SOURCE: "1" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });
  } catch (e) {
    const x = e as { stderr?: string; status?: number; signal?: string };
    out = `exit ${x.status ?? x.signal}: ${x.stderr ?? ""}`;
  }
  const ms = Date.now() - t0;
  return ok(`${short(out, 160)} (${ms} ms)`, /larger than/i.test(out) && ms < 30_000);
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // Wave 21's open class: the case twin of a file of the tree.
  "patch-new-file-case-twin-of-tree-file": () => gated(newFile("src/Auth.js")),
  "patch-new-file-case-twin-of-tree-directory": () => gated(newFile("SRC/auth.js")),
  "patch-new-file-nfd-twin-of-tree-file": () => gated(newFile("src/cafe\u0301.js")),
  // Names that reach git's own directory.
  "patch-git-dir-config-fsmonitor": () =>
    gated(newFile(".git/config", `[core]\\n\\tfsmonitor = touch ${MARKER}`)),
  "patch-git-dir-uppercase-hook": () => gated(newFile(".GIT/hooks/pre-commit", `touch ${MARKER}`)),
  "patch-git-dir-8dot3-name": () => gated(newFile("GIT~1/config", "[core]")),
  "patch-git-dir-nested-repository": () =>
    gated(newFile("vendor/lib/.git/hooks/post-checkout", `touch ${MARKER}`)),
  "patch-git-dir-rename-into-hooks": () =>
    gated(
      "diff --git a/src/config.js b/.git/hooks/post-commit\nsimilarity index 100%\nrename from src/config.js\nrename to .git/hooks/post-commit\n",
    ),
  "patch-git-dir-trailing-dot": () => gated(newFile(".git./config", "[core]")),
  "patch-gitmodules-ext-url": () =>
    gated(
      `diff --git a/.gitmodules b/.gitmodules\nnew file mode 100644\n--- /dev/null\n+++ b/.gitmodules\n@@ -0,0 +1,3 @@\n+[submodule "x"]\n+\tpath = x\n+\turl = ext::sh -c touch% ${MARKER}\n`,
    ),
  "patch-gitattributes-filter-driver": () => gated(newFile(".gitattributes", "* filter=rt22 diff=rt22")),
  // Names that reach CI or review.
  "patch-workflow-case-variant-dir": () =>
    gated(newFile(".GitHub/workflows/x.yml", "on: pull_request_target")),
  "patch-composite-action": () =>
    gated(newFile(".github/actions/setup/action.yml", "runs: {using: composite}")),
  "patch-codeowners": () => gated(newFile(".github/CODEOWNERS", "* @attacker")),
  "patch-retrace-config": () => gated(newFile(".github/retrace.yml", "policy: {}")),
  "patch-path-2000-segments": () => gated(newFile(`${"a/".repeat(2_000)}x.js`)),
  // Logs.
  "log-nul-bytes-in-test-names": () =>
    logNames(
      `============================= test session starts ==============================\nFAILED tests/test_a.py::test_ok\u0000\u0000PASSED - assert 1 == 2\n${"=".repeat(20)} 1 failed in 0.1s ${"=".repeat(20)}\n`,
    ),
  "log-invalid-utf8-bytes": () =>
    logNames(
      Buffer.concat([
        Buffer.from("FAILED tests/test_a.py::test_"),
        Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]),
        Buffer.from(" - assert 1 == 2\n=== 1 failed in 0.1s ===\n"),
      ]).toString("utf8"),
    ),
  "log-line-separators-in-test-name": () =>
    logNames(
      "FAILED tests/test_a.py::test_x\u2028PASSED tests/test_all_good - assert 1 == 2\n=== 1 failed in 0.1s ===\n",
    ),
  "log-gigantic-test-name-8mib": () =>
    logNames(
      `FAILED tests/test_a.py::test_${"n".repeat(8 * MiB)} - assert 1 == 2\n=== 1 failed in 0.1s ===\n`,
    ),
  "log-carriage-returns-only-8mib": () => logNames(`${"progress 10%\r".repeat((8 * MiB) / 13)}\n`),
  "pr-title-gigantic-test-name": () => {
    const t = prTitleOf("j1", [`tests/test_a.py::test_${"n".repeat(MiB)}`]);
    return ok(`title of ${t.length} chars: ${short(t, 80)}`, t.length <= 256);
  },
  // YAML configs.
  "config-yaml-proto-key": () =>
    config("__proto__:\n  polluted: yes\npolicy:\n  __proto__:\n    polluted: yes\n", () => true),
  "config-yaml-merge-key-bomb": () => {
    let y = "a0: &a0 {x: 1}\n";
    for (let i = 1; i < 30; i++) y += `a${i}: &a${i} {<<: [*a${i - 1}, *a${i - 1}], y${i}: 1}\n`;
    return config(y, () => false);
  },
  "config-yaml-js-function-tag": () =>
    config('policy: !!js/function \'function(){ require("fs").writeFileSync("/tmp/x",1) }\'\n', () => false),
  // The Action's event file.
  "event-file-link-to-proc-environ": () => {
    const link = path.join(dir, "event.json");
    symlinkSync("/proc/self/environ", link);
    try {
      const v = readEventFile(link);
      return ok(`read: ${short(JSON.stringify(v), 80)}`, !JSON.stringify(v).includes("GITHUB_TOKEN"));
    } catch (e) {
      return ok(`refused: ${short((e as Error).message, 160)}`, true);
    }
  },
  "event-file-proto-keys": () => {
    const f = path.join(dir, "event.json");
    writeFileSync(
      f,
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"action":"opened"}',
    );
    const v = readEventFile(f) as Record<string, unknown>;
    const polluted = ({} as Record<string, unknown>).polluted !== undefined;
    return ok(`read action ${String(v.action)}; prototype ${polluted ? "polluted" : "clean"}`, !polluted);
  },
  // Webhooks.
  "app-signed-webhook-nested-100k": async () => {
    const r = await appRun(async (app) => {
      const p = comment("Codertocat", "/retrace");
      const raw = JSON.stringify(p).replace(/}$/, `,"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
      return [await postWebhook(app, "issue_comment", null, { rawBody: raw })];
    }, "write");
    return ok(`nested 100k: ${r.jobs} job record(s), statuses ${r.statuses}`, r.jobs === 0);
  },
  "app-writer-retry-after-unconfigured-word": async () => {
    const r = await appRun(async (app) => {
      const a = await postWebhook(app, "issue_comment", comment("Codertocat", "/retrace frobnicate"));
      const b = await postWebhook(app, "issue_comment", comment("Codertocat", "/repro"));
      return [a, b];
    }, "write");
    return ok(`a typo then /repro: ${r.jobs} job record(s), statuses ${r.statuses}`, r.jobs >= 1);
  },
  "app-reader-refused-then-writer-same-issue": async () => {
    const github = await startFakeGitHub();
    github.state.permissions.set("Codertocat/Hello-World:reader", "read");
    github.state.permissions.set("Codertocat/Hello-World:Codertocat", "write");
    const app = await startApp(github, { run: async () => {} } as never, {
      dbPath: path.join(dir, "j.sqlite"),
    });
    try {
      await postWebhook(app, "issue_comment", comment("reader", "/repro"));
      await postWebhook(app, "issue_comment", comment("Codertocat", "/repro"));
      await app.service.idle();
      const taken = app.store
        .all()
        .filter((j) => JSON.stringify(j).includes('Codertocat"') && !/refused/.test(JSON.stringify(j)));
      return ok(`${app.store.all().length} records, writer's taken ${taken.length}`, taken.length >= 1);
    } finally {
      await app.close();
      await github.close();
    }
  },
  // What the host unpacks.
  "tarball-gzip-members-inflate-4gib": async () => {
    const header = await tarHeaderOnly("o-r-sha/big.bin", 4 * 1024 * MiB - 1);
    const zeros = gzipSync(Buffer.alloc(64 * MiB));
    const archive = Buffer.concat([gzipSync(header), ...Array.from({ length: 64 }, () => zeros)]);
    const dest = writeTree(path.join(dir, "checkout"), {});
    const before = process.memoryUsage().rss;
    try {
      const r = await within(60_000, unpackTarball(archive, dest));
      return ok(`${r === "timeout" ? "still unpacking after 60 s" : `unpacked ${JSON.stringify(r)}`}`, false);
    } catch (e) {
      return ok(
        `refused (${archive.length} bytes of gzip): ${short((e as Error).message, 140)}; RSS +${Math.round((process.memoryUsage().rss - before) / MiB)} MiB`,
        true,
      );
    }
  },
  "install-stream-stalls-after-header": async () => {
    const header = await tarHeaderOnly("node_modules/a/index.js", 1_000_000);
    const stream = new Readable({ read() {} });
    stream.push(header);
    const dest = path.join(dir, "out");
    const r = await within(
      20_000,
      // The stall bound is lowered as RETRACE_HOST_LIMITS lowers the others; the default is EXTRACT_STALL_MS.
      extractChecked(stream, dest, { maxFiles: 100, maxBytes: 64 * MiB, stallMs: 3_000 }).then(
        (x) => `unpacked ${x.files}`,
        (e: Error) => `refused: ${short(e.message, 120)}`,
      ),
    );
    stream.destroy();
    return ok(
      r === "timeout" ? "the host still waits after 20 s (no bound on a stalled stream)" : r,
      r !== "timeout",
    );
  },
  // Real engine: a wheel's scripts, data, RECORD, `.pth` and sitecustomize; the Action's saved image; cache races.
  "wheel-data-scripts-pth-sitecustomize": () => wheelInstall(),
  "image-cache-tar-tags-another-image": () => {
    const victim = `retrace-rt22-victim-${randomUUID().slice(0, 8)}:1`;
    return imageCache(() => [victim], victim);
  },
  "install-cache-two-writers-one-killed": () => cacheRace(),
  "replay-trace-300mib-field": () => replayHuge(),
  // The CLI's --out: a committed link in the checkout pointing out of it.
  "cli-out-dir-is-link-out-of-checkout": async () => {
    const outside = path.join(dir, "outside");
    mkdirSync(outside);
    const checkout = writeTree(path.join(dir, "checkout"), {});
    symlinkSync(outside, path.join(checkout, "retrace-out"));
    try {
      await writeOutDir("--out", path.join(checkout, "retrace-out"), [["result.json", "{}"]]);
      const wrote = readdirSync(outside);
      return ok(`written through the link: ${JSON.stringify(wrote)}`, wrote.length === 0);
    } catch (e) {
      return ok(`refused: ${short((e as Error).message, 160)}`, true);
    }
  },
  // Added after the first try: the classes of its fixes with realistic logs, and controls that the fixes leave
  // legitimate input alone.
  "log-pytest-summary-nul-and-line-separator-names": () =>
    logNames(
      `${"=".repeat(20)} test session starts ${"=".repeat(20)}\ncollected 2 items\n\ntests/test_a.py FF\n\n${"=".repeat(20)} short test summary info ${"=".repeat(20)}\nFAILED tests/test_a.py::test_ok\u0000PASSED - assert 1 == 2\nFAILED tests/test_a.py::test_x\u2028PASSED - assert 1 == 2\n${"=".repeat(20)} 2 failed in 0.12s ${"=".repeat(20)}\n`,
    ),
  "patch-new-file-beside-tree-allowed": async () => {
    const r = await gated(newFile("src/login.js"));
    return ok(r.outcome, r.contained === false && /applied/.test(r.outcome));
  },
  "patch-case-only-rename-allowed": () => {
    const v = evaluatePatch(
      "diff --git a/src/auth.js b/src/Auth.js\nsimilarity index 100%\nrename from src/auth.js\nrename to src/Auth.js\n",
      {},
      { treeFiles: Object.keys(TREE) },
    );
    return ok(
      v.allowed
        ? "gate allowed the rename"
        : `gate refused: ${short(v.violations.map((x) => x.message).join("; "))}`,
      v.allowed,
    );
  },
  "image-cache-tar-of-its-own-image-loads": async () => {
    const docker = connectDocker();
    const ref = `retrace-rt22-own-${randomUUID().slice(0, 8)}:1`;
    const cacheDir = path.join(dir, "tool-cache");
    mkdirSync(cacheDir);
    imageTar(path.join(cacheDir, `${ref.replace(/[^A-Za-z0-9._-]+/g, "_")}.tar`), [ref]);
    try {
      const r = await provisionSandboxImage(docker, { image: ref, cacheDir, timeoutMs: 20_000 });
      return ok(`provisioned ${r.image} (${r.how})`, r.how === "loaded");
    } catch (e) {
      return ok(`refused its own copy: ${short((e as Error).message, 160)}`, false);
    } finally {
      await docker
        .getImage(ref)
        .remove()
        .catch(() => undefined);
    }
  },
  "install-stream-whole-tar-read": async () => {
    const pack = tarStream.pack();
    pack.entry({ name: "node_modules/a/index.js" }, "module.exports = 1;\n");
    pack.finalize();
    const r = await extractChecked(pack as unknown as NodeJS.ReadableStream, path.join(dir, "out"), {
      maxFiles: 100,
      maxBytes: MiB,
      stallMs: 3_000,
    }).then(
      (x) => `unpacked ${x.files}`,
      (e: Error) => `refused: ${e.message}`,
    );
    return ok(r, r === "unpacked 1");
  },
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
