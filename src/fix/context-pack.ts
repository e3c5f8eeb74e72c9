/**
 * Ranks context candidates and packs them under a token budget. Tokens are *estimated* as
 * ceil(characters / 4) — the usual rule of thumb for English and code with Claude-family tokenizers; it is an
 * estimate, not a count, so the budget keeps a margin. Whatever does not fit is listed, with why.
 */

/** Where a piece of context comes from; also its base priority. */
export type ContextKind =
  | "failing-test"
  | "stack-frame"
  | "symbol-definition"
  | "commit-diff"
  | "related-file";

/** Base scores: the failing test first, then the code the stack trace walks through, then symbols, then history. */
export const KIND_SCORE: Record<ContextKind, number> = {
  "failing-test": 100,
  "stack-frame": 80,
  "symbol-definition": 60,
  "commit-diff": 50,
  "related-file": 20,
};

export interface ContextCandidate {
  kind: ContextKind;
  /** Repository-relative path, or a label like `commit abc123` for a diff. */
  path: string;
  /** Full text of the file (or diff). */
  text: string;
  /** 1-based line the candidate is about (a frame's line, a definition's line), when known. */
  focusLine?: number;
  /** Extra score on top of the kind's base (e.g. frames nearer the failure rank higher). */
  boost?: number;
  /** Why it was picked, shown to the model and in the trace. */
  reason: string;
}

export interface PackedItem {
  kind: ContextKind;
  path: string;
  /** 1-based inclusive line range included; the whole file when it fits. */
  startLine: number;
  endLine: number;
  whole: boolean;
  text: string;
  tokens: number;
  reason: string;
}

export interface OmittedItem {
  kind: ContextKind;
  path: string;
  /** Estimated tokens of the omitted text. */
  tokens: number;
  why: string;
}

export interface PackedContext {
  items: PackedItem[];
  omitted: OmittedItem[];
  /** Estimated tokens used (sum over items, plus headers). */
  tokens: number;
  budget: number;
}

/** Estimated tokens of a text: ceil(chars / 4). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Lines kept on each side of a focus line when a whole file does not fit. */
const WINDOW = 40;

function header(item: {
  kind: ContextKind;
  path: string;
  startLine: number;
  endLine: number;
  whole: boolean;
}): string {
  const range = item.whole ? "" : ` (lines ${item.startLine}-${item.endLine})`;
  return `=== ${item.path}${range} [${item.kind}] ===\n`;
}

function numbered(lines: readonly string[], start: number): string {
  return lines.map((l, i) => `${String(start + i).padStart(5)}| ${l}`).join("\n");
}

/**
 * Picks candidates by score (kind base + boost, earlier first on ties), merging duplicates of the same path
 * (the highest-scored wins, focus lines are kept). A file that does not fit whole is cut to a window around
 * its focus line; if even that does not fit it is omitted.
 */
export function packContext(candidates: readonly ContextCandidate[], budget: number): PackedContext {
  if (!Number.isInteger(budget) || budget <= 0)
    throw new RangeError(`context budget must be a positive integer of tokens, got ${budget}`);
  const scored = candidates
    .map((c, order) => ({ c, order, score: KIND_SCORE[c.kind] + (c.boost ?? 0) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);

  const seen = new Set<string>();
  const items: PackedItem[] = [];
  const omitted: OmittedItem[] = [];
  let used = 0;

  for (const { c } of scored) {
    const key = `${c.kind === "commit-diff" ? "diff:" : ""}${c.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const lines = c.text.split("\n");
    if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    const left = budget - used;

    const whole = { kind: c.kind, path: c.path, startLine: 1, endLine: lines.length, whole: true };
    const wholeText = header(whole) + numbered(lines, 1) + "\n";
    const wholeTokens = estimateTokens(wholeText);
    if (wholeTokens <= left) {
      items.push({ ...whole, text: wholeText, tokens: wholeTokens, reason: c.reason });
      used += wholeTokens;
      continue;
    }
    if (c.focusLine !== undefined && lines.length > 0) {
      // Shrink the window until it fits, down to a minimum useful size.
      for (let w = WINDOW; w >= 8; w = Math.floor(w / 2)) {
        const focus = Math.min(Math.max(c.focusLine, 1), lines.length);
        const start = Math.max(1, focus - w);
        const end = Math.min(lines.length, focus + w);
        const part = { kind: c.kind, path: c.path, startLine: start, endLine: end, whole: false };
        const text = header(part) + numbered(lines.slice(start - 1, end), start) + "\n";
        const tokens = estimateTokens(text);
        if (tokens <= left) {
          items.push({ ...part, text, tokens, reason: c.reason });
          used += tokens;
          omitted.push({
            kind: c.kind,
            path: c.path,
            tokens: wholeTokens - tokens,
            why: `only lines ${start}-${end} of ${lines.length} fit in the budget`,
          });
          break;
        }
      }
      if (items.some((i) => i.path === c.path && i.kind === c.kind)) continue;
    }
    omitted.push({
      kind: c.kind,
      path: c.path,
      tokens: wholeTokens,
      why: `needs ~${wholeTokens} tokens, ${left} left of ${budget}`,
    });
  }
  return { items, omitted, tokens: used, budget };
}

/** The packed context as one text block for the model, with the list of what was left out at the end. */
export function renderPackedContext(packed: PackedContext): string {
  const parts = packed.items.map((i) => i.text);
  if (packed.omitted.length > 0) {
    parts.push(
      "=== left out of this context (use the read_file / grep / list_dir tools to look) ===\n" +
        packed.omitted.map((o) => `- ${o.path} [${o.kind}]: ${o.why}`).join("\n") +
        "\n",
    );
  }
  return parts.join("\n");
}
