/**
 * Host-side steps of the seventeenth red team's cases, run in a process of their own
 * (`tsx redteam17-step.ts <dir> <id>…`) so a case that holds the host can be killed and measured.
 * Waves 12–16 went to patches, Retrace's own texts, the App's and Action's outputs, model answers and run reports;
 * this one goes to what they left: format characters (general category Cf) outside the hand-picked bidi and
 * zero-width ranges, private-use characters and noncharacters in an added line, a commit message and a PR title;
 * the registry look-up's disk cache (`latest-versions.json`, shared by every job, never pruned) under the
 * legitimate-looking load of many reports; compressed model answers (what wave 16 left: `boundedFetch` counts
 * inflated bytes); the jest JSON report's one `JSON.parse` (left by wave 16) in shapes that are not titles; the
 * CLI's inputs given as FIFOs and devices; and comment and check-run events of shapes no wave tried. One JSON line
 * per case: `{ id, cpuMs, outcome, contained }` — `contained` is the case's own verdict, null when only the
 * runner's checks (marker, token, host CPU) decide.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { once } from "node:events";
import type { Transform } from "node:stream";
import { createBrotliCompress, createGzip, gzipSync, constants as zlibConstants } from "node:zlib";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import { readResults } from "../../../src/fix/test-runner/results.ts";
import { parseEvent } from "../../../src/jobs/triggers.ts";
import { createAnthropicModel } from "../../../src/llm/anthropic.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { example } from "../../e2e/support/app-harness.ts";
import { commitMessageOf, gateLine as gate, noRaw, prTitleOf, short } from "./patch-step.ts";
import { modelMessage } from "./model-message.ts";
import { type Outcome, ok, runStepCases } from "./wave-step.ts";

const [root, ...ids] = process.argv.slice(2) as [string, ...string[]];
let dir = root;
const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const APP = { kind: "app", identity: { appId: 1, appSlug: "retrace" } } as const;
const ACTION = { kind: "action" } as const;

// ---- Format, private-use and noncharacters in what a maintainer reads.

// ---- The registry look-up's disk cache.

/** A registry on loopback answering every packument with one release (`1.0.0`). */
async function registry(): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": {} } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** `jobs` jobs (one look-up each, as a process per job would), each naming `names` packages, on one cache dir. */
async function lookups(
  jobs: number,
  names: number,
  seed: Record<string, { version: string; at: number }> | null,
): Promise<{ entries: number; bytes: number; stale: number; ms: number; cpuMs: number }> {
  const reg = await registry();
  const cacheDir = path.join(dir, "cache");
  const file = path.join(cacheDir, "latest-versions.json");
  if (seed) {
    spawnSync("mkdir", ["-p", cacheDir]);
    writeFileSync(file, JSON.stringify(seed));
  }
  const t = Date.now();
  const cpu0 = process.cpuUsage();
  try {
    for (let j = 0; j < jobs; j++) {
      const lookup = createRegistryLookup({
        cacheDir,
        registryConfig: {
          npm: reg.url,
          pip: { indexUrl: "", extraIndexUrls: [], findLinks: [] },
          caFile: null,
        } as never,
        timeoutMs: 2_000,
      });
      await Promise.all(
        Array.from({ length: names }, (_, i) => lookup.latestVersion("npm", `pkg-${j}-${i}`)),
      );
    }
  } finally {
    reg.close();
  }
  const ms = Date.now() - t;
  // This process's CPU (the lookups and the registry serving them): a cache rewritten per name shows there, while
  // the wall clock also counts a loaded host (6 s at load 14 in a fresh-clone CI run).
  const used = process.cpuUsage(cpu0);
  const cpuMs = Math.round((used.user + used.system) / 1000);
  const disk = JSON.parse(readFileSync(file, "utf8")) as Record<string, { at: number }>;
  const now = Date.now();
  const stale = Object.values(disk).filter((e) => now - e.at > 3_600_000).length;
  return { entries: Object.keys(disk).length, bytes: statSync(file).size, stale, ms, cpuMs };
}

/** `n` entries an hour or more old (a week of reports). */
const staleSeed = (n: number) => {
  const at = Date.now() - 7 * 24 * 3_600_000;
  const seed: Record<string, { version: string; at: number }> = {};
  for (let i = 0; i < n; i++) seed[`npm:http://127.0.0.1:1/:old-package-${i}`] = { version: "1.0.0", at };
  return seed;
};

