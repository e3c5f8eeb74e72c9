/**
 * Bazel's test summary: one line per test target, `//pkg:target` padded to a column, then its status —
 * `PASSED in 0.4s`, `(cached) PASSED in 0.1s`, `FAILED in 2.0s`, `FAILED in 3 out of 3 in 0.6s`,
 * `TIMEOUT in 300.0s`, `FLAKY, failed in 1 out of 2 in 4.1s`, `NO STATUS`, `FAILED TO BUILD`, `SKIPPED` — and the
 * progress lines `FAIL: //pkg:target (see …/test.log)` / `TIMEOUT: //pkg:target (see …)` printed as a target ends;
 * the count line `Executed 1 out of 3 tests: 2 tests pass and 1 fails locally.`
 *
 * The id is the target label as Bazel prints it, `//pkg:target` (`@repo//pkg:target` for an external one):
 * what `bazel test` takes to run it again (docs/test-ids.md). A FLAKY target passed on a retry: flaky, not failed.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const STATUS =
  /^(@?[\w.~-]*\/\/[^\s:]*:\S+)\s+(?:\(cached\) )?(PASSED|FAILED TO BUILD|FAILED|TIMEOUT|FLAKY|NO STATUS|SKIPPED|INCOMPLETE)\b/;
// The `(see …)` tail may be cut (a paste, an excerpt): the label before it is whole once ` (see ` follows it.
const PROGRESS = /^(FAIL|TIMEOUT): (@?[\w.~-]*\/\/[^\s:]*:\S+)(?: \(see .*)?$/;
const EXECUTED = /^Executed \d+ out of \d+ tests?: (.*)$/;

export function createBazelParser(sink: ParserSink) {
  const failed = new Set<string>();

  function fail(id: string, status: string, lineNo: number, category: "test" | "build" = "test"): void {
    if (failed.has(id)) return;
    failed.add(id);
    sink.test(id, category === "test" ? "failed" : "error");
    sink.failure({ category, test: id, message: `${id} ${status}`, start: lineNo, end: lineNo });
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      if (c0 === 47 /* / */ || c0 === 64 /* @ */) {
        if (!text.includes("//")) return false;
        const m = STATUS.exec(text);
        if (!m) return false;
        const id = m[1]!;
        const status = m[2]!;
        if (status === "PASSED") sink.test(id, "passed");
        else if (status === "SKIPPED") sink.test(id, "skipped");
        else if (status === "FLAKY") {
          sink.test(id, "failed");
          sink.test(id, "passed");
        } else if (status === "FAILED TO BUILD") fail(id, status, lineNo, "build");
        // NO STATUS / INCOMPLETE: the run was cut or the target never ran; Bazel reports no verdict.
        else if (status !== "NO STATUS" && status !== "INCOMPLETE")
          fail(id, text.slice(m[1]!.length).trim(), lineNo);
        return true;
      }
      if (c0 === 70 /* F */ || c0 === 84 /* T */) {
        if (!text.includes(": //") && !text.includes(": @")) return false;
        const p = PROGRESS.exec(text);
        if (!p) return false;
        fail(p[2]!, p[1] === "FAIL" ? "FAILED" : "TIMEOUT", lineNo);
        return true;
      }
      if (c0 === 69 /* E */ && text.startsWith("Executed ")) {
        const e = EXECUTED.exec(text);
        if (!e) return false;
        const f = /(\d+) (?:tests? )?fails?\b/.exec(e[1]!);
        const p = /(\d+) tests? pass(?:es)?\b/.exec(e[1]!);
        sink.summary({ failed: f ? Number(f[1]) : 0, passed: p ? Number(p[1]) : 0 });
        return true;
      }
      return false;
    },
    end(): void {},
  };
}

export const bazelFormat: FormatDefinition = {
  name: "bazel",
  description: "Bazel's test summary (//pkg:target  FAILED in …) and FAIL: //pkg:target progress lines",
  create: createBazelParser,
};
