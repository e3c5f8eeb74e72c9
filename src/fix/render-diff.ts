/**
 * Renders file changes as one unified diff with git-style headers (`diff --git`, `new file mode`,
 * `/dev/null`), using the `diff` package. The policy gate, `git apply` and the PR all see this exact text.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import type { FileChange } from "./apply-edits.ts";

/**
 * Unified diff of one file change, with 3 lines of context like `git diff`; a package.json with its whole file
 * as context, so that a gate that sees only the patch (the App's second gate) knows the section of every
 * changed line (a dependency map opened far above a hunk).
 */
export function renderFileDiff(change: FileChange): string {
  const isNew = change.before === null;
  const wholeContext = change.path === "package.json" || change.path.endsWith("/package.json");
  const body = createTwoFilesPatch(
    isNew ? "/dev/null" : `a/${change.path}`,
    `b/${change.path}`,
    change.before ?? "",
    change.after,
    undefined,
    undefined,
    { context: wholeContext ? 1_000_000 : 3, headerOptions: FILE_HEADERS_ONLY },
  );
  const header = [`diff --git a/${change.path} b/${change.path}`];
  if (isNew) header.push("new file mode 100644");
  return `${header.join("\n")}\n${body}`;
}

/** The whole patch: files sorted by path so the same edits always render the same text. */
export function renderPatch(changes: readonly FileChange[]): string {
  return [...changes]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map(renderFileDiff)
    .join("");
}

/** Lines added and removed, for reports. */
export function patchStats(patch: string): { files: number; added: number; removed: number } {
  let files = 0;
  let added = 0;
  let removed = 0;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) files += 1;
    else if (line.startsWith("+") && !line.startsWith("+++ ")) added += 1;
    else if (line.startsWith("-") && !line.startsWith("--- ")) removed += 1;
  }
  return { files, added, removed };
}
