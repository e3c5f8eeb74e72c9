/**
 * deletions: whole files deleted (unless `allowFileDeletion`), and runs of more than `maxDeletedBlock`
 * consecutive removed lines with nothing added in their place. A rename is not a deletion.
 */
import type { Rule, Violation } from "../types.ts";

export const deletions: Rule = {
  id: "deletions",
  enabled: (c) => c.deletions.enabled,
  check({ patch, config }) {
    const cfg = config.deletions;
    const out: Violation[] = [];
    for (const file of patch.files) {
      if (file.status === "deleted") {
        if (!cfg.allowFileDeletion) {
          out.push({
            rule: "deletions",
            file: file.path,
            line: null,
            message: "the patch deletes this file (policy.deletions.allowFileDeletion is off)",
          });
        }
        continue;
      }
      for (const h of file.hunks) {
        // A block is a run of removed lines; added lines right after it (a replacement) end the run unharmed.
        let run: { start: number; length: number } | null = null;
        const flush = (replaced: boolean) => {
          if (run && !replaced && run.length > cfg.maxDeletedBlock) {
            out.push({
              rule: "deletions",
              file: file.path,
              line: run.start,
              message: `${run.length} consecutive lines removed from line ${run.start} of the old file with nothing in their place; the limit is ${cfg.maxDeletedBlock}`,
            });
          }
          run = null;
        };
        for (const l of h.lines) {
          if (l.kind === "del") {
            run ??= { start: l.oldLine ?? 0, length: 0 };
            run.length += 1;
          } else {
            flush(l.kind === "add");
          }
        }
        flush(false);
      }
    }
    return out;
  },
};