// ---- Compressed model answers.

const MESSAGE = JSON.stringify(modelMessage({ id: "msg_rt17" }));

/** One answer whose body is `body` sent with `content-encoding: encoding`; contained when refused under 400 MiB. */
async function compressed(encoding: string, body: Buffer): Promise<Outcome> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": encoding });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const model = createAnthropicModel({
      apiKey: "sk-ant-rt17",
      baseURL: url,
      retry: { maxRetries: 1, baseDelayMs: 10, timeoutMs: 20_000, maxTotalMs: 30_000 },
    });
    const res = await model.complete({
      model: "claude-sonnet-4-5",
      system: "s",
      messages: [{ role: "user", content: "Fix it." }],
      tools: [],
    });
    const peak = Math.round(process.resourceUsage().maxRSS / 1024);
    return ok(`accepted: text of ${res.text.length} chars at ${peak} MiB peak rss`, false);
  } catch (e) {
    const peak = Math.round(process.resourceUsage().maxRSS / 1024);
    const err = e as Error & { kind?: string };
    return ok(
      `refused (${err.kind ?? err.constructor.name}) at ${peak} MiB peak rss: ${short(err.message)}`,
      peak < 400,
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/**
 * A valid message followed by `mb` MiB of spaces (valid JSON), compressed from a stream: the case's process never
 * holds the padding itself (the first try built it whole, and the 2.2 GiB it measured were the harness's own).
 */
async function padded(mb: number, compressor: () => Transform): Promise<Buffer> {
  const z = compressor();
  const out: Buffer[] = [];
  z.on("data", (c: Buffer) => out.push(c));
  const done = once(z, "end");
  z.write(MESSAGE);
  const chunk = Buffer.alloc(2 ** 20, 0x20);
  for (let i = 0; i < mb; i++) if (!z.write(chunk)) await once(z, "drain");
  z.end();
  await done;
  return Buffer.concat(out);
}
const gzip = () => createGzip({ level: 1 });
const brotli = () => createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } });

// ---- The jest JSON report (one JSON.parse, left by wave 16), in shapes that are not titles.

function results(format: string, text: string): Outcome {
  const t = Date.now();
  const cpu = process.cpuUsage();
  try {
    const tests = readResults(format, text);
    const used = process.cpuUsage(cpu);
    const ms = Math.round((used.user + used.system) / 1000);
    // Within two parse budgets of host CPU (RETRACE_HOST_LIMITS parseTimeMs, 1 s in the waves), as the log
    // parsers are (the first try measured wall time, which the test suite's parallel groups inflate).
    return ok(`${tests.length} tests read in ${ms} ms of CPU (${Date.now() - t} ms wall)`, ms <= 2_000);
  } catch (e) {
    const err = e as Error & { kind?: string };
    return ok(
      `${err.kind ? `refused (${err.kind})` : `crashed (${err.constructor.name})`} after ${Date.now() - t} ms: ${short(err.message)}`,
      err.kind !== undefined,
    );
  }
}
const jest = (extra: string) =>
  `{"testResults":[{"name":"/workspace/t.test.js","assertionResults":[{"ancestorTitles":[],"title":"t","status":"failed"}]}],"x":${extra}}`;

// ---- The CLI's inputs as FIFOs and devices.

/**
 * The CLI on `args` must exit non-zero, refused, without waiting for input (killed at 60 s), saying `refusal` when
 * given. The CLI starts from source (tsx): 2.5 s quiet, 15 s at load 14 in a fresh-clone CI run, so the wall bound
 * only tells a refusal from a read to the cap or a wait; what it says tells how it was refused.
 */
