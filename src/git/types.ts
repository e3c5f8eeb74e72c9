/**
 * The Workspace port: read-only access to a repository checkout.
 * Pure code (fix, repro) reads the repo only through this interface, so tests can pass an in-memory fake.
 */

export interface ListFilesOptions {
  /** Only list files under this repo-relative directory. */
  under?: string;
  /** Stop after this many files (default 20 000). */
  max?: number;
}

export interface Workspace {
  /**
   * Absolute host path of the repository root (its real path). Adapters such as the sandbox use it as
   * the directory to copy; pure code treats it as an opaque string.
   */
  readonly root: string;
  /** Reads a UTF-8 file by repo-relative POSIX path. Throws `WorkspacePathError` for a path outside the repo or a missing file. */
  readFile(path: string): Promise<string>;
  /** Whether a regular file or directory exists at the repo-relative path (false for paths that escape the repo). */
  exists(path: string): Promise<boolean>;
  /** Repo-relative POSIX paths of regular files, sorted; `.git` and `node_modules` are never listed. */
  listFiles(options?: ListFilesOptions): Promise<string[]>;
}

/** An author or committer identity. */
export interface GitIdentity {
  name: string;
  email: string;
}
