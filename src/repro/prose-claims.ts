/**
 * Actual and expected values stated in sentences: "I get `5000` but expected `1000`", "returns X instead of Y",
 * "yet it gives me 3.9473684210526314", "the result is true", "it should be 0.67", "Expected `2`, but I get:".
 * A value is inline code, a quoted string, a number (with its `%` or a unit or magnitude suffix written onto it:
 * "I get 4.3%" is `4.3%`, "gives back 1000K" `1000K`, "takes 30ms" `30ms`) or a literal (true, null, None, NaN, ...).
 */
import { escapeRegExp } from "../core/regexp.ts";
import { formerNowSides } from "./former-now.ts";
import { leadLiteralClaims } from "./lead-literal.ts";

export interface ProseClaims {
  actual: string[];
  expected: string[];
}

const VALUE = String.raw`(?:\x60([^\x60\n]{1,200})\x60|"([^"\n]{1,200})"|'([^'\n]{1,200})'|(?<![\d:])(-?\d[\d_]*(?:\.\d+)?(?:e[-+]?\d+)?(?:%|(?:[kKMGTP]i?B|[kKMGTPB]|ms|px|r?em)(?![\w.]*\w))?)(?![\d_]*:\d)(?![\w.]*[A-Za-z])|\b(true|false|null|undefined|None|True|False|NaN|Infinity|Invalid Date)\b)`;
const ACTUAL_VERB = String.raw`(?:returns?(?:\s+back)?|returned(?:\s+back)?|gives?(?:\s+(?:me|back|us))?|gave(?:\s+(?:me|back|us))?|yields?|produces?|produced|prints?|printed|outputs?|logs?|logged|(?:I|we)\s+(?:get|got|see|saw|receive|received|obtain)|(?:get|got)|results?\s+(?:is|was|in)|evaluates?\s+to|(?:comes?|came)\s+(?:out|back)\s+(?:as|is|was|with)|shows?|displays?|received|(?:the\s+)?(?:output|return(?:ed)?\s+value|result)\s+(?:of\s+\x60[^\x60\n]{1,200}\x60\s+)?(?:is|was))`;
const EXPECTED_VERB = String.raw`(?:(?:do(?:es)?\s*n[o']?t|did\s*n[o']?t|never)\s+(?:get|see|receive|obtain)\s+(?:the\s+(?:promised|documented|expected|advertised)\s+)?|expected|expecting|expect(?:ed)?\s+(?:it\s+)?(?:to\s+(?:be|return|get|print|give|see)\s+)?|should\s+(?:be|return|give|print|output|get|show|equal|have\s+been)|ought\s+to\s+(?:be|return|give)|(?:the\s+)?(?:right|correct|expected|desired|intended|proper)\s+(?:answer|result|value|output|return\s+value)\s+(?:of\s+\x60[^\x60\n]{1,200}\x60\s+)?(?:is|would\s+be|should\s+be)|instead\s+of|rather\s+than|want(?:ed)?)`;

/** An unquoted object or array literal on one line, one level of nesting: `{ foo: 1n, bar: [1, 2] }`. */
const LITERAL = String.raw`(\{[^\n{}]{0,200}?(?:\{[^\n{}]{0,200}\}[^\n{}]{0,200})*\}|\[[^\n[\]]{0,200}?(?:\[[^\n[\]]{0,200}\][^\n[\]]{0,200})*\])`;

/**
 * A verb of making one thing into another, its input (inline, or a line of code of its own), then "into" and
 * the value: "turns `x` into `y`", "converts 0.999 to "1,00 €"".
 */
const TRANSFORM = String.raw`\b(?:turns?|turned|turning|converts?|converted|converting|transforms?|transformed)\b[^\n]{0,120}?(?:\n[^\n]{1,200}\n)?[^\n]{0,40}?\b(?:into|to)\s+${VALUE}`;
/** Words before such a verb that make its value the one wanted, not the one seen. */
const WANTED_BEFORE =
  /\b(?:should|expect\w*|ought|want\w*|would|wish\w*|hop(?:e|ed|ing)|need\w*|trying|try|how|like|supposed|intended|to|must|can|could)\s+(?:\w+\s+){0,3}$/i;