function cli(args: string[], refusal?: RegExp): Outcome {
  const t = Date.now();
  const r = spawnSync("node", [path.join(REPO, "bin/retrace.mjs"), ...args], {
    encoding: "utf8",
    timeout: 60_000,
    killSignal: "SIGKILL",
    maxBuffer: 1 << 26,
    cwd: dir,
    env: { ...process.env, ANTHROPIC_API_KEY: "", RETRACE_CLI_FROM_SOURCE: "1" },
  });
  const ms = Date.now() - t;
  const said = short(`${r.stderr ?? ""} ${r.stdout ?? ""}`.trim(), 160);
  if (r.signal) return ok(`killed after ${ms} ms (${r.signal}): still waiting; ${said}`, false);
  return ok(
    `exit ${r.status} in ${ms} ms: ${said}`,
    r.status !== 0 && ms < 45_000 && (refusal === undefined || refusal.test(said)),
  );
}
function fifo(): string {
  const p = path.join(dir, "input.fifo");
  spawnSync("mkfifo", [p]);
  return p;
}

// ---- Events.

function event(name: string, payload: unknown, surface: typeof APP | typeof ACTION = APP) {
  return parseEvent(name, payload, surface);
}
function comment(body: string, action = "created") {
  const p = example("issue_comment", "created");
  p.action = action;
  p.comment.body = body;
  p.comment.user = { login: "mallory", type: "User" };
  p.sender = { login: "mallory", type: "User" };
  return p;
}

