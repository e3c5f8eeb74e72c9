/**
 * The sixth red team: hostile inputs against Retrace's host side (issue 14) of classes the earlier waves did not
 * try, listed with their class, entry and what "contained or refused" means in redteam6-cases.json. Each case
 * runs on the real code through its real entry:
 *
 * - `policy`: `retrace policy` (the deterministic gate every patch passes) on a patch naming a hostile path;
 * - `config`: `retrace policy --config` reading a hostile configuration file (the loader the CLI and App use);
 * - `tarball`: `unpackTarball`, the App's checkout of the repository archive GitHub serves;
 * - `unzip`: `unzip`, the App's read of a dispatched run's result artifact (runner output is untrusted);
 * - `lookup`: the host's registry look-up (`createRegistryLookup`) against a registry on loopback;
 * - `echo-*`: `retrace parse-log`, `verify` and `repro` as an Actions step runs them: no line of their output may
 *   start with `::` (the Actions runner executes such a line as a workflow command: annotations, masks,
 *   `stop-commands`).
 *
 * - `lockfile`: `lockfilePins`, the host step that reads a pnpm lockfile's pins before the install container.
 *
 * No case may write the marker file outside Retrace's directories. Servers listen on 127.0.0.1 only.
 *
 * First try (at f494f1c, before any fix): 12/36 contained, 24 got through in 6 classes; the 4 cases `added`
 * after it (pnpm lockfile parse cost), run at f494f1c too: 2/4 (redteam6-results.md).
 * After the fixes: 40/40 contained.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateRawSync, gzipSync } from "node:zlib";
import semver from "semver";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dockerAvailable } from "../../support/docker.ts";
import { ArchiveError, unzip } from "../../../src/github/unzip.ts";
import { TarballError, unpackTarball } from "../../../src/github/tarball.ts";
import { lockfilePins } from "../../../src/install/foreign-lockfile.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";

interface Case {
  id: string;
  class: string;
  entry: string;
  input: string;
  contained: string;
  // biome-ignore lint/suspicious/noExplicitAny: each kind reads its own parameters.
  run: Record<string, any> & { kind: string };
}

const CASES = JSON.parse(readFileSync(new URL("./redteam6-cases.json", import.meta.url), "utf8")) as Case[];
const ROOT = path.resolve(".");
const BIN = path.join(ROOT, "bin/retrace.mjs");
const WORK = mkdtempSync(path.join(tmpdir(), "retrace-rt6-"));
/** Outside every directory Retrace uses: no hostile input may make anything write it. */
const MARKER = path.join(tmpdir(), `retrace-rt6-marker-${process.pid}`);
const CACHE = path.join(WORK, "cache");

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  killed: boolean;
}

const CAP = 8 * 1024 * 1024;

function retrace(args: string[], options: { env?: Record<string, string>; timeoutMs: number }): Promise<Ran> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...BASE_ENV, ...options.env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      if (stdout.length < CAP) stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      if (stderr.length < CAP) stderr += c.toString();
    });
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    }, options.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - t0, killed });
    });
  });
}

const BASE_ENV: Record<string, string> = {
  RETRACE_CACHE_DIR: CACHE,
  npm_config_registry: "http://127.0.0.1:9/",
  PIP_INDEX_URL: "http://127.0.0.1:9/simple",
  RETRACE_HOST_LIMITS: "",
  ANTHROPIC_API_KEY: "",
  GITHUB_ACTIONS: "true",
};

interface Verdict {
  contained: boolean;
  detail: string;
}

const results: Array<{ id: string; class: string; contained: boolean; detail: string }> = [];

/** A line the Actions runner would run as a workflow command (it trims leading white space first). */
const WORKFLOW_COMMAND = /^[ \t]*::[A-Za-z-]+/m;

function commandLine(text: string): string | null {
  const m = WORKFLOW_COMMAND.exec(text);
  if (!m) return null;
  const start = text.lastIndexOf("\n", m.index) + 1;
  const end = text.indexOf("\n", m.index);
  return text.slice(start, end < 0 ? undefined : end).slice(0, 120);
}