/**
 * A verb that ends a lead-in to a value on the next line ("what comes out is:", "it returns:", "and I get:").
 * Not a noun ("gives me incorrect output:" followed by the input string the sentence is about).
 */
const LEAD_VERB = String.raw`\b(is|was|are|were|be|returns?|returned|gives?(?:\s+(?:me|us|back))?|gave(?:\s+(?:me|us|back))?|prints?|printed|yields?|produces?|produced|get|got|see|saw|shows?|displays?)`;

/**
 * A lead of at most 80 characters ending in a colon, then a label of the value's own ending in a colon (words, no
 * quote or backtick), then one value closing the line: group 1 the lead, the value from group 2. The label is
 * required: a lead and a value alone ("The right result would be:" then a version line joined to it) say too little.
 */
const LABELLED_TAIL = new RegExp(
  `^[ \\t]*([^:\\n]{3,80}):[ \\t]*[^:\\n\x60'"]{1,40}:[ \\t]*${VALUE}[ \\t]*\\.?[ \\t]*$`,
  "i",
);
/** The lead says what was wanted: "I expected … to be", "it should be", "the correct value is". */
const TAIL_EXPECTED =
  /\b(?:expect\w*|should|ought|wants?|wanted|desired|correct|supposed|intended|would\s+like)\b/i;
/** The lead says what was seen, in the first person or of the run: "What I actually get is", "the output is". */
const TAIL_ACTUAL =
  /\b(?:(?:I|we)\s+(?:(?:actually|now|still)\s+)?(?:get|got|see|saw|receive|received|obtain)|(?:the\s+)?(?:output|result)\s+(?:is|was))\b/i;

/**
 * A question asking for a value: it opens with a modal (negated or not) and ends with a question mark, in one
 * clause (no comma, no "since" or "because" bringing in what happens).
 */
/**
 * A sentence led as a comparison with something else ("For comparison, lodash's `isEqual` … returns true", "By
 * contrast, `Array.from` gives …", "Compared to Chrome, …"): the value it states is the other implementation's, the
 * behaviour the reporter holds up as right, never what the reported code does.
 */
const COMPARISON_LEAD =
  /^[ \t>*_]*(?:(?:for|by|in)\s+comparison|by\s+contrast|in\s+contrast|compared\s+(?:to|with)|as\s+a\s+comparison)\b/i;
const WANTING_QUESTION =
  /^[ \t]*(?:(?:but|so|and|then)[ \t,]+)?(?:should(?:n['’]?t)?|would(?:n['’]?t)?|ought(?:n['’]?t)?|is(?:n['’]?t)?[ \t]+it[ \t]+supposed|shall)\b(?:(?!\b(?:since|because|while|whereas|although)\b)[^?\n,;])*\?[ \t]*$/i;

