/**
 * rackunit (Racket), its text UI (`run-tests`) and `raco test`: each failed or errored check is a block between two
 * 20-dash rules, the test's path (`Suite > test`, suites and test case joined by ` > `; none for a check outside a test
 * case), the verdict line `FAILURE` or `ERROR` (the text UI's verbose mode prints it `. FAILURE`), then the check's
 * fields (`name:`, `location:`, `actual:`, `expected:`, `message:`); the text UI ends in
 * `N success(es) N failure(s) N error(s) N test(s) run`, `raco test` in `N failure(s)`/`N tests passed`.
 *
 * A block counts only with its verdict line right under the rule or the name line, and a field line under it. The id
 * is the path as printed (a block without one names no test: the check's place is its failure); placed at the
 * `location:` field's file and line when it names a Racket file (DrRacket's unsaved buffer names none).
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RULE = /^-{20}\s*$/;
const VERDICT = /^(?:\. )?(FAILURE|ERROR)\s*$/;
const FIELD = /^([a-z][\w-]*):\s+(.*)$/;
const LOCATION = /^(\S+\.(?:rkt|scrbl|ss|scm)):(\d+):(\d+)\s*$/;
const COUNT = /^(\d+) success\(es\) (\d+) failure\(s\) (\d+) error\(s\) (\d+) test\(s\) run\s*$/;

export function createRackunitParser(sink: ParserSink) {
  /** `rule`: after a rule; `name`: a name line read; `verdict`: the verdict read, fields awaited; `fields`: inside them. */
  let state: "none" | "rule" | "name" | "verdict" | "fields" = "none";
  let block: {
    test: string | null;
    start: number;
    end: number;
    verdict: string;
    lines: string[];
    file: string | null;
    line: number | null;
  } | null = null;
  let ruleLine = 0;

  function flush(): void {
    const b = block;
    block = null;
    if (!b || state !== "fields") return;
    if (b.test !== null) sink.test(b.test, "failed", b.file);
    sink.failure({
      category: "test",
      test: b.test,
      file: b.file,
      line: b.line,
      message: b.lines.join("\n"),
      start: b.start,
      end: b.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (RULE.test(text)) {
        flush();
        state = "rule";
        ruleLine = lineNo;
        // Not claimed: a rule of 20 dashes is no mark of rackunit's alone.
        return false;
      }
      const c = COUNT.exec(text);
      if (c) {
        flush();
        state = "none";
        sink.summary({ passed: Number(c[1]), failed: Number(c[2]), error: Number(c[3]) });
        return true;
      }
      const v = VERDICT.exec(text);
      if (v && (state === "rule" || state === "name")) {
        const test = state === "name" ? block!.test : null;
        block = { test, start: ruleLine, end: lineNo, verdict: v[1]!, lines: [], file: null, line: null };
        state = "verdict";
        return true;
      }
      if (state === "rule" && text.trim() !== "") {
        block = {
          test: own(text.trim()),
          start: ruleLine,
          end: lineNo,
          verdict: "",
          lines: [],
          file: null,
          line: null,
        };
        state = "name";
        return false;
      }
      if ((state === "verdict" || state === "fields") && block) {
        const f = FIELD.exec(text);
        if (f || (state === "fields" && (text.trim() === "" || /^\s/.test(text)))) {
          state = "fields";
          block.end = lineNo;
          if (block.lines.length < 40 && text.trim() !== "") block.lines.push(own(text.trim()));
          if (f?.[1] === "location" && block.file === null) {
            const l = LOCATION.exec(f[2]!.trim());
            if (l) {
              block.file = sink.path(l[1]!);
              block.line = Number(l[2]);
            }
          }
          return true;
        }
      }
      flush();
      state = "none";
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const rackunitFormat: FormatDefinition = {
  name: "rackunit",
  description:
    "rackunit's text UI and `raco test`: `FAILURE`/`ERROR` blocks between 20-dash rules, with their fields",
  create: createRackunitParser,
  wakesOn: [/^-{20}\s*$/, /^\d+ success\(es\) /],
};
