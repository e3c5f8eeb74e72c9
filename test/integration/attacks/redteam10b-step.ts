/**
 * Host-side steps of the tenth red team's follow-up (10b)'s cases, run in a process of their own
 * (`tsx redteam10b-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured. The gaps the
 * tenth wave left open (issue 14), each through its real entry: the Action runner's fetch of the failed commit
 * (`ensureCheckoutAt`, real git) from an origin whose name answers the check one thing and git another (DNS
 * rebinding), or that has two URLs; the real `retrace sandbox run` on the real engine with its stdout a terminal
 * (under `script`) and a pipe; the probe of an image's tool version (`imageToolVersion`) on real images whose
 * `node` never exits or floods its output; reports at the cap through the pipeline's reading steps with their
 * shared budget. For each case it prints one JSON line: `{ id, cpuMs, outcome, contained }`.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { hostLimits } from "../../../src/core/host-limits.ts";
import { isPublicAddress } from "../../../src/install/public-address.ts";
import { withinCpuTime } from "../../../src/core/time-limit.ts";
import { imageToolVersion } from "../../../src/install/node-runtime.ts";
import { ensureCheckoutAt } from "../../../src/jobs/default-runner.ts";
import { createLocalReproPorts } from "../../../src/jobs/local-repro.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { createContext } from "../../../src/repro/context.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const HERE = path.dirname(new URL(import.meta.url).pathname);
const REPO = path.resolve(HERE, "../../..");
const MARKER = process.env.RETRACE_RT10b_MARKER ?? "/var/tmp/retrace-rt10b-marker";

const short = (s: string, n = 200) => s.replace(/\s+/g, " ").slice(0, n);

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
}

// ---- The Action's fetch of the failed commit: where git connects.

/** A TCP service on 127.0.0.1 counting the connections that reach it (a host service nothing should touch). */
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

/**
 * A name the system resolver answers with a loopback address (from /etc/hosts), other than `localhost`, which
 * Retrace refuses by name: what a rebinding name server answers git after answering Retrace's check publicly.
 */
function loopbackName(): string | null {
  const hosts = existsSync("/etc/hosts") ? readFileSync("/etc/hosts", "utf8") : "";
  for (const line of hosts.split("\n")) {
    const [address, ...names] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (!address || !/^127\./.test(address)) continue;
    const name = names.find((n) => /^[a-z0-9][a-z0-9.-]*$/i.test(n) && !/(^|\.)localhost$/i.test(n));
    if (name) return name.toLowerCase();
  }
  return null;
}

/** A checkout with one commit; the failed commit is one it does not have, so the runner fetches it. */
function checkout(): string {
  const c = path.join(dir, "checkout");
  mkdirSync(c, { recursive: true });
  git(c, "init", "-q");
  writeFileSync(path.join(c, "a.txt"), "a\n");
  git(c, "add", "a.txt");
  git(c, "commit", "-q", "-m", "first");
  return c;
}
const MISSING = "b".repeat(40);

/**
 * Plain git, without Retrace's rules, fetching `url`: the control that shows the name really reaches the
 * service for git (so a contained case is the rule's doing, not an unreachable name).
 */
