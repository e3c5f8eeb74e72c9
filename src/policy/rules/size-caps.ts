/**
 * size-caps: a patch a human can review — at most `maxFiles` files, `maxChangedLines` added + removed lines,
 * and no added line longer than `maxLineLength` (minified or encoded payloads hide what they do).
 */
import { truncate } from "../lines.ts";
import type { ParsedPatch, Rule, Violation } from "../types.ts";

/**
 * Each added line longer than `max` characters, as a violation naming the limit (`field`: the setting that sets it,
 * `policy.sizeCaps.maxLineLength` or Retrace's own fixed limit).
 */
export function longLines(patch: ParsedPatch, max: number, field: string): Violation[] {
  return patch.files.flatMap((file) =>
    file.hunks.flatMap((h) =>
      h.lines
        .filter((l) => l.kind === "add" && l.text.length > max)
        .map((l) => ({
          rule: "size-caps" as const,
          file: file.path,
          line: l.newLine,
          message: `added line is ${l.text.length} characters long; the limit is ${max} (${field}): \`${truncate(l.text, 40)}\``,
        })),
    ),
  );
}

/** Added and removed lines of the patch. */
export function changedLines(patch: ParsedPatch): number {
  let changed = 0;
  for (const file of patch.files)
    for (const h of file.hunks) for (const l of h.lines) if (l.kind !== "ctx") changed++;
  return changed;
}

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
    out.push(...longLines(patch, caps.maxLineLength, "policy.sizeCaps.maxLineLength"));
    const changed = changedLines(patch);
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
