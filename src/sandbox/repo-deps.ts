/**
 * The host-side installer of a repository's own JS dependencies (adapter of the fix pipeline's
 * `DependencyProvider` port): `npm ci --ignore-scripts` from the repository's npm lockfile, in a directory of
 * Retrace's cache — never in the caller's checkout — whose `node_modules` is then copied into each offline
 * sandbox run next to the repository copy.
 *
 * Installs are cached by a hash of package.json + the lockfile under `<cache>/repo-deps/<hash>/node_modules`
 * (`<cache>` = $RETRACE_CACHE_DIR or ~/.cache/retrace), so a second verification of the same base is a lookup.
 * npm sees only the allow-listed environment of src/sandbox/install.ts (no host secrets) and no install script
 * runs. Without an npm lockfile nothing is installed: the versions would float.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { InfrastructureError } from "../core/errors.ts";
import { type DependencyProvider, isNpmLockfile, type JsDependencies } from "../fix/dependencies.ts";
import type { Workspace } from "../git/types.ts";
import { defaultCacheDir, installerEnv, installFailureReason } from "./install.ts";
import type { ExtraDir } from "./types.ts";

export interface RepoDepsOptions {
  /** Cache root (default: $RETRACE_CACHE_DIR or ~/.cache/retrace); installs go under `repo-deps/`. */
  cacheDir?: string;
  /** Limit of one `npm ci`, in ms (default 300 s). */
  timeoutMs?: number;
  /** npm executable (default "npm"). */
  npm?: string;
  /** The environment the allow-list is taken from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** More variable names to pass to npm (a private registry's settings the allow-list does not cover). */
  passEnv?: string[];
  signal?: AbortSignal;
  /** Progress lines ("installing … from package-lock.json", "cached"). */
  log?: (line: string) => void;
}

const MARKER = ".retrace-repo-deps.json";

/** The cache key: package.json and the lockfile, byte for byte. */
export function repoDepsHash(packageJson: string, lockfile: string, lockfileName: string): string {
  return createHash("sha256")
    .update(JSON.stringify({ packageJson, lockfileName, lockfile }))
    .digest("hex")
    .slice(0, 24);
}

function npmCi(
  npm: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ ok: boolean; output: string; timedOut: boolean; spawnError: NodeJS.ErrnoException | null }> {
  return new Promise((resolve) => {
    execFile(
      npm,
      ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
      { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, ...(signal ? { signal } : {}) },
      (error, stdout, stderr) => {
        const e = error as (NodeJS.ErrnoException & { killed?: boolean }) | null;
        resolve({
          ok: error === null,
          output: `${String(stdout)}\n${String(stderr)}`.trim(),
          timedOut: e !== null && e.killed === true && !signal?.aborted,
          spawnError: e !== null && typeof e.code === "string" ? e : null,
        });
      },
    );
  });
}

/**
 * Installs the checkout's JS dependencies from its npm lockfile into the cache (once per package.json +
 * lockfile) and returns the directory to copy into the sandbox: `{ hostDir, paths: ["node_modules"] }`.
 * Throws InfrastructureError when npm fails (with npm's reason) or the lockfile is not npm's.
 */
export async function installRepoDependencies(
  workspace: Workspace,
  js: JsDependencies,
  options: RepoDepsOptions = {},
): Promise<ExtraDir[]> {
  if (js.lockfile === null || !isNpmLockfile(js.lockfile)) {
    throw new InfrastructureError(
      `cannot install the repository's dependencies: ${js.lockfile === null ? "no lockfile" : `${js.lockfile} is not npm's`}`,
      "install them in the repository before Retrace, or commit a package-lock.json",
    );
  }
  const packageJson = await workspace.readFile("package.json");
  const lockfile = await workspace.readFile(js.lockfile);
  const hash = repoDepsHash(packageJson, lockfile, js.lockfile);
  const root = path.join(options.cacheDir ?? defaultCacheDir(), "repo-deps");
  const finalDir = path.join(root, hash);
  const result: ExtraDir[] = [{ hostDir: finalDir, paths: ["node_modules"] }];
  if (existsSync(path.join(finalDir, MARKER))) {
    options.log?.(`dependencies: ${js.declared.length} declared, cached install ${finalDir}`);
    return result;
  }
  options.log?.(
    `dependencies: npm ci --ignore-scripts from ${js.lockfile} (${js.missing.length} missing in the checkout)`,
  );
  await mkdir(root, { recursive: true });
  const tmp = `${finalDir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  await mkdir(tmp, { recursive: true });
  try {
    await writeFile(path.join(tmp, "package.json"), packageJson);
    await writeFile(path.join(tmp, js.lockfile), lockfile);
    const started = Date.now();
    const env = installerEnv(options.env ?? process.env, options.passEnv);
    const timeoutMs = options.timeoutMs ?? 300_000;
    const r = await npmCi(options.npm ?? "npm", tmp, env, timeoutMs, options.signal);
    if (!r.ok) {
      if (r.spawnError?.code === "ENOENT") {
        throw new InfrastructureError(
          `cannot install the repository's dependencies: ${options.npm ?? "npm"} was not found on this host`,
          "install Node.js and npm on the host that runs Retrace, or run `npm ci --ignore-scripts` in the repository first",
        );
      }
      const why = r.timedOut
        ? `timed out after ${Math.round(timeoutMs / 1000)} s`
        : installFailureReason(r.output, "npm");
      throw new InfrastructureError(
        `npm ci --ignore-scripts from ${js.lockfile} failed: ${why}`,
        "check that package-lock.json is in sync with package.json (`npm install --package-lock-only`) and that the registry is reachable, or run `npm ci --ignore-scripts` in the repository before Retrace",
      );
    }
    await writeFile(
      path.join(tmp, MARKER),
      JSON.stringify({ lockfile: js.lockfile, declared: js.declared, durationMs: Date.now() - started }),
    );
    try {
      await rename(tmp, finalDir);
    } catch (error) {
      // Another job installed the same package.json + lockfile meanwhile: theirs is as good as ours.
      if (!existsSync(path.join(finalDir, MARKER))) throw error;
    }
    return result;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The `DependencyProvider` of this host: `npm ci --ignore-scripts` into Retrace's cache. */
export function createRepoDependencyProvider(options: RepoDepsOptions = {}): DependencyProvider {
  return (workspace, js) => installRepoDependencies(workspace, js, options);
}
