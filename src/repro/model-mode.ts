/**
 * Whether the model is asked after the deterministic attempt, and for what: to write a program from the
 * prose, to complete a snippet with placeholders, or to refine a run that did not match.
 */
import type { AttemptOutcome } from "./attempt.ts";
import type { Program } from "./complete.ts";

export type ModelMode = "write" | "complete" | "refine";

/** `...`, `<your value>` and friends the deterministic placeholder scan does not flag. */
export function placeholdersIn(program: Program): string[] {
  const found = new Set(program.placeholders);
  for (const code of Object.values(program.files)) {
    for (const m of code.matchAll(/<your[^<>\n]{0,40}>|<(?:insert|replace|put)[^<>\n]{0,40}>/gi))
      found.add(m[0]);
    const ellipsis =
      program.runtime === "python"
        ? /\(\s*\.\.\.\s*\)|=\s*\.\.\.\s*(?:#.*)?$|,\s*\.\.\.\s*[,)\]]/m
        : /^[ \t]*\.\.\.\s*;?\s*$|[([,{]\s*\.\.\.\s*[,)\]}]|=\s*\.\.\.\s*;?\s*$/m;
    const m = ellipsis.exec(code);
    if (m) found.add(m[0].trim());
  }
  return [...found];
}

/**
 * Whether the model is worth a call after the deterministic attempt, and for what. Null when the deterministic
 * verdict stands: reproduced, intermittent, or blocked on something only the reporter can give (stdin, files,
 * a service, a version that does not install).
 */
export function modelMode(program: Program | null, attempt: AttemptOutcome | null): ModelMode | null {
  if (!program || !attempt) return "write";
  if (attempt.verdict === "REPRODUCED") return null;
  if (placeholdersIn(program).length > 0) return "complete";
  if (attempt.fold === null) return null;
  if (attempt.fold.reproducedRuns > 0) return null;
  if (attempt.verdict === "PARTIAL" || attempt.verdict === "NOT_REPRODUCED") return "refine";
  // The reporter's code does not parse or uses a name it never defines: a model can complete it.
  if (attempt.verdict === "NEEDS_INFO" && attempt.fold.incompleteCode) return "refine";
  return null;
}
