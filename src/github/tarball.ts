/**
 * Unpack a repository tarball (`GET /repos/{owner}/{repo}/tarball/{ref}`: gzip, one top-level directory
 * `<owner>-<repo>-<sha>/`) into a directory, treating the archive as hostile: the top-level directory is
 * stripped, absolute and `..` paths and `.git` components are refused, hard links are refused, symbolic links
 * are created last and kept only when their real target exists inside the directory, no entry may lie under one
 * of the archive's links, file modes are reduced to
 * 0644/0755, and the number of entries and the unpacked bytes are capped (so is the gunzipped stream).
 */
import { DEFAULT_HOST_LIMITS, hostLimits } from "../core/host-limits.ts";
import { lstat, mkdir, open, realpath, rm, symlink, unlink } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { RetraceError } from "../core/errors.ts";
import { isProblem, parseRepoPath } from "../core/repo-path.ts";

export class TarballError extends RetraceError {
  constructor(message: string) {
    super("github", message, {
      hint: "the repository archive GitHub served could not be unpacked safely; run the fix where the repository is checked out (the Action)",
    });
  }
}

export interface TarballLimits {
  /** Most entries (files, directories, links) unpacked. */
  maxEntries: number;
  /** Most bytes of file content unpacked. */
  maxBytes: number;
}

export const DEFAULT_TARBALL_LIMITS: TarballLimits = {
  maxEntries: DEFAULT_HOST_LIMITS.tarballEntries,
  maxBytes: DEFAULT_HOST_LIMITS.tarballMb * 1024 * 1024,
};

/** The limits in force: the operator's RETRACE_HOST_LIMITS tarballEntries / tarballMb (the defaults above). */
export function operatorTarballLimits(): TarballLimits {
  const h = hostLimits();
  return { maxEntries: h.tarballEntries, maxBytes: h.tarballMb * 1024 * 1024 };
}

export interface UnpackReport {
  files: number;
  bytes: number;
  /** Symbolic links kept (their real target is inside the directory). */
  links: number;
  /** Symbolic links dropped: dangling or resolving outside the directory. */
  droppedLinks: string[];
}

/**
 * `a/b/c` → `b/c`: the top-level directory stripped, the rest checked against the one path rule
 * (src/core/repo-path.ts, docs/paths.md); null for the top-level directory itself.
 */
export function strippedPath(name: string): string | null {
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name)) {
    throw new TarballError(`the archive holds an absolute path: ${JSON.stringify(name)}`);
  }
  // `./` and `//` are harmless spellings in an archive; everything else must pass the rule as written.
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  const rest = parts.slice(1).join("/");
  // `a\..\..\x` climbs out on Windows: it is named for that, though the rule refuses any backslash anyway.
  if (name.split(/[\\/]/).includes(".."))
    throw new TarballError(`the archive holds a path with "..": ${JSON.stringify(name)}`);
  if (rest === "") return null;
  const r = parseRepoPath(rest);
  if (!isProblem(r)) return r;
  if (r.code === "git") throw new TarballError(`the archive holds a .git path: ${JSON.stringify(name)}`);
  throw new TarballError(`the archive holds a path Retrace refuses: ${JSON.stringify(name)} ${r.message}`);
}

