/**
 * Repository paths that come from a model or a log, under the one rule of src/core/repo-path.ts
 * (docs/paths.md): relative, POSIX separators, no `..`, no NUL or control character, nothing named `.git`.
 */
import { isProblem, repoPathProblem as problemOf, tidyRepoPath } from "../core/repo-path.ts";

/** Why a path was refused (a sentence), or null when it is a clean repository-relative path. */
export function repoPathProblem(path: string): string | null {
  const p = problemOf(path);
  return p === null ? null : `the path ${p.message}`;
}

/** Normalises `./a//b/` to `a/b`; returns null when the result is not a valid repository path. */
export function normalizeRepoPath(path: string): string | null {
  const r = tidyRepoPath(path);
  return isProblem(r) ? null : r;
}
