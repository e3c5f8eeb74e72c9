/** Git and workspace adapters. */
export { createBranchWithCommit } from "./branch-commit.ts";
export type { BranchCommitRequest, BranchCommitResult } from "./branch-commit.ts";
export { GitError, WorkspacePathError } from "./errors.ts";
export { createFsWorkspace } from "./fs-workspace.ts";
export { resolveInside } from "./path-guard.ts";
export { normalizeRepoPath } from "./repo-path.ts";
export {
  execGit,
  FIXED_CONFIG,
  type GitRunOptions,
  neutralizingConfig,
  type SafeGit,
  safeGit,
} from "./run-git.ts";
export type { GitIdentity, ListFilesOptions, Workspace } from "../core/ports/workspace.ts";
