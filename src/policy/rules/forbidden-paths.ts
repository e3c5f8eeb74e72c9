/**
 * forbidden-paths: CI configuration, lockfiles, secrets, git configuration, extra globs, and test files unless
 * `allowTestEdits`. Every name a file section spells is checked (old and new side of renames and copies, and
 * the `diff --git`, `---`/`+++` and rename spellings), so a rename onto or off a protected path is caught.
 */
import { fileSystemPath } from "../../core/repo-path.ts";
import { matchesAny, touchedPaths } from "../lines.ts";
import type { Rule, Violation } from "../types.ts";

export const forbiddenPaths: Rule = {
  id: "forbidden-paths",
  enabled: (c) => c.forbiddenPaths.enabled,
  check({ patch, config, isTestFile }) {
    const fp = config.forbiddenPaths;
    const categories: [string, readonly string[]][] = [
      ["CI configuration", fp.ci],
      ["lockfile", fp.lockfiles],
      ["secret or credential file", fp.secrets],
      ["git configuration", fp.vcs],
      ["forbidden by configuration", fp.extra],
    ];
    const out: Violation[] = [];
    for (const file of patch.files) {
      for (const path of touchedPaths(file)) {
        if (matchesAny(fp.allow, path)) continue;
        const how = file.status === "renamed" || file.status === "copied" ? ` (${file.status})` : "";
        // Also as NTFS or HFS+ read the name (`GITMOD~1`, `.gitmodules::$DATA`, `.gitmod<U+200D>ules` are
        // `.gitmodules` there): the patch is published for reviewers on every system. Only the categories see
        // this spelling (it only adds refusals); `allow` and test detection see the path as written.
        const aliased = fileSystemPath(path);
        const hit = categories.find(
          ([, globs]) => matchesAny(globs, path) || (aliased !== path && matchesAny(globs, aliased)),
        );
        if (hit) {
          out.push({
            rule: "forbidden-paths",
            file: path,
            line: null,
            message: `${hit[0]} may not be changed${how}`,
          });
        } else if (!config.allowTestEdits && isTestFile(path)) {
          out.push({
            rule: "forbidden-paths",
            file: path,
            line: null,
            message: `test file may not be changed${how} (set policy.allowTestEdits to allow test edits)`,
          });
        }
      }
    }
    return out;
  },
};
