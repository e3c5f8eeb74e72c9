/**
 * ambiguous-headers: the `diff --git` line, the `---`/`+++` lines and the rename/copy lines must name the same
 * files, and the `diff` package must read the patch as the gate does. Otherwise one tool could apply the
 * change to a file the gate did not inspect (e.g. `diff --git a/x b/x` over `+++ b/.github/workflows/ci.yml`).
 */
import type { FileChange, Rule, Violation } from "../types.ts";

function sidesOf(file: FileChange): { old: Set<string>; new: Set<string> } {
  const old = new Set<string>();
  const nu = new Set<string>();
  for (const h of file.headerPaths) {
    if (h.path === null) continue;
    if (
      h.source === "diff --git old" ||
      h.source === "---" ||
      h.source === "rename from" ||
      h.source === "copy from"
    ) {
      old.add(h.path);
    } else {
      nu.add(h.path);
    }
  }
  return { old, new: nu };
}

export const ambiguousHeaders: Rule = {
  id: "ambiguous-headers",
  enabled: (c) => c.ambiguousHeaders.enabled,
  check({ patch }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      const sides = sidesOf(file);
      for (const [side, names] of Object.entries(sides)) {
        if (names.size > 1) {
          out.push({
            rule: "ambiguous-headers",
            file: file.path,
            line: file.patchLine,
            message: `the headers name different ${side} files: ${[...names].map((n) => `\`${n}\``).join(", ")}`,
          });
        }
      }
      if (!file.isGit) continue;
      const plainRename = file.status !== "renamed" && file.status !== "copied";
      const gitOld = file.headerPaths.find((h) => h.source === "diff --git old")?.path;
      const gitNew = file.headerPaths.find((h) => h.source === "diff --git new")?.path;
      if (plainRename && gitOld !== gitNew) {
        out.push({
          rule: "ambiguous-headers",
          file: file.path,
          line: file.patchLine,
          message: `\`diff --git\` names two files (\`${gitOld}\`, \`${gitNew}\`) but there is no rename or copy header`,
        });
      }
    }
    // Each path may appear in one section only (a copy's source stays untouched, so it does not count).
    const owner = new Map<string, number>();
    patch.files.forEach((file, k) => {
      const paths = new Set([file.newPath, file.status === "copied" ? null : file.oldPath]);
      for (const p of paths) {
        if (p === null) continue;
        if (owner.has(p) && owner.get(p) !== k) {
          out.push({
            rule: "ambiguous-headers",
            file: p,
            line: file.patchLine,
            message: "the same file appears in more than one section of the patch",
          });
        } else {
          owner.set(p, k);
        }
      }
    });
    for (const d of patch.disagreements) {
      out.push({ rule: "ambiguous-headers", file: null, line: null, message: d });
    }
    return out;
  },
};
