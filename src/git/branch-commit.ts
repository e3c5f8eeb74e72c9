/**
 * Creates a branch holding exactly one new commit on top of a base, without touching the current
 * branch, the index or the working tree: everything goes through a temporary index file
 * (`GIT_INDEX_FILE`) and git plumbing (`read-tree`, `hash-object --no-filters`, `update-index`, `write-tree`,
 * `commit-tree`, `update-ref`). A patch is applied by the one patch applier (src/core/apply-patch.ts) to the
 * base commit's files, never by `git apply`, and the verified changes are written as they are: the blobs hold
 * exactly their bytes and modes, as the draft PR's do. Git runs through `safeGit`: no hook, filter, fsmonitor
 * or other program the checkout's config names runs.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyPatch, type FileWrite, PatchApplyError, type PatchBase } from "../core/apply-patch.ts";
import type { RepoPath } from "../core/repo-path.ts";
import type { GitIdentity } from "../core/ports/workspace.ts";
import { GitConfigRefusedError, GitError } from "./errors.ts";
import { normalizeRepoPath } from "./path-guard.ts";
import { type SafeGit, safeGit } from "./run-git.ts";

export interface BranchCommitRequest {
  /** New branch name (`refs/heads/<branch>`); must not exist yet. */
  branch: string;
  /** Commit message. */
  message: string;
  /**
   * The file changes to commit, exactly (the verified changes of a fix: bytes and modes). Written after
   * `patch` and before `files`.
   */
  changes?: readonly FileWrite[];
  /** New full contents keyed by repo-relative path; `null` deletes the file. Applied last; modes kept. */
  files?: Record<string, string | null>;
  /** A unified diff (git or plain `diff -u` with a/ b/ prefixes), applied to the base tree by the one applier. */
  patch?: string;
  /** Author of the commit. */
  author: GitIdentity;
  /** Committer (default: the author). */
  committer?: GitIdentity;
  /** Revision to build on (default `HEAD`). */
  base?: string;
}

export interface BranchCommitResult {
  branch: string;
  /** Full sha of the new commit. */
  commit: string;
  /** Full sha of the base commit. */
  base: string;
  /** Repo-relative paths the commit changes, sorted. */
  changedFiles: string[];
}

async function attempt<T>(what: string, run: () => Promise<T>, hint?: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // A refused checkout says so in its own words, not as "not a git repository".
    if (error instanceof GitConfigRefusedError) throw error;
    const detail = error instanceof Error ? error.message.trim() : String(error);
    throw new GitError(`${what}: ${detail}`, hint, error);
  }
}

function checkIdentity(who: GitIdentity, role: string): void {
  if (!who.name.trim() || /[<>\n]/.test(who.name) || !/^[^\s<>@]+@[^\s<>]+$/.test(who.email)) {
    throw new GitError(
      `invalid ${role} identity: ${JSON.stringify(who)}`,
      "give a name and an email like bot@example.com",
    );
  }
}

/** A commit of the checkout as the base of a patch: modes from `ls-tree`, text from `cat-file`. */
export function commitBase(git: SafeGit, commit: string): PatchBase {
  return {
    where: `at ${commit.slice(0, 12)}`,
    async modes(paths: readonly RepoPath[]) {
      const out = new Map<string, string>();
      if (paths.length === 0) return out;
      const listed = await git.raw(["ls-tree", "-z", "--full-tree", commit, "--", ...paths], {
        env: { GIT_LITERAL_PATHSPECS: "1" },
      });
      for (const line of listed.split("\0")) {
        const m = /^(\d+) \S+ \S+\t(.*)$/s.exec(line);
        if (m) out.set(m[2]!, m[1] === "40000" ? "040000" : m[1]!);
      }
      return out;
    },
    async read(p: RepoPath) {
      return git.raw(["cat-file", "blob", `${commit}:${p}`]).catch(() => null);
    },
    async names(dir: string) {
      const listed = await git
        .raw(["ls-tree", "-z", "--name-only", dir === "" ? commit : `${commit}:${dir}`], {
          env: { GIT_LITERAL_PATHSPECS: "1" },
        })
        .catch(() => null);
      return listed === null ? null : listed.split("\0").filter((n) => n !== "");
    },
  };
}

