/**
 * Glob matching whose cost is linear in the path for any glob: the matcher for every glob a repository (or its
 * config) names — workspace globs, `fix.checks`, the policy gate's path globs. picomatch compiles a glob to a
 * backtracking regular expression, and a segment with several stars (`*a*a*a…*c`) against a long name of `a`s
 * costs a polynomial of the number of stars (a 15-star glob against a 60-character name ran past 10 s of host CPU).
 * Here a segment is matched by the two-pointer wildcard algorithm (at most pattern × name steps) and `**` by a
 * table over (glob segment, path segment) pairs, never by a regular expression.
 *
 * The syntax is picomatch's as Retrace's globs use it: `*`, `?`, `[…]` classes (`!`/`^` negation, ranges),
 * `\` escapes, `**` as a whole segment, `{a,b}` alternatives (nested) and `{1..3}` ranges, a leading `!` that
 * negates; `dot` and `nocase` as picomatch's options. Two differences, both towards the plain reading: `(` and `)`
 * are literal (picomatch reads them as a regex group, so `test (ubuntu-*)` never matched a check named
 * `test (ubuntu-22.04)`), and `[!a]` is a class of everything but `a`. An extglob (`@(…)`, `!(…)`, `+(…)`, `*(…)`, `?(…)`) or
 * a glob expanding to more than 256 alternatives is refused (`GlobError`), never matched by another rule. Pure.
 */

export class GlobError extends Error {
  override name = "GlobError";
}

export interface GlobOptions {
  /** Wildcards match a leading `.` of a segment (never `.` or `..` themselves). */
  dot?: boolean;
  nocase?: boolean;
}

/** Most alternatives one glob's braces may expand to. */
export const MAX_GLOB_ALTERNATIVES = 256;

type Token =
  | { t: "lit"; c: string }
  | { t: "one" }
  | { t: "star" }
  | { t: "class"; negate: boolean; ranges: [string, string][] };
type Segment = Token[] | "**";

/** Where the brace opened at `open` closes, or -1 (escapes skipped). */
function closingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The top-level comma-separated parts of a brace body, or null when it has no top-level comma. */
function braceParts(body: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(from, i));
      from = i + 1;
    }
  }
  if (parts.length === 0) return null;
  parts.push(body.slice(from));
  return parts;
}

function rangeParts(body: string): string[] | null {
  const num = /^(-?\d+)\.\.(-?\d+)$/.exec(body);
  if (num) {
    const a = Number(num[1]);
    const b = Number(num[2]);
    if (Math.abs(b - a) >= MAX_GLOB_ALTERNATIVES) throw new GlobError(`a range {${body}} is too large`);
    const out: string[] = [];
    for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1) out.push(String(i));
    return out;
  }
  const alpha = /^([A-Za-z])\.\.([A-Za-z])$/.exec(body);
  if (alpha) {
    const a = alpha[1]!.charCodeAt(0);
    const b = alpha[2]!.charCodeAt(0);
    const out: string[] = [];
    for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1) out.push(String.fromCharCode(i));
    return out;
  }
  return null;
}

