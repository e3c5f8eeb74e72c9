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
 * (`ctest --output-on-failure` prints it after the test's result line), nor a whole Catch2 failure block (its
 * closing rule of dots right after a rule and a place line, then a `file:N: FAILED:` line): the Catch2 format reports
 * that test case, and the entry would repeat it.
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
// A test's name may hold spaces (`add_test(NAME "Single Threaded Multi Query" …)`): it ends before the dots.
const CTEST_RESULT = /^\s*\d+\/\d+ Test +#\d+: (\S(?:.*?\S)?) \.+ *(\S.*?)?(?: +[\d.]+ sec)?$/;
// A paste may indent CTest's closing lines (a reporter's one space before each): the heading and its closing line too.
const CTEST_FAILED_HEAD = /^[ \t]*The following tests FAILED:\s*$/;
// Under its heading an entry may have lost its indentation (a paste); without the heading (cut above the excerpt) a
// run of entries is CTest's when its own `Errors while running CTest` follows it.
// `\t%3d - name (status)`; the name may hold spaces, the status is the last parenthesized part.
const CTEST_ENTRY = /^\s*\d+ - (\S(?:.*?\S)?) \(([^()]+)\)$/;
/**
 * An entry cut inside its status (`\t  3 - Single Threaded Multi Ref. (SEGF`, a paste's or a log's end): the name
 * before ` (` is whole. Read only under the heading and only as the log's last line.
 */
