/**
 * File names in diff headers: git's C-style quoting, the `diff --git a/X b/Y` split, and `a/`/`b/` prefixes.
 */
import { tidySpelling } from "../core/repo-path.ts";

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  '"': '"',
};

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a C-quoted name at the start of `s` (git quotes names with control characters, `"`, `\` and, unless
 * core.quotePath is off, non-ASCII bytes as octal escapes). Returns the name and how many characters it used,
 * or null when the quoting is malformed or its octal bytes are not UTF-8.
 */
export function readQuoted(s: string): { name: string; length: number } | null {
  if (!s.startsWith('"')) return null;
  let out = "";
  let bytes: number[] = [];
  let invalid = false;
  const flush = () => {
    if (bytes.length > 0) {
      // Octal bytes that are not UTF-8 (`\377`, an overlong `\300\256`) name a file no UTF-8 text can: a lossy
      // decode writes U+FFFD instead, another name than the patch's, and two such names collapse to one (wave 20).
      try {
        out += UTF8.decode(new Uint8Array(bytes));
      } catch {
        invalid = true;
      }
      bytes = [];
    }
  };
  let j = 1;
  while (j < s.length) {
    const c = s[j]!;
    if (c === '"') {
      flush();
      return invalid ? null : { name: out, length: j + 1 };
    }
    if (c === "\\") {
      const next = s[j + 1];
      if (next === undefined) return null;
      if (/[0-7]/.test(next)) {
        const oct = s.slice(j + 1, j + 4);
        if (!/^[0-7]{3}$/.test(oct)) return null;
        bytes.push(Number.parseInt(oct, 8));
        j += 4;
        continue;
      }
      const simple = SIMPLE_ESCAPES[next];
      if (simple === undefined) return null;
      flush();
      out += simple;
      j += 2;
      continue;
    }
    flush();
    out += c;
    j += 1;
  }
  return null;
}

/** A name that may be quoted, followed by nothing but (for ---/+++) a tab and a timestamp. */
export function readHeaderName(s: string): string | null {
  if (s.startsWith('"')) return readQuoted(s)?.name ?? null;
  // GNU diff and git (for names with spaces) end the name with a tab; a timestamp may follow it.
  const tab = s.indexOf("\t");
  return tab === -1 ? s : s.slice(0, tab);
}

/**
 * Splits the names of `diff --git <old> <new>`. Quoted names are exact. Unquoted names are ambiguous when they
 * contain spaces; git itself resolves that by requiring both names to be equal (otherwise rename/copy headers
 * name the files), so we look for the split where the two halves name the same path.
 */
export function splitGitHeader(rest: string): { oldRaw: string; newRaw: string } | null {
  if (rest.startsWith('"')) {
    const first = readQuoted(rest);
    if (first === null || rest[first.length] !== " ") return null;
    const tail = rest.slice(first.length + 1);
    const second = tail.startsWith('"') ? readQuoted(tail) : { name: tail, length: tail.length };
    if (second === null || second.length !== tail.length) return null;
    return { oldRaw: first.name, newRaw: second.name };
  }
  const quoteAt = rest.indexOf(' "');
  if (quoteAt !== -1) {
    const second = readQuoted(rest.slice(quoteAt + 1));
    if (second !== null && quoteAt + 1 + second.length === rest.length) {
      return { oldRaw: rest.slice(0, quoteAt), newRaw: second.name };
    }
  }
  // Unquoted: try every space; prefer the split whose halves name the same file after their prefixes.
  const candidates: { oldRaw: string; newRaw: string }[] = [];
  for (let i = rest.indexOf(" "); i !== -1; i = rest.indexOf(" ", i + 1)) {
    candidates.push({ oldRaw: rest.slice(0, i), newRaw: rest.slice(i + 1) });
  }
  const same = candidates.find((c) => stripPrefix(c.oldRaw, "a/") === stripPrefix(c.newRaw, "b/"));
  if (same) return same;
  const prefixed = candidates.filter((c) => c.oldRaw.startsWith("a/") && c.newRaw.startsWith("b/"));
  if (prefixed.length === 1) return prefixed[0]!;
  return null;
}

export function stripPrefix(raw: string, prefix: "a/" | "b/"): string {
  return raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
}

/** `/dev/null` (and the odd `a/dev/null` some tools write) means "no file". */
export function isDevNull(raw: string): boolean {
  return raw === "/dev/null" || raw === "a/dev/null" || raw === "b/dev/null";
}

/**
 * The path used for glob matching: `./` and empty segments removed. Paths that are not canonical are reported
 * by the path-escape rule; this keeps `./.github//x` from slipping past a `.github/**` glob meanwhile.
 */
export function normalizeForMatch(path: string): string {
  return tidySpelling(path);
}
