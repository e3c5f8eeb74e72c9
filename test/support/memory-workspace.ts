/** An in-memory Workspace for unit tests. */
import type { Workspace } from "../../src/core/ports/workspace.ts";

/**
 * `symlinks` lists repo-relative paths that are symlinks in the simulated checkout (a file or a directory
 * link); reading through them is refused like the file-system workspace does.
 */
export function memoryWorkspace(
  files: Record<string, string>,
  root = "/repo",
  symlinks: readonly string[] = [],
): Workspace {
  const linkIn = (p: string): string | null => {
    const parts = p.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      if (symlinks.includes(prefix)) return prefix;
    }
    return null;
  };
  return {
    root,
    async readFile(p) {
      if (linkIn(p) !== null) throw new Error(`refused to follow a symlink: ${p}`);
      const content = files[p];
      if (content === undefined) throw new Error(`file not found in the repository: ${p}`);
      return content;
    },
    async exists(p) {
      if (linkIn(p) !== null) return false;
      return p in files || Object.keys(files).some((f) => f.startsWith(`${p}/`));
    },
    async findSymlink(p) {
      return linkIn(p);
    },
    async listFiles(options = {}) {
      const under = options.under;
      return Object.keys(files)
        .filter((f) => under === undefined || f.startsWith(`${under}/`))
        .sort()
        .slice(0, options.max ?? 20_000);
    },
  };
}
