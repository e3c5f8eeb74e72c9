/**
 * Reading a command's input file, or stdin for `-`, with a usage error that names the file and what to pass.
 * An empty input, a binary file and `-` on an interactive terminal (which would wait forever) are refused.
 */
import { hostLimits } from "../core/host-limits.ts";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { UsageError } from "../core/errors.ts";

/**
 * Largest input read into memory (issues, patches, traces, logs for `fix`): the operator's RETRACE_HOST_LIMITS
 * inputMb, 256 MiB by default.
 */
export function maxInputBytes(): number {
  return hostLimits().inputMb * 1024 * 1024;
}

/** Why a file could not be read, in words, from its errno code. */
export function readErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EISDIR":
      return "it is a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOTDIR":
      return "a parent in the path is not a directory";
    case "ELOOP":
      return "too many symbolic links";
    default:
      return code ?? (error as Error).message;
  }
}

/** Refuses `-` when stdin is a terminal: reading it would wait for input nobody is going to type. */
export function assertStdinPiped(hint: string): void {
  if (process.stdin.isTTY)
    throw new UsageError("`-` reads standard input, but standard input is a terminal", hint);
}

/** A stream found to hold a NUL byte: binary, refused without reading the rest. */
class BinaryStream extends Error {}

/**
 * A stream's bytes, or a RangeError once they pass the input cap, or BinaryStream at the first chunk holding a NUL
 * byte (the stream is destroyed: nothing more is read). A device such as `/dev/urandom` is thus refused on its first
 * chunk instead of after 256 MiB (16 s on a loaded machine, wave 17 in CI).
 */
async function readCapped(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    const problem = bytes.includes(0)
      ? new BinaryStream()
      : size > maxInputBytes()
        ? new RangeError("too large")
        : null;
    if (problem) {
      if (stream !== process.stdin) stream.destroy();
      throw problem;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * @param what what the file holds, for the message ("the patch", "the issue")
 * @param hint what to pass instead, shown under the error
 */
export async function readTextInput(file: string, what: string, hint: string): Promise<string> {
  const source = file === "-" ? "on stdin" : file;
  let bytes: Buffer;
  try {
    if (file === "-") {
      assertStdinPiped(hint);
      bytes = await readCapped(process.stdin);
    } else {
      const st = await stat(file);
      if (st.size > maxInputBytes()) throw new RangeError("too large");
      // A FIFO or a device has no size to check (`/dev/urandom` was read to 4 GiB, wave 17): read up to the cap.
      bytes = st.isFile() ? await readFile(file) : await readCapped(createReadStream(file));
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof BinaryStream) throw binaryInput(what, source, hint);
    if (error instanceof RangeError)
      throw new UsageError(
        `${what} ${source} is larger than ${hostLimits().inputMb} MiB (RETRACE_HOST_LIMITS inputMb)`,
        `${hint}; a real one is far smaller`,
      );
    throw new UsageError(`cannot read ${what} ${source}: ${readErrorReason(error)}`, hint);
  }
  if (bytes.includes(0)) throw binaryInput(what, source, hint);
  const text = bytes.toString("utf8");
  if (text.trim() === "") throw new UsageError(`${what} ${source} is empty`, hint);
  return text;
}

function binaryInput(what: string, source: string, hint: string): UsageError {
  return new UsageError(`${what} ${source} is a binary file, not text`, hint);
}
