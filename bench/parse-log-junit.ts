/**
 * `npm run bench -- parse-log-junit [--n 10000,20000,40000,200000] [--runs 3] [--base DIR]`: the CPU that
 * `createLogParser()` (src/logs/engine.ts) spends on a JUnit XML report of N passing testcases and one failing one,
 * in Rust libtest's shape: the whole report on one line (`<testcase classname="tests" name="ok_7" time="0"/>`, fed
 * in chunks of 64 KiB), and the same report with one testcase per line. Each parse runs in a child process of its
 * own (its best of `--runs`, process CPU time around the parse only). `--base DIR` also parses with the engine of
 * another checkout (e.g. a detached worktree of main: `git worktree add --detach /tmp/base main`), so that old and
 * new are measured side by side in one run on the same machine. One JSON object per line (a parse's figures, its
 * counts and failures checked equal between the two engines); the last line is the headline.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const sizes = (arg("--n") ?? "10000,20000,40000,200000").split(",").map(Number);
const runs = Number(arg("--runs") ?? 3);
const base = arg("--base") ? path.resolve(arg("--base")!) : null;

const dir = mkdtempSync(path.join(tmpdir(), "retrace-bench-junit-"));
const driver = path.join(dir, "driver.mts");
// The child: builds the report, parses it with the engine of the given checkout, prints its CPU and its result.
writeFileSync(
  driver,
  `const [engine, nArg, shape] = process.argv.slice(2);
const { createLogParser } = await import(engine);
const n = Number(nArg);
const sep = shape === "lines" ? "\\n" : "";
const body = Array.from({ length: n }, (_, i) => '<testcase classname="tests" name="ok_' + i + '" time="0"/>').join(sep);
const failing = '<testcase classname="tests::inner" name="deep" time="0"><failure type="assert"/><system-out><![CDATA[thread \\'tests::inner::deep\\' (9051) panicked at src/lib.rs:7:37:]]>&#xA;<![CDATA[boom at depth]]></system-out></testcase>';
const xml = '<?xml version="1.0" encoding="UTF-8"?>' + sep + '<testsuites><testsuite name="test" package="test" id="0" errors="0" failures="1" tests="' + (n + 1) + '" skipped="0" >' + sep + body + sep + failing + sep + '</testsuite></testsuites>';
const t = process.cpuUsage();
const p = createLogParser();
for (let i = 0; i < xml.length; i += 65_536) p.write(xml.slice(i, i + 65_536));
const r = p.end();
const u = process.cpuUsage(t);
console.log(JSON.stringify({
  bytes: xml.length,
  cpuMs: Math.round((u.user + u.system) / 1000),
  result: { counts: r.counts, failures: r.failures.map((f) => [f.test, f.file, f.line, f.message]), kept: r.tests.length, dropped: r.dropped, stopped: r.stopped, tenth: r.tests[Math.floor(r.tests.length / 10)]?.id ?? null },
}));
`,
);

interface Parse {
  bytes: number;
  cpuMs: number;
  result: unknown;
}

function parse(checkout: string, n: number, shape: string): Parse {
  let best: Parse | null = null;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", driver, path.join(checkout, "src/logs/engine.ts"), String(n), shape],
      { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    if (r.status !== 0) throw new Error(`the parse of ${n} testcases failed: ${r.stderr}`);
    const p = JSON.parse(r.stdout.trim().split("\n").pop()!) as Parse;
    if (!best || p.cpuMs < best.cpuMs) best = p;
  }
  return best!;
}

const headline: Record<string, { bytes: number; newMs: number; baseMs?: number; speedup?: number }> = {};
let allSame = true;
for (const shape of ["one-line", "lines"]) {
  for (const n of sizes) {
    const now = parse(root, n, shape);
    const old = base ? parse(base, n, shape) : null;
    const same = old ? JSON.stringify(old.result) === JSON.stringify(now.result) : null;
    if (same === false) allSame = false;
    const row = {
      shape,
      testcases: n,
      bytes: now.bytes,
      cpuMs: now.cpuMs,
      mbPerS: Number((now.bytes / 1024 / 1024 / (now.cpuMs / 1000)).toFixed(1)),
      ...(old
        ? { baseCpuMs: old.cpuMs, speedup: Number((old.cpuMs / now.cpuMs).toFixed(1)), sameResult: same }
        : {}),
      result: now.result,
    };
    console.log(JSON.stringify(row));
    headline[`${shape}/${n}`] = {
      bytes: now.bytes,
      newMs: now.cpuMs,
      ...(old ? { baseMs: old.cpuMs, speedup: row.speedup } : {}),
    };
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    bench: "parse-log-junit",
    runs,
    base,
    ...(base ? { sameResults: allSame } : {}),
    load: loadavg()[0],
    cpuMs: headline,
  }),
);
if (!allSame) process.exitCode = 1;
