/**
 * Haskell's tasty (its console reporter) and the `cabal test` lines around any Haskell test suite.
 *
 * tasty prints a tree: group names, and under them each test as `  name:   OK` or `  name:   FAIL` (status column
 * aligned, a timing `(0.02s)` after it with `--timing`), a failed test's reason indented under it; then `All 27 tests
 * passed (1.2s)` or `3 out of 27 tests failed (1.2s)`. tasty-expected-failure marks a test expected to fail `FAIL
 * (expected)`: no failure. The id is the group path and the test's name joined by `.` (tasty's own path, what `-p`
 * matches); a reporter's `...` elision drops the groups above it.
 *
 * cabal prints `Test suite NAME: RUNNING...` and `Test suite NAME: FAIL` around each suite's output, and `1 of 2 test
 * suites (1 of 2 test cases) passed.` When a suite fails and its output named no failing test (a crash, a paste
 * holding only the count line), the suite is the failure: its name is what `cabal test NAME` takes.
 *
 * stack prints its own summary of a failed suite, `Test suite failure for package P-1.0` then `    NAME:  exited with:
 * ExitFailure 1` (Stackage's builds print it above the suite's log): when no line of the log names a failing test,
 * each such suite is the failure, as cabal's is.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RESULT = /^( {2,})(\S.*?):\s+(OK|FAIL|TIMEOUT)((?: \([^)]*\))*)\s*$/;
const COUNTS = /^(?:(\d+) out of (\d+) tests failed|All (\d+) tests passed)(?: \([\d.]+s\))?\s*$/;
const CABAL_SUITE = /^Test suite (\S+): (RUNNING\.\.\.|PASS|FAIL)\s*$/;
/** Another Haskell runner's own count line under cabal (hspec's): the suite's failures are named there. */
const HSPEC_COUNT = /^\d+ examples?, [1-9]\d* failures?\b/;
const STACK_HEAD = /^\s*Test suite failure for package \S+\s*$/;
const STACK_SUITE = /^\s*(\S+):\s+exited with: ExitFailure \d+\s*$/;
/** Perl prove's count line: the `Result: FAIL` under it is prove's verdict, not a tasty test called `Result`. */
const PROVE_FILES = /^\s*Files=\d+, Tests=\d+,/;

