/**
 * Boost.Test (C++) console output: `Running 48 test cases...`, then a line per failed check,
 * `test/x.cpp(37): error: in "Suite/Case": check a == b has failed [0 != 1]` (`fatal error:`, Boost before 1.59
 * `error in "Case": …`; an exception outside any check at `unknown location(0)`), and the closing
 * `*** 3 failures are detected in the test module "M"` (`*** No errors detected`).
 *
 * A check line counts only in a log holding Boost.Test's own `Running N test cases...` line or its failure count line,
 * and not when its run closes with `*** No errors detected` (each `Running N test cases...` opens a run of its own: a
 * later binary's green close does not hide an earlier one's failures). A later run of the same binary (a CI retry)
 * gives the case its last verdict: a run that names the same test module (`*** N failures are detected in the test
 * module "M"`, `Entering test module "M"` at `--log_level=test_suite`) and fails other cases passed this one, and a
 * case a later run entered and left (`Entering test case "Heats"` … `Leaving test case "Heats"`) with no failed check
 * passed there; a bare `*** No errors detected`, which names no module, is another binary's, unless the run was started by
 * the same command line as the failed run (the default log level names no module: the line right above each `Running N
 * test cases...` is the same shell trace, prompt or program path, and the count is the same), a retry of that binary
 * whose green verdict passes the cases the earlier run failed. The id is the case's path as quoted (`Suite/Case`, what
 * `--run_test` takes), one failure per case, placed at its first check line's file and line.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const RUNNING = /^Running \d+ test cases?\.\.\.$/;
const CHECK = /^(.+?)\((\d+)\): (?:fatal )?error:? in "([^"]+)": (.*)$/;
const FAILURES = /^\*\*\* \d+ failures? (?:is|are) detected in (?:the )?test (?:module|suite|case) "/;
const NO_ERRORS = /^\*\*\* No errors detected/;
const MODULE = /^\*\*\* \d+ failures? (?:is|are) detected in (?:the )?test module "([^"]+)"/;
/** `--log_level=test_suite`'s lines, behind the file and line Boost puts before them (`x.cpp(12): `) or none. */
const ENTERING = /^(?:.+?\(\d+\): )?Entering test (module|suite|case) "([^"]+)"/;
const LEAVING = /^(?:.+?\(\d+\): )?Leaving test (module|suite|case) "([^"]+)"/;
/**
 * A line that starts a program: a shell trace (`+ ./kettle_test`), a prompt (`$ build/kettle_test`), or a program path
 * (`build/tests/kettle_test --log_level=error`, `C:\\build\\kettle_test.exe`). A heading that names no program (`Running
 * tests`) is no evidence of which binary ran.
 */
const COMMAND = /^(?:[+$] +\S|\.{1,2}[\\/]\S|[\\/]\S|[A-Za-z]:[\\/]|[\w.-]+[\\/]\S)/;

export function createBoostTestParser(sink: ParserSink) {
  let confirmed = false;
  /** The current run closed with `*** No errors detected`. */
  let green = false;
  /** The `*** N failures are detected` line: the run failed, named or not. */
  let counted = false;
  /** A run that failed with no case named. */
  let unnamed = false;
  type Case = { file: string | null; line: number | null; message: string; lineNo: number; end: number };
  /** The current run's cases. */
  let cases = new Map<string, Case>();
  /** The cases of the runs closed before it and not green, with the test module of their run when it was named. */
  const kept = new Map<string, Case & { module: string | null; opener: string | null }>();
  /** The current run's test module, when a line names it; and whether the run closed (its count or verdict line). */
  let module: string | null = null;
  let finished = false;
  /** The suites entered and not left (`--log_level=test_suite`), and the case being run. */
  const suites: string[] = [];
  let running: { id: string; failed: boolean } | null = null;
  /** The cases the current run entered and left with no failed check. */
  let passed = new Set<string>();
  /** The last line read that is not blank and not Boost.Test's own: what started the next run, when it is a command. */
  let previous: string | null = null;
  /** The command line and case count that opened the current run (`Running N test cases...` under it), if any. */
  let opener: string | null = null;

  /** Closes the current run: its cases are kept unless it closed green. */
  function close(): void {
    // A retry's verdict is the case's: a case this run passed, or did not fail in a run of the same module.
    for (const [id, c] of kept)
      if (
        passed.has(id) ||
        (finished && module !== null && c.module === module && !cases.has(id)) ||
        (green && opener !== null && c.opener === opener)
      )
        kept.delete(id);
    if (!green) {
      if (counted && cases.size === 0) unnamed = true;
      for (const [id, c] of cases)
        if (!kept.has(id) && kept.size < 10_000) kept.set(id, { ...c, module, opener });
    }
    opener = null;
    cases = new Map();
    green = false;
    counted = false;
    module = null;
    finished = false;
    passed = new Set();
    suites.length = 0;
    running = null;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (RUNNING.test(text)) {
        close();
        confirmed = true;
        opener = previous !== null && COMMAND.test(previous) ? own(`${previous}\n${text}`) : null;
        previous = null;
        return true;
      }
      if (
        text.trim() !== "" &&
        text.charCodeAt(0) !== 42 &&
        !text.includes(' in "') &&
        !text.includes("ing test ")
      )
        previous = text.length <= 500 ? text : null;
      if (text.charCodeAt(0) === 42) {
        if (FAILURES.test(text)) {
          confirmed = true;
          counted = true;
          finished = true;
          module = MODULE.exec(text)?.[1] ?? module;
          return true;
        }
        if (NO_ERRORS.test(text)) {
          green = true;
          finished = true;
          return true;
        }
        return false;
      }
      if (text.includes("ing test ")) {
        const e = ENTERING.exec(text);
        if (e) {
          if (e[1] === "module") module = e[2]!;
          else if (e[1] === "suite" && suites.length < 100) suites.push(e[2]!);
          else if (e[1] === "case") running = { id: own([...suites, e[2]!].join("/")), failed: false };
          return true;
        }
        const l = LEAVING.exec(text);
        if (l) {
          if (l[1] === "module") finished = true;
          else if (l[1] === "suite") suites.pop();
          else if (l[1] === "case" && running) {
            if (!running.failed && passed.size < 10_000) passed.add(running.id);
            running = null;
          }
          return true;
        }
      }
      const c = text.includes(' in "') ? CHECK.exec(text) : null;
      if (!c) return false;
      const id = c[3]!;
      if (running) running.failed = true;
      const known = cases.get(id);
      if (known) known.end = lineNo;
      else if (cases.size < 10_000) {
        const unknown = c[1] === "unknown location";
        cases.set(own(id), {
          file: unknown ? null : sink.path(c[1]!),
          line: unknown ? null : Number(c[2]),
          message: own(c[4]!),
          lineNo,
          end: lineNo,
        });
      }
      return true;
    },
    end(): void {
      close();
      if (!confirmed) return;
      // The count line with no check line naming a case (a paste that kept only it): failed, nothing named.
      if (unnamed && kept.size === 0) sink.unnamed();
      for (const [test, f] of kept) {
        sink.test(test, "failed", f.file);
        sink.failure({
          category: "test",
          test,
          file: f.file,
          line: f.line,
          message: f.message,
          start: f.lineNo,
          end: f.end,
        });
      }
    },
  };
}

export const boostTestFormat: FormatDefinition = {
  name: "boost-test",
  description:
    'Boost.Test (C++) console output: `file(N): error: in "Suite/Case": …` lines, `Running N test cases...`',
  create: createBoostTestParser,
};
