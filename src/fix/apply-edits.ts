/**
 * Applies the model's `propose_edits` edits to file contents in memory. A missing or ambiguous `old_string`
 * is reported as an edit error — feedback for the next attempt — never thrown.
 */
import { repoPathProblem } from "./repo-path.ts";

/** One search-and-replace edit as the model proposes it. */
export interface FileEdit {
  path: string;
  /** Exact text to replace; empty means "create this file with `new_string`". */
  old_string: string;
  new_string: string;
}

/** The before/after content of one file touched by the edits. `before` is null for a new file. */
export interface FileChange {
  path: string;
  before: string | null;
  after: string;
}

export type EditErrorCode =
  | "invalid_path"
  | "file_missing"
  | "file_exists"
  | "not_found"
  | "ambiguous"
  | "no_change";

export interface EditError {
  /** Index of the edit in the proposal (0-based). */
  index: number;
  path: string;
  code: EditErrorCode;
  /** What went wrong and how to phrase the edit instead. */
  message: string;
}

export interface ApplyEditsResult {
  /** Files whose content changes, in the order first touched. */
  changes: FileChange[];
  errors: EditError[];
}

/** Reads a file of the base tree: its text, or null when it does not exist. */
export type ReadBaseFile = (path: string) => Promise<string | null>;

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return count;
    count += 1;
    from = at + needle.length;
  }
}

/** A one-line preview of an old_string for error messages. */
function preview(text: string): string {
  const first = text.split("\n").find((l) => l.trim() !== "") ?? text;
  const t = first.trim();
  return JSON.stringify(t.length > 80 ? `${t.slice(0, 77)}...` : t);
}

/**
 * Applies the edits in order; later edits to the same file see the result of earlier ones. Every edit that
 * cannot be applied exactly is reported; the returned changes are only meaningful when `errors` is empty.
 */
export async function applyEdits(
  edits: readonly FileEdit[],
  readBase: ReadBaseFile,
): Promise<ApplyEditsResult> {
  const current = new Map<string, { before: string | null; after: string }>();
  const errors: EditError[] = [];

  for (const [index, edit] of edits.entries()) {
    const problem = repoPathProblem(edit.path);
    if (problem !== null) {
      errors.push({ index, path: edit.path, code: "invalid_path", message: `${edit.path}: ${problem}` });
      continue;
    }
    let state = current.get(edit.path);
    if (state === undefined) {
      const base = await readBase(edit.path);
      state = { before: base, after: base ?? "" };
    }
    const exists = state.before !== null || current.has(edit.path);

    if (edit.old_string === "") {
      if (exists) {
        errors.push({
          index,
          path: edit.path,
          code: "file_exists",
          message: `${edit.path} already exists; an empty old_string creates a new file. Quote the exact text to replace instead.`,
        });
        continue;
      }
      current.set(edit.path, { before: null, after: edit.new_string });
      continue;
    }
    if (!exists) {
      errors.push({
        index,
        path: edit.path,
        code: "file_missing",
        message: `${edit.path} does not exist; to create it, use an empty old_string.`,
      });
      continue;
    }
    if (edit.old_string === edit.new_string) {
      errors.push({
        index,
        path: edit.path,
        code: "no_change",
        message: `the edit to ${edit.path} has identical old_string and new_string.`,
      });
      continue;
    }
    const n = countOccurrences(state.after, edit.old_string);
    if (n === 0) {
      errors.push({
        index,
        path: edit.path,
        code: "not_found",
        message: `old_string ${preview(edit.old_string)} was not found in ${edit.path}; copy it exactly from the file (whitespace and indentation included).`,
      });
      continue;
    }
    if (n > 1) {
      errors.push({
        index,
        path: edit.path,
        code: "ambiguous",
        message: `old_string ${preview(edit.old_string)} occurs ${n} times in ${edit.path}; include more surrounding lines so it matches exactly once.`,
      });
      continue;
    }
    const at = state.after.indexOf(edit.old_string);
    const after = state.after.slice(0, at) + edit.new_string + state.after.slice(at + edit.old_string.length);
    current.set(edit.path, { before: state.before, after });
  }

  const changes: FileChange[] = [];
  for (const [path, { before, after }] of current) {
    if (before !== null && before === after) continue;
    changes.push({ path, before, after });
  }
  return { changes, errors };
}