function plainGitReaches(c: string, url: string, service: { hits: () => number }): Promise<boolean> {
  const before = service.hits();
  return new Promise((resolve) => {
    const child = spawn("git", ["fetch", "--depth=1", url, MISSING], {
      cwd: c,
      stdio: "ignore",
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("close", () => {
      clearTimeout(timer);
      resolve(service.hits() > before);
    });
  });
}

/** The checkout's origin set to `urls` (in order), then moved to a commit it lacks with `resolve` as the look-up. */
async function originCase(
  urls: (name: string, port: number) => string[],
  resolve: (host: string) => Promise<string[]>,
): Promise<Outcome> {
  const name = loopbackName();
  if (!name)
    return ok("no name other than localhost resolves to 127.x in /etc/hosts: nothing to rebind to", false);
  const c = checkout();
  const service = await hostService();
  try {
    const list = urls(name, service.port);
    const control = await plainGitReaches(c, list[0]!, service);
    git(c, "remote", "add", "origin", list[0]!);
    for (const u of list.slice(1)) git(c, "config", "--add", "remote.origin.url", u);
    const before = service.hits();
    const answer = await ensureCheckoutAt(c, MISSING, undefined, "origin", [], resolve).then(
      () => "checked out",
      (e: Error) => `refused/failed: ${e.message.replace(/^.*checking that commit out failed: /, "")}`,
    );
    const hits = service.hits() - before;
    return ok(
      `${short(answer, 260)}; host service reached ${hits} times by Retrace's git (plain git reached it: ${control})`,
      control && hits === 0 && answer.startsWith("refused/failed"),
    );
  } finally {
    service.close();
  }
}

// ---- `retrace sandbox run` (real CLI, real engine): what a terminal and a pipe get.

const ESCAPES = String.raw`printf 'A\033]52;c;cm0gLXJmIH4K\007B\033[2J\302\233C\342\200\256D\n'; printf 'E\033]0;title\007F\n' >&2`;
const EXACT = "A\u001b]52;c;cm0gLXJmIH4K\u0007B\u001b[2J\u009bC\u202eD\n";

function terminalControls(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
  ))
    found.add(`U+${m[0].charCodeAt(0).toString(16).padStart(4, "0")}`);
  return [...found];
}

function sandboxRunArgs(): string[] {
  return [path.join(REPO, "bin/retrace.mjs"), "sandbox", "run", "--", "sh", "-c", ESCAPES];
}

const cliEnv = () => ({ ...process.env, RETRACE_CLI_FROM_SOURCE: "1", FORCE_COLOR: "0" });

/** With stdout and stderr a terminal (`script` gives the CLI a pty): nothing a terminal acts on is shown. */
function sandboxRunOnTerminal(): Outcome {
  const cmd = [process.execPath, ...sandboxRunArgs()].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const r = spawnSync("script", ["-qec", cmd, "/dev/null"], {
    cwd: dir,
    env: cliEnv(),
    encoding: "utf8",
    timeout: 120_000,
    killSignal: "SIGKILL",
  });
  // The pty turns each newline into CRLF; the rest is what the CLI wrote.
  const shown = (r.stdout ?? "").replace(/\r\n/g, "\n");
  const bad = terminalControls(shown);
  const both = shown.includes("B\\u{1b}[2J") && shown.includes("E\\u{1b}]0;title");
  return ok(
    `exit ${r.status}; controls shown: ${JSON.stringify(bad)}; ${short(JSON.stringify(shown), 200)}`,
    r.status === 0 && bad.length === 0 && both,
  );
}

/** Piped: the command's exact output (a caller capturing it gets what it wrote). */
function sandboxRunPiped(): Outcome {
  const r = spawnSync(process.execPath, sandboxRunArgs(), {
    cwd: dir,
    env: cliEnv(),
    encoding: "utf8",
    timeout: 120_000,
    killSignal: "SIGKILL",
  });
  const exact = r.stdout === EXACT && (r.stderr ?? "").startsWith("E\u001b]0;title\u0007F\n");
  return ok(
    `exit ${r.status}; stdout exact: ${r.stdout === EXACT}; ${short(JSON.stringify(r.stdout), 120)}`,
    exact,
  );
}

// ---- An image's tool version, on real images whose `node` is hostile.

/** A local image FROM the sandbox image whose `node` is `script` (and which tries to write the marker). */
function hostileImage(tag: string, script: string): string {
  const ctx = path.join(dir, "image");
  mkdirSync(ctx, { recursive: true });
  writeFileSync(path.join(ctx, "node"), `#!/bin/sh\ntouch ${MARKER} 2>/dev/null\n${script}\n`, {
    mode: 0o755,
  });
  writeFileSync(
    path.join(ctx, "Dockerfile"),
    "FROM retrace-sandbox:1\nUSER root\nCOPY node /usr/local/bin/node\nRUN chmod 0755 /usr/local/bin/node\n",
  );
  execFileSync("docker", ["build", "-q", "--network", "none", "-t", tag, ctx], { stdio: "ignore" });
  return tag;
}

