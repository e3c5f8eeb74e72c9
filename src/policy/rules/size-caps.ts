/**
 * size-caps: a patch a human can review — at most `maxFiles` files, `maxChangedLines` added + removed lines,
 * and no added line longer than `maxLineLength` (minified or encoded payloads hide what they do).
 */
import { truncate } from "../lines.ts";
import type { Rule, Violation } from "../types.ts";

export const sizeCaps: Rule = {
  id: "size-caps",
  enabled: (c) => c.sizeCaps.enabled,
  check({ patch, config }) {
    const caps = config.sizeCaps;
    const out: Violation[] = [];
    if (patch.files.length > caps.maxFiles) {
      out.push({
        rule: "size-caps",
        file: null,
        line: null,
        message: `the patch changes ${patch.files.length} files; the limit is ${caps.maxFiles} (policy.sizeCaps.maxFiles)`,
      });
    }
    let changed = 0;
    for (const file of patch.files) {
      for (const h of file.hunks) {
        for (const l of h.lines) {
          if (l.kind === "ctx") continue;
          changed += 1;
          if (l.kind === "add" && l.text.length > caps.maxLineLength) {
            out.push({
              rule: "size-caps",
              file: file.path,
              line: l.newLine,
              message: `added line is ${l.text.length} characters long; the limit is ${caps.maxLineLength}: \`${truncate(l.text, 40)}\``,
            });
          }
        }
      }
    }
    if (changed > caps.maxChangedLines) {
      out.push({
        rule: "size-caps",
        file: null,
        line: null,
        message: `the patch changes ${changed} lines; the limit is ${caps.maxChangedLines} (policy.sizeCaps.maxChangedLines)`,
      });
    }
    return out;
  },
};
