/**
 * `npm run bench -- path-mapper [--module PATH] [--label NAME]`: the time `createPathMapper` takes on one line
 * shaped to make its checkout patterns backtrack (a path of 8,000 one-character segments before or without a
 * checkout anchor, anchors repeated along one path), at 2,000 and 8,000 repetitions: a linear mapper takes about
 * 4x as long on the longer line, a quadratic one about 16x. `--module` loads another copy of normalize.ts (e.g.
 * main's, /work/main/src/logs/normalize.ts) for a before/after pair. One JSON line per input, then a headline
 * with the worst ratio. `--corpus`: instead, the time to map every line of test/fixtures/logs-real's logs (hold23-* left
 * out), 50 passes, the least CPU time of 5: the cost on ordinary lines.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const modulePath = path.resolve(arg("--module") ?? path.join(root, "src/logs/normalize.ts"));
const label = arg("--label") ?? path.relative(root, modulePath);
const { createPathMapper } = (await import(pathToFileURL(modulePath).href)) as {
  createPathMapper: (o?: { repoName?: string }) => (s: string) => string;
};

if (process.argv.includes("--corpus")) {
  const { readdirSync, readFileSync } = await import("node:fs");
  const dir = path.join(root, "test/fixtures/logs-real");
  const lines: string[] = [];
  for (const c of readdirSync(dir)) {
    if (c.startsWith("hold23-")) continue;
    for (const f of ["log.txt", "log.xml"])
      try {
        lines.push(...readFileSync(path.join(dir, c, f), "utf8").split("\n"));
      } catch {}
  }
  const map = createPathMapper();
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 5; r++) {
    const t0 = process.cpuUsage();
    for (let p = 0; p < 50; p++) for (const l of lines) map(l);
    const used = process.cpuUsage(t0);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  process.stdout.write(
    `${JSON.stringify({ label, corpusLines: lines.length, passes: 50, bestCpuMs: Math.round(best) })}\n`,
  );
  process.exit(0);
}

const shapes: [string, (n: number) => string, { repoName?: string }][] = [
  ["slash-bang then _work checkout", (n) => `${"/!".repeat(n)}/_work/r/r/a.js`, {}],
  ["slash-bang then bare _work", (n) => `${"/!".repeat(n)}/_work/`, {}],
  ["slash-bang then BUILD", (n) => `${"/!".repeat(n)}/BUILD/`, {}],
  ["slash-bang then work-py", (n) => `${"/!".repeat(n)}/work-py39/x`, {}],
  ["_work anchors along one path", (n) => `/!${"/_work/!".repeat(n)}`, {}],
  ["BUILD segment of dashes", (n) => `/x/BUILD/${"a-1".repeat(n)}`, {}],
  ["GitLab builds repeated, repoName", (n) => `${"/builds/!".repeat(n)}`, { repoName: "acme/calc" }],
  ["slash-bang, no anchor", (n) => "/!".repeat(n), {}],
];

function timeOf(map: (s: string) => string, line: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    map(line);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

let worst = 0;
const out: Record<string, number> = {};
for (const [name, make, options] of shapes) {
  const map = createPathMapper(options);
  const small = timeOf(map, make(2_000));
  const big = timeOf(map, make(8_000));
  const ratio = big / Math.max(small, 0.01);
  worst = Math.max(worst, ratio);
  out[name] = Math.round(big * 100) / 100;
  process.stdout.write(
    `${JSON.stringify({ label, shape: name, ms2000: Math.round(small * 100) / 100, ms8000: Math.round(big * 100) / 100, ratio: Math.round(ratio * 10) / 10 })}\n`,
  );
}
process.stdout.write(
  `${JSON.stringify({ label, worstRatio8000to2000: Math.round(worst * 10) / 10, ms8000: out })}\n`,
);
