/**
 * A Python traceback printed outside a test runner: the import-time `ImportError` /
 * `ModuleNotFoundError`, a `SyntaxError` in a module, or any uncaught exception of a script.
 */
import { BlockBuffer, categoryOfError, type FormatDefinition, type ParserSink } from "../parser.ts";
import { EXCEPTION, FRAME, isUsable, summarizeTraceback } from "./python-traceback.ts";

const START = /^Traceback \(most recent call last\):$/;
/**
 * A script's traceback for another program's exit status (`subprocess.CalledProcessError: Command '[…]' returned
 * non-zero exit status 1`, a packaging tool running `setup.py test`): a status, like rpmbuild's `Bad exit status`; the
 * output above names what failed, or nothing does.
 */
const EXIT_STATUS_ERROR = /(?:^|\.)CalledProcessError$/;
const CHAIN =
  /^(During handling of the above exception, another exception occurred:|The above exception was the direct cause of the following exception:)$/;

/**
 * unittest's rule (70 dashes) under a traceback: the traceback is one of unittest's failure blocks (`FAIL: test_x
 * (mod.Class)`, a rule, the traceback, the next rule), not an uncaught exception. The unittest parser reports the
 * block under its header; a tail cut above the header names no test, and there is nothing to report.
 */
const UNITTEST_RULE = /^-{70}$/;

/**
 * conda-build's generated test script (`<croot>/<pkg>_<stamp>/test_tmp/run_test.py`, run after its `import: 'pkg'`
 * lines): the recipe's test of the package it built. A traceback from it (its outermost frame) is the package's failure (a module it did not
 * install), in a file conda-build wrote, at no place in the repository: nothing to report as a failure.
 */
const CONDA_TEST_SCRIPT = /[\\/]test_tmp[\\/]run_test\.py$/;

/**
 * Whether a script's traceback is no failure of the project's code: an exception that is no import or syntax error,
 * raised inside an installed package or the standard library (its innermost frame there), is the environment's (an
 * installed package that does not match what the script expects, `module 'x' has no attribute 'y'` inside it), or a
 * tool's; with no test runner around it, it names no test and no place of the project where it went wrong.
 */
function outsideProject(lines: readonly string[], category: string): boolean {
  let outermost: string | null = null;
  let innermost: string | null = null;
  for (const l of lines) {
    const f = FRAME.exec(l);
    if (!f) continue;
    outermost ??= f[1]!;
    innermost = f[1]!;
  }
  if (innermost === null || outermost === null) return false;
  if (CONDA_TEST_SCRIPT.test(outermost)) return true;
  return category === "test" && !isUsable(innermost);
}

export function createPythonParser(sink: ParserSink) {
  let buf: BlockBuffer | null = null;
  /** After the exception line: a chained traceback may follow (blank line, then a chain marker). */
  let afterException = false;

  /** `next`: the line that ended the traceback. */
  function flush(next?: string): void {
    if (!buf) return;
    const tb = summarizeTraceback(buf.lines, sink);
    const category = tb.errorType ? categoryOfError(tb.errorType, "test") : "test";
    if (
      tb.errorType &&
      !EXIT_STATUS_ERROR.test(tb.errorType) &&
      !(next && UNITTEST_RULE.test(next)) &&
      !outsideProject(buf.lines, category)
    ) {
      sink.failure({
        category,
        test: null,
        file: tb.file,
        line: tb.line,
        errorType: tb.errorType,
        message: tb.message || tb.errorType,
        stack: buf.text(),
        start: buf.start,
        end: buf.end,
      });
    }
    buf = null;
    afterException = false;
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (START.test(text)) {
        if (buf && afterException) {
          buf.push(text, lineNo);
          afterException = false;
          return true;
        }
        flush();
        buf = new BlockBuffer();
        buf.push(text, lineNo);
        return true;
      }
      if (!buf) return false;
      if (afterException) {
        if (text.trim() === "" || CHAIN.test(text)) {
          buf.push(text, lineNo);
          return true;
        }
        // Message continuation lines of the exception (SyntaxError details are indented, before it).
        flush(text);
        return false;
      }
      if (text.startsWith(" ") || text.startsWith("\t") || FRAME.test(text)) {
        buf.push(text, lineNo);
        return true;
      }
      const e = EXCEPTION.exec(text);
      if (e) {
        buf.push(text, lineNo);
        afterException = true;
        return true;
      }
      flush(text);
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const pythonFormat: FormatDefinition = {
  name: "python",
  description:
    "Python tracebacks outside a test runner (ImportError, SyntaxError at import time, uncaught exceptions)",
  create: createPythonParser,
};
