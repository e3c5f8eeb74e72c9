/**
 * Automake's test harness (`make check`). Its console prints one result line per test, `PASS: name`, `FAIL: name`,
 * `XFAIL:`, `XPASS:`, `SKIP:`, `ERROR:` (a TAP test's lines add ` N - description`), then the parallel harness's
 * `Testsuite summary for pkg x.y` box (`# TOTAL: 6`, `# PASS:  5`, … `# ERROR: 0`) or the serial harness's
 * `1 of 1 test failed` / `All 5 tests passed` between `=` rules. The driver script's own line about a test killed
 * by a signal (`./test-driver: line 107: … Aborted`) confirms it too. A test's own log (`tests/x.log`, `cat`ed by CI)
 * ends with the driver's `FAIL name (exit status: 1)`; test-suite.log heads each section with `FAIL: name` and a
 * `=` rule.
 *
 * `FAIL: x` is a common shape (unittest's `FAIL: test_x (mod.Class)`, nose's dotted names, Bazel's `FAIL: //…`):
 * a result line is automake's only when automake's own lines confirm it — the summary box, the serial box, or a
 * driver trailer — and a name with ` (` after it (unittest), or a label (`//`), is never one. Result lines are not
 * claimed: until confirmed they stay every later format's.
 *
 * The id is the test name as printed (`testcache.sh`, `test/check_checkmk`), what `make check TESTS=…` takes
 * (docs/test-ids.md). XPASS and ERROR fail the run as FAIL does; XFAIL is an expected failure, no failure.
 *
 * glibc's `make check` prints the same result lines (`FAIL: nss/tst-nss-files-hosts-long`, `UNSUPPORTED: …`) and
 * closes with its own count, `Summary of test results:` then rows `      2 FAIL`, `   5073 PASS`: that head with a
 * count row right under it confirms the result lines as automake's boxes do. glibc fails the run on FAIL and ERROR
 * only (its summary lists XPASS without failing), so under glibc's count alone an `XPASS:` line is no failure. The id
 * is the name as printed (`stdlib/tst-system`), what glibc's `make test t=…` takes.
 *
 * A serial harness prints the test's own output above its result line: a located error in it (a C library's
 * `check_pack.c:346: Error in call to fread`) is that test's output, so the failure's span reaches back to make's
 * `Entering directory` line (or the previous result line), and the fallback's reading of it repeats this failure.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const RESULT = /^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): (\S+)(?: (.*))?$/;
/**
 * libtool's wrapper: a test program linked against the package's own shared library is built as `.libs/lt-NAME`
 * (`.libs/NAME` without fast-install) and run by the wrapper script `NAME` one directory up, which is the test
 * `make check TESTS=…` takes; a harness that prints the program's path names the binary. The directory stays.
 */
const LIBTOOL_BINARY = /(^|\/)\.libs\/(?:lt-)?([^/]+)$/;
function testName(printed: string): string {
  return printed.replace(LIBTOOL_BINARY, "$1$2");
}

const TRAILER = /^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR) (\S+) \(exit status: (\d+)\)$/;
const SUMMARY_HEAD = /^Testsuite summary for \S/;
const HEADING_RESULT = /^# (PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): ([^\s(]+)\s*$/;
const SUMMARY_ROW = /^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR): +(\d+)\s*$/;
const BOX =
  /^(?:(\d+) of (\d+) tests? (?:failed|did not pass|did not behave as expected)|All (\d+) tests? (?:passed|behaved as expected))\b/;
const MAKE_ENTER = /^make(?:\[\d+\])?: Entering directory |^make\b.*\bcheck(?:-TESTS|-am)?\s*$/;
/**
 * The parallel harness's driver script reporting a test that died by a signal (`./test-driver: line 107: 10914 Aborted
 * (core dumped) "$@" > $log_file 2>&1`): automake's own line, so it confirms the result lines around it.
 */
