/**
 * The part of a log worth showing a model or a reviewer: the failure blocks (with a little context),
 * `##[error]` lines and the tail of the log (where runners print their summary), within a size
 * budget. Timestamps and ANSI colours are removed; omitted stretches are marked.
 */
import { createLogParser, type LogParserOptions } from "./engine.ts";
import type { ParsedLog } from "./failure.ts";
import { createPathMapper, normalizeLine } from "./normalize.ts";

export interface ExcerptOptions extends LogParserOptions {
  /** The result of `parseLog` on the same text, to avoid parsing twice. */
  parsed?: ParsedLog;
  /** Size budget of the excerpt in characters (default 12 000). */
  maxChars?: number;
  /** Lines of context kept before each failure block (default 2). */
  context?: number;
  /** Lines kept from the end of the log (default 15). */
  tailLines?: number;
}

export function excerpt(text: string, options: ExcerptOptions = {}): string {
  const maxChars = options.maxChars ?? 12_000;
  const context = options.context ?? 2;
  const tailLines = options.tailLines ?? 15;
  const raw = text.split("\n");
  if (raw.length > 0 && raw[raw.length - 1] === "") raw.pop();
  const parsed =
    options.parsed ??
    (() => {
      const p = createLogParser(options);
      for (const l of raw) p.line(l);
      return p.end();
    })();
  const mapPaths = createPathMapper(options);
  const cache = new Map<number, string | null>();
  const clean = (i: number): string | null => {
    if (cache.has(i)) return cache.get(i)!;
    const n = normalizeLine(raw[i]!, mapPaths);
    let line = n === null ? null : n.ghError ? `##[error]${n.text}` : n.text;
    if (line !== null && line.length > 2_000) line = `${line.slice(0, 2_000)}…`;
    cache.set(i, line);
    return line;
  };

  // Ranges are 0-based, inclusive. Failure blocks first: they get the budget before the tail.
  const ranges: { from: number; to: number; priority: number }[] = [];
  for (const f of parsed.failures) {
    const start = Math.min(raw.length - 1, f.span.start - 1);
    ranges.push({ from: start, to: Math.min(raw.length - 1, f.span.end - 1), priority: 0 });
    if (context > 0 && start > 0)
      ranges.push({ from: Math.max(0, start - context), to: start - 1, priority: 1 });
  }
  for (let i = 0; i < raw.length; i++) {
    if (raw[i]!.includes("##[error]")) ranges.push({ from: i, to: i, priority: 1.5 });
  }
  let tailStart = raw.length - 1;
  for (let kept = 0; tailStart > 0 && kept < tailLines; tailStart--)
    if (raw[tailStart]!.trim() !== "") kept++;
  if (raw.length > 0) ranges.push({ from: Math.max(0, tailStart), to: raw.length - 1, priority: 2 });
  if (parsed.failures.length === 0 && raw.length > tailLines)
    ranges.push({ from: 0, to: Math.min(9, raw.length - 1), priority: 3 });

  // Budget: each range in priority order takes what it needs; an oversized block keeps its head.
  let budget = maxChars;
  const chosen: { from: number; to: number }[] = [];
  // Every failure block gets a fair share first, so a long first block cannot crowd out the others.
  const perBlock = Math.max(80, Math.floor((maxChars * 0.75) / Math.max(1, parsed.failures.length)));
  for (const r of ranges.sort((a, b) => a.priority - b.priority || a.from - b.from)) {
    if (budget <= 0) break;
    const cap = r.priority === 0 ? Math.min(perBlock, budget) : budget;
    let used = 0;
    let to = r.from - 1;
    for (let i = r.from; i <= r.to; i++) {
      const len = (clean(i)?.length ?? -1) + 1;
      // The first line of a failure block is always kept: it names the failure.
      if (used + len > cap && !(r.priority === 0 && i === r.from && len <= budget)) break;
      used += len;
      to = i;
    }
    if (to >= r.from) {
      chosen.push({ from: r.from, to });
      budget -= used;
    }
  }
  chosen.sort((a, b) => a.from - b.from);
  const merged: { from: number; to: number }[] = [];
  for (const r of chosen) {
    const last = merged[merged.length - 1];
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else merged.push({ ...r });
  }
  const out: string[] = [];
  let next = 0;
  for (const r of merged) {
    if (r.from > next) out.push(`… ${r.from - next} lines omitted …`);
    for (let i = r.from; i <= r.to; i++) {
      const line = clean(i);
      if (line !== null) out.push(line);
    }
    next = r.to + 1;
  }
  if (next < raw.length) out.push(`… ${raw.length - next} lines omitted …`);
  return out.join("\n");
}
