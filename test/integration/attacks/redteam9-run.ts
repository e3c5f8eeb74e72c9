/**
 * The ninth red team's first-try runner (how `redteam9-results.md` was measured): every case of
 * `redteam9-step.ts`, or the ids given, each in its own process under `timeout -s KILL 150 prlimit --cpu=10 (300 s and 60 s for a run case, whose CLI child is bounded by the case)
 * /usr/bin/time`, with a marker secret in GITHUB_TOKEN and a marker file path outside Retrace's directories.
 * One JSON line per case on stdout. `RT9_ROOT` names the checkout to attack (default: this one).
 *   npx tsx test/integration/attacks/redteam9-run.ts [id…]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root =
  process.env.RT9_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const MARKER = "/var/tmp/retrace-rt9-marker";
const SECRET = "ghs_rt9secretTOKEN0123456789abcdefABCDEF";
const step = path.join(root, "test/integration/attacks/redteam9-step.ts");
const tsx = path.join(root, "node_modules/.bin/tsx");
/** The operator's limits, lowered as the eighth wave's test lowers them, so heavy cases stop early. */
const LIMITS = "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000";
/** Host CPU a report's host steps may take: the parse's and the expectations' limits (1 s each) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other step (a run case's CLI is bounded by its own check: 20 s of CPU within 240 s). */
const OTHER_CPU_MS = 8_000;

const env = { ...process.env, GITHUB_TOKEN: SECRET, RETRACE_RT9_MARKER: MARKER, RETRACE_HOST_LIMITS: LIMITS };
const all = JSON.parse(
  spawnSync(tsx, [step, os.tmpdir()], { env, encoding: "utf8" }).stdout.trim().split("\n").pop()!,
) as string[];
const only = process.argv.slice(2);
if (existsSync(MARKER)) rmSync(MARKER);
for (const id of all) {
  if (only.length && !only.includes(id)) continue;
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt9-"));
  const t = Date.now();
  const r = spawnSync(
    "timeout",
    [
      "-s",
      "KILL",
      id.startsWith("run-") ? "300" : "150",
      "prlimit",
      id.startsWith("run-") ? "--cpu=60" : "--cpu=10",
      "/usr/bin/time",
      "-f",
      "%U %S %M",
      tsx,
      step,
      dir,
      id,
    ],
    { env, cwd: dir, timeout: 360_000, encoding: "utf8", maxBuffer: 1 << 30, killSignal: "SIGKILL" },
  );
  const wallMs = Date.now() - t;
  const stderr = r.stderr ?? "";
  const time = stderr.trim().split("\n").pop() ?? "";
  const [user, sys, maxRssKb] = time.split(" ").map(Number);
  const line = (r.stdout ?? "").trim().split("\n").pop() ?? "";
  let stepOut: { cpuMs?: number; outcome?: string; contained?: boolean | null } = {};
  try {
    stepOut = JSON.parse(line);
  } catch {
    stepOut = { outcome: `no result: ${stderr.slice(0, 300)}` };
  }
  const marker = existsSync(MARKER);
  const leak = (r.stdout ?? "").includes(SECRET) || stderr.includes(SECRET);
  const killed = stepOut.cpuMs === undefined;
  const cpuMs = Math.round(((user ?? 0) + (sys ?? 0)) * 1000);
  const bound = id.startsWith("report-")
    ? REPORT_CPU_MS
    : id.startsWith("run-")
      ? Number.POSITIVE_INFINITY
      : OTHER_CPU_MS;
  const overBound = (stepOut.cpuMs ?? Number.POSITIVE_INFINITY) > bound;
  const escaped = marker || leak || killed || overBound || stepOut.contained === false;
  console.log(
    JSON.stringify({
      id,
      contained: !escaped,
      stepCpuMs: stepOut.cpuMs ?? null,
      processCpuMs: cpuMs,
      maxRssMb: Math.round((maxRssKb ?? 0) / 1024),
      wallMs,
      marker,
      leak,
      killed,
      outcome: stepOut.outcome ?? null,
      verdict: stepOut.contained ?? null,
    }),
  );
  if (marker) rmSync(MARKER);
  rmSync(dir, { recursive: true, force: true });
}
