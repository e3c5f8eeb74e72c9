/**
 * Turn a verified unified diff into a draft pull request through the REST API: read each touched file at
 * the base commit, apply the hunks, write one commit on a new `retrace/…` branch, open a draft PR.
 * Nothing here can merge, and the only ref it ever writes is a new branch under `retrace/`.
 */
import { applyPatch, parsePatch } from "diff";
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

function stripPrefix(name: string | undefined): string | null {
  if (!name || name === "/dev/null") return null;
  const n = name.replace(/\t.*$/, "");
  return n.startsWith("a/") || n.startsWith("b/") ? n.slice(2) : n;
}

/** Path must stay inside the repository: relative, no `..`, no `.git`. */
function assertSafePath(path: string): void {
  const parts = path.split("/");
  if (path.startsWith("/") || parts.some((p) => p === ".." || p === "" || p === ".git")) {
    throw new PatchApplyError(`the patch touches a path outside the repository: ${JSON.stringify(path)}`);
  }
}

/** Compute the tree entries the patch produces on top of `baseSha`. */
export async function patchToTreeEntries(github: GitHubPort, repo: RepoId, baseSha: string, patch: string) {
  const files = parsePatch(patch);
  if (files.length === 0) throw new PatchApplyError("the patch is empty");
  const oldPaths = files.map((f) => stripPrefix(f.oldFileName)).filter((p): p is string => p !== null);
  for (const p of oldPaths) assertSafePath(p);
  // Each rewritten file keeps its mode at the base commit: an executable script stays executable.
  const modes = await github.getPathModes(repo, baseSha, oldPaths);
  const modeOf = (path: string): TreeEntry["mode"] => {
    const mode = modes.get(path);
    if (mode === undefined || mode === "100644" || mode === "100755") return mode ?? "100644";
    throw new PatchApplyError(
      `${path} is not a regular file at ${baseSha.slice(0, 12)} (git mode ${mode}); Retrace only patches regular files`,
    );
  };
  const entries: TreeEntry[] = [];
  for (const file of files) {
    const oldPath = stripPrefix(file.oldFileName);
    const newPath = stripPrefix(file.newFileName);
    const target = newPath ?? oldPath;
    if (!target) throw new PatchApplyError("a patch section names no file");
    for (const p of [oldPath, newPath]) if (p) assertSafePath(p);
    const mode = oldPath ? modeOf(oldPath) : "100644";
    const source = oldPath ? await github.getFileText(repo, oldPath, baseSha) : "";
    if (oldPath && source === null)
      throw new PatchApplyError(`${oldPath} does not exist at ${baseSha.slice(0, 12)}`);
    if (newPath === null) {
      entries.push({ path: oldPath as string, mode, content: null });
      continue;
    }
    const result = applyPatch(source ?? "", file);
    if (result === false)
      throw new PatchApplyError(`the patch does not apply to ${target} at ${baseSha.slice(0, 12)}`);
    entries.push({ path: newPath, mode, content: result });
    if (oldPath && oldPath !== newPath) entries.push({ path: oldPath, mode, content: null });
  }
  return entries;
}

export async function openDraftPullRequest(github: GitHubPort, repo: RepoId, pr: DraftPullRequest) {
  if (!pr.branch.startsWith(BRANCH_PREFIX) || pr.branch.length <= BRANCH_PREFIX.length) {
    throw new RetraceError(
      "internal",
      `refusing to write branch ${pr.branch}: Retrace only creates ${BRANCH_PREFIX}… branches`,
    );
  }
  const entries = await patchToTreeEntries(github, repo, pr.baseSha, pr.patch);
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
