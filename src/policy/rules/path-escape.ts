/**
 * path-escape: every file name must be a plain relative path inside the repository, under the one rule of
 * src/core/repo-path.ts (docs/paths.md): no `..` segments, absolute paths, drive letters, backslashes, NUL or
 * control characters, leading `~`, `.git` in any case at any depth, or non-canonical spellings (`./`, `//`)
 * that tools normalise differently.
 */
import { repoPathProblem } from "../../core/repo-path.ts";
import type { Rule, Violation } from "../types.ts";

function problemOf(path: string): string | null {
  return repoPathProblem(path)?.message ?? null;
}

export const pathEscape: Rule = {
  id: "path-escape",
  enabled: (c) => c.pathEscape.enabled,
  check({ patch }) {
    const out: Violation[] = [];
    const seen = new Set<string>();
    for (const file of patch.files) {
      for (const h of file.headerPaths) {
        if (h.path === null || seen.has(h.path)) continue;
        seen.add(h.path);
        const problem = problemOf(h.path);
        if (problem) {
          out.push({
            rule: "path-escape",
            file: JSON.stringify(h.path).slice(1, -1),
            line: null,
            message: `file name (from \`${h.source}\`) ${problem}`,
          });
        }
      }
    }
    return out;
  },
};
