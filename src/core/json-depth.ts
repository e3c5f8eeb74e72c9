/**
 * The nesting depth of a JSON text, read in one linear pass before anything parses it. `JSON.parse` allocates
 * an array or object per level (a 4 MB body of 2,000,000 nested arrays cost the App 236 MiB), so a text from
 * outside (a webhook delivery, the Action's event file) is refused past a depth no real payload has. Brackets
 * inside strings do not count. Pure.
 */

/** Deeper than any GitHub webhook payload (about 10 levels) with a wide margin. */
export const MAX_PAYLOAD_DEPTH = 100;

/** The deepest nesting of `text`, or the first depth past `stopAt` (the scan stops there). */
export function jsonDepth(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stopAt) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/**
 * Whether a parsed value nests past `max` levels (arrays and objects), found by an explicit stack, so a value
 * nested 100,000 deep is measured without the recursion that would overflow the call stack. Stops at the first
 * level past `max`.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth + 1 > max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}
