/**
 * Line-pattern rules (test-bypass, suppressions, dangerous-calls) share one scanner: each pattern has an id
 * (used in messages and in the rule's `allow` list), the files it applies to, and a regex over added lines.
 */
import { isCommentLine, newlyAddedLines, truncate } from "./lines.ts";
import type { DiffLine, ParsedPatch, RuleId, Violation } from "./types.ts";

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

/** The lines already flagged, as `file:line`. */
export function flaggedLines(found: readonly Violation[]): Set<string> {
  return new Set(found.map((v) => `${v.file}:${v.line}`));
}

/**
 * A line-pattern rule over the files outside the tests, and `more`: what a single line cannot show (a module
 * bound to a name on another line, a path opened on the next), unless the config allows the pattern `more.id`.
 * `more.find` gets the lines already flagged, so no line is flagged twice.
 */
export function nonTestLineRule(
  patch: ParsedPatch,
  isTestFile: (path: string) => boolean,
  rule: RuleId,
  patterns: readonly LinePattern[],
  allow: readonly string[],
  more: { id: string; find: (flagged: ReadonlySet<string>) => Violation[] },
): Violation[] {
  const out = scanAddedLines(patch, rule, patterns, allow, (p) => !isTestFile(p));
  if (allow.includes(more.id)) return out;
  return [...out, ...more.find(flaggedLines(out))];
}

/**
 * The added lines of `file` that `matches`, unless already flagged, each a violation whose message ends with
 * the line (cut at 80 characters).
 */
export function flagAddedLines(
  lines: readonly DiffLine[],
  file: string,
  finding: { rule: RuleId; id: string; what: string; matches: (text: string) => boolean },
  flagged: ReadonlySet<string>,
): Violation[] {
  return lines
    .filter((l) => l.kind === "add" && finding.matches(l.text) && !flagged.has(`${file}:${l.newLine}`))
    .map((l) => ({
      rule: finding.rule,
      file,
      line: l.newLine,
      message: `${finding.what} [${finding.id}]: \`${l.text.trim().slice(0, 80)}\``,
    }));
}
