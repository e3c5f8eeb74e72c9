// biome-ignore-all lint/suspicious/noAssignInExpressions: the router reads best as "if (match = route) answer".
// biome-ignore-all lint/suspicious/noExplicitAny: request bodies of the fake are read field by field.
/**
 * A fake GitHub REST API on a loopback port: enough state (files, branches, comments, check runs, refs,
 * pulls, permissions, logs, artifacts) for the App and the Action to run end to end, and a log of every
 * request so tests assert the exact calls. Unknown routes answer 404 and are recorded as `unexpected`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingMessage["headers"];
}

interface Comment {
  id: number;
  issue: number;
  body: string;
  html_url: string;
}

export interface FakeState {
  /** "owner/repo@ref:path" → content; ref "" means the default branch. */
  files: Map<string, string>;
  /** "owner/repo@ref:path" → git mode, for files of `files` that are not "100644" (executables, symlinks). */
  modes: Map<string, string>;
  /** "owner/repo" → default branch, as GET /repos/{owner}/{repo} names it; missing → 404. */
  defaultBranches: Map<string, string>;
  /** "owner/repo:branch" → sha. */
  branches: Map<string, string>;
  /** "owner/repo:user" → role_name; missing → 404 (not a collaborator). */
  permissions: Map<string, string>;
  /** "owner/repo#n" → issue. */
  issues: Map<
    string,
    {
      title: string;
      body: string;
      pull?: { headRef: string; headSha: string; baseRef: string; headRepo: string };
    }
  >;
  comments: Comment[];
  checkRuns: Array<{ id: number; body: Record<string, unknown> }>;
  /** head sha → failed check runs on it (as GET commits/{ref}/check-runs lists them). */
  failedChecks: Map<string, Array<{ id: number; name: string; appSlug: string }>>;
  /** Actions job id → log text. */
  jobLogs: Map<number, string>;
  /** run id → jobs. */
  runJobs: Map<number, Array<{ id: number; name: string; conclusion: string }>>;
  /** "owner/repo@ref" → gzipped tarball, as GET /repos/{o}/{r}/tarball/{ref} serves it. */
  tarballs: Map<string, Uint8Array>;
  /** run id → artifacts (zip bytes). */
  artifacts: Map<number, Array<{ id: number; name: string; zip: Uint8Array }>>;
  refs: Array<{ ref: string; sha: string }>;
  pulls: Array<Record<string, unknown>>;
  dispatches: Array<{ workflow: string; ref: string; inputs: Record<string, string> }>;
  /** Artificial delay (ms) before answering, per path regexp source. */
  delays: Array<{ match: RegExp; ms: number }>;
  /** Routes made to fail with a status. */
  failures: Array<{ match: RegExp; status: number }>;
}

export interface FakeGitHub {
  url: string;
  /** Base URL of the REST API as GHE addresses it (`/api/v3`). */
  apiUrl: string;
  host: string;
  state: FakeState;
  requests: RecordedRequest[];
  unexpected: RecordedRequest[];
  /** Requests of a method whose path matches. */
  calls(method: string, path: RegExp): RecordedRequest[];
  /** Resolves when a matching request has been recorded. */
  waitFor(method: string, path: RegExp, count?: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const state: FakeState = {
    files: new Map(),
    modes: new Map(),
    defaultBranches: new Map(),
    branches: new Map(),
    permissions: new Map(),
    issues: new Map(),
    comments: [],
    checkRuns: [],
    failedChecks: new Map(),
    jobLogs: new Map(),
    runJobs: new Map(),
    artifacts: new Map(),
    tarballs: new Map(),
    refs: [],
    pulls: [],
    dispatches: [],
    delays: [],
    failures: [],
  };
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  let nextId = 1000;
  let base = "";

  function json(res: ServerResponse, status: number, data: unknown): void {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(data));
  }

  /** Answer and report the route as handled. */
  function notFound(res: ServerResponse, status: number, data: unknown): true {
    json(res, status, data);
    return true;
  }

