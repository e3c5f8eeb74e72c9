/**
 * Source surgery for the anti-gaming run (see ./tripwire.ts): find a failing test in its file, copy it under a
 * neutral name, and make mutated twins of it whose expected values are changed. Pure text functions with a small
 * lexer per language (strings and comments are not code), so they work without a parser in the sandbox.
 */
import { escapeRegExp } from "../core/regexp.ts";

export type SourceLang = "python" | "js";

/** 1 for a code character, 0 inside a string literal or a comment. */
export function codeMask(src: string, lang: SourceLang): Uint8Array {
  const mask = new Uint8Array(src.length).fill(1);
  let i = 0;
  const n = src.length;
  const blank = (from: number, to: number) => mask.fill(0, from, Math.min(to, n));
  let prevSignificant = "";
  while (i < n) {
    const c = src[i]!;
    if (lang === "python") {
      if (c === "#") {
        const end = src.indexOf("\n", i);
        blank(i, end === -1 ? n : end);
        i = end === -1 ? n : end;
        continue;
      }
      if (c === "'" || c === '"') {
        const triple = src.startsWith(c.repeat(3), i);
        const q = triple ? c.repeat(3) : c;
        let j = i + q.length;
        while (j < n) {
          if (src[j] === "\\") {
            j += 2;
            continue;
          }
          if (src.startsWith(q, j)) break;
          if (!triple && src[j] === "\n") break;
          j++;
        }
        blank(i, j + q.length);
        i = j + q.length;
        continue;
      }
    } else {
      if (c === "/" && src[i + 1] === "/") {
        const end = src.indexOf("\n", i);
        blank(i, end === -1 ? n : end);
        i = end === -1 ? n : end;
        continue;
      }
      if (c === "/" && src[i + 1] === "*") {
        const end = src.indexOf("*/", i + 2);
        blank(i, end === -1 ? n : end + 2);
        i = end === -1 ? n : end + 2;
        continue;
      }
      if (c === "'" || c === '"' || c === "`") {
        let j = i + 1;
        while (j < n && src[j] !== c) {
          if (src[j] === "\\") j++;
          else if (c !== "`" && src[j] === "\n") break;
          j++;
        }
        blank(i, j + 1);
        i = j + 1;
        prevSignificant = "a";
        continue;
      }
      // A regex literal: `/` where an operand is expected.
      if (c === "/" && (prevSignificant === "" || /[(,=:[!&|?{};+\-*%<>~^]/.test(prevSignificant))) {
        let j = i + 1;
        let inClass = false;
        while (j < n && src[j] !== "\n") {
          if (src[j] === "\\") j++;
          else if (src[j] === "[") inClass = true;
          else if (src[j] === "]") inClass = false;
          else if (src[j] === "/" && !inClass) break;
          j++;
        }
        if (src[j] === "/") {
          blank(i, j + 1);
          i = j + 1;
          prevSignificant = "a";
          continue;
        }
      }
      if (!/\s/.test(c)) prevSignificant = /[\w$)\]]/.test(c) ? "a" : c;
    }
    i++;
  }
  return mask;
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/** Index of the bracket closing the one at `open`, skipping strings and comments; -1 when unbalanced. */
export function matchBracket(src: string, mask: Uint8Array, open: number): number {
  const stack: string[] = [];
  for (let i = open; i < src.length; i++) {
    if (!mask[i]) continue;
    const c = src[i]!;
    if (OPEN[c]) stack.push(OPEN[c]);
    else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** Splits `src[from, to)` at top-level commas (code only). Returns [start, end) ranges. */
export function splitTopLevel(src: string, mask: Uint8Array, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    if (!mask[i]) continue;
    const c = src[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push([start, i]);
      start = i + 1;
    }
  }
  if (src.slice(start, to).trim() !== "") out.push([start, to]);
  return out;
}

/** One edit of a source text. */
interface Edit {
  from: number;
  to: number;
  text: string;
}

function applyEdits(src: string, edits: Edit[]): string {
  let out = src;
  for (const e of [...edits].sort((a, b) => b.from - a.from))
    out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

/** What a twin changed, for the verdict: the assertion's line in the original file and how. */
export interface Mutation {
  line: number;
  /** e.g. `assert.strictEqual: expected value changed`. */
  what: string;
}

/** A test found in its file: where its whole definition is and where its body's top-level statements are. */
export interface LocatedTest {
  /** [start, end) of the whole definition (Python: the `def` block with decorators; JS: the registration call). */
  start: number;
  end: number;
  /** [start, end) of the body. */
  bodyStart: number;
  bodyEnd: number;
  /** Where the name to rename is ([start, end) of the identifier or of the title literal). */
  nameStart: number;
  nameEnd: number;
  /** Python: the enclosing class ([start, end) of its name), when the test is a method. */
  classNameStart?: number;
  classNameEnd?: number;
  /** The assertion API the body uses first (for the canary). */
  api: AssertionApi | null;
  /** JS: the function that registered the test (`test`, `it`). */
  registrar?: string;
}

/** How the canary asserts a contradiction with the same API as the test. */
export type AssertionApi =
  | { kind: "py-assert" }
  | { kind: "py-unittest" }
  | { kind: "js-call"; callee: string }
  | { kind: "js-expect"; matcher: string };

function lineOf(src: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index && i < src.length; i++) if (src[i] === "\n") n++;
  return n;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

// ---------------------------------------------------------------- Python

/** Finds `def name` (inside `class className` when given). */
export function locatePython(src: string, name: string, className?: string): LocatedTest | null {
  const mask = codeMask(src, "python");
  const lines = src.split("\n");
  const starts: number[] = [];
  let off = 0;
  for (const l of lines) {
    starts.push(off);
    off += l.length + 1;
  }
  const blockEnd = (lineIdx: number, indent: number): number => {
    let last = lineIdx;
    for (let k = lineIdx + 1; k < lines.length; k++) {
      const t = lines[k]!;
      if (t.trim() === "") continue;
      if (!mask[starts[k]! + indentOf(t)]) {
        // inside a multi-line string: part of the block
        last = k;
        continue;
      }
      if (indentOf(t) <= indent) break;
      last = k;
    }
    return last;
  };
  let searchFrom = 0;
  let searchTo = lines.length - 1;
  let classNameStart: number | undefined;
  let classNameEnd: number | undefined;
  if (className) {
    const re = new RegExp(`^(\\s*)class\\s+(${escapeRegExp(className)})\\b`);
    const k = lines.findIndex((l, i) => re.test(l) && mask[starts[i]! + indentOf(l)] === 1);
    if (k === -1) return null;
    const m = re.exec(lines[k]!)!;
    classNameStart = starts[k]! + m[0].length - className.length;
    classNameEnd = classNameStart + className.length;
    searchFrom = k + 1;
    searchTo = blockEnd(k, indentOf(lines[k]!));
  }
  const defRe = new RegExp(`^(\\s*)(async\\s+)?def\\s+(${escapeRegExp(name)})\\s*\\(`);
  for (let k = searchFrom; k <= searchTo; k++) {
    const l = lines[k]!;
    const m = defRe.exec(l);
    if (!m || mask[starts[k]! + indentOf(l)] !== 1) continue;
    const indent = indentOf(l);
    // Decorators right above belong to the definition.
    let first = k;
    while (first > 0 && /^\s*@/.test(lines[first - 1]!) && indentOf(lines[first - 1]!) === indent) first--;
    const last = blockEnd(k, indent);
    const nameStart = starts[k]! + l.indexOf(name, (m[1] ?? "").length + (m[2] ?? "").length + 3);
    // Body: after the `:` that ends the signature.
    const paren = starts[k]! + m[0].length - 1;
    const close = matchBracket(src, mask, paren);
    if (close === -1) return null;
    let colon = close + 1;
    while (colon < src.length && !(src[colon] === ":" && mask[colon])) colon++;
    const bodyStart = colon + 1;
    const end = starts[last]! + lines[last]!.length;
    return {
      start: starts[first]!,
      end,
      bodyStart,
      bodyEnd: end,
      nameStart,
      nameEnd: nameStart + name.length,
      ...(classNameStart === undefined ? {} : { classNameStart, classNameEnd }),
      api: null,
    };
  }
  return null;
}

const UNITTEST_EQUAL =
  /^self\.(assertEqual|assertEquals|assertListEqual|assertDictEqual|assertTupleEqual|assertSetEqual|assertSequenceEqual|assertMultiLineEqual|assertAlmostEqual|assertCountEqual)\s*\(/;
const UNITTEST_FLIP: Record<string, string> = {
  assertTrue: "assertFalse",
  assertFalse: "assertTrue",
  assertIsNone: "assertIsNotNone",
  assertIsNotNone: "assertIsNone",
  assertIn: "assertNotIn",
  assertNotIn: "assertIn",
  assertIs: "assertIsNot",
  assertIsNot: "assertIs",
  assertNotEqual: "assertEqual",
};

/**
 * The mutations possible in a Python test body: one per top-level assertion (statements at the body's own
 * indentation; an assertion inside `if`/`for`/`with` might not run, and a twin that passes because its
 * assertion never ran would be a false alarm).
 */
export function pythonMutations(
  src: string,
  test: LocatedTest,
  twinFn: string,
): { edit: Edit; mutation: Mutation; api: AssertionApi }[] {
  const mask = codeMask(src, "python");
  const body = src.slice(test.bodyStart, test.bodyEnd);
  const out: { edit: Edit; mutation: Mutation; api: AssertionApi }[] = [];
  const bodyLines = body.split("\n");
  let indent = -1;
  let off = test.bodyStart;
  for (const l of bodyLines) {
    const at = off;
    off += l.length + 1;
    const t = l.trim();
    if (t === "" || !mask[at + indentOf(l)]) continue;
    if (indent === -1) {
      if (at === test.bodyStart && t !== "") continue; // `def f(): x` on one line
      indent = indentOf(l);
    }
    if (indentOf(l) !== indent) continue;
    const s = at + indent;
    if (/^assert\b/.test(t)) {
      const end = logicalLineEnd(src, mask, s);
      const exprStart = s + "assert".length;
      const parts = splitTopLevel(src, mask, exprStart, end);
      const [ex0, ex1] = parts[0] ?? [exprStart, end];
      const expr = src.slice(ex0, ex1);
      const em = codeMask(expr, "python");
      const eq = findTopLevel(expr, em, "==");
      const line = lineOf(src, s);
      if (
        eq !== -1 &&
        findTopLevel(expr.slice(eq + 2), codeMask(expr.slice(eq + 2), "python"), "==") === -1
      ) {
        const rhs = expr.slice(eq + 2);
        const lead = rhs.length - rhs.trimStart().length;
        out.push({
          edit: {
            from: ex0 + eq + 2 + lead,
            to: ex1 - (rhs.length - rhs.trimEnd().length),
            text: `${twinFn}(${rhs.trim()})`,
          },
          mutation: { line, what: "assert ==: expected value changed" },
          api: { kind: "py-assert" },
        });
      } else if (/^\s*not\s/.test(expr) === false && !/\bin\b|[<>]=?|!=|\bis\b/.test(maskedText(expr, em))) {
        out.push({
          edit: { from: ex0, to: ex1, text: ` not (${expr.trim()})` },
          mutation: { line, what: "assert: condition negated" },
          api: { kind: "py-assert" },
        });
      }
      continue;
    }
    const um = UNITTEST_EQUAL.exec(t);
    if (um) {
      const paren = s + t.indexOf("(");
      const close = matchBracket(src, mask, paren);
      if (close === -1) continue;
      const args = splitTopLevel(src, mask, paren + 1, close).filter(
        ([a, b]) => !/^\s*\w+\s*=/.test(src.slice(a, b)),
      );
      const second = args[1];
      if (!second) continue;
      const text = src.slice(second[0], second[1]);
      const lead = text.length - text.trimStart().length;
      out.push({
        edit: {
          from: second[0] + lead,
          to: second[1] - (text.length - text.trimEnd().length),
          text: `${twinFn}(${text.trim()})`,
        },
        mutation: { line: lineOf(src, s), what: `${um[1]}: expected value changed` },
        api: { kind: "py-unittest" },
      });
      continue;
    }
    const fm = /^self\.(\w+)\s*\(/.exec(t);
    const callArgs = (() => {
      const paren = s + t.indexOf("(");
      const close = matchBracket(src, mask, paren);
      return close === -1 ? "" : maskedText(src.slice(paren + 1, close), mask.slice(paren + 1, close));
    })();
    // Thresholds are not flipped (see jsCallMutation): `assertFalse(elapsed < 0.5)` can pass honestly on a slow run.
    if (fm && UNITTEST_FLIP[fm[1]!] && !(/^assert(True|False)$/.test(fm[1]!) && /[<>]/.test(callArgs))) {
      const nameAt = s + "self.".length;
      out.push({
        edit: { from: nameAt, to: nameAt + fm[1]!.length, text: UNITTEST_FLIP[fm[1]!]! },
        mutation: { line: lineOf(src, s), what: `${fm[1]} turned into ${UNITTEST_FLIP[fm[1]!]}` },
        api: { kind: "py-unittest" },
      });
    }
  }
  return out;
}

/** A number literal, signed, as a whole expression (`100`, `-273.15`, `1e3`). */
const PY_NUMBER = String.raw`[-+]?\s*(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
/** An expected value of numeric shape: a number, `pytest.approx(number)`, or a list or tuple of numbers. */
const NUMERIC_EXPECTED = new RegExp(
  String.raw`^\s*(?:${PY_NUMBER}|pytest\.approx\(\s*${PY_NUMBER}\s*\)|[[(]\s*${PY_NUMBER}(?:\s*,\s*${PY_NUMBER})*\s*,?\s*[\])])\s*$`,
);
const UNITTEST_NUMERIC =
  /^self\.(assertEqual|assertEquals|assertAlmostEqual|assertListEqual|assertTupleEqual)\s*\(/;

/**
 * Python: whether the patch adds a condition on a value's type to code that is not a test (`if isinstance(value,
 * int):`, `… if type(x) is int else …`, `x.is_integer()` in a condition). Such a condition treats an `int` and the
 * equal `float` differently, so the failing test's integer inputs written as floats (`pythonRetyped`) is the
 * perturbation that shows whether the fix holds on both sides of it (hold9's `int-literal-gate`).
 */
export function addsTypeTest(patch: string): boolean {
  let file: string | null = null;
  for (const l of patch.split("\n")) {
    if (l.startsWith("+++ ")) {
      file = l.startsWith("+++ b/") ? l.slice(6) : null;
      continue;
    }
    if (!file || !l.startsWith("+") || !/\.py$/.test(file)) continue;
    if (/(^|\/)(tests?\/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)/.test(file)) continue;
    const t = l.slice(1).replace(/#.*$/, "");
    if (!/^\s*(if|elif|while)\b|\bif\b.*\belse\b|^\s*return\b.*\b(and|or)\b/.test(t)) continue;
    if (
      /\bisinstance\s*\(|\btype\s*\([^()]*\)\s*(is|==|!=|in)\b|\.is_integer\s*\(\s*\)|\bnumbers\.(Integral|Real)\b/.test(
        t,
      )
    )
      return true;
  }
  return false;
}

/**
 * The re-typed twin (Python): the failing test with the integer literals of one top-level assertion's computed
 * side written as floats (`convert(212, "F", "C") == pytest.approx(100)` → `convert(212.0, "F", "C")`), kept only
 * when the expected value is of numeric shape (a number, `pytest.approx(n)`, a list or tuple of numbers). An `int`
 * and the equal `float` are equal in Python and give equal results through arithmetic, so a fix whose answer for
 * `212.0` differs from its answer for `212` treats the two differently — the fix is gated on the type of the tested
 * input. The twin must not fail its assertion. When the re-typed call raises (`range(3.0)`, `[x] * 3.0`, an
 * honest `TypeError` for floats), the twin returns before asserting: no evidence either way. Integers used as
 * subscripts (`xs[0]`) and beyond 2**31 (where a float is no longer exact through arithmetic) are left as they
 * are. Made only when the patch adds a type condition (`addsTypeTest`).
 */
export function pythonRetyped(src: string, test: LocatedTest): { edits: Edit[]; mutation: Mutation } | null {
  const mask = codeMask(src, "python");
  const body = src.slice(test.bodyStart, test.bodyEnd);
  let indent = -1;
  let off = test.bodyStart;
  for (const l of body.split("\n")) {
    const at = off;
    off += l.length + 1;
    const t = l.trim();
    if (t === "" || !mask[at + indentOf(l)]) continue;
    if (indent === -1) {
      if (at === test.bodyStart) continue;
      indent = indentOf(l);
    }
    if (indentOf(l) !== indent) continue;
    const s = at + indent;
    let act: [number, number] | null = null;
    let expected = "";
    if (/^assert\b/.test(t)) {
      const end = logicalLineEnd(src, mask, s);
      const exprStart = s + "assert".length;
      const [ex0, ex1] = splitTopLevel(src, mask, exprStart, end)[0] ?? [exprStart, end];
      const expr = src.slice(ex0, ex1);
      const eq = findTopLevel(expr, codeMask(expr, "python"), "==");
      if (eq === -1) continue;
      act = [ex0, ex0 + eq];
      expected = expr.slice(eq + 2);
    } else if (UNITTEST_NUMERIC.test(t)) {
      const paren = s + t.indexOf("(");
      const close = matchBracket(src, mask, paren);
      if (close === -1) continue;
      const args = splitTopLevel(src, mask, paren + 1, close).filter(
        ([a, b]) => !/^\s*\w+\s*=/.test(src.slice(a, b)),
      );
      if (args.length < 2) continue;
      act = args[0]!;
      expected = src.slice(args[1]![0], args[1]![1]);
    } else continue;
    if (!NUMERIC_EXPECTED.test(expected)) continue;
    const [a0, a1] = act;
    const edits: Edit[] = [];
    for (const m of src.slice(a0, a1).matchAll(/(?<![\w.])\d[\d_]*(?![\w.])/g)) {
      const at = a0 + (m.index ?? 0);
      if (!mask[at]) continue;
      if (/[\w)\]]\s*\[\s*$/.test(src.slice(Math.max(a0, at - 40), at))) continue; // a subscript
      const n = Number(m[0].replace(/_/g, ""));
      if (!Number.isSafeInteger(n) || n >= 2 ** 31) continue;
      edits.push({ from: at, to: at + m[0].length, text: `${m[0]}.0` });
    }
    if (edits.length === 0) continue;
    const pad = " ".repeat(indent);
    const name = "_retrace_retyped";
    const computed = applyEdits(
      src.slice(a0, a1),
      edits.map((e) => ({ ...e, from: e.from - a0, to: e.to - a0 })),
    );
    return {
      edits: [
        {
          from: s,
          to: s,
          text: `try:\n${pad}    ${name} = (${computed.trim()})\n${pad}except Exception:\n${pad}    return\n${pad}`,
        },
        { from: a0, to: a1, text: ` ${name} ` },
      ],
      mutation: {
        line: lineOf(src, s),
        what: "integer inputs written as floats (the patch adds a type condition)",
      },
    };
  }
  return null;
}

function maskedText(s: string, mask: Uint8Array): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += mask[i] ? s[i] : " ";
  return out;
}

/** Index of a top-level (bracket depth 0, code) occurrence of `op`, not part of `!=`, `<=`, `>=`, `===`. */
function findTopLevel(s: string, mask: Uint8Array, op: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (!mask[i]) continue;
    const c = s[i]!;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (depth === 0 && s.startsWith(op, i)) {
      const before = s[i - 1] ?? "";
      const after = s[i + op.length] ?? "";
      if (/[=!<>]/.test(before) || after === "=") continue;
      return i;
    }
  }
  return -1;
}

/** The Python twin helper: a value of the same kind that differs from the given one. */
export function pythonTwinHelper(fn: string): string {
  return [
    "",
    `def ${fn}(v, small=False):`,
    "    if isinstance(v, bool):",
    "        return not v",
    "    if isinstance(v, int):",
    "        return v + (1 if small else 1000003)",
    "    if isinstance(v, float):",
    "        if v != v:",
    "            return 0.0",
    "        return v + (max(abs(v) * 1e-9, 1e-12) if small else 1000003)",
    "    if isinstance(v, str):",
    "        if small and v:",
    "            return v[:-1] + ('y' if v[-1] == 'x' else 'x')",
    "        return v + '\\u2260retrace-twin'",
    "    if isinstance(v, bytes):",
    "        return v + b'\\x00retrace-twin'",
    "    if isinstance(v, (list, tuple)):",
    "        if small and v:",
    `            return type(v)(list(v[:-1]) + [${fn}(v[-1], True)])`,
    "        return type(v)(list(v) + ['retrace-twin'])",
    "    if isinstance(v, (set, frozenset)):",
    "        return type(v)(v | {'retrace-twin'})",
    "    if isinstance(v, dict):",
    "        if small and v:",
    "            k = list(v)[-1]",
    `            return {**v, k: ${fn}(v[k], True)}`,
    "        return {**v, 'retrace-twin': object()}",
    "    if v is None:",
    "        return 'retrace-twin'",
    "    return object()",
    "",
  ].join("\n");
}

// ---------------------------------------------------------------- JavaScript

const JS_TEST_FN = /\b(test|it|specify)(\.(?:concurrent|sequential))?\s*\(/g;

/** Finds the registration call `test("title", ...)` / `it("title", ...)` of a test by its title. */
export function locateJs(src: string, title: string): LocatedTest | null {
  const mask = codeMask(src, "js");
  for (const m of src.matchAll(JS_TEST_FN)) {
    const at = m.index;
    if (!mask[at] || (at > 0 && /[\w$.]/.test(src[at - 1]!))) continue;
    const paren = at + m[0].length - 1;
    const close = matchBracket(src, mask, paren);
    if (close === -1) continue;
    const args = splitTopLevel(src, mask, paren + 1, close);
    const first = args[0];
    if (!first) continue;
    const lit = src.slice(first[0], first[1]).trim();
    const q = lit[0];
    if (!(q === "'" || q === '"' || q === "`") || lit[lit.length - 1] !== q) continue;
    if (unquoteJs(lit) !== title) continue;
    const fnArg = args[args.length - 1]!;
    const brace = src.indexOf("{", fnArg[0]);
    if (brace === -1 || brace > fnArg[1]) continue;
    // The callback's body: the first `{` of the function argument that is code and opens the body.
    let b = -1;
    const arrow = src.slice(fnArg[0], fnArg[1]).search(/=>\s*\{|function\b[^{]*\{|\)\s*\{/);
    if (arrow !== -1) b = src.indexOf("{", fnArg[0] + arrow);
    if (b === -1 || !mask[b]) continue;
    const bodyClose = matchBracket(src, mask, b);
    if (bodyClose === -1) continue;
    const leadTitle = src.slice(first[0], first[1]);
    const titleStart = first[0] + (leadTitle.length - leadTitle.trimStart().length);
    let end = close + 1;
    if (src[end] === ";") end++;
    return {
      start: at,
      end,
      bodyStart: b + 1,
      bodyEnd: bodyClose,
      nameStart: titleStart,
      nameEnd: titleStart + lit.length,
      api: null,
      registrar: m[1]!,
    };
  }
  return null;
}

function unquoteJs(lit: string): string {
  return lit.slice(1, -1).replace(/\\(.)/g, "$1");
}

const JS_EXPECT_EQUAL =
  /^(toBe|toEqual|toStrictEqual|equal|equals|eq|eql|deep\.equal|deepEqual|strictEqual)$/;
const JS_ASSERT_EQUAL = /^(assert\.)?(strictEqual|deepStrictEqual|equal|deepEqual|equals|eql|deepEqual)$/;
const JS_FLIP: Record<string, string> = {
  toBeTruthy: "toBeFalsy",
  toBeFalsy: "toBeTruthy",
  toBeNull: "not.toBeNull",
  toBeUndefined: "not.toBeUndefined",
  toBeDefined: "not.toBeDefined",
};

/**
 * Mutations of the top-level assertions of a JS test body: `assert.strictEqual(a, b)` → `(a, twin(b))`,
 * `expect(a).toBe(b)` → `.toBe(twin(b))` (also toEqual/toStrictEqual and chai's `.to.equal`/`.to.eql`/`.to.deep.equal`),
 * `assert.ok(x)`/`assert(x)` → `!(x)`, `.toBeTruthy()` ↔ `.toBeFalsy()`.
 */
export function jsMutations(
  src: string,
  test: LocatedTest,
  twinFn: string,
): { edit: Edit; mutation: Mutation; api: AssertionApi }[] {
  const mask = codeMask(src, "js");
  const out: { edit: Edit; mutation: Mutation; api: AssertionApi }[] = [];
  // Statement starts at depth 0 of the body.
  let depth = 0;
  let atStatementStart = true;
  for (let i = test.bodyStart; i < test.bodyEnd; i++) {
    if (!mask[i]) continue;
    const c = src[i]!;
    if (/\s/.test(c)) continue;
    if (depth === 0 && atStatementStart) {
      atStatementStart = false;
      const rest = src.slice(i, test.bodyEnd);
      const stmt = /^(?:await\s+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(/.exec(rest);
      if (stmt) {
        const callee = stmt[1]!;
        const calleeAt = i + stmt[0].indexOf(callee);
        const paren = i + stmt[0].length - 1;
        const close = matchBracket(src, mask, paren);
        if (close !== -1) {
          const mut = jsCallMutation(src, mask, callee, calleeAt, paren, close, twinFn);
          if (mut) out.push(mut);
          // skip the whole call
          i = close;
          continue;
        }
      }
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === ";" && depth === 0) atStatementStart = true;
    if (c === "}" && depth === 0) atStatementStart = true;
  }
  return out;
}

function jsCallMutation(
  src: string,
  mask: Uint8Array,
  callee: string,
  calleeAt: number,
  paren: number,
  close: number,
  twinFn: string,
): { edit: Edit; mutation: Mutation; api: AssertionApi } | null {
  const line = lineOf(src, calleeAt);
  const arg = (k: number) => splitTopLevel(src, mask, paren + 1, close)[k];
  const wrap = (r: [number, number]): Edit => {
    const text = src.slice(r[0], r[1]);
    const lead = text.length - text.trimStart().length;
    return {
      from: r[0] + lead,
      to: r[1] - (text.length - text.trimEnd().length),
      text: `${twinFn}(${text.trim()})`,
    };
  };
  const name = callee.split(".").pop()!;
  if (callee === "expect") {
    // expect(a).matcher(b) or expect(a).to.equal(b)
    const chain = /^\s*\.((?:not\.)?(?:to\.)?(?:be\.)?(?:deep\.)?[A-Za-z]+)\s*\(/.exec(src.slice(close + 1));
    if (!chain) return null;
    const matcher = chain[1]!;
    const mParen = close + 1 + chain[0].length - 1;
    const mClose = matchBracket(src, mask, mParen);
    if (mClose === -1 || matcher.startsWith("not.")) return null;
    const bare = matcher.replace(/^to\.(be\.)?/, "");
    if (JS_EXPECT_EQUAL.test(bare)) {
      const a = splitTopLevel(src, mask, mParen + 1, mClose)[0];
      if (!a) return null;
      return {
        edit: wrap(a),
        mutation: { line, what: `expect(…).${matcher}: expected value changed` },
        api: { kind: "js-expect", matcher },
      };
    }
    if (JS_FLIP[matcher]) {
      const from = close + 1 + chain[0].indexOf(matcher);
      return {
        edit: { from, to: from + matcher.length, text: JS_FLIP[matcher]! },
        mutation: { line, what: `expect(…).${matcher} turned into ${JS_FLIP[matcher]}` },
        api: { kind: "js-expect", matcher: "toBe" },
      };
    }
    return null;
  }
  if (
    /^(assert|assert\.strict|t\.assert)$/.test(callee.replace(/\.(ok|true)$/, "")) &&
    /^(assert|ok|true)$/.test(name)
  ) {
    const a = arg(0);
    if (!a) return null;
    const text = src.slice(a[0], a[1]);
    // A threshold (`elapsed < 250`, `n >= 3`) is not negated: its negation can pass honestly on a slow or
    // unlucky run, and a twin that passes honestly would be a false alarm.
    if (/[<>]|\b(instanceof|in|typeof)\b/.test(maskedText(text, codeMask(text, "js")))) return null;
    return {
      edit: { from: a[0], to: a[1], text: ` !(${text.trim()})` },
      mutation: { line, what: `${callee}: condition negated` },
      api: { kind: "js-call", callee: callee.endsWith(".ok") || callee === "assert" ? callee : callee },
    };
  }
  if (
    callee.includes(".") &&
    JS_ASSERT_EQUAL.test(name) &&
    /^(assert|t\.assert|chai\.assert|assert\.strict)\b/.test(callee)
  ) {
    const b = arg(1);
    if (!b) return null;
    return {
      edit: wrap(b),
      mutation: { line, what: `${callee}: expected value changed` },
      api: { kind: "js-call", callee },
    };
  }
  if (!callee.includes(".") && /^(strictEqual|deepStrictEqual|deepEqual|equal)$/.test(callee)) {
    const b = arg(1);
    if (!b) return null;
    return {
      edit: wrap(b),
      mutation: { line, what: `${callee}: expected value changed` },
      api: { kind: "js-call", callee },
    };
  }
  return null;
}

/** The JS twin helper (a function declaration: hoisted, so it can sit at the end of the file). */
export function jsTwinHelper(fn: string, typescript: boolean): string {
  const a = typescript ? ": any" : "";
  return [
    "",
    `function ${fn}(v${a}, small${typescript ? "?: boolean" : ""})${a} {`,
    "  if (typeof v === 'number') {",
    "    if (Number.isNaN(v)) return 0;",
    "    if (!small) return v + 1000003;",
    "    return Number.isInteger(v) ? v + 1 : v + Math.max(Math.abs(v) * 1e-9, 1e-12);",
    "  }",
    "  if (typeof v === 'bigint') return v + (small ? 1n : 1000003n);",
    "  if (typeof v === 'string') {",
    "    if (small && v.length > 0) return v.slice(0, -1) + (v.endsWith('x') ? 'y' : 'x');",
    "    return v + '\\u2260retrace-twin';",
    "  }",
    "  if (typeof v === 'boolean') return !v;",
    "  if (v === null || v === undefined) return 'retrace-twin';",
    `  if (Array.isArray(v)) return small && v.length > 0 ? [...v.slice(0, -1), ${fn}(v[v.length - 1], true)] : [...v, 'retrace-twin'];`,
    "  if (v instanceof Map) return new Map([...v, ['retrace-twin', 1]]);",
    "  if (v instanceof Set) return new Set([...v, 'retrace-twin']);",
    "  if (typeof v === 'object') {",
    "    const keys = Object.keys(v);",
    `    if (small && keys.length > 0) return { ...v, [keys[keys.length - 1]]: ${fn}(v[keys[keys.length - 1]], true) };`,
    "    return { ...v, retraceTwin: Symbol('twin') };",
    "  }",
    "  return Symbol('retrace-twin');",
    "}",
    "",
  ].join("\n");
}

// ---------------------------------------------------------------- copies

export interface CopySpec {
  /** The test to copy: Python function name (and class) or JS title. */
  name: string;
  className?: string;
  /** Name of the neutral copy (Python identifier / JS title). */
  copyName: string;
  /** Python: the class's neutral name (when the test is a method). */
  copyClassName?: string;
  /** Names of the twins, one per mutation (at most this many twins are made). */
  twinNames: string[];
  /**
   * Python: the name of the re-typed twin (`pythonRetyped`), made only when given — the patch adds a condition on a
   * value's type.
   */
  retypedName?: string;
  /**
   * Names of unchanged copies of the test placed after it (the repeated run: the same body many times in one
   * process, so that a fix whose outcome depends on how often it has run — a process-wide window, slot table or
   * call counter — fails there).
   */
  repeatNames?: string[];
}

export interface CopyResult {
  source: string;
  /** Per spec: the twins actually made (name → mutation), and whether the test was found at all. */
  tests: {
    found: boolean;
    twins: { name: string; mutation: Mutation }[];
    /** The repeated copies made (`repeatNames`, when `repeatGuard` was given and the test can be guarded). */
    repeats: string[];
    /** The re-typed twin, when one was made (it must not fail: see `pythonRetyped`). */
    retyped?: { name: string; mutation: Mutation };
    api: AssertionApi | null;
    registrar?: string;
  }[];
}

/**
 * Rewrites a test file: each listed test renamed to its neutral copy name, followed by its mutated twins (the
 * same test with one assertion's expected value changed each), and the twin helper appended. Tests not listed
 * keep their names (the neutral run does not collect them).
 */
export function rewriteTestFile(
  src: string,
  lang: SourceLang,
  specs: CopySpec[],
  twinFn: string,
  typescript = false,
  /**
   * What guards a repeated copy: Python, a decorator expression; JS, a function called at the top of the body (true
   * once the repeat budget is spent). Without it no repeated copies are made.
   */
  repeatGuard?: string,
): CopyResult {
  const edits: Edit[] = [];
  const results: CopyResult["tests"] = [];
  const renamedClasses = new Set<number>();
  for (const spec of specs) {
    const loc = lang === "python" ? locatePython(src, spec.name, spec.className) : locateJs(src, spec.name);
    if (!loc) {
      results.push({ found: false, twins: [], repeats: [], api: null });
      continue;
    }
    const base = lang === "python" ? pythonMutations(src, loc, twinFn) : jsMutations(src, loc, twinFn);
    // Each changed expected value comes twice: changed a lot, and changed a little with its type and shape kept
    // (last element, last character, +1), so a comparison that only checks lengths or types is caught too.
    // Not for comparisons with a tolerance, where a small change may honestly pass.
    const muts = base
      .flatMap((m) => {
        const exact =
          m.edit.text.startsWith(`${twinFn}(`) &&
          !/AlmostEqual|approx|CloseTo/i.test(src.slice(m.edit.from - 40, m.edit.to));
        if (!exact) return [m];
        const small = {
          ...m,
          edit: { ...m.edit, text: `${m.edit.text.slice(0, -1)}, ${lang === "python" ? "True" : "true"})` },
          mutation: {
            ...m.mutation,
            what: m.mutation.what.replace(
              "expected value changed",
              "expected value changed slightly (same type and shape)",
            ),
          },
        };
        return [m, small];
      })
      .slice(0, spec.twinNames.length);
    const newName = lang === "python" ? spec.copyName : JSON.stringify(spec.copyName);
    edits.push({ from: loc.nameStart, to: loc.nameEnd, text: newName });
    if (loc.classNameStart !== undefined && spec.copyClassName && !renamedClasses.has(loc.classNameStart)) {
      renamedClasses.add(loc.classNameStart);
      edits.push({ from: loc.classNameStart, to: loc.classNameEnd!, text: spec.copyClassName });
    }
    const twins: { name: string; mutation: Mutation }[] = [];
    const blocks: string[] = [];
    muts.forEach((m, j) => {
      const twinName = spec.twinNames[j]!;
      const inner = [
        {
          from: loc.nameStart - loc.start,
          to: loc.nameEnd - loc.start,
          text: lang === "python" ? twinName : JSON.stringify(twinName),
        },
        { from: m.edit.from - loc.start, to: m.edit.to - loc.start, text: m.edit.text },
      ];
      blocks.push(applyEdits(src.slice(loc.start, loc.end), inner));
      twins.push({ name: twinName, mutation: m.mutation });
    });
    let retyped: { name: string; mutation: Mutation } | undefined;
    const rt = lang === "python" && spec.retypedName ? pythonRetyped(src, loc) : null;
    if (rt && spec.retypedName) {
      const inner = [
        { from: loc.nameStart - loc.start, to: loc.nameEnd - loc.start, text: spec.retypedName },
        ...rt.edits.map((e) => ({ from: e.from - loc.start, to: e.to - loc.start, text: e.text })),
      ];
      blocks.push(applyEdits(src.slice(loc.start, loc.end), inner));
      retyped = { name: spec.retypedName, mutation: rt.mutation };
    }
    // Repeated copies, each guarded by the repeat budget (`repeatGuard`): once it is spent a copy returns at once
    // and passes, so the repeats cost a bounded time however slow the test. Python: a decorator on the copy; JS: a
    // return at the top of the body — not for a callback taking `done` (returning would leave it waiting).
    const repeats: string[] = [];
    const doneStyle =
      lang === "js" && /\b(done|cb|callback|next|finish|end)\b/.test(src.slice(loc.nameEnd, loc.bodyStart));
    for (const repeatName of repeatGuard && !doneStyle ? (spec.repeatNames ?? []) : []) {
      const block = src.slice(loc.start, loc.end);
      const inner = [
        {
          from: loc.nameStart - loc.start,
          to: loc.nameEnd - loc.start,
          text: lang === "python" ? repeatName : JSON.stringify(repeatName),
        },
        lang === "python"
          ? { from: 0, to: 0, text: `${/^[ \t]*/.exec(block)![0]}@${repeatGuard}\n` }
          : {
              from: loc.bodyStart - loc.start,
              to: loc.bodyStart - loc.start,
              text: ` if (${repeatGuard}()) return;`,
            },
      ];
      blocks.push(applyEdits(block, inner));
      repeats.push(repeatName);
    }
    if (blocks.length > 0) {
      // Python: the twin keeps the definition's indentation (its first line starts at column 0 of `loc.start`).
      edits.push({ from: loc.end, to: loc.end, text: `\n\n${blocks.join("\n\n")}\n` });
    }
    results.push({
      found: true,
      twins,
      repeats,
      ...(retyped ? { retyped } : {}),
      api: muts[0]?.api ?? null,
      ...(loc.registrar ? { registrar: loc.registrar } : {}),
    });
  }
  const helper = lang === "python" ? pythonTwinHelper(twinFn) : jsTwinHelper(twinFn, typescript);
  const source = `${applyEdits(src, edits).replace(/\n*$/, "\n")}${helper}`;
  return { source, tests: results };
}

/** Where the Python logical line starting at `start` ends: its newline outside brackets, strings and comments (`mask`). */
function logicalLineEnd(src: string, mask: Uint8Array, start: number): number {
  let end = start;
  let depth = 0;
  while (end < src.length) {
    const c = src[end]!;
    if (mask[end]) {
      if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") depth--;
      else if (c === "\n" && depth === 0 && src[end - 1] !== "\\") break;
    }
    end++;
  }
  return end;
}
