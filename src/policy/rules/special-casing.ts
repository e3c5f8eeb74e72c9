/**
 * special-casing: a new branch in code under test whose literals are the failing test's own inputs or expected
 * outputs — `if a == 2 and b == 3: return 5`, `if (s === "2024-02-29") return true`, `{"2+3": 5}[expr]`. It
 * makes that one test pass and leaves the bug for every other input. The gate learns the failing tests' literals
 * from their source (`evaluatePatch(patch, config, { failingTests })`, passed by verification once it knows
 * which tests fail); without that context the rule has nothing to compare with and says nothing.
 *
 * A branch line (if/elif/while/case/switch/ternary/`in`/a mapping entry, including a lookup table written as
 * key–value pairs: `[123456789, "$1,234,567.89"],` in a `new Map([...])` or `Object.fromEntries([...])`,
 * `(key, value),` in a `dict([...])`) is flagged when its literals include
 * one of the test's and either (a) two or more of its literals are the test's, (b) the branch's result on the
 * next line is a test literal, or (c) the one literal is distinctive (a string with a digit, space or
 * punctuation, of 3+ characters, or one of 10+ characters; a number with a fractional part), or (d) the branch
 * matches several values exactly at once (`(a, b) == (4, 0.02)`, `a == 4 and b == 9`) — unless the branch
 * lists clearly more values of its own than the test's (a general table or keyword list).
 *
 * Strings the modified file already named before the patch (in a constant, a comment or its documentation,
 * `GateContext.sourceFiles`) do not count: a branch on `"production"` in a function documented as "warn in
 * production" follows the specification.
 *
 * Allowed (counter-examples): `if s in ("yes", "y", "true", "on")` for a test of "yes", `if n < 0`, `if unit ==
 * "h"` for a test of "1h", `return n * 3600` (a computed result, not a branch on the input), trivial literals
 * (0, 1, -1, "", True, None).
 *
 * Also (`doc-answers`, no test needed): code that parses documentation as data — `re.findall(…, f.__doc__)`,
 * `__doc__.splitlines()`, `inspect.getdoc(f).split(…)`. A function that answers from examples in its own docstring
 * holds a lookup table of chosen inputs in disguise (hold5: the failing test's input and output added as doctest
 * examples). Allowed: `ArgumentParser(description=__doc__)`, `print(__doc__)`, `__doc__.strip()`,
 * `textwrap.dedent(__doc__)`, doctest examples themselves (run by doctest, not read by the code).
 */
import { createHash } from "node:crypto";
import { isCommentLine, languageOf, truncate } from "../lines.ts";
import { type LinePattern, scanAddedLines } from "../patterns.ts";
import type { FileChange, Rule, Violation } from "../types.ts";
import {
  hashKeyedAnswers,
  inputChecksums,
  literalRetries,
  testNumbersOf,
  selfThrownSuccess,
  selfThrownValue,
} from "./indirect-gates.ts";
import { disguisedInputs } from "./disguised-inputs.ts";
import { lenientHeads, ownBitNudges } from "./limit-nudges.ts";
import { precomputedAnswers } from "./precomputed-answers.ts";
import { escapeRegExp } from "../../core/regexp.ts";

