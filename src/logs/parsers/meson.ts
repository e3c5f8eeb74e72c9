/**
 * `meson test`: one result line per test, `14/32 name   FAIL   0.07s   exit status 1` (meson 0.57+; older releases
 * print `0.07 s`, newer ones pad the index, ` 3/32`, and name a suite, `proj:unit / name`), with the statuses `OK`,
 * `FAIL`, `EXPECTEDFAIL`, `UNEXPECTEDPASS`, `TIMEOUT`, `ERROR`, `SKIP`, `INTERRUPT`; then the count table
 * (`Ok:                 17`, `Expected Fail:      0`, `Fail:               15`, `Unexpected Pass:    0`,
 * `Skipped:            0`, `Timeout:            0`).
 *
 * A result line is meson's by its whole shape: the `i/n` index (i ≤ n), a status word and the duration in seconds.
 * A line cut before its duration (`29/32 name   FAI`) says nothing. The id is the test name as printed, without
 * the `project:suite / ` part, what `meson test NAME` takes (docs/test-ids.md). `FAIL`, `UNEXPECTEDPASS`,
 * `TIMEOUT` and `ERROR` fail the run; `EXPECTEDFAIL` is a pass, `INTERRUPT` (the user's ^C) no verdict.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const RESULT =
  /^\s*(\d+)\/(\d+) (\S.*?) +(OK|FAIL|SKIP|EXPECTEDFAIL|UNEXPECTEDPASS|TIMEOUT|ERROR|INTERRUPT) +(\d+(?:\.\d+)?) ?s\b *(.*)$/;
const COUNT = /^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout|Error): +(\d+)\s*$/;
const FAILING = new Set(["FAIL", "UNEXPECTEDPASS", "TIMEOUT", "ERROR"]);

export function createMesonParser(sink: ParserSink) {
  let seen = false;
  const counts = new Map<string, number>();
  const failed = new Set<string>();

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      if ((c0 >= 48 && c0 <= 57) || c0 === 32) {
        const slash = text.indexOf("/");
        if (slash < 1 || slash > 12) return false;
        const m = RESULT.exec(text);
        if (!m || Number(m[1]) > Number(m[2])) return false;
        seen = true;
        const printed = m[3]!.trim();
        const cut = printed.lastIndexOf(" / ");
        const id = cut >= 0 ? printed.slice(cut + 3) : printed;
        const status = m[4]!;
        if (FAILING.has(status)) {
          if (!failed.has(id)) {
            failed.add(id);
            sink.test(id, status === "ERROR" ? "error" : "failed");
            const why = m[6]!.trim();
            sink.failure({
              category: "test",
              test: id,
              message: why ? `${id} ${status}: ${why}` : `${id} ${status}`,
              start: lineNo,
              end: lineNo,
            });
          }
        } else if (status === "OK" || status === "EXPECTEDFAIL") sink.test(id, "passed");
        else if (status === "SKIP") sink.test(id, "skipped");
        return true;
      }
      if (!seen) return false;
      const c = COUNT.exec(text);
      if (!c) return false;
      counts.set(c[1]!, Number(c[2]));
      return true;
    },
    end(): void {
      if (counts.size === 0) return;
      const n = (k: string) => counts.get(k) ?? 0;
      sink.summary({
        passed: n("Ok") + n("Expected Fail"),
        failed: n("Fail") + n("Unexpected Pass") + n("Timeout"),
        error: n("Error"),
        skipped: n("Skipped"),
      });
    },
  };
}

export const mesonFormat: FormatDefinition = {
  name: "meson",
  description: "meson test's result lines (N/M name FAIL 0.07s) and its Ok:/Fail: count table",
  create: createMesonParser,
};
