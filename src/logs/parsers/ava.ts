/**
 * AVA's reporters, as far as a test file that crashes: AVA runs each test file in its own process and, when that
 * process exits badly, prints `✖ test/x.js exited with a non-zero exit code: 1` (`✘ [fail]: …` from AVA 4, `exited
 * due to SIGKILL` for a signal), with `N exceptions` / `N uncaught exceptions` among the counts. Such a file is a
 * failure with no test id (docs/test-ids.md): the failure is the file's, whichever test was running.
 */
import type { FormatDefinition, ParserSink } from "../parser.ts";

const CRASH =
  /^\s*(?:✖|✘|×) (?:\[fail\]: )?(\S+\.[cm]?[jt]sx?) exited (?:with a non-zero exit code: (\d+)|due to (SIG[A-Z]+))$/;

export function createAvaParser(sink: ParserSink) {
  return {
    line(text: string, lineNo: number): boolean {
      if (!text.includes(" exited ")) return false;
      const c = CRASH.exec(text);
      if (!c) return false;
      sink.failure({
        category: "test",
        file: sink.path(c[1]!),
        errorType: c[3] ?? "ExitCode",
        message: c[3] ? `exited due to ${c[3]}` : `exited with a non-zero exit code: ${c[2]}`,
        stack: text.trim(),
        start: lineNo,
        end: lineNo,
      });
      return true;
    },
    end(): void {},
  };
}

export const avaFormat: FormatDefinition = {
  name: "ava",
  description: "AVA (a test file whose process exited badly)",
  create: createAvaParser,
};
