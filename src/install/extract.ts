/**
 * Brings an install container's output onto the host, checked: a tar stream is unpacked entry by entry into a
 * fresh directory, refusing (and removing everything on) the first entry that is not a plain file, directory or
 * symlink, whose path is absolute or climbs out with `..`, that would be written through a symlink, or whose
 * symlink points outside the tree — each link's text on its own, then every link followed hop by hop through the
 * others (`link-chains.ts`: `a -> .` with `b -> a/..` is the tree's parent) — and stopping at a file-count and
 * byte cap. Modes keep only the permission bits (no setuid/setgid/sticky). The container is not trusted to
 * have made a sane tree.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { lstat, mkdir, open, readdir, readlink, symlink } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import tarStream from "tar-stream";
import { LinkGraph, safeEntryPath } from "./link-chains.ts";

// safeEntryPath lives in link-chains.ts (which needs it, and which this module needs): one owner, no cycle.
export { safeEntryPath };

export interface ExtractLimits {
  /** Most entries (files, directories, links). */
  maxFiles: number;
  /** Most bytes of file content in total. */
  maxBytes: number;
  /**
   * Where the tree sits in the project (`node_modules`, `packages/a/node_modules`) and the project directories
   * its symlinks may point to besides itself: an npm workspace install links `node_modules/@ws/a` to
   * `../../packages/a`, a directory of the checkout the run container has at the same place.
   */
  links?: { at: string; roots: readonly string[] };
  /** Longest wait for the next bytes of the stream before it is refused as stalled (default `EXTRACT_STALL_MS`). */
  stallMs?: number;
}

/**
 * A stream that sends nothing for this long has stalled: the unpacking stops with an error instead of waiting for
 * ever (red team 22: a stream that stopped after one header held `extractChecked` with nothing scheduled).
 */
export const EXTRACT_STALL_MS = 120_000;

/** Whether a symlink at `entry` (relative to a tree at `links.at`) points into one of `links.roots`. */
export function symlinkIntoRoots(entry: string, target: string, links: ExtractLimits["links"]): boolean {
  if (!links || target === "" || target.includes("\0") || target.startsWith("/")) return false;
  const resolved = path.posix.normalize(path.posix.join(links.at, path.posix.dirname(entry), target));
  if (resolved === ".." || resolved.startsWith("../") || path.posix.isAbsolute(resolved)) return false;
  return links.roots.some((r) => {
    const root = safeEntryPath(r);
    return typeof root === "string" && root !== "" && (resolved === root || resolved.startsWith(`${root}/`));
  });
}

export interface ExtractResult {
  files: number;
  bytes: number;
}

export class UnsafeOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeOutputError";
  }
}

/** Whether a symlink at `entry` (relative) pointing to `target` stays inside the tree. */
export function symlinkInside(entry: string, target: string): boolean {
  if (target === "" || target.includes("\0") || target.startsWith("/")) return false;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(entry), target));
  return resolved !== ".." && !resolved.startsWith("../") && !path.posix.isAbsolute(resolved);
}

/** Unpacks `input` (a tar stream) into `dest` (which must not exist yet) under the checks above. */
export async function extractChecked(
  input: NodeJS.ReadableStream,
  dest: string,
  limits: ExtractLimits,
): Promise<ExtractResult> {
  await mkdir(dest, { recursive: false, mode: 0o755 });
  const extract = tarStream.extract();
  const links = new Set<string>();
  const graph = new LinkGraph({
    at: limits.links?.at ?? "",
    roots: limits.links?.roots ?? [],
    topInside: true,
  });
  let files = 0;
  let bytes = 0;
  const fail = (message: string) => {
    throw new UnsafeOutputError(message);
  };
  const throughLink = (rel: string) => {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) if (links.has(parts.slice(0, i).join("/"))) return true;
    return false;
  };
  const done = (async () => {
    for await (const entry of extract) {
      const h = entry.header;
      const rel = safeEntryPath(h.name);
      if (typeof rel !== "string") fail(`install output refused: ${rel.problem}`);
      const relPath = rel as string;
      if (++files > limits.maxFiles)
        fail(`install output refused: more than ${limits.maxFiles} files (install.maxFiles)`);
      if (relPath !== "" && throughLink(relPath))
        fail(`install output refused: ${relPath} would be written through a symlink`);
      const full = path.join(dest, relPath);
      if (h.type === "directory") {
        await mkdir(full, { recursive: true, mode: 0o755 });
        entry.resume();
      } else if (h.type === "file" || h.type === "contiguous-file") {
        bytes += h.size ?? 0;
        if (bytes > limits.maxBytes)
          fail(`install output refused: larger than ${limits.maxBytes} bytes (install.maxOutputMb)`);
        await mkdir(path.dirname(full), { recursive: true, mode: 0o755 });
        // O_EXCL: never replaces or follows anything already there.
        const fh = await open(full, "wx", ((h.mode ?? 0o644) & 0o755) | 0o600);
        try {
          await pipeline(
            entry,
            new Writable({
              write(chunk: Buffer, _enc, cb) {
                fh.write(chunk).then(() => cb(), cb);
              },
            }),
          );
        } finally {
          await fh.close();
        }
      } else if (h.type === "symlink") {
        const target = h.linkname ?? "";
        if (!symlinkInside(relPath, target) && !symlinkIntoRoots(relPath, target, limits.links))
          fail(`install output refused: symlink ${relPath} -> ${target} points outside the install`);
        await mkdir(path.dirname(full), { recursive: true, mode: 0o755 });
        await symlink(target, full);
        links.add(relPath);
        graph.add(relPath, target);
        entry.resume();
      } else {
        fail(`install output refused: ${relPath} is a ${h.type} (only files, directories and symlinks)`);
      }
    }
  })();
  // Feed the parser; a parser error or a refused entry ends both.
  const feed = pipeline(input, extract);
  feed.catch(() => undefined);
  done.catch(() => undefined);
  const stallMs = limits.stallMs ?? EXTRACT_STALL_MS;
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const stalled = new Promise<never>((_, reject) => {
    const arm = () => {
      clearTimeout(timer);
      if (settled) return;
      timer = setTimeout(
        () =>
          reject(
            new UnsafeOutputError(
              `install output refused: nothing arrived for ${Math.round(stallMs / 1000)} s after ${files} entries (the stream stalled)`,
            ),
          ),
        stallMs,
      );
    };
    arm();
    (input as NodeJS.EventEmitter).on("data", arm);
  });
  stalled.catch(() => undefined);
  try {
    await Promise.race([
      (async () => {
        await done;
        await feed;
      })(),
      stalled,
    ]);
    // Links come in any order (one may name another that arrives later): they are followed once all are in.
    const out = graph.firstEscape();
    if (out)
      fail(
        `install output refused: symlink ${out.link} -> ${out.target} points outside the install (${out.why})`,
      );
  } catch (error) {
    extract.destroy();
    (input as unknown as { destroy?: () => void }).destroy?.();
    throw error;
  } finally {
    settled = true;
    clearTimeout(timer);
  }
  return { files, bytes };
}