const DRIVER = /^(?:\S*\/)?test-driver: line \d+: /;
const FAILING = new Set(["FAIL", "XPASS", "ERROR"]);
/**
 * make's error on one of automake's own check targets (`make[2]: *** [Makefile:1046: check-TESTS] Error 1`,
 * `make: *** [test-suite.log] Error 1`): the harness failed the run, so its result lines above are automake's even
 * when the summary box was cut away. Only the targets that run the harness: `check-am` and `check-recursive` also
 * fail for a `check-local` of any other tool (autotest's `ERROR: 148 tests were run,` is no result line).
 */
const MAKE_CHECK_ERROR =
  /^make(?:\[\d+\])?: \*\*\* \[(?:[^\]]*: )?(?:check-TESTS|test-suite\.log|recheck)\] Error \d+/;
/**
 * cmp's or diff's report that two files differ (`out/x.out test/x.out differ: byte 96, line 4`, `Files a and b
 * differ`): a Makefile's own check printing `FAIL: x.out` right under it failed that comparison.
 */
const CMP_DIFFER = /^(?:(\S+) (\S+) differ: (?:byte|char) \d+, line \d+|Files (\S+) and (\S+) differ)$/;
const GLIBC_HEAD = /^Summary of test results:\s*$/;
const GLIBC_ROW = /^\s+(\d+) (FAIL|PASS|UNSUPPORTED|XFAIL|XPASS|ERROR)\s*$/;
const GLIBC_FAILING = new Set(["FAIL", "ERROR"]);
const MAX = 10_000;
/**
 * glibc's failed `assert` (`lt-test_x: tests/test_x.cpp:48: int main(): Assertion `rc == 0' failed.`), the program's
 * name, then the source file and line the compiler's `__FILE__` names.
 */
