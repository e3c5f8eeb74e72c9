/**
 * `npm run bench -- parse-log-pipe --log FILE [--reps N]`: would a pipeline (a worker thread reads, splits and
 * normalizes the log's lines; the main thread parses them) bring `retrace parse-log`'s wall time below its CPU
 * time on 2 cores? This measures its cost before it is built: bench/lib/pipe-probe.ts does the reading,
 * splitting and normalizing inline and through a worker, alternating, N times each (default 3), and reports each
 * way's main-thread CPU, the worker's CPU, the process's total CPU and peak RSS (medians). The log is the one
 * `npm run bench -- parse-log --keep` leaves. The saving on the main thread is what a pipeline could take off
 * the wall time of an idle machine; the rise in total CPU is what the transfer costs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const log = arg("--log");
const reps = Number(arg("--reps") ?? 3);
if (!log || !existsSync(log)) {
  process.stderr.write("usage: npm run bench -- parse-log-pipe --log FILE [--reps N]\n");
  process.exit(2);
}
const dir = mkdtempSync(path.join(tmpdir(), "retrace-parse-log-pipe-"));
const probe = path.join(dir, "probe.mjs");
await build({
  entryPoints: [path.join(root, "bench/lib/pipe-probe.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: probe,
  logLevel: "error",
});

interface Run {
  mode: string;
  mainCpuMs: number;
  workerCpuMs: number;
  cpuMs: number;
  peakRssMb: number;
  wallMs: number;
}
const runs: Run[] = [];
try {
  for (let i = 0; i < reps; i++) {
    for (const mode of ["inline", "pipe"]) {
      const r = spawnSync("/usr/bin/time", ["-v", process.execPath, probe, mode, log], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`probe failed: ${r.stderr.slice(-2000)}`);
      const o = JSON.parse(r.stdout) as { wall: number; threads: Record<string, number> };
      const pid = Object.keys(o.threads)[0]!.split(":")[0];
      const cpu = Object.values(o.threads);
      const main = o.threads[Object.keys(o.threads).find((k) => k.split(":")[0] === String(pid))!] ?? 0;
      // The worker: the busiest thread but the main one (the others are V8's and libuv's helpers).
      const others = Object.entries(o.threads)
        .filter(([k]) => k.split(":")[0] !== pid)
        .map(([, v]) => v);
      const user = Number(/User time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1]);
      const sys = Number(/System time \(seconds\): ([\d.]+)/.exec(r.stderr)?.[1]);
      const run: Run = {
        mode,
        mainCpuMs: main,
        workerCpuMs: mode === "pipe" ? Math.max(0, ...others) : 0,
        cpuMs: Math.round((user + sys) * 1000) || cpu.reduce((a, b) => a + b, 0),
        peakRssMb:
          Math.round(Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]) / 102.4) / 10,
        wallMs: o.wall,
      };
      runs.push(run);
      console.log(JSON.stringify(run));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const of = (mode: string, k: keyof Omit<Run, "mode">) =>
  median(runs.filter((r) => r.mode === mode).map((r) => r[k]));
console.log(
  JSON.stringify({
    bench: "parse-log-pipe",
    reps,
    inline: {
      mainCpuMs: of("inline", "mainCpuMs"),
      cpuMs: of("inline", "cpuMs"),
      peakRssMb: of("inline", "peakRssMb"),
    },
    pipe: {
      mainCpuMs: of("pipe", "mainCpuMs"),
      workerCpuMs: of("pipe", "workerCpuMs"),
      cpuMs: of("pipe", "cpuMs"),
      peakRssMb: of("pipe", "peakRssMb"),
    },
    mainThreadSavedMs: of("inline", "mainCpuMs") - of("pipe", "mainCpuMs"),
    transferCostMs: of("pipe", "cpuMs") - of("inline", "cpuMs"),
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 10) / 10,
    cpus: cpus().length,
  }),
);