/** `{a,b}` and `{1..3}` expanded, at most MAX_GLOB_ALTERNATIVES results. */
export function expandBraces(glob: string): string[] {
  let work = [glob];
  const done: string[] = [];
  while (work.length > 0) {
    const next: string[] = [];
    for (const g of work) {
      let open = -1;
      let parts: string[] | null = null;
      let close = -1;
      for (let i = 0; i < g.length; i++) {
        if (g[i] === "\\") {
          i++;
          continue;
        }
        if (g[i] !== "{") continue;
        const end = closingBrace(g, i);
        if (end < 0) break;
        const body = g.slice(i + 1, end);
        const p = braceParts(body) ?? rangeParts(body);
        if (p) {
          open = i;
          close = end;
          parts = p;
          break;
        }
      }
      if (!parts) {
        done.push(g);
        continue;
      }
      for (const p of parts) next.push(g.slice(0, open) + p + g.slice(close + 1));
      if (done.length + next.length > MAX_GLOB_ALTERNATIVES)
        throw new GlobError(`expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
    }
    work = next;
  }
  return done;
}

function parseSegment(seg: string, nocase: boolean): Token[] {
  const out: Token[] = [];
  const lc = (c: string) => (nocase ? c.toLowerCase() : c);
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if ("@!+*?".includes(c) && seg[i + 1] === "(")
      throw new GlobError("extglobs (`@(…)`, `*(…)` …) are not supported");
    if (c === "\\" && i + 1 < seg.length) out.push({ t: "lit", c: lc(seg[++i]!) });
    else if (c === "*") {
      if (out[out.length - 1]?.t !== "star") out.push({ t: "star" });
    } else if (c === "?") out.push({ t: "one" });
    else if (c === "[") {
      const end = seg.indexOf("]", i + 2);
      if (end < 0) {
        out.push({ t: "lit", c: "[" });
        continue;
      }
      let body = seg.slice(i + 1, end);
      const negate = body[0] === "!" || body[0] === "^";
      if (negate) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let j = 0; j < body.length; j++) {
        let a = body[j]!;
        if (a === "\\" && j + 1 < body.length) a = body[++j]!;
        if (body[j + 1] === "-" && j + 2 < body.length) {
          ranges.push([lc(a), lc(body[j + 2]!)]);
          j += 2;
        } else ranges.push([lc(a), lc(a)]);
      }
      out.push({ t: "class", negate, ranges });
      i = end;
    } else out.push({ t: "lit", c: lc(c) });
  }
  return out;
}

function tokenMatches(tok: Token, c: string): boolean {
  if (tok.t === "lit") return tok.c === c;
  if (tok.t === "one") return true;
  if (tok.t === "class") {
    const inside = tok.ranges.some(([a, b]) => c >= a && c <= b);
    return inside !== tok.negate;
  }
  return false;
}

/** One segment: the two-pointer wildcard algorithm (back to the last star only), at most |tokens| × |name| steps. */
function segmentMatches(tokens: Token[], name: string, dot: boolean): boolean {
  if (name === "") return tokens.length === 0;
  if (name[0] === "." && tokens[0]?.t !== "lit") {
    if (!dot || name === "." || name === "..") return false;
  }
  let t = 0;
  let n = 0;
  let starT = -1;
  let starN = 0;
  while (n < name.length) {
    const tok = tokens[t];
    if (tok && tok.t === "star") {
      starT = t++;
      starN = n;
    } else if (tok && tokenMatches(tok, name[n]!)) {
      t++;
      n++;
    } else if (starT >= 0) {
      t = starT + 1;
      n = ++starN;
    } else return false;
  }
  while (tokens[t]?.t === "star") t++;
  return t === tokens.length;
}

function compileOne(glob: string, options: GlobOptions): (segments: string[]) => boolean {
  const nocase = options.nocase ?? false;
  const dot = options.dot ?? false;
  const segments: Segment[] = glob
    .replace(/^(?:\.\/)+/, "")
    .split("/")
    .map((s) => (s === "**" ? "**" : parseSegment(s, nocase)));
  // Consecutive `**` are one.
  const segs = segments.filter((s, i) => !(s === "**" && segments[i - 1] === "**"));
  return (path) => {
    // memo[g * (P + 1) + p]: 0 unknown, 1 yes, 2 no. Filled bottom-up: at most |segs| × |path| cells.
    const P = path.length;
    const memo = new Uint8Array((segs.length + 1) * (P + 1));
    for (let g = segs.length; g >= 0; g--) {
      for (let p = P; p >= 0; p--) {
        let ok: boolean;
        if (g === segs.length) ok = p === P;
        else {
          const s = segs[g]!;
          if (s === "**") {
            // Zero segments, or this path segment (a visible one) and `**` again.
            const visible =
              p < P && path[p] !== "" && (dot ? path[p] !== "." && path[p] !== ".." : path[p]![0] !== ".");
            ok = memo[(g + 1) * (P + 1) + p] === 1 || (visible && memo[g * (P + 1) + p + 1] === 1);
          } else ok = p < P && segmentMatches(s, path[p]!, dot) && memo[(g + 1) * (P + 1) + p + 1] === 1;
        }
        memo[g * (P + 1) + p] = ok ? 1 : 2;
      }
    }
    return memo[0] === 1;
  };
}

/**
 * A matcher for `globs` (true when any matches, as picomatch's for a list). Throws `GlobError` for a glob it
 * does not read; callers name the glob and where it came from.
 */
export function globMatcher(
  globs: string | readonly string[],
  options: GlobOptions = {},
): (path: string) => boolean {
  const list = typeof globs === "string" ? [globs] : globs;
  const matchers: ((segments: string[]) => boolean)[] = [];
  for (const raw of list) {
    let glob = raw;
    let negate = false;
    while (glob.startsWith("!") && glob[1] !== "(") {
      negate = !negate;
      glob = glob.slice(1);
    }
    let alternatives: ((segments: string[]) => boolean)[];
    try {
      alternatives = expandBraces(glob).map((alt) => compileOne(alt, options));
    } catch (e) {
      throw e instanceof GlobError ? new GlobError(`glob ${JSON.stringify(raw)}: ${e.message}`) : e;
    }
    matchers.push((segments) => alternatives.some((m) => m(segments)) !== negate);
  }
  const nocase = options.nocase ?? false;
  return (path) => {
    if (path === "") return false;
    const segments = (nocase ? path.toLowerCase() : path).split("/");
    return matchers.some((m) => m(segments));
  };
}
