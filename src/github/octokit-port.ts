/**
 * GitHubPort over an Octokit client. Only `octokit.request(route, params)` is used, so Probot's
 * installation client and `@actions/github`'s client both fit, and tests see plain REST calls.
 */
import type {
  ArtifactInfo,
  CheckRunFields,
  CheckRunInfo,
  CommentRef,
  GitHubPort,
  GitMode,
  IssueInfo,
  Permission,
  PullInfo,
  RepoId,
  TreeEntry,
} from "../core/ports/github.ts";
import { GitHubApiError, statusOf } from "./errors.ts";

/** The part of Octokit this adapter needs. */
export interface OctokitLike {
  // biome-ignore lint/suspicious/noExplicitAny: Octokit's overloaded request signature is not expressible structurally.
  request: (route: string, params?: Record<string, unknown>) => Promise<{ status: number; data: any }>;
}

// biome-ignore lint/suspicious/noExplicitAny: REST payloads are read field by field below.
type Json = any;

const PERMISSIONS: readonly Permission[] = ["admin", "maintain", "write", "triage", "read", "none"];

function checkFields(fields: CheckRunFields): Record<string, unknown> {
  return {
    status: fields.status,
    ...(fields.conclusion ? { conclusion: fields.conclusion } : {}),
    ...(fields.detailsUrl ? { details_url: fields.detailsUrl } : {}),
    output: { title: sliceWhole(fields.title, 255), summary: truncate(fields.summary, 65_000) },
  };
}

/** The first `max` UTF-16 units of `text`, one fewer when the cut would leave the first half of a surrogate pair. */
export function sliceWhole(text: string, max: number): string {
  const kept = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(kept) && kept.length < text.length ? kept.slice(0, -1) : kept;
}

/** The fence still open at the end of `text` (its opening run of backticks or tildes), or null. */
function openFence(text: string): string | null {
  let open: string | null = null;
  for (const line of text.split("\n")) {
    if (open === null) {
      const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (m && !(m[1]![0] === "`" && line.slice(m[0].length).includes("`"))) open = m[1]!;
    } else if (new RegExp(`^ {0,3}${open[0] === "`" ? "`" : "~"}{${open.length},}\\s*$`).test(line))
      open = null;
  }
  return open;
}

