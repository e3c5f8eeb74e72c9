/**
 * submodules: mode 160000 entries (`Subproject commit …`) and `.gitmodules` changes pull in code from other
 * repositories that the gate cannot see.
 */
import { baseName } from "../lines.ts";
import type { Rule, Violation } from "../types.ts";

const GITLINK = "160000";

export const submodules: Rule = {
  id: "submodules",
  enabled: (c) => c.submodules.enabled,
  check({ patch }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      const gitlink =
        file.newMode === GITLINK ||
        file.oldMode === GITLINK ||
        file.hunks.some((h) =>
          h.lines.some((l) => l.kind !== "ctx" && /^Subproject commit [0-9a-f]{7,64}/.test(l.text)),
        );
      if (gitlink) {
        out.push({
          rule: "submodules",
          file: file.path,
          line: null,
          message: "the patch adds, moves or updates a git submodule",
        });
      } else if ([file.oldPath, file.newPath].some((p) => p !== null && baseName(p) === ".gitmodules")) {
        out.push({
          rule: "submodules",
          file: file.path,
          line: null,
          message: "the patch changes `.gitmodules`",
        });
      }
    }
    return out;
  },
};
