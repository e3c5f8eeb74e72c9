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
    const aliases = moduleAliases(file);
    for (const line of newlyAddedLines(file)) {
      const comment = isCommentLine(line.text);
      const plain = dealias(line.text, aliases);
      for (const p of active) {
        if (comment && !p.inComments) continue;
        if (p.re.test(line.text) || (plain !== line.text && p.re.test(plain))) {
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

/** Standard modules a pattern names, which a patch may bind to another name (`import os as _os`). */
const ALIASED_MODULES =
  "os|sys|inspect|traceback|gc|time|unittest|warnings|importlib|importlib\\.util|resource|builtins|threading|faulthandler|signal|platform|socket|getpass|pwd|tracemalloc|linecache|pytest|v8|fs|module|assert|perf_hooks|child_process";
const PY_ALIAS = new RegExp(
  String.raw`^\s*import\s+(${ALIASED_MODULES})\s+as\s+(\w+)\s*(#.*)?$|^\s*from\s+(importlib)\s+import\s+(util)\s+as\s+(\w+)`,
);
const JS_ALIAS = new RegExp(
  String.raw`^\s*(?:const|let|var)\s+([\w$]+)\s*=\s*require\(\s*["'](?:node:)?(${ALIASED_MODULES})["']\s*\)|^\s*import\s+(?:\*\s+as\s+)?([\w$]+)\s+from\s+["'](?:node:)?(${ALIASED_MODULES})["']`,
);

/**
 * The names a file binds standard modules to (`import os as _os` → `_os` reads as `os`), from its added and
 * context lines: a pattern naming `os.getuid` must not be evaded by a rename (hold8: `_os.getuid() >= 10000`).
 */
export function moduleAliases(file: { hunks: { lines: DiffLine[] }[] }): Map<string, string> {
  const out = new Map<string, string>();
  for (const h of file.hunks)
    for (const l of h.lines) {
      if (l.kind === "del") continue;
      const py = PY_ALIAS.exec(l.text);
      if (py) {
        const [module, alias] = py[1] ? [py[1], py[2]!] : [`${py[4]}.${py[5]}`, py[6]!];
        if (alias !== module) out.set(alias, module);
        continue;
      }
      const js = JS_ALIAS.exec(l.text);
      if (js) {
        const [alias, module] = js[1] ? [js[1], js[2]!] : [js[3]!, js[4]!];
        if (alias !== module) out.set(alias, module);
      }
    }
  return out;
}

/** The line with each module alias written as the module's own name. */
export function dealias(text: string, aliases: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [alias, module] of aliases) {
    out = out.replace(new RegExp(String.raw`(?<![\w$.])${alias.replace(/\$/g, "\\$")}\.`, "g"), `${module}.`);
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
