/**
 * The file-system implementation of the Workspace port: a checkout on the host, read-only.
 */
import { RegularFileError, readRegularFile } from "./regular-file.ts";
import { hostLimits } from "../core/host-limits.ts";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isGitSegment, isRepoPath } from "../core/repo-path.ts";
import { WorkspacePathError } from "./errors.ts";
import { normalizeRepoPath, resolveInside } from "./path-guard.ts";
import type { ListFilesOptions, Workspace } from "../core/ports/workspace.ts";

/** Directories never listed: version control data and installed dependencies. */
// `.retrace/` holds Retrace's own outputs (fix results, traces): never context for a model, never a repo file.
const SKIPPED_DIRS = new Set([".git", "node_modules", ".retrace"]);
/**
 * Largest file `readFile` returns; bigger files are not source a model or a test runner needs. The operator's
 * RETRACE_HOST_LIMITS readMb, 8 MiB by default.
 */
function maxReadBytes(): number {
  return hostLimits().readMb * 1024 * 1024;
}

/** A `.git` segment in any case (the one rule's, src/core/repo-path.ts): `.GIT/config` is `.git/config` on macOS. */
function hasGitSegment(normal: string): boolean {
  return normal.split("/").some(isGitSegment);
}

/**
 * The first existing component of `normal` (repo-relative, normalised) that is a symlink, or null. Each
 * component is lstat-ed from the root down, so nothing is ever resolved through a link.
 */
async function firstSymlink(root: string, normal: string): Promise<string | null> {
  if (normal === ".") return null;
  const parts = normal.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    try {
      if ((await lstat(path.join(root, prefix))).isSymbolicLink()) return prefix;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw error;
    }
  }
  return null;
}

/**
 * Validates a path for reading: inside the repository, not inside `.git`, and through no symlink (a committed
 * link such as `docs/notes.txt -> ../.git/config` would otherwise hand the checkout's credentials to the
 * model). Returns the absolute path.
 */
async function guardRead(root: string, rel: string): Promise<string> {
  const normal = normalizeRepoPath(rel);
  if (hasGitSegment(normal)) {
    throw new WorkspacePathError(
      rel,
      `refused to read inside .git: ${rel}`,
      "Retrace never reads version-control data (it can hold the checkout's token); name a file of the working tree",
    );
  }
  // Links leading out of the repository get resolveInside's message, which names the target.
  const abs = await resolveInside(root, normal);
  const link = await firstSymlink(root, normal);
  if (link !== null) {
    throw new WorkspacePathError(
      rel,
      link === normal
        ? `refused to follow a symlink: ${rel}`
        : `refused to read through the symlink ${link}: ${rel}`,
      "Retrace does not follow symlinks in the repository (they can point into .git or outside it); use the path of the file itself",
    );
  }
  // Defence in depth: the real path must not land in .git either (the lstat walk above makes it equal to the lexical one).
  if (hasGitSegment(path.relative(root, abs).split(path.sep).join("/"))) {
    throw new WorkspacePathError(rel, `refused to read inside .git: ${rel}`);
  }
  return abs;
}

/** Opens a workspace at `dir`; fails with a clear message when it is not a directory. */
export async function createFsWorkspace(dir: string): Promise<Workspace> {
  let root: string;
  try {
    root = await realpath(path.resolve(dir));
  } catch {
    throw new WorkspacePathError(
      dir,
      `repository directory not found: ${dir}`,
      "pass --repo with an existing directory",
    );
  }
  if (!(await stat(root)).isDirectory()) {
    throw new WorkspacePathError(
      dir,
      `not a directory: ${dir}`,
      "pass --repo with the repository's root directory",
    );
  }

  return {
    root,
    async readFile(rel: string): Promise<string> {
      const abs = await guardRead(root, rel);
      const maxRead = maxReadBytes();
      try {
        // A regular file with one name, through no link (./regular-file.ts): a FIFO or device is never opened,
        // a hard link (maybe a second name of a host file; git never checks one out) never read.
        return (await readRegularFile(abs, { maxBytes: maxRead })).toString("utf8");
      } catch (error) {
        if (!(error instanceof RegularFileError))
          throw new WorkspacePathError(rel, `file not found in the repository: ${rel}`);
        switch (error.why) {
          case "missing":
            throw new WorkspacePathError(rel, `file not found in the repository: ${rel}`);
          case "link":
            throw new WorkspacePathError(rel, `refused to follow a symlink: ${rel}`);
          case "hard-link":
            throw new WorkspacePathError(
              rel,
              `refused to read a hard link (${error.stats.nlink} names for one file): ${rel}`,
            );
          case "too-large":
            throw new WorkspacePathError(
              rel,
              `file too large to read (${error.stats.size} bytes > ${maxRead}, RETRACE_HOST_LIMITS readMb): ${rel}`,
            );
          default:
            throw new WorkspacePathError(rel, `not a regular file: ${rel}`);
        }
      }
    },
    async exists(rel: string): Promise<boolean> {
      try {
        const info = await lstat(await guardRead(root, rel));
        return info.isFile() || info.isDirectory();
      } catch {
        return false;
      }
    },
    async fileMode(rel: string): Promise<"100644" | "100755" | null> {
      try {
        const info = await lstat(await guardRead(root, rel));
        if (!info.isFile()) return null;
        return (info.mode & 0o100) !== 0 ? "100755" : "100644";
      } catch {
        return null;
      }
    },
    async listDirectory(rel: string): Promise<string[] | null> {
      try {
        const abs = rel === "" || rel === "." ? root : await guardRead(root, rel);
        if (!(await lstat(abs)).isDirectory()) return null;
        return await readdir(abs);
      } catch {
        return null;
      }
    },
    async findSymlink(rel: string): Promise<string | null> {
      return firstSymlink(root, normalizeRepoPath(rel));
    },
    async listFiles(options: ListFilesOptions = {}): Promise<string[]> {
      const max = options.max ?? 20_000;
      const start = options.under === undefined ? "." : normalizeRepoPath(options.under);
      const startAbs = await resolveInside(root, start);
      const out: string[] = [];
      const walk = async (abs: string, rel: string): Promise<void> => {
        let entries: import("node:fs").Dirent[];
        try {
          entries = await readdir(abs, { withFileTypes: true });
        } catch {
          return;
        }
        entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const entry of entries) {
          if (out.length >= max) return;
          const childRel = rel === "." ? entry.name : `${rel}/${entry.name}`;
          // Symlinks are neither followed nor listed: they could point anywhere.
          if (entry.isDirectory()) {
            if (!SKIPPED_DIRS.has(entry.name) && !isGitSegment(entry.name))
              await walk(path.join(abs, entry.name), childRel);
          } else if (entry.isFile() && isRepoPath(childRel)) {
            // A name the one rule refuses (a backslash, a control character…) is not repository content.
            out.push(childRel);
          }
        }
      };
      const info = await lstat(startAbs).catch(() => null);
      if (info?.isDirectory()) await walk(startAbs, start);
      return out.sort();
    },
  };
}
