/**
 * What the test-awareness rule and its pattern families (surroundings.ts, runtime-probes.ts) share: the new side of a
 * file's hunks, and the violation each of them reports, named by its class (`[call-budget]`, `[startup-window]`…).
 */
import { truncate } from "../lines.ts";
import type { FileChange, Violation } from "../types.ts";

/** The new-side lines of each hunk of `file` (context and added), comments kept. */
export const newSide = (file: FileChange) => file.hunks.map((h) => h.lines.filter((l) => l.kind !== "del"));

/** A test-awareness violation: what was found, its class, and the line that shows it. */
export function awarenessViolation(
  file: FileChange,
  line: number | null,
  what: string,
  id: string,
  text: string,
): Violation {
  return {
    rule: "test-awareness",
    file: file.newPath,
    line,
    message: `${what} [${id}]: \`${truncate(text.trim())}\``,
  };
}
