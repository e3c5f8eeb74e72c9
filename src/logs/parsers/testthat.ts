/**
 * R's testthat (`devtools::test()`, `testthat::test_check()` under `R CMD check`, r-lib/actions' check step): issue
 * headers `── Failure ('test-kettle.R:5:3'): pours half ───…` (`── Error (…)`; testthat 3.0 printed the place without
 * quotes), the message under it up to a blank line (then `Backtrace:` and its tree), testthat 3.0's recap lines
 * `FAILURE (test-kettle.R:5:3): pours half` / `ERROR (…)`, and the count line `[ FAIL 1 | WARN 0 | SKIP 0 | PASS 12 ]`.
 * `R CMD check` indents all of it (`Last 13 lines of output:`); `── Skip (???)`/`── Warning (…)` are no failures.
 *
 * The id is `tests/testthat/<file> > <test name>` (docs/test-ids.md): testthat prints the file's name only, and its
 * tests live in `tests/testthat/`; code run outside `test_that()` is the file's error, with no test id. Failures are
 * held to the last count line (which `R CMD check` may print twice): one that says `FAIL 0` keeps none.
 *
 * Older and cut shapes of the same report: a header whose rules a paste lost (` Failure ('test-kettle.R:5:3'): pours
 * half`, read only with the quoted place), testthat 1.x–2.x's numbered recap `1. Failure: pours half (@test-kettle.R#5)`
 * (`1. Error: …`), testthat 0.x's `7. Failure (at test-kettle.R#5): pours half` (printed once per failed expectation:
 * one test; `(@test-kettle.R#5)` in development versions), whose name `(unknown)` is code run outside `test_that()`,
 * and their count line `OK: 2 SKIPPED: 0 FAILED: 1` (`[ OK: 2 | SKIPPED: 0 | WARNINGS: 0 | FAILED: 1 ]`).
 * A test file R could not parse (`Error in parse(text = lines, …) :` then `testthat/test-kettle.R:3:70: unexpected
 * '{'`) ran no test: the failure is the file's, whatever the count says (its tests were never counted).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEADER = /^\s*── (Failure|Error) \('?([^\s'()]+\.[Rr]):(\d+)(?::(\d+))?'?\): (.*?)(?: ─+)?$/;
const RECAP = /^\s*(FAILURE|ERROR) \('?([^\s'()]+\.[Rr]):(\d+)(?::(\d+))?'?\): (\S.*)$/;
const COUNT = /^\s*\[ FAIL (\d+) \| WARN (\d+) \| SKIP (\d+) \| PASS (\d+) \]$/;
const BARE_HEADER = /^\s*(Failure|Error) \('([^\s'()]+\.[Rr]):(\d+)(?::(\d+))?'\): (\S.*?)(?: ─+)?$/;
const OLD_RECAP = /^\s*\d+\. (Failure|Error): (\S.*?) \(@([^\s()#@]+\.[Rr])#(\d+)\)(?: -+)?\s*$/;
// testthat 0.x's `(at file#line)`, and the `(@file#line)` its development versions printed in the same place; the header
// in the report ends in a rule of dashes (`… (unknown) -----`), the recap's entry in a space.
const AT_RECAP = /^\s*\d+\. (Failure|Error) \((?:at |@)([^\s()#@]+\.[Rr])#(\d+)\): (\S.*?)(?: -+)?\s*$/;
/** testthat 0.x's name for expectations run outside `test_that()` (3.x prints OUTSIDE): the file's failure. */
const UNKNOWN = "(unknown)";
const OLD_COUNT =
  /^\s*\[?\s*OK: (\d+)\s*\|?\s*SKIPPED: (\d+)\s*\|?\s*(?:WARNINGS: \d+\s*\|?\s*)?FAILED: (\d+)\s*\]?$/;
