/**
 * The one rule for a repository path (docs/paths.md). Every path that names a file of the repository — in a
 * patch header, a model's edit or tool call, a sandbox input or output, a repository archive, a workspace
 * read, a published commit — is checked here, lexically (pure: no file system). The file-system check
 * (symlinks and hard links met while reading a checkout) is the only other one, in the adapters.
 *
 * A `RepoPath` is canonical: POSIX `/` separators, relative to the repository root, no empty, `.` or `..`
 * segment, no NUL or control character, no backslash, no `~` at the start, no drive letter, and no segment
 * that a file system or git would take for `.git` (any case, NTFS trailing dots/spaces and streams, the 8.3 name,
 * HFS+-ignorable code points).
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
  | "git"
  | "long";

export interface RepoPathProblem {
  code: RepoPathProblemCode;
  /** Completes "the path …", e.g. "contains a `..` segment (leaves the repository)". */
  message: string;
}

/** Longest path Retrace takes: Linux's PATH_MAX, what any file system it writes to holds. */
export const MAX_PATH_BYTES = 4096;
/** Deepest path Retrace takes: far past any real tree (Java packages, nested vendor directories) and bounding the
 * per-directory checks each step makes (symlinks on the way, modes, siblings) to a few thousand. */
export const MAX_PATH_SEGMENTS = 128;
const MAX_PATH_BYTES_TEXT = "4,096";
const MAX_PATH_SEGMENTS_TEXT = "128";

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
  git: "points into `.git` (repository internals, in any letter case, at any depth, and in the spellings NTFS and HFS+ read as `.git`)",
  long: `is longer than ${MAX_PATH_BYTES_TEXT} bytes or deeper than ${MAX_PATH_SEGMENTS_TEXT} directories (no checkout Retrace reads holds one; each step that checks a path walks its directories)`,
};

const problem = (code: RepoPathProblemCode): RepoPathProblem => ({ code, message: PROBLEMS[code] });

/**
 * True for a segment git or a file system would treat as `.git`: any letter case (case-insensitive file
 * systems: macOS, Windows), with trailing dots or spaces (NTFS drops them), or the NTFS 8.3 short name
 * `git~1`. Git's own `verify_path` refuses the same names when it writes an index or a checkout.
 */
export function isGitSegment(segment: string): boolean {
  const name = fileSystemName(segment);
  return name === ".git" || name === "git~1";
}

/** Code points HFS+ ignores when it compares names (git's `is_hfs_dotgit` skips the same ones). */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * The name NTFS or HFS+ gives `segment`, in lower case: HFS+-ignorable code points dropped, an NTFS stream
 * (`:` and what follows: `.git::$INDEX_ALLOCATION` is the directory `.git`) and trailing dots and spaces cut.
 * `.g<U+200C>it`, `.GIT. .:x` and `.git::$INDEX_ALLOCATION` are all `.git` there, as git's protectHFS and
 * protectNTFS read them.
 */
export function fileSystemName(segment: string): string {
  const s = segment.replace(HFS_IGNORABLE, "").toLowerCase();
  const stream = s.indexOf(":");
  return (stream >= 0 ? s.slice(0, stream) : s).replace(/[. ]+$/, "");
}

/** NTFS 8.3 names of git's own files (`GITMOD~1`; git also checks the hashed `GI7EBA~1` forms). */
const SHORT_NAMES: ReadonlyArray<[RegExp, string]> = [
  [/^(gitmod|gi7eba)~[1-9]$/, ".gitmodules"],
  [/^(gitatt|gi7d29)~[1-9]$/, ".gitattributes"],
];

/**
 * The path as a case-insensitive NTFS or HFS+ file system reads it: each segment by `fileSystemName`, and the
 * 8.3 names of `.gitmodules` and `.gitattributes` as those names. Rules that protect a path by name (the
 * policy's forbidden paths) match this spelling too, so `GITMOD~1` or `.gitmodules::$DATA` is `.gitmodules`.
 */
export function fileSystemPath(path: string): string {
  return path
    .split("/")
    .map((segment) => {
      const name = fileSystemName(segment);
      return SHORT_NAMES.find(([re]) => re.test(name))?.[1] ?? name;
    })
    .join("/");
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
  if (segments.length > MAX_PATH_SEGMENTS || Buffer.byteLength(path, "utf8") > MAX_PATH_BYTES)
    return problem("long");
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
