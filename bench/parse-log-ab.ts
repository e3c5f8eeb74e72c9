/**
 * `npm run bench -- parse-log-ab --log FILE --old DIR [--reps N]`: the same log through two builds of the CLI
 * (`retrace parse-log FILE --json`, stdout a pipe read by this process, as in bench/parse-log.ts), alternating old
 * and new, N times each (default 3): wall, CPU (user + system) and peak RSS from /usr/bin/time -v, and whether the
 * two outputs are byte-identical. DIR is a copy of an earlier build/cli (kept inside the repository, e.g.
 * build/cli-old, so it resolves node_modules); the new build is build/cli, rebuilt first. The 50 MB log of
 * bench/parse-log.ts is kept with `npm run bench -- parse-log --keep`. The machine is shared: the load is
 * reported, and the medians are the headline.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const log = arg("--log");
const oldDir = arg("--old");
const reps = Number(arg("--reps") ?? 3);
if (!log || !oldDir || !existsSync(log)) {
  process.stderr.write("usage: npm run bench -- parse-log-ab --log FILE --old DIR [--reps N]\n");
  process.exit(2);
}
spawnSync(process.execPath, [path.join(root, "scripts/cli-build.mjs")], { cwd: root, stdio: "ignore" });
const builds = { old: path.resolve(oldDir, "main.js"), new: path.join(root, "build/cli/main.js") };
const runner = path.join(tmpdir(), "retrace-parse-log-ab-runner.mjs");
writeFileSync(
  runner,
  "const { main } = await import(process.argv[2]);\nprocess.exitCode = await main(process.argv.slice(3));\n",
);

interface Run {
  build: "old" | "new";
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  sha256: string;
}

function once(build: "old" | "new"): Run {
  const started = process.hrtime.bigint();
  const r = spawnSync(
    "/usr/bin/time",
    ["-v", process.execPath, runner, builds[build], "parse-log", log!, "--json"],
    { cwd: root, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 },
  );
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`${build} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const num = (re: RegExp) => Number(re.exec(r.stderr)?.[1] ?? Number.NaN);
  return {
    build,
    wallMs: Math.round(wallMs),
    cpuMs: Math.round(
      (num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/)) * 1000,
    ),
    peakRssMb: Math.round(num(/Maximum resident set size \(kbytes\): (\d+)/) / 102.4) / 10,
    sha256: createHash("sha256").update(r.stdout).digest("hex"),
  };
}

const runs: Run[] = [];
for (let i = 0; i < reps; i++) {
  for (const build of i % 2 === 0 ? (["old", "new"] as const) : (["new", "old"] as const)) {
    const run = once(build);
    runs.push(run);
    console.log(JSON.stringify({ step: "run", ...run, loadAverage1m: Math.round(loadavg()[0]! * 10) / 10 }));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const of = (b: "old" | "new") => runs.filter((r) => r.build === b);
const sum = (b: "old" | "new") => ({
  wallMs: median(of(b).map((r) => r.wallMs)),
  cpuMs: median(of(b).map((r) => r.cpuMs)),
  peakRssMb: median(of(b).map((r) => r.peakRssMb)),
});
console.log(
  JSON.stringify({
    bench: "parse-log-ab",
    log: path.basename(log),
    reps,
    old: sum("old"),
    new: sum("new"),
    identicalOutput: new Set(runs.map((r) => r.sha256)).size === 1,
    targets: { wallMs: 1500, peakRssMb: 200 },
    loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
    cpus: cpus().length,
  }),
);
