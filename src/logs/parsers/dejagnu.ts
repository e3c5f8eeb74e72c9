/**
 * DejaGnu's `runtest` (GCC, binutils, GDB, libffi: `make check` of a GNU toolchain project). It heads each test
 * script with `Running ../../testsuite/libffi.call/call.exp ...`, prints a result line per test outcome,
 * `FAIL: libffi.call/closure.c -O2 execution test` (the console shows the failing ones; the `.sum` file every one,
 * `PASS:` too), and closes a tool's run with its summary: `=== libffi Summary ===` then rows
 * `# of expected passes		1630`, `# of unexpected failures	5`.
 *
 * `FAIL: x` is a common shape (automake's harness, nose's and Dart's old unittest's headers), so a result line is
 * DejaGnu's only when DejaGnu's own lines place it: below a `Running …/x.exp ...` line of a run whose summary has not
 * ended yet (those lines are claimed: no later format reads them), or in the unbroken run of result lines right
 * above a summary head with its `# of` rows (a paste of the end of a run). Anything else is left to the others.
 *
 * FAIL (an unexpected failure) and XPASS (an unexpected success) fail the run; XFAIL, KFAIL, UNSUPPORTED, UNTESTED
 * and UNRESOLVED are not failures here. The id is the whole text after `FAIL: `, the test file and the variant
 * (flags, phase) as DejaGnu prints them (docs/test-ids.md): the same file run with other flags is another test.
 * A result line that is the log's last line, with no summary after it, may be cut inside its name (a paste cut
 * there): nothing shows the name is whole, so it names no test (as a cut nose header).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RUNNING = /^Running (?:\S.*)?\S\.exp \.\.\.\s*$/;
const RESULT = /^(PASS|FAIL|XPASS|XFAIL|KFAIL|KPASS|UNRESOLVED|UNTESTED|UNSUPPORTED): (\S.*)$/;
const SUMMARY_HEAD = /^\s*=== \S.* Summary(?: for \S+)? ===\s*$/;
const ROW =
  /^# of (expected passes|unexpected failures|unexpected successes|expected failures|unresolved testcases|untested testcases|unsupported tests|known failures|unknown successes|paths in test names|duplicate test names|warnings|errors)\s+(\d+)\s*$/;
const FAILING = new Set(["FAIL", "XPASS"]);
const MAX = 10_000;

interface Result {
  status: string;
  name: string;
  text: string;
  lineNo: number;
}

export function createDejagnuParser(sink: ParserSink) {
  /** Below a `Running …exp ...` line, until the summary's rows end. */
  let inRun = false;
  /** A summary head was read and its rows are being read (or awaited). */
  let summary: Map<string, number> | null = null;
  let summaryHead = 0;
  /** Result lines of the current run (claimed), and unplaced ones right above where a summary may follow. */
  const placed: Result[] = [];
  let loose: Result[] = [];
  const reported = new Set<string>();
  let lastText = 0;

  function report(r: Result): void {
    if (reported.has(`${r.status}\0${r.name}`) || reported.size >= MAX) return;
    reported.add(`${r.status}\0${r.name}`);
    if (!FAILING.has(r.status)) {
      if (r.status === "PASS") sink.test(r.name, "passed");
      return;
    }
    sink.test(r.name, "failed");
    sink.failure({
      category: "test",
      test: r.name,
      file: null,
      line: null,
      errorType: r.status === "XPASS" ? "unexpected success" : null,
      message: r.text,
      stack: null,
      start: r.lineNo,
      end: r.lineNo,
    });
  }

  function flushResults(): void {
    for (const r of placed) report(r);
    placed.length = 0;
  }

  function closeSummary(): void {
    if (!summary) return;
    const s = summary;
    summary = null;
    if (s.size === 0) return;
    const n = (k: string) => s.get(k) ?? 0;
    sink.summary({
      passed: n("expected passes") + n("expected failures") + n("known failures"),
      failed: n("unexpected failures") + n("unexpected successes"),
      skipped: n("unsupported tests") + n("untested testcases"),
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      // Blank: trimmed only when it opens with white space (most lines do not).
      const blank = text.length === 0 || (c0 <= 32 && text.trim() === "");
      if (!blank) lastText = lineNo;
      if (summary) {
        if (c0 === 35 /* # */) {
          const row = ROW.exec(text);
          if (row) {
            if (summary.size === 0) {
              // The head's rows confirm the result lines right above it.
              for (const r of loose) placed.push(r);
              loose = [];
              flushResults();
            }
            summary.set(row[1]!, Number(row[2]));
            return true;
          }
        }
        if (blank && (summary.size === 0 ? lineNo - summaryHead <= 2 : true)) return false;
        // The rows ended (a version line, `runtest completed at …`): the run is over.
        closeSummary();
        inRun = false;
      }
      if (c0 === 82 /* R */ && RUNNING.test(text)) {
        inRun = true;
        loose = [];
        return true;
      }
      if ((c0 === 32 || c0 === 9 || c0 === 61) && SUMMARY_HEAD.test(text)) {
        flushResults();
        summary = new Map();
        summaryHead = lineNo;
        return inRun;
      }
      const r = c0 >= 70 && c0 <= 88 ? RESULT.exec(text) : null;
      if (r) {
        const res = { status: r[1]!, name: own(r[2]!.trim()), text: own(text.trim()), lineNo };
        if (inRun) {
          if (placed.length < MAX) placed.push(res);
          return true;
        }
        if (loose.length < MAX) loose.push(res);
        return false;
      }
      if (!blank && loose.length > 0) loose = [];
      return false;
    },
    end(): void {
      if (summary) closeSummary();
      // A run cut before its summary: its last result line may be the log's cut last line.
      const last = placed[placed.length - 1];
      if (last && last.lineNo === lastText) placed.pop();
      flushResults();
    },
  };
}

export const dejagnuFormat: FormatDefinition = {
  name: "dejagnu",
  description: "DejaGnu runtest: FAIL:/XPASS: lines under `Running …exp ...` or above `=== tool Summary ===`",
  create: createDejagnuParser,
};
