/**
 * GoogleTest's console output and CTest's around it. GoogleTest prints `[ RUN      ] Suite.Test`, the test's
 * output and assertion failures (`tests/x.cc:12: Failure`, MSVC `tests\x.cc(12): error: …`, `unknown file: Failure`
 * for an exception), then `[       OK ] Suite.Test (3 ms)` or `[  FAILED  ] Suite.Test[, where GetParam() = …] (3 ms)`;
 * `[ DISABLED ]`/`[  SKIPPED ]` tests; the `[  PASSED  ] N tests.` / `[  FAILED  ] N tests, listed below:` summary.
 * The id is GoogleTest's own full name, `Suite.Test` (`Prefix/Suite.Test/3` for a parameterized one), as
 * `--gtest_filter` takes it (docs/test-ids.md).
 *
 * CTest (`The following tests FAILED:` then `\t  1 - ring_test (Failed)`) names the test executables that failed;
 * such an entry is a failure of its own only when no GoogleTest failure was read in that executable's output
 * (`ctest --output-on-failure` prints it after the test's result line).
 */
import { BlockBuffer, type FormatDefinition, type ParserSink } from "../parser.ts";

const RUN = /^\[ RUN {6}\] (\S+)$/;
const OK = /^\[ {7}OK \] (\S+) \(\d+ ms\)$/;
const FAILED = /^\[ {2}FAILED {2}\] (\S+?)(?:, where .*)? \(\d+ ms\)$/;
const LISTED = /^\[ {2}FAILED {2}\] ([\w/]+\.[\w/]+)(?:, where .*)?$/;
const SKIPPED = /^\[ (?:DISABLED | {2}SKIPPED )\] (\S+)(?: \(\d+ ms\))?$/;
const PASSED_COUNT = /^\[ {2}PASSED {2}\] (\d+) tests?\.$/;
const FAILED_COUNT = /^\[ {2}FAILED {2}\] (\d+) tests?, listed below:$/;
const WHERE = /^(.+?):(\d+): (?:Failure|error: )|^(.+?)\((\d+)\): error: /;
const CTEST_RESULT = /^\s*\d+\/\d+ Test +#\d+: (\S+) \.+ *(\S.*?)?(?: +[\d.]+ sec)?$/;
// A paste may indent CTest's closing lines (a reporter's one space before each): the heading and its closing line too.
const CTEST_FAILED_HEAD = /^[ \t]*The following tests FAILED:\s*$/;
// Under its heading an entry may have lost its indentation (a paste); without the heading (cut above the excerpt) a
// run of entries is CTest's when its own `Errors while running CTest` follows it.
const CTEST_ENTRY = /^\s*\d+ - (\S+) \(([^)]+)\)$/;
const CTEST_ERRORS = "Errors while running CTest";
const CTEST_COUNT = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/;