const ASSERT_FAILED =
  /^[^\s:]+: ([^\s:]+\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp)):(\d+): .*Assertion `.*' failed\.\s*$/;
/**
 * The Check unit-test library's failure line (`check_tree.c:63:F:testcase:test_compile:0: Failure 'x' occured`, `E`
 * for an error): the source file and line, the test case, the test function and the loop iteration.
 */
const CHECK_FAILED = /^([^\s:]+\.(?:c|cc|cpp|cxx|h)):(\d+):[FE]:[^:\s]*:[^:\s]+:\d+: /;
/** How far back a serial test's output may reach above its result line. */
const SPAN = 2_000;

interface Held {
  name: string;
  /** A `FAIL: name` right under cmp's report on a file of that name (see CMP_DIFFER): a failure by itself. */
  compared?: boolean;
  /** A test-suite.log section's head (`FAIL: name` with a `=` rule right under it). */
  section?: boolean;
  status: string;
  message: string;
  start: number;
  end: number;
  /** The first failed `assert` in a test-suite.log section's output: the test's place. */
  file?: string;
  line?: number;
}

/** A held failure's place, when its section's output gave one. */
const placeOf = (h: Held): { file?: string; line?: number | null } =>
  h.file === undefined ? {} : { file: h.file, line: h.line ?? null };

export function createAutomakeParser(sink: ParserSink) {
  const results: Held[] = [];
  const failures = new Map<string, Held>();
  let confirmed = false;
  /** glibc's `Summary of test results:` count confirmed the result lines (and the line number of its head). */
  let glibc = false;
  let glibcHead = 0;
  const glibcRows = new Map<string, number>();
  /** The last line of automake's own (a result line, a trailer, the summary), and of make entering a directory. */
  let lastOwn = 0;
  let lastMake = 0;
  let prevRule = false;
  let inSummary = false;
  const rows = new Map<string, number>();
  let lastResult: Held | null = null;
  /** The files of cmp's `differ` report on the line before, or null. */
  let differ: { names: string[]; lineNo: number } | null = null;

  function hold(h: Held): void {
    const seen = failures.get(h.name);
    if (seen) {
      seen.start = Math.min(seen.start, h.start);
      seen.end = Math.max(seen.end, h.end);
      return;
    }
    if (failures.size < MAX) failures.set(h.name, h);
  }

  function flushSummary(): void {
    if (!inSummary) return;
    inSummary = false;
    // A box cut after its head (`Testsuite summary for x`, then nothing of `# TOTAL:` …) counts nothing: no zeros
    // that would read as a run with no failure.
    if (rows.size === 0) return;
    const n = (k: string) => rows.get(k) ?? 0;
    sink.summary({
      passed: n("PASS") + n("XFAIL"),
      failed: n("FAIL") + n("XPASS"),
      error: n("ERROR"),
      skipped: n("SKIP"),
    });
    rows.clear();
  }

  function flushGlibc(): void {
    if (glibcRows.size === 0) return;
    const n = (k: string) => glibcRows.get(k) ?? 0;
    sink.summary({
      passed: n("PASS") + n("XFAIL") + n("XPASS"),
      failed: n("FAIL"),
      error: n("ERROR"),
      skipped: n("UNSUPPORTED"),
    });
    glibcRows.clear();
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      // A test-suite.log section's output (after `FAIL: name` and its rule): its first failed assert places it. A
      // path that leaves the build directory (`../`) or stays a machine's is no repository path.
      if (
        lastResult?.section &&
        lastResult.file === undefined &&
        (text.includes("Assertion `") || text.includes(":F:") || text.includes(":E:"))
      ) {
        const a = ASSERT_FAILED.exec(text) ?? CHECK_FAILED.exec(text);
        const f = a ? sink.path(a[1]!) : null;
        if (a && f && !f.startsWith("../") && !f.startsWith("/") && !/^[A-Za-z]:/.test(f)) {
          lastResult.file = f;
          lastResult.line = Number(a[2]);
        }
      }
      if (glibcHead > 0) {
        const g = c0 === 32 ? GLIBC_ROW.exec(text) : null;
        if (g && (glibcHead === lineNo - 1 || glibcRows.size > 0)) {
          glibc = true;
          glibcRows.set(g[2]!, Number(g[1]));
          lastOwn = lineNo;
          return true;
        }
        glibcHead = 0;
        flushGlibc();
      }
      if (c0 === 83 /* S */ && GLIBC_HEAD.test(text)) {
        glibcHead = lineNo;
        return false;
      }
      const rule = c0 === 61 /* = */ && text.length >= 8 && /^=+$/.test(text);
      const wasRule = prevRule;
      prevRule = rule;
      if (rule) {
        if (lastResult && lastResult.end === lineNo - 1) lastResult.section = true;
        return false;
      }
      if (c0 === 35 /* # */) {
        const r = SUMMARY_ROW.exec(text);
        if (!r) {
          // test-suite.log rendered as markdown: a section's head and its `=` rule became a heading (`# FAIL: name`).
          // Read only once the log's own summary rows (`# TOTAL: 1`, the same rendering) confirmed the harness.
          const hr = confirmed ? HEADING_RESULT.exec(text) : null;
          if (!hr) return false;
          const h: Held = {
            name: testName(hr[2]!),
            status: hr[1]!,
            message: text.slice(2),
            start: lineNo,
            end: lineNo,
            section: true,
          };
          lastResult = h;
          lastOwn = lineNo;
          if (results.length < MAX) results.push(h);
          return true;
        }
        if (r[1] === "TOTAL") {
          inSummary = true;
          confirmed = true;
        }
        if (!inSummary) return false;
        rows.set(r[1]!, Number(r[2]));
        lastOwn = lineNo;
        if (r[1] === "ERROR") flushSummary();
        return true;
      }
      if (c0 === 84 /* T */ && SUMMARY_HEAD.test(text)) {
        inSummary = true;
        confirmed = true;
        lastOwn = lineNo;
        return true;
      }
      // The serial harness's box sits under a rule right below the last result line (an earlier format may have
      // claimed the rule: two lines below a result line does too).
      if (
        (wasRule || (lastOwn > 0 && lastOwn === lineNo - 2)) &&
        (c0 === 65 /* A */ || (c0 >= 48 && c0 <= 57))
      ) {
        const b = BOX.exec(text);
        if (b) {
          confirmed = true;
          lastOwn = lineNo;
          const failed = b[1] !== undefined ? Number(b[1]) : 0;
          const total = Number(b[2] ?? b[3]);
          sink.summary({ failed, passed: total - failed });
          return true;
        }
      }
      if ((c0 === 46 /* . */ || c0 === 47 /* / */ || c0 === 116) /* t */ && DRIVER.test(text)) {
        confirmed = true;
        return false;
      }
      if (c0 === 109 /* m */) {
        if (MAKE_ENTER.test(text)) lastMake = lineNo;
        else if (MAKE_CHECK_ERROR.test(text)) confirmed = true;
        return false;
      }
      if (text.endsWith(" differ") || text.includes(" differ: ")) {
        const d = CMP_DIFFER.exec(text);
        if (d) {
          const names = [d[1] ?? d[3]!, d[2] ?? d[4]!];
          differ = { names: names.flatMap((n) => [n, n.slice(n.lastIndexOf("/") + 1)]), lineNo };
        }
        return false;
      }
      if (!(c0 === 80 || c0 === 70 || c0 === 88 || c0 === 83 || c0 === 69)) return false;
      const t = text.endsWith(")") ? TRAILER.exec(text) : null;
      if (t) {
        confirmed = true;
        const name = testName(t[2]!);
        // test-suite.log heads a test's section with its log's name, which is the test's name without its extension
        // (`FAIL: tests/x` for `tests/x.test`, whose log is `tests/x.log`): the driver's trailer names the test.
        if (
          lastResult?.section &&
          lastResult.name !== name &&
          name.replace(/\.[^./]+$/, "") === lastResult.name
        ) {
          const at = results.lastIndexOf(lastResult);
          if (at >= 0) results.splice(at, 1);
          lastResult.name = name;
        }
        if (FAILING.has(t[1]!)) {
          // test-suite.log heads the section with `FAIL: name` (and a rule): the test's output starts there.
          const own = lastResult?.name === name ? lastResult : null;
          const start = own ? own.end : lastOwn > 0 ? lastOwn + 1 : lineNo;
          hold({
            name,
            status: t[1]!,
            message: `${t[1]} ${t[2]} (exit status: ${t[3]})`,
            start,
            end: lineNo,
            ...(own?.file !== undefined ? { file: own.file, line: own.line } : {}),
          });
        } else
          results.length < MAX &&
            results.push({ name, status: t[1]!, message: "", start: lineNo, end: lineNo });
        lastResult = null;
        lastOwn = lineNo;
        return true;
      }
      const m = RESULT.exec(text);
      if (!m) return false;
      const name = testName(m[2]!);
      const rest = m[3] ?? "";
      if (rest.startsWith("(") || name.includes("//") || name.endsWith(":")) return false;
      const from = Math.max(lastOwn, lastMake);
      const h: Held = {
        name,
        status: m[1]!,
        message: text,
        start: from > 0 ? Math.max(from === lastMake ? lastMake : lastOwn + 1, lineNo - SPAN) : lineNo,
        end: lineNo,
      };
      if (
        h.status === "FAIL" &&
        differ !== null &&
        differ.lineNo === lineNo - 1 &&
        differ.names.includes(name)
      ) {
        h.compared = true;
        h.start = differ.lineNo;
      }
      lastResult = h;
      lastOwn = lineNo;
      if (results.length < MAX) results.push(h);
      return false;
    },
    end(): void {
      // Every held failure as a failed test with its place; `ERROR` results as errors when the run's own status
      // words are trusted (a confirmed harness or glibc's).
      const emitFailures = (errors: boolean) => {
        for (const f of failures.values()) {
          sink.test(f.name, errors && f.status === "ERROR" ? "error" : "failed");
          sink.failure({
            category: "test",
            test: f.name,
            ...placeOf(f),
            message: f.message,
            start: f.start,
            end: f.end,
          });
        }
      };
      flushSummary();
      flushGlibc();
      if (!confirmed && !glibc) {
        for (const r of results) if (r.compared) hold(r);
        emitFailures(false);
        return;
      }
      const failing = confirmed ? FAILING : GLIBC_FAILING;
      for (const r of results) {
        if (failing.has(r.status)) hold(r);
        else if (!failures.has(r.name)) sink.test(r.name, r.status === "SKIP" ? "skipped" : "passed");
      }
      emitFailures(true);
    },
  };
}

export const automakeFormat: FormatDefinition = {
  name: "automake",
  description: "automake's test harness (make check): PASS:/FAIL: result lines, the Testsuite summary box",
  create: createAutomakeParser,
};
