/**
 * Reading a command's input file, or stdin for `-`, with a usage error that names the file and what to pass.
 */
import { readFile } from "node:fs/promises";
import { UsageError } from "../core/errors.ts";

/**
 * @param what what the file holds, for the message ("the patch", "the issue")
 * @param hint what to pass instead, shown under the error
 */
export async function readTextInput(file: string, what: string, hint: string): Promise<string> {
  try {
    if (file === "-") {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    }
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const source = file === "-" ? "stdin" : file;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new UsageError(`cannot read ${what} ${source}: ${why}`, hint);
  }
}