export function createTastyParser(sink: ParserSink) {
  const groups: { indent: number; name: string }[] = [];
  /** The failed test whose reason lines are being read. */
  let open: { id: string; indent: number; message: string[]; start: number; end: number } | null = null;
  /** Whether the running cabal suite's output named a failing test. */
  let named = false;
  /** Whether any line of the log named a failing test (a tasty FAIL, hspec's count), and stack's failed suites. */
  let namedAnywhere = false;
  /** The line stack's `Test suite failure for package` heading's suite lines reached (see STACK_HEAD). */
  let stackUnder = 0;
  const stackSuites: { name: string; lineNo: number; text: string }[] = [];
  /** Suites reported from cabal's `Test suite NAME: FAIL` (stack's summary names them again). */
  const cabalFailed = new Set<string>();

  function close(): void {
    if (!open) return;
    const o = open;
    open = null;
    sink.test(o.id, "failed");
    sink.failure({
      category: "test",
      test: o.id,
      file: null,
      line: null,
      errorType: null,
      message: o.message.join("\n") || `${o.id} failed`,
      stack: null,
      start: o.start,
      end: o.end,
    });
  }

  /** The line before was prove's `Files=…` count line. */
  let afterProveFiles = false;

  /** Before the first result line: the latest lines, from which the groups above it are read back. */
  const recent: string[] = [];
  let active = false;

  function track(text: string): void {
    // A group line of the tree: its name, indented two spaces per level; `...` is a reader's elision.
    const trimmed = text.trim();
    if (trimmed === "..." || trimmed === "…") groups.length = 0;
    else if (trimmed !== "" && trimmed.length < 200) {
      const indent = text.length - text.trimStart().length;
      while (groups.length > 0 && groups[groups.length - 1]!.indent >= indent) groups.pop();
      if (groups.length < 20) groups.push({ indent, name: own(trimmed) });
    }
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      const proveVerdict = afterProveFiles;
      if (text.trim() !== "") afterProveFiles = text.includes("Files=") && PROVE_FILES.test(text);
      // RESULT needs two leading spaces and a `:` after the name: a line without a `:` (jest's `  ✓ name`) is not
      // asked.
      const r =
        c0 === 32 && text.charCodeAt(1) === 32 && text.length < 2_000 && text.indexOf(":", 3) !== -1
          ? RESULT.exec(text)
          : null;
      if (r && !(proveVerdict && r[2] === "Result")) {
        close();
        if (!active) {
          // The first result: its groups are the lines just above it (a tree rarely nests deeper than this holds).
          active = true;
          for (const l of recent) track(l);
          recent.length = 0;
        }
        const indent = r[1]!.length;
        while (groups.length > 0 && groups[groups.length - 1]!.indent >= indent) groups.pop();
        const id = own([...groups.map((g) => g.name), r[2]!.trim()].join("."));
        const expected = /\(expected\)/.test(r[4] ?? "");
        if (r[3] === "OK") sink.test(id, "passed");
        else if (expected) sink.test(id, "skipped");
        else {
          named = true;
          namedAnywhere = true;
          open = { id, indent, message: [], start: lineNo, end: lineNo };
        }
        return true;
      }
      if (open) {
        // The reason: lines indented deeper than the test's, or a hard-wrapped line's rest at column 0.
        const indent = text.length - text.trimStart().length;
        const wrapped =
          open.message.length > 0 && indent === 0 && !COUNTS.test(text) && !CABAL_SUITE.test(text);
        if (text.trim() !== "" && (indent > open.indent || wrapped)) {
          if (open.message.length < 40) open.message.push(own(text.trim()));
          open.end = lineNo;
          return true;
        }
        close();
      }
      if ((c0 >= 48 && c0 <= 57) || c0 === 65 /* A */) {
        const c = COUNTS.exec(text);
        if (c) {
          groups.length = 0;
          if (c[3] !== undefined) sink.summary({ passed: Number(c[3]), failed: 0 });
          else sink.summary({ passed: Number(c[2]) - Number(c[1]), failed: Number(c[1]) });
          return true;
        }
        if (HSPEC_COUNT.test(text)) {
          named = true;
          namedAnywhere = true;
        }
      }
      if (text.includes("Test suite failure for package ") && STACK_HEAD.test(text)) {
        stackUnder = lineNo;
        return true;
      }
      if (stackUnder > 0) {
        const st = text.includes("exited with: ExitFailure") ? STACK_SUITE.exec(text) : null;
        if (st && stackUnder === lineNo - 1) {
          if (stackSuites.length < 1_000)
            stackSuites.push({ name: own(st[1]!), lineNo, text: own(text.trim()) });
          stackUnder = lineNo;
          return true;
        }
        stackUnder = 0;
      }
      if (c0 === 84 /* T */) {
        const s = CABAL_SUITE.exec(text);
        if (s) {
          groups.length = 0;
          if (s[2] === "RUNNING...") named = false;
          else if (s[2] === "FAIL" && !named) {
            if (cabalFailed.size < 1_000) cabalFailed.add(s[1]!);
            sink.test(s[1]!, "failed");
            sink.failure({
              category: "test",
              test: own(s[1]!),
              file: null,
              line: null,
              errorType: null,
              message: `Test suite ${s[1]}: FAIL`,
              stack: null,
              start: lineNo,
              end: lineNo,
            });
          }
          if (s[2] !== "RUNNING...") named = false;
          return true;
        }
      }
      if (active) track(text);
      else {
        if (recent.length >= 12) recent.shift();
        recent.push(text);
      }
      return false;
    },
    end(): void {
      close();
      if (namedAnywhere) return;
      for (const st of stackSuites) {
        if (cabalFailed.has(st.name)) continue;
        sink.test(st.name, "failed");
        sink.failure({
          category: "test",
          test: st.name,
          file: null,
          line: null,
          errorType: null,
          message: st.text,
          stack: null,
          start: st.lineNo,
          end: st.lineNo,
        });
      }
    },
  };
}

export const tastyFormat: FormatDefinition = {
  name: "tasty",
  description: "Haskell tasty (name: FAIL trees, counts) and cabal test's Test suite NAME: FAIL lines",
  create: createTastyParser,
};
