/**
 * The file-system implementation of the Workspace port: a checkout on the host, read-only.
 */
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { WorkspacePathError } from "./errors.ts";
import { normalizeRepoPath, resolveInside } from "./path-guard.ts";
import type { ListFilesOptions, Workspace } from "./types.ts";

/** Directories never listed: version control data and installed dependencies. */
const SKIPPED_DIRS = new Set([".git", "node_modules"]);
/** Largest file `readFile` returns; bigger files are not source a model or a test runner needs. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

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
      const abs = await resolveInside(root, rel);
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(abs);
      } catch {
        throw new WorkspacePathError(rel, `file not found in the repository: ${rel}`);
      }
      if (!info.isFile()) throw new WorkspacePathError(rel, `not a regular file: ${rel}`);
      if (info.size > MAX_READ_BYTES) {
        throw new WorkspacePathError(
          rel,
          `file too large to read (${info.size} bytes > ${MAX_READ_BYTES}): ${rel}`,
        );
      }
      return readFile(abs, "utf8");
    },
    async exists(rel: string): Promise<boolean> {
      try {
        const abs = await resolveInside(root, rel);
        await stat(abs);
        return true;
      } catch {
        return false;
      }
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
            if (!SKIPPED_DIRS.has(entry.name)) await walk(path.join(abs, entry.name), childRel);
          } else if (entry.isFile()) {
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
