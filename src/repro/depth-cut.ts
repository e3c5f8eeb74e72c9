/**
 * Node's printer cuts a structure past its depth limit: `{ a: { b: [Object] } }`, `[ [Array] ]`. A reported line
 * with such a cut says nothing about what was there; a run that prints the value in full (its echo reaches deeper,
 * or its console did) shows the same output. So a cut is compared as what it is: `[Object]` matches any object (a
 * `{…}`, a `Name {…}` or another `[Object]`/`[Name]`), `[Array]` any array (`[…]`, `Array(n)`). Compared on text
 * whose whitespace is already dropped (`outputAppears`'s compact form). Pure.
 */

import { scanCode } from "./code-scan.ts";

const CUT = /\[(?:Object|Array)\]/;

/** Whether the text holds one of Node's depth cuts. */
export function hasDepthCut(text: string): boolean {
  return CUT.test(text);
}

/**
 * End (exclusive) of the bracketed value opening at `at` (`{` or `[`), strings skipped (the one code scanner's
 * walk); -1 when it never closes, or a bracket of another kind closes it.
 */
function closing(text: string, at: number): number {
  const end = scanCode(text.slice(at), (ch, i, depth) =>
    depth === 0 ? (ch === "}" || ch === "]" ? at + i + 1 : -1) : undefined,
  ).stopped;
  return end ?? -1;
}

/** The ends `printed` can reach from `at` by one value of the cut's kind. */
function cutEnds(printed: string, at: number, kind: "Object" | "Array"): number[] {
  const ends: number[] = [];
  // Another cut in the printed text (the run's printer stopped there too), of either kind.
  const cut = /^\[(?:Object|Array|[A-Z][\w$]*)\]/.exec(printed.slice(at));
  if (cut) ends.push(at + cut[0].length);
  // A class name before the value: `Foo{…}`, `Array(2)[…]`, `Map(1){…}`.
  const named = /^[A-Z][\w$]*(?:\(\d+\))?(?=[{[])/.exec(printed.slice(at));
  const start = at + (named ? named[0].length : 0);
  const open = printed[start];
  if (
    (kind === "Object" && (open === "{" || (named && open === "["))) ||
    (kind === "Array" && open === "[")
  ) {
    const end = closing(printed, start);
    if (end > 0) ends.push(end);
  }
  return ends;
}

/** `wanted` (with cuts) matches `printed` from `p`, to its end when `whole`, else anywhere after. */
function matchFrom(wanted: string, w: number, printed: string, p: number, whole: boolean): boolean {
  while (w < wanted.length) {
    const cut = /^\[(Object|Array)\]/.exec(wanted.slice(w));
    if (cut) {
      const kind = cut[1] as "Object" | "Array";
      return cutEnds(printed, p, kind).some((end) =>
        matchFrom(wanted, w + cut[0].length, printed, end, whole),
      );
    }
    if (printed[p] !== wanted[w]) return false;
    w++;
    p++;
  }
  return !whole || p === printed.length;
}

/**
 * Whether `printed` shows `wanted`, each depth cut in `wanted` standing for one value of its kind: the whole line
 * when `whole`, else somewhere inside it. Both already compacted (whitespace and key quotes dropped).
 */
export function cutMatches(wanted: string, printed: string, whole: boolean): boolean {
  if (!hasDepthCut(wanted) || printed.length > 20_000) return false;
  if (whole) return matchFrom(wanted, 0, printed, 0, true);
  for (let p = 0; p < printed.length; p++) if (matchFrom(wanted, 0, printed, p, false)) return true;
  return false;
}
