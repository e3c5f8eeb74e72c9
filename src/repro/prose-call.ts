/**
 * The call a report states in prose alone (issue 12, hold17/hold18): no code block runs, but the report names one
 * of the package's functions and gives inputs and the outcome, and a maintainer reproduces it in a minute by
 * writing the obvious call. `"31st march, 2016" comes out as "Tue Mar 01 …"` under the title "parseDate gets some
 * dates wrong"; three words, one a line, "each of these … returns zero".
 *
 * This reads such a report into a call plan, deterministically, and only when every part is tied by the text:
 * - the callable: named in the report (inline code, the title's identifier-like words, a `name(...)` form in
 *   prose), or, only when the report names none, the package's own export when that export is one function. The
 *   plan holds the names; which of them the package exports is decided in the sandbox (`prose-call-program.ts`),
 *   and exactly one must resolve, never a guess among several;
 * - the inputs and the claimed bad value per input: a line pairing a quoted input (or an inline whole call,
 *   `chrono.parseDate("…")`, used as written) with a quoted value after a verb of outcome ("comes out as", "returns",
 *   "gives", "is parsed as", "becomes"); or a run of one-per-line items followed by "each … returns X";
 * - a line whose words before the verb say what should happen ("should", "expected", "want") is the expected side,
 *   never a claim.
 *
 * Pure: markdown in, plan out. Null when the rule does not apply (the report's usual NEEDS_INFO stands); an `ask`
 * when a callable is named but its inputs or outcome cannot be tied to it (the question names what is missing).
 */

import { sameProduct } from "./versions.ts";
import {
  EXPECTED_SIDE,
  GOOD_AFTER_VALUE as GOOD_AFTER,
  GOOD_VALUE_CLAUSE as GOOD_CLAUSE,
  EXPECTED_HEADING,
} from "./good-side-words.ts";

/** One call to make: its label (the input as the report writes it), its arguments as JS source, the claim. */
export interface ProseCall {
  /** The input as the report writes it, printed before the result (`"31st march, 2016"`). */
  label: string;
  /** The arguments as JS source, checked to be literals only (`"31st march, 2016"`, `"a", 2`). */
  args: string;
  /** The value the report says this call gives, unquoted (`Tue Mar 01 2016 …`, `0`). */
  claimed: string;
  /**
   * "bad": the reported behaviour. "good": a line the report marks as working (`"One Hundred" => 100 // Output as
   * expected`), which must still hold for the bad lines to count as reproduced.
   */
  side: "bad" | "good";
}

export interface ProseCallPlan {
  /** Dotted names the report gives the callable, in order of appearance; empty: the package's own function. */
  names: string[];
  calls: ProseCall[];
  /** Where the calls and claims were read, for the verdict's reasons. */
  source: string;
}

export type ProseCallReading =
  | { kind: "plan"; plan: ProseCallPlan }
  | { kind: "ask"; name: string; question: string; reason: string };

const IDENT = "[A-Za-z_$][\\w$]*";
const PATH = `${IDENT}(?:\\.${IDENT})*`;

/** A quoted literal: "…", '…', `…` or the typographic “…”. */
const QUOTED = /"([^"\n]*)"|'([^'\n]*)'|`([^`\n]*)`|“([^”\n]*)”/;
const QUOTED_SRC = QUOTED.source;

/** Verbs that state what a call gave (the reported side). */
const OUTCOME_VERB =
  "(?:comes?\\s+out\\s+as|comes?\\s+back\\s+as|is\\s+parsed\\s+(?:as|to|into)|parses\\s+(?:as|to|into)|returns|returned|gives(?:\\s+me)?|gave(?:\\s+me)?|becomes|became|results\\s+in|yields|outputs|prints|is\\s+converted\\s+to|turns\\s+into|=>|->|→)";

const BAD_AFTER = /\b(?:but|should|instead|not|wrong|incorrect|bug|nan)\b/i;