/**
 * `text` cut to at most `max` UTF-16 units with Retrace's note: never inside a surrogate pair (a lone half is not
 * text), and a code fence the cut leaves open is closed first, or the note and whatever GitHub renders after it
 * would be inside the code block.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = "\n\n… (truncated by Retrace)";
  let kept = sliceWhole(text, max - 40);
  let fence = openFence(kept);
  if (fence !== null) {
    kept = sliceWhole(kept, Math.max(0, max - 40 - fence.length - 2));
    fence = openFence(kept);
  }
  return `${kept}${fence === null ? "" : `\n${fence}`}${note}`;
}

function bytesOf(data: unknown): Uint8Array {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof data === "string") return new TextEncoder().encode(data);
  throw new GitHubApiError("the download returned no binary data");
}

export function createGitHubPort(octokit: OctokitLike): GitHubPort {
  async function call(what: string, route: string, params: Record<string, unknown>): Promise<Json> {
    try {
      return (await octokit.request(route, params)).data;
    } catch (error) {
      const status = statusOf(error);
      throw new GitHubApiError(`GitHub API: ${what} failed${status ? ` (HTTP ${status})` : ""}`, {
        ...(status === undefined ? {} : { status }),
        cause: error,
      });
    }
  }

  async function paginate(what: string, route: string, params: Record<string, unknown>, key?: string) {
    const all: Json[] = [];
    for (let page = 1; page <= 50; page++) {
      const data = await call(what, route, { ...params, per_page: 100, page });
      const items: Json[] = key ? (data?.[key] ?? []) : (data ?? []);
      all.push(...items);
      if (items.length < 100) break;
    }
    return all;
  }

  /** One non-recursive tree read per directory (a recursive read may be truncated), each directory read once. */
  function treeReader(repo: RepoId) {
    const trees = new Map<string, Map<string, { mode: GitMode; sha: string }> | null>();
    return async (dir: string, sha: string) => {
      if (!trees.has(dir)) {
        const d = await call("read a tree", "GET /repos/{owner}/{repo}/git/trees/{tree_sha}", {
          ...repo,
          tree_sha: sha,
        });
        const entries = new Map<string, { mode: GitMode; sha: string }>();
        for (const e of d?.tree ?? []) {
          // GitHub writes a directory's mode as "040000"; git itself as "40000": the type says it either way.
          const mode = (e.type === "tree" ? "040000" : String(e.mode)) as GitMode;
          entries.set(String(e.path), { mode, sha: String(e.sha) });
        }
        trees.set(dir, entries);
      }
      return trees.get(dir) ?? null;
    };
  }

  return {
    async getPermission(repo, username) {
      const data = await call(
        "read a collaborator's permission",
        "GET /repos/{owner}/{repo}/collaborators/{username}/permission",
        {
          ...repo,
          username,
        },
      );
      // role_name distinguishes maintain/triage; permission is the legacy admin/write/read/none.
      const role = String(data?.role_name ?? data?.permission ?? "none");
      return (PERMISSIONS as readonly string[]).includes(role) ? (role as Permission) : "none";
    },

    async getIssue(repo, issueNumber): Promise<IssueInfo> {
      const d = await call("read the issue", "GET /repos/{owner}/{repo}/issues/{issue_number}", {
        ...repo,
        issue_number: issueNumber,
      });
      return {
        number: d.number,
        title: String(d.title ?? ""),
        body: String(d.body ?? ""),
        isPull: Boolean(d.pull_request),
        htmlUrl: String(d.html_url ?? ""),
      };
    },

    async getPull(repo, pullNumber): Promise<PullInfo> {
      const d = await call("read the pull request", "GET /repos/{owner}/{repo}/pulls/{pull_number}", {
        ...repo,
        pull_number: pullNumber,
      });
      return pullInfo(d);
    },

    async findPullByHead(repo, branch) {
      const list = await call("list pull requests", "GET /repos/{owner}/{repo}/pulls", {
        ...repo,
        head: `${repo.owner}:${branch}`,
        state: "all",
        sort: "created",
        direction: "desc",
        per_page: 1,
      });
      const d = Array.isArray(list) ? list[0] : undefined;
      return d ? pullInfo(d) : null;
    },

    async getBranchHead(repo, branch) {
      try {
        const d = await octokit.request("GET /repos/{owner}/{repo}/branches/{branch}", { ...repo, branch });
        return String(d.data?.commit?.sha);
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw new GitHubApiError(`GitHub API: read branch ${branch} failed`, { cause: error });
      }
    },

    async getFileText(repo, path, ref) {
      try {
        const d = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
          ...repo,
          path,
          ...(ref ? { ref } : {}),
        });
        const data = d.data;
        // Anything but a file's base64 bytes is refused, never read as an absent or empty file (red team 30: a
        // config over 1 MB, served `encoding: none` with no content, or a link, was read as no config: the defaults).
        const kind = Array.isArray(data) ? "dir" : String(data?.type ?? "unknown");
        if (kind !== "file" || data.encoding !== "base64" || typeof data.content !== "string")
          throw new GitHubApiError(
            kind === "file"
              ? `GitHub API: ${path} is served without its content (${Number(data?.size) || "unknown"} bytes, encoding ${JSON.stringify(String(data?.encoding ?? "")).slice(0, 40)}): the contents API gives the text of files up to 1 MB only`
              : `GitHub API: ${path} is not a file but a ${kind === "dir" ? "directory" : kind.slice(0, 20)}${typeof data?.target === "string" ? ` (to ${JSON.stringify(data.target.slice(0, 200))})` : ""}`,
            { hint: `commit ${path} as a regular file of at most 1 MB` },
          );
        return Buffer.from(data.content, "base64").toString("utf8");
      } catch (error) {
        if (error instanceof GitHubApiError) throw error;
        if (statusOf(error) === 404) return null;
        throw new GitHubApiError(`GitHub API: read ${path} failed`, { cause: error });
      }
    },

    async findComment(repo, issueNumber, marker): Promise<CommentRef | null> {
      const comments = await paginate(
        "list comments",
        "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
        {
          ...repo,
          issue_number: issueNumber,
        },
      );
      const hit = comments.find((c) => typeof c?.body === "string" && c.body.includes(marker));
      return hit ? { id: hit.id, url: String(hit.html_url ?? "") } : null;
    },

    async createComment(repo, issueNumber, body) {
      const d = await call("create a comment", "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...repo,
        issue_number: issueNumber,
        body: truncate(body, 65_000),
      });
      return { id: d.id, url: String(d.html_url ?? "") };
    },

    async updateComment(repo, commentId, body) {
      const d = await call("update a comment", "PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
        ...repo,
        comment_id: commentId,
        body: truncate(body, 65_000),
      });
      return { id: d.id, url: String(d.html_url ?? "") };
    },

    async createCheckRun(repo, headSha, name, fields) {
      const d = await call("create a check run", "POST /repos/{owner}/{repo}/check-runs", {
        ...repo,
        head_sha: headSha,
        name,
        ...checkFields(fields),
      });
      return { id: d.id };
    },

    async updateCheckRun(repo, checkRunId, fields) {
      await call("update a check run", "PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
        ...repo,
        check_run_id: checkRunId,
        ...checkFields(fields),
      });
    },

    async listFailedCheckRuns(repo, ref): Promise<CheckRunInfo[]> {
      const runs = await paginate(
        "list check runs",
        "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
        { ...repo, ref, filter: "latest" },
        "check_runs",
      );
      return runs
        .filter((r) => r?.conclusion === "failure")
        .map((r) => ({
          id: r.id,
          name: String(r.name),
          headSha: String(r.head_sha),
          conclusion: r.conclusion,
          actionsJobId: r.app?.slug === "github-actions" ? r.id : null,
        }));
    },

    async getJobLog(repo, jobId) {
      const data = await call("download a job log", "GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
        ...repo,
        job_id: jobId,
      });
      return typeof data === "string" ? data : new TextDecoder().decode(bytesOf(data));
    },

    async getFailedJobLogs(repo, runId) {
      const jobs = await paginate(
        "list workflow jobs",
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs",
        { ...repo, run_id: runId, filter: "latest" },
        "jobs",
      );
      const failed = jobs.filter((j) => j?.conclusion === "failure");
      const out: Array<{ jobId: number; name: string; log: string }> = [];
      for (const job of failed)
        out.push({ jobId: job.id, name: String(job.name), log: await this.getJobLog(repo, job.id) });
      return out;
    },

    async dispatchWorkflow(repo, workflow, ref, inputs) {
      await call(
        `dispatch workflow ${workflow}`,
        "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches",
        {
          ...repo,
          workflow_id: workflow,
          ref,
          inputs,
        },
      );
    },

    async listRunArtifacts(repo, runId): Promise<ArtifactInfo[]> {
      const list = await paginate(
        "list run artifacts",
        "GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts",
        { ...repo, run_id: runId },
        "artifacts",
      );
      return list.map((a) => ({ id: a.id, name: String(a.name), expired: Boolean(a.expired) }));
    },

    async downloadArtifact(repo, artifactId) {
      const data = await call(
        "download an artifact",
        "GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}",
        {
          ...repo,
          artifact_id: artifactId,
          archive_format: "zip",
        },
      );
      return bytesOf(data);
    },

    async downloadTarball(repo, ref) {
      // Answered with a redirect to codeload; Octokit follows it and returns the bytes (application/x-gzip).
      const data = await call("download the repository archive", "GET /repos/{owner}/{repo}/tarball/{ref}", {
        ...repo,
        ref,
      });
      return bytesOf(data);
    },

    async getPathModes(repo, commitSha, paths) {
      const readTree = treeReader(repo);
      const root = await this.getCommitTree(repo, commitSha);
      const modes = new Map<string, GitMode>();
      for (const path of paths) {
        const parts = path.split("/");
        let dir = "";
        let entries = await readTree(dir, root);
        for (let i = 0; i < parts.length && entries; i++) {
          const entry = entries.get(parts[i]!);
          if (!entry) break;
          if (i === parts.length - 1) {
            modes.set(path, entry.mode);
            break;
          }
          if (entry.mode !== "040000") break;
          dir = dir ? `${dir}/${parts[i]}` : parts[i]!;
          entries = await readTree(dir, entry.sha);
        }
      }
      return modes;
    },

    async listTreeNames(repo, commitSha, paths, max) {
      const readTree = treeReader(repo);
      const root = await this.getCommitTree(repo, commitSha);
      const names = new Set<string>();
      const listed = new Set<string>();
      for (const path of paths) {
        const parts = path.split("/");
        let dir = "";
        let entries = await readTree(dir, root);
        for (let i = 0; i < parts.length && entries; i++) {
          if (!listed.has(dir)) {
            listed.add(dir);
            for (const name of entries.keys()) {
              if (names.size >= max) return [...names];
              names.add(dir ? `${dir}/${name}` : name);
            }
          }
          const entry = entries.get(parts[i]!);
          if (entry?.mode !== "040000") break;
          dir = dir ? `${dir}/${parts[i]}` : parts[i]!;
          entries = await readTree(dir, entry.sha);
        }
      }
      return [...names];
    },

    async getDefaultBranch(repo) {
      const d = await call("read the repository", "GET /repos/{owner}/{repo}", { ...repo });
      const branch = d?.default_branch;
      if (typeof branch !== "string" || branch === "")
        throw new GitHubApiError("GitHub API: the repository names no default branch");
      return branch;
    },

    async getCommitTree(repo, commitSha) {
      const d = await call("read a commit", "GET /repos/{owner}/{repo}/git/commits/{commit_sha}", {
        ...repo,
        commit_sha: commitSha,
      });
      return String(d.tree?.sha);
    },

    async createTree(repo, baseTree, entries: TreeEntry[]) {
      const d = await call("create a tree", "POST /repos/{owner}/{repo}/git/trees", {
        ...repo,
        base_tree: baseTree,
        tree: entries.map((e) =>
          e.content === null
            ? { path: e.path, mode: e.mode, type: "blob", sha: null }
            : { path: e.path, mode: e.mode, type: "blob", content: e.content },
        ),
      });
      return String(d.sha);
    },

    async createCommit(repo, message, tree, parents) {
      const d = await call("create a commit", "POST /repos/{owner}/{repo}/git/commits", {
        ...repo,
        message,
        tree,
        parents,
      });
      return String(d.sha);
    },

    async createBranch(repo, branch, sha) {
      await call(`create branch ${branch}`, "POST /repos/{owner}/{repo}/git/refs", {
        ...repo,
        ref: `refs/heads/${branch}`,
        sha,
      });
    },

    async createDraftPull(repo, pull) {
      const d = await call("open a draft pull request", "POST /repos/{owner}/{repo}/pulls", {
        ...repo,
        title: pull.title,
        body: truncate(pull.body, 65_000),
        head: pull.head,
        base: pull.base,
        draft: true,
        maintainer_can_modify: true,
      });
      return { number: d.number, url: String(d.html_url ?? "") };
    },
  };
}

/** The fields Retrace reads from a pull request object of the REST API. */
function pullInfo(d: Json): PullInfo {
  return {
    number: d.number,
    headRef: String(d.head?.ref),
    headSha: String(d.head?.sha),
    baseRef: String(d.base?.ref),
    headRepoFullName: d.head?.repo?.full_name ?? null,
    body: typeof d.body === "string" ? d.body : "",
  };
}
