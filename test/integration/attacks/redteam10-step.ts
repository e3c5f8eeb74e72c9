/**
 * Host-side steps of the tenth red team's cases, run in a process of their own
 * (`tsx redteam10-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Each case builds its hostile input under `<dir>/<id>` and calls the entry its pipeline uses on it: the real
 * `retrace` CLI (repro on the real engine, parse-log, policy) for what a terminal shows, the Action runner's
 * checkout step (`ensureCheckoutAt`) on a checkout whose git configuration is hostile, the Docker driver with a
 * read-only dependency mount and with a checkout holding FIFOs, sockets and links, the runtime and Python
 * manifest readers, the report reader at its size cap, the webhook intake and tracking comment, the artifact
 * unzipper. For each case it prints one JSON line: `{ id, cpuMs, outcome, contained }` — `contained` is the
 * case's own verdict, null when only the runner's checks (marker, token, host CPU) decide.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { checkPythonDependencies } from "../../../src/fix/dependencies.ts";
import { detectToolchain } from "../../../src/fix/toolchain.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { unzip } from "../../../src/github/unzip.ts";
import { InstallCache } from "../../../src/install/cache.ts";
import { npmRegistryNodeSource } from "../../../src/install/node-runtime.ts";
import {
  readRepoFileSafely,
  readWorkflowsSafely,
  resolveRepoRuntime,
} from "../../../src/install/repo-runtime.ts";
import { ensureCheckoutAt } from "../../../src/jobs/default-runner.ts";
import { renderTrackingComment } from "../../../src/jobs/tracking-comment.ts";
import { parseEvent } from "../../../src/jobs/triggers.ts";
import { DockerSandbox } from "../../../src/sandbox/docker.ts";
import { reportRead } from "./parse-step.ts";
import { short } from "./patch-step.ts";
import { type Outcome, ok, runStepCases, writeTree } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const HERE = path.dirname(new URL(import.meta.url).pathname);
const REPO = path.resolve(HERE, "../../..");
/** What a host file outside the checkout holds; it must never reach an output. */
const HOST_TEXT = "RT10-HOST-FILE root:$6$rt10hash$abcdef:19000:0:99999:7:::\nRT10-HOST-FILE second line\n";
const HOST_MARK = "RT10-HOST-FILE";

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
}

function hostFile(): string {
  const p = path.join(dir, "host", "secret.txt");
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, HOST_TEXT, { mode: 0o600 });
  return p;
}

// ---- What a terminal is shown: control characters a terminal acts on.

/**
 * The characters of `text` a terminal acts on or a reader cannot see: ESC and every other C0 control but tab and
 * newline, DEL, the C1 controls (U+0080-U+009F: U+009B is CSI, U+009D OSC on terminals that take 8-bit
 * controls) and the bidi controls (a line shown in another order than it is written).
 */
function terminalControls(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
  ))
    found.add(`U+${m[0].charCodeAt(0).toString(16).padStart(4, "0")}`);
  return [...found];
}

