/**
 * The VS Code C# extension's test output (its own summary, not VSTest's console logger): `----- Running test method
 * "Ns.Class.Method" -----`, the build's output, then `----- Test Execution Summary -----` with one entry per test,
 * `Ns.Class.Method: Failed` and its indented `Outcome: Failed` / `Error Message: …` / `Stack Trace: …` lines, and the
 * `Total tests: 1. Passed: 0. Failed: 1. Skipped: 0` count. Only entries under that heading are read.
 *
 * The id is the entry's full name, `Namespace.Class.Method`, as `dotnet test` names it (docs/test-ids.md).
 */
import { BlockBuffer, type FormatDefinition, own, type ParserSink } from "../parser.ts";

const HEADING = /^-{3,} Test Execution Summary -{3,}\s*$/;
const ENTRY = /^(\S+): (Failed|Passed|Skipped|NotExecuted)\s*$/;
const COUNT = /^Total tests: (\d+)\. Passed: (\d+)\. Failed: (\d+)\. Skipped: (\d+)/;

export function createVscodeDotnetParser(sink: ParserSink) {
  let inSummary = false;
  let open: { name: string; buf: BlockBuffer; message: string | null } | null = null;

  function close(): void {
    const o = open;
    open = null;
    if (!o) return;
    sink.failure({
      category: "test",
      test: o.name,
      message: o.message ?? "failed",
      stack: o.buf.text(),
      start: o.buf.start,
      end: o.buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (HEADING.test(text)) {
        close();
        inSummary = true;
        return true;
      }
      if (!inSummary) return false;
      const e = ENTRY.exec(text);
      if (e) {
        close();
        const name = own(e[1]!);
        const outcome = e[2] === "Failed" ? "failed" : e[2] === "Passed" ? "passed" : "skipped";
        sink.test(name, outcome);
        if (outcome === "failed") {
          open = { name, buf: new BlockBuffer(80, 8_000), message: null };
          open.buf.push(text, lineNo);
        }
        return true;
      }
      const c = COUNT.exec(text);
      if (c) {
        close();
        inSummary = false;
        sink.summary({ passed: Number(c[2]), failed: Number(c[3]), skipped: Number(c[4]) });
        return true;
      }
      if (open && (text.startsWith(" ") || text.startsWith("\t") || text === "")) {
        open.buf.push(text, lineNo);
        const m = /^\s+Error Message:\s*(.*)$/.exec(text);
        if (m && open.message === null) open.message = own(m[1]!);
        return true;
      }
      close();
      if (text.trim() !== "") inSummary = false;
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const vscodeDotnetFormat: FormatDefinition = {
  name: "vscode-dotnet",
  description:
    "VS Code C# extension's test summary (----- Test Execution Summary -----, Ns.Class.Method: Failed)",
  create: createVscodeDotnetParser,
  wakesOn: /^-{3,} Test Execution Summary/,
};
