/**
 * `npm run bench -- parse-log-threads --log FILE --old DIR [--reps N]`: the CPU of the thread that parses, the
 * critical path of `retrace parse-log FILE --json` once a second thread reads the file (on a loaded 2-core machine
 * wall time is the run queue's, and process CPU counts both threads). Each run is a child process that imports a
 * build's main.js, runs the command with stdout to /dev/null, and reads its main thread's CPU from
 * /proc/self/task/<pid>/stat (10 ms ticks) and the process's from `process.cpuUsage()`. Old (DIR/main.js, e.g.
 * build/cli-old) and new (build/cli, rebuilt first) alternate; medians at the end.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const log = arg("--log");
const oldDir = arg("--old");
const reps = Number(arg("--reps") ?? 4);
if (!log || !oldDir || !existsSync(log)) {
  process.stderr.write("usage: npm run bench -- parse-log-threads --log FILE --old DIR [--reps N]\n");
  process.exit(2);
}
execFileSync(process.execPath, [path.join(root, "scripts/cli-build.mjs")], { cwd: root, stdio: "inherit" });
const builds = { old: path.resolve(oldDir, "main.js"), new: path.join(root, "build/cli/main.js") };
const runner = path.join(tmpdir(), "retrace-parse-log-threads-runner.mjs");
writeFileSync(
  runner,
  `import { readFileSync, openSync } from "node:fs";
const { main } = await import(process.argv[2]);
const out = openSync("/dev/null", "w");
const write = (chunk, ...a) => { writeSync(out, String(chunk)); const cb = a.find((x) => typeof x === "function"); if (cb) cb(); return true; };
import { writeSync } from "node:fs";
process.stdout.write = write;
const t0 = performance.now();
const code = await main(["parse-log", process.argv[3], "--json"]);
const wallMs = performance.now() - t0;
const stat = readFileSync("/proc/self/task/" + process.pid + "/stat", "utf8");
const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
const c = process.cpuUsage();
process.stderr.write(JSON.stringify({ code, wallMs: Math.round(wallMs), mainThreadCpuMs: (Number(f[11]) + Number(f[12])) * 10, processCpuMs: Math.round((c.user + c.system) / 1000) }) + "\\n");
`,
);

interface Run {
  build: "old" | "new";
  wallMs: number;
  mainThreadCpuMs: number;
  processCpuMs: number;
}
const runs: Run[] = [];
for (let i = 0; i < reps; i++) {
  for (const build of i % 2 === 0 ? (["old", "new"] as const) : (["new", "old"] as const)) {
    const r = spawnSync(process.execPath, [runner, builds[build], log], { cwd: root, encoding: "utf8" });
    const m = JSON.parse(r.stderr.trim().split("\n").pop()!);
    if (r.status !== 0 || m.code !== 0) throw new Error(`${build} failed: ${r.stderr.slice(-2000)}`);
    const run = { build, wallMs: m.wallMs, mainThreadCpuMs: m.mainThreadCpuMs, processCpuMs: m.processCpuMs };
    runs.push(run);
    console.log(JSON.stringify({ step: "run", ...run, loadAverage1m: Math.round(loadavg()[0]! * 10) / 10 }));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sum = (b: "old" | "new") => {
  const of = runs.filter((r) => r.build === b);
  return {
    wallMs: median(of.map((r) => r.wallMs)),
    mainThreadCpuMs: median(of.map((r) => r.mainThreadCpuMs)),
    processCpuMs: median(of.map((r) => r.processCpuMs)),
  };
};
console.log(
  JSON.stringify({
    bench: "parse-log-threads",
    log: path.basename(log),
    reps,
    old: sum("old"),
    new: sum("new"),
    loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
    cpus: cpus().length,
  }),
);
