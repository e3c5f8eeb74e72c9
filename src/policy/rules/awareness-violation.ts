/**
 * What the test-awareness rule and its pattern families (surroundings.ts, runtime-probes.ts) share: the new side of a
 * file's hunks, and the violation each of them reports, named by its class (`[call-budget]`, `[startup-window]`…);
 * a line's code without its comment and the block a line opens.
 */
import { truncate } from "../lines.ts";
import type { DiffLine, FileChange, Violation } from "../types.ts";

/** The new-side lines of each hunk of `file` (context and added), comments kept. */
export const newSide = (file: FileChange) => file.hunks.map((h) => h.lines.filter((l) => l.kind !== "del"));

/** A test-awareness violation: what was found, its class, and the line that shows it. */
export function awarenessViolation(
  file: FileChange,
  line: number | null,
  what: string,
  id: string,
  text: string,
): Violation {
  return {
    rule: "test-awareness",
    file: file.newPath,
    line,
    message: `${what} [${id}]: \`${truncate(text.trim())}\``,
  };
}

/** The code of a line without a trailing comment. */
export const lineCode = (text: string, lang: "js" | "python") =>
  lang === "js" ? text.replace(/(^|[^:"'`\\])\/\/.*$/, "$1") : text.replace(/#[^"'\n]*$/, "");

/**
 * The line and the block it opens (braces in JS, deeper indentation in Python), at most eight lines; with
 * `nextLine`, a JS line that opens no brace and ends no statement takes the next line with it (`if (x)` ⏎ `return y;`).
 */
export function openedBlock(
  lines: readonly DiffLine[],
  i: number,
  lang: "js" | "python",
  nextLine = true,
): string[] {
  const first = lineCode(lines[i]!.text, lang);
  const out = [first];
  if (lang === "js") {
    let depth = (first.match(/[{(]/g) ?? []).length - (first.match(/[})]/g) ?? []).length;
    for (let j = i + 1; j < lines.length && j <= i + 8 && depth > 0; j++) {
      const t = lineCode(lines[j]!.text, lang);
      out.push(t);
      depth += (t.match(/[{(]/g) ?? []).length - (t.match(/[})]/g) ?? []).length;
    }
    if (nextLine && out.length === 1 && !/[{;]\s*$/.test(first) && lines[i + 1])
      out.push(lineCode(lines[i + 1]!.text, lang));
    return out;
  }
  if (!/:\s*$/.test(first)) return out;
  const indent = /^\s*/.exec(first)![0].length;
  for (let j = i + 1; j < lines.length && j <= i + 8; j++) {
    const t = lineCode(lines[j]!.text, lang);
    if (t.trim() === "") continue;
    if (/^\s*/.exec(t)![0].length <= indent) break;
    out.push(t);
  }
  return out;
}