/** The real CLI (`bin/retrace.mjs`, from source) with `args`; what a terminal would be shown. */
function cli(
  args: string[],
  timeoutMs = 240_000,
): { stdout: string; stderr: string; status: number | null; cpuS: number | null; killed: boolean } {
  const r = spawnSync(
    "/usr/bin/time",
    ["-f", "cpu %U %S", process.execPath, path.join(REPO, "bin/retrace.mjs"), ...args],
    {
      cwd: dir,
      env: { ...process.env, RETRACE_CLI_FROM_SOURCE: "1", ANTHROPIC_API_KEY: "", FORCE_COLOR: "0" },
      timeout: timeoutMs,
      killSignal: "SIGKILL",
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const cpu = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? "");
  const cpuS = cpu ? Number(cpu[1]) + Number(cpu[2]) : null;
  const stderr = (r.stderr ?? "").replace(/cpu [\d.]+ [\d.]+\s*$/, "");
  return {
    stdout: r.stdout ?? "",
    stderr,
    status: r.status,
    cpuS,
    killed: r.signal === "SIGKILL" || cpuS === null,
  };
}

/** A terminal view from the CLI: contained when neither stream holds a control character a terminal acts on. */
function terminalView(args: string[], timeoutMs?: number): Outcome {
  const r = cli(args, timeoutMs);
  const bad = terminalControls(r.stdout + r.stderr);
  return ok(
    `${r.killed ? "killed" : `exit ${r.status}`}, CLI CPU ${r.cpuS ?? "?"} s; controls shown: ${JSON.stringify(bad)}; ${short(
      JSON.stringify((r.stdout + r.stderr).slice(-400)),
      220,
    )}`,
    !r.killed && bad.length === 0,
  );
}

const jsReport = (code: string, actual: string) =>
  `### Bug\n\nIt prints the wrong thing.\n\n\`\`\`js\n${code}\n\`\`\`\n\nActual output:\n\n\`\`\`\n${actual}\n\`\`\`\n\nExpected output:\n\n\`\`\`\nok\n\`\`\`\n`;

/** `retrace repro <report> --offline --runs 1` as a person runs it (no --json): what the terminal shows. */
function reproHuman(body: string): Outcome {
  const file = path.join(dir, "report.md");
  writeFileSync(file, body);
  return terminalView(["repro", file, "--offline", "--runs", "1"]);
}

function parseLogHuman(text: string): Outcome {
  const file = path.join(dir, "ci.log");
  writeFileSync(file, text);
  return terminalView(["parse-log", file], 60_000);
}

// ---- Git on the host: the Action runner's move of its checkout to the failed commit (`ensureCheckoutAt`).

/** A checkout with one commit, and a host repository outside it whose last commit is the one asked for. */
function checkoutAndHostRepo(): { c: string; h: string; sha: string } {
  const c = path.join(dir, "checkout");
  mkdirSync(c, { recursive: true });
  git(c, "init", "-q");
  writeFileSync(path.join(c, "a.txt"), "a\n");
  git(c, "add", "a.txt");
  git(c, "commit", "-q", "-m", "first");
  const h = path.join(dir, "hostrepo");
  mkdirSync(h, { recursive: true });
  git(h, "init", "-q");
  writeFileSync(path.join(h, "secret.txt"), HOST_TEXT);
  git(h, "add", "secret.txt");
  git(h, "commit", "-q", "-m", "host");
  return { c, h, sha: git(h, "rev-parse", "HEAD").trim() };
}

/** A TCP service on loopback counting the connections that reach it (a host service nothing should touch). */
async function hostService(): Promise<{ port: number; hits: () => number; close: () => void }> {
  let hits = 0;
  const server = net.createServer((s) => {
    hits++;
    s.on("error", () => {});
    s.end("HTTP/1.1 200 OK\r\ncontent-length: 12\r\nconnection: close\r\n\r\nHOST-SERVICE");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as AddressInfo).port, hits: () => hits, close: () => server.close() };
}

async function checkoutAt(c: string, sha: string): Promise<string> {
  return ensureCheckoutAt(c, sha).then(
    () => `checked out ${sha.slice(0, 12)}`,
    (e: Error) => `refused/failed: ${e.message}`,
  );
}

/** The checkout's origin set to what `origin(h, port)` says (and `extra` config), then moved to a commit. */
async function gitFetchCase(
  origin: (hostRepo: string, port: number) => string,
  extra: (port: number) => [string, string][] = () => [],
  sha?: string,
): Promise<Outcome> {
  const { c, h, sha: hostSha } = checkoutAndHostRepo();
  const service = await hostService();
  try {
    git(c, "remote", "add", "origin", origin(h, service.port));
    for (const [k, v] of extra(service.port)) git(c, "config", k, v);
    const answer = await checkoutAt(c, sha ?? hostSha);
    const inTree = existsSync(path.join(c, "secret.txt"));
    const hasObject = spawnSync("git", ["cat-file", "-e", `${hostSha}^{commit}`], { cwd: c }).status === 0;
    return ok(
      `${short(answer, 160)}; host service reached ${service.hits()} times; host file in the checkout: ${inTree}; host commit's objects fetched: ${hasObject}`,
      service.hits() === 0 && !inTree && !hasObject && !answer.includes(HOST_MARK),
    );
  } finally {
    service.close();
  }
}

// ---- The Docker driver: a read-only dependency mount, a checkout with special files.

const sandbox = () => new DockerSandbox({ mountExtraDirs: true });
const tail = (s: string) => short(s.slice(-300), 160);

/** A checked cache entry (as repo-deps commits one): node_modules/a/index.js, and what `extra` adds. */
async function cacheEntry(
  extra?: (tmp: string) => void,
): Promise<{ dir: string; file: string; digest: string }> {
  const cache = new InstallCache({ root: path.join(dir, "cache") });
  const key = createHash("sha256").update(dir).digest("hex").slice(0, 32);
  const tmp = await cache.tempDir("repo-deps", key);
  mkdirSync(path.join(tmp, "node_modules", "a"), { recursive: true });
  writeFileSync(path.join(tmp, "node_modules", "a", "index.js"), "module.exports = 1;\n");
  writeFileSync(path.join(tmp, "node_modules", "a", "package.json"), '{"name":"a","version":"1.0.0"}\n');
  extra?.(tmp);
  const { dir: entry } = await cache.commit("repo-deps", key, tmp, { paths: ["node_modules"] });
  const file = path.join(entry, "node_modules", "a", "index.js");
  return { dir: entry, file, digest: readFileSync(file, "utf8") };
}

/** Whether the entry still verifies (its digest) and its file is what it was. */
async function entryIntact(entry: { dir: string; file: string; digest: string }): Promise<boolean> {
  const cache = new InstallCache({ root: path.join(dir, "cache") });
  const hit = await cache.lookup("repo-deps", path.basename(entry.dir));
  return hit !== null && existsSync(entry.file) && readFileSync(entry.file, "utf8") === entry.digest;
}

async function depsRun(script: string, extra?: (tmp: string) => void, repeat = 1): Promise<Outcome> {
  const entry = await cacheEntry(extra);
  const ws = path.join(dir, "ws");
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(ws, "t.js"), "console.log(require('a'))\n");
  const s = sandbox();
  const outs: string[] = [];
  for (let i = 0; i < repeat; i++) {
    const r = await s.run({
      jobId: `rt10-${path.basename(dir)}`.slice(0, 60),
      command: ["sh", "-c", script],
      input: { dir: ws, extraDirs: [{ hostDir: entry.dir, paths: ["node_modules"], mountable: true }] },
      limits: { timeoutMs: 60_000 },
    });
    outs.push(`run ${i + 1}: exit ${r.exitCode}: ${tail(r.stdout + r.stderr)}`);
  }
  const intact = await entryIntact(entry);
  const hostNow = existsSync(entry.file) ? readFileSync(entry.file, "utf8") : "(gone)";
  return ok(
    `${outs.join(" | ")}; cache entry intact: ${intact}; host file: ${JSON.stringify(hostNow.slice(0, 40))}`,
    intact,
  );
}