export function createGtestParser(sink: ParserSink) {
  let current: { id: string; buf: BlockBuffer } | null = null;
  /** Failures read from GoogleTest's lines, by id (a summary list entry adds none when its block was read). */
  const reported = new Set<string>();
  let listing = false;
  /** The CTest test whose output is being printed, and the ones whose output held a GoogleTest failure. */
  let ctestCurrent: string | null = null;
  const ctestWithFailures = new Set<string>();
  let ctestList = false;
  /** Entries read under the current `The following tests FAILED:` heading. */
  let ctestListEntries = 0;
  const ctestFailed: { name: string; status: string; lineNo: number }[] = [];
  const ctestFailedNames = new Set<string>();
  /** Entries read with no heading above them, and the line the run of them reached. */
  const unheaded: { name: string; status: string; lineNo: number }[] = [];
  let unheadedEnd = 0;

  function addCtestFailure(name: string, status: string, lineNo: number): void {
    if (ctestFailedNames.has(name) || ctestFailed.length >= 10_000) return;
    ctestFailedNames.add(name);
    ctestFailed.push({ name, status, lineNo });
  }

  function fail(id: string, buf: BlockBuffer | null, lineNo: number): void {
    const lines = buf ? buf.lines.slice(1) : [];
    let file: string | null = null;
    let line: number | null = null;
    const message: string[] = [];
    let collecting = false;
    for (const l of lines) {
      if (l.startsWith("[  FAILED  ]")) continue;
      const w = WHERE.exec(l);
      if (w) {
        if (file === null) {
          file = sink.path((w[1] ?? w[3])!);
          line = Number(w[2] ?? w[4]);
        }
        collecting = true;
        const rest = l.slice(w[0].length).trim();
        if (rest && message.length < 20) message.push(rest);
        continue;
      }
      if (l === "unknown file: Failure") {
        collecting = true;
        continue;
      }
      if (collecting && message.length < 20) message.push(l);
    }
    const text = message.join("\n").trim();
    sink.test(id, "failed", file);
    sink.failure({
      category: "test",
      test: id,
      file,
      line,
      errorType: /^C\+\+ exception/.test(text) ? "exception" : null,
      message: text || id,
      stack: buf ? buf.text() : null,
      start: buf?.start ?? lineNo,
      end: lineNo,
    });
    reported.add(id);
    if (ctestCurrent !== null) ctestWithFailures.add(ctestCurrent);
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      if (c0 === 91 /* [ */) {
        const run = RUN.exec(text);
        if (run) {
          current = { id: run[1]!, buf: new BlockBuffer() };
          current.buf.push(text, lineNo);
          listing = false;
          return true;
        }
        const ok = OK.exec(text);
        if (ok) {
          sink.test(ok[1]!, "passed");
          current = null;
          return true;
        }
        const f = FAILED.exec(text);
        if (f && (current?.id === f[1] || current === null)) {
          current?.buf.push(text, lineNo);
          fail(f[1]!, current?.buf ?? null, lineNo);
          current = null;
          return true;
        }
        const s = current === null ? SKIPPED.exec(text) : null;
        if (s) {
          sink.test(s[1]!, "skipped");
          return true;
        }
        const pc = PASSED_COUNT.exec(text);
        if (pc && current === null) {
          sink.summary({ passed: Number(pc[1]), failed: 0 });
          return true;
        }
        const fc = FAILED_COUNT.exec(text);
        if (fc && current === null) {
          sink.summary({ failed: Number(fc[1]) });
          listing = true;
          return true;
        }
        if (listing) {
          const l = LISTED.exec(text);
          if (l) {
            if (!reported.has(l[1]!)) fail(l[1]!, null, lineNo);
            return true;
          }
        }
      }
      if (current) {
        current.buf.push(text, lineNo);
        return true;
      }
      listing = false;
      if (unheaded.length > 0 && unheadedEnd !== lineNo) {
        if (unheadedEnd === lineNo - 1 && text.trim() === CTEST_ERRORS) {
          for (const e of unheaded) addCtestFailure(e.name, e.status, e.lineNo);
          unheaded.length = 0;
          return true;
        }
        if (unheadedEnd !== lineNo - 1 || !CTEST_ENTRY.test(text)) unheaded.length = 0;
      }
      // A paste (Travis' log view) may put a blank line between the heading and its first entry.
      if (ctestList && ctestListEntries === 0 && text.trim() === "") return false;
      // CTest: its lines open with a space, a tab, a digit or `The following`; most log lines are rejected here.
      if (!((c0 === 32 || c0 === 9 || (c0 >= 48 && c0 <= 57) || c0 === 84) /* T */)) {
        ctestList = false;
        return false;
      }
      const r = text.includes(" Test ") ? CTEST_RESULT.exec(text) : null;
      if (r) {
        ctestCurrent = r[1]!;
        // `***Failed`, `***Timeout`, `***Exception: SegFault`, `Subprocess aborted***Exception:`, `***Not Run`: the
        // entry failed, whether or not the `The following tests FAILED:` list that repeats it made it into the log.
        // `***Skipped` and `(Disabled)` are no failures; a line cut before its status says nothing.
        const status = r[2];
        if (status === "Passed") sink.test(r[1]!, "passed");
        else if (status === "***Skipped" || status === "(Disabled)") sink.test(r[1]!, "skipped");
        else if (status !== undefined) addCtestFailure(r[1]!, status.replace(/^\*+/, ""), lineNo);
        return true;
      }
      if (CTEST_FAILED_HEAD.test(text)) {
        ctestList = true;
        ctestListEntries = 0;
        return true;
      }
      if (ctestList) {
        const e = CTEST_ENTRY.exec(text);
        if (e) {
          ctestListEntries++;
          addCtestFailure(e[1]!, e[2]!, lineNo);
          return true;
        }
        ctestList = false;
      }
      if (c0 === 32 || c0 === 9 || (c0 >= 48 && c0 <= 57)) {
        const e = text.includes(" - ") ? CTEST_ENTRY.exec(text) : null;
        // `(Disabled)`/`(Skipped)` entries are the `did not run` list's, no failures.
        if (e && e[2] !== "Disabled" && e[2] !== "Skipped") {
          if (unheaded.length < 10_000) unheaded.push({ name: e[1]!, status: e[2]!, lineNo });
          unheadedEnd = lineNo;
          return false;
        }
      }
      const cc = text.includes("% tests passed") ? CTEST_COUNT.exec(text) : null;
      if (cc) {
        ctestCurrent = null;
        sink.summary({ failed: Number(cc[1]), passed: Number(cc[2]) - Number(cc[1]) });
        return true;
      }
      return false;
    },
    end(): void {
      // A test cut before its result line (a crash, a timeout, a log cut short) is not taken as failed here: the
      // runner around it (CTest) says so.
      current = null;
      for (const e of ctestFailed) {
        if (ctestWithFailures.has(e.name) || reported.has(e.name)) continue;
        sink.test(e.name, "failed");
        sink.failure({
          category: "test",
          test: e.name,
          message: `${e.name} (${e.status})`,
          start: e.lineNo,
          end: e.lineNo,
        });
      }
    },
  };
}

export const gtestFormat: FormatDefinition = {
  name: "gtest",
  description: "GoogleTest console output ([ RUN ] / [  FAILED  ] lines) and CTest's failed-test list",
  create: createGtestParser,
};
