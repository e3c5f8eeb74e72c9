/**
 * `npm run bench -- sandbox`
 * 1. Start-up overhead: 20 alternating pairs of the driver running `true` vs raw `docker run --rm --network none`
 *    with the same image. Medians and their ratio (goal: ratio <= 1.25, driver median <= 400 ms).
 * 2. A 20k-file tree copied in and back out: the driver's tar stream into a tmpfs workspace vs a bind mount of a
 *    per-job host copy made with `cp -a` (the alternative the design rejected: a bind mount has no size cap, so a disk fill reaches
 *    the host disk).
 * Prints one JSON object per line; the last line holds the headline figures.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createDockerSandbox } from "../src/sandbox/docker.ts";

const exec = promisify(execFile);
const pairs = Number(process.env.PAIRS ?? 20);
const files = Number(process.env.FILES ?? 20_000);
const sandbox = createDockerSandbox();
const image = sandbox.image;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
const round = (x: number) => Math.round(x * 10) / 10;

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

// The driver must really run the command: a run that fails fast (missing image, refused limits) would look
// like a fast start-up. Every timed run is checked, and the bench fails instead of printing a figure.
const driverRun = async () => {
  const r = await sandbox.run({ jobId: "bench-true", command: ["true"] });
  if (r.exitCode !== 0 || r.stoppedBy !== null) {
    process.stderr.write(
      `sandbox bench: \`true\` exited ${r.exitCode} (${r.stoppedBy ?? "not stopped"}): not a start-up time\n`,
    );
    process.exit(1);
  }
};
const rawRun = () => exec("docker", ["run", "--rm", "--network", "none", image, "true"]);

// Warm both paths once (image layers, engine caches).
await driverRun();
await rawRun();

const driver: number[] = [];
const raw: number[] = [];
for (let i = 0; i < pairs; i++) {
  // Alternate which goes first so drift on a noisy machine hits both equally.
  if (i % 2 === 0) {
    driver.push(await timeIt(driverRun));
    raw.push(await timeIt(rawRun));
  } else {
    raw.push(await timeIt(rawRun));
    driver.push(await timeIt(driverRun));
  }
}
const startup = {
  bench: "sandbox.startup",
  pairs,
  driverMedianMs: round(median(driver)),
  rawDockerRunMedianMs: round(median(raw)),
  ratio: Math.round((median(driver) / median(raw)) * 100) / 100,
};
console.log(JSON.stringify(startup));

// A 20k-file tree: 200 directories of 100 small files.
const tree = await mkdtemp(path.join(os.tmpdir(), "retrace-bench-tree-"));
for (let d = 0; d < files / 100; d++) {
  const dir = path.join(tree, `pkg${d}`);
  await mkdir(dir);
  await Promise.all(
    Array.from({ length: 100 }, (_, f) =>
      writeFile(path.join(dir, `f${f}.js`), `module.exports = ${d * 100 + f};\n`),
    ),
  );
}

// Three of each, alternating, medians: the copy in alone, and the copy in plus the whole tree collected back.
const inOnly: number[] = [];
const roundTrip: number[] = [];
let tarOutFiles = 0;
for (let i = 0; i < 3; i++) {
  inOnly.push(
    await timeIt(() =>
      sandbox.run({
        jobId: "bench-tree",
        command: ["true"],
        input: { dir: tree },
        limits: { timeoutMs: 120_000 },
      }),
    ),
  );
  roundTrip.push(
    await timeIt(async () => {
      const r = await sandbox.run({
        jobId: "bench-tree",
        command: ["true"],
        input: { dir: tree },
        collect: ["."],
        limits: { timeoutMs: 120_000 },
      });
      tarOutFiles = Object.keys(r.files).length;
    }),
  );
}
if (tarOutFiles < files) {
  process.stderr.write(
    `sandbox bench: ${tarOutFiles} of ${files} files came back out: the copy measured is not the tree\n`,
  );
  process.exit(1);
}
const baseline = median(driver);
const tarIn = median(inOnly);
const tarRoundTrip = median(roundTrip);

const jobDir = path.join(os.tmpdir(), `retrace-bench-bind-${process.pid}`);
const outDir = `${jobDir}-out`;
// `cp -a`, the fastest way to make the per-job host copy a bind mount would need.
const bindIn = await timeIt(() => exec("cp", ["-a", tree, jobDir]));
await exec("chown", ["-R", "10001:10001", jobDir]).catch(() => undefined);
const bindRun = await timeIt(() =>
  exec("docker", ["run", "--rm", "--network", "none", "-v", `${jobDir}:/workspace`, image, "true"]),
);
const bindOut = await timeIt(() => exec("cp", ["-a", jobDir, outDir]));
await Promise.all([tree, jobDir, outDir].map((d) => rm(d, { recursive: true, force: true })));

const copy = {
  bench: "sandbox.copy20k",
  files,
  tarStreamInMs: round(tarIn - baseline),
  tarStreamInAndOutMs: round(tarRoundTrip - baseline),
  tarStreamOutMs: round(tarRoundTrip - tarIn),
  filesCollected: tarOutFiles,
  bindCopyInMs: round(bindIn),
  bindCopyOutMs: round(bindOut),
  bindRunMs: round(bindRun),
};
console.log(JSON.stringify(copy));
console.log(
  JSON.stringify({
    bench: "sandbox",
    driverMedianMs: startup.driverMedianMs,
    rawDockerRunMedianMs: startup.rawDockerRunMedianMs,
    ratio: startup.ratio,
    goalRatio: 1.25,
    goalDriverMedianMs: 400,
    copy20kInMs: copy.tarStreamInMs,
    copy20kOutMs: copy.tarStreamOutMs,
    bindCopy20kInMs: copy.bindCopyInMs,
    bindCopy20kOutMs: copy.bindCopyOutMs,
  }),
);
