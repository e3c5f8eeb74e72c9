/**
 * Want-wording around a code block: "It would be good for `get()` to give back the default value. A short
 * example: [block with `// false`] At the moment it gives back the object that was passed." The words before the
 * block say what the reporter wants, the words after it say in prose what happens now, so the values the block's
 * comments give (`// false`, `# x`, `//=> x`) are the wanted side, never the claim. Pure.
 *
 * Both are needed: a want sentence alone ("`get()` should return the default. Example: [block `// undefined`]")
 * is followed by the block showing what happens, and a present-tense sentence alone describes what the comment
 * already shows. When the sentence after the block quotes one of the comment's values, the comment is that
 * present behaviour, not the wish.
 */
import { WANT_SENTENCE as WANT } from "./good-side-words.ts";

/** Words that make the sentence a complaint or a negation rather than a wish. */
const NOT_A_WISH =
  /\b(?:not|never|no\s+longer|wrong(?:ly)?|incorrect(?:ly)?|broken|bug(?:gy)?|unexpected(?:ly)?)\b|n['’]t\b/i;
/** A sentence opening on the present behaviour, told in words. */
const NOW =
  /^(?:(?:but|and|however|yet)\s*,?\s+)?(?:at\s+the\s+moment|currently|right\s+now|presently|at\s+present|as\s+of\s+now|for\s+now|today|instead|in\s+reality|in\s+practice|actually|as\s+it\s+is)\b/i;

function sentences(text: string): string[] {
  return text
    .replace(/[*_]/g, "")
    .split(/(?<=[.!?])\s+|\n\s*\n|\n(?=#)/)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s !== "");
}

/** The prose right before and right after each fenced block starting at `line` (1-based), up to the neighbours. */
export function proseAround(
  markdown: string | string[],
  line: number,
): { before: string; after: string } | null {
  const lines = typeof markdown === "string" ? markdown.split("\n") : markdown;
  const open = /^\s{0,3}(`{3,}|~{3,})/.exec(lines[line - 1] ?? "");
  if (!open) return null;
  const fence = open[1]!;
  const closes = (l: string) => {
    const t = l.trim();
    return t.startsWith(fence) && new RegExp(`^\\${fence[0]}+$`).test(t);
  };
  let end = line;
  while (end < lines.length && !closes(lines[end]!)) end++;
  if (end >= lines.length) return null;
  // Back to the previous fence's closing line, forward to the next fence's opening line.
  let start = line - 2;
  while (start >= 0 && !/^\s{0,3}(`{3,}|~{3,})/.test(lines[start]!)) start--;
  let next = end + 1;
  while (next < lines.length && !/^\s{0,3}(`{3,}|~{3,})/.test(lines[next]!)) next++;
  return {
    before: lines.slice(start + 1, line - 1).join("\n"),
    after: lines.slice(end + 1, next).join("\n"),
  };
}

/** Whether the words around a block make its comment values (`values`) the wanted side. */
export function wantedAround(before: string, after: string, values: string[]): boolean {
  const wish = sentences(before).some((s) => WANT.test(s) && !NOT_A_WISH.test(s));
  if (!wish) return false;
  const firstAfter = sentences(after)[0];
  if (!firstAfter || !NOW.test(firstAfter)) return false;
  // "Currently it returns `undefined`" under `// undefined`: the comment is what happens now.
  const quoted = [...after.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  const norm = (v: string) => v.trim().replace(/^['"]|['"]$/g, "");
  return !values.some((v) => quoted.some((q) => norm(q) === norm(v) || q.includes(v.trim())));
}
