/**
 * The install cache: one directory per installed tree, `<cache>/<kind>/<key>/`, where the key is a hash of
 * everything that decides the tree (the whole resolved dependency tree, the registry configuration, the image
 * and the installer's own version). An entry is written once — assembled in a temporary sibling, its digest
 * recorded in a marker, then renamed into place — and verified on every read: a tree whose digest no longer
 * matches (edited, truncated, a symlink swapped in) is removed and installed again. A read first compares the
 * tree's stat signature (inodes, sizes, m/ctimes: `treeStatSignature`) with the one recorded when its content was
 * last verified; only when that differs (or none was recorded) is every byte hashed again: a 100 MiB
 * node_modules is checked in a fraction of a second instead of 3-13 s. The cache has a byte quota;
 * least-recently-used entries are evicted past it, except ones used in the last two hours (a run may be copying
 * them, or have them mounted read-only for as long as a verification lasts: src/sandbox/docker.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { InfrastructureError } from "../core/errors.ts";
import { PRIVATE_DIR_MODE, privateDir } from "./private-state.ts";
import { treeDigest, treeStatSignature } from "./extract.ts";

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

export const ENTRY_MARKER = ".retrace-entry.json";
/** Bump when the layout or the meaning of a key changes: old entries then simply miss. */
export const CACHE_FORMAT = 2;
/** How far ahead of now a recorded time may be before it counts as written by a wrong clock. */
const CLOCK_SKEW_MS = 60_000;
/** Temporaries this process handed out and has not committed: never swept as a dead install's. */
const IN_FLIGHT = new Set<string>();

/** A temporary of a live process older than this is taken for a dead install's whose pid was reused. */
const LIVE_TEMP_MAX_MS = 24 * 3_600_000;

