/**
 * Shared reading of a Python traceback (`Traceback (most recent call last):`, `File "x", line N`
 * frames, then `ErrorType: message`), used by the unittest and import-time parsers.
 */
import type { ParserSink } from "../parser.ts";

export const FRAME = /^\s*File "(.+?)", line (\d+)(?:, in (.*))?$/;
export const EXCEPTION = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)(?:: (.*))?$/;

export interface TracebackSummary {
  file: string | null;
  line: number | null;
  errorType: string | null;
  message: string;
}

/** A frame's file in the project: not the standard library, an installed package or a `<frozen …>`/`<string>` pseudo-file. */
export function isUsable(file: string): boolean {
  return !file.startsWith("<") && !/\/(?:site-packages|dist-packages|lib\/python\d[\d.]*)\//.test(file);
}

/** The innermost frame inside the repository (not the standard library or site-packages) and the final exception. */
export function summarizeTraceback(lines: readonly string[], sink: ParserSink): TracebackSummary {
  let file: string | null = null;
  let line: number | null = null;
  let anyFile: string | null = null;
  let anyLine: number | null = null;
  let errorType: string | null = null;
  let message = "";
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const f = FRAME.exec(l);
    if (f) {
      anyFile = f[1]!;
      anyLine = Number(f[2]);
      if (isUsable(f[1]!)) {
        file = f[1]!;
        line = Number(f[2]);
      }
      continue;
    }
    if (
      l.length > 0 &&
      l[0] !== " " &&
      l[0] !== "\t" &&
      !l.startsWith("Traceback") &&
      !l.startsWith("During handling")
    ) {
      const e = EXCEPTION.exec(l);
      if (e && /^[A-Z]|\./.test(e[1]!) && !/^The above exception/.test(l)) {
        errorType = e[1]!;
        const rest = [e[2] ?? ""];
        // Multi-line messages: following lines up to the end of the block.
        for (let j = i + 1; j < lines.length && j < i + 10; j++) {
          const next = lines[j]!;
          if (
            next.startsWith("Traceback") ||
            next.startsWith("During handling") ||
            next.startsWith("The above")
          )
            break;
          rest.push(next);
        }
        message = rest.join("\n").trim();
      }
    }
  }
  const chosenFile = file ?? anyFile;
  return {
    file: chosenFile && !chosenFile.startsWith("<") ? sink.path(chosenFile) : null,
    line: file ? line : anyLine,
    errorType,
    message,
  };
}
