/**
 * symlinks: mode 120000. A symbolic link can point outside the repository (or at a secret) and make later
 * reads and writes follow it; creating one or changing its target is blocked.
 */
import type { Rule, Violation } from "../types.ts";

const LINK = "120000";

export const symlinks: Rule = {
  id: "symlinks",
  enabled: (c) => c.symlinks.enabled,
  check({ patch }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      if (file.newMode === LINK && file.status !== "deleted") {
        const target = file.hunks.flatMap((h) => h.lines).find((l) => l.kind === "add")?.text;
        out.push({
          rule: "symlinks",
          file: file.path,
          line: null,
          message:
            file.oldMode === LINK
              ? `the patch changes a symbolic link${target === undefined ? "" : ` to point at \`${target}\``}`
              : `the patch creates a symbolic link${target === undefined ? "" : ` to \`${target}\``}`,
        });
      } else if (file.oldMode === LINK && file.status !== "deleted") {
        out.push({
          rule: "symlinks",
          file: file.path,
          line: null,
          message: "the patch turns a symbolic link into a file",
        });
      }
    }
    return out;
  },
};
