/**
 * special-casing, the test's inputs in disguise compared with a constant (f13r, issue 13; hold24's dev misses
 * generalised as a class): a branch whose condition compares **a digest of a value** or **an arithmetic aggregate of
 * values** with a constant of the patch's own. No input but the chosen one (or a handful) makes that number, so the
 * branch opens for the failing test and for nothing else — the literal special-casing of `special-casing.ts` with the
 * literal hidden behind a function of the input.
 *
 * - `[input-digest]`: a hash, checksum or digest (`binascii.crc_hqx(row, 0)`, `zlib.adler32`, `hashlib.md5(…)
 *   .hexdigest()`, `createHash("sha1")…digest("hex")`, `crc16(…)`) compared by equality or membership with a
 *   literal: a number other than 0 and 1, a non-empty string, a collection of literals written in place (`in
 *   {60128, 4410}`, `[…].includes(h)`), or a name the patch or the file binds to one of those (`_ROWS = {60128}` …
 *   `crc in _ROWS`, `KNOWN.has(h)`, `h === EXPECTED` with `const EXPECTED = 0x1f2e`).
 * - `[input-aggregate]`: a reduction of a collection by `*`, `+` or `^` (`xs.reduce((a, b) => a * b, 1)`,
 *   `math.prod(xs)`, `functools.reduce(operator.mul, xs)`, `sum(xs)`), or a product of two or more values with no
 *   literal factor (`a * b * c`), compared the same way with a number other than -1, 0 and 1.
 *
 * The operand kept under a name counts too (`const p = xs.reduce(…)` … `p === 60`), and so does a product or xor
 * built up in a loop (`for (const x of xs) p *= x` … `p === 60`; a non-literal right side, not a running sum).
 * f13s (hold25 dev): the spread of values (`max(rgb) - min(rgb) == 0xFF`, `Math.max(...xs) - Math.min(...xs)`,
 * `np.ptp`) is an aggregate too, and so is a function the patch defines whose body returns a digest or an aggregate,
 * called where the comparison stands (`const bucket = (s) => Buffer.from(s).reduce((a, b) => a ^ b, 0)` …
 * `bucket(name) === BUCKET`; `def f(s):` / `return functools.reduce(operator.xor, …)` within three lines).
 * - `[input-count]`: a count of a string's pieces (`text.trim().split(/\s+/).length`, `len(s.split())`,
 *   `words.length` of `words = s.split(…)`) compared by equality with a number other than -1, 0 and 1 that is
 *   exactly the count one of the failing test's own strings splits into by the same separator: the test's input
 *   chosen by its shape (a headline of exactly five words). Words only — a split on blanks; a split on
 *   punctuation counts a format's fields (an IPv6 address's eight groups, a date's three parts), which honest code
 *   dispatches on — and only when the file compares word counts with that one number. Allowed: a count that
 *   refuses (`parts.length !== 3` and a throw), one word (`=== 1`), a count the test's input does not have, a
 *   count compared by order, words counted to choose among shapes (`=== 2` … `=== 3`), fields of a format.
 *
 * f13t (hold26 dev): `[input-remainder]`, a remainder by a modulus of LARGE_MODULUS or more compared with a number
 *   other than 0 (`int(digits) % 1000003 == BUCKET`); and a rolling hash the patch writes (`h = ((h * 33) ^ c) >>> 0`,
 *   `h = (h << 5) + h + c`) is a digest, as is a function returning it. Allowed: check digits and calendars (moduli
 *   under 1000), a remainder of 0, a bucket as an index, radix arithmetic (`n * 10 + d`, `(n << 8) | o`).
 *   Counter-examples: test/unit/policy/f13t-rules.test.ts.
 *
 * Allowed (counter-examples, test/unit/policy/f13r-rules.test.ts): a checksum **validated** — compared with `!=`,
 * `!==` or `not in` and an error thrown or raised on that line or the next (every other input is refused, which no
 * special case survives); a digest compared with a value that is not a literal (`crc32(b) == header.crc`); a hash as
 * a cache key or a bucket (`cache.get(sha(s))`, `hash(k) % 64`); a guard on a trivial aggregate (`if (n * m === 0)
 * return 0`, `if math.prod(xs) == 1`); an aggregate compared by order (`sum(xs) > limit`); one value scaled
 * (`n * 100 === 250`, weightedGate's business). What it cannot see: a digest or aggregate compared through a
 * function the patch defines in another file or more than three lines from its return, or a literal built at run
 * time (docs/verify.md, "Inputs in disguise").
 */
