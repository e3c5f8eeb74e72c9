/**
 * The eighth red team's first-try runner (how `redteam8-results.md` was measured): every case of
 * `redteam8-step.ts`, or the ids given, each in its own process under `timeout -s KILL 150 prlimit --cpu=10
 * /usr/bin/time`, with a marker secret in GITHUB_TOKEN and a marker file path outside Retrace's directories.
 * One JSON line per case on stdout. `RT8_ROOT` names the checkout to attack (default: this one).
 *   npx tsx test/integration/attacks/redteam8-run.ts [id…]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root =
  process.env.RT8_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const MARKER = "/var/tmp/retrace-rt8-marker";
const SECRET = "ghs_rt8secretTOKEN0123456789abcdefABCDEF";
const step = path.join(root, "test/integration/attacks/redteam8-step.ts");
const tsx = path.join(root, "node_modules/.bin/tsx");
/** Host CPU a report's host steps may take: the parse's and the expectations' limits (1.8 s each) and a margin. */
const REPORT_CPU_MS = 4_000;

const env = { ...process.env, GITHUB_TOKEN: SECRET, RETRACE_RT8_MARKER: MARKER };
const all = JSON.parse(
  spawnSync(tsx, [step, os.tmpdir()], { env, encoding: "utf8" }).stdout.trim().split("\n").pop()!,
) as string[];
const only = process.argv.slice(2);
if (existsSync(MARKER)) rmSync(MARKER);
for (const id of all) {
  if (only.length && !only.includes(id)) continue;
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt8-"));
  const t = Date.now();
  const r = spawnSync(
    "timeout",
    ["-s", "KILL", "150", "prlimit", "--cpu=10", "/usr/bin/time", "-f", "%U %S %M", tsx, step, dir, id],
    { env, cwd: dir, timeout: 240_000, encoding: "utf8", maxBuffer: 1 << 30, killSignal: "SIGKILL" },
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
  const overBound = id.startsWith("report-") && (stepOut.cpuMs ?? Number.POSITIVE_INFINITY) > REPORT_CPU_MS;
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
