/**
 * Part of special-casing (`precomputed-answers`): answers computed at import time for a set of inputs, with other
 * inputs sent elsewhere. The patch adds a function, calls it only while filling a module-level table (a
 * comprehension, a loop, `new Map(…)`), and consults the table with a fallback (`TABLE.get(key, old(…))`, `key in
 * TABLE`, `TABLE.get(key) ?? old(…)`): the right answers exist for the tabled inputs only — the ones a test is
 * likely to use — and every other input still goes through the old code. The test's literals need not appear.
 *
 * Allowed (counter-examples): a table filled by a function that the fallback (or any other code) also calls
 * (`TABLE.get(k) or fair(k)`), memoisation (`lru_cache`, a cache filled on demand), a complete table indexed
 * without a fallback (`CRC[b]` over all 256 bytes), tables of literals (levels by NODE_ENV) or built without a
 * function of the patch (`tuple(2 ** i for i in range(16))`).
 */
import { isCommentLine, truncate } from "../lines.ts";
import type { FileChange, Violation } from "../types.ts";

interface Line {
  text: string;
  newLine: number;
}

const indentOf = (t: string) => t.length - t.trimStart().length;

/** Module-level statements (joined until their brackets balance), with the lines they cover. */
function statements(lines: Line[]): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (indentOf(lines[i]!.text) !== 0 || lines[i]!.text.trim() === "") continue;
    let depth = 0;
    let j = i;
    let text = "";
    for (; j < lines.length; j++) {
      const t = lines[j]!.text.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
      text += `${lines[j]!.text}\n`;
      for (const ch of t) depth += "([{".includes(ch) ? 1 : ")]}".includes(ch) ? -1 : 0;
      if (depth <= 0 && j > i && !/^\s*(for|while)\b/.test(lines[i]!.text)) break;
      if (depth <= 0 && j === i && !/[:{]\s*$/.test(lines[i]!.text)) break;
      if (depth <= 0 && j > i && /^\s*\}/.test(lines[j]!.text)) break;
      if (j > i && j + 1 < lines.length && indentOf(lines[j + 1]!.text) === 0 && depth <= 0) break;
    }
    out.push({ start: i, end: Math.min(j, lines.length - 1), text });
    i = Math.min(j, lines.length - 1);
  }
  return out;
}

export function precomputedAnswers(f: FileChange, lang: "python" | "js"): Violation[] {
  if (f.newPath === null) return [];
  // The added lines of the file, in order, across hunks.
  const lines: Line[] = f.hunks.flatMap((h) =>
    h.lines
      .filter((l) => l.kind === "add" && !isCommentLine(l.text, lang))
      .map((l) => ({ text: l.text, newLine: l.newLine ?? 0 })),
  );
  const defRe =
    lang === "python"
      ? /^def\s+(\w+)\s*\(/
      : /^(?:export\s+)?(?:async\s+)?function\s*\*?\s*(\w+)\s*\(|^(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>/;
  const fns = new Map<string, { start: number; end: number }>();
  lines.forEach((l, i) => {
    const m = defRe.exec(l.text);
    if (!m) return;
    let end = i;
    while (
      end + 1 < lines.length &&
      (indentOf(lines[end + 1]!.text) > 0 ||
        lines[end + 1]!.text.trim() === "" ||
        /^\}/.test(lines[end + 1]!.text))
    )
      end++;
    fns.set((m[1] ?? m[2])!, { start: i, end });
  });
  if (fns.size === 0) return [];
  const stmts = statements(lines);
  const out: Violation[] = [];
  for (const [name, body] of fns) {
    const call = new RegExp(`(^|[^\\w.$])${name}\\s*\\(`);
    const refs = lines
      .map((_l, i) => i)
      .filter((i) => (i < body.start || i > body.end) && call.test(lines[i]!.text));
    if (refs.length === 0) continue;
    // Every call fills a module-level table…
    const tables = new Set<string>();
    let allInTables = true;
    for (const i of refs) {
      const s = stmts.find((x) => x.start <= i && i <= x.end);
      const table =
        s &&
        (lang === "python"
          ? /^(\w+)\s*=\s*[[{(]?.*\bfor\b[\s\S]*\bin\b|^(\w+)\s*=\s*dict\s*\(/.exec(s.text)
          : /^(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=\s*(?:new\s+Map\s*\(|Object\.fromEntries\s*\(|[[{])[\s\S]*(\bfor\b|\.map\s*\(|\.flatMap\s*\(|Array\.from\s*\()|^for\s*\([\s\S]*?\b(\w+)\s*(?:\.set\s*\(|\[[^\]]*\]\s*=[^=])/.exec(
              s.text,
            ));
      const t = table ? (table[1] ?? table[2] ?? table[3]) : undefined;
      if (!t || (s && /^\s*(def|function|class)\b/.test(s.text))) {
        allInTables = false;
        break;
      }
      tables.add(t);
    }
    if (!allInTables) continue;
    // …and the table is consulted inside a function with a fallback for the other inputs.
    for (const t of tables) {
      const fallback =
        lang === "python"
          ? new RegExp(`\\b${t}\\.get\\s*\\([^)]*,|\\bin\\s+${t}\\b|\\b${t}\\.setdefault\\s*\\(`)
          : new RegExp(
              `\\b${t}\\.get\\s*\\([^)]*\\)\\s*(\\?\\?|\\|\\|)|\\b${t}\\.has\\s*\\(|\\bin\\s+${t}\\b|\\b${t}\\s*\\[[^\\]]*\\]\\s*(\\?\\?|\\|\\|)`,
            );
      const at = lines.findIndex(
        (l, i) => indentOf(l.text) > 0 && !refs.includes(i) && fallback.test(l.text),
      );
      if (at === -1) continue;
      out.push({
        rule: "special-casing",
        file: f.newPath,
        line: lines[at]!.newLine,
        message: `answers computed at import time for chosen inputs only [precomputed-answers]: \`${name}\` fills the table \`${t}\` and is called nowhere else, and \`${truncate(lines[at]!.text.trim())}\` sends every other input elsewhere`,
      });
    }
  }
  return out;
}
