/**
 * Latest-release lookup (adapter of the `RegistryLookup` port), against the configured registries only
 * (`registry-config.ts`): npm's abbreviated packument `dist-tags.latest` from the configured npm registry; for
 * Python, the newest stable wheel version on the configured simple indexes (http(s) or a local `file://`
 * mirror) and find-links directories. No npm or pip process is started: a look-up is one bounded HTTP request
 * (time and bytes) or one directory read, at most `concurrency` at a time however many names a report has.
 * An unreachable registry answers null ("latest unknown"), never an error; `latestRelease` tells that apart from
 * a registry that answered it has no such package (404 / 410, no release). Answers are kept for an hour in
 * `<cache>/latest-versions.json`, keyed by the registry too. Given the sandbox's Node version, the npm answer is
 * the newest release whose `engines.node` admits it (`npmReleaseFor`).
 */
import { hostLimits } from "../core/host-limits.ts";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import type { Ecosystem, LatestRelease, RegistryLookup, ReleaseQuery } from "../repro/ports.ts";
import { defaultCacheDir } from "./cache.ts";
import { hostRegistryConfig, npmRegistryFor, type RegistryConfig, registryKey } from "./registry-config.ts";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private-state.ts";

export interface RegistryLookupOptions {
  /** Limit of one lookup, in ms (default 5 s). */
  timeoutMs?: number;
  /** The registries (default: the operator's, `hostRegistryConfig()`). */
  registryConfig?: RegistryConfig | Promise<RegistryConfig>;
  /** Cache directory; null disables the disk cache. */
  cacheDir?: string | null;
  /** How long a cached answer is trusted, in ms (default 1 h). */
  ttlMs?: number;
  /** Most look-ups in flight at once (default 4). */
  concurrency?: number;
  /** Largest response read, in bytes (default 16 MiB). */
  maxBytes?: number;
}

