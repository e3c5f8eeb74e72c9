/**
 * package-scripts: `scripts` in package.json/composer.json run on install (pre/postinstall) and in CI (`test`),
 * so a patch may not change them. When a changed package.json line's section is not visible in the hunk at
 * all, the rule blocks it too: the gate cannot prove it is not a script.
 */
import { baseName, truncate } from "../lines.ts";
import {
  foldChangedLines,
  jsonFold,
  jsonSiteAt,
  jsonStringValue,
  looksLikeVersionSpec,
  MAX_SITE_DEPTH,
} from "../sections.ts";
import { JSON_DEPENDENCY_KEYS } from "./dependency-changes.ts";
import type { Rule, Violation } from "../types.ts";

const MANIFESTS = new Set(["package.json", "composer.json"]);

export const packageScripts: Rule = {
  id: "package-scripts",
  enabled: (c) => c.packageScripts.enabled,
  check({ patch, config }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      const names = [file.oldPath, file.newPath]
        .filter((p): p is string => p !== null)
        .map((p) => baseName(p).toLowerCase());
      if (!names.some((n) => MANIFESTS.has(n))) continue;
      for (const site of foldChangedLines(file, jsonFold)) {
        const { line } = site;
        if (line.text.trim() === "") continue;
        const where = line.kind === "add" ? line.newLine : line.oldLine;
        const verb = line.kind === "add" ? "adds" : "removes";
        const { keys, rootSeen, tooDeep } = jsonSiteAt(site.state, line.text);
        if (tooDeep) {
          out.push({
            rule: "package-scripts",
            file: file.path,
            line: where,
            message: `${verb} a line nested more than ${MAX_SITE_DEPTH} levels deep: too deep to judge line by line`,
          });
          break;
        }
        if (keys.includes("scripts") || /"scripts"\s*:/.test(line.text)) {
          out.push({
            rule: "package-scripts",
            file: file.path,
            line: where,
            message: `${verb} a line in \`scripts\`: \`${truncate(line.text)}\``,
          });
          continue;
        }
        // Unknown section: no enclosing `"key": {` is visible and the scan did not reach the root. A line at
        // npm's top-level indentation (2) is a top-level key; anything deeper could sit inside `scripts`.
        const enclosing = keys.length - (/^\s*"/.test(line.text) ? 1 : 0);
        const punctuation = /^\s*[{}[\],]*\s*$/.test(line.text);
        const value = jsonStringValue(line.text);
        // A version-like value is taken for a dependency entry: dependency-changes reports it, when it runs. With that
        // rule off the guess would let a script through (`"test": "true"` reads as a dist-tag), so it is not made.
        if (value !== null && looksLikeVersionSpec(value) && config.dependencyChanges.enabled) continue;
        const deep = (/^[ \t]*/.exec(line.text)?.[0] ?? "").replace(/\t/g, "    ").length > 2;
        if (
          !rootSeen &&
          enclosing === 0 &&
          deep &&
          !punctuation &&
          !keys.some((k) => JSON_DEPENDENCY_KEYS.has(k))
        ) {
          out.push({
            rule: "package-scripts",
            file: file.path,
            line: where,
            message: `${verb} a line whose section is not visible in the hunk (it could be a script): \`${truncate(line.text)}\``,
          });
        }
      }
    }
    return out;
  },
};