function commonProblems(r: Ran, c: Case): string[] {
  const problems: string[] = [];
  if (r.killed) problems.push(`killed after ${Math.round(r.ms)} ms`);
  if (/unexpected error|Maximum call stack|heap out of memory|FATAL ERROR/.test(r.stdout + r.stderr))
    problems.push(
      `crashed or overflowed: ${(r.stdout + r.stderr).match(/.*(unexpected error|Maximum call stack|heap out of memory|FATAL ERROR).*/)?.[0]?.slice(0, 200)}`,
    );
  if (c.run.code && !c.run.code.includes(r.code))
    problems.push(
      `exit ${r.code} (${(r.stderr || r.stdout).trim().split("\n").slice(0, 2).join(" ").slice(0, 200)})`,
    );
  if (c.run.maxMs && r.ms > c.run.maxMs) problems.push(`${Math.round(r.ms)} ms`);
  if (c.run.noCommands) {
    const line = commandLine(r.stdout) ?? commandLine(r.stderr);
    if (line !== null) problems.push(`a workflow command reached the output: ${JSON.stringify(line)}`);
  }
  return problems;
}

// ---------- policy ----------

function creation(name: string): string {
  return `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1 @@\n+[submodule "x"]\n`;
}

async function policyCase(c: Case): Promise<Verdict> {
  let patch: string;
  if (c.run.quoted) {
    const inner = String(c.run.quoted).slice(1, -1);
    patch = `diff --git "a/${inner}" "b/${inner}"\nnew file mode 100644\n--- /dev/null\n+++ "b/${inner}"\n@@ -0,0 +1 @@\n+x\n`;
  } else if (c.run.rename) {
    patch = `diff --git a/${c.run.rename} b/${c.run.path}\nsimilarity index 100%\nrename from ${c.run.rename}\nrename to ${c.run.path}\n`;
  } else {
    patch = creation(c.run.path) + (c.run.also ? creation(c.run.also) : "");
  }
  const file = path.join(WORK, `${c.id}.diff`);
  writeFileSync(file, patch);
  const r = await retrace(["policy", file], { timeoutMs: 60_000 });
  const problems = commonProblems(r, c);
  if (c.run.stdout && !new RegExp(c.run.stdout).test(r.stdout))
    problems.push(`stdout does not say ${c.run.stdout}: ${r.stdout.trim().slice(0, 200)}`);
  return {
    contained: problems.length === 0,
    detail: problems.join("; ") || `exit ${r.code}: ${r.stdout.trim().split("\n")[0]?.slice(0, 160)}`,
  };
}

// ---------- config ----------

function configText(gen: string): string {
  switch (gen) {
    case "flow-deep":
      return `policy: ${"[".repeat(60_000)}\n`;
    case "map-deep":
      return `policy: ${"{a: ".repeat(15_000)}\n`;
    case "laughs": {
      const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
      for (let i = 1; i < 10; i++)
        lines.push(
          `a${i}: &a${i} [${Array(10)
            .fill(`*a${i - 1}`)
            .join(", ")}]`,
        );
      return `${lines.join("\n")}\n`;
    }
    case "command-key":
      return `"x\\n::error title=Retrace::VERIFIED by the maintainers": 1\n`;
  }
  throw new Error(gen);
}

async function configCase(c: Case): Promise<Verdict> {
  const dir = mkdtempSync(path.join(WORK, "config-"));
  const file = path.join(dir, "retrace.yml");
  writeFileSync(file, configText(c.run.text.gen));
  const patch = path.join(dir, "p.diff");
  writeFileSync(patch, creation("src/a.txt"));
  const r = await retrace(["policy", "--config", file, patch], { timeoutMs: c.run.maxMs + 10_000 });
  const problems = commonProblems(r, c);
  if (c.run.stderr && !new RegExp(c.run.stderr, "i").test(r.stderr))
    problems.push(`stderr does not say ${c.run.stderr}: ${r.stderr.trim().slice(0, 200)}`);
  return {
    contained: problems.length === 0,
    detail: problems.join("; ") || `exit ${r.code}: ${r.stderr.trim().split("\n")[0]?.slice(0, 160)}`,
  };
}