const cases: Record<string, () => Promise<Outcome> | Outcome> = {
  // Format characters (Cf) outside the bidi/zero-width ranges, private use and noncharacters: a line a reviewer
  // reads as another (`roles["admin<U+1D173>"]` shows as `roles["admin"]`).
  "patch-line-musical-format-control-in-key": () => gate('const role = roles["admin\u{1d173}"] ?? "guest";'),
  "patch-line-interlinear-annotation-hides-text": () =>
    gate('if (user.role === "admin" \ufff9|| true\ufffb) allow();'),
  "patch-line-deprecated-format-controls": () => gate('const role = roles["admin\u206a\u206f"] ?? "guest";'),
  "patch-line-shorthand-format-control": () => gate('const role = roles["admin\u{1bca1}"] ?? "guest";'),
  "patch-line-arabic-number-sign-prefix": () => gate('const limit = "\u0600\u0605" + 10;'),
  "patch-line-private-use-in-key": () => gate('const role = roles["admin\ue000"] ?? "guest";'),
  "patch-line-noncharacter-in-key": () => gate('const role = roles["admin\uffff"] ?? "guest";'),
  "patch-line-supplementary-private-use": () => gate('const key = "sk\u{f0000}";'),
  "patch-path-format-control-twin": () =>
    (() => {
      const r = evaluatePatch(
        "diff --git a/src/auth\u{1d173}.js b/src/auth\u{1d173}.js\nnew file mode 100644\n--- /dev/null\n+++ b/src/auth\u{1d173}.js\n@@ -0,0 +1 @@\n+module.exports = () => true;\n",
      );
      return ok(
        r.allowed ? "the gate allowed it" : `refused: ${r.violations.map((v) => v.rule).join(", ")}`,
        !r.allowed,
      );
    })(),
  "commit-message-format-controls-in-summary": async () =>
    noRaw(
      "the commit message",
      await commitMessageOf("rt17-cm", "Fix the check\u{1d173}\ufff9 [skip ci]\ufffb", []),
      ["\u{1d173}", "\ufff9", "\ufffb"],
    ),
  "pr-title-format-controls-in-test-id": () =>
    noRaw("the PR title", prTitleOf("rt17-pr", ["tests/test_a.py::test_admin\u206a\u{1d173}"]), [
      "\u206a",
      "\u{1d173}",
    ]),
  "commit-message-private-use-in-test-id": async () =>
    noRaw("the commit message", await commitMessageOf("rt17-pu", "Fix it", ["t::admin\ue000\uffff"]), [
      "\ue000",
      "\uffff",
    ]),

  // The registry look-up's disk cache, shared by every job of the host.
  "lookup-cache-stale-entries-never-pruned": async () => {
    const r = await lookups(1, 5, staleSeed(20_000));
    return ok(
      `after one job: ${r.entries} entries (${r.stale} older than the 1 h TTL), ${Math.round(r.bytes / 1024)} KiB, ${r.ms} ms`,
      r.stale === 0,
    );
  },
  "lookup-cache-grows-with-every-report": async () => {
    const r = await lookups(40, 50, null);
    return ok(
      `40 reports of 50 distinct packages: ${r.entries} entries, ${Math.round(r.bytes / 1024)} KiB in ${r.ms} ms`,
      r.entries <= 1_000,
    );
  },
  "lookup-cache-rewritten-per-name": async () => {
    const r = await lookups(1, 200, staleSeed(60_000));
    return ok(
      `one report of 200 packages on a 60,000-entry cache: ${r.cpuMs} ms of CPU (${r.ms} ms wall), ${Math.round(r.bytes / 1024)} KiB after`,
      r.cpuMs < 3_000,
    );
  },

  // Compressed model answers (wave 16 left: `boundedFetch` counts inflated bytes).
  "model-answer-gzip-bomb": async () => compressed("gzip", await padded(512, gzip)),
  "model-answer-brotli-bomb": async () => compressed("br", await padded(512, brotli)),
  "model-answer-gzip-stacked-encodings": async () =>
    compressed("gzip, gzip", gzipSync(await padded(512, gzip))),

  // The jest JSON report: one JSON.parse of up to 64 MiB, outside the parse budget.
  "results-jest-json-13m-empty-objects": () => results("jest-json", jest(`[${"{},".repeat(13_000_000)}{}]`)),
  "results-jest-json-20m-numbers": () => results("jest-json", jest(`[${"1,".repeat(20_000_000)}1]`)),
  "results-jest-json-1m-keys-one-object": () =>
    results("jest-json", jest(`{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":0`).join(",")}}`)),

  // The CLI's inputs as FIFOs and devices (a path a script or a checkout supplies).
  "cli-parse-log-from-fifo": () => cli(["parse-log", fifo()]),
  "cli-policy-patch-from-fifo": () => cli(["policy", fifo()]),
  "cli-parse-log-dev-zero": () => cli(["parse-log", "/dev/zero"]),
  // A device is refused at its first NUL byte, not read to the 256 MiB cap first.
  "cli-repro-report-from-dev-urandom": () =>
    cli(["repro", "/dev/urandom", "--offline"], /the issue \/dev\/urandom is a binary file, not text/),

  // Comment and check-run events of shapes no wave tried.
  "event-comment-edited-to-command": () => {
    const d = event("issue_comment", comment("/autofix", "edited"));
    return ok(d.accept ? "an edited comment triggered a job" : `skipped: ${d.reason}`, !d.accept);
  },
  "event-comment-command-in-quote": () => {
    const d = event("issue_comment", comment("> /autofix\n\nI would not run this."));
    return ok(d.accept ? "a quoted command triggered a job" : `skipped: ${d.reason}`, !d.accept);
  },
  "event-comment-command-behind-bom": () => {
    const d = event("issue_comment", comment("\ufeff/autofix"));
    return ok(
      d.accept
        ? `accepted; the commenter's permission is ${"checkPermission" in d.trigger && d.trigger.checkPermission ? "checked" : "NOT checked"}`
        : `skipped: ${d.reason}`,
      !d.accept || ("checkPermission" in d.trigger && d.trigger.checkPermission === true),
    );
  },
  "event-check-run-pr-head-id-missing": () => {
    const p = example("check_run", "completed");
    p.check_run.conclusion = "failure";
    p.check_run.name = "test";
    p.sender = { login: "mallory", type: "User" };
    p.check_run.pull_requests = [
      {
        number: 2,
        head: { ref: "main", repo: { url: `https://api.github.com/repos/${p.repository.full_name}` } },
        base: { repo: { id: p.repository.id } },
      },
    ];
    const d = event("check_run", p);
    return ok(
      d.accept ? `accepted as a fix of ${JSON.stringify(d.trigger)}`.slice(0, 200) : `skipped: ${d.reason}`,
      !d.accept,
    );
  },
  "event-workflow-run-fork-named-like-base-on-action": () => {
    const p = example("workflow_run", "completed");
    p.workflow_run.conclusion = "failure";
    p.sender = { login: "mallory", type: "User" };
    p.workflow_run.head_repository = {
      ...p.workflow_run.head_repository,
      full_name: `${p.repository.full_name}\u200b`,
    };
    const d = event("workflow_run", p, ACTION);
    return ok(
      d.accept
        ? "a fork whose name differs by a zero-width space was taken for the repository"
        : `skipped: ${d.reason}`,
      !d.accept,
    );
  },
};

await runStepCases(cases, root, ids, (d) => {
  dir = d;
  if (!existsSync(d)) throw new Error(`no case directory ${d}`);
});
