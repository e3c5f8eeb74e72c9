/**
 * OCaml's oasis build tool running a package's tests (`ocaml setup.ml -test`, Fedora's and Debian's builds of oasis
 * packages). oasis names each failed test section of `_oasis` on a warning line, `W: Test 'NAME' fails: Command
 * '…/test.native' terminated with error code 2`, and closes with `E: Failure("Tests had a 50.00% failure rate")`.
 * The test program's uncaught exception, printed above by the OCaml runtime (`Fatal error: exception File
 * "tests/x.ml", line 133, characters 4-10: Assertion failed`, or `Fatal error: exception Assert_failure("tests/x.ml",
 * 133, 4)`), places it.
 *
 * The id is the test section's name, what `_oasis` calls it (docs/test-ids.md); a relative path is taken as
 * printed (oasis runs the tests from the package's root), an absolute one only under a known checkout.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const TEST_FAILS = /^W: Test '([^']+)' fails: (.*)$/;
const FATAL_FILE = /^Fatal error: exception File "([^"]+)", line (\d+), characters \d+-\d+: (.*)$/;
const FATAL_ASSERT = /^Fatal error: exception Assert_failure\("([^"]+)", (\d+), \d+\)\s*$/;

export function createOasisParser(sink: ParserSink) {
  /** The last uncaught exception of a test program, waiting for the oasis line that names its test. */
  let fatal: { file: string; line: number; message: string; lineNo: number } | null = null;
  const reported = new Set<string>();

  return {
    line(text: string, lineNo: number): boolean {
      if (text.startsWith("Fatal error: exception ")) {
        const f = FATAL_FILE.exec(text);
        const a = f ? null : FATAL_ASSERT.exec(text);
        const m = f ?? a;
        if (m) {
          const file = sink.path(m[1]!);
          fatal = /^(?:\/|[A-Za-z]:)/.test(file)
            ? null
            : { file, line: Number(m[2]), message: own(f ? f[3]! : "Assert_failure"), lineNo };
        }
        return false;
      }
      if (!text.startsWith("W: Test '")) return false;
      const t = TEST_FAILS.exec(text);
      if (!t) return false;
      const test = own(t[1]!);
      const place = fatal;
      fatal = null;
      if (reported.has(test) || reported.size >= 1_000) return true;
      reported.add(test);
      sink.test(test, "failed");
      sink.failure({
        category: "test",
        test,
        file: place?.file ?? null,
        line: place?.line ?? null,
        message: place ? `${place.message}\n${own(t[2]!)}` : own(t[2]!),
        start: place?.lineNo ?? lineNo,
        end: lineNo,
      });
      return true;
    },
    end(): void {},
  };
}

export const oasisFormat: FormatDefinition = {
  name: "oasis",
  description: "OCaml oasis's test runs (`W: Test 'NAME' fails:` lines)",
  create: createOasisParser,
  wakesOn: [/^Fatal error: exception /, /^W: Test '/],
};
