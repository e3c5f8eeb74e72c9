/**
 * path-escape: every file name must be a plain relative path inside the repository. Blocks `..` segments,
 * absolute paths, drive letters, backslashes, NUL and control characters, `~`, `.git/` internals, and
 * non-canonical spellings (`./`, `//`) that tools normalise differently.
 */
import type { Rule, Violation } from "../types.ts";

function problemOf(path: string): string | null {
  if (path === "") return "is empty";
  if (path.includes("\u0000")) return "contains a NUL byte";
  if (/[\u0001-\u001f\u007f]/.test(path)) return "contains a control character";
  if (path.includes("\\")) return "contains a backslash (a path separator on Windows)";
  if (path.startsWith("/")) return "is absolute";
  if (/^[A-Za-z]:/.test(path)) return "starts with a drive letter";
  if (path.startsWith("~")) return "starts with `~` (a home directory)";
  const segments = path.split("/");
  if (segments.includes("..")) return "contains a `..` segment (leaves the repository)";
  if (segments.some((s) => s.toLowerCase() === ".git")) return "points into `.git/` (repository internals)";
  if (segments.some((s) => s === "" || s === ".")) return "is not canonical (`./` or `//`)";
  return null;
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