async function toolProbe(tag: string, script: string, expect: RegExp): Promise<Outcome> {
  const image = hostileImage(tag, script);
  const docker = connectDocker();
  const t0 = Date.now();
  try {
    const answer = await imageToolVersion(docker, image, "node", null).then(
      (v) => `answered ${v}`,
      (e: Error) => `failed: ${e.message}`,
    );
    const wallS = (Date.now() - t0) / 1000;
    const left = execFileSync("docker", ["ps", "-aq", "--filter", `ancestor=${image}`], {
      encoding: "utf8",
    }).trim();
    return ok(
      `${short(answer, 260)}; ${wallS.toFixed(1)} s; containers left: ${left === "" ? 0 : left.split("\n").length}`,
      expect.test(answer) && left === "" && wallS < 60,
    );
  } finally {
    spawnSync("docker", ["rmi", "-f", image], { stdio: "ignore" });
  }
}

// ---- Reports at the cap, through the pipeline's reading steps (parse, expectations, completion).

/** The pipeline's reading of `markdown`: its steps share parseTimeMs; contained when all of them stay within
 * 1.5 times it (the retry of a call starved on a loaded host may add some) and the answer is a reason or a
 * program. */
function reportReading(markdown: string): Outcome {
  const limit = hostLimits().parseTimeMs;
  const cpu0 = process.cpuUsage();
  const spec = ReproJobSpec.parse({ kind: "repro", id: "rt10b", markdown, runs: 1 });
  let answer: string;
  try {
    const ctx = createContext(spec, createLocalReproPorts());
    const completed = ctx.unreadable
      ? null
      : withinCpuTime(
          () => completeProgram(ctx.report, ctx.expectations.invocation),
          Math.max(1, limit - ctx.readCpuMs),
        );
    answer = ctx.unreadable
      ? `not read: ${ctx.unreadable}`
      : completed && !completed.ok
        ? `not completed: ${completed.message}`
        : completed?.value
          ? "a program"
          : "no code";
  } catch (e) {
    answer = `error: ${(e as Error).message}`;
  }
  const used = process.cpuUsage(cpu0);
  const cpuMs = Math.round((used.user + used.system) / 1000);
  return ok(`${cpuMs} ms CPU (limit ${limit} for all steps); ${short(answer, 200)}`, cpuMs <= limit * 1.5);
}

const N = 65_536;
const fill = (unit: string, head = "# hostile\n\n") =>
  (head + unit.repeat(Math.ceil(N / unit.length))).slice(0, N);

const cases: Record<string, () => Outcome | Promise<Outcome>> = {
  // The check's look-up answers a public address, git's own (the system's) answers loopback.
  "git-origin-rebinding-https": () =>
    originCase(
      (name, port) => [`https://${name}:${port}/o/r.git`],
      async () => ["2001:db8::1"],
    ),
  // The check's look-up fails; git's own answers loopback.
  "git-origin-unresolvable-then-loopback": () =>
    originCase(
      (name, port) => [`https://${name}:${port}/o/r.git`],
      () => Promise.reject(new Error("SERVFAIL")),
    ),
  // Two URLs: git fetches from the first (loopback), `--get` read the last (public).
  "git-origin-second-url": () =>
    originCase(
      (_name, port) => [`https://127.0.0.1:${port}/o/r.git`, "https://93.184.215.14/o/r.git"],
      async (host) => (isPublicAddress(host) ? [host] : ["93.184.215.14"]),
    ),
  "run-sandbox-run-terminal": () => sandboxRunOnTerminal(),
  "run-sandbox-run-piped-exact": () => sandboxRunPiped(),
  "image-tool-version-never-exits": () =>
    toolProbe("retrace-rt10b-hang:1", "exec sleep 3600", /did not finish in 30 s; the container was removed/),
  "image-tool-version-floods-output": () =>
    toolProbe(
      "retrace-rt10b-flood:1",
      "exec yes v1.2.3",
      /wrote more than 65536 bytes; the container was removed/,
    ),
  "report-quote-markers-65k": () => reportReading(fill(">")),
  "report-reference-definitions-65k": () => reportReading(fill("[a]: <b\n")),
  "report-character-references-65k": () => reportReading(fill("&#x1b;&amp")),
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
});
