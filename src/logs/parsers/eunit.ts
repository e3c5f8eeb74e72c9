/**
 * EUnit (Erlang, `rebar3 eunit`, `erl -eval 'eunit:test(…)'`): a failed test prints where it failed,
 * `in function kiln_tests:heat_test/0 (test/kiln_tests.erl, line 12)` (a fun a generator returned is named by the
 * compiler, `'-heat/1-fun-0-'/2`), then the exception as EUnit writes it, `**error:{assertEqual_failed,[…]}` (or
 * `**exit:`, `**throw:`). The `in function` line counts only with that exception line right under it.
 *
 * The id is `module:function/arity` of the test function; for a compiler-named fun, the function it is in
 * (`kiln_tests:heat/1`). Placed at the file and line the `in function` line names (docs/test-ids.md).
 *
 * When the exception was raised below the test (a library call: `in function code:load/1`, then `called as …` and
 * `in call from …` lines up the stack), the test is the frame EUnit's `mod: name...*failed*` line above names; a
 * frame without its `(file, line N)` gives no place. A rebar3 build copy (`…/_build/test/lib/APP/src/x.erl`) is
 * placed at the application's own file (`src/x.erl`).
 *
 * Failures are held until their run's summary: `Failed: 1.  Skipped: 0.  Passed: 3.` confirms them, and
 * `All 4 tests passed.` (`Test passed.` for one) says nothing above it since the last summary failed, so a green
 * run yields none whatever its tests printed. A log cut before any summary keeps what it holds.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const IN_FUNCTION = /^[ \t]*in function ([a-z]\w*):('[^']+'|[a-z]\w*)\/(\d+) \(([^,()]+\.erl), line (\d+)\)$/;
/** A frame of the stack EUnit prints: its first (`in function`), the callers under it (`in call from`). */
const FRAME =
  /^[ \t]*in (function|call from) ([a-z]\w*):('[^']+'|[a-z]\w*)\/(\d+)(?: \(([^,()]+\.erl), line (\d+)\))?$/;
/** The arguments EUnit prints under a frame (`  called as load("../test/")`). */
const CALLED_AS = /^[ \t]+called as /;
/** EUnit's line for a failed test: `mod: name...*failed*` (`mod:12: name`, a description in parentheses). */
const FAILED_TEST = /^\s*([a-z]\w*):(?:\d+:)? ([a-z]\w*)(?: \(.*\))?\.\.\.(?:\[[\d.]+ s\] )?\*failed\*\s*$/;
/** rebar3 builds an application in `_build/PROFILE/lib/APP/`, a copy of (or links to) its own directories. */
const REBAR_BUILD = /^(?:.*\/)?_build\/[^/]+\/lib\/[^/]+\/(?=(?:src|test|include)\/)/;
const EXCEPTION = /^[ \t]*\*\*(error|exit|throw):(.*)$/;
const ALL_PASSED = /^\s*(?:All (\d+) tests passed|Test passed)\.\s*$/;
const COUNTS = /^\s*Failed: (\d+)\.\s+Skipped: (\d+)\.\s+Passed: (\d+)\.\s*$/;

function functionOf(name: string, arity: string): string {
  const fun = /^'-(.+)\/(\d+)-fun-\d+-'$/.exec(name);
  if (fun) return `${fun[1]}/${fun[2]}`;
  return `${name.replace(/^'(.*)'$/, "$1")}/${arity}`;
}

interface Frame {
  module: string;
  fn: string;
  arity: string;
  file: string | null;
  line: number | null;
}

interface Located {
  id: string;
  file: string | null;
  line: number | null;
  lineNo: number;
}

export function createEunitParser(sink: ParserSink) {
  let at: Located | null = null;
  /** The stack being read (from its `in function` line), and the test the last `*failed*` line named. */
  let chain: { frames: Frame[]; lineNo: number } | null = null;
  let failedTest: { module: string; fn: string } | null = null;
  const reported = new Set<string>();
  /** The failures of the run being read, until its summary. */
  let held: {
    a: Located;
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

  function frameOf(fr: RegExpExecArray): Frame {
    return {
      module: fr[2]!,
      fn: fr[3]!.replace(/^'(.*)'$/, "$1"),
      arity: fr[4]!,
      file: fr[5] ? sink.path(fr[5].replace(REBAR_BUILD, "")) : null,
      line: fr[6] ? Number(fr[6]) : null,
    };
  }

  return {
    line(text: string, lineNo: number): boolean {
      const a = at;
      at = null;
      const c0 = chain;
      if (a || c0) {
        const e = EXCEPTION.exec(text);
        if (e) {
          chain = null;
          const t = failedTest;
          const f = t && c0 ? (c0.frames.find((x) => x.module === t.module && x.fn === t.fn) ?? null) : null;
          const test = f
            ? { id: `${f.module}:${f.fn}/${f.arity}`, file: f.file, line: f.line, lineNo: c0!.lineNo }
            : a;
          failedTest = null;
          if (test && held.length < 10_000)
            held.push({ a: test, type: e[1]!, message: e[2]!.trim(), end: lineNo });
          if (test) return true;
        } else if (c0 && CALLED_AS.test(text)) return false;
        else if (c0) {
          const fr = text.includes(" call from ") ? FRAME.exec(text) : null;
          if (fr && c0.frames.length < 100) {
            c0.frames.push(frameOf(fr));
            return false;
          }
          chain = null;
        }
      }
      if (text.includes("*failed*")) {
        const t = FAILED_TEST.exec(text);
        if (t) failedTest = { module: t[1]!, fn: t[2]! };
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
      const fr = FRAME.exec(text);
      if (fr?.[1] === "function") chain = { frames: [frameOf(fr)], lineNo };
      const m = IN_FUNCTION.exec(text);
      if (!m) return false;
      at = {
        id: `${m[1]}:${functionOf(m[2]!, m[3]!)}`,
        file: sink.path(m[4]!.replace(REBAR_BUILD, "")),
        line: Number(m[5]),
        lineNo,
      };
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