// ---------- tarball (the App's checkout) ----------

async function tarballCase(c: Case): Promise<Verdict> {
  const dir = mkdtempSync(path.join(WORK, "tarball-"));
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (b: unknown) => chunks.push(b as Buffer));
  const done = new Promise<void>((ok) => pack.on("end", ok));
  for (const e of c.run.entries as Array<{ name: string; body: string; pax?: Record<string, string> }>) {
    const body = e.body.replaceAll("MARKER", MARKER);
    const pax = e.pax
      ? Object.fromEntries(
          Object.entries(e.pax).map(([k, v]) => [
            k,
            v.replace(/(\.\.\/)+MARKER$/, path.relative(path.join(dir, "x"), MARKER)),
          ]),
        )
      : undefined;
    pack.entry({ name: e.name, size: Buffer.byteLength(body), mode: 0o755, ...(pax ? { pax } : {}) }, body);
  }
  pack.finalize();
  await done;
  const archive = gzipSync(Buffer.concat(chunks));
  const problems: string[] = [];
  let detail = "";
  try {
    const report = await unpackTarball(archive, dir);
    problems.push(
      `unpacked (${report.files} files): ${execFileSync("find", [dir], { encoding: "utf8" }).replaceAll(dir, "").trim().split("\n").join(" ").slice(0, 200)}`,
    );
  } catch (error) {
    detail = `${(error as Error).name}: ${(error as Error).message}`.slice(0, 200);
    if (!(error instanceof TarballError)) problems.push(`not a TarballError: ${detail}`);
    else if (!new RegExp(c.run.error, "i").test((error as Error).message))
      problems.push(`the error does not say ${c.run.error}: ${detail}`);
  }
  return { contained: problems.length === 0, detail: problems.join("; ") || detail };
}

// ---------- unzip (the App's read of a runner's artifact) ----------

