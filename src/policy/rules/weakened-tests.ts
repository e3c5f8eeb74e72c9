/**
 * weakened-tests: in test files, a patch may not remove more assertions than it adds (beyond
 * `maxRemovedAssertions`), remove test cases, add tautologies (`assert True`, `expect(x).toBe(x)`), edit the
 * expected value of an assertion (a removed `assert x == 3` paired with an added `assert x == 4`), loosen a
 * matcher on the same subject (`toEqual(…)` → `toBeDefined()`), or change snapshot files.
 */
import type { PolicyConfig } from "../config.ts";
import { isCommentLine, type Language, languageOf, matchesAny, truncate } from "../lines.ts";
import type { DiffLine, FileChange, Rule, Violation } from "../types.ts";

const ASSERTION =
  /^\s*assert\b|\bself\.assert\w*\s*\(|\bpytest\.(raises|warns|approx)\b|\bnp\.testing\.assert|\bassert_\w+\s*\(|\bexpect\s*\(|\bassert(\.\w+)?\s*\(|\.should\b|\bt\.(is|not|deepEqual|notDeepEqual|true|false|truthy|falsy|throws|throwsAsync|equal|notEqual|ok|same|match|assert|snapshot)\s*\(|\b[tb]\.(Error|Errorf|Fatal|Fatalf|Fail|FailNow)\b|\b(assert|require)\.\w+\s*\(|\b(assert|assert_eq|assert_ne|debug_assert\w*)!\s*\(|\bAssert\.\w+\s*\(|\bassert(Equals|True|False|Null|NotNull|That|Throws|Same|ArrayEquals)\s*\(|\bverify\s*\(/;

const TEST_CASE =
  /^\s*(async\s+)?def\s+test\w*\s*\(|^\s*class\s+Test\w*|\b(it|test|specify)\s*(\.\w+)*\s*\(\s*['"`]|^\s*func\s+(Test|Benchmark|Fuzz)\w*\s*\(|#\[(tokio::)?test\]|@(Test|ParameterizedTest|TestFactory)\b|\[(Fact|Theory|Test|TestMethod)\]/;

const TAUTOLOGIES: RegExp[] = [
  /^\s*assert\s+\(?\s*(True|1|not\s+(False|None|0))\s*\)?\s*(,.*)?$/,
  /^\s*assert\s+(.+?)\s*(==|is)\s*\1\s*(,.*)?$/,
  /\bself\.assert(True|Truthy)\s*\(\s*(True|1)\s*[,)]/,
  /\bself\.assertFalse\s*\(\s*(False|0|None)\s*[,)]/,
  /\bself\.assert(Equal|Is)\s*\(\s*([^,]+?)\s*,\s*\2\s*[,)]/,
  /\bexpect\s*\(\s*(true|1|!0|!false|!!1)\s*\)\s*\.\s*(toBe\s*\(\s*true\s*\)|toBeTruthy\s*\(\s*\)|toEqual\s*\(\s*true\s*\)|toBeDefined\s*\(\s*\))/,
  /\bexpect\s*\(\s*(false|0|null|undefined)\s*\)\s*\.\s*(toBeFalsy\s*\(\s*\)|toBe(Null|Undefined)\s*\(\s*\))/,
  /\bexpect\s*\(\s*([^()]+?|[\w.]+\([^()]*\))\s*\)\s*\.\s*(toBe|toEqual|toStrictEqual)\s*\(\s*\1\s*\)/,
  /\bassert(\.ok)?\s*\(\s*(true|1|!0)\s*[,)]/,
  /\bassert\.(equal|strictEqual|deepEqual|deepStrictEqual)\s*\(\s*([^,]+?)\s*,\s*\2\s*[,)]/,
  /\bt\.(true|truthy|pass)\s*\(\s*(true)?\s*\)/,
  /\bassert!\s*\(\s*true\s*[,)]/,
  /\bassert_eq!\s*\(\s*([^,]+?)\s*,\s*\1\s*[,)]/,
  /\bassert(True)\s*\(\s*true\s*\)|\bassertEquals\s*\(\s*([^,]+?)\s*,\s*\2\s*\)/,
];

/** Matchers that accept almost anything, and the subject they test. */
const LOOSE_JS =
  /\bexpect\s*\(\s*(.+?)\s*\)\s*\.\s*(toBeDefined\s*\(\s*\)|toBeTruthy\s*\(\s*\)|not\s*\.\s*toBe(Null|Undefined)\s*\(\s*\)|toBeInstanceOf\s*\(|toThrow\s*\(\s*\)|toEqual\s*\(\s*expect\.anything\s*\(\s*\)\s*\)|toHaveBeenCalled\s*\(\s*\))/;
const LOOSE_PY =
  /^\s*assert\s+([\w.[\]()'"]+?)(\s+is\s+not\s+None)?\s*$|\bself\.assert(IsNotNone|True)\s*\(\s*([^,)]+)\s*\)/;

const isAssertion = (text: string, lang: Language) => !isCommentLine(text, lang) && ASSERTION.test(text);
const isTautology = (text: string, lang: Language) =>
  !isCommentLine(text, lang) && TAUTOLOGIES.some((re) => re.test(text));

/** An assertion with its literals blanked: two lines with the same skeleton differ only in expected values. */
export function skeleton(text: string): string {
  return text
    .trim()
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "S")
    .replace(/(?<![\w.])-?\d+(\.\d+)?([eE][-+]?\d+)?\b/g, "N")
    .replace(/\b(True|False|None|true|false|null|undefined|nil)\b/g, "L")
    .replace(/\s+/g, " ");
}

type WeakenedTestsConfig = PolicyConfig["weakenedTests"];

/** Matchers and comparisons that accept (almost) anything: replacing a strict assertion by one of them loosens it. */
const LOOSE_ANY =
  /\.\s*(toBeGreaterThan|toBeGreaterThanOrEqual|toBeLessThan|toBeLessThanOrEqual|toBeDefined|toBeTruthy|toBeFalsy|toBeInstanceOf|toBeTypeOf|toHaveBeenCalled|toHaveLength)\s*\(|\.\s*not\s*\.|\bexpect\.(any|anything)\s*\(|\.toThrow\s*\(\s*\)|^\s*assert\s+isinstance\s*\(|^\s*assert\s+[^=!<>]*?\s(>=|<=|>|<|!=|is\s+not|not\s+in)\s|^\s*assert\s+[\w.[\]()'"]+\s*(,.*)?$|\bself\.assert(IsNotNone|True|IsInstance|Greater\w*|Less\w*|NotEqual|NotIn|IsNot)\s*\(|\bassert!\s*\(\s*[\w.]+\.is_(ok|some|err|none)\s*\(\s*\)\s*\)/;

/** Catching everything around an assertion turns its failure into a pass. */
const SWALLOWS =
  /\b(pytest\.raises|raises|assertRaises|suppress)\s*\(\s*\(?\s*(BaseException|Exception|AssertionError)\b|^\s*except\b[^:]*\bAssertionError\b/;
const PY_BROAD_EXCEPT = /^(\s*)except\s*(\(?\s*(BaseException|Exception)\b[^:]*)?(\s+as\s+\w+)?\s*:/;
const JS_CATCH = /^(\s*)(\}\s*)?catch\b/;

/** A statement that ends the test before what follows it runs. */
const EARLY_RETURN =
  /^\s*(return\b(?!.*[([{,\\+\-*/]\s*$)[^;{]*;?|if\s*\(?\s*(true|True|1)\s*\)?\s*(:|\{)?\s*return\b.*)\s*$/;
const CLOSER = /^\s*([)\]}]|end\b|else\b|elif\b|except\b|finally\b|catch\b|case\b|default\b)/;

/** A line that starts a function or test case; assertions are counted per enclosing one. */
const FUNCTION_HEADER =
  /^\s*(async\s+)?def\s+\w+|^\s*func\s+(\([^)]*\)\s*)?\w+|^\s*(pub(\([^)]*\))?\s+)?(async\s+)?fn\s+\w+|\b(it|test|specify)\s*(\.\w+)*\s*\(\s*['"`]|^\s*((public|private|protected|internal)\s+)?(static\s+)?(async\s+)?(void|Task)\s+\w+\s*\(/;

const isLoose = (text: string) => LOOSE_ANY.test(text) || LOOSE_JS.test(text) || LOOSE_PY.test(text);
const indentOf = (s: string) => (/^[ \t]*/.exec(s)?.[0] ?? "").replace(/\t/g, "    ").length;

interface Keyed {
  line: DiffLine;
  /** The enclosing function/test header as visible in the hunk (or its heading); `?` when none is. */
  fn: string;
}

/** Changed lines keyed by the test function they sit in, on their own side of the hunk. */
function keyedLines(file: FileChange): Keyed[] {
  const out: Keyed[] = [];
  const lang = languageOf(file.path);
  for (const hunk of file.hunks) {
    const fromHeading = FUNCTION_HEADER.test(hunk.heading) ? hunk.heading.trim() : "?";
    let oldFn = fromHeading;
    let newFn = fromHeading;
    for (const l of hunk.lines) {
      const header = !isCommentLine(l.text, lang) && FUNCTION_HEADER.test(l.text) ? l.text.trim() : null;
      if (header !== null) {
        if (l.kind !== "add") oldFn = header;
        if (l.kind !== "del") newFn = header;
      }
      if (l.kind !== "ctx") out.push({ line: l, fn: l.kind === "add" ? newFn : oldFn });
    }
  }
  return out;
}

/** Added lines that end a test early or swallow its assertions' failures, read on the new side of each hunk. */
function controlFlowViolations(file: FileChange, v: (line: number | null, message: string) => Violation) {
  const out: Violation[] = [];
  const lang = languageOf(file.path);
  for (const hunk of file.hunks) {
    const side = hunk.lines.filter((l) => l.kind !== "del");
    side.forEach((l, i) => {
      if (l.kind !== "add" || isCommentLine(l.text, lang)) return;
      if (SWALLOWS.test(l.text)) {
        out.push(v(l.newLine, `makes a failing assertion pass (catches any error): \`${truncate(l.text)}\``));
        return;
      }
      const except = PY_BROAD_EXCEPT.exec(l.text) ?? JS_CATCH.exec(l.text);
      if (except) {
        const ind = indentOf(except[1]!);
        for (let j = i - 1; j >= 0; j--) {
          const t = side[j]!.text;
          if (t.trim() === "") continue;
          if (indentOf(t) < ind) break;
          if (indentOf(t) === ind && /^\s*(try\s*:|try\s*\{|\}?\s*try\b)/.test(t)) {
            const body = side.slice(j + 1, i);
            if (body.some((b) => isAssertion(b.text, lang))) {
              out.push(
                v(
                  l.newLine,
                  `catches the failure of the assertion(s) in its try block: \`${truncate(l.text)}\``,
                ),
              );
            }
            break;
          }
          if (indentOf(t) === ind) break;
        }
        return;
      }
      if (EARLY_RETURN.test(l.text)) {
        const next = side.slice(i + 1).find((n) => n.text.trim() !== "" && !isCommentLine(n.text, lang));
        if (next !== undefined && indentOf(next.text) === indentOf(l.text) && !CLOSER.test(next.text)) {
          out.push(
            v(
              l.newLine,
              `returns before the rest of the test runs (\`${truncate(next.text, 50)}\` is never reached): \`${truncate(l.text)}\``,
            ),
          );
        }
      }
    });
  }
  return out;
}

function checkFile(file: FileChange, cfg: WeakenedTestsConfig): Violation[] {
  const out: Violation[] = [];
  const lang = languageOf(file.path);
  const v = (line: number | null, message: string): Violation => ({
    rule: "weakened-tests",
    file: file.path,
    line,
    message,
  });
  const keyed = keyedLines(file);
  let dels = keyed.filter((k) => k.line.kind === "del" && isAssertion(k.line.text, lang));
  const adds = keyed.filter((k) => k.line.kind === "add");
  const removedCases = keyed.filter((k) => k.line.kind === "del" && isCase(k.line.text, lang));
  const addedCases = adds.filter((k) => isCase(k.line.text, lang)).length;
  const addedAsserts = adds.filter((k) => isAssertion(k.line.text, lang) && !isTautology(k.line.text, lang));
  // A line removed and added back unchanged (moved, re-indented) is neither a removal nor an addition.
  const fresh: Keyed[] = [];
  for (const add of addedAsserts) {
    const same = dels.find((d) => d.line.text.trim() === add.line.text.trim());
    if (same) dels = dels.filter((d) => d !== same);
    else fresh.push(add);
  }
  for (const add of adds) {
    if (isTautology(add.line.text, lang)) {
      out.push(v(add.line.newLine, `adds an assertion that cannot fail: \`${truncate(add.line.text)}\``));
    }
  }
  for (const add of fresh) {
    const text = add.line.text;
    const inFn = dels.filter((d) => d.fn === add.fn);
    if (inFn.length === 0) continue;
    const sk = skeleton(text);
    const edited = inFn.find((d) => skeleton(d.line.text) === sk);
    const paired = edited ?? inFn[0]!;
    dels = dels.filter((d) => d !== paired);
    const was = truncate(paired.line.text, 60);
    const now = truncate(text, 60);
    if (edited) {
      out.push(v(add.line.newLine, `changes an expected value: \`${was}\` → \`${now}\``));
    } else if (isLoose(text) && !isLoose(paired.line.text)) {
      out.push(v(add.line.newLine, `loosens an assertion: \`${was}\` → \`${now}\``));
    } else if (!cfg.allowReplacedAssertions) {
      out.push(
        v(
          add.line.newLine,
          `replaces an assertion (edited expectation): \`${was}\` → \`${now}\` (set policy.weakenedTests.allowReplacedAssertions if the test itself was wrong)`,
        ),
      );
    }
  }
  if (dels.length > cfg.maxRemovedAssertions) {
    const first = dels[0]!.line;
    out.push(
      v(
        first.oldLine,
        `removes ${dels.length} assertion(s) without a replacement in the same test, adds ${addedAsserts.length} (first removed at line ${first.oldLine} of the old file: \`${truncate(first.text, 60)}\`)`,
      ),
    );
  }
  if (removedCases.length > addedCases) {
    const first = removedCases[0]!.line;
    out.push(
      v(
        first.oldLine,
        `removes ${removedCases.length - addedCases} test case(s) (first at line ${first.oldLine} of the old file: \`${truncate(first.text, 60)}\`)`,
      ),
    );
  }
  out.push(...controlFlowViolations(file, v));
  return out;
}

const isCase = (text: string, lang: Language) => !isCommentLine(text, lang) && TEST_CASE.test(text);

/** Rust/Go hunks whose visible lines show inline tests (`#[cfg(test)] mod tests`, `#[test]`, `func TestX`). */
const INLINE_TEST_MARK =
  /#\[cfg\(test\)\]|#\[(tokio::)?test\]|\bmod\s+tests?\b|^\s*func\s+(Test|Benchmark|Fuzz)\w*\s*\(/;

/**
 * JS/TS tests kept in a source file (red team 30): Vitest's in-source block `if (import.meta.vitest) { … }`, Deno's
 * `Deno.test(…)`. The block is conventionally the file's last: a hunk below the base file's first mark (when the
 * gate knows the base text) or showing the mark itself is a test's.
 */
const IN_SOURCE_TEST_MARK = /\bimport\.meta\.vitest\b|\bDeno\.test\s*\(/;

function inlineTestHunks(file: FileChange, baseText?: string): FileChange | null {
  const lang = languageOf(file.path);
  const mark =
    lang === "rust" || lang === "go" ? INLINE_TEST_MARK : lang === "js" ? IN_SOURCE_TEST_MARK : null;
  if (mark === null) return null;
  const markLine =
    lang === "js" && baseText !== undefined
      ? baseText.split("\n").findIndex((l) => IN_SOURCE_TEST_MARK.test(l)) + 1
      : 0;
  const hunks = file.hunks.filter(
    (h) =>
      mark.test(h.heading) ||
      h.lines.some((l) => mark.test(l.text)) ||
      (markLine > 0 && h.oldStart + h.oldLines > markLine),
  );
  return hunks.length > 0 ? { ...file, hunks } : null;
}

/** A doctest's prompt line (`>>> total(3)`, `... more`). */
const DOCTEST_PROMPT = /^\s*(>>>|\.\.\.)(\s|$)/;

/**
 * Changed lines of doctest examples (red team 30): a `>>>`/`...` line, or a line of the output expected after one
 * (the lines up to a blank line or the next prompt), in a Python file or a text document doctest reads. Editing
 * the expected output to what the code now prints makes `pytest --doctest-modules` pass without a fix.
 */
function doctestViolations(file: FileChange): Violation[] {
  const lang = languageOf(file.path);
  if (lang !== "python" && !/\.(rst|md|txt)$/i.test(file.path)) return [];
  const out: Violation[] = [];
  for (const h of file.hunks) {
    // Per side: whether the line above was a prompt or expected output of an example.
    let oldIn = false;
    let newIn = false;
    for (const l of h.lines) {
      const prompt = DOCTEST_PROMPT.test(l.text);
      const blank = l.text.trim() === "" || /^\s*("""|''')\s*$/.test(l.text);
      const inExample: boolean = l.kind === "add" ? newIn : l.kind === "del" ? oldIn : oldIn || newIn;
      if (l.kind !== "ctx" && (prompt || (inExample && !blank)))
        out.push({
          rule: "weakened-tests",
          file: file.path,
          line: l.kind === "add" ? l.newLine : l.oldLine,
          message: `${l.kind === "add" ? "adds" : "removes"} a line of a doctest example (${prompt ? "its call" : "its expected output"}): \`${truncate(l.text, 60)}\``,
        });
      const next: boolean = prompt || (inExample && !blank);
      if (l.kind !== "add") oldIn = next;
      if (l.kind !== "del") newIn = next;
    }
  }
  return out;
}

export const weakenedTests: Rule = {
  id: "weakened-tests",
  enabled: (c) => c.weakenedTests.enabled,
  check({ patch, config, isTestFile, sourceFiles }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      const paths = [file.oldPath, file.newPath].filter((p): p is string => p !== null);
      if (!paths.some(isTestFile)) {
        if (!config.weakenedTests.inlineTests) continue;
        const inline = inlineTestHunks(file, file.oldPath === null ? undefined : sourceFiles?.[file.oldPath]);
        if (inline !== null) out.push(...checkFile(inline, config.weakenedTests));
        out.push(...doctestViolations(file));
        continue;
      }
      if (paths.some((p) => matchesAny(["**/__snapshots__/**", "**/*.snap"], p)) && file.hunks.length > 0) {
        out.push({
          rule: "weakened-tests",
          file: file.path,
          line: null,
          message: "changes recorded snapshots (expected values)",
        });
        continue;
      }
      out.push(...checkFile(file, config.weakenedTests));
    }
    return out;
  },
};
