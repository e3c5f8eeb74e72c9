/**
 * The one rule for a repository path (docs/paths.md). Every path that names a file of the repository — in a
 * patch header, a model's edit or tool call, a sandbox input or output, a repository archive, a workspace
 * read, a published commit — is checked here, lexically (pure: no file system). The file-system check
 * (symlinks and hard links met while reading a checkout) is the only other one, in the adapters.
 *
 * A `RepoPath` is canonical: POSIX `/` separators, relative to the repository root, no empty, `.` or `..`
 * segment, no NUL or control character, no backslash, no `~` at the start, no drive letter, and no segment
 * that a file system or git would take for `.git` (any case, NTFS trailing dots/spaces, the 8.3 name).
 */

/** A repository-relative path that passed the rule; build one with `parseRepoPath` or `tidyRepoPath`. */
export type RepoPath = string & { readonly __repoPath: true };

/** Why a path is refused; `message` completes "the path …". */
export type RepoPathProblemCode =
  | "empty"
  | "nul"
  | "control"
  | "backslash"
  | "absolute"
  | "drive"
  | "home"
  | "dotdot"
  | "noncanonical"
  | "git";

export interface RepoPathProblem {
  code: RepoPathProblemCode;
  /** Completes "the path …", e.g. "contains a `..` segment (leaves the repository)". */
  message: string;
}

const PROBLEMS: Record<RepoPathProblemCode, string> = {
  empty: "is empty",
  nul: "contains a NUL byte",
  control: "contains a control character",
  backslash: "contains a backslash (a path separator on Windows); use forward slashes",
  absolute: "is absolute; give it relative to the repository root",
  drive: "starts with a drive letter; give it relative to the repository root",
  home: "starts with `~` (a home directory)",
  dotdot: "contains a `..` segment (leaves the repository)",
  noncanonical: "is not canonical (an empty or `.` segment: `//`, `./` or a trailing `/`)",
  git: "points into `.git` (repository internals, in any letter case and at any depth)",
};

const problem = (code: RepoPathProblemCode): RepoPathProblem => ({ code, message: PROBLEMS[code] });

/**
 * True for a segment git or a file system would treat as `.git`: any letter case (case-insensitive file
 * systems: macOS, Windows), with trailing dots or spaces (NTFS drops them), or the NTFS 8.3 short name
 * `git~1`. Git's own `verify_path` refuses the same names when it writes an index or a checkout.
 */
export function isGitSegment(segment: string): boolean {
  const lower = segment.toLowerCase();
  return lower.replace(/[. ]+$/, "") === ".git" || lower === "git~1";
}

/** The problem of `path` under the one rule, or null when it is a clean repository path. */
export function repoPathProblem(path: string): RepoPathProblem | null {
  if (path === "") return problem("empty");
  if (path.includes("\u0000")) return problem("nul");
  if (/[\u0001-\u001f\u007f]/.test(path)) return problem("control");
  if (path.includes("\\")) return problem("backslash");
  if (path.startsWith("/")) return problem("absolute");
  if (/^[A-Za-z]:/.test(path)) return problem("drive");
  if (path.startsWith("~")) return problem("home");
  const segments = path.split("/");
  if (segments.includes("..")) return problem("dotdot");
  if (segments.some((s) => s === "" || s === ".")) return problem("noncanonical");
  if (segments.some(isGitSegment)) return problem("git");
  return null;
}

/** True when `path` is a clean repository path. */
export function isRepoPath(path: string): path is RepoPath {
  return repoPathProblem(path) === null;
}

/** The path as a `RepoPath`, or the reason it is refused. Strict: the spelling must already be canonical. */
export function parseRepoPath(path: string): RepoPath | RepoPathProblem {
  const p = repoPathProblem(path);
  return p === null ? (path as RepoPath) : p;
}

/** `./a//b/` → `a/b`: empty and `.` segments dropped, nothing else changed (no check). */
export function tidySpelling(input: string): string {
  return input
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
}

/**
 * For spellings a person or a model types (`./src/a.ts`, `src//a.ts`, `src/`): drops empty and `.` segments,
 * then applies the same rule. Nothing else is rewritten — `a/../b` and `a\b` stay refused.
 */
export function tidyRepoPath(input: string): RepoPath | RepoPathProblem {
  if (input === "") return problem("empty");
  // An absolute path stays absolute: tidying must not turn `/etc/passwd` into `etc/passwd`.
  if (input.startsWith("/")) return problem("absolute");
  const tidy = tidySpelling(input);
  return parseRepoPath(tidy === "" ? input : tidy);
}

/** True when a parse result is a refusal. */
export function isProblem(value: RepoPath | RepoPathProblem): value is RepoPathProblem {
  return typeof value !== "string";
}
