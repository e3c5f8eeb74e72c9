/**
 * The CLI's only writers to the terminal: human text through `terminalText`, JSON through `terminalJson`
 * (src/core/terminal-text.ts), so no character of a run's output, a log, a patch or a config acts on the terminal
 * showing it. `retrace sandbox run` passes its command's own output through exact when it goes to a pipe or a file
 * (`printCommandOutput`), and through `terminalText` when it goes to a terminal.
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

/**
 * A sandboxed command's own output (`retrace sandbox run`): the exact text when `stream` is a pipe or a file (a
 * caller capturing it gets what the command wrote, as with `docker run`), inert when it is a terminal — the
 * command is the caller's, but what it prints can come from the workspace (a file it cats, a test name), and an
 * escape sequence would act on the terminal showing it.
 */
export function printCommandOutput(
  text: string,
  stream: Pick<NodeJS.WriteStream, "write" | "isTTY"> = process.stdout,
): boolean {
  return stream.write(stream.isTTY ? terminalText(text) : text);
}