/** A verb in its bare form as a modal governs it ("return", "give", "be"), not what happens ("returns", "gave"). */
const BARE_VERB = /^(?:return|give|print|yield|produce|output|log|show|display|be|equal|evaluate\s+to)\b/i;
/** A sentence opening with a modal and ending with a question mark, whatever its clauses. */
const MODAL_QUESTION =
  /^[ \t]*(?:(?:but|so|and|then)[ \t,]+)?(?:should(?:n['’]?t)?|would(?:n['’]?t)?|ought(?:n['’]?t)?|shall)\b[^\n]*\?[ \t]*$/i;

/**
 * Words in a clause that make the value after its verb the documentation's or a past one ("the docs say it returns
 * `true`", "according to the README", "it used to return `1`"): never what the code gives the reporter (fx4, rv23).
 * The reporter's own saying ("I said it returns `2`") is not a document's.
 */
export const DOCUMENTED_OR_FORMER =
  /\b(?:docs?|documentation|documented|readme|according\s+to|used\s+to|previously|formerly|in\s+the\s+past)\b|(?<!\b(?:I|[Ww]e)\s+(?:\w+\s+)?)\b(?:says?|said|states?|stated|claims?|claimed|promises?|describes?)\b/i;

/** The clause of `before` that leads to the point after it: from the last comma, colon, or "but", "while" … */
export function clauseBefore(before: string): string {
  const sentence = before.split(/[.!?](?=\s)|\n/).pop()!;
  const cuts = [...sentence.matchAll(/[,;:]|\b(?:but|however|whereas|while|yet|although|though)\b/gi)];
  const last = cuts.at(-1);
  return last ? sentence.slice((last.index ?? 0) + last[0].length) : sentence;
}

function claimValue(m: RegExpExecArray, from: number): string | null {
  for (let i = from; i < from + 5; i++) if (m[i] !== undefined) return m[i]!.trim();
  return null;
}

/** Claims in one piece of prose (paragraph text with inline code kept in backticks). */
export function proseClaims(raw: string): ProseClaims {
  // Two apostrophes typed for a double quote ("This prints ''http:///a", where ...") are that quote.
  // A sentence ending in a colon whose value stands alone on the next line ("and what comes out is:" then
  // `foo&amp;bar`) is one sentence.
  const text = raw
    .replace(/(?<![\w'])''(?=[^'\s][^'\n]{0,200}")/g, '"')
    .replace(new RegExp(`${LEAD_VERB}:[ \\t]*\\n[ \\t]*(?=${VALUE}[ \\t]*(?:\\n|$))`, "gi"), "$1: ");
  const actual: string[] = [];
  const expected: string[] = [];
  // "Expected: "x"" / "Actual:   "y"" on lines of their own.
  const labelled = new RegExp(
    `^\\s*[*_]*(expected(?:\\s+(?:result|output|behaviou?r))?|expect|should\\s+be|wanted|actual(?:\\s+(?:result|output|behaviou?r))?|got|result|output|observed|received|current(?:\\s+behaviou?r)?|out(?:\\[\\d+\\])?|required|desired)[*_]*\\s*(?::|={2,3})[*_]*\\s*${VALUE}\\s*$`,
    "i",
  );
  // The same labels before an unquoted array or object (`result:  [[1, 2]]`), as pasted from a console; the
  // label may be tied to its value by `===` the way a reporter writes an equality (`got === [ { a: 1 } ]`).
  const labelledLiteral =
    /^\s*[*_]*(expected(?:\s+(?:result|output))?|expect|actual(?:\s+(?:result|output))?|result|output|got|required|desired)[*_]*\s*(?::|={2,3})[*_]*\s*(\[[^\n]{0,200}\]|\{[^\n]{0,200}\})\s*$/i;
  const rest: string[] = [];
  for (const line of text.split("\n")) {
    const m = labelled.exec(line) ?? labelledLiteral.exec(line);
    const v = m ? claimValue(m, 2) : null;
    if (m && v) (/^(expect|should|wanted|required|desired)/i.test(m[1]!) ? expected : actual).push(v);
    else rest.push(line);
  }
  // "Why does the library turn `f(0.999)` into "1,00 €"?", the call on a line of its own between the verb and
  // "into": what the code is said to make of its input is the value seen. Not where the words want it ("I want
  // to turn …", "how can I convert …", "it should turn …"): that is the value asked for.
  // "Before it was `1`, now it is `2`", "Previously `1`; now `2`", "It used to return `1`, now it returns `2`": the
  // now side is what happens, the before side the good behaviour (never the claim); both are read here and kept
  // from the readers below, which would take every value after a verb as seen.
  let joined = rest.join("\n");
  const sideValue = new RegExp(
    `(?:^|\\b(?:${ACTUAL_VERB}|is|was|are|were|be|been|becomes?|became|raises?|raised|throws?|threw|equals?)\\b|\\b(?:before|previously|formerly|earlier|originally|now|nowadays|currently)\\b[ \\t]*[,:]?)\\s*:?\\s*(?:the\\s+(?:value|string|number|result|error|exception)\\s+)?${VALUE}`,
    "gi",
  );
  for (const side of formerNowSides(joined)) {
    for (const [[s, e], into] of [
      [side.former, expected],
      [side.now, actual],
    ] as const)
      for (const m of joined.slice(s, e).matchAll(sideValue)) {
        const v = claimValue(m as RegExpExecArray, 1);
        // "… and now `f(1)` returns `2`": a call right after the time word is the code, its value comes later.
        const afterTimeWord =
          /^\s*(?:before|previously|formerly|earlier|originally|now|nowadays|currently)\b/i;
        if (v && afterTimeWord.test(m[0]) && /^[A-Za-z_$][\w$.]*\(.*\)$/.test(v)) continue;
        if (v) into.push(v);
      }
  }
  for (const side of formerNowSides(joined).reverse()) {
    const [s, e] = [side.former[0], side.now[1]];
    joined = `${joined.slice(0, s)}${joined.slice(s, e).replace(/[^\n]/g, " ")}${joined.slice(e)}`;
  }
  for (const m of joined.matchAll(new RegExp(`${TRANSFORM}`, "gi"))) {
    const start = m.index ?? 0;
    const lineStart = joined.lastIndexOf("\n", start) + 1;
    const before = joined.slice(Math.max(lineStart, start - 60), start);
    const value = claimValue(m as RegExpExecArray, 1);
    // What the reporter does ("I convert the date to `x`") is a step, not what the code makes of it.
    if (!value || /\b(?:I|we|you)\s+(?:\w+\s+)?$/i.test(before)) continue;
    if (WANTED_BEFORE.test(before)) expected.push(value);
    else actual.push(value);
  }
  for (const sentence of joined.split(/(?<=[.!?])\s+(?=[A-Z])|\n+/)) {
    // "Shouldn't `parse('1')` return `1`?", "Wouldn't it be better if it returned `1`?": a question asking for a
    // value states what is wanted, never what happens; the value after its verb is the expected one.
    if (COMPARISON_LEAD.test(sentence)) {
      for (const m of sentence.matchAll(new RegExp(`\\b${ACTUAL_VERB}\\s*:?\\s*${VALUE}`, "gi"))) {
        const v = claimValue(m as RegExpExecArray, 1);
        if (v) expected.push(v);
      }
      continue;
    }
    if (WANTING_QUESTION.test(sentence)) {
      // Only the value that ends the question, after the modal's own verb in its bare form: "Shouldn't a helper
      // that returns `false` hide it?" asks for no value, and "Would anyone know why `f()` returns `2`?" or
      // "Should `f()` really return `2`?" says what happens, read as any other sentence below.
      const end = new RegExp(`\\b${ACTUAL_VERB}\\s*:?\\s*${VALUE}\\s*\\?\\s*$`, "i").exec(sentence);
      if (!end) continue;
      const v = claimValue(end, 1);
      if (v && BARE_VERB.test(end[0]) && !/\breally\b/i.test(sentence)) {
        expected.push(v);
        continue;
      }
    }
    // "this prints { foo: 1n }, where it ought to print { foo: 1 }": an unquoted object or array literal after a
    // verb of output, then a clause wanting another one. Both sides in one go; a literal alone after a verb is too
    // loose to read (prose braces, "[citation]").
    const literalPair = new RegExp(
      `\\b${ACTUAL_VERB}\\s*:?\\s*${LITERAL}\\s*,?\\s*(?:where|whereas|while|but|when)\\s+(?:(?:it|this|that|they)\\s+)?(?:should|ought\\s+to|is\\s+supposed\\s+to|was\\s+supposed\\s+to)\\s+(?:be|print|return|give|output|log|show)\\s*:?\\s*${LITERAL}`,
      "i",
    ).exec(sentence);
    if (literalPair && !COMPARISON_LEAD.test(sentence)) {
      actual.push(literalPair[1]!.trim());
      expected.push(literalPair[2]!.trim());
      continue;
    }
    // "X instead of Y" / "X rather than Y": both sides in one go.
    const insteadRe = new RegExp(
      `${VALUE}[^\\n]{0,40}?\\b(?:instead\\s+of|rather\\s+than)\\s+${VALUE}`,
      "gi",
    );
    let consumed = false;
    for (const m of sentence.matchAll(insteadRe)) {
      // "`lib.ok(1)` returns `false` instead of `true`": the value next to "instead of" is the actual one, not
      // the call quoted before it as the sentence's subject.
      const cut = /\b(?:instead\s+of|rather\s+than)\s/i.exec(m[0])?.index ?? m[0].length;
      const values = [...m[0].slice(0, cut).matchAll(new RegExp(VALUE, "gi"))];
      const last = values[values.length - 1];
      const a = claimValue((last ?? m) as RegExpExecArray, 1);
      const e = claimValue(m as RegExpExecArray, 6);
      if (a && e) {
        actual.push(a);
        expected.push(e);
        consumed = true;
      }
    }
    if (consumed) continue;
    const expRe = new RegExp(
      `\\b${EXPECTED_VERB}\\s*:?\\s*(?:the\\s+(?:value|string|number|result)\\s+)?${VALUE}`,
      "gi",
    );
    const expSpans: [number, number][] = [];
    for (const m of sentence.matchAll(expRe)) {
      const v = claimValue(m as RegExpExecArray, 1);
      if (v) {
        expected.push(v);
        expSpans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
      }
    }
    const actRe = new RegExp(
      `\\b${ACTUAL_VERB}\\s*:?\\s*(?:the\\s+(?:value|string|number|result)\\s+)?${VALUE}`,
      "gi",
    );
    let found = false;
    for (const m of sentence.matchAll(actRe)) {
      const start = m.index ?? 0;
      if (expSpans.some(([s, e]) => start >= s && start < e)) continue;
      // "should return X" was taken as expected above; "it returns X" after "should" in the same clause too.
      const before = sentence.slice(Math.max(0, start - 30), start);
      // "Shouldn't `f()` return `1`, not `2`?": the modal's bare verb in a question states what is wanted.
      if (MODAL_QUESTION.test(sentence) && BARE_VERB.test(m[0])) continue;
      if (
        /\b(should|expect\w*|ought|want\w*|would|desired|intended|correct|right|proper|hop(?:e|ed|ing)|wish(?:ed)?|like|need(?:ed)?|supposed)\s+(\w+\s+)?$/i.test(
          before,
        )
      )
        continue;
      // "The documentation says it returns `true`", "it used to give `1`": not what the code gives here.
      if (DOCUMENTED_OR_FORMER.test(clauseBefore(sentence.slice(0, start)))) continue;
      const v = claimValue(m as RegExpExecArray, 1);
      if (v) {
        actual.push(v);
        found = true;
      }
    }
    if (found || expSpans.length > 0) continue;
    // "What I actually get is: Standard Deviation, σ: 5.23", "I expected the deviation to be: Mean: 4.89": a lead
    // naming its side, a colon, a short label of the value's own and the value, ending the sentence.
    const tail = LABELLED_TAIL.exec(sentence);
    const v = tail ? claimValue(tail, 2) : null;
    if (tail && v) {
      if (TAIL_EXPECTED.test(tail[1]!)) expected.push(v);
      else if (TAIL_ACTUAL.test(tail[1]!)) actual.push(v);
    }
  }
  // "I expected to get [1, 2]" / "What I actually got was [2, 1]": an unquoted literal after a lead naming its side.
  const led = leadLiteralClaims(joined);
  actual.push(...led.actual);
  expected.push(...led.expected);
  return { actual: [...new Set(actual)], expected: [...new Set(expected)] };
}

/**
 * Values listed one per line under an Actual or Expected heading, each named: `d1 is "4-53-2021"`, `total = 7`,
 * `result: true`. Only whole lines of that shape count (a sentence with "is" in it is not a value).
 */
export function listedValues(text: string): string[] {
  const line = new RegExp(
    `^\\s*(?:[-*+]\\s+)?[A-Za-z_$][\\w$.]{0,60}(?:\\(\\))?\\s*(?:\\bis\\b|\\bwas\\b|\\bequals\\b|==?|:)\\s*${VALUE}\\s*(?:[.,;]\\s*)?$`,
  );
  const out: string[] = [];
  for (const l of text.split("\n").slice(0, 200)) {
    const m = line.exec(l);
    const v = m ? claimValue(m, 1) : null;
    if (v) out.push(v);
  }
  return out;
}

/** One value the report ties to a version in prose: "with 2.0.4 the result was '0'", "`NaN` in 2.0.6". */
export interface VersionedClaim {
  label: string;
  value: string;
}

const LABEL = String.raw`(?:python\s*|node(?:\.js)?\s*|v)?(\d+\.\d+(?:\.\d+)?(?:[-.]?(?:alpha|beta|rc|a|b)\d*)?)(?![\w.]*\d)`;

/** Values the prose states per version, at most one per version, in the order the report gives them. */
export function versionedClaims(text: string): VersionedClaim[] {
  const found: VersionedClaim[] = [];
  const add = (label: string | null, value: string | null) => {
    if (!label || !value || value === label) return;
    if (found.some((c) => c.label === label)) return;
    found.push({ label, value });
  };
  for (const sentence of text.split(/\n+|(?<=[.!?])\s+(?=[A-Z])/)) {
    // "gives 'NaN' in 2.0.6, gave '0' in 2.0.4": a value followed by its version.
    const after = new RegExp(String.raw`${VALUE}\s+(?:on|in|with|under|since)\s+${LABEL}`, "gi");
    for (const m of sentence.matchAll(after)) add(m[6] ?? null, claimValue(m as RegExpExecArray, 1));
    // "on Python 3.10 this prints `GET`", "With 2.0.4 the result was '0'", "on Python 3.11 `Method.GET`"
    // (a value followed by a version of its own belongs to that one).
    const before = new RegExp(
      String.raw`\b(?:on|in|with|under|using)\s+${LABEL}[,:]?\s+(?:[^\x60'".;\n]{0,50}?\b(?:${ACTUAL_VERB}|is|was|becomes|became|are|were)\s*:?\s*)?${VALUE}(?!\s+(?:on|in|with|under|since)\s+${LABEL})`,
      "gi",
    );
    for (const m of sentence.matchAll(before)) add(m[1] ?? null, claimValue(m as RegExpExecArray, 2));
  }
  return found;
}

const GOOD_AFTER =
  /^[\s)]*(?:\(?\s*(?:which|that)\s+(?:looks|seems|is|was)\s+(?:right|correct|fine|ok|okay|expected)|\(?\s*(?:correct|right|as expected|expected)\b)/i;
const BAD_AFTER = /^[\s)]*(?:\(?\s*(?:which|that)\s+(?:looks|seems|is)\s+)?(?:wrong|incorrect|broken|bad)\b/i;

/**
 * Two versions' values stated in prose: which one is the reported (bad) behaviour. Decided by the words next
 * to a value ("(which looks right)"), the title naming one version, or a regression (the later version is the
 * broken one); null when the prose does not tie two different values to two versions, or does not say.
 */
export function proseTwoVersions(
  title: string,
  text: string,
): { bad: VersionedClaim; good: VersionedClaim; why: string } | null {
  const claims = versionedClaims(text);
  if (claims.length !== 2 || claims[0]!.value === claims[1]!.value) return null;
  const [a, b] = claims as [VersionedClaim, VersionedClaim];
  // The words right after a value as the report writes it (quoted, else as a whole word).
  const after = (c: VersionedClaim) => {
    const v = escapeRegExp(c.value);
    const m =
      new RegExp(`([\`'"])${v}\\1`).exec(text) ?? new RegExp(`(?<![\\w.])${v}(?![\\w]|\\.\\d)`).exec(text);
    return m ? text.slice(m.index + m[0].length, m.index + m[0].length + 60) : "";
  };
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    if (GOOD_AFTER.test(after(x)))
      return { bad: y, good: x, why: `the report calls ${x.label}'s result right` };
    if (BAD_AFTER.test(after(x)))
      return { bad: x, good: y, why: `the report calls ${x.label}'s result wrong` };
  }
  const inTitle = claims.filter((c) =>
    new RegExp(`(?<![\\w.])${c.label.replace(/\./g, "\\.")}(?![\\w]|\\.\\d)`).test(title),
  );
  if (inTitle.length === 1) {
    const bad = inTitle[0]!;
    return { bad, good: bad === a ? b : a, why: `the title names ${bad.label}` };
  }
  if (/\bregress\w*|\bsince upgrading|\bafter upgrading|\bno longer\b/i.test(`${title}\n${text}`)) {
    const num = (l: string) => l.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
    const cmp = (x: number[], y: number[]) => {
      for (let i = 0; i < Math.max(x.length, y.length); i++)
        if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    };
    const order = cmp(num(a.label), num(b.label));
    if (order !== 0) {
      const [bad, good] = order > 0 ? [a, b] : [b, a];
      return { bad, good, why: `a regression: the later version, ${bad.label}, is the broken one` };
    }
  }
  return null;
}

/** A line the program prints with a label and one value (`print(f"exit code: {code}")`): the text before the value. */
export interface PrintedLabel {
  /** The label's words, lower-cased (`proc exit code`). */
  label: string;
  /** What the line prints before the value, exactly (`proc exit code: `). */
  prefix: string;
}

/**
 * Lines the code prints as a label and one value at the end: Python `print(f"label: {x}")` / `print("label:", x)`,
 * JavaScript `console.log(\`label: ${x}\`)` / `console.log("label:", x)`. Each pattern is one bounded run.
 */
export function printedLabels(code: string): PrintedLabel[] {
  const found: PrintedLabel[] = [];
  const add = (written: string, sep: string, spaced: boolean) => {
    const words = written.trim().toLowerCase().replace(/\s+/g, " ");
    const prefix = `${written}${sep}${spaced ? " " : ""}`;
    if (words && !found.some((f) => f.prefix === prefix)) found.push({ label: words, prefix });
  };
  // The label's class holds neither `:` nor `=`, so each match is one run to the separator (bounded).
  const patterns: [RegExp, "f" | "js" | "args"][] = [
    // print(f"label: {x}") / console.log(`label: ${x}`): the value is the template's only and last part.
    [/\bprint\(\s*f(["'])([A-Za-z][A-Za-z' _-]{0,60})([:=])( ?)\{[^{}"'\n]{1,100}\}\1\s*\)/g, "f"],
    [/\bconsole\.log\(\s*`([A-Za-z][A-Za-z' _-]{0,60})([:=])( ?)\$\{[^{}`\n]{1,100}\}`\s*\)/g, "js"],
    // print("label:", x) / console.log("label:", x): the runtime puts a space between the two.
    [/\b(?:print|console\.log)\(\s*(["'])([A-Za-z][A-Za-z _-]{0,60})([:=])\1\s*,\s*[^,\n]{1,100}\)/g, "args"],
  ];
  for (const [re, form] of patterns)
    for (const m of code.matchAll(re)) {
      if (form === "js") add(m[1]!, m[2]!, m[3] === " ");
      else add(m[2]!, m[3]!, form === "args" || m[4] === " ");
    }
  return found.slice(0, 20);
}

/** The sentence holding text[at, at+length): from the last `.`, `!`, `?` or line break before it to the next after it. */
function sentenceAround(text: string, at: number, length: number): string {
  // A sentence ends at `!`, `?`, a line break, or a `.` before whitespace (`1.2` and `p.exitcode` do not end one).
  const ends = (i: number) => {
    const c = text.charAt(i);
    return c === "!" || c === "?" || c === "\n" || (c === "." && /\s/.test(text.charAt(i + 1) || " "));
  };
  let start = at;
  while (start > 0 && start > at - 300 && !ends(start - 1)) start--;
  let end = at + length;
  while (end < text.length && end < at + length + 300 && !ends(end)) end++;
  return text.slice(start, end);
}

function sideOfComparison(sentence: string): boolean {
  return (
    /(?<![\w.])v?\d+\.\d+(?:\.\d+)?\b/.test(sentence) ||
    /\b(?:used\s+to|before|previously|earlier|formerly|correctly|works?|fine|as\s+expected|older|newer)\b/i.test(
      sentence,
    )
  );
}

/**
 * A value the prose states for a quantity the program itself prints with a label: "the child's exit code comes out
 * as 1 instead of 0" beside `print(f"proc exit code: {p.exitcode}")`. The claim is the printed line with the
 * reported value (`proc exit code: 1`), the expectation the same line with the value after "instead of". The
 * label's last two words (its only word, when it has one of four letters or more) must stand right before the
 * value, at most a verb between; a value the sentence says it should have is never the claim.
 */
export function labelledValueClaim(
  text: string,
  code: string,
): { actual: string; expected: string | null; label: string } | null {
  for (const p of printedLabels(code)) {
    const words = p.label.split(" ").filter(Boolean);
    const key = words.slice(-2);
    if (key.length === 1 && key[0]!.length < 4) continue;
    const phrase = key.map((w) => escapeRegExp(w)).join("[ \\t]{1,3}");
    const re = new RegExp(
      `\\b${phrase}(?:[ \\t]{1,3}(?:is|was|comes[ \\t]out[ \\t]as|came[ \\t]out[ \\t]as|ends[ \\t]up[ \\t]as|becomes|became|equals|of))?[ \\t]{0,3}:?[ \\t]{0,3}${VALUE}(?:[ \\t]{1,3}(?:instead[ \\t]of|rather[ \\t]than)[ \\t]{1,3}${VALUE})?`,
      "gi",
    );
    let said: string | null = null;
    let instead: string | null = null;
    for (const m of text.matchAll(re)) {
      const before = text.slice(Math.max(0, (m.index ?? 0) - 40), m.index ?? 0);
      if (/\b(?:should|expect\w*|would|must|want\w*|supposed|ought)\b[^.!?\n]*$/i.test(before)) continue;
      // A value tied to a version or called the good one ("on 1.2 the exit code is 0", "used to be", "works") is
      // a side of a comparison, not what the program is claimed to print here.
      if (sideOfComparison(sentenceAround(text, m.index ?? 0, m[0].length))) continue;
      const actual = claimValue(m as RegExpExecArray, 1);
      if (!actual) continue;
      // Two different values stated for the one line: the words do not say which is printed.
      if (said !== null && said !== actual) return null;
      said = actual;
      instead ??= claimValue(m as RegExpExecArray, 6);
    }
    if (said !== null)
      return {
        actual: `${p.prefix}${said}`,
        expected: instead !== null ? `${p.prefix}${instead}` : null,
        label: p.label,
      };
  }
  return null;
}

/**
 * A call written with a placeholder for its argument and the result the sentence says it gives:
 * "Calling **semver.coerce(<string>)** gives back **null** when …" → `semver.coerce`, `null`. The placeholder is
 * an angle-bracketed word as typed in the markdown (`<string>`, `<input value>`); emphasis around the call or the
 * value is dropped. Null when the sentence states no value.
 */
export function templateCall(raw: string): { callee: string; result: string } | null {
  const text = raw.replace(/\*{1,3}|__/g, "");
  const m =
    /(?<![\w$.])([A-Za-z_$][\w$]{0,60}(?:\.[A-Za-z_$][\w$]{0,60}){0,6})\([ \t]{0,2}<[A-Za-z][\w -]{0,30}>[ \t]{0,2}\)/.exec(
      text,
    );
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 200);
  const said = new RegExp(
    String.raw`^[^.!?\n]{0,60}?\b(?:gives?(?:[ \t]back)?|returns?|yields?|evaluates[ \t]to|results?[ \t]in|outputs?|prints?)[ \t]{1,3}${VALUE}`,
    "i",
  ).exec(rest);
  if (!said) return null;
  const before = rest.slice(0, said.index + said[0].length);
  if (/\b(?:should|expect\w*|ought|want\w*|supposed)\b/i.test(before)) return null;
  const result = claimValue(said, 1);
  return result ? { callee: m[1]!, result } : null;
}

/**
 * The items of a markdown list when every one is a single literal (`'0.02'`, `"x"`, `42`, or inline code holding
 * one): the inputs a report lists for a call it writes with a placeholder. Null when any item is something else.
 */
export function literalItems(raw: string): string[] | null {
  const items: string[] = [];
  for (const line of raw.split("\n").slice(0, 100)) {
    const t = line.trim();
    if (t === "") continue;
    const item = /^(?:[-*+]|\d{1,3}[.)])[ \t]+(\S[^\n]*)$/.exec(t)?.[1]?.trim();
    if (item === undefined) return null;
    const inner = /^`([^`\n]{1,200})`$/.exec(item)?.[1]?.trim() ?? item;
    if (!/^(?:'[^'\\\n]{0,100}'|"[^"\\\n]{0,100}"|-?\d{1,30}(?:\.\d{1,30})?)$/.test(inner)) return null;
    items.push(inner);
  }
  return items.length > 0 ? items : null;
}
