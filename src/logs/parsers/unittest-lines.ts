/**
 * unittest's `-v` test lines read in time linear in the line. A test id is `name (dotted.path)`, and a subtest
 * adds `[msg]` and `(key=value)` after it (`  test_x (pkg.C.test_x) [msg] (i=1) ... FAIL`). As regular
 * expressions (`(?: \[.*?\])?(?: \(.*\))?` between the id and ` ... outcome$` or the line's end) these
 * backtracked over every `]`, `)` and ` ... ` of a line shaped for them: quadratic in the line (1 MiB of
 * `test_a (m.C) (` + `(x) ... ` repeated held the log parse past its budget, ninth red team). Each function here
 * gives exactly what the expression it replaces captured, decided from a few positions found by one scan.
 */

/** `(?: {2})?(\w+) \(([\w.]+)\)` at the start of a line: the name, the dotted path in parentheses, where it ends. */
const HEAD = /^(?: {2})?(\w+) \(([\w.]+)\)/;
/** Characters `.` does not match: a match never crosses one. */
const TERMINATOR = /[\n\r\u2028\u2029]/;
const EXACT_OUTCOMES = new Set(["ok", "FAIL", "ERROR", "expected failure", "unexpected success"]);

/**
 * The subtest part of `rest` when `rest` is all of it, as `^((?: \[.*?\])?(?: \(.*\))?)$` matches it: an optional
 * ` [msg]` (the first `]` that lets the rest match) and an optional ` (params)` running to the end. Null when it
 * does not match.
 */
export function subtestSuffix(rest: string): string | null {
  if (rest === "") return "";
  if (TERMINATOR.test(rest)) return null;
  const parenToEnd = (from: number) =>
    rest.startsWith(" (", from) && rest.endsWith(")") && rest.length - 1 >= from + 2;
  if (rest.startsWith(" [")) {
    // The first `]` (at 2 or later) after which the line ends, or ` (…)` runs to the end.
    for (let j = rest.indexOf("]", 2); j !== -1; j = rest.indexOf("]", j + 1)) {
      if (j === rest.length - 1 || parenToEnd(j + 1)) return rest;
      // A later `]` can only help by ending the line (the ` (` test fails the same way for all but one).
      if (!rest.endsWith(")") && !rest.endsWith("]")) break;
    }
  }
  return parenToEnd(0) ? rest : null;
}

/** `^(?: {2})?(\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)$`: name, dotted path, subtest part. */
export function testIdLine(text: string): [string, string, string] | null {
  const h = HEAD.exec(text);
  if (!h) return null;
  const suffix = subtestSuffix(text.slice(h[0].length));
  return suffix === null ? null : [h[1]!, h[2]!, suffix];
}

/**
 * `^(?: {2})?(\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)(?:\n|.*?) \.\.\. (ok|FAIL|ERROR|skipped.*|expected
 * failure|unexpected success)$`: name, dotted path, subtest part, outcome. The expression's own preferences
 * decide among the ways a line can match: the first `]` that lets the rest match, then the last `)` that does,
 * then the first ` ... ` whose remainder is an outcome.
 */
