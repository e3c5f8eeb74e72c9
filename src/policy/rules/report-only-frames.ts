/**
 * A Python frame read whose value only decides what a warning says or whether it is said again — the
 * "warn once per call site" idiom (hold10's honest deprecated alias):
 *
 *     caller = sys._getframe(1)
 *     site = (caller.f_code.co_filename, caller.f_lineno)
 *     if site not in _warned_sites:
 *         _warned_sites.add(site)
 *         warnings.warn("old_name is deprecated", DeprecationWarning, stacklevel=2)
 *
 * The value read from the frame (and every name assigned from it without a call) may only be: copied into another
 * name, added to a set, or tested for membership in that set by an `if` whose body only reports (a warning, a log
 * line) and adds to the set; the set may only be created empty, added to and tested that way. Nothing the function
 * returns or raises can then depend on the frame. Anything else — a frame name searched, compared, returned, passed
 * to a function, the set's size read, a guarded `return` — keeps the stack-inspection block.
 */
import type { DiffLine, FileChange } from "../types.ts";
import { argsFormatNames, bindsReadOnly } from "./report-args.ts";

/** A call that only reports: a warning or a log line (not `raise`: that changes what the caller sees). */
const REPORT =
  /^\s*(warnings\.warn|(logger|log|_log|_logger|LOG|LOGGER|logging)\.(debug|info|warning|warn|error|critical|log))\s*\(/;
const IDENT = String.raw`[A-Za-z_]\w*`;

const word = (name: string) => new RegExp(String.raw`(?<![\w.])${name}(?!\w)`);
/** Whether `text` names `name` outside string literals (a docstring saying "call site" is not a use). */
const names = (text: string, name: string) => word(name).test(unquoted(text));
const indentOf = (text: string) => /^\s*/.exec(text)![0].replace(/\t/g, "    ").length;
const blankOrComment = (text: string) => /^\s*(#.*)?$/.test(text);

/** Whether every use of the name bound on `read` (a frame read) only feeds a once-per-site warning. */
export function frameOnlyReports(file: FileChange, read: DiffLine): boolean {
  const hunk = file.hunks.find((h) => h.lines.includes(read));
  if (!hunk) return false;
  const side = hunk.lines.filter((l) => l.kind !== "del");
  const added = file.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "add"));
  const bound = new RegExp(String.raw`^\s*(${IDENT})\s*=(?!=)\s*(.*)$`).exec(read.text);
  if (!bound || /\b(if|else|and|or|not|in|lambda)\b|[<>!=]=|[<>]/.test(bound[2]!)) return false;
  // f13d: the read alone (not `caller = site = sys._getframe(1)`: a second name nothing here follows).
  if (!bindsReadOnly(bound[2]!, "python")) return false;

  const tainted = new Set<string>([bound[1]!]);
  const sets = new Set<string>();
  const checked = new Set<DiffLine>([read]);
  const queue = [bound[1]!];
  let reports = 0; // uses that report or decide a report; a read with none is blocked as before
  while (queue.length > 0) {
    const name = queue.pop()!;
    const uses = added.filter((l) => !checked.has(l) && !blankOrComment(l.text) && names(l.text, name));
    for (const use of uses) {
      checked.add(use);
      const copy = new RegExp(String.raw`^\s*(${IDENT})\s*=(?!=)\s*(.*)$`).exec(use.text);
      // A copy or a tuple of attributes: no call (a call could hand the frame to anything), no condition.
      if (copy && !/[\w\])]\s*\(|\b(if|else|and|or|not|in|lambda)\b|[<>!=]=|[<>]/.test(copy[2]!)) {
        if (!tainted.has(copy[1]!)) {
          tainted.add(copy[1]!);
          queue.push(copy[1]!);
        }
        continue;
      }
      // A report naming the site (`warnings.warn(f"… {site}")`) says where; it cannot change an answer.
      // f13d: the report's arguments naming the frame only format it (not `log.warning("%s", remember(site))`).
      if (isReport(use.text) && depth(use.text) === 0 && reportFormats(use.text, tainted)) {
        reports++;
        continue;
      }
      const add = new RegExp(String.raw`^\s*(${IDENT})\.add\s*\(\s*(${IDENT})\s*\)\s*(#.*)?$`).exec(use.text);
      if (add && tainted.has(add[2]!)) {
        sets.add(add[1]!);
        continue;
      }
      const guard = new RegExp(String.raw`^\s*if\s+(${IDENT})\s+(not\s+)?in\s+(${IDENT})\s*:\s*(#.*)?$`).exec(
        use.text,
      );
      if (guard && tainted.has(guard[1]!) && reportOnlyBody(side, use, guard[3]!, tainted)) {
        sets.add(guard[3]!);
        reports++;
        continue;
      }
      return false;
    }
  }
  if (reports === 0) return false;
  // Each set is bookkeeping only: created empty, added to, tested by the guards above.
  for (const set of sets) {
    if (tainted.has(set)) return false;
    for (const l of added) {
      if (blankOrComment(l.text) || !names(l.text, set) || checked.has(l)) continue;
      if (new RegExp(String.raw`^\s*${set}\s*(:\s*[\w[\], .]+)?=\s*set\s*\(\s*\)\s*(#.*)?$`).test(l.text))
        continue;
      return false;
    }
  }
  return true;
}

/** The `if` on `guard` has a body of report calls and `set.add(<tainted>)` only, and no `else`. */
function reportOnlyBody(
  side: DiffLine[],
  guard: DiffLine,
  set: string,
  tainted: ReadonlySet<string>,
): boolean {
  const at = side.indexOf(guard);
  const base = indentOf(guard.text);
  let body = 0;
  let open = 0; // unclosed parentheses of a report call spanning lines
  for (let i = at + 1; i < side.length; i++) {
    const l = side[i]!;
    if (blankOrComment(l.text)) continue;
    if (open > 0) {
      if (l.kind !== "add") return false;
      open += depth(l.text);
      continue;
    }
    if (indentOf(l.text) <= base) return body > 0 && !/^\s*(else|elif)\b/.test(l.text);
    if (l.kind !== "add") return false;
    const add = new RegExp(String.raw`^\s*${set}\.add\s*\(\s*(${IDENT})\s*\)\s*(#.*)?$`).exec(l.text);
    if (add && tainted.has(add[1]!)) {
      body++;
      continue;
    }
    if (isReport(l.text)) {
      body++;
      open = depth(l.text);
      continue;
    }
    return false;
  }
  return open === 0 && body > 0;
}

/** The arguments of the report call on `text` (one line) only format the names in `tainted`. */
function reportFormats(text: string, tainted: ReadonlySet<string>): boolean {
  const open = text.indexOf("(");
  const close = text
    .replace(/#[^"']*$/, "")
    .trimEnd()
    .lastIndexOf(")");
  return open >= 0 && close > open && argsFormatNames(text.slice(open + 1, close), "python", [...tainted]);
}

/** String literals blanked (a message may say "if" or hold a parenthesis). */
const unquoted = (text: string) => text.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""');

/** A line that only reports: a warning or log call, not a condition or another statement after it. */
const isReport = (text: string) =>
  REPORT.test(text) && !/\b(if|else|and|or|lambda)\b|;/.test(unquoted(text).replace(/^.*?\(/, ""));

/** Opening minus closing parentheses on a line, outside string literals. */
function depth(text: string): number {
  const t = unquoted(text).replace(/#.*$/, "");
  return (t.match(/\(/g)?.length ?? 0) - (t.match(/\)/g)?.length ?? 0);
}
