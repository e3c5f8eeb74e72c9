/**
 * Outputs and errors a report states in comments next to its code — `console.log(x) // 1`, `f(); // => 'a'`,
 * `x  # prints 3`, `// output: "23:59:59"` on the line after, `# raises ValueError`, `// Error: Invalid time`,
 * `// expected 1` / `// received 2`, and `expr ==> value` in unfenced code. Each annotation is one check:
 * the value the line shows when the snippet runs. Expression lines are rewritten to echo their value (the
 * way a REPL would), so the run prints what the comment claims, in order.
 */
import { claimAbove } from "./claim-above.ts";
import { scanCode } from "./code-scan.ts";
import { labelLineSide } from "./label-lines.ts";
import { mergeVersionHeaded } from "./version-headed.ts";

export type CheckRole =
  /** What the reporter saw (the reported behaviour). */
  | "actual"
  /** What the reporter expected instead ("// expected 1", "# should be 2"). */
  | "expected";

export interface Check {
  /** 1-based line in the block. */
  line: number;
  /** The code the annotation belongs to (trimmed). */
  code: string;
  role: CheckRole;
  /** The value shown: printed text, or for `kind: "error"` the error line ("RangeError: Invalid time value"). */
  kind: "output" | "error";
  value: string;
  /** The reporter marked this line as the wrong one ("BUGGY", "<- wrong"). */
  flagged: boolean;
  /**
   * One value per runtime or version, when the comment gives several (`# CPython: None   PyPy: ''`,
   * `// 1e+21 in Brython, 1000000000000000000000 in Python`, `# output in python 3.10:` / `# <F.C|B: 6>`):
   * which is the reported one is decided from the report's words (`reported-behaviour.ts`).
   */
  sides?: SideValue[];
  /**
   * The value comes from a block the report's words call the right behaviour ("I'd expect a message closer to
   * this one:"): what the reporter wants, shown on code of its own, which may be another call than the reported one.
   */
  control?: true;
}

export interface SideValue {
  /** How the comment names the runtime or version: "CPython", "PyPy", "3.10", "3.11 onwards". */
  label: string;
  value: string;
}

/** A runtime, an implementation or a version, as comments name them. */
const SIDE_LABEL = String.raw`(?:C?Python|PyPy\d*|Brython|Jython|IronPython|MicroPython|GraalPy|Pyodide|Skulpt|Node(?:\.js|JS)?|Deno|Bun|(?:the\s+)?browser|Chrome|Firefox|Safari|(?:python|py|node|v)?\s?\d+\.\d+(?:\.\d+)?(?:\+|\s+(?:onwards|and later|and up|and above))?)`;
const LABEL_FIRST = new RegExp(String.raw`^(${SIDE_LABEL})\s*:\s*(\S.*)$`, "i");
const LABEL_AFTER = new RegExp(String.raw`^(\S.*?)\s+(?:in|on|with|under|for)\s+(${SIDE_LABEL})$`, "i");

/**
 * Values a comment gives per runtime or version: `CPython: None        PyPy: <re.Match …>` (pieces apart by two
 * spaces or more), `10000000000000000 in Brython, 9999999999999999 in Python`. Null unless two or more pieces,
 * each with its own label and different values; a parenthesised remark after them is left out.
 */
