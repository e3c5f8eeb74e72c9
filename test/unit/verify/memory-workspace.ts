/** An in-memory Workspace for unit tests. */
import type { Workspace } from "../../../src/git/types.ts";

export function memoryWorkspace(files: Record<string, string>, root = "/repo"): Workspace {
  return {
    root,
    async readFile(p) {
      const content = files[p];
      if (content === undefined) throw new Error(`file not found in the repository: ${p}`);
      return content;
    },
    async exists(p) {
      return p in files || Object.keys(files).some((f) => f.startsWith(`${p}/`));
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