/** A checkout holding `make(ws)`'s special files, packed for a run: contained when the run comes back with no host text. */
async function checkoutRun(make: (ws: string) => void | Promise<void>, script: string): Promise<Outcome> {
  const ws = path.join(dir, "ws");
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(ws, "a.txt"), "a\n");
  await make(ws);
  const t = Date.now();
  const r = await sandbox()
    .run({
      jobId: `rt10-${path.basename(dir)}`.slice(0, 60),
      command: ["sh", "-c", script],
      input: { dir: ws },
      limits: { timeoutMs: 60_000 },
    })
    .then(
      (x) => `exit ${x.exitCode}${x.stoppedBy ? ` (${x.stoppedBy})` : ""}: ${x.stdout}${x.stderr}`,
      (e: Error) => `refused/failed: ${e.message}`,
    );
  const ms = Date.now() - t;
  return ok(`${short(r, 220)} (${ms} ms)`, !r.includes(HOST_MARK) && !r.includes("rt10hash") && ms < 90_000);
}

// ---- Runtime files.

function toolchainOf(repo: string): string {
  return JSON.stringify(detectToolchain((rel) => readRepoFileSafely(repo, rel), readWorkflowsSafely(repo)));
}

const repoWith = (files: Record<string, string>): string => writeTree(path.join(dir, "repo"), files);