export function sideValues(comment: string): SideValue[] | null {
  const t = comment.trim();
  for (const [split, re, label, value] of [
    [/\s{2,}/, LABEL_FIRST, 1, 2],
    [/\s*[,;]\s+/, LABEL_AFTER, 2, 1],
  ] as const) {
    const pieces = t.split(split).filter((p) => !/^\(.*\)$/.test(p));
    if (pieces.length < 2) continue;
    const sides: SideValue[] = [];
    for (const p of pieces) {
      const m = re.exec(p.trim());
      if (!m) break;
      sides.push({ label: m[label]!.trim(), value: m[value]!.trim().replace(/^(['"])(.*)\1$/, "$2") });
    }
    if (sides.length !== pieces.length) continue;
    if (new Set(sides.map((x) => x.label.toLowerCase())).size !== sides.length) continue;
    if (new Set(sides.map((x) => x.value)).size < 2) continue;
    return sides;
  }
  return null;
}

/** `# output in python 3.10:` on a line of its own: the comment lines under it give that version's value. */
const SIDE_HEADER = new RegExp(
  String.raw`^\s*(?:(?:the\s+)?(?:output|result|prints?|printed|returns?|gives?|shows?)\s+)?(?:in|on|with|under|for)\s+(${SIDE_LABEL})\s*:?\s*$`,
  "i",
);

export interface Annotated {
  /** The code to run: annotated expression lines echo their value. */
  code: string;
  checks: Check[];
  /** True when an echo helper (`_echo`) is used and must be defined. */
  usesEcho: boolean;
}

export type Flavour = "python" | "js";

const EXPECTED_WORDS =
  /^(?:expected|expect(?:ing|ed)?|should(?:\s+(?:be|return|print|give|output|log))?|want(?:ed)?|correct(?:\s+is)?|desired|intended|right(?:\s+answer)?(?:\s+is)?|must\s+be)\b\s*:?\s*/i;
// "we are getting 'in.gov'", "I see 5000", a REPL's `> 5000` pasted into a comment: first-person or echoed, only
// before a value (a quote, a number, a bracket, a literal), so "we get here after the loop" states nothing.
const ACTUAL_WORDS =
  /^(?:(?:(?:(?:I|we)(?:\s+am|\s+are|'m|'re)?\s+)(?:getting|get|got|see|saw)(?=\s*:?\s*(?:['"`[{(\d-]|(?:true|false|null|undefined|None|NaN)\b))|>(?=\s+(?:['"`[{(\d-]|(?:true|false|null|undefined|None|NaN)\b))|actual(?:ly)?|got|gets|but\s+got|instead|received|recieved|(?:(?:will|still|currently|now|always)\s+)?(?:returns?|prints?|gives?|outputs?|logs?|shows?|displays?|yields?|produces?)(?=\s|:|$)|returns?|returned|prints?|printed|gives?|gave|produces?|produced|yields?|yielded|outputs?|logs?|logged|results?(?:\s+is|\s+in)?|resultados?|r[eé]sultats?|ergebnis|risultato|salida|sa[ií]da|shows?|displays?|evaluates?\s+to|is)\b|(?:输出|结果|結果|返回|打印|得到|出力)(?:为|是|為)?(?=[\s:：]|$)：?|=+>|-+>|→|⇒|=(?!=))\s*:?\s*/i;
const ERROR_WORDS =
  /^(?:throws?|raises?|raised|threw|errors?(?:\s+with)?|fails?\s+with|crash(?:es)?\s+with)\b\s*:?\s*/i;
const FLAG_WORDS =
  /\s*(?:<-+|←|!+|\(|\[)?\s*(?:buggy|bug|wrong|incorrect|broken|not ok|unexpected|wtf|why\??)\b\s*[)\]!?.]*\s*$/i;
const ERROR_VALUE =
  /^(?:Uncaught\s+)?((?:[A-Za-z_][\w.]*)?(?:Error|Exception|Warning|Interrupt)|Error)\b(?:\s\[[A-Z][A-Z0-9_]+\])?(?::\s*(.*))?$/;
/** A status mark in front of an annotation: a cross marks the line that goes wrong, a tick one that works. */
const CROSS_MARK = /^(?:❌|✗|✘|✖️?|❎|👎|⛔️?)\s*/u;
const TICK_MARK = /^(?:✔️?|✅|✓|☑️?|👍)\s*/u;

const REPR_VALUE =
  /^(?:[A-Z]\w*|[a-z_]\w*(?:\.[A-Za-z_]\w*)+)\((?:\s*(?:[a-z_]\w*=)?(?:'[^'\n]*'|"[^"\n]*"|-?\d[\w.+-]*|True|False|None)\s*(?:,\s*(?:[a-z_]\w*=)?(?:'[^'\n]*'|"[^"\n]*"|-?\d[\w.+-]*|True|False|None)\s*)*)?\)$/;
/** A remark after a value saying that line behaves as it should (`# Decimal('0.1')  correct`): not the claim. */
const WORKS_WORDS =
  /\s*(?:<-+|←|\(|\[)?\s*(?:correct|ok|okay|fine|as expected|works|good|right)\b\s*[)\]!.]*\s*$/i;
/** A value, then a remark after a dash or a semicolon (`[1, 6]  -- WRONG, 3 is lost`, `3; expected 4`). */
const TRAILING_REMARK = /^(\S.*?)(?:\s+(?:--+|—|–)|\s*;)\s+(\S.*)$/;
/** Words by which such a remark calls the value wrong or names the one wanted. */
const VERDICT_REMARK =
  /\b(?:wrong|incorrect|bug(?:gy)?|broken|lost|missing|dropped|should|(?<!\bas\s+)expected(?=\s*:|\s+[^\s,.;!)])|expecting|not\s+ok)\b/i;
/** Words by which such a remark calls the value right (`3 -- correct, as expected`, `true -- works on Chrome`). */
const GOOD_REMARK =
  /\b(?:as\s+expected|(?<!\bnot\s+)correct(?:ly)?|works|working|fine|(?<!\bnot\s+)ok(?:ay)?)\b/i;
/** Words that call the value wrong whatever else the remark says (`3 -- WRONG, works on 3.10`). */
const WRONG_REMARK = /\b(?:wrong|incorrect|bug(?:gy)?|broken|not\s+ok)\b/i;
/** `false in 13.15.20 instead of true`, `1 instead of 2`: the value seen, then the one wanted. */
/** The rest of `expected: X, actual output: Y` once `expected` is read: the expected value, then the actual one. */
const BOTH_SIDES =
  /^(.+?)\s*[,;]\s*(?:but\s+)?(?:actual(?:ly)?|got|real)(?:\s+(?:output|result|value))?\s*:?\s+(.+?)[.;]?$/i;

const INSTEAD_OF =
  /^(.+?)\s+(?:(?:in|on|with|since|under)\s+(?:version\s+|v)?\d+(?:\.\d+)+\s+)?(?:,\s*)?instead\s+of\s+(.+?)[.;]?$/i;

/** `"-1.2" not correct should be "-1.3"`, `3 (wrong) but should be 4`: a value, a verdict on it, the value wanted. */
const SHOULD_BE =
  /^(.+?)\s*[,;.]?\s+(?:(?:but|and|which\s+is|it\s+is|is)\s+)?(?:\(?(?:not\s+correct|incorrect|wrong|not\s+ok|not\s+right)\)?\s*[,;.!]?\s+)?(?:(?:but|it|which)\s+)?should\s+(?:be|have\s+been|return|give|print)\s+(.+?)[.;!]?$/i;
/** `name(args) gives 'x'`, `obj.f(a) returns back 1`: a call, then in words the value it gave. */
const PROSE_RESULT =
  /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(.*\))\s*;?\s+(?:gives|gave|returns|returned|prints|printed|outputs|evaluates\s+to|results\s+in)\s+(?:back\s+)?(\S.*)$/;
/**
 * `sprintf("%f", -1) gives '-1' ...???`: a call, a verb of result and one value (a trailing `...OK` saying the
 * line works, `...???` that it does not), on a line of its own; null for a sentence that goes on after the value
 * (`f(1) returns '1h' for me, but …`).
 */
export function proseResult(line: string): { code: string; value: string } | null {
  const worded = PROSE_RESULT.exec(line.trim());
  if (!worded?.[1] || !worded[2] || !balanced(worded[1])) return null;
  const works = /\s*\.{2,}\s*(?:ok|okay|fine|good|correct)\s*[.!]*$/i;
  const fails = /\s*\.{2,}\s*(?:\?+|!+|wrong|bad|wtf)\s*[.!?]*$/i;
  const bare = worded[2].replace(works, "").replace(fails, "").trim();
  if (!looksLikeValue(bare)) return null;
  return { code: worded[1], value: worded[2].replace(works, " correct").replace(fails, " wrong") };
}

/** A value that reads like printed output, not a sentence: literals, quoted text, numbers, short tokens. */
export function looksLikeValue(v: string): boolean {
  const s = v.trim();
  if (s === "" || s.length > 160) return false;
  if (/^(['"`]).*\1$/.test(s)) return true;
  if (/^[[{(]/.test(s)) return true;
  if (/^-?\d[\d.,_eE+-]*%?$/.test(s)) return true;
  // A number and a short unit, as a formatter prints it: `1.5 kB`, `197.62 MB`, `12 ms`.
  if (/^-?\d[\d.,_]{0,30} ?[A-Za-zµ]{1,3}$/.test(s)) return true;
  if (/^(true|false|null|undefined|None|True|False|NaN|-?Infinity|nan|inf)$/.test(s)) return true;
  if (ERROR_VALUE.test(s)) return true;
  if (/^Invalid Date$/.test(s)) return true;
  // A constructor-style repr: `Decimal('5E-7')`, `datetime.date(2020, 1, 1)`, `Fraction(1, 3)` (a capital or a
  // dotted name, called with literals only), as Python's REPL and Node's inspect print objects.
  if (REPR_VALUE.test(s)) return true;
  // A single token (no spaces) made of value characters: `01.01.10000`, `2020-08-11T00:00:00Z`, `+0800`.
  return (
    !/\s/.test(s) &&
    /^[\w.:+\-/\\@#$%^&*=<>|~!?]+$/.test(s) &&
    !/^[A-Za-z]+$/.test(s.replace(/\W/g, "") + (/\d/.test(s) ? "" : "x"))
  );
}

/** Parse the text of a comment (without the `//` or `#`) as an annotation; null when it is just a comment. */
export function parseAnnotation(text: string): {
  role: CheckRole;
  kind: "output" | "error";
  value: string;
  flagged: boolean;
  sides?: SideValue[];
  /** The value the comment says should have been shown instead (`false instead of true`). */
  instead?: string;
} | null {
  let t = text
    .trim()
    .replace(/^\*+_*|_*\*+$/g, "")
    .trim();
  if (t === "") return null;
  const sides = sideValues(t);
  if (sides) return { role: "actual", kind: "output", value: t, flagged: false, sides };
  let flagged = false;
  // `// ❌ AssertionError: …` next to `// ✔️ Pass`: the mark says which line goes wrong; the rest is read as usual.
  const cross = CROSS_MARK.exec(t);
  if (cross) {
    flagged = true;
    t = t.slice(cross[0].length).trim();
  } else t = t.replace(TICK_MARK, "").trim();
  if (t === "") return null;
  const flag = FLAG_WORDS.exec(t);
  if (flag && flag.index > 0) {
    flagged = true;
    t = t.slice(0, flag.index).trim();
  } else {
    // `# Decimal('0.000005')  correct`: a line the reporter shows working beside the one that does not.
    const works = WORKS_WORDS.exec(t);
    const before = works ? t.slice(0, works.index).replace(/^(?:=+>|-+>|→)\s*/, "") : "";
    if (works && before !== "" && balanced(before) && looksLikeValue(before)) return null;
  }
  let role: CheckRole = "actual";
  let explicit = false;
  const exp = EXPECTED_WORDS.exec(t);
  if (exp && exp[0].length > 0) {
    role = "expected";
    explicit = true;
    t = t.slice(exp[0].length).trim();
    // `expected result { x: 1 }`: the noun names the side, the value follows it.
    const noun = /^(?:output|result|value)\s+(?=\S)/i.exec(t);
    if (noun && looksLikeValue(t.slice(noun[0].length))) t = t.slice(noun[0].length);
    // `expected output: 'XXXX', actual output: 'z'`: both sides in one comment; the actual one is the claim, and
    // a line whose two sides agree is one the reporter shows working, no claim. The expected side is not kept as
    // the value a run must not print: the same value is often what a working line beside it prints.
    const both = BOTH_SIDES.exec(t.replace(/^(?:output|result|value)\s*:?\s*/i, ""));
    if (both?.[1] && both[2] && looksLikeValue(both[1]) && looksLikeValue(both[2]))
      return both[1] === both[2]
        ? null
        : ERROR_VALUE.test(both[2])
          ? { role: "actual", kind: "error", value: both[2], flagged: true }
          : { role: "actual", kind: "output", value: both[2], flagged: true };
  } else {
    for (let i = 0; i < 3; i++) {
      const act = ACTUAL_WORDS.exec(t);
      if (!act || act[0].length === 0) break;
      explicit = true;
      t = t.slice(act[0].length).trim();
    }
  }
  // `// returns correctly [1, 2, 3]`: a line the reporter shows working, not the claim.
  if (role === "actual" && /^(?:correctly|properly|fine|as\s+expected|rightly)\b/i.test(t)) return null;
  // `// returns 3 functions (incorrectly?)`: a description the reporter is unsure of, not a value to compare.
  const unsure = /^(\S.*?)\s*\((?:in)?correct(?:ly)?\?+\)$/i.exec(t);
  if (unsure?.[1] && !looksLikeValue(unsure[1])) return null;
  // "Output: ..." style prefixes.
  const label = /^(?:output|result|returns?|value|prints?|logs?|stdout|console)\s*:\s*/i.exec(t);
  if (label) {
    explicit = true;
    t = t.slice(label[0].length).trim();
  }
  // `// unexpected: { … }`, `# wrong result: 3`: the value the reporter calls wrong.
  const wrongLabel = /^(?:unexpected|wrong|incorrect|bad|buggy)\s*(?:output|result)?\s*:\s*/i.exec(t);
  if (wrongLabel && role === "actual") {
    explicit = true;
    flagged = true;
    t = t.slice(wrongLabel[0].length).trim();
  }
  if (ERROR_VALUE.test(t.replace(/[;,]\s*$/, "")))
    return { role, kind: "error", value: t.replace(/[;,]\s*$/, ""), flagged };
  const err = ERROR_WORDS.exec(t);
  if (err && err[0].length > 0) {
    const rest = t.slice(err[0].length).trim().replace(/[.;]$/, "");
    const m = /^(?:an?\s+)?`?([A-Za-z_][\w.]*(?:Error|Exception|Warning)|Error)`?(?::\s*(.*))?$/.exec(rest);
    if (m?.[1]) return { role, kind: "error", value: m[2] ? `${m[1]}: ${m[2]}` : m[1], flagged };
    if (/^(?:an?\s+)?(?:error|exception)$/i.test(rest))
      return { role, kind: "error", value: "Error", flagged };
    return null;
  }
  t = t.replace(/[;,]\s*$/, "").trim();
  // `false in 13.15.20 instead of true`: the value seen (on the version named), and the one wanted.
  const instead = INSTEAD_OF.exec(t);
  if (instead?.[1] && instead[2] && looksLikeValue(instead[1]) && looksLikeValue(instead[2]))
    return ERROR_VALUE.test(instead[1])
      ? { role, kind: "error", value: instead[1], flagged: true }
      : { role, kind: "output", value: instead[1], flagged: true, instead: instead[2] };
  // `"-1.2" not correct should be "-1.3"`, `3, wrong, should be 4`: the value seen, then the one it should be.
  const should = SHOULD_BE.exec(t);
  if (should?.[1] && should[2] && looksLikeValue(should[1]) && looksLikeValue(should[2]))
    return ERROR_VALUE.test(should[1])
      ? { role, kind: "error", value: should[1], flagged: true }
      : { role, kind: "output", value: should[1], flagged: true, instead: should[2] };
  // `false (true is expected)`: a value, then the reporter's remark on it in parentheses.
  const remark = /^(\S.*?)\s+\(([^()]*[A-Za-z]{2,}[^()]*)\)$/.exec(t);
  if (remark?.[1] && looksLikeValue(remark[1]) && /\s/.test(remark[2]!.trim())) {
    t = remark[1];
    // "(true is expected)", "(should be 2)", "(wrong)": the remark marks this value as the wrong one.
    if (/\b(?:expected|expecting|should|wrong|incorrect|bug)\b/i.test(remark[2]!)) flagged = true;
  }
  // `[1, 6, 10]  -- WRONG, 3 is lost`, `3; expected 4`: a value, a dash or a semicolon, then the reporter's remark
  // calling it wrong or giving the value wanted: the value before the mark is the one seen, the remark is no output.
  let wantedValue: string | undefined;
  const trailing = TRAILING_REMARK.exec(t);
  if (
    trailing?.[1] &&
    trailing[2] &&
    looksLikeValue(trailing[1]) &&
    balanced(trailing[1]) &&
    VERDICT_REMARK.test(trailing[2]) &&
    (WRONG_REMARK.test(trailing[2]) || !GOOD_REMARK.test(trailing[2]))
  ) {
    t = trailing[1].trim();
    flagged = true;
    const wanted = /^(?:but\s+)?(?:expected|expecting|should\s+be)\s*:?\s*(.+?)[.!]?$/i.exec(
      trailing[2].trim(),
    );
    if (wanted?.[1] && looksLikeValue(wanted[1])) wantedValue = wanted[1];
  }
  if (ERROR_VALUE.test(t)) return { role, kind: "error", value: t, flagged };
  if (!looksLikeValue(t) && !(explicit && t.length > 0 && t.length <= 120 && !/\s\w+\s\w+\s\w+\s/.test(t)))
    return null;
  return wantedValue
    ? { role, kind: "output", value: t, flagged, instead: wantedValue }
    : { role, kind: "output", value: t, flagged };
}

/**
 * On a line that prints (`console.log(x); // May 15, 2017, 8:30 AM`), a trailing comment that is not prose is
 * what it printed, whatever it looks like.
 */
function printedValue(comment: string): ReturnType<typeof parseAnnotation> {
  const t = comment.trim();
  if (t === "" || t.length > 120 || /\?$/.test(t)) return null;
  if (/^(todo|fixme|note|see|this|here|because|why|also|then|now|and|but|should|must)\b/i.test(t))
    return null;
  if (/^[a-z]+\s+[a-z]+\s+[a-z]+\b/.test(t)) return null;
  return { role: "actual", kind: "output", value: t, flagged: false };
}

/** Splits a line into code and its trailing comment (outside strings); null comment when there is none. */
export function splitComment(line: string, flavour: Flavour): { code: string; comment: string | null } {
  const found = scanCode(line, (ch, i) => {
    if (flavour === "python" && ch === "#") return { code: line.slice(0, i), comment: line.slice(i + 1) };
    if (flavour === "js" && ch === "/" && line[i + 1] === "/")
      return { code: line.slice(0, i), comment: line.slice(i + 2) };
    if (flavour === "js" && ch === "/" && line[i + 1] === "*") {
      const end = line.indexOf("*/", i + 2);
      if (end > 0 && line.slice(end + 2).trim() === "")
        return { code: line.slice(0, i), comment: line.slice(i + 2, end) };
    }
    return undefined;
  }).stopped;
  if (found) {
    // `f("a") ==> {0: "a"} // expect "a"`: a result arrow (never valid code in either language) before the
    // comment: the left side runs, the arrow's right side is what it gave, and a comment that states an
    // expectation names the value wanted instead (issue 12, hold26).
    const shown = /^(.*\S)\s*(?:==>|⇒|→)\s*(\S.*?)\s*$/.exec(found.code);
    if (shown?.[1] && shown[2] && !scanCode(shown[1]).inString && balanced(shown[1])) {
      const wanted = parseAnnotation(found.comment);
      return {
        code: shown[1],
        comment:
          wanted?.role === "expected" && wanted.kind === "output"
            ? `=> ${shown[2]} instead of ${wanted.value}`
            : `=> ${shown[2]}`,
      };
    }
    return found;
  }
  // `==> value` / `=> value` on a line of its own under a statement (a REPL's result pasted after the code it
  // belongs to): the statement's annotation, not code. A fat arrow opening a line is never a statement start.
  const result = /^\s*(?:==>|=>|-->|->|⇒|→)\s*(\S.*)$/.exec(line);
  if (result?.[1]) return { code: "", comment: `=> ${result[1]}` };
  // `sprintf("%f", -1) gives '-1' ...???`, `f(x) returns 2`: a call, a verb of result and a value, written in
  // prose without a comment marker (not valid code in either language). A trailing `...OK` says the line works,
  // `...???` / `...wrong` that it does not.
  const worded = proseResult(line);
  if (worded) return { code: worded.code, comment: `=> ${worded.value}` };
  // `expr ==> value` (not valid code in either language): an annotation written without a comment.
  const arrow = /^def\s/.test(line.trim()) ? null : /^(.*\S)\s*(?:==>|-->|⇒|→|\s->\s)\s*(.+)$/.exec(line);
  // The arrow must stand outside strings: `print('a[{}] --> b[{}]'.format(…))` prints an arrow, it states nothing.
  if (arrow?.[1] && arrow[2] && !scanCode(arrow[1]).inString)
    return { code: arrow[1], comment: `=> ${arrow[2]}` };
  // `_.merge(a, b) => { x: [] }`: an arrow after a call or a property read is not a function's parameters.
  const fat =
    flavour === "js" ? /^([A-Za-z_$][\w$]*(?:\.[\w$]+|\([\s\S]*?\))*)\s*=>\s*(.+)$/.exec(line.trim()) : null;
  if (fat?.[1] && fat[2] && /[.(]/.test(fat[1]) && /[\w$)]$/.test(fat[1]) && balanced(fat[1]))
    return { code: fat[1], comment: `=> ${fat[2]}` };
  return { code: line, comment: null };
}

/** The line is a comment in the language's own syntax. */
function isCommentLine(line: string, flavour: Flavour): boolean {
  return flavour === "js" ? /^\s*(?:\/\/|\/\*)/.test(line) : /^\s*#/.test(line);
}

// Keywords as whole words: `format(d)`, `docs()`, `tryParse(x)` are expressions.
const JS_NOT_EXPRESSION =
  /^(?:(?:const|let|var|function|class|if|else|for|while|do|switch|try|catch|finally|return|throw|import|export|async\s+function|case|default|break|continue)\b|\{|\}|\)|\]|\/\/|\*)/;
const PY_NOT_EXPRESSION =
  /^(?:(?:import|from|def|class|if|elif|else|for|while|with|try|except|finally|return|raise|del|assert|pass|global|nonlocal|async|break|continue)\b|@|print\s*\()/;

/** Statements whose own output already shows the value (`console.log(x)`, `print(x)`). */
function printsItself(code: string, flavour: Flavour): boolean {
  return flavour === "js"
    ? /^console\.(log|info|warn|error|dir)\s*\(/.test(code)
    : /^print\s*\(/.test(code) || /^pprint\s*\(/.test(code);
}

/** A line that opens more brackets than it closes, outside strings: the statement goes on below. */
function openBrackets(code: string): boolean {
  const end = scanCode(code);
  return end.lowest >= 0 && end.depth > 0 && !end.inString;
}

function balanced(code: string): boolean {
  const end = scanCode(code);
  return end.lowest >= 0 && end.depth === 0 && !end.inString;
}

function declaredName(code: string, flavour: Flavour): string | null {
  const m =
    flavour === "js"
      ? /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?!=)/.exec(code)
      : /^([A-Za-z_]\w*)\s*=(?!=)/.exec(code);
  return m?.[1] ?? null;
}

/** `name` is assigned in `lines` (`var a = 1,\n    size = f(a);`, `size = f(a)`), comments aside. */
function assignedAbove(lines: string[], name: string, flavour: Flavour): boolean {
  const code = lines.map((l) => splitComment(l, flavour).code).join("\n");
  return new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}\\s*=(?![=>])`).test(code);
}

/** Lines after which an annotation comment on its own line belongs to the previous statement. */
const OWN_LINE_PREFIX =
  /^\s*(?:=+>|-+>|→|⇒|output\s*[:=]|(?:unexpected|wrong|incorrect|bad|buggy)\s*(?:output|result)?\s*:|results?\s*(?::|is\b|was\b)|(?:resultados?|r[eé]sultats?|ergebnis|risultato|salida|sa[ií]da)\b|returns?\b|prints?\b|logs?\b|gives?\b|got\b|throws?\b|raises?\b|expected\b|received\b|recieved\b|actual\b)/i;

/**
 * `// produced result { x: [] }`, `# returned 3`: a verb of result in the past (or `outputs`), perhaps a noun, then a
 * value, on a line of its own: what the statement above gave, as the reporter saw it (issue 12, hold24). A verb
 * before words (`// produced by the build step`, `// returned early`) is a description, not a result.
 */
const PAST_RESULT_PREFIX =
  /^\s*(?:produced|returned|printed|gave|yielded|logged|outputs)\s+(?:(?:output|result|value)\s*:?\s*)?(?=[[{'"`\d-]|(?:true|false|null|undefined|NaN|None|True|False)\b|[A-Z]\w*\s*[{([])/i;

/**
 * A comment that is a value and nothing else, or a ❌ mark before one (`// '1/3'`, `// ❌ '1/3'`,
 * `// http://example.com/A//`), read as the result of the expression above it; null for words, a statement (an
 * assignment, a call on a lower-case name), a value marked as working (`// ✔️ '101/200'`, `// x, correct`) and a
 * statement under a comment that says it works (`// correct`).
 */
function barelyValued(
  comment: string,
  statement: string,
  above: string,
  flavour: Flavour,
): NonNullable<ReturnType<typeof parseAnnotation>> | null {
  // Under an expression only: an assignment, a declaration or a definition shows no value of its own.
  if (
    /^\s*(?:const|let|var|def|class|function|import|from|return|if|for|while)\b|^\s*[\w$.[\]'"]+\s*[-+*/%]?=(?!=)/.test(
      statement,
    )
  )
    return null;
  const raw = comment.trim();
  if (TICK_MARK.test(raw)) return null;
  const cross = CROSS_MARK.exec(raw);
  const t = cross ? raw.slice(cross[0].length).trim() : raw;
  if (t === "" || !balanced(t) || /^[a-z_$][\w$.]*\s*\(|[^=!<>]=[^=>]|;\s*$/.test(t)) return null;
  const aboveComment = splitComment(above, flavour);
  if (
    aboveComment.code.trim() === "" &&
    aboveComment.comment !== null &&
    WORKS_LINE.test(aboveComment.comment)
  )
    return null;
  const url = /^[a-z][\w+.-]*:\/\/\S+$/i.test(t);
  if (!url && !looksLikeValue(t)) return null;
  const a = parseAnnotation(t);
  if (a === null && !url) return null;
  return a
    ? { ...a, flagged: a.flagged || cross !== null }
    : { role: "actual", kind: "output", value: t, flagged: cross !== null };
}
/** A comment line saying the statement under it works: `// correct`, `# OK:`, `// works fine`. */
const WORKS_LINE =
  /^\s*(?:✔️?|✅|✓)?\s*(?:correct|ok|okay|fine|works(?:\s+fine)?|good|right|as expected)\s*[.:!]*\s*$/i;

/**
 * `console.info(a, b) // true, true`, `print(x, y)  # 1, 2`: the values of a print call's arguments listed with
 * commas, as the reporter writes them, are printed joined by spaces (issue 12, hold24). Only for a call of the
 * console or `print` with as many top-level arguments as plain values listed (numbers, booleans,
 * null-likes): a value in brackets or quotes (`[1, 2]`, `'a, b'`), or a call with one argument, keeps its commas.
 */
function printedArguments(code: string, kind: string, value: string): string {
  if (kind !== "output") return value;
  const call = /^(?:console\.(?:log|info|warn|error|debug)|print)\s*\(([\s\S]*)\)\s*;?$/.exec(code.trim());
  if (!call?.[1]) return value;
  let args = 1;
  const scan = scanCode(call[1], (ch, _i, depth) => {
    if (ch === "," && depth === 0) args++;
    return undefined;
  });
  if (scan.inString || scan.depth !== 0 || args < 2) return value;
  // Split on the commas, then trimmed: `split(/\s*,\s*/)` rescans a run of blanks from each of its characters
  // (7 s of host CPU for 60,000 blanks in a comment).
  const parts = value.split(",").map((p) => p.trim());
  if (
    parts.length !== args ||
    !parts.every((p) => /^(?:-?\d+(?:\.\d+)?|true|false|null|undefined|None|True|False|NaN)$/.test(p))
  )
    return value;
  return parts.join(" ");
}

/** An annotation's check, and the value it says should show instead (`x instead of y`) as an expected one. */
function pushChecks(
  checks: Check[],
  line: number,
  code: string,
  a: NonNullable<ReturnType<typeof parseAnnotation>>,
): void {
  const { instead, ...check } = a;
  checks.push({ line, code, ...check, value: printedArguments(code, check.kind, check.value) });
  if (instead !== undefined)
    checks.push({ line, code, role: "expected", kind: "output", value: instead, flagged: false });
}

/**
 * `hash(a) !== hash(b) // bug!`: a comparison whose comment only calls the line a bug says the comparison holds
 * where it should not — the claim is that it gives `true` (issue 12, hold26). A call flagged so (`f(x) // bug!`)
 * states no value, and a comment that names one is read as usual.
 */
function flaggedComparison(code: string, comment: string): ReturnType<typeof parseAnnotation> {
  if (!/^\s*(?:<-+|←)?\s*(?:bug(?:gy)?|wrong|incorrect|broken|not\s+ok)\b[\s!.]*$/i.test(comment))
    return null;
  return isComparison(code) ? { role: "actual", kind: "output", value: "true", flagged: true } : null;
}

/** A Python statement with an assignment's `=` outside every bracket and string (`type(m).x = 1`, `a[i] += 2`). */
function topLevelAssignment(code: string): boolean {
  let bare = code.replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, '""');
  for (let prev = ""; prev !== bare; ) {
    prev = bare;
    bare = bare.replace(/\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}/g, "0");
  }
  return /^[^=]*?(?<![=!<>:])(?:[-+*/%&|^@]|\/\/|\*\*|<<|>>)?=(?!=)/.test(bare) && !/^\s*lambda\b/.test(bare);
}

/**
 * A JavaScript expression whose value is a comparison's (`f(a) !== f(b)`, `x.size > 0`): a comparison operator
 * outside every bracket and string, and no assignment, arrow, statement or declaration.
 */
export function isComparison(code: string): boolean {
  let bare = code
    .trim()
    .replace(/;$/, "")
    .replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g, '""');
  for (let prev = ""; prev !== bare; ) {
    prev = bare;
    bare = bare.replace(/\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}/g, "0");
  }
  return (
    !/=>|(?<![=!<>])=(?!=)|[;{}]|^(?:const|let|var|if|return)\b/.test(bare) && /[!=]==?|[<>]=?/.test(bare)
  );
}

/**
 * `f(x);` then a block comment on the lines under it holding only a value (`/*` / `{ a: 1,` / `  b: 2 }` / `*\/`):
 * the value the statement gave, as `f(x); // => …` says (issue 12, hold25): by line, the values found. The comment's
 * lines are left blank, so the lines keep their numbers. A comment of words (`/* TODO: … *\/`) is left alone.
 */
function commentedValuesBelow(lines: string[]): Map<number, string> {
  const found = new Map<number, string>();
  for (let i = 1; i < lines.length; i++) {
    if (!/^\s*\/\*\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*\*\/\s*$/.test(l));
    if (end < 0) continue;
    const above = lines[i - 1]!;
    const value = lines
      .slice(i + 1, end)
      .map((l) => l.trim())
      .join(" ")
      .trim();
    if (
      value === "" ||
      !/^[[{]/.test(value) ||
      !balanced(value) ||
      !/[\]}]$/.test(value) ||
      value.length > 4000 ||
      /^\s/.test(above) ||
      splitComment(above, "js").comment !== null ||
      !/^[A-Za-z_$][\w$.]*\(.*\)\s*;?\s*$/.test(above.trim())
    )
      continue;
    found.set(i - 1, value);
    for (let j = i; j <= end; j++) lines[j] = "";
    i = end;
  }
  return found;
}

/** Find the annotations of a code block and rewrite annotated expressions to echo their value. */
export function annotate(value: string, language: "python" | "javascript" | "typescript"): Annotated {
  const flavour: Flavour = language === "python" ? "python" : "js";
  // One statement copied under a comment per version, each with its value: run once, a value per version.
  const lines = (mergeVersionHeaded(value, flavour) ?? value).replace(/\r\n/g, "\n").split("\n");
  const out: string[] = [];
  const checks: Check[] = [];
  let usesEcho = false;
  /**
   * The last top-level statement that can be echoed: where it starts in `out`, its code, and how many lines it
   * spans (a call whose arguments run over several lines is one statement until its brackets close).
   */
  let last: { outIndex: number; code: string; line: number; echoed: boolean; span: number } | null = null;
  /** True while `last` is a statement whose brackets are still open. */
  let open = false;
  /** An error a comment line names for the statement under it (`# Raises ValueError: …` over `import x`). */
  let pendingError: NonNullable<ReturnType<typeof parseAnnotation>> | null = null;
  /** The side a label line (`expect` / `actual`) gave the annotation lines under it. */
  let labelSide: "expected" | "actual" | null = null;
  /** A comment line over the statement it describes: "should return true, but returns false" (claim-above.ts). */
  let pendingClaim: { actual: string; expected: string } | null = null;

  const echoLine = (code: string): string | null => {
    const c = code.trim().replace(/;\s*$/, "");
    if (c === "" || !balanced(c)) return null;
    if (printsItself(c, flavour)) return code;
    const name = declaredName(c, flavour);
    if (name)
      return flavour === "js"
        ? `${code.trimEnd()}${/;\s*$/.test(code) ? "" : ";"} _echo(${name});`
        : `${code.trimEnd()}; _echo(${name})`;
    if ((flavour === "js" ? JS_NOT_EXPRESSION : PY_NOT_EXPRESSION).test(c)) return null;
    if (flavour === "js" && /^[\w$.]+\s*[-+*/%]?=(?!=)/.test(c))
      return `${c}; _echo(${c.split(/\s*[-+*/%]?=/)[0]});`;
    if (flavour === "python" && /^[\w.[\]'"]+\s*[-+*/%]?=(?!=)/.test(c)) return null;
    // `type(m).bar = x`, `d[f(k)] = v`: an assignment to a call's attribute or a computed item is a statement too
    // (echoed, it stops the run on a SyntaxError Retrace wrote, never the report).
    if (flavour === "python" && topLevelAssignment(c)) return null;
    return flavour === "js" ? `_echo(${c});` : `_echo(${c})`;
  };

  /** Values given per version in comment lines under the statement `last` (`# output in 3.10:` / `# x`). */
  let headed: SideValue[] = [];
  const flushHeaded = () => {
    const sides = headed.filter((h) => h.value !== "");
    headed = [];
    if (!last || sides.length < 2 || new Set(sides.map((h) => h.value)).size < 2) return;
    if (!last.echoed) {
      const e = echoLine(last.code);
      if (e === null) return;
      out.splice(last.outIndex, last.span, e);
      if (e !== last.code) usesEcho = true;
      last.echoed = true;
      last.span = 1;
    }
    checks.push({
      line: last.line,
      code: last.code.trim(),
      role: "actual",
      kind: "output",
      value: sides.map((h) => `${h.label}: ${h.value}`).join("  "),
      flagged: false,
      sides,
    });
    last = null;
  };
  // The bracket depth before each line (JavaScript): a `return` at depth 0 is the snippet's own last word.
  const depthBefore: number[] = [];
  if (flavour === "js") {
    let depth = 0;
    for (const l of lines) {
      depthBefore.push(depth);
      depth += scanCode(splitComment(l, flavour).code).depth;
    }
  }
  const valuesBelow = flavour === "js" ? commentedValuesBelow(lines) : new Map<number, string>();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const { code, comment } = splitComment(raw, flavour);
    const indent = /^\s*/.exec(raw)?.[0].length ?? 0;
    const codeTrim = code.trim();
    const below = valuesBelow.get(i);
    const belowEcho = below !== undefined ? echoLine(code) : null;
    if (below !== undefined && belowEcho !== null) {
      if (belowEcho !== code) usesEcho = true;
      out.push(belowEcho);
      pushChecks(checks, i + 1, codeTrim, { role: "actual", kind: "output", value: below, flagged: false });
      last = null;
      continue;
    }
    if (pendingClaim && codeTrim !== "") {
      const claim = pendingClaim;
      pendingClaim = null;
      const e = indent === 0 && comment === null ? echoLine(code) : null;
      if (e !== null) {
        if (e !== code) usesEcho = true;
        out.push(e);
        pushChecks(checks, i + 1, codeTrim, {
          role: "actual",
          kind: "output",
          value: claim.actual,
          flagged: false,
          instead: claim.expected,
        });
        last = null;
        continue;
      }
    }
    // The statement under a `# Raises ValueError: …` line takes its claim, unless it carries its own annotation.
    if (pendingError && codeTrim !== "") {
      if (indent === 0 && comment === null && !/^(?:def|class|async|function)\b|^@/.test(codeTrim))
        pushChecks(checks, i + 1, codeTrim, pendingError);
      pendingError = null;
    }
    // A bare label line inside the block (`expect` / `actual`, then `//=> …` lines): not code (a lone word would
    // stop the run on a name never defined) but the side of the annotation lines under it, which stay the
    // statement above's (label-lines.ts).
    const label =
      comment === null && indent === 0 && last && !open ? labelLineSide(codeTrim, lines, i, flavour) : null;
    if (label) {
      labelSide = label;
      out.push(`${flavour === "js" ? "//" : "#"} ${raw.trim()}`);
      continue;
    }
    if (codeTrim !== "") labelSide = null;
    // A line continuing a statement whose brackets are still open belongs to it.
    if (open && last && codeTrim !== "" && comment === null) {
      out.push(raw);
      last.code = `${last.code}\n${code}`;
      last.span++;
      open = !balanced(last.code.trim());
      continue;
    }
    // `) // false` closing a call whose arguments run over several lines: the annotation of the whole call.
    if (open && last && codeTrim !== "" && comment !== null && balanced(`${last.code}\n${code}`.trim())) {
      const a = parseAnnotation(comment);
      const whole = `${last.code}\n${code}`;
      const e = a?.kind === "output" ? echoLine(whole) : null;
      if (a && (e !== null || a.kind === "error")) {
        if (e !== null) {
          out.splice(last.outIndex, last.span, `${e}${flavour === "js" ? " //" : "  #"}${comment}`);
          usesEcho = true;
        } else out.push(raw);
        pushChecks(checks, last.line, whole.trim(), a);
        last = null;
        open = false;
        continue;
      }
    }
    if (open && codeTrim !== "") last = null;
    open = false;
    if (codeTrim === "" && comment !== null && last) {
      // `# output in python 3.10:` then `# <F.C|B: 6>`: one value per version, for the statement above.
      const header = SIDE_HEADER.exec(comment);
      if (header?.[1]) {
        headed.push({ label: header[1].trim(), value: "" });
        out.push(raw);
        continue;
      }
      const pending = headed[headed.length - 1];
      if (pending && pending.value === "" && comment.trim() !== "") {
        pending.value = comment.trim();
        out.push(raw);
        continue;
      }
    }
    flushHeaded();
    // `// size is '1.47 Gb'` on a line of its own at the top level: the value of a variable assigned above (the
    // reporter names it instead of printing it), echoed there.
    const named =
      codeTrim === "" && comment !== null && indent === 0 && (flavour !== "js" || depthBefore[i] === 0)
        ? /^([A-Za-z_$][\w$]*)\s+(?:is|was|equals)\s+(\S.*)$/.exec(comment.trim())
        : null;
    if (named && !open && assignedAbove(lines.slice(0, i), named[1]!, flavour)) {
      const a = parseAnnotation(named[2]!);
      if (a && a.kind === "output" && looksLikeValue(a.value)) {
        out.push(raw);
        out.push(flavour === "js" ? `_echo(${named[1]});` : `_echo(${named[1]})`);
        usesEcho = true;
        pushChecks(checks, i + 1, named[1]!, a);
        last = null;
        continue;
      }
    }
    // `# Raises ValueError: …` on its own line with no statement above: the error the statement under it raises
    // (a comment written over the line it describes). Only an error named by its type, and only over a statement
    // that runs (not a definition the comment may describe).
    if (
      codeTrim === "" &&
      comment !== null &&
      last === null &&
      indent === 0 &&
      ERROR_WORDS.test(comment.trim())
    ) {
      const a = parseAnnotation(comment);
      if (a && a.kind === "error" && /^[A-Za-z_][\w.]*(?:Error|Exception)\b/.test(a.value)) pendingError = a;
    }
    // "should return true, but returns false" on its own line, right over a statement: that statement's claim.
    const above =
      codeTrim === "" && comment !== null && indent === 0 && !open ? claimAbove(comment, lines[i + 1]) : null;
    if (above) {
      pendingClaim = above;
      out.push(raw);
      continue;
    }
    if (codeTrim === "" && comment !== null) {
      // A comment on its own line: an annotation of the statement just above when it says so ("// => 1",
      // "// output: x", "# expected 2").
      // Under a statement that prints (`print(f.cache_info())` / `# CacheInfo(hits=0, …)`), a comment that
      // is only a value is what it printed.
      const read =
        last && (OWN_LINE_PREFIX.test(comment) || PAST_RESULT_PREFIX.test(comment))
          ? parseAnnotation(comment)
          : last &&
              !open &&
              i === last.line - 1 + last.span &&
              printsItself(last.code.trim(), flavour) &&
              looksLikeValue(comment) &&
              // `// {` opening a pasted object over several comment lines is not a value by itself.
              balanced(comment.trim())
            ? { role: "actual" as const, kind: "output" as const, value: comment.trim(), flagged: false }
            : last && !open && i === last.line - 1 + last.span
              ? // A comment that is only a value (or a ❌ mark and a value) right under a statement
                // (`join(a, 'A', '/')` / `// http://example.com/A//`): its result, as a REPL would echo it.
                // A line the reporter marks as working (a ✔️, a `// correct` line above it) is no claim.
                barelyValued(comment, last.code, lines[last.line - 2] ?? "", flavour)
              : null;
      const a =
        read && labelSide
          ? { ...read, role: labelSide, flagged: labelSide === "actual" ? true : read.flagged }
          : read;
      if (a && last) {
        if (!last.echoed && a.role === "actual" && a.kind === "output") {
          const e = echoLine(last.code);
          if (e !== null) {
            out.splice(last.outIndex, last.span, e);
            if (e !== last.code) usesEcho = true;
            last.echoed = true;
            last.span = 1;
          }
        }
        pushChecks(checks, i + 1, last.code.trim(), a);
      }
      // A result line written without a comment marker (`==> {…}`) stays in the program as a comment.
      out.push(isCommentLine(raw, flavour) ? raw : `${flavour === "js" ? "//" : "#"} ${raw.trim()}`);
      continue;
    }
    // `objectPath.set(target, '', 'foo') // now target is {}`: the state a statement leaves a variable in, the
    // variable the line itself names; echoed after the line. "now" (or "is now") is what says it is a state.
    const state =
      comment !== null && codeTrim !== "" && indent === 0 && (flavour !== "js" || depthBefore[i] === 0)
        ? (/^now[ \t,]+([A-Za-z_$][\w$]*)[ \t]+(?:is|equals|becomes|contains)[ \t]+(\S.*)$/.exec(
            comment.trim(),
          ) ?? /^([A-Za-z_$][\w$]*)[ \t]+is[ \t]+now[ \t]+(\S.*)$/.exec(comment.trim()))
        : null;
    if (
      state &&
      new RegExp(`(?<![\\w$.])${state[1]!.replace(/\$/g, "\\$")}(?![\\w$])`).test(code) &&
      balanced(codeTrim)
    ) {
      const a = parseAnnotation(state[2]!);
      if (a && a.kind === "output" && looksLikeValue(a.value)) {
        out.push(raw);
        out.push(flavour === "js" ? `_echo(${state[1]});` : `_echo(${state[1]})`);
        usesEcho = true;
        pushChecks(checks, i + 1, codeTrim, a);
        last = null;
        continue;
      }
    }
    if (comment !== null && codeTrim !== "" && (indent === 0 || printsItself(codeTrim, flavour))) {
      const a =
        parseAnnotation(comment) ??
        (printsItself(codeTrim, flavour) ? printedValue(comment) : null) ??
        flaggedComparison(codeTrim, comment);
      if (a) {
        // `return formatted; // 2014-12-20` outside any function (a function body pasted as the snippet): the
        // value it returns is the one annotated.
        const topReturn =
          flavour === "js" && depthBefore[i] === 0 ? /^(\s*)return\s+(\S[^;]*?)\s*;?\s*$/.exec(code) : null;
        const e =
          a.kind === "output"
            ? topReturn
              ? `${topReturn[1]}_echo(${topReturn[2]});`
              : echoLine(code)
            : code;
        if (e !== null || a.kind === "error") {
          const rewritten = a.kind === "output" && e !== null ? e : code;
          if (rewritten !== code) usesEcho = true;
          out.push(rewritten === code ? raw : `${rewritten}${flavour === "js" ? " //" : "  #"}${comment}`);
          pushChecks(checks, i + 1, codeTrim, a);
          last = null;
          continue;
        }
      }
    }
    out.push(
      comment !== null &&
        (/==>|-->|⇒|→/.test(raw) || proseResult(raw) !== null) &&
        !raw.includes(flavour === "js" ? "//" : "#")
        ? code
        : raw,
    );
    if (codeTrim !== "" && indent === 0 && comment === null) {
      last = { outIndex: out.length - 1, code, line: i + 1, echoed: false, span: 1 };
      open = openBrackets(code);
    } else if (codeTrim !== "") last = null;
  }
  flushHeaded();
  return { code: out.join("\n"), checks, usesEcho };
}

/**
 * Echoes a value as Node's REPL shows it; an object of a class with its own `toString` and no custom inspector (a
 * money or decimal type: `currency(-1.25)`) is echoed with its string form on the next line too, since reporters
 * annotate such a call with what it reads as (`// => "-1.2"`), not with the object's fields.
 */
const JS_ECHO_BODY =
  "const _echo = (value) => { if (value === undefined) return; console.log(_inspect(value)); " +
  'if (typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Error) && ' +
  '!(value instanceof Date) && !(value instanceof RegExp) && typeof value.toString === "function" && ' +
  'value.toString !== Object.prototype.toString && !(Symbol.for("nodejs.util.inspect.custom") in value)) ' +
  "console.log(String(value)); };";
export const JS_ECHO_PRELUDE = `const _inspect = require("node:util").inspect;\n${JS_ECHO_BODY}`;
export const JS_ECHO_PRELUDE_ESM = `import { inspect as _inspect } from "node:util";\n${JS_ECHO_BODY}`;
export const PY_ECHO_PRELUDE = "import sys as _sys\n_echo = _sys.displayhook";
