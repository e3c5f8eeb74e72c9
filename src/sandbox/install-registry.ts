/**
 * Latest-release lookup (adapter of the `RegistryLookup` port). npm: the registry's `/<name>/latest`
 * document (the same answer as `npm view <pkg> version`, without starting npm), falling back to `npm view`;
 * PyPI: the JSON API. An unreachable registry answers null ("latest unknown"), never an error.
 * Answers are kept for an hour in `<cache>/latest-versions.json`, so repeated jobs do not ask again.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Ecosystem, RegistryLookup } from "../repro/ports.ts";
import { defaultCacheDir } from "./install.ts";

export interface RegistryLookupOptions {
  /** Limit of one lookup, in ms (default 5 s). */
  timeoutMs?: number;
  npm?: string;
  /** npm registry base (default $npm_config_registry or https://registry.npmjs.org). */
  npmRegistry?: string;
  /** PyPI JSON API base (default https://pypi.org/pypi). */
  pypiBase?: string;
  /** Cache directory; null disables the disk cache. */
  cacheDir?: string | null;
  /** How long a cached answer is trusted, in ms (default 1 h). */
  ttlMs?: number;
}

const NAME = /^(@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: "application/json" },
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

export function createRegistryLookup(options: RegistryLookupOptions = {}): RegistryLookup {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const cacheFile = cacheDir ? path.join(cacheDir, "latest-versions.json") : null;
  let disk: Record<string, { version: string; at: number }> = {};
  if (cacheFile) {
    try {
      disk = JSON.parse(readFileSync(cacheFile, "utf8")) as typeof disk;
    } catch {
      disk = {};
    }
  }
  const memo = new Map<string, Promise<string | null>>();
  const npmRegistry = (
    options.npmRegistry ??
    process.env.npm_config_registry ??
    "https://registry.npmjs.org"
  ).replace(/\/+$/, "");

  const npmView = (name: string) =>
    new Promise<string | null>((resolve) => {
      execFile(
        options.npm ?? "npm",
        ["view", name, "version", "--loglevel=error"],
        { timeout: timeoutMs * 3 },
        (error, stdout) => {
          const v = String(stdout).trim().split("\n").pop()?.trim() ?? "";
          resolve(!error && /^\d+\.\d+\.\d+/.test(v) ? v : null);
        },
      );
    });
  const npmLatest = async (name: string) => {
    try {
      const body = (await fetchJson(`${npmRegistry}/${name.replace("/", "%2f")}/latest`, timeoutMs)) as {
        version?: unknown;
      };
      if (typeof body.version === "string") return body.version;
    } catch {
      // fall through to the npm client, which knows proxies and auth from .npmrc
    }
    return npmView(name);
  };
  const pypiLatest = async (name: string) => {
    try {
      const body = (await fetchJson(
        `${options.pypiBase ?? "https://pypi.org/pypi"}/${encodeURIComponent(name)}/json`,
        timeoutMs,
      )) as {
        info?: { version?: unknown };
      };
      return typeof body.info?.version === "string" ? body.info.version : null;
    } catch {
      return null;
    }
  };
  const remember = async (key: string, version: string) => {
    if (!cacheFile) return;
    disk[key] = { version, at: Date.now() };
    try {
      await mkdir(path.dirname(cacheFile), { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(disk));
      await rename(tmp, cacheFile);
    } catch {
      // a cache that cannot be written only costs a lookup next time
    }
  };
  return {
    latestVersion(ecosystem: Ecosystem, name: string) {
      if (!NAME.test(name)) return Promise.resolve(null);
      const key = `${ecosystem}:${name}`;
      const cached = disk[key];
      if (cached && Date.now() - cached.at < ttlMs) return Promise.resolve(cached.version);
      let p = memo.get(key);
      if (!p) {
        p = (ecosystem === "npm" ? npmLatest(name) : pypiLatest(name)).then(async (v) => {
          if (v) await remember(key, v);
          return v;
        });
        memo.set(key, p);
      }
      return p;
    },
  };
}