export interface TreeDigest {
  digest: string;
  files: number;
  bytes: number;
}

/**
 * The tree's stat signature: every entry's path, type, inode, mode, size, mtime and ctime (nanoseconds), hashed,
 * without reading a byte of content. Any change made through the file system since — content, mode, a rename, a
 * replaced or added entry, a link planted — changes a ctime, an inode or the list of names (ctime cannot be set
 * by `utimes`). The cache reads it before the content digest: an entry whose signature is the one recorded when
 * its content was last verified is the same tree. `null` when the file system keeps no sub-second ctimes (an
 * edit in the same second as the recording could then go unseen): the content digest is then the only check.
 */
export async function treeStatSignature(root: string, skip: readonly string[] = []): Promise<string | null> {
  let fine = false;
  // The entries of a directory are stat'ed together (one at a time, 10,000 of them take seconds on a loaded
  // host); the lines keep the sorted walk's order whatever order the calls finish in.
  const walk = async (rel: string): Promise<string[]> => {
    const names = (await readdir(path.join(root, rel))).sort();
    const parts = await Promise.all(
      names
        .filter((name) => rel !== "" || !skip.includes(name))
        .map(async (name) => {
          const r = rel === "" ? name : `${rel}/${name}`;
          const st = await lstat(path.join(root, r), { bigint: true });
          if (st.ctimeNs % 1_000_000_000n !== 0n) fine = true;
          const kind = st.isDirectory() ? "d" : st.isSymbolicLink() ? "l" : st.isFile() ? "f" : "x";
          const line = `${kind} ${r} ${st.ino} ${st.mode} ${st.size} ${st.mtimeNs} ${st.ctimeNs}`;
          return kind === "d" ? [line, ...(await walk(r))] : [line];
        }),
    );
    return parts.flat();
  };
  const lines = await walk("");
  return fine ? createHash("sha256").update(lines.join("\n")).digest("hex") : null;
}

/**
 * A digest of a tree: every path, its type, permission bits, size, content (sha256) and symlink target, in
 * sorted order. `skip` names top-level entries left out (the cache's own marker). Refuses a symlink that points
 * outside — by its text, or followed hop by hop through the tree's other links (`link-chains.ts`) — and anything
 * that is not a file, directory or symlink, so a tampered or crafted cache entry is not used.
 */
export async function treeDigest(root: string, skip: readonly string[] = []): Promise<TreeDigest> {
  const lines: string[] = [];
  const graph = new LinkGraph();
  let files = 0;
  let bytes = 0;
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`;
      if (rel === "" && skip.includes(e.name)) continue;
      const full = path.join(root, r);
      const st = await lstat(full);
      files++;
      if (st.isDirectory()) {
        lines.push(`d ${r} ${(st.mode & 0o777).toString(8)}`);
        await walk(r);
      } else if (st.isSymbolicLink()) {
        const target = await readlink(full);
        if (!symlinkInside(r, target))
          throw new UnsafeOutputError(`symlink ${r} -> ${target} points outside`);
        lines.push(`l ${r} ${target}`);
        graph.add(r, target);
      } else if (st.isFile()) {
        if ((st.mode & 0o7000) !== 0) throw new UnsafeOutputError(`${r} has setuid/setgid/sticky bits`);
        const hash = createHash("sha256");
        await pipeline(createReadStream(full), hash);
        bytes += st.size;
        lines.push(`f ${r} ${(st.mode & 0o777).toString(8)} ${st.size} ${hash.digest("hex")}`);
      } else {
        throw new UnsafeOutputError(`${r} is not a file, directory or symlink`);
      }
    }
  };
  await walk("");
  const out = graph.firstEscape();
  if (out) throw new UnsafeOutputError(`symlink ${out.link} -> ${out.target} points outside (${out.why})`);
  return { digest: createHash("sha256").update(lines.join("\n")).digest("hex"), files, bytes };
}