const CTEST_CUT_ENTRY = /^\s*\d+ - (\S(?:.*?\S)?) \(([A-Za-z][\w ]*)$/;
const CTEST_ERRORS = "Errors while running CTest";
/** The shortest cut of CTest's closing line that still reads as it (`Errors`), when it is the log's last line. */
const CTEST_ERRORS_CUT_MIN = 6;
// A reporter may retype the count line inside markdown bold (`**93% test passed, 2 test failed out of 27`).
const CTEST_COUNT = /^(?:\*\*)?\d+% tests? passed, (\d+) tests? failed out of (\d+)(?:\*\*)?$/;
/**
 * `ctest -V`/`--output-on-failure` output: each line of test N's output behind `N: ` (`12: Test command: …`, `12:
 * prog: src/x.c:36: f: Assertion `a' failed.`). A list entry of that number whose name the output names is CTest's.
 */
const CTEST_OUTPUT = /^\s*(\d{1,5}): (\S.*)$/;
/** CTest's statuses of a failed test, as its list prints them (`(Timeout)`, `(SEGFAULT)`, `(Subprocess aborted)`). */
const CTEST_STATUS =
  /^(?:Failed|Timeout|SEGFAULT|Subprocess aborted|Child aborted|OTHER_FAULT|ILLEGAL|INTERRUPT|NUMERICAL|BUS_ERROR|CHILDSTATUS|Exception|Not Run|BAD_COMMAND)$/;
/** The C library's failed `assert` (`prog: src/x.c:36: func: Assertion `e' failed.`): the program, file and line. */
const C_ASSERT = /^([^\s:]+): ([^\s:]+\.(?:c|cc|cpp|cxx|h|hpp)):(\d+): .*Assertion `.*' failed\.\s*$/;
/**
 * Catch2's block (catch2.ts) as printed under a CTest entry: a rule of 79 dashes, the place the test case was
 * declared (`tests/x.cpp:12`, MSVC `tests\\x.cpp(12)`), a rule of 79 dots, then `tests/x.cpp:19: FAILED:`.
 */
const CATCH2_DASHES = "-".repeat(79);
const CATCH2_DOTS = ".".repeat(79);
const CATCH2_PLACE = /^\S.*(?::\d+|\(\d+\))$/;
const CATCH2_FAILED = /^\S.*?(?::\d+|\(\d+\)): FAILED:$/;
/** CTest's line between its count line and its lists. */
const CTEST_TIME = /^Total Test time \(real\) = /;

export function createGtestParser(sink: ParserSink) {
  let current: { id: string; buf: BlockBuffer } | null = null;
  /** Failures read from GoogleTest's lines, by id (a summary list entry adds none when its block was read). */
  const reported = new Set<string>();
  let listing = false;
  /** The CTest test whose output is being printed, and the ones whose output held a GoogleTest failure. */
  let ctestCurrent: string | null = null;
  const ctestWithFailures = new Set<string>();
  /**
   * A Catch2 block under the current CTest entry: `rule` after a rule of dashes, `place` after the place line right
   * under it, `body` after the rule of dots that follows (its `FAILED:` lines are Catch2's failures).
   */
  let catch2: "none" | "rule" | "place" | "body" = "none";
  let ctestList = false;
  /** Entries read under the current `The following tests FAILED:` heading. */
  let ctestListEntries = 0;
  const ctestFailed: { name: string; status: string; lineNo: number }[] = [];
  const ctestFailedNames = new Set<string>();
  /** Entries read with no heading above them, and the line the run of them reached. */
  const unheaded: { name: string; status: string; lineNo: number; no: number }[] = [];
  let unheadedEnd = 0;
  /**
   * The failed count of CTest's count line when only blank lines and its `Total Test time` line came after it, and
   * the count above the current run of unheaded entries (null when the run did not open under one).
   */
  let countAbove: number | null = null;
  let unheadedUnder: number | null = null;
  /** A run of unheaded entries followed by a cut `Errors while r…`, and that line's number: read if it is the last. */
  let cutClose: { entries: { name: string; status: string; lineNo: number }[]; lineNo: number } | null = null;
  /** An entry under the heading cut inside its status: read if it is the log's last line. */
  let cutEntry: { name: string; status: string; lineNo: number } | null = null;
  /** The number of the last line offered. */
  let lastSeen = 0;
  /** Test number → what its `N: ` output lines showed (see CTEST_OUTPUT): words that name a program, a failed assert. */
  const verbose = new Map<number, { names: Set<string>; place: { file: string; line: number } | null }>();
  const ctestPlace = new Map<string, { file: string; line: number }>();

  /** An entry no heading or count confirms: CTest's when its test's `N: ` output named it (see CTEST_OUTPUT). */
  function confirmedByOutput(e: { name: string; status: string; no: number }): boolean {
    const v = verbose.get(e.no);
    if (!v || !CTEST_STATUS.test(e.status) || !v.names.has(e.name)) return false;
    if (v.place) ctestPlace.set(e.name, v.place);
    return true;
  }

  /**
   * The end of a run of entries no heading is above: CTest's when the count line right above it (blank lines and the
   * time line aside) counts exactly its entries as failed (a paste that left the heading out, a reporter's retyping).
   */
  function closeUnheaded(): void {
    if (unheadedUnder !== null && unheaded.length === unheadedUnder)
      for (const e of unheaded) addCtestFailure(e.name, e.status, e.lineNo);
    else for (const e of unheaded) if (confirmedByOutput(e)) addCtestFailure(e.name, e.status, e.lineNo);
    unheaded.length = 0;
    unheadedUnder = null;
  }

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

  /** Follows a Catch2 block under the current CTest entry (see CATCH2_FAILED); its lines are Catch2's to claim. */
  function watchCatch2(text: string): void {
    if (text === CATCH2_DASHES) catch2 = "rule";
    else if (catch2 === "rule")
      catch2 = CATCH2_PLACE.test(text) ? "place" : text.trim() === "" ? "rule" : "none";
    else if (catch2 === "place") {
      if (text === CATCH2_DOTS) catch2 = "body";
    } else if (catch2 === "body" && text.endsWith("FAILED:") && CATCH2_FAILED.test(text))
      ctestWithFailures.add(ctestCurrent!);
  }

  return {
    line(text: string, lineNo: number): boolean {
      lastSeen = lineNo;
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
      if (ctestCurrent !== null) watchCatch2(text);
      const above = countAbove;
      if (countAbove !== null && text.trim() !== "" && !CTEST_TIME.test(text)) countAbove = null;
      if (unheaded.length > 0 && unheadedEnd !== lineNo) {
        const t = text.trim();
        if (unheadedEnd === lineNo - 1 && t === CTEST_ERRORS) {
          for (const e of unheaded) addCtestFailure(e.name, e.status, e.lineNo);
          unheaded.length = 0;
          unheadedUnder = null;
          return true;
        }
        // The closing line cut by the end of the log (`Errors while r`): decided at the end.
        if (
          unheadedEnd === lineNo - 1 &&
          t.length >= CTEST_ERRORS_CUT_MIN &&
          t.length < CTEST_ERRORS.length &&
          CTEST_ERRORS.startsWith(t)
        ) {
          cutClose = { entries: [...unheaded], lineNo };
          closeUnheaded();
          return true;
        }
        if (unheadedEnd !== lineNo - 1 || !CTEST_ENTRY.test(text)) closeUnheaded();
      }
      // A paste (Travis' log view) may put a blank line between the heading and its first entry.
      if (ctestList && ctestListEntries === 0 && text.trim() === "") return false;
      // CTest: its lines open with a space, a tab, a digit or `The following`; most log lines are rejected here.
      // `*`: a count line a reporter put in markdown bold.
      if (!((c0 === 32 || c0 === 9 || (c0 >= 48 && c0 <= 57) || c0 === 84 || c0 === 42) /* T, * */)) {
        ctestList = false;
        return false;
      }
      const r = text.includes(" Test ") ? CTEST_RESULT.exec(text) : null;
      if (r) {
        ctestCurrent = r[1]!;
        catch2 = "none";
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
        const cut = CTEST_CUT_ENTRY.exec(text);
        if (cut) {
          cutEntry = { name: cut[1]!, status: cut[2]!, lineNo };
          return true;
        }
      }
      if (c0 === 32 || c0 === 9 || (c0 >= 48 && c0 <= 57)) {
        const e = text.includes(" - ") ? CTEST_ENTRY.exec(text) : null;
        // `(Disabled)`/`(Skipped)` entries are the `did not run` list's, no failures.
        if (e && e[2] !== "Disabled" && e[2] !== "Skipped") {
          if (unheaded.length === 0) unheadedUnder = above;
          const no = Number(/^\s*(\d+)/.exec(text)![1]);
          if (unheaded.length < 10_000) unheaded.push({ name: e[1]!, status: e[2]!, lineNo, no });
          unheadedEnd = lineNo;
          return false;
        }
      }
      const out = text.includes(": ") ? CTEST_OUTPUT.exec(text) : null;
      if (out && (verbose.has(Number(out[1])) || verbose.size < 1_000)) {
        const no = Number(out[1]);
        const v = verbose.get(no) ?? { names: new Set<string>(), place: null };
        verbose.set(no, v);
        const rest = out[2]!;
        // `Test command: /build/tests/ring_test`, or a program naming itself (`ring_test: src/x.c:3: …`).
        const cmd = /^Test command: (\S+)/.exec(rest);
        const prog = cmd ? cmd[1]!.replace(/^.*[\\/]/, "") : /^([\w.+-]+): /.exec(rest)?.[1];
        if (prog && v.names.size < 20) v.names.add(prog);
        const a = v.place === null ? C_ASSERT.exec(rest) : null;
        if (a) v.place = { file: sink.path(a[2]!), line: Number(a[3]) };
        return false;
      }
      const cc = text.includes("% test") ? CTEST_COUNT.exec(text) : null;
      if (cc) {
        ctestCurrent = null;
        catch2 = "none";
        countAbove = Number(cc[1]) > 0 ? Number(cc[1]) : null;
        sink.summary({ failed: Number(cc[1]), passed: Number(cc[2]) - Number(cc[1]) });
        return true;
      }
      return false;
    },
    end(): void {
      // A test cut before its result line (a crash, a timeout, a log cut short) is not taken as failed here: the
      // runner around it (CTest) says so.
      current = null;
      closeUnheaded();
      if (cutClose && cutClose.lineNo === lastSeen)
        for (const e of cutClose.entries) addCtestFailure(e.name, e.status, e.lineNo);
      if (cutEntry && cutEntry.lineNo === lastSeen)
        addCtestFailure(cutEntry.name, cutEntry.status, cutEntry.lineNo);
      for (const e of ctestFailed) {
        if (ctestWithFailures.has(e.name) || reported.has(e.name)) continue;
        sink.test(e.name, "failed");
        const place = ctestPlace.get(e.name);
        sink.failure({
          category: "test",
          test: e.name,
          file: place?.file ?? null,
          line: place?.line ?? null,
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
