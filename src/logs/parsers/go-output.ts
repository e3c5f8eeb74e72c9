/**
 * Reading what one Go test printed: `file_test.go:12: message` log lines, or a panic with its
 * goroutine trace. Shared by the plain and `-json` go parsers.
 */
import type { FailureDraft, ParserSink } from "../parser.ts";

const LOG_LINE = /^\s*([\w./-]+\.go):(\d+): (.*)$/;
const PANIC = /^\s*panic: (.*?)(?: \[recovered\])?$/;
const FRAME = /^\t((?:[A-Za-z]:)?\/\S+\.go|\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;

export function goFailureFromOutput(
  id: string,
  output: readonly string[],
  sink: ParserSink,
  span: { start: number; end: number },
): FailureDraft | null {
  let file: string | null = null;
  let line: number | null = null;
  let errorType: string | null = null;
  const messages: string[] = [];
  let panicMessage: string | null = null;
  for (const l of output) {
    if (/^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)|--- (?:FAIL|PASS|SKIP):)/.test(l)) continue;
    const p = PANIC.exec(l);
    if (p && panicMessage === null) {
      panicMessage = p[1]!;
      errorType = "panic";
      continue;
    }
    if (panicMessage !== null) {
      const f = FRAME.exec(l);
      if (f && file === null) {
        const mapped = sink.path(f[1]!);
        // The first frame inside the repository (GOROOT and module cache stay absolute).
        if (!mapped.startsWith("/") && !/^[A-Za-z]:\//.test(mapped) && !mapped.includes("/pkg/mod/")) {
          file = mapped;
          line = Number(f[2]);
        }
      }
      continue;
    }
    const m = LOG_LINE.exec(l);
    if (m) {
      if (file === null) {
        file = sink.path(m[1]!);
        line = Number(m[2]);
      }
      if (messages.length < 30) messages.push(m[3]!);
    } else if (messages.length > 0 && messages.length < 30 && /^\s{8,}\S/.test(l)) {
      // Continuation of a multi-line t.Errorf message.
      messages.push(l.trim());
    }
  }
  const message = panicMessage ?? messages.join("\n");
  const stack = output.join("\n").trim();
  if (!message && !stack) return null;
  return {
    category: "test",
    test: id,
    file,
    line,
    errorType,
    message: message || "test failed",
    stack: stack || null,
    start: span.start,
    end: span.end,
  };
}
