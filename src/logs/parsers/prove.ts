/**
 * Perl's `prove` (TAP::Harness): its `Test Summary Report`, for a log that holds the report without the TAP lines
 * (prove without `-v`, or a paste of the report alone).
 *
 * The report lists each failed test program as `t/foo.t    (Wstat: 512 Tests: 734 Failed: 2)`, with `Failed tests:
 * 348, 521`, `Non-zero exit status: 2` or `Parse errors: …` under it, then `Files=144, Tests=5031, …` and `Result:
 * FAIL`. The program is all a failing entry names: the failure is the file's, with no test id (the tap format's ids
 * are the `not ok` lines' descriptions, which this report does not print), as AVA's file that exited badly. When the
 * log holds `not ok` lines, the tap format names those failures and the report adds nothing.
 *
 * An entry that failed nothing and exited 0 (`t/x.t (Wstat: 0 Tests: 3 Failed: 0)` over `TODO passed:   1, 3`) is no
 * failure. A log cut before the report still has the harness's verdict line for a program that failed,
 * `t/x.t .. Dubious, test returned 4 (wstat 1024, 0x400)`: the same failure of the file. A file's failure is placed at
 * its first `#   Failed test at t/x.t line 17.` diagnostic (`#   at t/x.t line 9.` under a named one).
 *
 * The harness's verdict line `t/x.t .. Failed 2/10 subtests` (its `(less 5 skipped subtests: 63 okay)` under it)
 * fails the program too, when prove's own lines around it confirm the runner (the report's heading, an entry, the
 * `Files=…` count line): a paste that elided the report's heading (`...`) or cut it off still names the programs
 * that failed. An entry line is prove's own even without the heading above it. A program printed as a machine's
 * absolute path (`prove -r ~/qa/suite/`) is taken from its topmost `t/`, `xt/`, `tests/` or `test/` directory,
 * where prove's test programs live; without one it is kept as printed.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEAD = /^\s*Test Summary Report\s*$/;
const ENTRY = /^\s*(\S+)\s+\(Wstat: (\d+)(?: \([^)]*\))? Tests: (\d+) Failed: (\d+)\)\s*$/;
const DETAIL = /^\s+(?:Failed tests?|Non-zero (?:exit|wait) status|Parse errors|TODO passed|Tests? skipped):/;
const RULE = /^\s*-{3,}\s*$/;
const NOT_OK = /^\s*not ok\b/;
const DUBIOUS = /^(\S+\.t) \.+ Dubious, test returned (\d+) \(wstat (\d+), 0x[0-9a-f]+\)\s*$/;
const DIAG_AT = /^#\s+(?:Failed (?:\(TODO\) )?test .*?)?at (\S+) line (\d+)\.$/;
const FILES = /^\s*Files=(\d+), Tests=(\d+),/;
const VERDICT = /^\s*(\S+) \.{2,} Failed (\d+)\/(\d+) subtests\s*$/;
const TEST_DIR = /^(?:\/|[A-Za-z]:\/).*?\/((?:t|xt|tests?)\/.+)$/;

export function createProveParser(sink: ParserSink) {
  let inReport = false;
  let sawNotOk = false;
  const entries: {
    file: string;
    failed: number;
    wstat?: number;
    details: string[];
    lineNo: number;
    end: number;
  }[] = [];
  /** Programs the harness called Dubious, in case the report was cut off. */
  const dubious: { file: string; message: string; lineNo: number }[] = [];
  /** The first failed test's place in each file, from the diagnostics. */
  const places = new Map<string, number>();
  /** Programs whose verdict line said `Failed N/M subtests`: failures once prove's own lines confirm the runner. */
  const verdicts: { file: string; message: string; lineNo: number }[] = [];
  /** prove's own lines were seen (the report's heading, an entry, the `Files=` count line). */
  let confirmed = false;
  const program = (printed: string): string => {
    const f = sink.path(printed);
    return TEST_DIR.exec(f.replace(/\\/g, "/"))?.[1] ?? f;
  };

  return {
    line(text: string, lineNo: number): boolean {
      // An entry with the report's heading elided (`...`) or cut off: the report starts there.
      if (!inReport && !(text.includes("(Wstat: ") && ENTRY.test(text))) {
        if (text.charCodeAt(0) === 35 /* # */ && text.includes(" line ")) {
          const d = DIAG_AT.exec(text);
          if (d && places.size < 1_000) {
            const file = program(d[1]!);
            if (!places.has(file)) places.set(own(file), Number(d[2]));
          }
          return false;
        }
        const du = text.includes("Dubious") ? DUBIOUS.exec(text) : null;
        if (du) {
          if (dubious.length < 1_000)
            dubious.push({
              file: own(program(du[1]!)),
              message: own(text.slice(text.indexOf("Dubious"))),
              lineNo,
            });
          return true;
        }
        const v = text.includes(" subtests") ? VERDICT.exec(text) : null;
        if (v) {
          if (verdicts.length < 1_000)
            verdicts.push({ file: own(program(v[1]!)), message: own(text.trim()), lineNo });
          return true;
        }
        if (text.includes("Files=") && FILES.test(text)) confirmed = true;
        // Seen, not claimed: the tap format reads these.
        if (!sawNotOk && text.includes("not ok") && NOT_OK.test(text)) sawNotOk = true;
        if (text.charCodeAt(0) === 84 /* T */ || text.charCodeAt(0) === 32) {
          if (HEAD.test(text)) {
            inReport = true;
            return true;
          }
        }
        return false;
      }
      inReport = true;
      confirmed = true;
      const e = ENTRY.exec(text);
      if (e) {
        if (entries.length < 1_000)
          entries.push({
            file: own(program(e[1]!)),
            failed: Number(e[4]),
            wstat: Number(e[2]),
            details: [],
            lineNo,
            end: lineNo,
          });
        return true;
      }
      const last = entries[entries.length - 1];
      if (last && DETAIL.test(text)) {
        if (last.details.length < 10) last.details.push(own(text.trim()));
        last.end = lineNo;
        return true;
      }
      if (RULE.test(text) || text.trim() === "") return true;
      if (FILES.test(text)) return false;
      inReport = false;
      return false;
    },
    end(): void {
      if (sawNotOk) return;
      const listed = new Set(entries.map((e) => e.file));
      for (const d of [...dubious, ...(confirmed ? verdicts : [])]) {
        if (listed.has(d.file)) continue;
        listed.add(d.file);
        entries.push({ file: d.file, failed: 1, details: [d.message], lineNo: d.lineNo, end: d.lineNo });
      }
      for (const e of entries) {
        // Nothing failed and the program exited 0: a `TODO passed` note, no failure.
        if (e.failed === 0 && e.wstat === 0) continue;
        sink.failure({
          category: "test",
          test: null,
          file: e.file,
          line: places.get(e.file) ?? null,
          errorType: null,
          message: e.details.join("\n") || `${e.file} failed`,
          stack: null,
          start: e.lineNo,
          end: e.end,
        });
      }
    },
  };
}

export const proveFormat: FormatDefinition = {
  name: "prove",
  description: "Perl prove's Test Summary Report (failed test programs), when the log holds no TAP lines",
  create: createProveParser,
};