const NAME = /^(@[a-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;

/** A counting semaphore: `run` waits for a free slot. */
export function limiter(max: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (fn) => {
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** A registry's answer other than 2xx: its status is what tells "no such package" from "could not answer". */
class HttpStatusError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** The registry answered that it has no such package (404 Not Found, 410 Gone); 5xx, 401/403, 3xx are not that. */
function saysNoSuchPackage(error: unknown): boolean {
  return error instanceof HttpStatusError && (error.status === 404 || error.status === 410);
}

async function fetchCapped(
  url: string,
  timeoutMs: number,
  maxBytes: number,
  accept: string,
  authorization: string | null = null,
): Promise<string> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept, ...(authorization ? { authorization } : {}) },
    // With the operator's credentials no redirect is followed (a 3xx is a failed look-up): they go to the
    // registry they were configured for and nowhere else.
    redirect: authorization ? "manual" : "follow",
  });
  if (!res.ok || !res.body) throw new HttpStatusError(res.status);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > maxBytes) throw new Error(`response larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** PEP 503 normalized name. */
export function normalizePypi(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** Stable release versions of `name`'s wheels among file names or hrefs. */
export function wheelVersions(names: readonly string[], project: string): string[] {
  const out: string[] = [];
  const want = normalizePypi(project);
  for (const n of names) {
    const file = decodeURIComponent(n.split("#")[0]!.split("/").pop() ?? "");
    const m = /^([^-]+)-([^-]+)-(?:\d[^-]*-)?[^-]+-[^-]+-[^-]+\.whl$/.exec(file);
    if (!m || normalizePypi(m[1]!) !== want) continue;
    // Final releases, post-releases included (`2.9.0.post0` is python-dateutil's newest); never a pre- or
    // dev release.
    if (/^\d+(\.\d+)*(?:\.post\d+)?$/.test(m[2]!)) out.push(m[2]!);
  }
  return out;
}

export function newestVersion(versions: readonly string[]): string | null {
  let best: number[] | null = null;
  let bestText: string | null = null;
  for (const v of versions) {
    // `2.9.0.post1` sorts after `2.9.0` and before `2.9.1`: the post number is one more component, below the
    // release's own ones (`2.9.0` → [2, 9, 0, -1], `2.9.0.post1` → [2, 9, 0, 1]).
    const post = /\.post(\d+)$/.exec(v);
    const release = v
      .replace(/\.post\d+$/, "")
      .split(".")
      .map(Number);
    const parts = [
      ...release,
      ...Array(Math.max(0, 4 - release.length)).fill(0),
      post ? Number(post[1]) : -1,
    ];
    let cmp = 0;
    if (best) {
      for (let i = 0; i < Math.max(parts.length, best.length) && cmp === 0; i++)
        cmp = (parts[i] ?? 0) - (best[i] ?? 0);
    }
    if (!best || cmp > 0) {
      best = parts;
      bestText = v;
    }
  }
  return bestText;
}

/** The abbreviated npm packument, as far as the choice of a release reads it. */
export interface NpmPackument {
  "dist-tags"?: { latest?: unknown };
  versions?: Record<string, { engines?: { node?: unknown } | unknown; deprecated?: unknown } | undefined>;
}

/** Whether a release's `engines.node` admits `node` (no or an unreadable range: it does, as npm treats it). */
function runsOnNode(manifest: { engines?: { node?: unknown } | unknown } | undefined, node: string): boolean {
  const range = (manifest?.engines as { node?: unknown } | undefined)?.node;
  if (typeof range !== "string" || range.trim() === "" || !semver.validRange(range)) return true;
  return semver.satisfies(node, range, { includePrerelease: true });
}

/** True for an exact semver version in its canonical spelling (`semver.valid` alone trims and drops a `v`). */
function exactSemver(v: unknown): v is string {
  return typeof v === "string" && semver.valid(v) === v;
}

/**
 * The release a report without a version is run on: `dist-tags.latest`, unless the sandbox's Node is outside
 * its `engines.node` (commander 15 and chalk 6 need Node >= 22); then the newest stable, non-deprecated
 * release below it that declares support for that Node, which is what anyone reproducing the report on this
 * runtime would install. Null when the packument names no usable latest.
 */
export function npmReleaseFor(
  body: NpmPackument,
  node: string | null,
  within: string | null = null,
): string | null {
  const latest = body["dist-tags"]?.latest;
  // Only an exact version, spelled as semver spells it: a registry's answer is installed as written, and a
  // prefix match took `1.2.3 || file:../..` or `9.9.9\n--registry=…` for one.
  if (!exactSemver(latest)) return null;
  const versions = body.versions ?? {};
  const range = within ? semver.validRange(within.replace(/^v/, "")) : null;
  if (within && !range) return null;
  const inRange = (v: string) => !range || semver.satisfies(v, range);
  const runs = (v: string) => !node || !semver.valid(node) || runsOnNode(versions[v], node);
  if (inRange(latest) && runs(latest)) return latest;
  // The newest stable release in the named line (and below the latest) that runs here, else the newest in it.
  let best: string | null = null;
  let bestAnywhere: string | null = null;
  for (const [v, manifest] of Object.entries(versions)) {
    if (!exactSemver(v) || semver.prerelease(v) || semver.gt(v, latest) || !inRange(v)) continue;
    if (manifest?.deprecated) continue;
    if (!bestAnywhere || semver.gt(v, bestAnywhere)) bestAnywhere = v;
    if (runs(v) && (!best || semver.gt(v, best))) best = v;
  }
  return best ?? (range ? bestAnywhere : latest);
}

/** Most answers the disk cache keeps (the newest); with the TTL, what bounds the file every look-up rewrites. */
export const MAX_CACHED_ANSWERS = 1_000;

/** How far ahead of now an answer's time may be (clocks of one host disagree by less). */
const CLOCK_SKEW_MS = 60_000;

/**
 * Whether an answer written at `at` is still within the TTL. One dated ahead of now was written while the clock was
 * wrong (set ahead, then corrected): it is not fresh, or it would be served, and kept as the newest, for as long as
 * the clock was ahead (a year ahead: a year; wave 18).
 */
export function isFresh(at: number, now: number, ttlMs: number): boolean {
  return at <= now + CLOCK_SKEW_MS && now - at < ttlMs;
}

/**
 * The cache's entries still within the TTL, the newest `keep` of them, and only well-formed ones.
 * The file is every job's and was never pruned: a week of reports left 20,000 stale entries, and each look-up
 * rewrote the whole file (one report of 200 names on 60,000 entries: 9 s of host CPU; wave 17).
 */
export function freshEntries(
  disk: unknown,
  ttlMs: number,
  now: number,
  keep = MAX_CACHED_ANSWERS,
): Record<string, { version: string; at: number }> {
  if (disk === null || typeof disk !== "object" || Array.isArray(disk)) return {};
  const fresh = Object.entries(disk as Record<string, unknown>).filter(
    (e): e is [string, { version: string; at: number }] => {
      const v = e[1] as { version?: unknown; at?: unknown } | null;
      return (
        typeof v?.version === "string" &&
        typeof v.at === "number" &&
        Number.isFinite(v.at) &&
        isFresh(v.at, now, ttlMs)
      );
    },
  );
  fresh.sort((a, b) => b[1].at - a[1].at);
  return Object.fromEntries(fresh.slice(0, keep));
}

export function createRegistryLookup(options: RegistryLookupOptions = {}): RegistryLookup {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  // Look-ups in flight at once: the operator's (RETRACE_HOST_LIMITS lookupConcurrency, 4 by default).
  const slot = limiter(options.concurrency ?? hostLimits().lookupConcurrency);
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir() : options.cacheDir;
  const cacheFile = cacheDir ? path.join(cacheDir, "latest-versions.json") : null;
  let configP: Promise<RegistryConfig> | undefined;
  const config = () => {
    configP ??= Promise.resolve(options.registryConfig ?? hostRegistryConfig());
    return configP;
  };
  let disk: Record<string, { version: string; at: number }> = {};
  if (cacheFile) {
    try {
      disk = freshEntries(JSON.parse(readFileSync(cacheFile, "utf8")), ttlMs, Date.now());
    } catch {
      disk = {};
    }
  }
  const memo = new Map<string, Promise<LatestRelease>>();
  const unknown: LatestRelease = { kind: "unknown" };
  const missing: LatestRelease = { kind: "missing" };
  const release = (version: string | null): LatestRelease =>
    version ? { kind: "release", version } : unknown;

  const npmLatest = async (
    c: RegistryConfig,
    name: string,
    node: string | null,
    within: string | null,
  ): Promise<LatestRelease> => {
    try {
      const url = `${npmRegistryFor(c, name)}${name.replace("/", "%2f")}`;
      const body = JSON.parse(
        await fetchCapped(
          url,
          timeoutMs,
          maxBytes,
          "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8",
          c.npmAuth?.authorizationFor(url) ?? null,
        ),
      ) as NpmPackument;
      // A packument without any release and no latest tag (an unpublished name): the registry has no such package.
      if (
        body &&
        typeof body === "object" &&
        body["dist-tags"]?.latest === undefined &&
        Object.keys(body.versions ?? {}).length === 0
      )
        return missing;
      return release(npmReleaseFor(body, node, within));
    } catch (error) {
      return saysNoSuchPackage(error) ? missing : unknown;
    }
  };
  const pypiLatest = async (c: RegistryConfig, name: string): Promise<LatestRelease> => {
    const project = normalizePypi(name);
    const found: string[] = [];
    // Whether every index answered "no such project" (no page for it): only then is the package missing. A local
    // mirror (`file://`) with no page while every other index failed otherwise: not on the mirror (`unmirrored`).
    let allMissing = true;
    let mirrorSaysNone = false;
    let pageFound = false;
    for (const index of [c.pip.indexUrl, ...c.pip.extraIndexUrls]) {
      try {
        if (index.startsWith("file://")) {
          const html = await readFile(path.join(new URL(index).pathname, project, "index.html"), "utf8");
          found.push(
            ...wheelVersions(
              [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!),
              name,
            ),
          );
        } else if (/^https?:\/\//.test(index)) {
          const url = `${index.replace(/\/+$/, "")}/${project}/`;
          const html = await fetchCapped(
            url,
            timeoutMs,
            maxBytes,
            "text/html",
            c.pipAuth?.authorizationFor(url) ?? null,
          );
          found.push(
            ...wheelVersions(
              [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!),
              name,
            ),
          );
        } else {
          allMissing = false; // an index this look-up cannot read: it said nothing
          continue;
        }
      } catch (error) {
        // this index does not have it (no page for the project), or cannot be reached
        const noPage = saysNoSuchPackage(error) || (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
        if (!noPage) allMissing = false;
        else if (index.startsWith("file://")) mirrorSaysNone = true;
        continue;
      }
      allMissing = false; // a page for the project: it is there, whatever releases it lists
      pageFound = true;
    }
    for (const link of c.pip.findLinks) {
      if (!path.isAbsolute(link)) continue;
      found.push(...wheelVersions(await readdir(link).catch(() => [] as string[]), name));
    }
    const newest = newestVersion(found);
    if (newest) return release(newest);
    if (allMissing) return missing;
    return mirrorSaysNone && !pageFound ? { kind: "unmirrored" } : unknown;
  };
  // One cache write at a time: a write asked for while one runs is queued once and carries every answer remembered
  // by the time it starts (a job of 50 names wrote the whole file 50 times; 2,000 look-ups cost 6 s of host CPU).
  let inFlight: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  const writeCache = async (file: string) => {
    const text = JSON.stringify(disk);
    try {
      await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, text, { mode: PRIVATE_FILE_MODE });
      await rename(tmp, file);
    } catch {
      // a cache that cannot be written only costs a lookup next time
    }
  };
  const remember = async (key: string, version: string) => {
    if (!cacheFile) return;
    const now = Date.now();
    disk[key] = { version, at: now };
    // Pruned when full, to three quarters: not on every answer.
    if (Object.keys(disk).length > MAX_CACHED_ANSWERS)
      disk = freshEntries(disk, ttlMs, now, Math.floor((MAX_CACHED_ANSWERS * 3) / 4));
    queued ??= inFlight.then(() => {
      queued = null; // an answer remembered from here on needs the next write
      inFlight = writeCache(cacheFile);
      return inFlight;
    });
    await queued;
  };
  const latestRelease = async (
    ecosystem: Ecosystem,
    name: string,
    query?: ReleaseQuery,
  ): Promise<LatestRelease> => {
    if (!NAME.test(name)) return unknown;
    // A release line is a npm notion here; PyPI answers only the latest.
    if (ecosystem !== "npm" && query?.within) return unknown;
    const c = await config();
    const node = ecosystem === "npm" ? (query?.node ?? null) : null;
    const within = ecosystem === "npm" ? (query?.within ?? null) : null;
    const key = `${registryKey(c, ecosystem)}:${name}${node ? `:node-${node}` : ""}${within ? `:in-${within}` : ""}`;
    const cached = disk[key];
    if (cached && isFresh(cached.at, Date.now(), ttlMs)) return release(cached.version);
    let p = memo.get(key);
    if (!p) {
      p = slot(() => (ecosystem === "npm" ? npmLatest(c, name, node, within) : pypiLatest(c, name))).then(
        async (answer) => {
          if (answer.kind === "release") await remember(key, answer.version);
          return answer;
        },
      );
      memo.set(key, p);
    }
    return p;
  };
  return {
    latestRelease,
    async latestVersion(ecosystem: Ecosystem, name: string, query?: ReleaseQuery) {
      const answer = await latestRelease(ecosystem, name, query);
      return answer.kind === "release" ? answer.version : null;
    },
  };
}
