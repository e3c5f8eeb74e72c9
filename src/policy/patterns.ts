/**
 * Line-pattern rules (test-bypass, suppressions, dangerous-calls) share one scanner: each pattern has an id
 * (used in messages and in the rule's `allow` list), the files it applies to, and a regex over added lines.
 */
import { isCommentLine, newlyAddedLines, truncate } from "./lines.ts";
import type { ParsedPatch, RuleId, Violation } from "./types.ts";

export interface LinePattern {
  /** Stable id, e.g. `pytest-skip`; users may list it in the rule's `allow`. */
  id: string;
  /** What the pattern means, for the message. */
  what: string;
  re: RegExp;
  /** Which files the pattern applies to (default: all). */
  applies?: (path: string) => boolean;
  /** Whether a line that is only a comment can match (suppressions live in comments; calls do not). */
  inComments?: boolean;
}

export function scanAddedLines(
  patch: ParsedPatch,
  rule: RuleId,
  patterns: readonly LinePattern[],
  allow: readonly string[],
  fileFilter: (path: string) => boolean = () => true,
): Violation[] {
  const out: Violation[] = [];
  for (const file of patch.files) {
    if (file.newPath === null || !fileFilter(file.newPath)) continue;
    const path = file.newPath;
    const active = patterns.filter((p) => !allow.includes(p.id) && (p.applies?.(path) ?? true));
    if (active.length === 0) continue;
    for (const line of newlyAddedLines(file)) {
      const comment = isCommentLine(line.text);
      for (const p of active) {
        if (comment && !p.inComments) continue;
        if (p.re.test(line.text)) {
          out.push({
            rule,
            file: path,
            line: line.newLine,
            message: `${p.what} [${p.id}]: \`${truncate(line.text)}\``,
          });
        }
      }
    }
  }
  return out;
}