/** Creates `branch` with one commit (base + patch + files). The checkout in `repoDir` is left as it was. */
export async function createBranchWithCommit(
  repoDir: string,
  request: BranchCommitRequest,
): Promise<BranchCommitResult> {
  if (request.patch === undefined && request.files === undefined && request.changes === undefined) {
    throw new GitError(
      "nothing to commit: give a patch, changes or files",
      "pass `patch`, `changes` or `files`",
    );
  }
  if (!request.message.trim()) throw new GitError("empty commit message", "pass a commit message");
  checkIdentity(request.author, "author");
  const committer = request.committer ?? request.author;
  checkIdentity(committer, "committer");
  if (request.branch.startsWith("-")) throw new GitError(`invalid branch name: ${request.branch}`);

  const scratch = await mkdtemp(path.join(tmpdir(), "retrace-commit-"));
  const env: Record<string, string> = {
    GIT_INDEX_FILE: path.join(scratch, "index"),
    GIT_AUTHOR_NAME: request.author.name,
    GIT_AUTHOR_EMAIL: request.author.email,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
  };
  const git = safeGit(repoDir, { env });
  try {
    await attempt(
      "not a git repository",
      () => git.raw(["rev-parse", "--git-dir"]),
      `run inside a git checkout (${repoDir})`,
    );
    await attempt(
      `invalid branch name ${JSON.stringify(request.branch)}`,
      () => git.raw(["check-ref-format", "--branch", request.branch]),
      "use a name like retrace/fix-123",
    );
    // for-each-ref exits 0 whether or not the branch exists: the answer is the output.
    const refs = await git.raw(["for-each-ref", "--format=%(refname)", `refs/heads/${request.branch}`]);
    const exists = refs.split("\n").some((r) => r.trim() === `refs/heads/${request.branch}`);
    if (exists) {
      throw new GitError(
        `branch already exists: ${request.branch}`,
        "pick a new branch name; Retrace never rewrites a branch",
      );
    }
    const baseRev = request.base ?? "HEAD";
    const base = (
      await attempt(`unknown base revision ${baseRev}`, () =>
        git.raw(["rev-parse", "--verify", `${baseRev}^{commit}`]),
      )
    ).trim();
    await attempt("could not load the base tree", () => git.raw(["read-tree", base]));

    const writes: FileWrite[] = [];
    if (request.patch !== undefined) {
      try {
        writes.push(...(await applyPatch(commitBase(git, base), request.patch)));
      } catch (error) {
        if (!(error instanceof PatchApplyError)) throw error;
        throw new GitError(
          `the patch does not apply to the base: ${error.message}`,
          "regenerate the patch against the base commit",
          error,
        );
      }
    }
    writes.push(...(request.changes ?? []));
    for (const [rawPath, content] of Object.entries(request.files ?? {})) {
      const file = normalizeRepoPath(rawPath) as RepoPath;
      // The mode the file has so far: from an earlier change, else the base commit's.
      const earlier = writes.findLast((w) => w.path === file);
      const staged = earlier ? "" : (await git.raw(["ls-files", "--stage", "--", file])).trim();
      const mode =
        (earlier?.mode ?? /^(100755|100644) /.exec(staged)?.[1]) === "100755" ? "100755" : "100644";
      writes.push({ path: file, content, mode });
    }
    let n = 0;
    for (const change of writes) {
      const file = normalizeRepoPath(change.path);
      if (change.content === null) {
        await attempt(`could not delete ${file}`, () =>
          git.raw(["update-index", "--force-remove", "--", file]),
        );
        continue;
      }
      const blobFile = path.join(scratch, `blob-${n++}`);
      await writeFile(blobFile, change.content);
      // --no-filters: the blob holds exactly the verified bytes (no end-of-line or attribute conversion).
      const sha = (
        await attempt(`could not store ${file}`, () =>
          git.raw(["hash-object", "-w", "--no-filters", blobFile]),
        )
      ).trim();
      await attempt(`could not stage ${file}`, () =>
        git.raw(["update-index", "--add", "--cacheinfo", `${change.mode},${sha},${file}`]),
      );
    }

    const tree = (await attempt("could not write the tree", () => git.raw(["write-tree"]))).trim();
    const baseTree = (await git.raw(["rev-parse", `${base}^{tree}`])).trim();
    if (tree === baseTree) throw new GitError("the change is empty: the new tree equals the base tree");
    const commit = (
      await attempt("could not create the commit", () =>
        git.raw(["commit-tree", tree, "-p", base, "-m", request.message]),
      )
    ).trim();
    await attempt(`could not create branch ${request.branch}`, () =>
      git.raw(["update-ref", `refs/heads/${request.branch}`, commit, ""]),
    );
    const changed = await git.raw(["diff-tree", "--no-commit-id", "--name-only", "-r", base, commit]);
    return {
      branch: request.branch,
      commit,
      base,
      changedFiles: changed
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean)
        .sort(),
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