function inside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Unpack a gzipped repository tarball into `dir` (which must exist and be empty). */
export async function unpackTarball(
  archive: Uint8Array,
  dir: string,
  limits: TarballLimits = DEFAULT_TARBALL_LIMITS,
): Promise<UnpackReport> {
  const root = await realpath(dir);
  const extract = tar.extract();
  // The gunzipped stream is capped too: tar headers and padding are small next to the content cap.
  let gunzipped = 0;
  const gunzipCap = limits.maxBytes + 1024 * (limits.maxEntries + 16);
  const gunzip = createGunzip();
  gunzip.on("data", (chunk: Buffer) => {
    gunzipped += chunk.length;
    if (gunzipped > gunzipCap) {
      gunzip.destroy(new TarballError(`the archive unpacks to more than ${gunzipCap} bytes`));
    }
  });
  const feeding = pipeline(Readable.from([Buffer.from(archive)]), gunzip, extract).catch((error) => {
    throw error instanceof RetraceError
      ? error
      : new TarballError(`the repository archive could not be unpacked: ${(error as Error).message}`);
  });
  const report: UnpackReport = { files: 0, bytes: 0, links: 0, droppedLinks: [] };
  const links: Array<{ at: string; target: string }> = [];
  // The archive's own links, by repository path: no entry may lie under one. Links are made last, in archive
  // order, so `t -> s/..` (with `s -> .`, each text inside) would make `t/x` a directory or link in the
  // checkout's parent (ninth red team); git cannot hold such a tree (a path is a link or a directory, not both).
  const linkPaths = new Set<string>();
  const underLink = (rel: string): string | null => {
    for (let i = rel.indexOf("/"); i !== -1; i = rel.indexOf("/", i + 1)) {
      const prefix = rel.slice(0, i);
      if (linkPaths.has(prefix)) return prefix;
    }
    return null;
  };
  let entries = 0;
  try {
    for await (const entry of extract) {
      const h = entry.header;
      const type: string = h.type;
      entries++;
      if (entries > limits.maxEntries) {
        throw new TarballError(`the archive holds more than ${limits.maxEntries} entries`);
      }
      const rel = strippedPath(h.name);
      if (rel === null || type === "pax-header" || type === "gnu-long-path") {
        entry.resume();
        continue;
      }
      const target = path.join(root, rel);
      if (!inside(root, target)) throw new TarballError(`the archive path ${JSON.stringify(h.name)} escapes`);
      const link = underLink(rel);
      if (link !== null)
        throw new TarballError(
          `the archive's entry ${rel} lies under the archive's link ${link}; git trees never do`,
        );
      if (type === "directory") {
        await mkdir(target, { recursive: true, mode: 0o755 });
        entry.resume();
      } else if (type === "file" || type === "contiguous-file") {
        report.bytes += h.size ?? 0;
        if (report.bytes > limits.maxBytes) {
          throw new TarballError(`the archive's files are larger than ${limits.maxBytes} bytes in total`);
        }
        await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
        // The parent may be reached through a directory symlink only once links exist, and they come last.
        if (!inside(root, await realpath(path.dirname(target)))) {
          throw new TarballError(`the archive path ${JSON.stringify(h.name)} escapes`);
        }
        const mode = ((h.mode ?? 0o644) & 0o111) !== 0 ? 0o755 : 0o644;
        const file = await open(target, "wx", mode);
        try {
          for await (const chunk of entry) await file.write(chunk as Uint8Array);
        } finally {
          await file.close();
        }
        report.files++;
      } else if (type === "symlink") {
        const linkTarget = h.linkname ?? "";
        if (linkTarget === "" || path.isAbsolute(linkTarget)) {
          throw new TarballError(`the archive's link ${rel} points to an absolute path`);
        }
        if (!inside(root, path.resolve(path.dirname(target), linkTarget))) {
          throw new TarballError(`the archive's link ${rel} points outside the repository`);
        }
        links.push({ at: target, target: linkTarget });
        linkPaths.add(rel);
        entry.resume();
      } else if (type === "link") {
        throw new TarballError(`the archive holds a hard link (${rel}); repository archives never do`);
      } else {
        // Devices, FIFOs and other special files are never written.
        throw new TarballError(
          `the archive holds a ${type} entry (${rel}); only files, directories and links are unpacked`,
        );
      }
    }
    await feeding;
  } catch (error) {
    extract.destroy();
    await feeding.catch(() => undefined);
    throw error instanceof RetraceError
      ? error
      : new TarballError(`the repository archive could not be unpacked: ${(error as Error).message}`);
  }
  // Links last, then checked against the real filesystem until stable: a chain of links that each look
  // inside (`s -> .`, `m -> s/..`) can still resolve outside, and a dangling link could be written through later.
  for (const link of links) {
    await mkdir(path.dirname(link.at), { recursive: true, mode: 0o755 });
    if (await lstat(link.at).catch(() => null)) {
      throw new TarballError(`the archive's link ${path.relative(root, link.at)} replaces an existing entry`);
    }
    await symlink(link.target, link.at);
  }
  let kept = links.map((l) => l.at);
  for (let changed = true; changed; ) {
    changed = false;
    const next: string[] = [];
    for (const at of kept) {
      const real = await realpath(at).catch(() => null);
      if (real === null || !inside(root, real)) {
        await unlink(at).catch((error: Error) => {
          throw new TarballError(
            `the archive's link ${path.relative(root, at)} could not be dropped: ${error.message}`,
          );
        });
        report.droppedLinks.push(path.relative(root, at));
        changed = true;
      } else next.push(at);
    }
    kept = next;
  }
  report.links = kept.length;
  return report;
}

/** Remove a directory tree; never throws (cleanup runs in `finally`). */
export async function removeTree(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}
