/**
 * Nim's tests: `std/unittest`'s console output and nimble's `nimble test` driver.
 *
 * `std/unittest` prints `[Suite] name` as a suite starts and one result line per test, indented by two spaces under a
 * suite: `  [OK] heats`, `  [FAILED] cools`, `  [SKIPPED] glazes`; a failed check prints its place and expression
 * before the result line, `/home/me/kiln/tests/tkiln.nim(12, 5): Check failed: heat(k) == 900`, with the operands
 * under it. A `[FAILED]` line counts only in a log holding unittest's own lines (a `[Suite] ` line or that check
 * line): a bracketed `[OK] ` / `[FAILED] ` status at the margin is also what retry loops and service managers print
 * (`[FAILED] db not ready, retrying`, `[OK] db ready`). A later `[OK]` for the same id (a rerun) cancels its failure,
 * and nimble's `Success: All tests passed` cancels every one held before it. The id is `suite::test`, the filter
 * unittest's runner takes (`tkiln "kiln::cools"`), or the test's name outside any suite; placed at the check line's
 * file and line.
 *
 * nimble runs each `tests/t*.nim` as a program (`Compiling /…/tests/test1 (from package kiln) using c backend`) and
 * closes with `Error: Only 0/1 tests passed`: a program nimble could not run or that failed
 * (`Error: execution of an external program failed: '/…/tests/test1'`) is a failed test, named by its path from
 * the package's `tests/` directory, counted only with nimble's `Only N/M tests passed` line. The program's results
 * come right before that failure line: a run of margin result lines (`[OK] `/`[FAILED] `) ending on the line above it
 * is unittest's output even with no suite and no check line (tests outside a suite, `check` cut from the log); its
 * `[FAILED]` lines name the program's failures, and the program is then no failure of its own.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const SUITE = /^\[Suite\] (.+?)\s*$/;
const RESULT = /^( {2})?\[(OK|FAILED|SKIPPED)\] (.+?)\s*$/;
const CHECK = /^\s*(.+?\.nim)\((\d+), \d+\): Check failed: (.*)$/;
const PROGRAM_FAILED = /execution of an external program failed: '(.+?)'\s*$/;
const ONLY = /^\s*Error: Only (\d+)\/(\d+) tests passed\s*$/;
const ALL = /^\s*Success: All tests passed\s*$/;

export function createNimParser(sink: ParserSink) {
  let suite: string | null = null;
  let unittest = false;
  let check: { file: string; line: number; message: string; lineNo: number } | null = null;
  type Held = {
    test: string;
    file: string | null;
    line: number | null;
    message: string;
    start: number;
    end: number;
    /** Printed right above nimble's failure line for its program. */
    confirmed?: boolean;
  };
  const held: Held[] = [];
  /** The run of result lines under way: its last line's number, and how many results were held before it. */
  let run = { last: -1, from: 0 };
  const programs: Held[] = [];
  let nimbleCounted = false;

  return {
    line(text: string, lineNo: number): boolean {
      if (
        !text.includes("[") &&
        !text.includes("Check failed") &&
        !text.includes("tests passed") &&
        !text.includes("external program")
      )
        return false;
      const s = text.startsWith("[Suite] ") ? SUITE.exec(text) : null;
      if (s) {
        suite = s[1]!;
        unittest = true;
        return true;
      }
      const c = text.includes("Check failed: ") ? CHECK.exec(text) : null;
      if (c) {
        unittest = true;
        check ??= { file: sink.path(c[1]!), line: Number(c[2]), message: own(c[3]!), lineNo };
        return true;
      }
      const r = RESULT.exec(text);
      if (r) {
        if (r[1] === undefined) {
          if (run.last !== lineNo - 1) run = { last: lineNo, from: held.length };
          else run.last = lineNo;
        }
        const indented = r[1] !== undefined;
        // A result line is indented under a suite and at the margin outside one.
        if (!indented) suite = null;
        const mine = unittest || suite !== null;
        const name = r[3]!;
        const id = suite !== null ? `${suite}::${name}` : name;
        if (r[2] === "OK") {
          // A passing rerun of a test clears its earlier failure.
          for (let i = held.length - 1; i >= 0; i--) {
            if (held[i]!.test !== id) continue;
            held.splice(i, 1);
            if (i < run.from) run.from--;
          }
        } else if (r[2] === "FAILED" && held.length < 10_000) {
          const test = own(id);
          held.push({
            test,
            file: check?.file ?? null,
            line: check?.line ?? null,
            message: check?.message ?? `${test} failed`,
            start: check?.lineNo ?? lineNo,
            end: lineNo,
          });
        }
        check = null;
        return r[2] === "FAILED" && mine;
      }
      const p = text.includes("external program failed") ? PROGRAM_FAILED.exec(text) : null;
      if (p) {
        const path = p[1]!.replace(/\\/g, "/").trim();
        const at = path.lastIndexOf("/tests/");
        let named = false;
        if (run.last === lineNo - 1) {
          for (let i = run.from; i < held.length; i++) {
            held[i]!.confirmed = true;
            named = true;
          }
        }
        if (at >= 0 && !named && programs.length < 10_000) {
          const test = own(path.slice(at + 1));
          programs.push({
            test,
            file: null,
            line: null,
            message: own(text.trim()),
            start: lineNo,
            end: lineNo,
          });
        }
        return false;
      }
      const o = text.includes("tests passed") ? ONLY.exec(text) : null;
      if (o) {
        nimbleCounted = true;
        sink.summary({ passed: Number(o[1]), failed: Number(o[2]) - Number(o[1]) });
        return true;
      }
      if (ALL.test(text)) {
        programs.length = 0;
        held.length = 0;
        return true;
      }
      return false;
    },
    end(): void {
      const emit = (f: Held) => {
        sink.test(f.test, "failed", f.file);
        sink.failure({ category: "test", ...f });
      };
      for (const f of held) if (unittest || f.confirmed) emit(f);
      if (nimbleCounted) for (const f of programs) emit(f);
    },
  };
}

export const nimFormat: FormatDefinition = {
  name: "nim",
  description:
    "Nim's std/unittest (`[Suite]`, `[OK]`/`[FAILED]` lines, `Check failed:`) and nimble's `Only N/M tests passed`",
  create: createNimParser,
};
