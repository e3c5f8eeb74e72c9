/**
 * Turn a verified unified diff into a draft pull request through the REST API: the one patch applier
 * (src/core/apply-patch.ts) applies it to the files at the base commit, the verified changes (when the job
 * carries them) must be byte-for-byte those, and one commit of exactly those bytes and modes goes on a new
 * `retrace/…` branch, then a draft PR. Nothing here can merge, and the only ref it ever writes is a new
 * branch under `retrace/`.
 */
import {
  applyPatch,
  type FileWrite,
  firstDifference,
  type ReportedWrite,
  PatchApplyError as ApplierError,
  type PatchBase,
} from "../core/apply-patch.ts";
import { RetraceError } from "../core/errors.ts";
import type { GitHubPort, RepoId, TreeEntry } from "../core/ports/github.ts";

export const BRANCH_PREFIX = "retrace/";

export interface DraftPullRequest {
  /** The branch that failed; the PR is based on it. */
  baseBranch: string;
  /** The commit the patch was verified against. */
  baseSha: string;
  /** New branch; must start with `retrace/`. */
  branch: string;
  patch: string;
  /**
   * The file changes verification ran on (the job's `changes`): the commit must be exactly these; when they
   * differ from what the patch produces at `baseSha`, no pull request is opened.
   */
  verified?: readonly ReportedWrite[];
  title: string;
  body: string;
  /** Commit message; the title when absent. */
  commitMessage?: string;
}

export class PatchApplyError extends RetraceError {
  constructor(message: string) {
    super("patch", message, {
      hint: "the branch changed under the patch; comment /autofix to run the fix again",
    });
  }
}

/** A commit read through the GitHub API as the base of a patch. */
export function commitBase(github: GitHubPort, repo: RepoId, baseSha: string): PatchBase {
  return {
    where: `at ${baseSha.slice(0, 12)}`,
    modes: (paths) => github.getPathModes(repo, baseSha, [...paths]),
    read: (path) => github.getFileText(repo, path, baseSha),
  };
}

/** The file changes the patch makes on top of `baseSha` (the one applier over the GitHub API). */
export async function patchToChanges(
  github: GitHubPort,
  repo: RepoId,
  baseSha: string,
  patch: string,
): Promise<FileWrite[]> {
  try {
    return await applyPatch(commitBase(github, repo, baseSha), patch);
  } catch (error) {
    if (error instanceof ApplierError) throw new PatchApplyError(error.message);
    throw error;
  }
}

/** Tree entries for the GitHub tree API: exactly the changes' bytes and modes. */
export function treeEntriesOf(changes: readonly ReportedWrite[]): TreeEntry[] {
  return changes.map((c) => ({ path: c.path, mode: c.mode, content: c.content }));
}

/** Compute the tree entries the patch produces on top of `baseSha`. */
export async function patchToTreeEntries(github: GitHubPort, repo: RepoId, baseSha: string, patch: string) {
  return treeEntriesOf(await patchToChanges(github, repo, baseSha, patch));
}

export async function openDraftPullRequest(github: GitHubPort, repo: RepoId, pr: DraftPullRequest) {
  if (!pr.branch.startsWith(BRANCH_PREFIX) || pr.branch.length <= BRANCH_PREFIX.length) {
    throw new RetraceError(
      "internal",
      `refusing to write branch ${pr.branch}: Retrace only creates ${BRANCH_PREFIX}… branches`,
    );
  }
  const changes = await patchToChanges(github, repo, pr.baseSha, pr.patch);
  if (pr.verified !== undefined) {
    const diff = firstDifference(pr.verified, changes);
    if (diff !== null) {
      throw new PatchApplyError(
        `the patch applied at ${pr.baseSha.slice(0, 12)} is not what was verified (${diff}); no pull request was opened`,
      );
    }
  }
  // Equal to `changes` (checked above): the verified bytes are what the tree gets.
  const entries = treeEntriesOf(pr.verified ?? changes);
  const baseTree = await github.getCommitTree(repo, pr.baseSha);
  const tree = await github.createTree(repo, baseTree, entries);
  const commit = await github.createCommit(repo, pr.commitMessage ?? pr.title, tree, [pr.baseSha]);
  await github.createBranch(repo, pr.branch, commit);
  const pull = await github.createDraftPull(repo, {
    title: pr.title,
    body: pr.body,
    head: pr.branch,
    base: pr.baseBranch,
  });
  return { ...pull, branch: pr.branch, commitSha: commit };
}
