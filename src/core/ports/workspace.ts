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
  /**
   * Reads a UTF-8 file by repo-relative POSIX path. Throws `WorkspacePathError` for a path outside the repo,
   * a missing file, a path through a symlink (any component) or a path inside `.git`.
   */
  readFile(path: string): Promise<string>;
  /**
   * Whether a regular file or directory exists at the repo-relative path; false for paths that escape the
   * repo, pass through a symlink (any component) or lie inside `.git` — exactly the paths `readFile` refuses.
   */
  exists(path: string): Promise<boolean>;
  /**
   * The first component of the repo-relative path that is a symlink (`"docs"` for `docs/a.txt` when `docs`
   * is one, the path itself when the target is), or null when no existing component is a symlink. Symlinks
   * are never followed: this is how a patch is refused when `git apply` would refuse it ("beyond a symbolic
   * link") or would change the link instead of a file.
   */
  findSymlink(path: string): Promise<string | null>;
  /**
   * Git mode of the regular file at the repo-relative path (`100755` when executable, else `100644`), null
   * when there is none. Optional: a workspace without modes is read as all `100644`.
   */
  fileMode?(path: string): Promise<"100644" | "100755" | null>;
  /**
   * Names in the directory at the repo-relative path (`""` or `"."`: the root), or null when there is none (or it is
   * reached through a symlink). Optional: a patch's new names are compared with their siblings' when it is there.
   */
  listDirectory?(path: string): Promise<string[] | null>;
  /** Repo-relative POSIX paths of regular files, sorted; `.git` and `node_modules` are never listed. */
  listFiles(options?: ListFilesOptions): Promise<string[]>;
}

/** An author or committer identity. */
export interface GitIdentity {
  name: string;
  email: string;
}