function zip(
  entries: Array<{ name: string; method: number; data: Buffer; size: number; local?: number }>,
  count?: number,
): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const l = Buffer.alloc(30);
    l.writeUInt32LE(0x04034b50, 0);
    l.writeUInt16LE(20, 4);
    l.writeUInt16LE(e.method, 8);
    l.writeUInt32LE(e.data.length, 18);
    l.writeUInt32LE(e.size, 22);
    l.writeUInt16LE(name.length, 26);
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(e.method, 10);
    h.writeUInt32LE(e.data.length, 20);
    h.writeUInt32LE(e.size, 24);
    h.writeUInt16LE(name.length, 28);
    h.writeUInt32LE(e.local ?? offset, 42);
    locals.push(l, name, e.data);
    central.push(h, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count ?? entries.length, 8);
  end.writeUInt16LE(count ?? entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

async function unzipCase(c: Case): Promise<Verdict> {
  let archive: Buffer;
  switch (c.run.shape) {
    case "bomb":
      archive = zip([
        { name: "result.json", method: 8, data: deflateRawSync(Buffer.alloc(50 << 20, 0x20)), size: 16 },
      ]);
      break;
    case "corrupt":
      archive = zip([{ name: "result.json", method: 8, data: randomBytes(4096), size: 100 }]);
      break;
    case "count":
      archive = zip([], 65_535);
      break;
    default:
      archive = zip([
        { name: "result.json", method: 0, data: Buffer.from("{}"), size: 2, local: 0xffffff00 },
      ]);
  }
  const problems: string[] = [];
  let detail = "";
  try {
    const files = unzip(archive);
    problems.push(`read ${files.size} file(s) without complaint`);
  } catch (error) {
    detail = `${(error as Error).name}: ${(error as Error).message}`.slice(0, 200);
    if (!(error instanceof ArchiveError)) problems.push(`not an ArchiveError: ${detail}`);
    else if (!new RegExp(c.run.error).test((error as Error).message))
      problems.push(`the error does not say ${c.run.error}: ${detail}`);
  }
  return { contained: problems.length === 0, detail: problems.join("; ") || detail };
}

// ---------- registry look-up ----------

let gzipBomb: Buffer | null = null;

function registryServer(c: Case): Promise<Server> {
  const server = createServer((_req, res) => {
    switch (c.run.shape) {
      case "latest":
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            name: "x",
            "dist-tags": { latest: c.run.latest },
            versions: { [c.run.latest]: {} },
          }),
        );
        return;
      case "engines": {
        const range = Array.from({ length: 250 }, (_, j) => `>=99.0.${j}`).join(" || ");
        const versions: Record<string, unknown> = { "1.0.0": { engines: { node: ">=99" } } };
        for (let i = 0; i < 5000; i++) versions[`0.${i}.0`] = { engines: { node: range } };
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ name: "x", "dist-tags": { latest: "1.0.0" }, versions }));
        return;
      }
      case "gzip":
        res.setHeader("content-type", "application/json");
        res.setHeader("content-encoding", "gzip");
        res.end(gzipBomb);
        return;
      case "drip": {
        res.setHeader("content-type", "application/json");
        res.write("{");
        const t = setInterval(() => res.write(" "), 100);
        res.on("close", () => clearInterval(t));
        return;
      }
      case "redirect-file":
        res.statusCode = 302;
        res.setHeader("location", "file:///etc/passwd");
        res.end();
        return;
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

async function lookupCase(c: Case): Promise<Verdict> {
  if (c.run.shape === "gzip" && !gzipBomb) gzipBomb = gzipSync(Buffer.alloc(256 << 20, 0x20), { level: 9 });
  const server = await registryServer(c);
  const port = (server.address() as AddressInfo).port;
  const lookup = createRegistryLookup({
    cacheDir: null,
    registryConfig: {
      npm: `http://127.0.0.1:${port}/`,
      pip: { indexUrl: `http://127.0.0.1:${port}/simple`, extraIndexUrls: [], findLinks: [] },
      caFile: null,
    },
  });
  const t0 = performance.now();
  const problems: string[] = [];
  let answer: string | null = null;
  try {
    answer = await lookup.latestVersion(
      "npm",
      "x",
      c.run.shape === "engines" ? { node: "20.0.0" } : undefined,
    );
  } catch (error) {
    problems.push(`threw ${(error as Error).message.slice(0, 160)}`);
  }
  const ms = performance.now() - t0;
  server.closeAllConnections();
  server.close();
  if (answer !== null && semver.valid(answer) !== answer)
    problems.push(`answered ${JSON.stringify(answer)}, not an exact version`);
  if (ms > c.run.maxMs) problems.push(`${Math.round(ms)} ms`);
  return {
    contained: problems.length === 0,
    detail: problems.join("; ") || `answered ${JSON.stringify(answer)} in ${Math.round(ms)} ms`,
  };
}

// ---------- foreign lockfiles (the host reads pnpm's pins before the install container runs) ----------

const ROOT_IMPORTER =
  "importers:\n  .:\n    dependencies:\n      ms:\n        specifier: ^2.1.0\n        version: 2.1.3\n";

