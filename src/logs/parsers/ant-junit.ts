/**
 * Ant's `<junit>` task with its console formatters (`[junit] ` column, which the prefix layer strips). Both head a
 * suite with `Testsuite: pkg.Class` and `Tests run: 28, Failures: 18, Errors: 0, Skipped: 0, Time elapsed: … sec`.
 * The brief formatter prints a line only for a test that failed: `Testcase: name(pkg.Class):\tFAILED` (or
 * `:\tCaused an ERROR`), the JUnit test's own `toString()`, then the message and the stack. The plain formatter prints
 * every test as `Testcase: name took 0.01 sec` and, for one that failed, `\tFAILED` / `\tCaused an ERROR` on the next
 * line.
 *
 * The test's own verdict line is the failure; the suite's count line is only a count (never a failure of its own).
 * A brief `Testcase: name(` line is printed for failures alone, so the log's last line cut inside its class name
 * (`Testcase: testB(edu.acme.Ex`) is a failure too when the cut class is the start of the suite's class: the suite
 * names the class. The id is `pkg.Class.name`, as JUnit XML's `classname.name` (docs/test-ids.md).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const SUITE = /^Testsuite: ([\w$.]+)\s*$/;
const BRIEF = /^Testcase: ([\w$]+)\(([\w$.]+)\):\s+(FAILED|Caused an ERROR)\s*$/;
const BRIEF_CUT = /^Testcase: ([\w$]+)\(([\w$.]*)$/;
const PLAIN = /^Testcase: ([\w$]+) took [\d.,]+ sec\s*$/;
const PLAIN_VERDICT = /^\s*(FAILED|Caused an ERROR)\s*$/;
const MAX = 10_000;
/** How many lines of message and stack a failure's span takes below its verdict line. */
const SPAN = 200;

interface Open {
  id: string;
  error: boolean;
  message: string | null;
  start: number;
  end: number;
}

export function createAntJunitParser(sink: ParserSink) {
  let suite: string | null = null;
  let open: Open | null = null;
  /** The plain formatter's last `Testcase: name took …` line, waiting for a verdict on the next line. */
  let plain: { name: string; lineNo: number } | null = null;
  /** The last non-blank line, when it is a brief line cut inside its class name. */
  let cut: { name: string; cls: string; lineNo: number } | null = null;
  const seen = new Set<string>();

  function close(): void {
    if (!open) return;
    const o = open;
    open = null;
    if (seen.has(o.id) || seen.size >= MAX) return;
    seen.add(o.id);
    sink.test(o.id, o.error ? "error" : "failed");
    sink.failure({
      category: "test",
      test: o.id,
      errorType: null,
      message: o.message ?? (o.error ? "Caused an ERROR" : "FAILED"),
      start: o.start,
      end: o.end,
    });
  }

  function start(id: string, error: boolean, lineNo: number): void {
    close();
    open = { id: own(id), error, message: null, start: lineNo, end: lineNo };
  }

  return {
    line(text: string, lineNo: number): boolean {
      const c0 = text.charCodeAt(0);
      // A printable ASCII first character is a non-blank line without trimming it.
      if ((c0 > 32 && c0 < 127) || text.trim() !== "") cut = null;
      const pending = plain;
      plain = null;
      if (pending && pending.lineNo === lineNo - 1) {
        const v = PLAIN_VERDICT.exec(text);
        if (v && suite) {
          start(`${suite}.${pending.name}`, v[1] !== "FAILED", pending.lineNo);
          open!.end = lineNo;
          return true;
        }
      }
      if (text.charCodeAt(0) === 84 /* T */) {
        const s = SUITE.exec(text);
        if (s) {
          close();
          suite = own(s[1]!);
          return true;
        }
        if (text.startsWith("Testcase: ")) {
          const b = BRIEF.exec(text);
          if (b) {
            start(`${b[2]}.${b[1]}`, b[3] !== "FAILED", lineNo);
            return true;
          }
          const p = PLAIN.exec(text);
          if (p) {
            close();
            plain = { name: own(p[1]!), lineNo };
            return true;
          }
          const c = BRIEF_CUT.exec(text);
          if (c) {
            close();
            cut = { name: own(c[1]!), cls: own(c[2]!), lineNo };
            return true;
          }
        }
      }
      if (open) {
        if (lineNo - open.start > SPAN || text.trim() === "") close();
        else {
          if (open.message === null) open.message = own(text.trim());
          open.end = lineNo;
          return true;
        }
      }
      return false;
    },
    end(): void {
      close();
      if (cut && suite?.startsWith(cut.cls)) {
        start(`${suite}.${cut.name}`, false, cut.lineNo);
        open!.message = "Testcase line cut by the end of the log";
        close();
      }
    },
  };
}

export const antJunitFormat: FormatDefinition = {
  name: "ant-junit",
  description: "Ant's <junit> task console formatters: Testsuite: / Testcase: name(Class):\\tFAILED lines",
  create: createAntJunitParser,
  // Fresh, only `Testsuite: ` and `Testcase: ` lines are asked.
  wakesOn: /^Test(?:suite|case): /,
};
