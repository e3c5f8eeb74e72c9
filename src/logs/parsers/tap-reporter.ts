/**
 * node-tap's own terminal reporter (tap 16's `base`, tap 18's `@tapjs/reporter`), which prints no TAP lines: per test
 * file ` FAIL  test/types.js 2 failed of 805 5.387s`, then each failed assertion as ` ✖ json > should be equal` (the
 * subtest path, joined by ` > `), then its detail: the file alone on an indented line and a numbered code frame whose
 * marker line (`━━━━━┛`) sits under the failing line.
 *
 * A `✖` line counts only under its file's `FAIL … N failed of M` line (jest's ` FAIL  file` has no such count). The id
 * is the path as printed, node-tap's TAP path (`parent > child`, docs/test-ids.md); the place is the frame's marked
 * line in the file above it.
 */
import { type FormatDefinition, own, type ParserSink } from "../parser.ts";

const FILE_FAIL = /^ ?FAIL {1,2}(\S+) (\d+) failed of (\d+)(?: [\d.]+m?s)?\s*$/;
const MARK = /^ ?✖ (\S.*?)\s*$/;
const DETAIL_FILE = /^ {2,}(\S+\.[cm]?[jt]sx?)\s*$/;
const FRAME_LINE = /^ {2,}(\d+) /;
const MARKER = /^\s*━+┛\s*$/;

export function createTapReporterParser(sink: ParserSink) {
  let inFile = false;
  const failed = new Set<string>();
  let current: {
    id: string;
    lineNo: number;
    file: string | null;
    frameLine: number | null;
    line: number | null;
    lines: string[];
    end: number;
  } | null = null;

  function flush(): void {
    if (!current) return;
    const c = current;
    current = null;
    if (failed.has(c.id)) return;
    failed.add(own(c.id));
    sink.test(c.id, "failed");
    sink.failure({
      category: "test",
      test: c.id,
      file: c.line !== null ? c.file : null,
      line: c.line,
      message: "test failed",
      stack: c.lines.join("\n"),
      start: c.lineNo,
      end: c.end,
    });
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (text.includes("FAIL ")) {
        const f = FILE_FAIL.exec(text);
        if (f) {
          flush();
          inFile = true;
          return true;
        }
      }
      if (!inFile) return false;
      const m = MARK.exec(text);
      if (m) {
        flush();
        current = { id: m[1]!, lineNo, file: null, frameLine: null, line: null, lines: [text], end: lineNo };
        return true;
      }
      if (!current) {
        if (text.trim() !== "") inFile = false;
        return text.trim() === "";
      }
      if (current.file === null && current.lines.length === 1) {
        const d = DETAIL_FILE.exec(text);
        if (d) {
          current.file = sink.path(d[1]!);
          current.lines.push(text);
          current.end = lineNo;
          return true;
        }
      }
      if (current.file !== null) {
        const n = FRAME_LINE.exec(text);
        if (n) current.frameLine = Number(n[1]);
        else if (MARKER.test(text) && current.line === null) current.line = current.frameLine;
        else if (text.trim() !== "" && !text.startsWith("  ")) {
          flush();
          inFile = false;
          return false;
        }
        if (current.lines.length < 40) current.lines.push(text);
        current.end = lineNo;
        return true;
      }
      if (text.trim() === "") return true;
      flush();
      inFile = false;
      return false;
    },
    end(): void {
      flush();
    },
  };
}

export const tapReporterFormat: FormatDefinition = {
  name: "tap-reporter",
  description:
    "node-tap's terminal reporter: FAIL file N failed of M, ✖ subtest > assertion, a marked code frame",
  create: createTapReporterParser,
  wakesOn: /^ ?FAIL {1,2}\S+ \d+ failed of \d+/,
};
