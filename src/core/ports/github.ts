/**
 * The GitHub port: every GitHub read and write the surfaces make, as one interface.
 * Handlers and pipelines take a `GitHubPort`; `createGitHubPort(octokit)` implements it over any Octokit
 * (Probot's installation client or the Action's token client), so tests fake GitHub at the HTTP layer only.
 */

/** A repository, as the REST API addresses it. */
export interface RepoId {
  owner: string;
  repo: string;
}

/** Repository permission of a user, as `GET /repos/{owner}/{repo}/collaborators/{username}/permission` names it. */
export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface IssueInfo {
  number: number;
  title: string;
  body: string;
  /** Whether the issue is a pull request. */
  isPull: boolean;
  htmlUrl: string;
}

export interface PullInfo {
  number: number;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** "owner/name" of the head repository; differs from the base on fork PRs. */
  headRepoFullName: string | null;
  /** The PR's description ("" when it has none); absent when the source does not say. */
  body?: string;
}

export interface CommentRef {
  id: number;
  url: string;
}

export interface CheckRunFields {
  status: "queued" | "in_progress" | "completed";
  conclusion?: "success" | "failure" | "neutral" | "cancelled" | "skipped" | "action_required" | "timed_out";
  title: string;
  /** Markdown summary (GitHub caps it at 65535 characters). */
  summary: string;
  detailsUrl?: string;
}

export interface CheckRunInfo {
  id: number;
  name: string;
  headSha: string;
  conclusion: string | null;
  /** Set for checks produced by GitHub Actions: the id of the Actions job. */
  actionsJobId: number | null;
}

export interface ArtifactInfo {
  id: number;
  name: string;
  expired: boolean;
}

/** A git tree entry mode: regular file, executable, symbolic link, submodule, directory. */
export type GitMode = "100644" | "100755" | "120000" | "160000" | "040000";

export interface TreeEntry {
  path: string;
  /** File mode; "100644" for regular files, "100755" for executables (kept from the base entry). */
  mode: "100644" | "100755";
  /** New file content; null deletes the path. */
  content: string | null;
}

export interface GitHubPort {
  getPermission(repo: RepoId, username: string): Promise<Permission>;
  getIssue(repo: RepoId, issueNumber: number): Promise<IssueInfo>;
  getPull(repo: RepoId, pullNumber: number): Promise<PullInfo>;
  /** The most recent pull request (open or closed) whose head is `branch` of this repository; null when none. */
  findPullByHead(repo: RepoId, branch: string): Promise<PullInfo | null>;
  /** Head commit of a branch; null when the branch does not exist. */
  getBranchHead(repo: RepoId, branch: string): Promise<string | null>;
  /** Text of a file at a ref (default branch when absent); null when it does not exist. */
  getFileText(repo: RepoId, path: string, ref?: string): Promise<string | null>;
  /** The first comment on the issue whose body contains `marker`, or null. */
  findComment(repo: RepoId, issueNumber: number, marker: string): Promise<CommentRef | null>;
  createComment(repo: RepoId, issueNumber: number, body: string): Promise<CommentRef>;
  updateComment(repo: RepoId, commentId: number, body: string): Promise<CommentRef>;
  createCheckRun(
    repo: RepoId,
    headSha: string,
    name: string,
    fields: CheckRunFields,
  ): Promise<{ id: number }>;
  updateCheckRun(repo: RepoId, checkRunId: number, fields: CheckRunFields): Promise<void>;
  /** Check runs of a commit that completed with `failure`. */
  listFailedCheckRuns(repo: RepoId, ref: string): Promise<CheckRunInfo[]>;
  /** Log text of one Actions job. */
  getJobLog(repo: RepoId, jobId: number): Promise<string>;
  /** Failed jobs of an Actions workflow run, with their logs. */
  getFailedJobLogs(repo: RepoId, runId: number): Promise<Array<{ jobId: number; name: string; log: string }>>;
  dispatchWorkflow(
    repo: RepoId,
    workflow: string,
    ref: string,
    inputs: Record<string, string>,
  ): Promise<void>;
  listRunArtifacts(repo: RepoId, runId: number): Promise<ArtifactInfo[]>;
  /** The artifact's zip archive. */
  downloadArtifact(repo: RepoId, artifactId: number): Promise<Uint8Array>;
  /** The repository's files at a commit, as GitHub's gzipped tarball (one top-level directory). */
  downloadTarball(repo: RepoId, ref: string): Promise<Uint8Array>;
  /** Git modes of paths at a commit (read from its trees); a path that does not exist there is absent. */
  getPathModes(repo: RepoId, commitSha: string, paths: string[]): Promise<Map<string, GitMode>>;
  /**
   * The names (full paths) of every entry of every directory on the way to each of `paths` at a commit, the root
   * included, at most `max`: what a new path may fold onto (`src/Auth.js` beside `src/auth.js`, `LIB/` beside
   * `lib/`), read directory by directory, so no cap on the whole tree hides a name.
   */
  listTreeNames(repo: RepoId, commitSha: string, paths: string[], max: number): Promise<string[]>;
  /** The repository's default branch. */
  getDefaultBranch(repo: RepoId): Promise<string>;
  /** Tree sha of a commit. */
  getCommitTree(repo: RepoId, commitSha: string): Promise<string>;
  createTree(repo: RepoId, baseTree: string, entries: TreeEntry[]): Promise<string>;
  createCommit(repo: RepoId, message: string, tree: string, parents: string[]): Promise<string>;
  /** Creates `refs/heads/<branch>`; fails when it exists. */
  createBranch(repo: RepoId, branch: string, sha: string): Promise<void>;
  createDraftPull(
    repo: RepoId,
    pull: { title: string; body: string; head: string; base: string },
  ): Promise<{ number: number; url: string }>;
}

/** "owner/name" → RepoId. */
export function repoIdOf(fullName: string): RepoId {
  const [owner, repo, ...rest] = fullName.split("/");
  if (!owner || !repo || rest.length > 0)
    throw new Error(`not an owner/name repository: ${JSON.stringify(fullName)}`);
  return { owner, repo };
}