/** The process that made a temporary (`<key>.tmp-<pid>-<hex>…`), or null when its name says none. */
function tempOwner(name: string): number | null {
  const m = /\.tmp-(\d+)-/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * Whether `pid` is a live process on this host (signal 0: EPERM is a live process of another user). The rule
 * assumes the cache is not shared between pid namespaces (one host, or one container, per cache directory).
 */
function processAlive(pid: number | null): boolean {
  if (pid === null || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Bytes under `p` (a file or a tree; links are not followed). */
async function treeBytes(p: string): Promise<number> {
  const st = await lstat(p).catch(() => null);
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const name of await readdir(p).catch(() => [] as string[])) n += await treeBytes(path.join(p, name));
  return n;
}

export function defaultCacheDir(): string {
  return process.env.RETRACE_CACHE_DIR ?? path.join(os.homedir(), ".cache", "retrace");
}

/** A cache key: sha256 of the canonical JSON of `parts`, 32 hex characters. */
export function cacheKey(parts: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify({ format: CACHE_FORMAT, parts }))
    .digest("hex")
    .slice(0, 32);
}

export interface EntryMarker<M> {
  format: number;
  key: string;
  digest: string;
  files: number;
  bytes: number;
  createdAt: string;
  /**
   * The tree's stat signature taken just before its content was last hashed and found to be `digest` (null or
   * absent: none, the content is hashed on every read).
   */
  stat?: string | null;
  meta: M;
}

export interface InstallCacheOptions {
  root?: string;
  /** Byte quota over all entries (default 4 GiB). */
  quotaBytes?: number;
  /** Entries used this recently are never evicted (default 2 h: the runs of a job may have them mounted). */
  protectMs?: number;
}

export class InstallCache {
  readonly root: string;
  readonly quotaBytes: number;
  private readonly protectMs: number;

  constructor(options: InstallCacheOptions = {}) {
    this.root = options.root ?? defaultCacheDir();
    this.quotaBytes = options.quotaBytes ?? 4 * 1024 ** 3;
    this.protectMs = options.protectMs ?? 2 * 60 * 60_000;
  }

  #rootChecked: Promise<void> | null = null;

  /**
   * The cache's root made owner-only (whatever the umask), once per cache; a root every user may write into is
   * refused before anything in it is read or written (src/install/private-state.ts).
   */
  private privateRoot(): Promise<void> {
    this.#rootChecked ??= privateDir(this.root, "install cache");
    return this.#rootChecked;
  }

  entryDir(kind: string, key: string): string {
    return path.join(this.root, kind, key);
  }

  /** A fresh temporary directory next to where the entry will live (same file system, for the rename). */
  async tempDir(kind: string, key: string): Promise<string> {
    await this.privateRoot();
    await mkdir(path.join(this.root, kind), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${this.entryDir(kind, key)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    IN_FLIGHT.add(tmp);
    return tmp;
  }

  /** The verified entry, or null (absent, or failed verification and removed). */
  async lookup<M>(kind: string, key: string): Promise<{ dir: string; marker: EntryMarker<M> } | null> {
    const dir = this.entryDir(kind, key);
    const markerPath = path.join(dir, ENTRY_MARKER);
    if (!existsSync(markerPath)) return null;
    await this.privateRoot();
    let marker: EntryMarker<M>;
    try {
      marker = JSON.parse(await readFile(markerPath, "utf8")) as EntryMarker<M>;
      if (marker.format !== CACHE_FORMAT || marker.key !== key) throw new Error("marker does not match");
      // Taken before the content is read: a change made while it is hashed leaves a signature that differs.
      const stat = await treeStatSignature(dir, [ENTRY_MARKER]);
      if (typeof marker.stat !== "string" || stat !== marker.stat) {
        const now = await treeDigest(dir, [ENTRY_MARKER]);
        if (now.digest !== marker.digest) throw new Error("digest does not match");
        // Verified by content (an older entry, or a tree copied or restored elsewhere): its signature now.
        if (stat !== null) {
          marker = { ...marker, stat };
          await this.rewriteMarker(kind, key, marker);
        }
      }
    } catch {
      await this.remove(dir);
      return null;
    }
    const t = new Date();
    await utimes(markerPath, t, t).catch(() => undefined);
    return { dir, marker };
  }

  /**
   * Records `tmp` (a checked tree) as the entry for `key` and returns its final directory. If another job
   * committed the same key meanwhile, theirs is kept and `tmp` removed. Then evicts past the quota.
   */
  async commit<M>(kind: string, key: string, tmp: string, meta: M): Promise<{ dir: string; bytes: number }> {
    try {
      return await this.commitEntry(kind, key, tmp, meta);
    } finally {
      IN_FLIGHT.delete(tmp);
    }
  }

  private async commitEntry<M>(
    kind: string,
    key: string,
    tmp: string,
    meta: M,
  ): Promise<{ dir: string; bytes: number }> {
    // The signature first, then the content it stands for (a rename of the entry's own directory changes only
    // that directory's ctime, which the signature leaves out).
    const stat = await treeStatSignature(tmp, [ENTRY_MARKER]);
    const d = await treeDigest(tmp, [ENTRY_MARKER]);
    const marker: EntryMarker<M> = {
      format: CACHE_FORMAT,
      key,
      digest: d.digest,
      files: d.files,
      bytes: d.bytes,
      createdAt: new Date().toISOString(),
      stat,
      meta,
    };
    await writeFile(path.join(tmp, ENTRY_MARKER), JSON.stringify(marker));
    const dir = this.entryDir(kind, key);
    // Room first: entries used in the protection window are never evicted, so a stream of distinct trees (one
    // per pull request bumping a package) would otherwise grow the cache past its quota without bound. When what
    // is protected leaves no room, the entry is refused (an infrastructure error naming the quota), never kept.
    if (!existsSync(path.join(dir, ENTRY_MARKER))) {
      const held = await this.evictFor(d.bytes);
      if (held > 0 && d.bytes > 0 && held + d.bytes > this.quotaBytes) {
        await rm(tmp, { recursive: true, force: true });
        throw new InfrastructureError(
          `the install cache is full: ${mib(held)} MiB of its ${mib(this.quotaBytes)} MiB quota are entries used in the last ${Math.round(this.protectMs / 60_000)} minutes, and this install needs ${mib(d.bytes)} MiB more`,
          `raise RETRACE_INSTALL_CACHE_MB, or run the job again once the cache's entries are older (${this.root})`,
        );
      }
    }
    try {
      await rename(tmp, dir);
    } catch (error) {
      await rm(tmp, { recursive: true, force: true });
      if (!existsSync(path.join(dir, ENTRY_MARKER))) throw error;
    }
    await this.evict(dir).catch(() => undefined);
    return { dir, bytes: d.bytes };
  }

  /** Removes least-recently-used entries until the cache is within its quota; returns what was removed. */
  async evict(keep?: string): Promise<string[]> {
    return (await this.evictUntil(0, keep)).removed;
  }

  /** Evicts until `extra` more bytes fit, as far as the protection window allows; the bytes then held. */
  private async evictFor(extra: number): Promise<number> {
    return (await this.evictUntil(extra).catch(() => ({ held: 0 }))).held;
  }

  private async evictUntil(extra: number, keep?: string): Promise<{ removed: string[]; held: number }> {
    const entries: { dir: string; bytes: number; usedAt: number }[] = [];
    const now = Date.now();
    const removed: string[] = [];
    let heldByOthers = 0;
    for (const kind of await readdir(this.root).catch(() => [] as string[])) {
      const kindDir = path.join(this.root, kind);
      if (!(await stat(kindDir).catch(() => null))?.isDirectory()) continue;
      for (const name of await readdir(kindDir).catch(() => [] as string[])) {
        const dir = path.join(kindDir, name);
        if (name.includes(".tmp-")) {
          // A temporary: never one this process is still filling (its commit counts it; with the clock moved
          // forward an hour, the sweep took a fresh one for a dead install and removed it under its own commit,
          // wave 18). One whose process is gone is a killed install's: removed now, whatever its time says. One of
          // another live process (another job's install) is kept, whatever the clock says, and counts against the
          // quota (wave 19: killed installs' trees sat outside it, 9 MiB under a 2 MiB quota, and a live job's
          // temporary was removed under it when the clock moved two hours forward); only past a day, or dated
          // ahead, is it taken for a dead one whose pid was reused.
          if (IN_FLIGHT.has(dir)) continue;
          const st = await stat(dir).catch(() => null);
          if (!st) continue;
          const live = processAlive(tempOwner(name));
          if (!live || now - st.mtimeMs > LIVE_TEMP_MAX_MS || st.mtimeMs > now + CLOCK_SKEW_MS) {
            await this.remove(dir);
            removed.push(dir);
          } else heldByOthers += await treeBytes(dir);
          continue;
        }
        const markerPath = path.join(dir, ENTRY_MARKER);
        const st = await stat(markerPath).catch(() => null);
        if (!st) continue;
        const marker = JSON.parse(await readFile(markerPath, "utf8").catch(() => "{}")) as { bytes?: number };
        // A use dated ahead was recorded while the clock was wrong: it counts as the oldest, not as protected for
        // as long as the clock was ahead (a year ahead refused every new entry as "cache full"; wave 18).
        entries.push({
          dir,
          bytes: marker.bytes ?? 0,
          usedAt: st.mtimeMs > now + CLOCK_SKEW_MS ? 0 : st.mtimeMs,
        });
      }
    }
    let total = entries.reduce((s, e) => s + e.bytes, 0) + heldByOthers;
    entries.sort((a, b) => a.usedAt - b.usedAt);
    for (const e of entries) {
      if (total + extra <= this.quotaBytes) break;
      if (e.dir === keep || now - e.usedAt < this.protectMs) continue;
      await this.remove(e.dir);
      removed.push(e.dir);
      total -= e.bytes;
    }
    return { removed, held: total };
  }

  /** Replaces an entry's marker in one rename (written beside the entry, under a name eviction cleans up). */
  private async rewriteMarker<M>(kind: string, key: string, marker: EntryMarker<M>): Promise<void> {
    const base = await this.tempDir(kind, key);
    IN_FLIGHT.delete(base);
    const tmp = `${base}-marker`;
    try {
      await writeFile(tmp, JSON.stringify(marker));
      await rename(tmp, path.join(this.entryDir(kind, key), ENTRY_MARKER));
    } catch {
      await rm(tmp, { force: true }); // the entry stays valid; the next read hashes it again
    }
  }

  private async remove(dir: string): Promise<void> {
    // Renamed away first, so a half-removed entry is never seen under its key.
    const trash = `${dir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}-evicted`;
    await rename(dir, trash).catch(() => undefined);
    await rm(trash, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  }
}

/** How long a manifest's resolution is reused before it is resolved again (floating ranges pick up releases). */
export const MANIFEST_TTL_MS = 24 * 3_600_000;

/**
 * The installed tree a manifest (requirements as declared, not pinned) resolved to less than `ttlMs` ago, or
 * null. The manifest index (`<kind>-manifest/<manifestKey>`) only points at the tree entry, which is keyed and
 * verified by the whole resolved tree as always; a job with the same manifest then needs no install container.
 */
export async function lookupByManifest<M>(
  cache: InstallCache,
  kind: string,
  manifestKey: string,
  ttlMs = MANIFEST_TTL_MS,
): Promise<{ dir: string; marker: EntryMarker<M>; resolvedAt: string } | null> {
  const index = await cache.lookup<{ treeKey: string }>(`${kind}-manifest`, manifestKey);
  if (!index) return null;
  // A resolution dated ahead (written while the clock was wrong) is as stale as one past its TTL.
  const age = Date.now() - Date.parse(index.marker.createdAt);
  if (!(age <= ttlMs && age >= -CLOCK_SKEW_MS)) return null;
  const tree = await cache.lookup<M>(kind, index.marker.meta.treeKey);
  return tree && { ...tree, resolvedAt: index.marker.createdAt };
}

/** Records that `manifestKey` resolved to the tree entry `treeKey` (see lookupByManifest). */
export async function recordManifest(
  cache: InstallCache,
  kind: string,
  manifestKey: string,
  treeKey: string,
): Promise<void> {
  const tmp = await cache.tempDir(`${kind}-manifest`, manifestKey);
  await mkdir(tmp);
  // An older index entry (past its TTL) is replaced.
  await rm(cache.entryDir(`${kind}-manifest`, manifestKey), { recursive: true, force: true });
  await cache.commit(`${kind}-manifest`, manifestKey, tmp, { treeKey });
}
