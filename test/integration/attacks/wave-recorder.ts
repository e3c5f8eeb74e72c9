/**
 * The first-try recorder the eighth and later red-team waves share (how each `redteamN-results.md` is measured):
 * every case of a wave's step script, or the ids given, each in its own process under
 * `timeout -s KILL <wall> prlimit --cpu=<cpu> /usr/bin/time`, with a marker secret in GITHUB_TOKEN and a marker
 * file path outside Retrace's directories. One JSON line per case on stdout: contained unless the marker
 * appeared, the secret reached an output, the case was killed, its host CPU passed its bound or its own check
 * failed. What differs between waves (names, limits, bounds) is the wave's `redteamN-run.ts`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface RecorderOptions {
  /** The checkout to attack (its `node_modules/.bin/tsx` and step script). */
  root: string;
  /** The step script, relative to `root`. */
  step: string;
  /** The marker file's path and the environment variable that names it to the steps. */
  marker: { path: string; env: string };
  secret: string;
  /** More environment for the steps (the operator's lowered host limits). */
  env?: Record<string, string>;
  tmpPrefix: string;
  /** Wall seconds (`timeout -s KILL`) and CPU seconds (`prlimit --cpu`) of a case's process. */
  wallS: (id: string) => number;
  cpuS: (id: string) => number;
  /** Host CPU (ms) the case's step may take. */
  boundMs: (id: string) => number;
  /** The ids to run (default: every case). */
  only?: readonly string[];
}

export function recordWave(o: RecorderOptions): void {
  const step = path.join(o.root, o.step);
  const tsx = path.join(o.root, "node_modules/.bin/tsx");
  const env = { ...process.env, GITHUB_TOKEN: o.secret, [o.marker.env]: o.marker.path, ...o.env };
  const all = JSON.parse(
    spawnSync(tsx, [step, os.tmpdir()], { env, encoding: "utf8" }).stdout.trim().split("\n").pop()!,
  ) as string[];
  if (existsSync(o.marker.path)) rmSync(o.marker.path);
  for (const id of all) {
    if (o.only?.length && !o.only.includes(id)) continue;
    const dir = mkdtempSync(path.join(os.tmpdir(), o.tmpPrefix));
    const t = Date.now();
    const r = spawnSync(
      "timeout",
      [
        "-s",
        "KILL",
        String(o.wallS(id)),
        "prlimit",
        `--cpu=${o.cpuS(id)}`,
        "/usr/bin/time",
        "-f",
        "%U %S %M",
        tsx,
        step,
        dir,
        id,
      ],
      {
        env,
        cwd: dir,
        timeout: (o.wallS(id) + 60) * 1000,
        encoding: "utf8",
        maxBuffer: 1 << 30,
        killSignal: "SIGKILL",
      },
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
    const marker = existsSync(o.marker.path);
    const leak = (r.stdout ?? "").includes(o.secret) || stderr.includes(o.secret);
    const killed = stepOut.cpuMs === undefined;
    const cpuMs = Math.round(((user ?? 0) + (sys ?? 0)) * 1000);
    const overBound = (stepOut.cpuMs ?? Number.POSITIVE_INFINITY) > o.boundMs(id);
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
    if (marker) rmSync(o.marker.path);
    rmSync(dir, { recursive: true, force: true });
  }
}
