/**
 * shunit2 (shell unit tests) console output. shunit2 prints each test function's name on its own line as it runs it
 * (`test_logs_are_propagated`), then the test's own output; a failed assertion prints `ASSERT:message` (the `_ASSERT_*_`
 * macros `ASSERT:[12] message`), a test that returned non-zero `shunit2:ERROR test_x() returned non-zero return code.`;
 * the run ends in `Ran N tests.` and `OK` or `FAILED (failures=N)`.
 *
 * An `ASSERT:` line fails the test whose name line is the last one above it; these count only in a log holding
 * shunit2's own marks (a `shunit2:` line, or `Ran N tests.` with a `FAILED (` line under it) and not when the run's
 * closing line is `OK`: each run closes with its `Ran N tests.` and `OK`/`FAILED (…)` lines, so a later run's `OK`
 * does not hide an earlier run's failures. A later run that prints a failed test's name line again and does not fail it
 * (a CI retry of the same script) passed it: the last run's verdict is the test's, and the retry's `Ran N tests.` counts
 * only the tests no earlier run printed (a test run twice is counted once). The id is the function's name as printed (what `shunit2 -- NAME` selects); no place (shunit2
 * prints no file).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

/** shunit2 runs the functions whose names start with `test` (its own discovery). */
const NAME = /^(test\w*)$/;
const ASSERT = /^ASSERT:(.*)$/;
const RETURNED = /^shunit2:ERROR (\w+)\(\) returned non-zero return code\.$/;
const MARK = /^shunit2:(?:ERROR|WARN|FATAL|INFO|DEBUG) /;
const RAN = /^Ran (\d+) tests?\.$/;
const FAILED = /^FAILED \((?:failures|errors)=\d+.*\)$/;

export function createShunit2Parser(sink: ParserSink) {
  let name: string | null = null;
  let confirmed = false;
  /** The current run's `Ran N tests.` count, until its closing `OK`/`FAILED (…)` line. */
  let ran: number | null = null;
  /** The tests counted by the runs closed before. */
  let ranTotal: number | null = null;
  type Failed = { message: string; lineNo: number; end: number };
  /** The current run's failed tests. */
  let failed = new Map<string, Failed>();
  /** The failed tests of the runs closed `FAILED (…)` before it. */
  const kept = new Map<string, Failed>();
  /** The tests the current run printed the name line of. */
  let ranNames = new Set<string>();
  /** The tests the runs closed before printed the name line of: a retry's `Ran N tests.` counts them again. */
  const seen = new Set<string>();

  function fail(test: string, message: string, lineNo: number): void {
    const f = failed.get(test);
    if (f) f.end = lineNo;
    else if (failed.size < 10_000) failed.set(own(test), { message: own(message), lineNo, end: lineNo });
  }

  /** Closes the current run: its failures are kept unless it closed `OK`. */
  function close(green: boolean, closed = true): void {
    // A test this run ran and did not fail passed in it (once the run closed: a log cut inside it says nothing of the
    // tests it had not finished): an earlier run's failure of it was retried away.
    if (closed) for (const test of ranNames) if (green || !failed.has(test)) kept.delete(test);
    if (!green) for (const [test, f] of failed) if (!kept.has(test) && kept.size < 10_000) kept.set(test, f);
    // A retry runs the same tests again: its count adds only the tests no earlier run printed, so a test run twice is
    // one test (its last verdict), not two passes.
    let again = 0;
    for (const test of ranNames) {
      if (seen.has(test)) again++;
      else if (seen.size < 10_000) seen.add(test);
    }
    failed = new Map();
    ranNames = new Set();
    if (ran !== null) ranTotal = (ranTotal ?? 0) + Math.max(0, ran - again);
    ran = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      // Quick reject: shunit2's lines open with `t` (a name), `A` (ASSERT), `s` (shunit2:), `R` (Ran), `F`/`O`.
      if (c0 !== 116 && c0 !== 65 && c0 !== 115 && c0 !== 82 && c0 !== 70 && c0 !== 79) return false;
      const n = NAME.exec(text);
      if (n) {
        name = n[1]!;
        if (ranNames.size < 10_000) ranNames.add(own(name));
        return false;
      }
      const a = ASSERT.exec(text);
      if (a) {
        if (name === null) return false;
        fail(name, a[1]!.replace(/^\[\d+\] /, "").trim() || "ASSERT", lineNo);
        return true;
      }
      const r = RETURNED.exec(text);
      if (r) {
        confirmed = true;
        fail(r[1]!, "returned non-zero return code", lineNo);
        return true;
      }
      if (MARK.test(text)) {
        confirmed = true;
        return true;
      }
      const ranLine = RAN.exec(text);
      if (ranLine) {
        ran = Number(ranLine[1]);
        return true;
      }
      if (ran !== null && FAILED.test(text)) {
        confirmed = true;
        close(false);
        return true;
      }
      if (ran !== null && text === "OK") {
        close(true);
        return true;
      }
      return false;
    },
    end(): void {
      close(false, false);
      if (!confirmed) return;
      for (const [test, f] of kept) {
        sink.test(test, "failed");
        sink.failure({ category: "test", test, message: f.message, start: f.lineNo, end: f.end });
      }
      if (ranTotal !== null) sink.summary({ passed: Math.max(0, ranTotal - kept.size), failed: kept.size });
    },
  };
}

export const shunit2Format: FormatDefinition = {
  name: "shunit2",
  description:
    "shunit2 (shell) console output: test name lines, `ASSERT:` lines, `shunit2:ERROR`, `Ran N tests.`",
  create: createShunit2Parser,
};
