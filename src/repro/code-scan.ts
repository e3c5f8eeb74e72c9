/**
 * The one scanner of a line of report code: it walks the characters outside string literals (`'…'`, `"…"`,
 * `` `…` ``, with backslash escapes inside them skipped) and keeps the bracket depth, so the readers of
 * comments, assignments and balanced expressions agree on what is code and what is a string.
 */

export interface ScanEnd<T> {
  /** What `visit` stopped the walk with; undefined when it walked to the end. */
  stopped: T | undefined;
  /** The bracket depth at the end (negative once a closing bracket had no opening one). */
  depth: number;
  /** The lowest depth reached: below zero, a bracket closed that was never opened. */
  lowest: number;
  /** True when the line ends inside a string. */
  inString: boolean;
}

/**
 * Calls `visit(ch, i, depth)` for each character outside strings (`depth` counts the brackets up to and
 * including `ch`); a value other than undefined stops the walk and is returned as `stopped`.
 */
export function scanCode<T>(
  code: string,
  visit: (ch: string, i: number, depth: number) => T | undefined = () => undefined,
): ScanEnd<T> {
  let depth = 0;
  let lowest = 0;
  let quote: string | null = null;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") {
      quote = ch;
      continue;
    }
    if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    lowest = Math.min(lowest, depth);
    const stopped = visit(ch, i, depth);
    if (stopped !== undefined) return { stopped, depth, lowest, inString: false };
  }
  return { stopped: undefined, depth, lowest, inString: quote !== null };
}
