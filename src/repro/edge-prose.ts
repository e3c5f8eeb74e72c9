/**
 * A sentence pasted inside a code block, on its first or last line ("This has worked in all previous versions
 * until I installed 3.13.3" under the snippet): the reporter's words, not code. Run as code it is a syntax
 * error that says nothing about the report; the program is the block without it (issue 12, hold8).
 *
 * A line counts as prose only when it is unindented, opens with a capitalised word, holds at least five words
 * of which three are plain lower-case words that are no keyword of Python or JavaScript, and has none of the
 * signs of a statement (brackets, `=`, quotes, `;`, a trailing `:` or `{`, a `#` or `//` comment).
 */
import type { ReportBlock } from "./parse-report.ts";

const KEYWORDS = new Set(
  (
    "and or not is in if else elif for while with as def class return import from lambda yield await async " +
    "pass raise try except finally del global nonlocal assert break continue print var let const new typeof " +
    "instanceof void delete function throw catch switch case default do of this true false null none"
  ).split(" "),
);

export function proseLine(line: string): boolean {
  if (!/^[A-Z][a-z']*\s/.test(line) || line.length > 300) return false;
  if (/[()[\]{}=;"`<>\\|]|\/\/|#|:\s*$|\{\s*$/.test(line)) return false;
  const words = line.trim().split(/\s+/);
  if (words.length < 5) return false;
  const plain = words.filter((w) => /^[a-z]+[,.!?]?$/.test(w) && !KEYWORDS.has(w.replace(/[,.!?]$/, "")));
  return plain.length >= 3;
}

/** The block's code without a prose line on its first or last non-blank line; the lines dropped. */
export function withoutEdgeProse(value: string): { code: string; dropped: string[] } {
  const lines = value.split("\n");
  const dropped: string[] = [];
  const nonBlank = lines.map((l, i) => (l.trim() === "" ? -1 : i)).filter((i) => i >= 0);
  if (nonBlank.length < 2) return { code: value, dropped };
  const edges = [nonBlank[0]!, nonBlank[nonBlank.length - 1]!];
  const drop = new Set(edges.filter((i) => proseLine(lines[i]!)));
  // Both edges prose and little between: the block is prose itself, not a snippet with a stray sentence.
  if (drop.size === 0 || drop.size >= nonBlank.length - 1) return { code: value, dropped };
  for (const i of drop) dropped.push(lines[i]!);
  return { code: lines.filter((_, i) => !drop.has(i)).join("\n"), dropped };
}

/** A code unit with the prose lines of its edges removed (from `value` and `runValue`), and what was dropped. */
export function unitWithoutEdgeProse(b: ReportBlock): { unit: ReportBlock; dropped: string[] } {
  if (b.kind !== "code" || b.plain) return { unit: b, dropped: [] };
  const { code, dropped } = withoutEdgeProse(b.value);
  if (dropped.length === 0) return { unit: b, dropped };
  const runLines = b.runValue.split("\n");
  const runValue = runLines.filter((l) => !dropped.includes(l)).join("\n");
  return { unit: { ...b, value: code, runValue }, dropped };
}