  async function route(req: IncomingMessage, res: ServerResponse, r: RecordedRequest): Promise<boolean> {
    const p = r.path;
    const m = (re: RegExp) => re.exec(p);
    const body = (r.body ?? {}) as Record<string, any>;
    let g: RegExpExecArray | null;

    if (req.method === "POST" && (g = m(/^\/app\/installations\/(\d+)\/access_tokens$/))) {
      json(res, 201, {
        token: `ghs_fakeinstallationtoken${g[1]}`,
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
      });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/contents\/(.+)$/))) {
      const ref = r.query.get("ref") ?? "";
      const key = `${g[1]}@${ref}:${decodeURIComponent(g[2]!)}`;
      const fallback = `${g[1]}@:${decodeURIComponent(g[2]!)}`;
      const text = state.files.get(key) ?? state.files.get(fallback);
      if (text === undefined) return notFound(res, 404, { message: "Not Found" });
      json(res, 200, { type: "file", encoding: "base64", content: Buffer.from(text).toString("base64") });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/branches\/(.+)$/))) {
      const sha = state.branches.get(`${g[1]}:${decodeURIComponent(g[2]!)}`);
      if (!sha) return notFound(res, 404, { message: "Branch not found" });
      json(res, 200, { name: g[2], commit: { sha } });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/collaborators\/([^/]+)\/permission$/))) {
      const role = state.permissions.get(`${g[1]}:${g[2]}`);
      if (!role) return notFound(res, 404, { message: `${g[2]} is not a user` });
      const legacy = role === "maintain" ? "write" : role === "triage" ? "read" : role;
      json(res, 200, { permission: legacy, role_name: role, user: { login: g[2] } });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)$/))) {
      const issue = state.issues.get(`${g[1]}#${g[2]}`);
      if (!issue) return notFound(res, 404, { message: "Not Found" });
      json(res, 200, {
        number: Number(g[2]),
        title: issue.title,
        body: issue.body,
        html_url: `https://github.test/${g[1]}/issues/${g[2]}`,
        ...(issue.pull ? { pull_request: { url: "x" } } : {}),
      });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/))) {
      const pr = state.issues.get(`${g[1]}#${g[2]}`)?.pull;
      if (!pr) return notFound(res, 404, { message: "Not Found" });
      json(res, 200, {
        number: Number(g[2]),
        head: { ref: pr.headRef, sha: pr.headSha, repo: { full_name: pr.headRepo } },
        base: { ref: pr.baseRef },
      });
      return true;
    }
    if ((g = m(/^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/))) {
      const issue = Number(g[2]);
      if (req.method === "GET") {
        json(
          res,
          200,
          state.comments.filter((c) => c.issue === issue),
        );
        return true;
      }
      if (req.method === "POST") {
        const id = nextId++;
        const c = {
          id,
          issue,
          body: String(body.body),
          html_url: `https://github.test/${g[1]}/issues/${issue}#issuecomment-${id}`,
        };
        state.comments.push(c);
        json(res, 201, c);
        return true;
      }
    }
    if (req.method === "PATCH" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/))) {
      const c = state.comments.find((x) => x.id === Number(g![2]));
      if (!c) return notFound(res, 404, { message: "Not Found" });
      c.body = String(body.body);
      json(res, 200, c);
      return true;
    }
    if (req.method === "POST" && m(/^\/repos\/[^/]+\/[^/]+\/check-runs$/)) {
      const id = nextId++;
      state.checkRuns.push({ id, body });
      json(res, 201, { id, ...body });
      return true;
    }
    if (req.method === "PATCH" && (g = m(/^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/))) {
      const c = state.checkRuns.find((x) => x.id === Number(g![1]));
      if (!c) return notFound(res, 404, { message: "Not Found" });
      c.body = { ...c.body, ...body };
      json(res, 200, { id: c.id, ...c.body });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/[^/]+\/[^/]+\/commits\/([^/]+)\/check-runs$/))) {
      const runs = (state.failedChecks.get(g[1]!) ?? []).map((c) => ({
        id: c.id,
        name: c.name,
        head_sha: g![1],
        conclusion: "failure",
        app: { slug: c.appSlug },
      }));
      json(res, 200, { total_count: runs.length, check_runs: runs });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/[^/]+\/[^/]+\/actions\/jobs\/(\d+)\/logs$/))) {
      const log = state.jobLogs.get(Number(g[1]));
      if (log === undefined) return notFound(res, 404, { message: "Not Found" });
      // Like GitHub: a redirect to blob storage, which serves the text.
      res.writeHead(302, { location: `${base}/_blobs/logs/${g[1]}` });
      res.end();
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/_blobs\/logs\/(\d+)$/))) {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(state.jobLogs.get(Number(g[1])) ?? "");
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/jobs$/))) {
      const jobs = state.runJobs.get(Number(g[1])) ?? [];
      json(res, 200, { total_count: jobs.length, jobs });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/artifacts$/))) {
      const list = (state.artifacts.get(Number(g[1])) ?? []).map((a) => ({
        id: a.id,
        name: a.name,
        expired: false,
      }));
      json(res, 200, { total_count: list.length, artifacts: list });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/[^/]+\/[^/]+\/actions\/artifacts\/(\d+)\/zip$/))) {
      res.writeHead(302, { location: `${base}/_blobs/artifacts/${g[1]}` });
      res.end();
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/_blobs\/artifacts\/(\d+)$/))) {
      const a = [...state.artifacts.values()].flat().find((x) => x.id === Number(g![1]));
      if (!a) return notFound(res, 404, {});
      res.writeHead(200, { "content-type": "application/zip" });
      res.end(Buffer.from(a.zip));
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/tarball\/(.+)$/))) {
      const key = `${g[1]}@${decodeURIComponent(g[2]!)}`;
      if (!state.tarballs.has(key)) return notFound(res, 404, { message: "Not Found" });
      // Like GitHub: a redirect to codeload, which serves the gzip.
      res.writeHead(302, { location: `${base}/_blobs/tarballs/${encodeURIComponent(key)}` });
      res.end();
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/_blobs\/tarballs\/(.+)$/))) {
      const data = state.tarballs.get(decodeURIComponent(g[1]!));
      if (!data) return notFound(res, 404, {});
      res.writeHead(200, {
        "content-type": "application/x-gzip",
        "content-disposition": "attachment; filename=repo.tar.gz",
      });
      res.end(Buffer.from(data));
      return true;
    }
    if (
      req.method === "POST" &&
      (g = m(/^\/repos\/[^/]+\/[^/]+\/actions\/workflows\/([^/]+)\/dispatches$/))
    ) {
      state.dispatches.push({ workflow: decodeURIComponent(g[1]!), ref: body.ref, inputs: body.inputs });
      res.writeHead(204);
      res.end();
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/[^/]+\/[^/]+\/git\/commits\/([0-9a-f]+)$/))) {
      json(res, 200, { sha: g[1], tree: { sha: `tree-of-${g[1]}` } });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/git\/trees\/(.+)$/))) {
      // Trees are synthesized from `files`: `tree-of-<commit>` is the root, `tree-of-<commit>:<dir>` a directory.
      const t = /^tree-of-([0-9a-f]+)(?::(.*))?$/.exec(decodeURIComponent(g[2]!));
      if (!t) return notFound(res, 404, { message: "Not Found" });
      const [repo, commit, dir] = [g[1]!, t[1]!, t[2] ?? ""];
      const entries = new Map<string, { path: string; mode: string; type: string; sha: string }>();
      for (const ref of ["", commit]) {
        for (const key of state.files.keys()) {
          const prefix = `${repo}@${ref}:`;
          if (!key.startsWith(prefix)) continue;
          const path = key.slice(prefix.length);
          if (dir && !path.startsWith(`${dir}/`)) continue;
          const rest = dir ? path.slice(dir.length + 1) : path;
          const [name, ...below] = rest.split("/");
          if (below.length > 0) {
            const sub = dir ? `${dir}/${name}` : name!;
            entries.set(name!, {
              path: name!,
              mode: "040000",
              type: "tree",
              sha: `tree-of-${commit}:${sub}`,
            });
          } else {
            const mode = state.modes.get(key) ?? "100644";
            entries.set(name!, { path: name!, mode, type: "blob", sha: `blob-${name}` });
          }
        }
      }
      json(res, 200, { sha: g[2], tree: [...entries.values()], truncated: false });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+\/[^/]+)$/))) {
      const branch = state.defaultBranches.get(g[1]!);
      if (!branch) return notFound(res, 404, { message: "Not Found" });
      json(res, 200, { full_name: g[1], default_branch: branch });
      return true;
    }
    if (req.method === "POST" && m(/^\/repos\/[^/]+\/[^/]+\/git\/trees$/)) {
      json(res, 201, { sha: `tree${nextId++}` });
      return true;
    }
    if (req.method === "POST" && m(/^\/repos\/[^/]+\/[^/]+\/git\/commits$/)) {
      json(res, 201, { sha: `c0ffee${nextId++}` });
      return true;
    }
    if (req.method === "POST" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/git\/refs$/))) {
      state.refs.push({ ref: body.ref, sha: body.sha });
      state.branches.set(`${g[1]}:${String(body.ref).replace("refs/heads/", "")}`, body.sha);
      json(res, 201, { ref: body.ref, object: { sha: body.sha } });
      return true;
    }
    if (req.method === "GET" && (g = m(/^\/repos\/([^/]+)\/([^/]+)\/pulls$/))) {
      // `head=owner:branch`, newest first, as GitHub filters it.
      const head = r.query.get("head") ?? "";
      const list = state.pulls
        .filter((pr) => !head || `${g![1]}:${pr.head}` === head)
        .reverse()
        .map((pr) => ({
          number: pr.number,
          html_url: pr.html_url,
          head: { ref: pr.head, sha: pr.headSha ?? null, repo: { full_name: `${g![1]}/${g![2]}` } },
          base: { ref: pr.base },
          body: pr.body ?? null,
        }));
      json(res, 200, list);
      return true;
    }
    if (req.method === "POST" && (g = m(/^\/repos\/([^/]+\/[^/]+)\/pulls$/))) {
      const number = nextId++;
      const pr = { number, html_url: `https://github.test/${g[1]}/pull/${number}`, ...body };
      state.pulls.push(pr);
      json(res, 201, pr);
      return true;
    }
    return false;
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname.replace(/^\/api\/v3/, "");
    const text = await readBody(req);
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const r: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      query: url.searchParams,
      body,
      headers: req.headers,
    };
    requests.push(r);
    for (const d of state.delays) if (d.match.test(path)) await new Promise((ok) => setTimeout(ok, d.ms));
    const failure = state.failures.find((f) => f.match.test(path));
    if (failure) return json(res, failure.status, { message: "Injected failure" });
    if (!(await route(req, res, r))) {
      unexpected.push(r);
      json(res, 404, { message: `fake GitHub has no route ${r.method} ${path}` });
    }
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    apiUrl: `${base}/api/v3`,
    host: `127.0.0.1:${port}`,
    state,
    requests,
    unexpected,
    calls: (method, path) => requests.filter((r) => r.method === method && path.test(r.path)),
    async waitFor(method, path, count = 1, timeoutMs = 10_000) {
      const start = Date.now();
      for (;;) {
        const hits = requests.filter((r) => r.method === method && path.test(r.path));
        if (hits.length >= count) return hits;
        if (Date.now() - start > timeoutMs) {
          throw new Error(
            `timed out waiting for ${count}× ${method} ${path}; saw: ${requests.map((x) => `${x.method} ${x.path}`).join(", ")}`,
          );
        }
        await new Promise((ok) => setTimeout(ok, 20));
      }
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