function pnpmLock(c: Case): string {
  const entry = (i: number) =>
    `  p${i}@1.0.0:\n    resolution: {integrity: sha512-${"A".repeat(86)}==}\n    engines: {node: '>=8'}\n`;
  const packages = (bytes: number) => {
    const parts = ["packages:\n"];
    for (let i = 0, n = 0; n < bytes; i++) {
      const e = entry(i);
      parts.push(e);
      n += e.length;
    }
    return parts.join("");
  };
  switch (c.run.shape) {
    case "packages":
      return `lockfileVersion: '9.0'\n${ROOT_IMPORTER}${packages(c.run.mb << 20)}`;
    case "importer": {
      const deps = Array.from(
        { length: 30_000 },
        (_, i) => `      d${i}:\n        specifier: ^1.0.0\n        version: 1.0.${i}${"0".repeat(80)}\n`,
      );
      return `lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n${deps.join("")}`;
    }
    case "deep":
      return `lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies: ${"[".repeat(60_000)}\n`;
    default:
      return `lockfileVersion: '9.0'\nimporters:\n  packages/a:\n    dependencies:\n      ms:\n        specifier: ^1.0.0\n        version: 1.0.0\n${ROOT_IMPORTER.slice("importers:\n".length)}  packages/b:\n    dependencies: {}\n${packages(4096)}`;
  }
}

async function lockfileCase(c: Case): Promise<Verdict> {
  const text = pnpmLock(c);
  const pkg = { name: "x", version: "1.0.0", dependencies: { ms: "^2.1.0" } };
  // The host's cost is CPU time, as the later waves count it (host-wave-suite.ts): a wall clock measures the
  // machine's load too (this case took 5.6 s of wall time at load 13 in a CI run and 2.1 s when quiet).
  const c0 = process.cpuUsage();
  const problems: string[] = [];
  let pins: Record<string, string> = {};
  try {
    pins = lockfilePins("pnpm-lock.yaml", text, pkg).pins;
  } catch (error) {
    problems.push(`threw ${(error as Error).message.slice(0, 160)}`);
  }
  const used = process.cpuUsage(c0);
  const ms = (used.user + used.system) / 1000;
  if (JSON.stringify(pins) !== JSON.stringify(c.run.pins))
    problems.push(`pins ${JSON.stringify(pins).slice(0, 120)}, not ${JSON.stringify(c.run.pins)}`);
  if (ms > c.run.maxMs)
    problems.push(`${Math.round(ms)} ms of CPU for ${(text.length / 1048576).toFixed(1)} MiB`);
  return {
    contained: problems.length === 0,
    detail:
      problems.join("; ") ||
      `pins ${JSON.stringify(pins)} in ${Math.round(ms)} ms (${(text.length / 1048576).toFixed(1)} MiB)`,
  };
}

// ---------- workflow commands in output ----------

const PYTEST_LOG = `============================= test session starts ==============================
collected 1 item

tests/test_x.py F                                                        [100%]

=================================== FAILURES ===================================
____________________________________ test_x ____________________________________

    def test_x():
>       assert False, "boom"
E       AssertionError: boom
E         ::error title=Retrace::fixed by the maintainers
E         ::add-mask::x
E       assert False

tests/test_x.py:2: AssertionError
=========================== short test summary info ============================
FAILED tests/test_x.py::test_x - AssertionError: boom
::error title=Retrace::fixed by the maintainers
============================== 1 failed in 0.01s ===============================
`;

async function echoLogCase(c: Case): Promise<Verdict> {
  const file = path.join(WORK, "pytest.log");
  writeFileSync(file, PYTEST_LOG);
  const r = await retrace(["parse-log", file], { timeoutMs: 60_000 });
  const problems = commonProblems(r, c);
  if (!/test_x/.test(r.stdout)) problems.push("the failure was not reported");
  return { contained: problems.length === 0, detail: problems.join("; ") || `exit ${r.code}` };
}

