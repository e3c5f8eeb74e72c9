/**
 * `npm run bench -- installs [--runs N]`: install time of a mid-size lockfile (bench/data/installs: express,
 * mocha, typescript, yargs, chalk, lodash — 147 packages, generated with `npm install --package-lock-only` on
 * this machine) in the install container vs `npm ci --ignore-scripts` on the host, from the configured
 * registry (read from the operator's npm config, as installs do).
 *
 * - host cold: `npm ci` with an empty npm cache; host warm: the npm cache filled (`--prefer-offline`);
 * - host cache hit (before this change): Retrace's old repo-deps cache, one marker lookup, no verification;
 * - container cold: empty Retrace cache, every tarball through the egress proxy (the container's npm cache
 *   is throwaway, so this is also the cost of any Retrace cache miss);
 * - container warm: a Retrace cache hit — the entry's digest (every file's content) verified on read.
 *
 * Each is the median of `--runs` (default 3). The headline is container warm / host warm.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { InstallCache } from "../src/install/cache.ts";
import { DEFAULT_INSTALL_LIMITS } from "../src/install/container.ts";
import { REGISTRY_ONLY } from "../src/install/lockfile-policy.ts";
import { installNpmLockfile } from "../src/install/npm.ts";
import { hostRegistryConfig } from "../src/install/registry-config.ts";
import { connectDocker } from "../src/sandbox/engine.ts";

const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const data = path.resolve("bench/data/installs");
const packageJson = readFileSync(path.join(data, "package.json"), "utf8");
const lockfile = readFileSync(path.join(data, "package-lock.json"), "utf8");
const packages = Object.keys((JSON.parse(lockfile) as { packages: object }).packages).length - 1;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function hostNpmCi(dir: string, npmCache: string, preferOffline: boolean): Promise<number> {
  const t0 = Date.now();
  return new Promise((resolve, reject) =>
    execFile(
      "npm",
      [
        "ci",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `--cache=${npmCache}`,
        ...(preferOffline ? ["--prefer-offline"] : []),
      ],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
      (error, _out, stderr) => (error ? reject(new Error(stderr)) : resolve(Date.now() - t0)),
    ),
  );
}

const work = await mkdtemp(path.join(os.tmpdir(), "retrace-bench-installs-"));
try {
  const registry = await hostRegistryConfig();
  const docker = connectDocker();
  const rows: Record<string, number[]> = {
    hostCold: [],
    hostWarm: [],
    hostOldCacheHit: [],
    containerCold: [],
    containerWarm: [],
  };
  for (let i = 0; i < runs; i++) {
    // Host, cold then warm npm cache.
    const npmCache = path.join(work, `npm-cache-${i}`);
    const proj = path.join(work, `host-${i}`);
    await cp(data, proj, { recursive: true });
    rows.hostCold!.push(await hostNpmCi(proj, npmCache, false));
    await rm(path.join(proj, "node_modules"), { recursive: true, force: true });
    rows.hostWarm!.push(await hostNpmCi(proj, npmCache, true));
    let t0 = Date.now();
    existsSync(path.join(proj, "node_modules", ".package-lock.json"));
    rows.hostOldCacheHit!.push(Date.now() - t0);
    // Container, empty Retrace cache, then a hit.
    const ctx = {
      docker,
      registry,
      cache: new InstallCache({ root: path.join(work, `retrace-cache-${i}`) }),
      limits: DEFAULT_INSTALL_LIMITS,
      jobId: "bench-installs",
    };
    const input = { packageJson, lockfile, lockfileName: "package-lock.json", policy: REGISTRY_ONLY };
    t0 = Date.now();
    const cold = await installNpmLockfile(ctx, input);
    rows.containerCold!.push(Date.now() - t0);
    t0 = Date.now();
    const warm = await installNpmLockfile(ctx, input);
    rows.containerWarm!.push(Date.now() - t0);
    if (cold.cached || !warm.cached) throw new Error("cache did not behave: cold hit or warm miss");
    console.log(
      JSON.stringify({ run: i + 1, ...Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v[i]])) }),
    );
  }
  const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [`${k}Ms`, median(v)])) as Record<
    string,
    number
  >;
  console.log(
    JSON.stringify({
      bench: "installs",
      packages,
      registry: registry.npm,
      runs,
      ...m,
      coldRatio: Number((m.containerColdMs! / m.hostColdMs!).toFixed(2)),
      warmRatio: Number((m.containerWarmMs! / m.hostWarmMs!).toFixed(2)),
      loadAverage: os.loadavg().map((x) => Number(x.toFixed(1))),
    }),
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