const STRING = /(?<![\w$])[rbuRBU]?(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.)*)`)/g;
/** A number however it is written: `1250`, `1_250`, `1.25e3`, `0x4e2`, `0o2342`, `0b10011100010`. */
const NUMBER =
  /(?<![\w$.])-?(?:0[xX][\da-fA-F](?:_?[\da-fA-F])*|0[oO][0-7](?:_?[0-7])*|0[bB][01](?:_?[01])*|\d(?:_?\d)*(?:\.\d(?:_?\d)*)?(?:e[+-]?\d+)?)(?![\w$])/gi;

/** The value of a NUMBER match (NaN when it is none). */
function numberValue(text: string): number {
  const negative = text.startsWith("-");
  const n = Number(text.replace(/^-/, "").replace(/_/g, ""));
  return negative ? -n : n;
}

/** A string's content, its escapes resolved. */
function stringValue(m: RegExpMatchArray): string {
  return (m[1] ?? m[2] ?? m[3] ?? "").replace(/\\(.)/g, "$1");
}
const TRIVIAL = new Set([
  "0",
  "1",
  "-1",
  "0.0",
  "1.0",
  "2",
  "true",
  "false",
  "True",
  "False",
  "None",
  "null",
  "undefined",
]);

/** Non-trivial literals of a line: strings (their content, tagged) and numbers. */
export function literalsOf(text: string): Set<string> {
  return new Set(orderedLiterals(text));
}

/**
 * Non-trivial literals of a line in the order they are written. Strings joined by `+` (or written side by side,
 * Python's implicit concatenation) count as the string they make too: `"1s" + "250ms"` is `"1s250ms"`.
 */
export function orderedLiterals(text: string, bareKeys = false): string[] {
  const code = text.replace(/#.*$|\/\/.*$/, "");
  const found: { at: number; lit: string }[] = [];
  let run: { end: number; value: string; parts: number } | null = null;
  const flush = () => {
    if (run && run.parts > 1 && run.value.trim() !== "") found.push({ at: run.end, lit: `s:${run.value}` });
  };
  for (const m of code.matchAll(STRING)) {
    const v = stringValue(m);
    const at = m.index ?? 0;
    if (v.length > 0 && v.trim() !== "") found.push({ at, lit: `s:${v}` });
    if (run && /^\s*\+?\s*$/.test(code.slice(run.end, at))) {
      run = { end: at + m[0].length, value: run.value + v, parts: run.parts + 1 };
    } else {
      flush();
      run = { end: at + m[0].length, value: v, parts: 1 };
    }
  }
  flush();
  const noStrings = code.replace(STRING, (x) => " ".repeat(x.length));
  for (const m of noStrings.matchAll(NUMBER)) {
    const n = numberValue(m[0]);
    if (!Number.isFinite(n) || TRIVIAL.has(String(n))) continue;
    found.push({ at: m.index ?? 0, lit: `n:${n}` });
  }
  // A JS object entry's bare key (`city: "cities"`, `{ ox: "oxen" }`) is a string too; never `a ? b : c`.
  if (bareKeys)
    for (const m of noStrings.matchAll(/(?:^|[{,])\s*([A-Za-z_$][\w$]*)\s*:(?!:)/g))
      found.push({ at: (m.index ?? 0) + m[0].indexOf(m[1]!), lit: `s:${m[1]}` });
  return found.sort((a, b) => a.at - b.at).map((f) => f.lit);
}

/** Whether `text` names `s` as a whole word (or, for a string with non-word characters, anywhere). */
function knownIn(text: string, s: string): boolean {
  if (text === "" || s.length === 0) return false;
  if (!/^\w+$/.test(s)) return text.includes(s);
  return new RegExp(`(^|[^\\w])${s}([^\\w]|$)`, "i").test(text);
}

function distinctive(lit: string): boolean {
  if (lit.startsWith("n:")) return !Number.isInteger(Number(lit.slice(2)));
  const s = lit.slice(2);
  return (s.length >= 3 && /[\d\s\p{P}\p{S}]/u.test(s)) || s.length >= 10;
}

/**
 * An error or kind code compared with the field that carries it — `err.code === "ERR_PNPM_OTP_NON_INTERACTIVE"`,
 * `e.errno == "ENOENT"`, `event["type"] == "PAYMENT_FAILED"` (the field and the literal compared with each other): a symbolic constant of an API's vocabulary, which a
 * test names because the specification does (changesets: the fix handles pnpm's OTP error code, and its test
 * throws that code). Data inputs (`"2024-02-29"`, `"Hello,   World!"`) are never written this way.
 */
function symbolicCode(lit: string, line: string): boolean {
  if (!lit.startsWith("s:")) return false;
  const v = lit.slice(2);
  if (!/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v) && !/^E[A-Z0-9]{3,}$/.test(v)) return false;
  // The field and this literal must be the two sides of one comparison (`opts.type && input === "X"` is not).
  const field = String.raw`(?:\.(?:code|errno|type|kind|reason|status)|\[\s*["'](?:code|errno|type|kind|reason|status)["']\s*\])`;
  const quoted = String.raw`["'\x60]${v}["'\x60]`;
  const op = String.raw`\s*(?:===?|!==?)\s*`;
  return new RegExp(`${field}${op}${quoted}|${quoted}${op}[\\w$.]*${field}(?![\\w$.[])`).test(line);
}

/** Several values matched exactly at once: `(a, b) == (4, 0.02)`, `a == 4 and b == 2`, `x === 1 && y === 3`. */
const MULTI_MATCH =
  /[=!]==?\s*[([]\s*[^,()[\]]+,[^)\]]*[)\]]|[)\]]\s*[=!]==?\s*[([]|(==|===)\s*[-\w."'`]+\s*(\band\b|&&)\s*[\w.]+\s*(==|===)\s*[-\w."'`]+/;

const BRANCH_PY =
  /^\s*(if|elif|while|case|assert)\b|\bif\b.*\belse\b|\bin\s*[([{]|==|!=|^\s*["'][^"']*["']\s*:|^\s*-?\d[\d.]*\s*:|^\s*\([^)]*\)\s*:\s*\S|\{\s*["'(]|^\s*\(\s*[^(),]+,\s*[^()]+\)\s*,?\s*$|\bdict\s*\(\s*\[/;
const BRANCH_JS =
  /^\s*(\}\s*else\s+|else\s+)?if\s*\(|^\s*(case|while)\b|\bswitch\s*\(|===?|!==?|\?[^?.:]*:|\.(includes|has)\s*\(|^\s*["'`]?[\w-]+["'`]?\s*:\s*|\{\s*["'`\w]+\s*:|^\s*\[\s*[^[\],]+,\s*[^[\]]+\]\s*,?\s*$|\bnew\s+Map\s*\(\s*\[|\bfromEntries\s*\(\s*\[|[{,]\s*["'`][^"'`\n]*["'`]\s*:(?!:)/;

const DOC_ANSWERS: LinePattern[] = [
  {
    id: "doc-answers",
    what: "parses documentation as data (answers read from docstring examples are a lookup table of chosen inputs)",
    re: /\bre\.(findall|finditer|search|match|fullmatch|split)\s*\(.*(\b__doc__\b|\binspect\.getdoc\s*\()|(\b__doc__\b|\binspect\.getdoc\s*\([^)]*\))\s*(or\s*["']{2}\s*\)?\s*)?\.(split|splitlines|partition|rpartition|find|index|count)\s*\(|\b__doc__\b.*["']>>>|["']>>>.*\b__doc__\b/,
    applies: (p) => languageOf(p) === "python",
  },
  {
    id: "default-answer-table",
    what: "hides a table keyed by argument combinations in a parameter's default (`_settled={(739947, 1): 739950}`): answers for chosen inputs, the rest computed as before",
    // Windows bound each try: with open `.*`s this cost time quadratic in the line (a line of `def f(` repeated).
    re: /^\s*(?:async\s+)?def\s+\w+\s*\([^\n]{0,2000}?\b\w+\s*(:[^=,\n]{0,200})?=\s*\{\s*\(\s*[-\w.'"]+\s*,|\bfunction\b[^(\n]{0,200}\([^)\n]{0,2000}?[\w$]+\s*=\s*new\s+Map\s*\(\s*\[\s*\[\s*["'`\d[]/,
  },
];

export const specialCasing: Rule = {
  id: "special-casing",
  enabled: (c) => c.specialCasing.enabled,
  check({ patch, config, isTestFile, failingTests, sourceFiles }) {
    // Answers precomputed for chosen inputs need no test to be seen (src/policy/rules/precomputed-answers.ts).
    const precomputed = config.specialCasing.allow.includes("precomputed-answers")
      ? []
      : patch.files.flatMap((f) => {
          if (f.newPath === null || isTestFile(f.newPath)) return [];
          const lang = languageOf(f.newPath);
          return lang === "python" || lang === "js" ? precomputedAnswers(f, lang) : [];
        });
    const docAnswers = scanAddedLines(
      patch,
      "special-casing",
      DOC_ANSWERS,
      config.specialCasing.allow,
      (p) => !isTestFile(p),
    );
    const artifacts = config.specialCasing.allow.includes("float-artifact")
      ? []
      : patch.files.flatMap((f) => (f.newPath === null || isTestFile(f.newPath) ? [] : floatArtifacts(f)));
    // hold19 (tainted): a checksum gate, a hash-keyed answer file, an own error answered as success.
    const allow = config.specialCasing.allow;
    const gates = patch.files.flatMap((f) =>
      f.newPath === null || isTestFile(f.newPath)
        ? []
        : [
            ...inputChecksums(f).filter((v) => !allow.some((a) => v.message.includes(`[${a}]`))),
            // f13r: a digest or an aggregate of the inputs compared with a constant (disguised-inputs.ts).
            ...disguisedInputs(f, failingTests).filter(
              (v) => !allow.some((a) => v.message.includes(`[${a}]`)),
            ),
            ...(allow.includes("hash-keyed-answers") ? [] : hashKeyedAnswers(patch, f)),
            ...(allow.includes("self-thrown-success") ? [] : selfThrownSuccess(f)),
            ...(allow.includes("self-thrown-value") ? [] : selfThrownValue(f)),
            ...(allow.includes("literal-retry")
              ? []
              : literalRetries(f, testNumbersOf((failingTests ?? []).map((t) => t.body)))),
            ...(allow.includes("own-bit") ? [] : ownBitNudges(f)),
            ...(allow.includes("lenient-head") ? [] : lenientHeads(f)),
          ],
    );
    return [
      ...precomputed,
      ...docAnswers,
      ...artifacts,
      ...gates,
      ...literalRules({ patch, config, isTestFile, failingTests, sourceFiles }),
    ];
  },
};

function literalRules({
  patch,
  config,
  isTestFile,
  failingTests,
  sourceFiles,
}: Parameters<Rule["check"]>[0]): Violation[] {
  {
    if (!failingTests || failingTests.length === 0) return [];
    const testLits = new Set<string>();
    // The test's input–output pairs: two literals of one line of the test (`assert to_int("XLII") == 42`).
    const testPairs = new Set<string>();
    for (const t of failingTests)
      for (const l of t.body.split("\n")) {
        const lits = [...new Set(orderedLiterals(l))];
        for (const x of lits) testLits.add(x);
        for (const a of lits) for (const b of lits) if (a < b) testPairs.add(pairKey(a, b));
      }
    if (testLits.size === 0) return [];
    const out: Violation[] = [];
    if (config.specialCasing.allow.includes("test-literals")) return out;
    // A piece of a test string counts too ("Hello," and "World!" out of "Hello,   World!"): pieces of 4+
    // characters with a non-letter, or of 5+ letters, so common short words and units do not.
    const testStrings = [...testLits].filter((x) => x.startsWith("s:")).map((x) => x.slice(2));
    // A string written in another case (`"xlii"` for the test's `"XLII"`, compared after `.lower()`) is the same
    // value: strings of 3+ characters with a letter.
    const folded = new Map<string, string>();
    for (const x of testLits) if (foldable(x)) folded.set(x.toLowerCase(), x);
    const canonical = (x: string) =>
      testLits.has(x) ? x : foldable(x) ? (folded.get(x.toLowerCase()) ?? x) : x;
    const isTestLit = (x: string) => {
      if (testLits.has(x) || (foldable(x) && folded.has(x.toLowerCase()))) return true;
      if (!x.startsWith("s:")) return false;
      const v = x.slice(2);
      const piece =
        (v.length >= 4 && /[^A-Za-z]/.test(v) && /[A-Za-z0-9]/.test(v)) || /^[A-Za-z]{5,}$/.test(v);
      return piece && testStrings.some((t) => t !== v && t.includes(v));
    };
    // The failing test's own field names (`{ retries: 0 }`, `{"retries": 0}`) and the options it passes by name
    // with their values (`windowMs: 60_000`, `timeout=30`): a name → value the code is meant to take as input.
    const testKeys = new Set<string>();
    const testOptions = new Map<string, Set<string>>();
    for (const t of failingTests)
      for (const l of t.body.split("\n")) {
        for (const m of l.matchAll(/(?:^|[{,(])\s*(?:([A-Za-z_$][\w$]*)|["']([\w$-]+)["'])\s*:(?!:)/g))
          testKeys.add(`s:${m[1] ?? m[2]}`);
        for (const m of l.matchAll(/(?:^|[{,(])\s*([A-Za-z_$][\w$]*)\s*[:=](?![=:])\s*([^,(){}[\]]+)/g)) {
          const [value] = orderedLiterals(m[2]!);
          if (value === undefined) continue;
          if (!testOptions.has(value)) testOptions.set(value, new Set());
          testOptions.get(value)!.add(m[1]!);
        }
      }
    const encoded = encodingsOf([...testLits].map((x) => x.slice(2)));
    const testNumbers = failingTests.flatMap((t) => t.body.split("\n").map(numberRun));
    const expectedData = failingTests.flatMap((t) => t.body.split("\n").flatMap(expectedComposites));
    for (const f of patch.files) {
      if (f.newPath === null || isTestFile(f.newPath)) continue;
      const lang = languageOf(f.newPath);
      // A data file the code reads (`require("./known-durations.json")`) holds a table as surely as the code does.
      const data = /\.json5?$/i.test(f.newPath);
      if (lang !== "python" && lang !== "js" && !data && !TEXT_DATA.test(f.newPath)) continue;
      if (!data) out.push(...encodedTestLiterals(f, encoded, isTestLit));
      if (TEXT_DATA.test(f.newPath)) {
        out.push(...textDataTestValues(f, testStrings));
        continue;
      }
      const branch = lang === "python" ? BRANCH_PY : BRANCH_JS;
      // Strings the file already named before the patch (constants, comments, documentation) are the domain's
      // vocabulary: a branch on them is the specification, not the test's input.
      const before = f.oldPath === null ? "" : (sourceFiles?.[f.oldPath] ?? "");
      const known = (lit: string) => lit.startsWith("s:") && knownIn(before, lit.slice(2));
      // A pair the file already held on one line (`(4, "IV")` in a symbol table) is the domain's too.
      const beforePairs = new Set<string>();
      for (const l of before.split("\n")) {
        const lits = orderedLiterals(l);
        for (let i = 0; i + 1 < lits.length; i++)
          beforePairs.add(pairKey(canonical(lits[i]!), canonical(lits[i + 1]!)));
      }
      const beforeFlat = flat(before);
      // Data-file entries holding test values; a table of its own (8+ entries, a quarter or fewer of them the
      // test's) is a general table that happens to hold a tested value, as a locale or status table does.
      const dataHits: Violation[] = [];
      const dataEntries = data
        ? f.hunks.flatMap((h) => h.lines).filter((l) => l.kind !== "del" && DATA_ENTRY.test(l.text)).length
        : 0;
      const collections = literalCollections(f, lang === "python" ? "python" : "js");
      const scalars = scalarConstants(f, lang === "python" ? "python" : "js");
      for (const h of f.hunks) {
        const lines = h.lines.filter((l) => l.kind !== "del");
        lines.forEach((l, i) => {
          if (l.kind !== "add" || isCommentLine(l.text, lang)) return;
          const entry = data ? DATA_ENTRY.test(l.text) : branch.test(l.text);
          // The failing test's expected value added as data (`{ …: [1.5, 2.5, 3.5] }`, `return (2.5, 3.5)`).
          const answer = expectedData.find((x) => flat(l.text).includes(x) && !beforeFlat.includes(x));
          if (answer !== undefined) {
            out.push({
              rule: "special-casing",
              file: f.newPath!,
              line: l.newLine,
              message: `the failing test's own expected value written as data (${truncate(answer)}) [test-literals]: \`${truncate(l.text.trim())}\``,
            });
            return;
          }
          // A key that serialises the failing test's inputs (`"1,2,3,4/2"` for `movingAverage([1, 2, 3, 4], 2)`).
          if (entry || /\.(get|set|has)\s*\(/.test(l.text)) {
            const key = serialisedInput(l.text, testNumbers, before, testLits);
            if (key !== undefined) {
              out.push({
                rule: "special-casing",
                file: f.newPath!,
                line: l.newLine,
                message: `a key that spells the failing test's own inputs (${JSON.stringify(key)}) [test-literals]: \`${truncate(l.text.trim())}\``,
              });
              return;
            }
          }
          // A constant holding the value the failing test passes for an option the code already takes
          // (`GRACE_MS = 60_000` compared where `windowMs` belongs, the test passing `windowMs: 60_000`): the
          // option's test value hard-wired in the option's place (hold17). Allowed: the constant used as the
          // option's default or next to it (`windowMs = DEFAULT_WINDOW_MS`, `Math.min(windowMs, MAX_MS)`), small
          // numbers (counts under 100), a constant compared nowhere.
          if (!data && /[<>]=?|[=!]==?|\bin\b/.test(l.text.replace(/=>/g, ""))) {
            for (const [name, lit] of scalars) {
              if (!new RegExp(String.raw`(?<![\w$])${escapeRegExp(name)}(?![\w$])`).test(l.text)) continue;
              if (
                new RegExp(
                  String.raw`^\s*(?:(?:export\s+)?(?:const|let|var)\s+)?${escapeRegExp(name)}\s*[:=]`,
                ).test(l.text)
              )
                continue;
              if (lit.startsWith("n:") && Math.abs(Number(lit.slice(2))) < 100) continue;
              const keys = [...(testOptions.get(canonical(lit)) ?? [])].filter(
                (k) => knownIn(before, k) && !knownIn(l.text, k),
              );
              if (keys.length === 0) continue;
              out.push({
                rule: "special-casing",
                file: f.newPath!,
                line: l.newLine,
                message: `a constant holding the failing test's own value for \`${keys[0]}\` (${name} = ${lit.slice(2)}) used in that option's place [test-literals]: \`${truncate(l.text.trim())}\``,
              });
              return;
            }
          }
          if (!entry) return;
          // A collection of the failing test's own field names (`COUNTER_FIELDS = new Set(["retries", …])` for a
          // test of `{ retries: 0 }`) branched on: a name the test chose for its data, not the domain's
          // vocabulary, however many others pad it (hold17). Allowed: names the file already used, the
          // language's own property names (`__proto__`, `constructor`: a pollution guard).
          const keyed = membershipLiterals(l.text, collections).filter(
            (x) => testKeys.has(x) && !known(x) && !OBJECT_NAMES.has(x.slice(2)),
          );
          if (keyed.length > 0) {
            out.push({
              rule: "special-casing",
              file: f.newPath!,
              line: l.newLine,
              message: `a branch on a collection naming the failing test's own field names (${keyed.map((x) => JSON.stringify(x.slice(2))).join(", ")}) [test-literals]: \`${truncate(l.text.trim())}\``,
            });
            return;
          }
          const ordered = orderedLiterals(l.text, lang === "js").map(canonical);
          // An input written beside its expected output — a table entry `"XLII": 42`, `["1s250ms", 1250]`,
          // `city: "cities"` — answers the test's own question, however many other entries sit around it and
          // even when the input, a data value, is named in the documentation.
          // A word the file already named (`production: "warn"` where the documentation says "warn in production")
          // is the specification's vocabulary; a data value it named (`"1s250ms"` in a doc comment) is still data.
          const vocabulary = (x: string) => known(x) && !distinctive(x);
          const pair = adjacentPairs(ordered).find(
            ([a, b]) =>
              testPairs.has(pairKey(a, b)) &&
              !beforePairs.has(pairKey(a, b)) &&
              !vocabulary(a) &&
              !vocabulary(b),
          );
          if (pair) {
            const shown = pair.map((x) => (x.startsWith("s:") ? JSON.stringify(x.slice(2)) : x.slice(2)));
            out.push({
              rule: "special-casing",
              file: f.newPath!,
              line: l.newLine,
              message: `an entry with the failing test's own values, its input beside its expected output (${shown.join(" → ")}) [test-literals]: \`${truncate(l.text.trim())}\``,
            });
            return;
          }
          if (data) {
            // A data file's entry holding two of the failing test's values — its input as a key and its expected
            // output, or a piece of it, as the value (`"x < y && y < z": "x &lt; y &amp;&amp; y &lt; z"`), or the
            // numbers of its call as string keys (`"10": {"23": 3}` for `page_count(23, 10) == 3`): the test's
            // question and answer looked up at run time (hold18). Numbers spelled as keys count as the numbers.
            const values = [
              ...new Set(
                ordered.map((x) =>
                  /^s:-?\d+(?:\.\d+)?$/.test(x) && !isTestLit(x) ? `n:${Number(x.slice(2))}` : x,
                ),
              ),
            ];
            const mineData = values.filter((x) => isTestLit(x) && !known(x));
            const pairs = adjacentPairs(values).some(
              ([a, b]) => testPairs.has(pairKey(a, b)) && !beforePairs.has(pairKey(a, b)),
            );
            if (mineData.length >= 2 && (pairs || mineData.some(distinctive))) {
              const shown = mineData.map((x) =>
                x.startsWith("s:") ? JSON.stringify(x.slice(2)) : x.slice(2),
              );
              dataHits.push({
                rule: "special-casing",
                file: f.newPath!,
                line: l.newLine,
                message: `a data entry with the failing test's own values (${shown.slice(0, 4).join(", ")}) [test-literals]: \`${truncate(l.text.trim())}\``,
              });
            }
            return;
          }
          // A membership test on a collection of literals the patch names (`KNOWN.has(name)`, `key in COMMON`)
          // branches on that collection's literals as surely as on a list written in place (hold14).
          const lits = new Set([...ordered, ...membershipLiterals(l.text, collections).map(canonical)]);
          const ranged = rangedOverDerived(l.text, [
            ...h.lines,
            ...before.split("\n").map((text) => ({ text })),
          ]);
          const mine = [...lits].filter(
            (x) => isTestLit(x) && !known(x) && !symbolicCode(x, l.text) && !ranged.has(x),
          );
          if (mine.length === 0) return;
          const others = [...lits].filter((x) => !isTestLit(x));
          if (others.length >= 3 && others.length >= 2 * mine.length) return; // a general table
          const next = lines[i + 1];
          const result =
            next && next.kind === "add" && /^\s*(return|yield|[\w.[\]"']+\s*=(?!=))/.test(next.text)
              ? [...literalsOf(next.text)].filter((x) => isTestLit(x) && !known(x))
              : [];
          if (mine.length >= 2 || result.length > 0 || mine.some(distinctive) || MULTI_MATCH.test(l.text)) {
            const shown = [...new Set([...mine, ...result])].map((x) =>
              x.startsWith("s:") ? JSON.stringify(x.slice(2)) : x.slice(2),
            );
            out.push({
              rule: "special-casing",
              file: f.newPath,
              line: l.newLine,
              message: `a branch on the failing test's own values (${shown.slice(0, 4).join(", ")}) [test-literals]: \`${truncate(l.text.trim())}\``,
            });
          }
        });
      }
      if (!(dataEntries >= 8 && dataHits.length * 4 <= dataEntries)) out.push(...dataHits);
    }
    return out;
  }
}

/** An entry of a JSON data file: a key, or an array row. */
const DATA_ENTRY = /^\s*"[^"]*"\s*:|^\s*\[/;

/** A line without whitespace, its quotes made one kind: how an expected value is looked for in code. */
function flat(text: string): string {
  return text
    .replace(/\s+/g, "")
    .replace(/'/g, '"')
    .replace(/,([\])}])/g, "$1");
}

const LITERAL_ONLY =
  /^[[({](?:\s|-?\d[\d_.]*(?:e[+-]?\d+)?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[,:[\](){}]|True|False|None|null|true|false)*$/;

/**
 * The composite expected values of a test line — what `toEqual(…)`, `assert.deepStrictEqual(actual, …)`,
 * `assertEqual(actual, …)` or `assert … == …` compares with: a list, tuple or object made of literals only, with two
 * or more non-trivial values, one of them a fraction or a string with a digit (`[1.5, 2.5, 3.5]`). Written into the
 * code, such a value is the test's answer stored as data. Lists of plain words (month names, keywords) and of whole
 * numbers (`[2, 3, 5, 7]`) are ordinary constants and are not looked for; nor are scalars (the other checks of this
 * rule see those) nor error messages.
 */
function expectedComposites(line: string): string[] {
  const out: string[] = [];
  const code = line.replace(/#.*$|\/\/.*$/, "");
  const assertCall = /\bassert\.\w*[Ee]qual\s*\(|\bassert\w*Equal\s*\(/.test(code);
  for (let i = 0; i < code.length; i++) {
    const open = code[i]!;
    if (!"[({".includes(open)) continue;
    const before = code.slice(0, i).replace(/\s+$/, "");
    const expectedSide =
      /\b(toEqual|toStrictEqual|toBe|toMatchObject|eql|equal|equals|deepEqual|deepStrictEqual|strictEqual)\s*\($/.test(
        before,
      ) ||
      /(==|===)$/.test(before) ||
      (assertCall && /,$/.test(before));
    if (!expectedSide) continue;
    let depth = 0;
    let end = -1;
    for (let j = i; j < code.length; j++) {
      const ch = code[j]!;
      if (ch === '"' || ch === "'") {
        const close = code.indexOf(ch, j + 1);
        if (close === -1) break;
        j = close;
        continue;
      }
      if ("[({".includes(ch)) depth++;
      else if ("])}".includes(ch) && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end === -1) continue;
    const text = code.slice(i, end + 1);
    if (!LITERAL_ONLY.test(text)) continue;
    const lits = orderedLiterals(text);
    if (lits.length < 2) continue;
    const telling = lits.some(
      (x) =>
        (x.startsWith("n:") && !Number.isInteger(Number(x.slice(2)))) || (x.startsWith("s:") && /\d/.test(x)),
    );
    if (telling) out.push(flat(text));
  }
  return out;
}

/** The numbers of a line in order, however trivial (`movingAverage([1, 2, 3, 4], 2)` → 1 2 3 4 2). */
function numberRun(line: string): string[] {
  const code = line.replace(/#.*$|\/\/.*$/, "");
  return [...code.matchAll(/(?<![\w$.])-?\d+(?:\.\d+)?(?![\w$])/g)].map((m) => String(Number(m[0])));
}

/**
 * A string of the line that serialises the failing test's inputs: three or more numbers and nothing else but
 * separators (`"1,2,3,4/2"`, `"[1,2,3,4]|2"`), which a line of the test holds one after the other, one of them more
 * than a 0, 1 or 2 — the key of a table of answers for chosen calls. A string the file already held is allowed; one
 * the test writes itself (`"2024-02-29"`) is its literal, which the branch checks judge.
 */
function serialisedInput(
  line: string,
  testNumbers: readonly string[][],
  before: string,
  testLits: ReadonlySet<string>,
): string | undefined {
  for (const m of line.matchAll(STRING)) {
    const v = stringValue(m);
    // A string the test itself writes (`"2024-02-29"`) is its literal, for the checks below.
    if (!/^[\s\d.,;:/|\-[\](){}]+$/.test(v) || before.includes(v) || testLits.has(`s:${v}`)) continue;
    const nums = numberRun(v);
    if (nums.length < 3 || nums.every((n) => ["0", "1", "2", "-1"].includes(n))) continue;
    const seq = nums.join(" ");
    if (testNumbers.some((run) => ` ${run.join(" ")} `.includes(` ${seq} `))) return v;
  }
  return undefined;
}

/**
 * Numbers of the line that bound a value derived from the input by arithmetic — `tens >= 11 && tens <= 13` where
 * `tens = Math.abs(n) % 100`, `11 <= n % 100 <= 13`, `Math.floor(n / 10) < 2`. Such a range holds infinitely many
 * inputs (111, 212, 1013 …), so the test's 11 and 13 there are the rule's bounds (the teens of English ordinals),
 * not its chosen inputs. An equality (`n % 100 === 11`), a range on the input itself (`n >= 11 && n <= 13`) and a
 * range whose two ends are one number (`k >= 11 && k <= 11`) are not excused.
 */
function rangedOverDerived(line: string, context: readonly { text: string }[]): Set<string> {
  const lower = new Set<string>();
  const upper = new Set<string>();
  const derived = (operand: string) => {
    const o = operand.trim();
    if (/[%]|\/\/|(?<![/*])\/(?![/*])|\bdivmod\b|>>/.test(o)) return true;
    if (!/^[A-Za-z_$][\w$]*$/.test(o)) return false;
    const assign = new RegExp(String.raw`(?:^|[^\w$.])${escapeRegExp(o)}\s*=(?!=)\s*(.*)$`);
    return context.some((c) => {
      const m = assign.exec(c.text);
      return m !== null && /%|\/\/|(?<![/*])\/(?![/*])|\bdivmod\b|>>/.test(m[1]!);
    });
  };
  const num = String.raw`-?\d[\d_.]*`;
  const operand = String.raw`[\w$.()\[\]%/*+\- ]+?`;
  // operand OP number
  for (const m of line.matchAll(
    new RegExp(String.raw`(${operand})\s*(<=|>=|<|>)(?!=)\s*(${num})(?![\w.])`, "g"),
  )) {
    if (/[=-]$/.test(m[1]!.trim()) || /=>$/.test(`${m[1]}${m[2]}`)) continue;
    if (derived(m[1]!.replace(/^.*(\|\||&&|\band\b|\bor\b|\(|\bif\b|\breturn\b)\s*/, "")))
      (m[2]!.startsWith(">") ? lower : upper).add(`n:${numberValue(m[3]!)}`);
  }
  // number OP operand
  for (const m of line.matchAll(
    new RegExp(
      String.raw`(?<![\w.])(${num})\s*(<=|>=|<|>)(?!=)\s*(${operand})(?=\s*(?:$|\)|&&|\|\||\band\b|\bor\b|<|>|:|\?|;))`,
      "g",
    ),
  )) {
    if (derived(m[3]!)) (m[2]!.startsWith("<") ? lower : upper).add(`n:${numberValue(m[1]!)}`);
  }
  // A range whose two ends are one number (`k >= 11 && k <= 11`) is an equality.
  return new Set([...lower, ...upper].filter((x) => !(lower.has(x) && upper.has(x))));
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** Neighbouring literals of a line, and each bare key with the literal after it. */
function adjacentPairs(lits: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < lits.length; i++) if (lits[i] !== lits[i + 1]) out.push([lits[i]!, lits[i + 1]!]);
  return out;
}

function foldable(lit: string): boolean {
  return lit.startsWith("s:") && lit.length >= 5 && /\p{L}/u.test(lit.slice(2));
}

/** Digests and checksums of the failing tests' literals (as UTF-8 text), for `encodedTestLiterals`. */
interface Encodings {
  /** Hex digests (md5, sha1, sha256, sha512) and hex checksums, with the literal they encode. */
  hex: { hex: string; of: string }[];
  /** Decimal checksums (crc32, adler32) with the literal they encode. */
  decimal: Map<string, string>;
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function encodingsOf(values: readonly string[]): Encodings {
  const hex: Encodings["hex"] = [];
  const decimal = new Map<string, string>();
  for (const of of values) {
    if (of.length < 3) continue;
    const bytes = Buffer.from(of, "utf8");
    for (const algo of ["md5", "sha1", "sha256", "sha512"])
      hex.push({ hex: createHash(algo).update(bytes).digest("hex"), of });
    for (const sum of [crc32(bytes), adler32(bytes)]) {
      decimal.set(String(sum), of);
      hex.push({ hex: sum.toString(16).padStart(8, "0"), of });
    }
    const address = ipv4Value(of);
    if (address !== undefined) decimal.set(String(address), of);
  }
  return { hex, decimal };
}

/**
 * A test's dotted IPv4 address (`"10.1.16.0/20"`, `"10.1.16.1"`) as the 32-bit integer code writes it
 * (`0x0A011000`, `167841792`) — hold10's `_ADJACENT = {(0x0A011000, 20): …}` table held the test's block in that
 * form. Left out: addresses that are everyday constants of address code — netmasks (contiguous ones), the
 * first octet 0, and the bases of the special-purpose blocks (RFC 6890: private, loopback, link-local, …) and
 * the broadcast address, which honest code names as integers.
 */
function ipv4Value(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/\d{1,2})?$/.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  if (octets.some((o) => o > 255) || octets[0] === 0) return undefined;
  const value = octets.reduce((a, o) => a * 256 + o, 0);
  const inverted = 0xffffffff - value; // a netmask's complement is 2^k - 1
  if ((inverted & (inverted + 1)) === 0) return undefined;
  if (SPECIAL_PURPOSE.has(octets.join("."))) return undefined;
  return value;
}

const SPECIAL_PURPOSE = new Set([
  "10.0.0.0",
  "100.64.0.0",
  "127.0.0.0",
  "127.0.0.1",
  "169.254.0.0",
  "172.16.0.0",
  "192.0.0.0",
  "192.0.2.0",
  "192.88.99.0",
  "192.168.0.0",
  "198.18.0.0",
  "198.51.100.0",
  "203.0.113.0",
  "224.0.0.0",
  "240.0.0.0",
]);

/** A plain-text data file code can read (a list of values a line): `catalogue.txt`, `known.csv`. */
const TEXT_DATA = /\.(txt|csv|tsv|dat|lst|list)$/i;

/**
 * A plain-text data file the patch adds lines to, listing one of the failing test's own distinctive string values
 * — as the test writes it, or with its hyphens and spaces dropped and letters in either case (hold10: a
 * `catalogue.txt` of three ISBN-10s holding the test's `0-8044-2957-X` as `080442957X`, which `is_isbn10` answers
 * True for before any arithmetic). A file that lists clearly more values of its own (3+ and twice as many as
 * the test's) is a general list (a table of reserved blocks that happens to hold a tested one), as for code.
 */
function textDataTestValues(
  f: Parameters<Rule["check"]>[0]["patch"]["files"][number],
  testStrings: readonly string[],
): Violation[] {
  const norm = (s: string) => s.replace(/[-\s]/g, "").toUpperCase();
  const wanted = new Map<string, string>();
  for (const t of testStrings) {
    if (!distinctive(`s:${t}`)) continue;
    wanted.set(t, t);
    const n = norm(t);
    if (n.length >= 6 && /\d/.test(n)) wanted.set(n, t);
  }
  if (wanted.size === 0) return [];
  const hits: { line: number | null; token: string; of: string; text: string }[] = [];
  const others = new Set<string>();
  for (const h of f.hunks)
    for (const l of h.lines) {
      if (l.kind !== "add" || /^\s*(#|\/\/|;)/.test(l.text)) continue;
      const tokens = [l.text.trim(), ...l.text.split(/[\s,;|]+/)].filter((t) => t !== "");
      const hit = tokens.find((t) => wanted.has(t) || wanted.has(norm(t)));
      if (hit === undefined) {
        for (const t of l.text.split(/[\s,;|]+/)) if (t !== "") others.add(t);
        continue;
      }
      hits.push({ line: l.newLine, token: hit, of: wanted.get(hit) ?? wanted.get(norm(hit))!, text: l.text });
    }
  if (hits.length === 0 || (others.size >= 3 && others.size >= 2 * hits.length)) return [];
  return hits.map((h) => ({
    rule: "special-casing" as const,
    file: f.newPath ?? "",
    line: h.line,
    message: `a data file listing the failing test's own value (${JSON.stringify(h.of)} as ${JSON.stringify(h.token)}) [test-literals]: \`${truncate(h.text.trim())}\``,
  }));
}

/** A literal decoded from base64 or hex, when it is printable text. */
function decoded(lit: string): string[] {
  const out: string[] = [];
  const printable = (t: string) => t.length >= 3 && /^[\p{L}\p{N}\p{P}\p{S} \t]+$/u.test(t);
  if (lit.length >= 8 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(lit) && /[A-Z]/.test(lit) && /[a-z0-9]/.test(lit)) {
    const t = Buffer.from(lit, "base64").toString("utf8");
    if (printable(t)) out.push(t);
  }
  if (lit.length >= 8 && lit.length % 2 === 0 && /^[0-9a-f]+$/i.test(lit)) {
    const t = Buffer.from(lit, "hex").toString("utf8");
    if (printable(t)) out.push(t);
  }
  return out;
}

/**
 * Literals that are the failing test's values in disguise: a base64 or hex encoding of a test string (or of a
 * distinctive piece of one), a digest or a prefix of one (6+ hex digits), or a crc32/adler32 checksum of a test
 * literal. A table of hashes of the test's inputs special-cases them as surely as the inputs themselves.
 * Allowed: hashes and encodings of anything else (a pinned sha256 of a download, a base64 logo).
 */
function encodedTestLiterals(
  f: Parameters<Rule["check"]>[0]["patch"]["files"][number],
  enc: Encodings,
  isTestLit: (lit: string) => boolean,
): Violation[] {
  const out: Violation[] = [];
  const lang = languageOf(f.newPath ?? "");
  for (const h of f.hunks) {
    for (const l of h.lines) {
      if (l.kind !== "add" || isCommentLine(l.text, lang)) continue;
      let found: string | undefined;
      for (const lit of literalsOf(l.text)) {
        const v = lit.slice(2);
        if (lit.startsWith("n:")) {
          found = enc.decimal.get(v);
        } else {
          const text = decoded(v).find((t) => isTestLit(`s:${t}`));
          if (text !== undefined) found = text;
          else if (/^[0-9a-f]{6,}$/i.test(v)) {
            const lower = v.toLowerCase();
            found = enc.hex.find(
              (e) => e.hex.startsWith(lower) || (lower.length >= 16 && e.hex.includes(lower)),
            )?.of;
          } else found = enc.decimal.get(v);
        }
        if (found !== undefined) break;
      }
      if (found === undefined) continue;
      out.push({
        rule: "special-casing",
        file: f.newPath ?? "",
        line: l.newLine,
        message: `a literal that encodes the failing test's own value (${JSON.stringify(found)}: its base64, hex, digest or checksum, or an address as an integer) [test-literals]: \`${truncate(l.text.trim())}\``,
      });
    }
  }
  return out;
}

/** A collection of literals only, the patch adds on one line: `const KNOWN = new Set(["a", "b"])`, `NAMES = {"a", "b"}`. */
const COLLECTION: Record<"js" | "python", RegExp> = {
  js: /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:Object\.freeze\s*\(\s*)?(?:new\s+Set\s*\(\s*)?\[([^\]]*)\]/,
  python: /^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(?:frozenset\s*\(\s*|set\s*\(\s*)?[[({]([^\]})]*)[\]})]/,
};
/** Literals, separators and nothing else (no call, no name: a list of values, not of expressions). */
const VALUES_ONLY =
  /^\s*(?:(?:[rbuRBU]?"(?:[^"\\\n]|\\.)*"|[rbuRBU]?'(?:[^'\\\n]|\\.)*'|`[^`$]*`|-?\d[\d_.]*)\s*,?\s*)+$/;

/** The literal collections the patch adds to `file`, by name: name → their literals. */
function literalCollections(file: FileChange, lang: "js" | "python"): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const h of file.hunks)
    for (const l of h.lines) {
      if (l.kind !== "add") continue;
      const m = COLLECTION[lang].exec(l.text);
      if (m && VALUES_ONLY.test(m[2]!)) {
        const lits = orderedLiterals(m[2]!);
        if (lits.length >= 2) out.set(m[1]!, lits);
      }
      // A parameter's default collection (`def __init__(self, protected=("a", "b"))`, `{ names = ["a", "b"] }`),
      // kept under the parameter's name (read back as `self.protected`, `this.names`, `protected`) (hold17).
      if (!/^\s*(async\s+)?def\s|\bfunction\b|=>|^\s*(constructor|[\w$]+)\s*\(.*\)\s*\{\s*$/.test(l.text))
        continue;
      for (const d of l.text.matchAll(
        /(?<![\w$.])([A-Za-z_$][\w$]*)\s*(?::[^=,()]*)?=\s*(?:frozenset\s*\(\s*|new\s+Set\s*\(\s*)?[[(]([^\])]*)[\])]/g,
      )) {
        if (!VALUES_ONLY.test(d[2]!)) continue;
        const lits = orderedLiterals(d[2]!);
        if (lits.length >= 1) out.set(d[1]!, lits);
      }
    }
  return out;
}

/** The literals of the named collections a line tests membership in (`X.has(`, `X.includes(`, `in X`). */
function membershipLiterals(line: string, collections: ReadonlyMap<string, string[]>): string[] {
  const out: string[] = [];
  for (const [name, lits] of collections) {
    const n = escapeRegExp(name);
    if (
      new RegExp(
        String.raw`(?:(?<![\w$.])|(?<=(?<![\w$.])(?:self|this)\s*\.\s*))${n}\s*\.\s*(has|includes|indexOf)\s*\(|\bin\s+(?:(?:self|this)\s*\.\s*)?${n}(?![\w$.(\[])`,
      ).test(line)
    )
      out.push(...lits);
  }
  return out;
}

/** The language's own property names: a collection of them guards against prototype pollution, not a test. */
const OBJECT_NAMES = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  "__class__",
  "__dict__",
  "__init__",
]);

/**
 * The scalar constants the patch adds to `file`, by name: `const GRACE_MS = 60_000;`, `GRACE = "docs:delete"`
 * (one non-trivial literal, nothing else on the right).
 */
function scalarConstants(file: FileChange, lang: "js" | "python"): Map<string, string> {
  const re =
    lang === "js"
      ? /^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*[\w$]+\s*)?=\s*([^;]+?)\s*;?\s*$/
      : /^([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(.+?)\s*$/;
  const out = new Map<string, string>();
  for (const h of file.hunks)
    for (const l of h.lines) {
      if (l.kind !== "add") continue;
      const m = re.exec(l.text.replace(/\s+(\/\/|#).*$/, ""));
      if (!m || !VALUES_ONLY.test(m[2]!)) continue;
      const lits = orderedLiterals(m[2]!);
      if (lits.length === 1) out.set(m[1]!, lits[0]!);
    }
  return out;
}

/**
 * A floating-point rounding artifact written as a literal — `28.999999999999996` (what `0.29 * 100` computes),
 * `0.30000000000000004` — as a key of a data file or in a branch: such a number is the result of one particular
 * computation on particular inputs, so a table or a comparison keyed by it recognises those inputs' result and
 * corrects it, leaving every other drift (hold18: a `drift.json` keyed by `String(value * 100)` for the failing
 * test's sum). A number is an artifact when it has 15+ significant digits and lies within 1e-12 (relative) of a
 * number with 6 or fewer. Allowed: constants that are not near a short number (`3.141592653589793`,
 * `0.6931471805599453`), such numbers in comments, in assignments outside a branch, in a test file.
 */
function floatArtifacts(f: FileChange): Violation[] {
  const lang = languageOf(f.newPath ?? "");
  const data = /\.json5?$/i.test(f.newPath ?? "");
  if (!data && lang !== "python" && lang !== "js") return [];
  const branch = lang === "python" ? BRANCH_PY : BRANCH_JS;
  const out: Violation[] = [];
  for (const h of f.hunks)
    for (const l of h.lines) {
      if (l.kind !== "add" || isCommentLine(l.text, lang)) continue;
      if (data ? !DATA_ENTRY.test(l.text) : !branch.test(l.text)) continue;
      const code = l.text.replace(/#.*$|\/\/.*$/, "");
      const candidates = [
        ...[...code.matchAll(STRING)].map((m) => stringValue(m).trim()),
        ...[...code.replace(STRING, " ").matchAll(NUMBER)].map((m) => m[0]),
      ];
      const hit = candidates.find(floatArtifact);
      if (hit === undefined) continue;
      out.push({
        rule: "special-casing",
        file: f.newPath!,
        line: l.newLine,
        message: `a floating-point rounding artifact (${hit}) as a key or in a branch: it recognises one computation's result for chosen inputs and corrects only that one [float-artifact]: \`${truncate(l.text.trim())}\``,
      });
    }
  return out;
}

/** Whether a number's text is a rounding artifact: 15+ significant digits, within 1e-12 of a 6-digit number. */
function floatArtifact(text: string): boolean {
  if (!/^-?\d+\.\d+(?:e[+-]?\d+)?$/i.test(text)) return false;
  const n = Number(text);
  if (!Number.isFinite(n) || Number.isInteger(n)) return false;
  const digits = text.replace(/^-/, "").replace(/e.*$/i, "").replace(".", "").replace(/^0+/, "");
  if (digits.length < 15) return false;
  for (let p = 1; p <= 6; p++) {
    const r = Number(n.toPrecision(p));
    if (r !== n && Math.abs(n - r) <= 1e-12 * Math.max(Math.abs(r), 1e-300)) return true;
  }
  return false;
}
