/**
 * The CLI's only writers to the terminal: human text through `terminalText`, JSON through `terminalJson`
 * (src/core/terminal-text.ts), so no character of a run's output, a log, a patch or a config acts on the terminal
 * showing it. `retrace sandbox run` passes its command's own output through untouched, as `docker run` does.
 */
import { terminalJson, terminalText } from "../core/terminal-text.ts";

export function printOut(text: string): boolean {
  return process.stdout.write(terminalText(text));
}

export function printErr(text: string): boolean {
  return process.stderr.write(terminalText(text));
}

/** Serialized JSON (one document or a piece of one) to stdout. */
export function printJson(json: string, stream: NodeJS.WritableStream = process.stdout): boolean {
  return stream.write(terminalJson(json));
}