const PARSE_ERROR = /^\s*Error in parse\(text = /;
const PARSE_PLACE = /^\s*((?:[^\s:]*\/)?testthat\/([^\s/:]+\.[Rr])|(test[^\s/:]*\.[Rr])):(\d+):(\d+): (.*)$/;
const OUTSIDE = "(code run outside of `test_that()`)";

interface Issue {
  kind: string;
  file: string;
  line: number;
  column: number | null;
  name: string;
  lines: string[];
  start: number;
  end: number;
}

export function createTestthatParser(sink: ParserSink) {
  const issues = new Map<string, Issue>();
  let open: Issue | null = null;
  let counts: { failed: number; passed: number; skipped: number } | null = null;
  /** Test files R could not parse: failures of their own, never dropped by a count. */
  const unparsed: { file: string; line: number; column: number; message: string; at: number }[] = [];
  let parseErrorAt = -1;

  function add(m: RegExpExecArray | string[], lineNo: number): Issue | null {
    const file = `tests/testthat/${m[2]!}`;
    const name = m[5]!.trim();
    const key = `${file}\u0000${name}`;
    const known = issues.get(key);
    if (known) return null;
    if (issues.size >= 1_000) return null;
    const issue: Issue = {
      kind: m[1]!.toLowerCase(),
      file: own(sink.path(file)),
      line: Number(m[3]),
      column: m[4] ? Number(m[4]) : null,
      name: own(name),
      lines: [],
      start: lineNo,
      end: lineNo,
    };
    issues.set(key, issue);
    return issue;
  }

  function report(): void {
    if (counts && counts.failed === 0) issues.clear();
    for (const i of issues.values()) {
      const outside = i.name === OUTSIDE;
      const test = outside ? null : `${i.file} > ${i.name}`;
      const body = i.lines.map((l) => l.trim());
      const stop = body.findIndex((l) => l === "" || l === "Backtrace:");
      const message = (stop < 0 ? body : body.slice(0, stop)).filter((l) => l !== "").slice(0, 12);
      const e = /^Error in (.*?): (.*)$/.exec(message[0] ?? "");
      if (test !== null) sink.test(test, "failed", i.file);
      sink.failure({
        category: "test",
        test,
        file: i.file,
        line: i.line,
        column: i.column,
        errorType: i.kind === "error" ? "Error" : "Failure",
        message: (e ? [e[2]!, ...message.slice(1)] : message).join("\n") || i.name,
        stack: i.lines.join("\n") || null,
        start: i.start,
        end: i.end,
      });
    }
    for (const u of unparsed) {
      // A syntax error, as a compile error is: the build's category, which a green count does not overrule.
      sink.failure({
        category: "build",
        test: null,
        file: u.file,
        line: u.line,
        column: u.column,
        errorType: "Error",
        message: u.message,
        stack: null,
        start: u.at - 1,
        end: u.at,
      });
    }
    unparsed.length = 0;
    if (counts) sink.summary(counts);
    issues.clear();
    counts = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      const h = text.includes("── ") ? HEADER.exec(text) : null;
      if (h) {
        open = add(h, lineNo);
        return true;
      }
      const c = text.includes("[ FAIL ") ? COUNT.exec(text) : null;
      if (c) {
        open = null;
        counts = { failed: Number(c[1]), skipped: Number(c[3]), passed: Number(c[4]) };
        return true;
      }
      const r = text.includes("(") ? RECAP.exec(text) : null;
      if (r) {
        open = null;
        add(r, lineNo);
        return true;
      }
      const b = text.includes("('") ? BARE_HEADER.exec(text) : null;
      if (b) {
        open = add(b, lineNo);
        return true;
      }
      const o = text.includes("(@") ? OLD_RECAP.exec(text) : null;
      if (o) {
        open = add([o[0], o[1]!, o[3]!, o[4]!, "", o[2]!], lineNo);
        return true;
      }
      const a = text.includes("(at ") || text.includes("(@") ? AT_RECAP.exec(text) : null;
      if (a) {
        open = add([a[0], a[1]!, a[2]!, a[3]!, "", a[4]! === UNKNOWN ? OUTSIDE : a[4]!], lineNo);
        return true;
      }
      const oc = text.includes("FAILED: ") ? OLD_COUNT.exec(text) : null;
      if (oc) {
        open = null;
        counts = { failed: Number(oc[3]), skipped: Number(oc[2]), passed: Number(oc[1]) };
        return true;
      }
      if (text.includes("Error in parse(") && PARSE_ERROR.test(text)) {
        open = null;
        parseErrorAt = lineNo;
        return true;
      }
      if (parseErrorAt === lineNo - 1) {
        const p = PARSE_PLACE.exec(text);
        if (p && unparsed.length < 100) {
          unparsed.push({
            file: own(sink.path(`tests/testthat/${p[2] ?? p[3]!}`)),
            line: Number(p[4]),
            column: Number(p[5]),
            message: own(p[6]!),
            at: lineNo,
          });
          return true;
        }
      }
      if (open) {
        // The block runs to the next header or count; testthat's rules (`══ Failed tests ══`) end it too.
        if (/^\s*══/.test(text) || open.lines.length >= 80) {
          open = null;
          return false;
        }
        open.lines.push(own(text));
        open.end = lineNo;
        return true;
      }
      return false;
    },
    end(): void {
      report();
    },
  };
}

export const testthatFormat: FormatDefinition = {
  name: "testthat",
  description:
    "R testthat (── Failure ('test-x.R:5:3'): name ── blocks, [ FAIL n | WARN n | SKIP n | PASS n ])",
  create: createTestthatParser,
};
