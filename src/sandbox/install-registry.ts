/**
 * Latest-release lookup (adapter of the `RegistryLookup` port): `npm view <pkg> version` for npm, the PyPI JSON
 * API for Python. An unreachable registry answers null ("latest unknown"), never an error.
 */
import { execFile } from "node:child_process";
import type { Ecosystem, RegistryLookup } from "../repro/ports.ts";

export interface RegistryLookupOptions {
  /** Limit of one lookup, in ms (default 15 s for npm, 4 s for PyPI). */
  timeoutMs?: number;
  npm?: string;
  /** PyPI JSON API base (default https://pypi.org/pypi). */
  pypiBase?: string;
}

const NAME = /^(@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;

export function createRegistryLookup(options: RegistryLookupOptions = {}): RegistryLookup {
  const memo = new Map<string, Promise<string | null>>();
  const npmLatest = (name: string) =>
    new Promise<string | null>((resolve) => {
      execFile(
        options.npm ?? "npm",
        ["view", name, "version", "--loglevel=error"],
        { timeout: options.timeoutMs ?? 15_000 },
        (error, stdout) => {
          const v = String(stdout).trim().split("\n").pop()?.trim() ?? "";
          resolve(!error && /^\d+\.\d+\.\d+/.test(v) ? v : null);
        },
      );
    });
  const pypiLatest = async (name: string) => {
    try {
      const res = await fetch(
        `${options.pypiBase ?? "https://pypi.org/pypi"}/${encodeURIComponent(name)}/json`,
        {
          signal: AbortSignal.timeout(options.timeoutMs ?? 4_000),
        },
      );
      if (!res.ok) return null;
      const body = (await res.json()) as { info?: { version?: unknown } };
      return typeof body.info?.version === "string" ? body.info.version : null;
    } catch {
      return null;
    }
  };
  return {
    latestVersion(ecosystem: Ecosystem, name: string) {
      if (!NAME.test(name)) return Promise.resolve(null);
      const key = `${ecosystem}:${name}`;
      let p = memo.get(key);
      if (!p) {
        p = ecosystem === "npm" ? npmLatest(name) : pypiLatest(name);
        memo.set(key, p);
      }
      return p;
    },
  };
}
