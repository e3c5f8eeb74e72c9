/**
 * Errors of the git/workspace adapters.
 */
import { RetraceError } from "../core/errors.ts";

/** A path that is absolute, escapes the repository (`..`, a symlink pointing out) or does not exist. */
export class WorkspacePathError extends RetraceError {
  readonly path: string;
  constructor(path: string, message: string, hint?: string) {
    super("usage", message, hint === undefined ? {} : { hint });
    this.path = path;
  }
}

/** A git operation failed (not a repository, unknown base, branch already exists, patch does not apply). */
export class GitError extends RetraceError {
  constructor(message: string, hint?: string, cause?: unknown) {
    super("patch", message, { ...(hint === undefined ? {} : { hint }), cause, exitCode: 1 });
  }
}

/** The checkout's git config names a program Retrace cannot neutralise: git is not run on it. */
export class GitConfigRefusedError extends GitError {}