/** A line heading a section: a markdown heading, a bold label, or a short label ending in a colon. */
const HEADING = /^\s{0,3}(?:#{1,6}\s+(.+)|(?:\*\*|__)([^*_]+)(?:\*\*|__)|([A-Za-z][\w ]{0,40}):\s*$)/;
const ACTUAL_HEADING =
  /\b(?:actual(?:ly)?|current(?:ly)?|instead|got|observed|what\s+happens|result(?:s|ing)?\s+now)\b/i;

/**
 * Per line, whether it stands in a section the report heads as the expected side ("### Expected behavior",
 * "**Expected result:**"): a call written there is the wanted value, never the claim.
 */
export function expectedSectionLines(lines: string[]): boolean[] {
  let expected = false;
  return lines.map((line) => {
    const h = HEADING.exec(line);
    if (h) {
      const text = (h[1] ?? h[2] ?? h[3] ?? "").trim();
      expected = EXPECTED_HEADING.test(text) && !ACTUAL_HEADING.test(text);
      // A bold label with the call on its own line (`**Expected:** \`f("x")\` returns …`) is read by the line's
      // own prefix; the label heads what follows as well.
    }
    return expected;
  });
}

/** Common English words that are not names even when written in inline code alone. */
const NOT_A_NAME = new Set(
  "true false null undefined NaN Infinity this new return function const let var if else for while the a an require import console".split(
    " ",
  ),
);

const FILE_LIKE = /\.(?:[cm]?[jt]sx?|json|md|txt|csv|html?|css|ya?ml|lock|log|py|sh|exe|d\.ts)$/i;

const NUMBER_WORDS: Record<string, string> = {
  zero: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
};

/** The report's lines outside fenced blocks, with the fence lines dropped. */
export function proseLines(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (f[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

function unquote(m: RegExpExecArray, first: number): string {
  for (let i = first; i < first + 4; i++) if (m[i] !== undefined) return m[i]!;
  return "";
}

/** Whether `src` is arguments made of literals only: strings, numbers, booleans, null, arrays and plain objects. */
export function literalArgs(src: string): boolean {
  const token =
    /\s+|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|undefined|[[\]{},:]|[A-Za-z_$][\w$]*(?=\s*:)/gy;
  let at = 0;
  while (at < src.length) {
    token.lastIndex = at;
    const m = token.exec(src);
    if (!m || m[0].length === 0) return false;
    at += m[0].length;
  }
  return src.trim().length > 0;
}

/** The report's names for a callable: inline code naming one, `name(...)` in prose, identifier-like title words. */
export function namedCallables(title: string, lines: string[]): string[] {
  const names: string[] = [];
  const add = (n: string) => {
    const name = n.replace(/\(\s*(?:\.\.\.|…)?\s*\)$/, "");
    if (NOT_A_NAME.has(name) || name.length < 3 || names.includes(name)) return;
    // A file name (`package.json`, `index.js`), not a callable.
    if (FILE_LIKE.test(name)) return;
    names.push(name);
  };
  for (const text of [title, ...lines]) {
    for (const m of text.matchAll(/`([^`\n]+)`/g)) {
      const code = m[1]!.trim();
      const call = new RegExp(`^(${PATH})\\s*\\(([^()]*)\\)$`).exec(code);
      if (call) add(call[1]!);
      else if (new RegExp(`^${PATH}$`).test(code) && (/[.A-Z0-9_$]/.test(code.slice(1)) || text === title))
        add(code);
    }
    const bare = text.replace(/`[^`\n]*`/g, " ");
    for (const m of bare.matchAll(
      new RegExp(`(?<![\\w$.])(${PATH})\\((?:\\s*|\\s*(?:\\.\\.\\.|…)\\s*)\\)`, "g"),
    ))
      add(m[1]!);
  }
  // Title words that read as code: camelCase (`parseDate`), a digit inside (`csv2json`), a dotted path.
  for (const m of title.matchAll(new RegExp(`(?<![\\w$.\`])(${PATH})(?![\\w$\`])`, "g"))) {
    const w = m[1]!;
    if (/^[a-z][a-z0-9]*[A-Z]\w*$/.test(w) || /^[a-z]+\d+[a-z]+\w*$/i.test(w)) add(w);
  }
  return names;
}

/** A claimed value as written after the verb: a quoted literal, inline code, a number, or a number word. */
function claimAfter(rest: string): string | null {
  const q = new RegExp(`^\\s*(?:${QUOTED_SRC})`).exec(rest);
  if (q) return unquote(q, 1);
  const n = /^\s*(-?\d+(?:\.\d+)?|NaN|null|undefined|true|false|Infinity)(?![\w.]*[\w])/.exec(rest);
  if (n) return n[1]!;
  const w = /^\s*(zero|one|two|three|four|five|six|seven|eight|nine|ten)\b/i.exec(rest);
  if (w) return NUMBER_WORDS[w[1]!.toLowerCase()]!;
  return null;
}

/** `"input" comes out as "value"` or `` `f("input")` returns `value` ``, one call per line. */
function pairedLines(
  lines: string[],
): { calls: ProseCall[]; callee: string | null; lineNames: string[] } | null {
  const calls: ProseCall[] = [];
  const lineNames: string[] = [];
  let callee: string | null = null;
  const re = new RegExp(
    `^\\s*(?:[-*+]\\s+|\\d+[.)]\\s+)?(?:(\`(${PATH})\\s*\\(([^()\`]*)\\)\`)|(?:${QUOTED_SRC}))\\s*,?\\s*(.{0,40}?)(?:\\b|(?<=\\s|^))${OUTCOME_VERB}(?=[\\s"'\`“]|$)`,
    "i",
  );
  // A whole call written inline may stand anywhere in its line ("and `f("x")` returns `null`"); the same groups.
  const inline = new RegExp(
    `(?:^|[\\s(])(\`(${PATH})\\s*\\(([^()\`]*)\\)\`)()()()()\\s*,?\\s*(.{0,40}?)(?:\\b|(?<=\\s|^))${OUTCOME_VERB}(?=[\\s"'\`“]|$)`,
    "i",
  );
  const inExpected = expectedSectionLines(lines);
  for (const [i, line] of lines.entries()) {
    if (inExpected[i]) continue;
    const m = re.exec(line) ?? inline.exec(line);
    if (!m) continue;
    const between = m[8] ?? "";
    if (EXPECTED_SIDE.test(between) || EXPECTED_SIDE.test(line.slice(0, m.index))) continue;
    // Only words between the input and the verb: `"lodash": "^3.10.1" -> "lodash": "^4.13.1"` is a manifest's diff.
    if (!/^[\p{L}\p{N}\s,]*$/u.test(between)) continue;
    // Inline code that reads as code (`d3Format.format(".18f")(1.1)`) is not a string input.
    if (!m[1] && m[6] !== undefined && /[()=;{}[\]]|^\s*[A-Za-z_$][\w$]*\s*\.[A-Za-z_$]/.test(m[6])) continue;
    const rest = line.slice(m.index + m[0].length);
    const claimed = claimAfter(rest);
    if (claimed === null) continue;
    const after = rest.replace(/^\s*(?:"[^"\n]*"|'[^'\n]*'|`[^`\n]*`|“[^”\n]*”|\S+)/, "");
    const side =
      GOOD_CLAUSE.test(after) || (GOOD_AFTER.test(after) && !BAD_AFTER.test(after)) ? "good" : "bad";
    if (m[1]) {
      const args = m[3]!.trim();
      if (!literalArgs(args)) return null;
      if (callee !== null && callee !== m[2]) return null;
      callee = m[2]!;
      calls.push({ label: m[1].slice(1, -1), args, claimed, side });
    } else {
      const input = unquote(m, 4);
      calls.push({ label: JSON.stringify(input), args: JSON.stringify(input), claimed, side });
      // A camelCase word on the claim's own line names the callable (`… comes back as true from isEmail`).
      for (const w of line
        .replace(/`[^`\n]*`|"[^"\n]*"|'[^'\n]*'/g, " ")
        .matchAll(/(?<![\w$.])([a-z][a-z0-9]*[A-Z][\w$]*)(?![\w$])/g))
        if (!lineNames.includes(w[1]!)) lineNames.push(w[1]!);
    }
  }
  if (!calls.some((c) => c.side === "bad")) return null;
  return { calls, callee, lineNames };
}

/** One-per-line items (two or more), then "each … returns X": one call per item, each claimed to give X. */
function eachLines(lines: string[]): ProseCall[] | null {
  const inExpected = expectedSectionLines(lines);
  for (let i = 0; i < lines.length; i++) {
    if (inExpected[i]) continue;
    const items: string[] = [];
    let j = i;
    while (j < lines.length) {
      const t = lines[j]!.trim();
      const q = new RegExp(`^(?:${QUOTED_SRC})$`).exec(t);
      if (q) items.push(unquote(q, 1));
      else if (/^[^\s"'`#>*|<]{1,40}$/.test(t) && !/[.:;!?]$/.test(t)) items.push(t);
      else break;
      j++;
    }
    if (items.length < 2 || (i > 0 && lines[i - 1]!.trim() !== "")) {
      i = Math.max(i, j - 1);
      continue;
    }
    // The next non-empty line says what each of them gives.
    let k = j;
    while (k < lines.length && lines[k]!.trim() === "") k++;
    const said = lines[k] ?? "";
    const m = new RegExp(`\\b(?:each|every\\s+one|all)\\b([^.]{0,80}?)\\b${OUTCOME_VERB}`, "i").exec(said);
    if (!m || EXPECTED_SIDE.test(m[1]!)) return null;
    const claimed = claimAfter(said.slice(m.index + m[0].length));
    if (claimed === null) return null;
    return items.map((it) => ({ label: JSON.stringify(it), args: JSON.stringify(it), claimed, side: "bad" }));
  }
  return null;
}

/** The label of a line giving the input (`string > \`john\``, `Input: "x"`). */
const INPUT_LABEL = /^(?:input|string|str|text|value|source|word|title|name|sentence)$/i;
/** The label of a line saying what happened (`Actual: "x"`, `Got: …`, `Actual result: …`): the bad side alone. */
const HAPPENED_LABEL =
  /^(?:(?:actual|current|observed)(?:\s+(?:result|output|value))?|got|returned|received)$/i;
/**
 * The label of a line giving a result without saying whether it happened (`result > \`John\``, `Output: "x"`): the
 * wanted result as often (a feature request's example), so the bad side only beside an Expected line.
 */
const RESULT_LABEL = /^(?:result|output|returns|gives)$/i;
/** The label of a line giving the wanted result (`expected (or hoped for) > …`, `Desired output: …`). */
const EXPECTED_LABEL = /^(?:expected|expect|wanted|desired|hoped\s+for|should\s+be)\b/i;
/** A label, a separator (`>`, `:`, `=`, `->`, `=>`, `→`), and one quoted value filling the rest of the line. */
const LABELLED_LINE = new RegExp(
  `^\\s*(?:[-*+]\\s+)?(?:\\*\\*|__)?([A-Za-z][A-Za-z ]{0,30}?)(?:\\s*\\([^()\\n]{0,40}\\))?(?:\\*\\*|__)?\\s*(?:>|:|=|->|=>|→)\\s*(?:\\*\\*|__)?\\s*(?:${QUOTED_SRC})(?:\\*\\*|__)?\\s*$`,
);

/**
 * Labelled lines, one value each: an input line (`string > \`john O' connor\``, `Input: "x"`) and, below it, a
 * result line (`Actual: "y"`, or `result > \`John O Connor\`` beside an expected line); an expected line between them (`expected (or hoped
 * for) > …`) is the wanted side and is skipped. Exactly one input line and one result line, the input first, at
 * most six lines apart; the input must not read as code. Anything else (two inputs, a result without an input, a
 * result line in an Expected section) is no plan.
 */
function labelledLines(lines: string[]): ProseCall[] | null {
  const inExpected = expectedSectionLines(lines);
  const inputs: { at: number; value: string }[] = [];
  const results: { at: number; value: string }[] = [];
  const undecided: { at: number; value: string }[] = [];
  let expectedLine = false;
  for (const [i, line] of lines.entries()) {
    const m = LABELLED_LINE.exec(line);
    if (!m) continue;
    const label = m[1]!.trim();
    const value = unquote(m, 2);
    if (INPUT_LABEL.test(label)) inputs.push({ at: i, value });
    else if (EXPECTED_LABEL.test(label) || inExpected[i]) expectedLine = true;
    else if (HAPPENED_LABEL.test(label)) results.push({ at: i, value });
    else if (RESULT_LABEL.test(label)) undecided.push({ at: i, value });
  }
  // `Output:` / `Result:` is the bad side only where an Expected line gives the wanted one beside it.
  if (expectedLine) results.push(...undecided);
  if (inputs.length !== 1 || results.length !== 1) return null;
  const input = inputs[0]!;
  const result = results[0]!;
  if (result.at <= input.at || result.at - input.at > 6) return null;
  // Inline code that reads as code (`f(x)`, `a.b`) is a statement, not a string input.
  if (input.value.trim() === "" || /[()=;{}[\]]|^\s*[A-Za-z_$][\w$]*\s*\.[A-Za-z_$]/.test(input.value))
    return null;
  return [
    {
      label: JSON.stringify(input.value),
      args: JSON.stringify(input.value),
      claimed: result.value,
      side: "bad",
    },
  ];
}

/**
 * The call plan a report without runnable code states in prose, an `ask` when a callable is named but no input
 * and claim can be tied to it, or null when the rule does not apply.
 */
export function readProseCall(title: string, markdown: string, pkg?: string): ProseCallReading | null {
  const lines = proseLines(markdown);
  // The title is the report's heading line too; read it once.
  const body = lines[0]?.replace(/^#+\s*/, "").trim() === title.trim() ? lines.slice(1) : lines;
  const names = namedCallables(title, body);
  const paired = pairedLines(body);
  if (paired) {
    // A whole call written inline names its callee itself: used as written, whatever else the report names.
    if (paired.callee)
      return {
        kind: "plan",
        plan: {
          names: [paired.callee],
          calls: paired.calls,
          source: "calls written inline in the report's prose, each with the value it is said to give",
        },
      };
    return {
      kind: "plan",
      plan: {
        names: [...names, ...paired.lineNames.filter((n) => !names.includes(n))],
        calls: paired.calls,
        source: "quoted inputs in the report's prose, each with the value it is said to give",
      },
    };
  }
  const labelled = labelledLines(body);
  if (labelled)
    return {
      kind: "plan",
      plan: {
        names,
        calls: labelled,
        source: "an input and the result the report labels in its prose (`input > x`, `result > y`)",
      },
    };
  const each = eachLines(body);
  if (each)
    return {
      kind: "plan",
      plan: {
        names,
        calls: each,
        source: "one-per-line inputs in the report, and the value it says each of them gives",
      },
    };
  // Asked only for a name that reads as the package's API: a call form, or a member of the package's own name.
  // Asked only for a member of the package's own name (`Case.title` in a report on `case`): a name that can only
  // be the package's API, whose inputs the report does not give.
  const api = names.filter((n) => pkg !== undefined && n.includes(".") && sameProduct(n.split(".")[0]!, pkg));
  // A report that quotes something in its prose may give the input in a form not read here (a chained call,
  // `yup.string().email()` on "a@b.c"): its usual question stands.
  const quotes = body.some((l) => /"[^"\n]+"|'[^'\n]+'|“[^”\n]+”/.test(l.replace(/`[^`\n]*`/g, " ")));
  if (api.length === 1 && !quotes) {
    const name = api[0]!;
    return {
      kind: "ask",
      name,
      question: `The report names \`${name}\` but no input with the result it gives: which exact input (for example \`${name}(…)\` with its arguments) gives the wrong result, and what does it return?`,
      reason: `The report contains no code that can be run, and its prose names \`${name}\` without an input and the value it gives, so Retrace could not write the call itself.`,
    };
  }
  return null;
}
