/**
 * Reading a patch a user passes (`retrace policy <patch>`, `retrace verify --patch`): a file that is not a
 * unified diff is a usage error (exit 2) naming what is wrong, never a gate verdict. The gate's own
 * `unparseable` rule stays for patches a model writes, where a malformed diff is the patch's fault.
 */
import { UsageError } from "../core/errors.ts";
import { PatchParseError, parseUnifiedDiff } from "../policy/parse-diff.ts";
import { readTextInput } from "./read-input.ts";

export const PATCH_HINT =
  "pass a unified diff (e.g. from `git diff > fix.diff`), or `-` to read it from stdin";

/** The text of `file` (or stdin for `-`) when it parses as a unified diff; a UsageError otherwise. */
export async function readPatchInput(file: string, hint = PATCH_HINT): Promise<string> {
  const text = await readTextInput(file, "the patch", hint);
  const source = file === "-" ? "on stdin" : file;
  try {
    parseUnifiedDiff(text);
  } catch (error) {
    if (!(error instanceof PatchParseError)) throw error;
    throw new UsageError(`the patch ${source} is not a valid unified diff: ${error.message}`, hint);
  }
  return text;
}
