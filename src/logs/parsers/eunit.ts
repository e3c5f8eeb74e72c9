/**
 * EUnit (Erlang, `rebar3 eunit`, `erl -eval 'eunit:test(…)'`): a failed test prints where it failed,
 * `in function kiln_tests:heat_test/0 (test/kiln_tests.erl, line 12)` (a fun a generator returned is named by the
 * compiler, `'-heat/1-fun-0-'/2`), then the exception as EUnit writes it, `**error:{assertEqual_failed,[…]}` (or
 * `**exit:`, `**throw:`). The `in function` line counts only with that exception line right under it.
 *
 * The id is `module:function/arity` of the test function; for a compiler-named fun, the function it is in
 * (`kiln_tests:heat/1`). Placed at the file and line the `in function` line names (docs/test-ids.md).
 *
 * Failures are held until their run's summary: `Failed: 1.  Skipped: 0.  Passed: 3.` confirms them, and
 * `All 4 tests passed.` (`Test passed.` for one) says nothing above it since the last summary failed, so a green
 * run yields none whatever its tests printed. A log cut before any summary keeps what it holds.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const IN_FUNCTION = /^[ \t]*in function ([a-z]\w*):('[^']+'|[a-z]\w*)\/(\d+) \(([^,()]+\.erl), line (\d+)\)$/;
const EXCEPTION = /^[ \t]*\*\*(error|exit|throw):(.*)$/;
const ALL_PASSED = /^\s*(?:All (\d+) tests passed|Test passed)\.\s*$/;
const COUNTS = /^\s*Failed: (\d+)\.\s+Skipped: (\d+)\.\s+Passed: (\d+)\.\s*$/;

function functionOf(name: string, arity: string): string {
  const fun = /^'-(.+)\/(\d+)-fun-\d+-'$/.exec(name);
  if (fun) return `${fun[1]}/${fun[2]}`;
  return `${name.replace(/^'(.*)'$/, "$1")}/${arity}`;
}

export function createEunitParser(sink: ParserSink) {
  let at: { id: string; file: string; line: number; lineNo: number } | null = null;
  const reported = new Set<string>();
  /** The failures of the run being read, until its summary. */
  let held: {
    a: { id: string; file: string; line: number; lineNo: number };
    type: string;
    message: string;
    end: number;
  }[] = [];

  function flush(): void {
    for (const { a, type, message, end } of held) {
      if (reported.has(a.id) || reported.size >= 10_000) continue;
      reported.add(a.id);
      sink.test(a.id, "failed", a.file);
      sink.failure({
        category: "test",
        test: a.id,
        file: a.file,
        line: a.line,
        errorType: type,
        message: message || a.id,
        start: a.lineNo,
        end,
      });
    }
    held = [];
  }

  return {
    line(text: string, lineNo: number): boolean {
      const a = at;
      at = null;
      if (a) {
        const e = EXCEPTION.exec(text);
        if (e) {
          if (held.length < 10_000) held.push({ a, type: e[1]!, message: e[2]!.trim(), end: lineNo });
          return true;
        }
      }
      if (text.includes("passed.")) {
        const p = ALL_PASSED.exec(text);
        if (p) {
          held = [];
          sink.summary({ passed: p[1] ? Number(p[1]) : 1, failed: 0 });
          return true;
        }
      }
      if (text.includes("Failed: ")) {
        const c = COUNTS.exec(text);
        if (c) {
          if (Number(c[1]) > 0) flush();
          else held = [];
          sink.summary({ failed: Number(c[1]), skipped: Number(c[2]), passed: Number(c[3]) });
          return true;
        }
      }
      if (!text.includes("in function ")) return false;
      const m = IN_FUNCTION.exec(text);
      if (!m) return false;
      at = { id: `${m[1]}:${functionOf(m[2]!, m[3]!)}`, file: sink.path(m[4]!), line: Number(m[5]), lineNo };
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const eunitFormat: FormatDefinition = {
  name: "eunit",
  description: "EUnit (Erlang): `in function mod:fun/0 (file.erl, line N)` over its `**error:` exception",
  create: createEunitParser,
};
