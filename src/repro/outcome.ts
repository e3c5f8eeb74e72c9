/**
 * What a run did: the exception it died of (Python traceback or Node uncaught error), read from stderr.
 */

export interface RaisedException {
  type: string;
  message: string;
}

/** The last exception of a Python traceback: the first unindented line after the frames, e.g. `KeyError: 'name'`. */
export function parsePythonException(text: string): RaisedException | null {
  const idx = text.lastIndexOf("Traceback (most recent call last):");
  if (idx < 0) {
    // A bare exception line (reporters often paste only that), or frames without their header: the last
    // exception line is the one the process died of (a warning's text may come before it). Markdown emphasis
    // wrapped around a pasted error (`*Exception has occurred: …*`) is not part of the message.
    const bare = [
      ...text
        .trim()
        .replace(/\*+$/, "")
        .matchAll(
          /^((?:[a-z_]\w*\.)+[A-Z]\w*(?=:)|[A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Iteration|Exit))(?::\s?(.*))?$/gm,
        ),
    ].pop();
    return bare?.[1] ? { type: bare[1], message: (bare[2] ?? "").trim() } : null;
  }
  const lines = text.slice(idx).split("\n").slice(1);
  let i = 0;
  // Frames are indented; the exception starts at the first unindented non-empty line.
  while (i < lines.length && (lines[i]!.startsWith(" ") || lines[i]!.trim() === "")) i++;
  const first = lines[i];
  if (!first) return null;
  const m = /^([A-Za-z_][\w.]*)(?::\s?(.*))?$/.exec(first.trim());
  if (!m?.[1]) return null;
  const rest: string[] = [m[2] ?? ""];
  // Multi-line messages continue until a blank line or another traceback.
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.trim() === "" || l.startsWith("Traceback") || /^During handling|^The above exception/.test(l))
      break;
    rest.push(l);
  }
  return { type: m[1], message: rest.join("\n").trim() };
}

const JS_ERROR =
  /^(?:Uncaught\s+)?([A-Z][\w$]*(?:Error|Exception)|Error|AssertionError)(?:\s\[([\w_]+)\])?(?::\s?(.*))?$/;

/** The uncaught error Node printed: the `Type: message` line followed by `    at` frames (or a REPL `Uncaught` line). */
export function parseNodeException(text: string): RaisedException | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    const m = JS_ERROR.exec(line);
    if (!m?.[1]) continue;
    const next = lines[i + 1] ?? "";
    const isRepl = /^Uncaught\s/.test(line);
    // A message that runs over a few lines before its stack (Node's ERR_REQUIRE_ESM adds an "Instead change …" line).
    const continued = lines.slice(i + 1, i + 4);
    const stackAfter = continued.findIndex((l) => /^\s+at\s/.test(l));
    if (
      isRepl ||
      /^\s+at\s/.test(next) ||
      (stackAfter > 0 &&
        continued.slice(0, stackAfter).every((l) => /^\S/.test(l) && !JS_ERROR.test(l.trim()))) ||
      i === lines.length - 1 ||
      next.trim() === "" ||
      /^\s*\{/.test(next)
    ) {
      return { type: m[1], message: (m[3] ?? "").trim() };
    }
  }
  // `throw "string"` / non-Error values: "Uncaught 'boom'" in the REPL, or the thrown value after the caret.
  const uncaught = /^Uncaught\s+(.+)$/m.exec(text);
  if (uncaught?.[1]) return { type: "Uncaught", message: uncaught[1].replace(/^['"]|['"]$/g, "") };
  return null;
}

export function parseException(text: string, language: "python" | "node"): RaisedException | null {
  return language === "python" ? parsePythonException(text) : parseNodeException(text);
}

/** Where a Python exception was raised: the last frame of its traceback, with the source line Python shows under it. */
export interface RaisingFrame {
  /** The file's base name (`configparser.py`): the directories differ between installations. */
  file: string;
  /** The path as printed. */
  path: string;
  function: string;
  /** The source line, whitespace collapsed (`if "%" in v:`). */
  line: string;
}

/**
 * The last frame of the last Python traceback in the text and its source line, or null when it shows none (a
 * frame with no source under it, no traceback). Markers under the line (`^^^^`, `~~~^^^`) and continuation lines
 * of a call split over several lines are not the source line; the first line under the frame is.
 */
export function pythonRaisingFrame(text: string): RaisingFrame | null {
  const idx = text.lastIndexOf("Traceback (most recent call last):");
  if (idx < 0) return null;
  const lines = text.slice(idx).split("\n");
  let found: RaisingFrame | null = null;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() !== "" && !l.startsWith(" ")) break;
    const frame = /^\s+File "([^"]+)", line \d+, in (\S+)\s*$/.exec(l);
    if (!frame) continue;
    const source = lines[i + 1] ?? "";
    const file = frame[1]!.split(/[\\/]/).pop()!;
    found =
      source.startsWith(" ") && !/^\s+File "/.test(source) && !/^[\s^~]*$/.test(source)
        ? { file, path: frame[1]!, function: frame[2]!, line: source.trim().replace(/\s+/g, " ") }
        : null;
  }
  return found;
}

/** A frame of a Python traceback: the file's base name and the function, as printed. */
export interface TracebackFrame {
  file: string;
  function: string;
}

/** Every frame of the last Python traceback in the text, outermost first (empty when it shows none). */
export function pythonFrames(text: string): TracebackFrame[] {
  const idx = text.lastIndexOf("Traceback (most recent call last):");
  if (idx < 0) return [];
  const frames: TracebackFrame[] = [];
  for (const l of text.slice(idx).split("\n").slice(1)) {
    if (l.trim() !== "" && !l.startsWith(" ")) break;
    const frame = /^\s+File "([^"]+)", line \d+, in (\S+)\s*$/.exec(l);
    if (frame) frames.push({ file: frame[1]!.split(/[\\/]/).pop()!, function: frame[2]! });
  }
  return frames;
}

/**
 * The same library code raised both exceptions: the same file, function and source line, in a library's frame
 * (not the reporter's script, the prompt or a module's top level, where one line can fail in many ways).
 */
export function sameRaisingFrame(
  reported: RaisingFrame | null | undefined,
  observed: RaisingFrame | null,
): boolean {
  if (!reported || !observed) return false;
  const own = (f: RaisingFrame) =>
    f.function === "<module>" || /^<.*>$/.test(f.file) || /^\/workspace\//.test(f.path);
  return (
    !own(reported) &&
    !own(observed) &&
    reported.file === observed.file &&
    reported.function === observed.function &&
    reported.line === observed.line
  );
}
