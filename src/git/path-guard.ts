/**
 * Keeps repo-relative paths inside the repository: rejects absolute paths, `..` escapes and NUL bytes
 * lexically, then resolves real paths so that a symlink pointing outside the repo is rejected too.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { WorkspacePathError } from "./errors.ts";
import { normalizeRepoPath } from "./repo-path.ts";

export { normalizeRepoPath };

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * Resolves `rel` against the real path `root` and proves the result stays inside it, following symlinks
 * of every existing component. Returns the absolute (real, when it exists) path.
 */
export async function resolveInside(root: string, rel: string): Promise<string> {
  const normal = normalizeRepoPath(rel);
  const joined = path.resolve(root, normal);
  if (!isInside(root, joined)) throw new WorkspacePathError(rel, `path escapes the repository: ${rel}`);
  // Walk up to the deepest existing ancestor and resolve its real path (symlinks included).
  let probe = joined;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(probe);
      const full = rest.length === 0 ? real : path.join(real, ...rest.reverse());
      if (!isInside(root, real)) {
        throw new WorkspacePathError(
          rel,
          `path resolves outside the repository through a symlink: ${rel} → ${real}`,
          "Retrace only reads files inside the repository; remove or fix the symlink",
        );
      }
      return full;
    } catch (error) {
      if (error instanceof WorkspacePathError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      if (probe === root) return joined;
      rest.push(path.basename(probe));
      probe = path.dirname(probe);
    }
  }
}