/** The runtime step as `retrace verify` runs it on the real engine; its error as the CLI would print it. */
async function runtimeError(repo: string): Promise<string> {
  const s = sandbox();
  // A registry that is not there: the list of Node releases cannot be had (no network reaches out of here).
  process.env.npm_config_registry = "http://127.0.0.1:9/";
  return resolveRepoRuntime({
    docker: s.docker,
    repoDir: repo,
    baseImage: s.image,
    node: npmRegistryNodeSource(path.join(dir, "runtimes"), 20_000),
  }).then(
    (r) => `runtime: ${r.described.join(", ")}`,
    (e: Error & { hint?: string }) => `error: ${e.message} (${e.hint ?? ""})`,
  );
}

// ---- Python manifests, read through the workspace port.

async function pythonDeps(
  files: Record<string, string>,
  links: Record<string, string> = {},
): Promise<Outcome> {
  const r = repoWith(files);
  for (const [name, target] of Object.entries(links)) symlinkSync(target, path.join(r, name));
  const deps = await checkPythonDependencies(await createFsWorkspace(r), "pytest").then(
    (d) => JSON.stringify(d),
    (e: Error) => `threw ${e.message}`,
  );
  return ok(short(deps, 260), !deps.includes(HOST_MARK) && !deps.includes("rt10hash"));
}

// ---- Reports at the size cap (65,536 characters): `reportRead` from parse-step.ts.

// ---- The webhook intake and the tracking comment (GitHub markdown).

/** What markdown outside code spans holds: the rendered comment with every code span removed. */
function outsideCodeSpans(md: string): string {
  let out = "";
  let i = 0;
  while (i < md.length) {
    if (md[i] !== "`") {
      out += md[i++];
      continue;
    }
    let n = 0;
    while (md[i + n] === "`") n++;
    const fence = "`".repeat(n);
    let j = md.indexOf(fence, i + n);
    // A closing run must be exactly n backticks long.
    while (j !== -1 && (md[j + n] === "`" || md[j - 1] === "`")) j = md.indexOf(fence, j + 1);
    if (j === -1) {
      out += fence;
      i += n;
    } else i = j + n;
  }
  return out;
}

function checkRunComment(name: string, branch: string): Outcome {
  const payload = {
    action: "completed",
    repository: { full_name: "rt10/repo", default_branch: "main" },
    sender: { login: "dev", type: "User" },
    check_run: {
      id: 7,
      name,
      conclusion: "failure",
      head_sha: "a".repeat(40),
      app: { slug: "github-actions" },
      check_suite: { head_branch: branch },
      pull_requests: [],
    },
  };
  const d = parseEvent("check_run", payload, { kind: "action" });
  if (!d.accept) return ok(`refused: ${d.reason}`, true);
  const md = renderTrackingComment({ id: "job-1", kind: "fix", trigger: d.trigger }, { phase: "queued" });
  const outside = outsideCodeSpans(md);
  const row = md.split("\n").find((l) => l.startsWith("| `job-1`")) ?? "";
  const cells = row.split(/(?<!\\)\|/).length - 2;
  const leaked = ["@rt10-org", "![", "<img", "](http"].filter((s) => outside.includes(s));
  return ok(
    `outside code: ${JSON.stringify(leaked)}; table row cells ${cells}; ${short(JSON.stringify(row), 160)}`,
    leaked.length === 0 && cells === 2,
  );
}

// ---- The App's artifact unzipper.