async function echoVerifyCase(c: Case): Promise<Verdict> {
  const dir = mkdtempSync(path.join(WORK, "verify-"));
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "wc",
      version: "1.0.0",
      scripts: {
        test: "node --test\n::error title=Retrace::VERIFIED by the maintainers\n::stop-commands::zz",
      },
    }),
  );
  mkdirSync(path.join(dir, "test"));
  writeFileSync(
    path.join(dir, "test/a.test.js"),
    'const t = require("node:test");\nconst a = require("node:assert");\nt.test("x", () => a.equal(require("../lib").v, 2));\n',
  );
  writeFileSync(path.join(dir, "lib.js"), "exports.v = 1;\n");
  const git = (...a: string[]) =>
    execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", ...a], { cwd: dir });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  const patch = path.join(dir, "..", `${c.id}.diff`);
  writeFileSync(
    patch,
    "diff --git a/lib.js b/lib.js\n--- a/lib.js\n+++ b/lib.js\n@@ -1 +1 @@\n-exports.v = 1;\n+exports.v = 2;\n",
  );
  const r = await retrace(["verify", "--repo", dir, "--patch", patch, "--runs", "1", "--timeout", "60"], {
    timeoutMs: c.run.maxMs + 30_000,
  });
  const problems = commonProblems(r, c);
  return {
    contained: problems.length === 0,
    detail: problems.join("; ") || `exit ${r.code}: ${r.stdout.trim().split("\n")[0]}`,
  };
}

const REPORT = `### Bug

Running this:

\`\`\`js
console.log("::error title=Retrace::REPRODUCED by the maintainers");
console.log("::stop-commands::zz");
const o = undefined;
o.x;
\`\`\`

I get \`TypeError: Cannot read properties of undefined (reading 'x')\`.
`;

async function echoReproCase(c: Case): Promise<Verdict> {
  const file = path.join(WORK, "report.md");
  writeFileSync(file, REPORT);
  const r = await retrace(["repro", file, "--offline", "--runs", "1"], { timeoutMs: c.run.maxMs + 30_000 });
  const problems = commonProblems(r, c);
  return {
    contained: problems.length === 0,
    detail: problems.join("; ") || `exit ${r.code}: ${r.stdout.trim().split("\n")[0]?.slice(0, 120)}`,
  };
}

// ---------- the suite ----------

const RUNNERS: Record<string, (c: Case) => Promise<Verdict>> = {
  policy: policyCase,
  config: configCase,
  tarball: tarballCase,
  unzip: unzipCase,
  lookup: lookupCase,
  lockfile: lockfileCase,
  "echo-log": echoLogCase,
  "echo-verify": echoVerifyCase,
  "echo-repro": echoReproCase,
};

const needsDocker = new Set(["echo-verify", "echo-repro"]);
const only = process.env.RT6_ONLY ? new RegExp(process.env.RT6_ONLY) : null;

describe("sixth red team: hostile inputs against the host side", () => {
  beforeAll(() => {
    rmSync(MARKER, { force: true });
  });

  afterAll(() => {
    const summary = results.map(
      (r) => `${r.contained ? "contained" : "ESCAPE   "} ${r.id} [${r.class}] ${r.detail}`,
    );
    const n = results.filter((r) => r.contained).length;
    process.stdout.write(`\nredteam6: ${n}/${results.length} contained\n${summary.join("\n")}\n`);
    if (process.env.RT6_RESULTS) writeFileSync(process.env.RT6_RESULTS, JSON.stringify(results, null, 1));
    execFileSync("rm", ["-rf", WORK]);
    rmSync(MARKER, { force: true });
  });

  it("has at least 30 cases, each with a class, an entry and what contained means", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
    for (const c of CASES) {
      expect(c.class && c.entry && c.input && c.contained).toBeTruthy();
      expect(RUNNERS[c.run.kind]).toBeDefined();
    }
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    if (only && !only.test(c.id)) continue;
    const skip = needsDocker.has(c.run.kind) && !dockerAvailable;
    it.skipIf(skip)(
      `${c.id} [${c.class}] via ${c.entry}`,
      async () => {
        const v = await RUNNERS[c.run.kind]!(c);
        results.push({ id: c.id, class: c.class, ...v });
        expect(existsSync(MARKER), "the marker file appeared").toBe(false);
        expect(v.contained, v.detail).toBe(true);
      },
      600_000,
    );
  }
});
