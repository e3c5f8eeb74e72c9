/**
 * Repository paths for the adapters that read a checkout, under the one rule of src/core/repo-path.ts
 * (docs/paths.md). The lexical rule is the core's; the file-system check (symlinks) is in path-guard.ts.
 */
import { isGitSegment, isProblem, tidyRepoPath } from "../core/repo-path.ts";
import { WorkspacePathError } from "./errors.ts";

const HINTS: Record<string, string> = {
  empty: "pass a repo-relative path such as src/app.ts",
  absolute: "use a path relative to the repository root",
  drive: "use a path relative to the repository root",
  dotdot: "use a path inside the repository, without `..`",
  backslash: "use forward slashes",
};

/**
 * A repo-relative path in its canonical spelling (`./a//b/` → `a/b`; `.` and `./` name the root and stay
 * `.`); throws `WorkspacePathError` for any path the one rule refuses (`..`, absolute, NUL, backslash,
 * `.git` in any case at any depth, …).
 */
export function normalizeRepoPath(input: string): string {
  if (input !== "" && input.split("/").every((s) => s === "" || s === ".") && !input.startsWith("/"))
    return ".";
  const r = tidyRepoPath(input);
  if (!isProblem(r)) return r;
  if (input.split(/[\\/]/).some(isGitSegment)) {
    throw new WorkspacePathError(
      input,
      `refused to read inside .git: ${input}`,
      "Retrace never reads version-control data (it can hold the checkout's token); name a file of the working tree",
    );
  }
  const message =
    r.code === "empty"
      ? "empty path"
      : r.code === "dotdot"
        ? `path escapes the repository: ${input} (it ${r.message})`
        : r.code === "absolute" || r.code === "drive"
          ? `absolute path not allowed: ${input}`
          : `the path ${JSON.stringify(input)} ${r.message}`;
  throw new WorkspacePathError(input, message, HINTS[r.code]);
}