function zipOf(
  entries: { name: string; data: Buffer; method?: 0 | 8; declared?: number; localAt?: number }[],
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const offsets: number[] = [];
  for (const e of entries) {
    const body = e.method === 0 ? e.data : deflateRawSync(e.data);
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(e.method ?? 8, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.declared ?? e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    offsets.push(offset);
    locals.push(local, name, body);
    offset += 30 + name.length + body.length;
  }
  entries.forEach((e, i) => {
    const body = e.method === 0 ? e.data : deflateRawSync(e.data);
    const name = Buffer.from(e.name);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(e.method ?? 8, 10);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(e.declared ?? e.data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(e.localAt ?? offsets[i]!, 42);
    centrals.push(c, name);
  });
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

function unzipCase(zip: Buffer): Outcome {
  try {
    const files = unzip(zip);
    let bytes = 0;
    for (const f of files.values()) bytes += f.length;
    return ok(
      `read ${files.size} files, ${bytes} bytes; names ${short(JSON.stringify([...files.keys()].slice(0, 3)), 80)}`,
      bytes <= 20 * 1024 * 1024,
    );
  } catch (e) {
    return ok(`refused: ${short((e as Error).message, 140)}`, true);
  }
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // ---- Terminal escapes in what `retrace repro` prints (the run's output, its exception).
  "run-stdout-osc52-clipboard": () =>
    reproHuman(
      jsReport(
        `process.stdout.write("\\x1b]52;c;cm0gLXJmIH4K\\x07");\nthrow new Error("boom")`,
        "Error: boom",
      ),
    ),
  "run-stderr-clear-screen-forged-verdict": () =>
    reproHuman(
      jsReport(
        `process.stderr.write("\\x1b[2J\\x1b[H### \\u2705 Reproduced\\n");\nthrow new Error("boom")`,
        "Error: boom",
      ),
    ),
  "run-exception-message-title": () =>
    reproHuman(jsReport(`throw new Error("\\x1b]0;rt10-title\\x07boom")`, "Error: boom")),
  "run-stdout-c1-controls": () =>
    reproHuman(
      jsReport(
        `process.stdout.write("\\u009b2J\\u009d0;rt10\\u0007 \\u0085x\\n");\nthrow new Error("boom")`,
        "Error: boom",
      ),
    ),
  "run-stdout-bidi-override": () =>
    reproHuman(
      jsReport(
        `console.log("all tests \\u202edeliaf\\u202c passed");\nthrow new Error("boom")`,
        "Error: boom",
      ),
    ),
  // ---- Terminal escapes in what `retrace parse-log` prints (test names and messages of a CI log).
  "log-junit-char-ref-escape": () =>
    parseLogHuman(
      `<?xml version="1.0"?>\n<testsuites><testsuite name="s" tests="1" failures="1"><testcase classname="pkg" name="t&#x1b;]0;rt10&#x7;"><failure message="m&#x1b;[8mhidden">boom</failure></testcase></testsuite></testsuites>\n`,
    ),
  "log-jest-bidi-test-name": () =>
    parseLogHuman(
      ` FAIL  src/a.test.js\n  ● suite › it \u202eseod\u202c work\n\n    expect(received).toBe(expected)\n\nTests:       1 failed, 1 total\n`,
    ),
  "log-pytest-backspace-test-name": () =>
    parseLogHuman(
      `============================= test session starts ==============================\nFAILED tests/test_a.py::test_x\b\b\b\b\b\b ok - AssertionError: boom\n========================= 1 failed in 0.10s =========================\n`,
    ),
  "policy-patch-path-escape": () => {
    const p = path.join(dir, "p.diff");
    const name = "src/\u001b]0;rt10\u0007\u202eevil.js";
    writeFileSync(
      p,
      `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n-a\n+eval(process.env.X) // eslint-disable-line\n`,
    );
    return terminalView(["policy", p], 60_000);
  },
  "config-key-escape-in-error": () => {
    const c = path.join(dir, "retrace.yml");
    writeFileSync(c, `"\\e]0;rt10\\a\\e[2J": 1\nfix:\n  "\\e[8mhidden": 2\n`);
    const p = path.join(dir, "p.diff");
    writeFileSync(p, "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    return terminalView(["policy", p, "--config", c], 60_000);
  },
  // ---- Git on the host: a checkout whose origin or transport settings point at the host.
  "git-origin-host-path": () => gitFetchCase((h) => h),
  "git-origin-file-url": () => gitFetchCase((h) => `file://${h}`),
  "git-http-proxy-loopback": () =>
    gitFetchCase(
      () => "https://rt10.example.invalid/o/r.git",
      (port) => [["http.proxy", `http://127.0.0.1:${port}`]],
      "b".repeat(40),
    ),
  "git-remote-proxy-loopback": () =>
    gitFetchCase(
      () => "https://rt10.example.invalid/o/r.git",
      (port) => [["remote.origin.proxy", `http://127.0.0.1:${port}`]],
      "b".repeat(40),
    ),
  "git-curlopt-resolve-loopback": () =>
    gitFetchCase(
      (_h, port) => `https://rt10.example.invalid:${port}/o/r.git`,
      (port) => [["http.curloptResolve", `rt10.example.invalid:${port}:127.0.0.1`]],
      "b".repeat(40),
    ),
  "git-origin-https-loopback": () =>
    gitFetchCase(
      (_h, port) => `https://127.0.0.1:${port}/o/r.git`,
      () => [],
      "b".repeat(40),
    ),
  "git-origin-ssh-loopback": () =>
    gitFetchCase(
      (_h, port) => `ssh://git@127.0.0.1:${port}/o/r.git`,
      () => [],
      "b".repeat(40),
    ),
  // ---- The read-only dependency mount and its copy fallback.
  "deps-mount-write-through-links": () =>
    depsRun(
      "echo PWNED > node_modules/a/index.js; echo PWNED > /deps/0/node_modules/a/index.js; chmod 777 node_modules/a/index.js; node t.js",
    ),
  "deps-erofs-then-copy-writes": () =>
    // Its first run meets the mount (EROFS) and is made again on a copy: that copy must not be the cache.
    depsRun(
      "echo PWNED > node_modules/a/index.js 2>&1; cat node_modules/a/index.js; ls -la /deps 2>&1 | head -3",
      undefined,
      2,
    ),
  "deps-entry-name-newline": () =>
    depsRun("ls node_modules; node t.js", (tmp) => {
      mkdirSync(path.join(tmp, "node_modules", "b\nc"), { recursive: true });
      writeFileSync(path.join(tmp, "node_modules", "b\nc", "index.js"), "x\n");
    }),
  // ---- A checkout holding special files, packed by the host's tar.
  "checkout-fifo": () =>
    checkoutRun((ws) => void execFileSync("mkfifo", [path.join(ws, "pipe")]), "ls -la; echo done"),
  "checkout-hardlink-host-file": () =>
    checkoutRun((ws) => linkSync(hostFile(), path.join(ws, "notes.txt")), "cat notes.txt; echo done"),
  "checkout-link-to-proc-environ": () =>
    checkoutRun(
      (ws) => symlinkSync("/proc/self/environ", path.join(ws, "env.txt")),
      "cat env.txt | tr '\\0' '\\n' | head -5; echo done",
    ),
  // ---- Runtime files (.nvmrc, .tool-versions, package.json, workflows).
  "nvmrc-fifo": () => {
    const r = repoWith({});
    execFileSync("mkfifo", [path.join(r, ".nvmrc")]);
    return ok(short(toolchainOf(r), 200));
  },
  "tool-versions-link-proc-environ": () => {
    const r = repoWith({});
    symlinkSync("/proc/self/environ", path.join(r, ".tool-versions"));
    symlinkSync(hostFile(), path.join(r, ".python-version"));
    const t = toolchainOf(r);
    return ok(short(t, 200), !t.includes("GITHUB_TOKEN") && !t.includes(HOST_MARK));
  },
  "nvmrc-escapes-in-runtime-error": async () => {
    const r = repoWith({ ".nvmrc": "\u001b]52;c;cm0gLXJmIH4K\u0007\u001b[2J lts/rt10\n" });
    const e = await runtimeError(r);
    const bad = terminalControls(e);
    return ok(`${short(JSON.stringify(e), 200)}; controls: ${JSON.stringify(bad)}`, bad.length === 0);
  },
  "engines-node-200k-range": () => {
    const engines = Array.from({ length: 15_000 }, (_, i) => `>=${i}.0.0`).join(" || ");
    const r = repoWith({ "package.json": JSON.stringify({ name: "x", engines: { node: engines } }) });
    return ok(short(toolchainOf(r), 160));
  },
  "workflows-50-files-node-version-items": () => {
    const line = `      node-version: [${Array.from({ length: 60_000 }, (_, i) => `${i % 40}`).join(",")}]\n`;
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++)
      files[`.github/workflows/w${i}.yml`] = line.repeat(Math.floor(250_000 / line.length) || 1);
    const r = repoWith(files);
    return ok(short(toolchainOf(r), 160));
  },
  // ---- Python manifests: includes and file directives that point outside the checkout.
  "tox-include-outside-checkout": () => {
    hostFile();
    return pythonDeps({
      "tox.ini":
        "[testenv]\ndeps =\n  -r{toxinidir}/../host/secret.txt\n  -r requirements/../../host/secret.txt\n  -r /etc/hostname\n  pytest\n",
    });
  },
  "requirements-include-cycle-and-outside": () => {
    hostFile();
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++)
      files[`requirements/test-${i}.txt`] =
        `-r test-${(i + 1) % 60}.txt\n-r ../../host/secret.txt\npkg${i}==1.0\n`;
    files["requirements-test.txt"] = "-r requirements/test-0.txt\n";
    return pythonDeps(files);
  },
  "setup-cfg-file-directive-outside": () => {
    hostFile();
    return pythonDeps({
      "setup.cfg":
        "[options]\ninstall_requires = file: ../host/secret.txt\n[options.extras_require]\ntest = file: /etc/hostname\n",
    });
  },
  "pyproject-dynamic-dependencies-file": () => {
    hostFile();
    return pythonDeps({
      "pyproject.toml":
        '[project]\nname = "p"\ndynamic = ["dependencies", "optional-dependencies"]\n[tool.setuptools.dynamic]\ndependencies = {file = ["../host/secret.txt"]}\noptional-dependencies.test = {file = ["/etc/hostname"]}\n',
    });
  },
  "requirements-linked-to-host-file": () =>
    pythonDeps({ "pyproject.toml": '[project]\nname = "p"\n' }, { "requirements-test.txt": hostFile() }),
  // ---- Reports at the cap: invisible characters, HTML the sanitizer reads.
  "report-bidi-zero-width-65k": () =>
    reportRead(`### Bug\n\n\`\`\`js\n${"\u202e\u200b\u2066a".repeat(16_000)}\n\`\`\`\n`),
  "report-html-comment-openers": () => reportRead(`### Bug\n\n${"<!--".repeat(16_300)}`),
  "report-img-alt-unclosed": () => reportRead(`### Bug\n\n${'<img alt="'.repeat(6_500)}`),
  "report-details-nesting": () => reportRead(`### Bug\n\n${"<details><summary>".repeat(3_600)}`),
  // ---- The webhook intake and the tracking comment: check-run and branch names.
  "comment-check-name-breaks-code-span": () =>
    checkRunComment("build ` @rt10-org/rt10-team ![p](http://127.0.0.1:9/p.png) `", "main"),
  "comment-branch-name-breaks-table": () => checkRunComment("test", "feat`|@rt10-org|<img src=x>`"),
  // ---- The App's artifact unzipper.
  "unzip-overlapping-entries": () => {
    const big = Buffer.alloc(190 * 1024, 0x61);
    const z = zipOf(Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, data: big, localAt: 0 })));
    return unzipCase(z);
  },
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