export function outcomeLine(text: string): [string, string, string, string] | null {
  const h = HEAD.exec(text);
  if (!h) return null;
  const rest = text.slice(h[0].length);
  if (TERMINATOR.test(rest)) return null;
  // Where an outcome may start: each ` ... skipped`, and the ` ... <outcome>` that ends the line.
  const starts: number[] = [];
  for (let s = rest.indexOf(" ... skipped"); s !== -1; s = rest.indexOf(" ... skipped", s + 1))
    starts.push(s);
  for (const o of EXACT_OUTCOMES) {
    const s = rest.length - o.length - 5;
    if (s >= 0 && rest.endsWith(o) && rest.startsWith(" ... ", s)) {
      if (!starts.includes(s)) starts.push(s);
    }
  }
  if (starts.length === 0) return null;
  starts.sort((a, b) => a - b);
  const last = starts[starts.length - 1]!;
  const firstFrom = (x: number) => starts.find((s) => s >= x)!;
  const result = (g3end: number): [string, string, string, string] => {
    const s = firstFrom(g3end);
    return [h[1]!, h[2]!, rest.slice(0, g3end), rest.slice(s + 5)];
  };
  // ` (…)` starting at `from`, greedy: the last `)` that leaves an outcome start after it.
  const paren = (from: number): number | null => {
    if (!rest.startsWith(" (", from) || last < 1) return null;
    const p = rest.lastIndexOf(")", last - 1);
    return p >= from + 2 ? p + 1 : null;
  };
  if (rest.startsWith(" [")) {
    const j = rest.indexOf("]", 2);
    if (j !== -1 && j + 1 <= last) {
      const p = paren(j + 1);
      return result(p ?? j + 1);
    }
  }
  const p = paren(0);
  return result(p ?? 0);
}

/**
 * A module unittest could not import is a test of its own, `unittest.loader._FailedTest`, named by the module's dotted
 * name: `test.test_wal (unittest.loader._FailedTest)` (Python 3.11+ adds the name to the class:
 * `(unittest.loader._FailedTest.test.test_wal)`). The only test line whose name holds dots.
 */
const LOADER_FAILURE = /^(?: {2})?(\w+(?:\.\w+)+) \((unittest\.loader\._FailedTest(?:\.\w+)*)\)$/;

/** `^(FAIL|ERROR|UNEXPECTED SUCCESS)( \[0.7s\])?: (\w+) \(([\w.]+)\)((?: \[.*?\])?(?: \(.*\))?)$`: kind, name, path, subtest. */
export function headerLine(text: string): [string, string, string, string] | null {
  // A runner over unittest may print the test's duration after the kind (vsc-install's `FAIL [0.756s]: test_x (m.C)`).
  const kind = /^(FAIL|ERROR|UNEXPECTED SUCCESS)(?: \[\d+(?:\.\d+)?m?s\])?: (?=\w)/.exec(text);
  if (!kind) return null;
  const rest = text.slice(kind[0].length);
  const id = testIdLine(rest);
  if (id) return [kind[1]!, ...id];
  const loader = LOADER_FAILURE.exec(rest);
  if (loader) return [kind[1]!, loader[1]!, loader[2]!, ""];
  // A runner over unittest that labels a test by a dotted path ending in its method (`FAIL:
  // suite.loader.test_tags (tests.suite.loader.TestLoader)`, pulsar's): a method's name has no dot, so the label's
  // last part is the method, and the parentheses name its class as unittest does.
  // Read only when the label's path is the tail of the class's module and the class is named as a test case
  // (`TestX`, `XTest`, `XTests`, `XTestCase`): `ERROR: tests.test_pour (kettle.tests.Pour)` stays unread.
  const labelled = LABELLED.exec(rest);
  if (!labelled) return null;
  const [, label, method, path] = labelled;
  const dot = path!.lastIndexOf(".");
  const module = path!.slice(0, dot);
  const cls = path!.slice(dot + 1);
  const tail = label!.slice(0, -1);
  if (!`.${module}`.endsWith(`.${tail}`) || !/^Test|Tests?$|TestCase$/.test(cls)) return null;
  return [kind[1]!, method!, path!, ""];
}
const LABELLED = /^((?:\w+\.)+)(\w+) \(((?:\w+\.)+[A-Za-z_]\w*)\)$/;

/** A loader failure's `-v` line, `test.test_wal (unittest.loader._FailedTest) ... ERROR`: name, class, outcome. */
export function loaderOutcomeLine(text: string): [string, string, string, string] | null {
  const dots = text.lastIndexOf(" ... ");
  if (dots < 0 || dots > 1000) return null;
  const outcome = text.slice(dots + 5);
  if (outcome !== "ERROR") return null;
  const m = LOADER_FAILURE.exec(text.slice(0, dots));
  return m ? [m[1]!, m[2]!, "", outcome] : null;
}
