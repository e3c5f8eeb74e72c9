/**
 * Validation of repository-relative paths that come from a model or a log. A path is accepted only when it
 * stays inside the repository: relative, POSIX separators, no `..` segment, no NUL, no `.git/` internals.
 */

/** Why a path was refused, or null when it is a clean repository-relative path. */
export function repoPathProblem(path: string): string | null {
  if (path.length === 0) return "the path is empty";
  if (path.includes("\0")) return "the path contains a NUL byte";
  if (path.includes("\\")) return "use forward slashes (POSIX paths relative to the repository root)";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path))
    return "the path is absolute; give it relative to the repository root";
  const segments = path.split("/");
  if (segments.some((s) => s === "..")) return "the path leaves the repository (`..` segment)";
  if (segments[0] === ".git") return "paths inside .git are not part of the repository's content";
  return null;
}

/** Normalises `./a//b/` to `a/b`; returns null when the result is not a valid repository path. */
export function normalizeRepoPath(path: string): string | null {
  const cleaned = path
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
  return repoPathProblem(cleaned) === null ? cleaned : null;
}