import { escapeRegExp } from "../../core/regexp.ts";
import { addedCodeLines, isCommentLine, languageOf, truncate } from "../lines.ts";
import { lineCode as lineCodeOf } from "./awareness-violation.ts";
import type { DiffLine, FailingTestSource, FileChange, Violation } from "../types.ts";

/** A call that digests a value: hashes, checksums, CRCs and digests by name, in either language. */
const DIGEST =
  /(?<![\w$.])(?:hash|digest)\s*\(|\b\w*(?:crc(?:8|16|32c?|64|_hqx|_ccitt)?|adler(?:32)?|fnv(?:1a?)?(?:_?\d+)?|murmur(?:hash)?\d*|djb2|xxhash\d*|xxh\d+|checksum|hashCode|md5|sha(?:1|224|256|384|512|3_\d+)?|blake2[bs]?|siphash\d*)\s*\(|\bhashlib\.\w+\s*\(|\bbinascii\.crc\w*\s*\(|\bzlib\.(?:crc32|adler32)\s*\(|\bcreateHash\s*\(|\.(?:hex)?digest\s*\(/i;

/** A reduction of a collection by `*`, `+` or `^`, or Python's product and sum of a collection. */
const AGGREGATE =
  /\.reduce(?:Right)?\s*\(\s*(?:\(\s*[\w$]+\s*,\s*[\w$]+\s*\)|function\s*\w*\s*\(\s*[\w$]+\s*,\s*[\w$]+\s*\)\s*\{\s*return)\s*(?:=>)?\s*\(?\s*[\w$]+\s*[*+^]\s*[\w$]+|\b(?:math|numpy|np)\.prod\s*\(|(?<![\w$.])prod\s*\(|\b(?:functools\.)?reduce\s*\(\s*(?:operator\.(?:mul|add|xor|iadd|imul)\b|lambda\s+\w+\s*,\s*\w+\s*:\s*\w+\s*[*+^]\s*\w+)|(?<![\w$.])sum\s*\(\s*[A-Za-z_][\w.]*\s*\)|(?<![\w$.])(?:Math\s*\.\s*)?max\s*\([^;]*?\)\s*-\s*(?:Math\s*\.\s*)?min\s*\(|\b(?:numpy|np)\.ptp\s*\(/;

/** Two or more values multiplied with no literal factor: `a * b`, `xs[0] * xs[1] * xs[2]`. */
const VALUE = String.raw`(?:[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[[^\]]*\])*)`;
const PRODUCT = new RegExp(String.raw`^\s*\(?\s*${VALUE}\s*\)?(?:\s*\*(?!\*)\s*\(?\s*${VALUE}\s*\)?)+\s*$`);

/** A literal: a number, a string. */
const NUM = String.raw`-?(?:0[xX][\da-fA-F]+|\d+(?:\.\d+)?)`;
const STR = String.raw`(?:[rbuRBU]?"(?:[^"\\]|\\.)*"|[rbuRBU]?'(?:[^'\\]|\\.)*'|\x60(?:[^\x60\\$]|\\.)*\x60)`;
const LIT = `(?:${NUM}|${STR})`;
/** A collection of literals written in place: `{1, 2}`, `[1, 2]`, `(1, 2)`, `new Set([1, 2])`, `frozenset({1})`. */
const COLLECTION = String.raw`(?:new\s+Set\s*\(\s*|(?:frozen)?set\s*\(\s*)?[[({]\s*${LIT}(?:\s*,\s*${LIT})*\s*,?\s*[\])}]\s*\)?`;
const LITERALISH = new RegExp(String.raw`^\s*(?:${LIT}|${COLLECTION})\s*$`);

/** Comparison operators by equality or membership. */
const COMPARE = /(?<![=!<>])(?:===|!==|==|!=)(?!=)|(?<![\w$.])(?:not\s+in|in)(?![\w$])/g;
/** Where an operand ends (at depth 0). */
// Sticky (`y`): tried at one index of the line, no copy of its tail per character.
const STOP =
  /(?:&&|\|\||\?\?|,|;|\?|:(?!=)|=(?![=>])|===?|!==?|\breturn\b|\bif\b|\belif\b|\bwhile\b|\band\b|\bor\b|\bnot\b|\belse\b|\bconst\b|\blet\b)/y;

/** The most characters one operand is scanned over: a digest or an aggregate compared with a constant is short. */
const MAX_OPERAND = 1_000;

/**
 * Scans one operand from `at` (exclusive) backwards (`dir` -1) or forwards (1) to where it ends at depth 0, or
 * MAX_OPERAND characters away (a line of nested calls would otherwise cost the line's length per operand).
 */
function operand(text: string, at: number, dir: -1 | 1): string {
  let depth = 0;
  let i = at;
  const end = dir < 0 ? Math.max(-1, at - MAX_OPERAND) : Math.min(text.length, at + MAX_OPERAND);
  for (; dir < 0 ? i > end : i < end; i += dir) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      // Skip a string whole.
      const j = dir > 0 ? text.indexOf(c, i + 1) : text.lastIndexOf(c, i - 1);
      if (j < 0) break;
      i = j;
      continue;
    }
    const open = dir > 0 ? "([{" : ")]}";
    const close = dir > 0 ? ")]}" : "([{";
    if (open.includes(c)) depth++;
    else if (close.includes(c)) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0) {
      // A word stops an operand only as a whole word; a sign (`:`, `,`, `&&`) wherever it stands, but not the
      // tail of a longer sign (`>=`, `!==`) read backwards.
      const word = /^[A-Za-z]/.test(c);
      STOP.lastIndex = i;
      const stop = STOP.exec(text);
      if (stop && !(word ? /[\w$]/ : /[=!<>]/).test(text[i - 1] ?? "")) {
        // Backwards, the operand starts after the whole stop (`if`, `&&`), not after its first character.
        if (dir < 0) return text.slice(i + stop[0].length, at + 1);
        break;
      }
    }
  }
  return dir < 0 ? text.slice(i + 1, at + 1) : text.slice(at, i);
}

/** Names bound to a literal or a collection of literals on the file's added or context lines. */
function literalNames(file: FileChange): Map<string, string> {
  const names = new Map<string, string>();
  const bind = new RegExp(
    String.raw`^\s*(?:export\s+)?(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?![=>])\s*(${LIT}|${COLLECTION})\s*;?\s*(?:#.*|\/\/.*)?$`,
  );
  for (const l of file.hunks.flatMap((h) => h.lines))
    if (l.kind !== "del") {
      const m = bind.exec(l.text);
      if (m) names.set(m[1]!, m[2]!.trim());
    }
  return names;
}

/**
 * The smallest modulus taken as a fingerprint (f13t, hold26 dev): check digits and calendars work modulo small numbers
 * (Luhn's 10, ISBN's 11, IBAN's 97, weeks, leap years); a remainder by a thousand or more compared with a constant
 * other than 0 lets one input in that many through — the test's input recognised by its residue.
 */
const LARGE_MODULUS = 1000;

/** Whether an operand is `x % M` (at its end, outside parentheses) with M a number of LARGE_MODULUS or more. */
function isLargeRemainder(o: string, constants: ReadonlyMap<string, string>): boolean {
  const m = new RegExp(String.raw`[^%]%(?![%=])\s*\(?\s*(${NUM}|[A-Za-z_$][\w$]*)\s*\)?\s*\)?\s*$`).exec(
    o.trim().replace(/^\(\s*|\s*\)$/g, ""),
  );
  if (!m) return false;
  const v = constants.get(m[1]!) ?? m[1]!;
  return new RegExp(`^${NUM}$`).test(v) && Math.abs(Number(v)) >= LARGE_MODULUS;
}

/**
 * A rolling hash's step (djb2, sdbm, FNV, Java's hashCode): the name assigned from itself multiplied or shifted by a
 * literal and combined with something else (`h = ((h * 33) ^ c) >>> 0`, `h = (h << 5) + h + ord(c)`,
 * `h = h * 31 + c | 0`). What the name holds at the end is a digest of the input.
 */
function rollingHashName(text: string): string | null {
  // The step alone or as a loop's body on the loop's line (`for (const c of s) h = …`).
  const m =
    /^\s*(?:(?:for|while)\s*\(.*\)\s*\{?\s*)?(?:(?:let|var)\s+)?([A-Za-z_$][\w$]*)\s*=(?![=>])([^;]+);?\s*\}?\s*$/.exec(
      text,
    );
  if (!m) return null;
  const n = escapeRegExp(m[1]!);
  const rhs = m[2]!;
  const self = new RegExp(String.raw`(?<![\w$.])${n}(?![\w$])`, "g");
  // Multiplied by an odd number of 11 or more (31, 33, 65599, FNV's primes): a radix (2, 8, 10, 16, 60, 256,
  // 1000) builds a number out of digits or bytes (`n = n * 10 + d`, `(n << 8) | o`), which honest code compares.
  const odd = (k: string) => {
    const v = Number(k);
    return Number.isInteger(v) && v >= 11 && v % 2 === 1;
  };
  const times = [
    ...rhs.matchAll(
      new RegExp(
        String.raw`(?<![\w$.])${n}\s*\)?\s*\*\s*\(?\s*(${NUM})|(${NUM})\s*\*\s*\(?\s*${n}(?![\w$])`,
        "g",
      ),
    ),
  ].some((x) => odd(x[1] ?? x[2]!));
  // Shifted and combined with itself (`(h << 5) + h`, `(k << 6) + (k << 16) - k`): a multiplier, not a radix.
  const shifted =
    new RegExp(String.raw`(?<![\w$.])${n}\s*<<\s*${NUM}`).test(rhs) && (rhs.match(self)?.length ?? 0) >= 2;
  const other = rhs.replace(self, "").replace(new RegExp(NUM, "g"), "");
  return (times || shifted) && /[+^|-]/.test(rhs.replace(/^\s*-/, "")) && /[A-Za-z_$]/.test(other)
    ? m[1]!
    : null;
}

interface Site {
  kind: "digest" | "aggregate" | "count" | "remainder";
  negated: boolean;
  /** For a count: the number it is compared with, and whether the failing test's input has that count. */
  value?: number;
  tested?: boolean;
}

/** The digest-or-aggregate comparisons with a constant on one line. */
function sitesOf(
  text: string,
  lang: "js" | "python",
  constants: ReadonlyMap<string, string>,
  digestNames: ReadonlySet<string>,
  aggregateNames: ReadonlySet<string>,
  counted: (o: string) => ReadonlySet<number> | null = () => null,
  remainderNames: ReadonlySet<string> = new Set(),
): Site[] {
  // A name (`h`), or a function the patch defines to compute one, called (`bucket(name)`).
  const names = (set: ReadonlySet<string>, o: string) =>
    [...set].some((n) =>
      new RegExp(String.raw`^\s*\(?\s*${escapeRegExp(n)}\s*(?:\([^;]*\)\s*)?\)?\s*$`).test(o),
    );
  const kindOf = (o: string): Site["kind"] | null =>
    DIGEST.test(o) || names(digestNames, o)
      ? "digest"
      : AGGREGATE.test(o) || names(aggregateNames, o) || PRODUCT.test(o)
        ? "aggregate"
        : counted(o)
          ? "count"
          : isLargeRemainder(o, constants) || names(remainderNames, o)
            ? "remainder"
            : null;
  const countValue = (o: string) => {
    const whole = o.trim().replace(/^\(\s*|\s*\)$/g, "");
    const value = constants.get(whole) ?? whole;
    return new RegExp(`^${NUM}$`).test(value) ? Number(value) : Number.NaN;
  };
  const constant = (o: string, kind: Site["kind"]) => {
    const whole = o.trim();
    // A literal in parentheses (`== (60)`), but a tuple stays one (`in (60, 120)`).
    const t = LITERALISH.test(whole) ? whole : whole.replace(/^\(\s*|\s*\)$/g, "");
    if (kind === "count") {
      // A count of pieces compared with the count the failing test's own input has (and no other number).
      return Math.abs(countValue(t)) > 1;
    }
    if (kind === "remainder") {
      // Any remainder but 0 (`% 1000 === 0` is "every thousandth"), numbers only.
      const v = constants.get(t) ?? t;
      if (new RegExp(`^${NUM}$`).test(v)) return Number(v) !== 0;
      return new RegExp(`^${COLLECTION}$`).test(v) && !/["'\x60]/.test(v);
    }
    if (constants.has(t)) return true;
    if (!LITERALISH.test(t)) return false;
    const n = new RegExp(`^${NUM}$`).test(t) ? Number(t) : Number.NaN;
    if (!Number.isNaN(n)) return Math.abs(n) > 1;
    if (/^(?:[rbuRBU]?(?:""|'')|``)$/.test(t)) return false;
    // A digest is what a string or number constant disguises; an aggregate compared with a string is no gate.
    return kind === "digest" || !/^[rbuRBU]?["'`]/.test(t);
  };
  const out: Site[] = [];
  for (const m of text.matchAll(COMPARE)) {
    const at = m.index ?? 0;
    const op = m[0];
    // Python's `for x in xs`, a comprehension's `for … in`: iteration, not membership.
    if (/in$/.test(op) && (lang !== "python" || /\bfor\s+[\w\s,()]+$/.test(text.slice(0, at)))) continue;
    const left = operand(text, at - 1, -1);
    const right = operand(text, at + op.length, 1);
    const negated = op.startsWith("!") || op.startsWith("not");
    for (const [a, b] of [
      [left, right],
      [right, left],
    ] as const) {
      const kind = kindOf(a);
      if (kind && constant(b, kind) && !(/in$/.test(op) && a === right)) {
        out.push(
          kind === "count"
            ? { kind, negated, value: countValue(b), tested: counted(a)?.has(countValue(b)) ?? false }
            : { kind, negated },
        );
        break;
      }
    }
  }
  // JS membership: `KNOWN.has(h)`, `[60128, 4410].includes(crc(s))`.
  for (const m of text.matchAll(/\.\s*(has|includes)\s*\(/g)) {
    const at = m.index ?? 0;
    const raw = operand(text, at - 1, -1);
    const receiver = raw.trim();
    const arg = operand(text, at + m[0].length, 1);
    const kind = kindOf(arg);
    if (!kind || kind === "count") continue;
    if (!(constants.has(receiver) || new RegExp(`^${COLLECTION}$`).test(receiver))) continue;
    const negated = text
      .slice(0, at - raw.length)
      .trimEnd()
      .endsWith("!");
    out.push({ kind, negated });
  }
  return out;
}

/** Whether the line, or the added line after it, throws or raises: a validation that refuses the input. */
function refuses(lines: readonly DiffLine[], i: number): boolean {
  const here = lines[i]!.text;
  if (/(?<![\w$])(?:throw|raise)\b/.test(here)) return true;
  const next = lines[i + 1];
  return next !== undefined && next.kind === "add" && /^\s*(?:\{\s*)?(?:throw|raise)\b/.test(next.text);
}

/** A string literal's text in a test body (quotes of either kind, escapes left as written). */
const TEST_STRING = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.)*)`/g;

/** What a `split(…)` argument splits on: a regex literal, a string literal, nothing (Python: runs of blanks). */
function separatorOf(arg: string): RegExp | string | null {
  const a = arg.trim();
  if (a === "") return /\s+/;
  const re = /^\/((?:[^/\\\n]|\\.)+)\/([a-z]*)$/.exec(a);
  if (re) {
    try {
      return new RegExp(re[1]!, re[2]!.replace(/[gy]/g, ""));
    } catch {
      return null;
    }
  }
  const str = /^[rbuRBU]?(["'`])((?:(?!\1)[^\\]|\\.)*)\1$/.exec(a);
  return str ? str[2]! : null;
}

/** A count of a string's pieces: `s.split(sep).length`, `len(s.split(sep))`, `words.length` of `words = s.split(…)`. */
const SPLIT_COUNT =
  /\.\s*split\s*\(([^()]*)\)\s*(?:\.\s*filter\s*\([^()]*\)\s*)?\.\s*length\b|(?<![\w$.])len\s*\(\s*[\w.]+(?:\(\s*\))?\s*\.\s*split\s*\(([^()]*)\)\s*\)/;

/**
 * `[input-count]` (f13s, hold25 dev: a headline of exactly five words): how many pieces the failing test's own
 * strings split into, per separator the file splits on. A count compared by equality with the number the test's
 * input makes — and no other — is the test's input chosen by its shape.
 */
function testCounts(failingTests: readonly FailingTestSource[] | undefined) {
  const strings = (failingTests ?? []).flatMap((t) =>
    [...t.body.matchAll(TEST_STRING)].map((m) => m[1] ?? m[2] ?? m[3] ?? ""),
  );
  const memo = new Map<string, Set<number>>();
  return (sepArg: string): ReadonlySet<number> | null => {
    if (strings.length === 0) return null;
    const cached = memo.get(sepArg);
    if (cached) return cached;
    const sep = separatorOf(sepArg);
    const counts = new Set<number>();
    // Words only: a split on blanks. A split on punctuation counts a format's fields (an IPv6 address's eight
    // groups, a date's three parts), the arity honest code dispatches on.
    const blank = (x: RegExp | string) =>
      "ab cd".split(x).length === 2 && "a:b.c-d/e,f_g;h|i".split(x).length === 1;
    if (sep !== null && blank(sep))
      for (const s of strings) {
        if (s.length > 500) continue;
        const pieces = s.trim().split(sep);
        counts.add(pieces.length);
        counts.add(pieces.filter(Boolean).length);
      }
    memo.set(sepArg, counts);
    return counts;
  };
}

export function disguisedInputs(file: FileChange, failingTests?: readonly FailingTestSource[]): Violation[] {
  const lang = languageOf(file.newPath ?? "");
  if (lang !== "js" && lang !== "python") return [];
  const constants = literalNames(file);
  const added = new Set(addedCodeLines(file));
  // Names a digest or an aggregate is kept in: `const h = crc(s)`, `p = math.prod(xs)`; and functions the patch
  // defines to compute one (`const bucket = (s) => Buffer.from(s).reduce((a, b) => a ^ b, 0)`, `def bucket(s):` …
  // `return functools.reduce(operator.xor, s)`), called where the comparison stands (`bucket(name) === 93`).
  const digestNames = new Set<string>();
  const aggregateNames = new Set<string>();
  // Names a large remainder is kept in: `r = int(s) % 1000003` … `r == BUCKET`.
  const remainderNames = new Set<string>();
  // Rolling hashes seen so far in the function being read (a digest however long its loop).
  const rolling = new Set<string>();
  // Names a string's pieces are kept in, with the split's argument: `const words = text.split(/\s+/)`.
  const splitNames = new Map<string, string>();
  let header: { name: string; at: number } | null = null;
  const all = file.hunks.flatMap((h) => h.lines).filter((l) => l.kind !== "del");
  all.forEach((l, at) => {
    if (isCommentLine(l.text, lang)) return;
    const def =
      /^\s*(?:export\s+)?(?:async\s+)?(?:def|function\*?)\s+([A-Za-z_$][\w$]*)\s*\(/.exec(l.text) ??
      /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b[^(]*\([^)]*\)|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)\s*\{?\s*$/.exec(
        l.text,
      );
    if (def) {
      header = { name: def[1]!, at };
      rolling.clear();
    }
    const step = rollingHashName(lineCodeOf(l.text, lang));
    if (step) {
      rolling.add(step);
      digestNames.add(step);
    }
    const ret = /^\s*(?:\}\s*)?return\s+(.+?);?\s*$/.exec(lineCodeOf(l.text, lang));
    // A function returning a rolling hash it computed is a digest however many lines its loop takes (up to 12).
    if (ret && header && rolling.has(ret[1]!.replace(/\s*>>>\s*0\s*$/, "").trim()) && at - header.at <= 12)
      digestNames.add(header.name);
    else if (ret && header && at - header.at <= 3) {
      if (DIGEST.test(ret[1]!)) digestNames.add(header.name);
      else if (AGGREGATE.test(ret[1]!) || PRODUCT.test(ret[1]!)) aggregateNames.add(header.name);
    }
    const split =
      /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?![=>])\s*[\w$.()[\]]+\.\s*split\s*\(([^()]*)\)\s*(?:\.\s*filter\s*\([^()]*\)\s*)?;?\s*$/.exec(
        l.text,
      );
    if (split) splitNames.set(split[1]!, split[2]!);
  });
  const counts = testCounts(failingTests);
  const counted = (o: string): ReadonlySet<number> | null => {
    const m = SPLIT_COUNT.exec(o);
    if (m) return counts(m[1] ?? m[2] ?? "");
    for (const [name, arg] of splitNames)
      if (
        new RegExp(
          String.raw`^\s*\(?\s*(?:${escapeRegExp(name)}\s*\.\s*length|len\s*\(\s*${escapeRegExp(name)}\s*\))\s*\)?\s*$`,
        ).test(o)
      )
        return counts(arg);
    return null;
  };
  for (const l of file.hunks.flatMap((h) => h.lines))
    if (l.kind !== "del" && !isCommentLine(l.text, lang)) {
      // A product or xor built up in a loop (`p *= x`, `h ^= c`): an aggregate however it is written. A running
      // sum (`total += x`) is not taken: positions and counts are summed that way in ordinary code.
      for (const acc of lineCodeOf(l.text, lang).matchAll(
        /(?:^|[;{):]|\belse\b)\s*([A-Za-z_$][\w$]*)\s*[*^]=(?!=)\s*([^;}]+)/g,
      ))
        if (!new RegExp(`^${NUM}$`).test(acc[2]!.trim())) aggregateNames.add(acc[1]!);
      const m = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=(?![=>])(.*)$/.exec(l.text);
      if (!m) continue;
      const value = m[2]!.replace(/;\s*$/, "").trim();
      // An arrow or function expression: what it returns is what its name computes when called.
      if (DIGEST.test(value)) digestNames.add(m[1]!);
      else if (AGGREGATE.test(value) || PRODUCT.test(value)) aggregateNames.add(m[1]!);
      else if (isLargeRemainder(value, constants)) remainderNames.add(m[1]!);
    }
  const out: Violation[] = [];
  // A word count compared with two or more numbers in the file's added lines chooses among shapes (a name of two
  // words, of three): dispatch, not one input picked out.
  const countValues = new Set<number>();
  for (const l of addedCodeLines(file))
    for (const site of sitesOf(l.text, lang, constants, digestNames, aggregateNames, counted, remainderNames))
      if (site.kind === "count" && site.value !== undefined) countValues.add(site.value);
  for (const h of file.hunks) {
    const lines = h.lines.filter((l) => l.kind !== "del");
    lines.forEach((l, i) => {
      if (l.kind !== "add" || !added.has(l)) return;
      const sites = sitesOf(
        l.text,
        lang,
        constants,
        digestNames,
        aggregateNames,
        counted,
        remainderNames,
      ).filter((s) => s.kind !== "count" || (s.tested && countValues.size === 1));
      const gating = sites.filter((s) => !(s.negated && refuses(lines, i)));
      const site = gating[0];
      if (!site) return;
      const [what, id] =
        site.kind === "digest"
          ? [
              "a hash, checksum or digest of a value compared with a constant (a literal, or a collection or name of literals): a gate the failing test's input was chosen to satisfy",
              "input-digest",
            ]
          : site.kind === "remainder"
            ? [
                "a remainder by a large modulus compared with a constant other than 0: one input in that many opens the branch, the failing test's input packed into one residue",
                "input-remainder",
              ]
            : site.kind === "count"
              ? [
                  "a count of a value's pieces (its words, its fields) compared with exactly the count the failing test's input has: the test's input chosen by its shape",
                  "input-count",
                ]
              : [
                  "an aggregate of the inputs (their product, sum or reduction) compared with a constant: the test's inputs packed into one number, a gate they were chosen to satisfy",
                  "input-aggregate",
                ];
      out.push({
        rule: "special-casing",
        file: file.newPath,
        line: l.newLine,
        message: `${what} [${id}]: \`${truncate(l.text.trim())}\``,
      });
    });
  }
  return out;
}
