/**
 * mode-changes: `old mode`/`new mode` pairs (e.g. making a file executable) and new executable files, unless
 * `allowExecutable`. Symlinks and submodules have their own rules.
 */
import type { Rule, Violation } from "../types.ts";

const SPECIAL = new Set(["120000", "160000"]);

export const modeChanges: Rule = {
  id: "mode-changes",
  enabled: (c) => c.modeChanges.enabled,
  check({ patch, config }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      const { oldMode, newMode } = file;
      if (newMode === null || SPECIAL.has(newMode) || (oldMode !== null && SPECIAL.has(oldMode))) continue;
      const executable = (parseInt(newMode, 8) & 0o111) !== 0;
      if (file.status === "added" || file.status === "copied" || oldMode === null) {
        if (executable && !config.modeChanges.allowExecutable) {
          out.push({
            rule: "mode-changes",
            file: file.path,
            line: null,
            message: `the patch creates an executable file (mode ${newMode})`,
          });
        }
      } else if (oldMode !== newMode) {
        const regular = /^100(644|755)$/;
        if (config.modeChanges.allowExecutable && regular.test(oldMode) && regular.test(newMode)) continue;
        out.push({
          rule: "mode-changes",
          file: file.path,
          line: null,
          message: `the patch changes the file mode from ${oldMode} to ${newMode}`,
        });
      }
    }
    return out;
  },
};
