/**
 * vows' spec reporter (Node's old BDD runner): each context at two spaces (nested contexts printed on one line, their
 * titles joined by spaces), its vows under it at four, `✓ vow` honored, `✗ vow` broken or errored, the error and its
 * frames at six; the run ends with `✗ Broken » 1 honored ∙ 1 broken` (`✗ Errored » …`, `✓ OK » 3 honored`).
 *
 * A `✗` vow is read only as vows': its block holds a frame of vows' own runner (`node_modules/vows/lib/`), or the log
 * has vows' `Broken`/`Errored` summary line. The id is `context > vow` (docs/test-ids.md); the place is the first frame
 * in the project.
 */
import { type FormatDefinition, jsFrameLocation, own, type ParserSink } from "../parser.ts";

const CONTEXT = /^ {2}(\S.*?)\s*$/;
const VOW = /^ {4}(✓|✗) (\S.*?)\s*$/;
const VOWS_FRAME = /[\\/]vows[\\/]lib[\\/]/;
const SUMMARY = /^\s*✗ (?:Broken|Errored) » /;

interface Broken {
  id: string;
  lines: string[];
  start: number;
  end: number;
  /** A frame of vows' runner is in the block. */
  vows: boolean;
}

export function createVowsParser(sink: ParserSink) {
  let context: string | null = null;
  let open: Broken | null = null;
  /** Broken vows with no vows frame, waiting for vows' summary line. */
  const waiting: Broken[] = [];
  let summarized = false;

  function report(b: Broken): void {
    const at = jsFrameLocation(b.lines, sink);
    const body = b.lines.map((l) => l.trim()).filter((l) => l !== "");
    const message = body.filter((l) => !l.startsWith("at ")).slice(0, 20);
    sink.test(b.id, "failed", at?.file ?? null);
    sink.failure({
      category: "test",
      test: b.id,
      file: at?.file ?? null,
      line: at?.line ?? null,
      column: at?.column ?? null,
      errorType: /^(\w*Error)\b/.exec(message[0] ?? "")?.[1] ?? null,
      message: message.join("\n") || `${b.id} failed`,
      stack: b.lines.join("\n"),
      start: b.start,
      end: b.end,
    });
  }

  function close(): void {
    const b = open;
    open = null;
    if (!b) return;
    if (b.vows || summarized) report(b);
    else if (waiting.length < 1000) waiting.push(b);
  }

  return {
    line(text: string, lineNo: number): boolean {
      if (open) {
        if (text.trim() === "" || /^ {6}/.test(text)) {
          if (open.lines.length < 60) open.lines.push(own(text));
          if (VOWS_FRAME.test(text) && /^\s+at /.test(text)) open.vows = true;
          open.end = lineNo;
          return true;
        }
        close();
      }
      // Lines not opening with a space matter only as the end of a context (and vows' summary line).
      if (text.charCodeAt(0) !== 32) {
        if (text.length > 0 && text.charCodeAt(0) === 0x2717 && SUMMARY.test(text)) {
          summarized = true;
          for (const b of waiting.splice(0)) report(b);
          return true;
        }
        if (text.length > 0) context = null;
        return false;
      }
      if (SUMMARY.test(text)) {
        summarized = true;
        for (const b of waiting.splice(0)) report(b);
        return true;
      }
      const v = VOW.exec(text);
      if (v) {
        if (v[1] === "✗" && context !== null) {
          open = { id: own(`${context} > ${v[2]!}`), lines: [], start: lineNo, end: lineNo, vows: false };
          return true;
        }
        return false;
      }
      const c = CONTEXT.exec(text);
      if (c) context = own(c[1]!);
      else if (text.trim() !== "" && !/^ {4}/.test(text)) context = null;
      return false;
    },
    end(): void {
      close();
    },
  };
}

export const vowsFormat: FormatDefinition = {
  name: "vows",
  description: "vows' spec reporter",
  create: createVowsParser,
};
