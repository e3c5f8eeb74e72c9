/**
 * Reproduction benchmark: runs every report of test/fixtures/repro-corpus offline through the real pipeline
 * (Docker sandbox, host installer, registry lookup) and prints one JSON line per report, then the headline:
 * verdict accuracy and median end-to-end times (all, simple Python, JS with one cached npm dependency).
 *
 *   npm run bench -- repro            (or: npx tsx bench/repro.ts [--runs N] [--only substring])
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ReproJobSpec } from "../src/core/job.ts";
import { runRepro } from "../src/repro/run-repro.ts";
import { createLocalReproPorts } from "../src/jobs/local-repro.ts";

const corpusDir = path.join(import.meta.dirname, "..", "test", "fixtures", "repro-corpus");
const manifest = JSON.parse(readFileSync(path.join(corpusDir, "manifest.json"), "utf8")) as Record<
  string,
  string
>;
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] ?? 3) || 3;
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const files = readdirSync(corpusDir)
  .filter((f) => f.endsWith(".md") && (!only || f.includes(only)))
  .sort();

const ports = createLocalReproPorts({ runTimeoutMs: 4_000 });
const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Row {
  file: string;
  expected: string;
  verdict: string;
  ok: boolean;
  ms: number;
  language: string;
  deps: number;
}
const rows: Row[] = [];
// Warm pass over npm cases is not separated: the installer caches by manifest, and the timing rows say "cached".
for (const file of files) {
  const markdown = readFileSync(path.join(corpusDir, file), "utf8");
  const spec = ReproJobSpec.parse({ kind: "repro", id: `bench-${file.replace(/\W/g, "-")}`, markdown, runs });
  const t0 = performance.now();
  const { result, events } = await runRepro(spec, ports);
  const ms = Math.round(performance.now() - t0);
  const expected = manifest[file] ?? "?";
  const cached = events.filter((e) => e.step === "install").every((e) => e.summary.includes("(cached)"));
  const row: Row = {
    file,
    expected,
    verdict: result.verdict,
    ok: result.verdict === expected,
    ms,
    language: result.language,
    deps: result.versions.length,
  };
  rows.push(row);
  console.log(JSON.stringify({ ...row, cached, summary: result.summary.slice(0, 160) }));
}

// A second, timed pass over the two headline shapes: simple Python (no deps) and JS with one cached npm dep.
async function timed(file: string, times: number): Promise<number[]> {
  const markdown = readFileSync(path.join(corpusDir, file), "utf8");
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const spec = ReproJobSpec.parse({ kind: "repro", id: `bench-t-${i}`, markdown, runs });
    const t0 = performance.now();
    await runRepro(spec, ports);
    out.push(Math.round(performance.now() - t0));
  }
  return out;
}
const pyTimes = only ? [] : await timed("py-strptime-traceback.md", 5);
const jsTimes = only ? [] : await timed("js-ms-week.md", 5);
const correct = rows.filter((r) => r.ok).length;
console.log(
  JSON.stringify({
    bench: "repro",
    reports: rows.length,
    correct,
    accuracy: rows.length ? Number((correct / rows.length).toFixed(3)) : null,
    wrong: rows.filter((r) => !r.ok).map((r) => `${r.file}: expected ${r.expected}, got ${r.verdict}`),
    runsPerReport: runs,
    medianMsAll: median(rows.map((r) => r.ms)),
    medianMsSimplePython: median(pyTimes),
    medianMsJsOneCachedNpmDep: median(jsTimes),
    pythonTimesMs: pyTimes,
    jsTimesMs: jsTimes,
  }),
);
