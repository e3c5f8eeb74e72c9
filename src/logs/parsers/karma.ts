/**
 * Karma's progress reporter (Angular's `ng test`, karma-jasmine): a failed spec is printed as
 * `Chrome Headless 120.0.0.0 (Linux x86_64) Cart totals adds tax FAILED`, its messages and frames indented under it
 * (by a tab); the progress line `Chrome Headless …: Executed 12 of 40 (1 FAILED) (0.3 secs / 0.2 secs)` is redrawn as
 * the run goes, and a failure may be printed again with it. `TOTAL: 1 FAILED, 39 SUCCESS` ends a multi-browser run.
 *
 * The id is Jasmine's full name of the spec (describes and title joined with spaces) without the browser label,
 * as for Jasmine's own reporter (docs/test-ids.md); a spec printed again (a redraw, a second browser) is one test.
 * Other frameworks under Karma (karma-qunit, karma-mocha with the progress reporter) print the same line: QUnit's
 * module and test name, an empty module leaving two spaces after the label (`… (Mac OS X 10.8.4)  should work FAILED`).
 */
import { BlockBuffer, type FormatDefinition, jsFrameLocation, type ParserSink } from "../parser.ts";
import { machineTestFile } from "./jest.ts";

const BROWSER = "[A-Z][\\w]*(?: [A-Z][\\w]*)* \\d+(?:\\.\\d+)+ \\([^)]*\\)";
const FAILED = new RegExp(`^(?:${BROWSER}) (.+) FAILED$`);
const EXECUTED =
  /^(?:.*\)): Executed (\d+) of (\d+)(?: \((\d+) FAILED\))?(?: \(skipped (\d+)\))?(?: (SUCCESS|ERROR|DISCONNECTED))?/;
const TOTAL = /^TOTAL: (?:(\d+) FAILED, )?(\d+) SUCCESS$/;

export function createKarmaParser(sink: ParserSink) {
  let block: { id: string; buf: BlockBuffer } | null = null;
  const reported = new Set<string>();

  function close(): void {
    if (!block) return;
    const b = block;
    block = null;
    if (reported.has(b.id)) return;
    reported.add(b.id);
    const lines = b.buf.lines.slice(1);
    const frame = jsFrameLocation(lines, sink);
    // A machine's absolute path no checkout prefix removed (Karma run on a developer's machine or a Jenkins agent's
    // own directory): taken from its topmost source or test directory, as jest's; kept as printed when it has none.
    const from = frame ? machineTestFile(frame.file) : null;
    const at = frame && from !== null ? { ...frame, file: from.includes("/") ? from : frame.file } : frame;
    const message = lines
      .map((l) => l.trim())
      .filter((t) => t !== "" && !t.startsWith("at "))
      .slice(0, 20);
    sink.test(b.id, "failed", at?.file ?? null);
    sink.failure({
      category: "test",
      test: b.id,
      file: at?.file ?? null,
      line: at?.line ?? null,
      column: at?.column ?? null,
      message: message.join("\n") || b.id,
      stack: b.buf.text(),
      start: b.buf.start,
      end: b.buf.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (block) {
        if (text.charCodeAt(0) === 9 /* tab */ || text.startsWith("    ")) {
          block.buf.push(text, lineNo);
          return true;
        }
        close();
      }
      if (text.endsWith(" FAILED") && text.includes(") ")) {
        const f = FAILED.exec(text);
        // Karma prints the spec's suite names and description joined by spaces: a framework with an empty suite
        // name (QUnit's tests outside any module) leaves a space more after the browser label, no part of the name.
        const id = f ? f[1]!.trim() : "";
        if (f && id !== "") {
          block = { id, buf: new BlockBuffer() };
          block.buf.push(text, lineNo);
          return true;
        }
      }
      if (text.includes(": Executed ")) {
        const e = EXECUTED.exec(text);
        if (!e) return false;
        // The progress line is redrawn as specs finish: only the last one (all specs run) counts.
        if (e[1] === e[2]) {
          const failed = Number(e[3] ?? 0);
          const skipped = Number(e[4] ?? 0);
          sink.summary({ failed, skipped, passed: Math.max(0, Number(e[1]) - failed - skipped) });
        }
        return true;
      }
      if (text.startsWith("TOTAL: ")) {
        const t = TOTAL.exec(text);
        if (!t) return false;
        sink.summary({ failed: Number(t[1] ?? 0), passed: Number(t[2]) });
        return true;
      }
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const karmaFormat: FormatDefinition = {
  name: "karma",
  description: "Karma's progress reporter (`Chrome … (Linux) spec FAILED` lines, Executed N of M)",
  create: createKarmaParser,
};
