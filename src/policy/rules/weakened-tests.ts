/**
 * weakened-tests: in test files, a patch may not remove more assertions than it adds (beyond
 * `maxRemovedAssertions`), remove test cases, add tautologies (`assert True`, `expect(x).toBe(x)`), edit the
 * expected value of an assertion (a removed `assert x == 3` paired with an added `assert x == 4`), loosen a
 * matcher on the same subject (`toEqual(…)` → `toBeDefined()`), or change snapshot files.
 */
import { isCommentLine, matchesAny, truncate } from "../lines.ts";
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
const STRICT_JS_SUBJECT = /\bexpect\s*\(\s*(.+?)\s*\)\s*\.\s*(?:not\s*\.\s*)?\w+\s*\(/;
const LOOSE_PY =
  /^\s*assert\s+([\w.[\]()'"]+?)(\s+is\s+not\s+None)?\s*$|\bself\.assert(IsNotNone|True)\s*\(\s*([^,)]+)\s*\)/;
const STRICT_PY_SUBJECT = /^\s*assert\s+([\w.[\]()'"]+?)\s*(==|!=|<=|>=|<|>|\bin\b|\bis\b)/;

const isAssertion = (text: string) => !isCommentLine(text) && ASSERTION.test(text);
const isTautology = (text: string) => !isCommentLine(text) && TAUTOLOGIES.some((re) => re.test(text));

/** An assertion with its literals blanked: two lines with the same skeleton differ only in expected values. */
export function skeleton(text: string): string {
  return text
    .trim()
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "S")
    .replace(/(?<![\w.])-?\d+(\.\d+)?([eE][-+]?\d+)?\b/g, "N")
    .replace(/\b(True|False|None|true|false|null|undefined|nil)\b/g, "L")
    .replace(/\s+/g, " ");
}

function subjectOf(text: string, loose: boolean): string | null {
  if (loose) {
    const js = LOOSE_JS.exec(text);
    if (js) return js[1]!.trim();
    const py = LOOSE_PY.exec(text);
    if (py) return (py[1] ?? py[4] ?? "").trim() || null;
    return null;
  }
  return (STRICT_JS_SUBJECT.exec(text)?.[1] ?? STRICT_PY_SUBJECT.exec(text)?.[1])?.trim() ?? null;
}

function checkFile(file: FileChange, maxRemoved: number): Violation[] {
  const out: Violation[] = [];
  const v = (line: number | null, message: string): Violation => ({
    rule: "weakened-tests",
    file: file.path,
    line,
    message,
  });
  let removedAsserts: DiffLine[] = [];
  let addedAsserts = 0;
  let removedCases: DiffLine[] = [];
  let addedCases = 0;
  for (const hunk of file.hunks) {
    const dels = hunk.lines.filter((l) => l.kind === "del");
    const adds = hunk.lines.filter((l) => l.kind === "add");
    const delAsserts = dels.filter((l) => isAssertion(l.text));
    removedAsserts = removedAsserts.concat(delAsserts);
    removedCases = removedCases.concat(dels.filter((l) => !isCommentLine(l.text) && TEST_CASE.test(l.text)));
    addedCases += adds.filter((l) => !isCommentLine(l.text) && TEST_CASE.test(l.text)).length;
    const unmatchedDels = new Set(delAsserts);
    for (const add of adds) {
      if (isTautology(add.text)) {
        out.push(v(add.newLine, `adds an assertion that cannot fail: \`${truncate(add.text)}\``));
        continue;
      }
      if (!isAssertion(add.text)) continue;
      addedAsserts += 1;
      // Expected value edited: same assertion, other literals.
      const sk = skeleton(add.text);
      const edited = [...unmatchedDels].find(
        (d) => skeleton(d.text) === sk && d.text.trim() !== add.text.trim(),
      );
      if (edited) {
        unmatchedDels.delete(edited);
        out.push(
          v(
            add.newLine,
            `changes an expected value: \`${truncate(edited.text, 60)}\` → \`${truncate(add.text, 60)}\``,
          ),
        );
        continue;
      }
      // Loosened: a strict assertion on the same subject replaced by one that accepts almost anything.
      const subject = subjectOf(add.text, true);
      if (subject !== null) {
        const strict = [...unmatchedDels].find(
          (d) => subjectOf(d.text, true) === null && subjectOf(d.text, false) === subject,
        );
        if (strict) {
          unmatchedDels.delete(strict);
          out.push(
            v(
              add.newLine,
              `loosens an assertion: \`${truncate(strict.text, 60)}\` → \`${truncate(add.text, 60)}\``,
            ),
          );
        }
      }
    }
  }
  if (removedAsserts.length - addedAsserts > maxRemoved) {
    const first = removedAsserts[0]!;
    out.push(
      v(
        first.oldLine,
        `removes ${removedAsserts.length} assertion(s) and adds ${addedAsserts} (first removed at line ${first.oldLine} of the old file: \`${truncate(first.text, 60)}\`)`,
      ),
    );
  }
  if (removedCases.length > addedCases) {
    const first = removedCases[0]!;
    out.push(
      v(
        first.oldLine,
        `removes ${removedCases.length - addedCases} test case(s) (first at line ${first.oldLine} of the old file: \`${truncate(first.text, 60)}\`)`,
      ),
    );
  }
  return out;
}

export const weakenedTests: Rule = {
  id: "weakened-tests",
  enabled: (c) => c.weakenedTests.enabled,
  check({ patch, config, isTestFile }) {
    const out: Violation[] = [];
    for (const file of patch.files) {
      const paths = [file.oldPath, file.newPath].filter((p): p is string => p !== null);
      if (!paths.some(isTestFile)) continue;
      if (paths.some((p) => matchesAny(["**/__snapshots__/**", "**/*.snap"], p)) && file.hunks.length > 0) {
        out.push({
          rule: "weakened-tests",
          file: file.path,
          line: null,
          message: "changes recorded snapshots (expected values)",
        });
        continue;
      }
      out.push(...checkFile(file, config.weakenedTests.maxRemovedAssertions));
    }
    return out;
  },
};
