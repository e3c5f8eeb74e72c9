/**
 * Start the real App server (Probot, its webhook middleware, the job store) on a loopback port against the
 * fake GitHub, and post signed webhooks to it the way GitHub does.
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { sign } from "@octokit/webhooks-methods";
import { type AppServer, startAppServer } from "../../../src/app/server.ts";
import type { JobResult, JobRunner } from "../../../src/jobs/result.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import type { FakeGitHub } from "./fake-github.ts";

const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as unknown;

export const SECRET = "webhook-secret-for-tests";
export const PRIVATE_KEY = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
}).privateKey;

export function newDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), "retrace-app-")), "jobs.sqlite");
}

export async function startApp(
  github: FakeGitHub,
  runner: JobRunner,
  options: { dbPath?: string; env?: Record<string, string> } = {},
): Promise<AppServer> {
  return startAppServer({
    env: {
      APP_ID: "4242",
      PRIVATE_KEY,
      WEBHOOK_SECRET: SECRET,
      PORT: "0",
      HOST: "127.0.0.1",
      GHE_HOST: github.host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "fatal",
      RETRACE_DB_PATH: options.dbPath ?? newDbPath(),
      RETRACE_APP_SLUG: "retrace-test",
      ...options.env,
    },
    runner,
    gate: evaluatePatch,
    // The fake answers at once; GitHub's one-write-per-second pacing would only slow the suite down.
    octokit: { throttle: false, retry: false },
  });
}

// biome-ignore lint/suspicious/noExplicitAny: example payloads are edited freely by tests.
type Payload = any;

/** A payload from @octokit/webhooks-examples (deep copy), with an installation added. */
export function example(event: string, action?: string, index = 0): Payload {
  const entry = (examples as unknown as Array<{ name: string; examples: Payload[] }>).find(
    (e) => e.name === event,
  );
  if (!entry) throw new Error(`no examples for ${event}`);
  const hits = entry.examples.filter((e) => action === undefined || e.action === action);
  const hit = hits[index];
  if (!hit) throw new Error(`no example ${event}.${action} #${index}`);
  return { ...structuredClone(hit), installation: { id: 77, node_id: "x" } };
}

/** The result a dispatched fix job's runner uploads: FIXED with `patch`, verified on the runner; `over` changes it. */
export function runnerFixResult(jobId: string, patch: string, over: Partial<JobResult> = {}): JobResult {
  return {
    jobId,
    kind: "fix",
    outcome: "succeeded",
    verdict: "FIXED",
    summary: "verified on the runner",
    patch,
    prTitle: "Fix add",
    prBody: "Adds instead of subtracting.",
    failures: [],
    costUsd: 0.5,
    tokens: 10,
    attempts: 1,
    durationMs: 1000,
    ...over,
  };
}

/** The `workflow_run.completed` example as run `runId` of `repo`'s own branch `branch` at `sha`, failed, no PRs. */
export function failedWorkflowRun(repo: string, sha: string, branch: string, runId: number): Payload {
  const p = example("workflow_run", "completed");
  p.workflow_run.id = runId;
  p.workflow_run.conclusion = "failure";
  p.workflow_run.head_sha = sha;
  p.workflow_run.head_branch = branch;
  p.workflow_run.pull_requests = [];
  // The example's head repository differs from its repository (a fork run); this one is the repo's own.
  p.repository.full_name = repo;
  p.workflow_run.head_repository.full_name = repo;
  return p;
}

export async function postWebhook(
  app: Pick<AppServer, "url">,
  event: string,
  payload: unknown,
  options: {
    delivery?: string;
    secret?: string;
    headers?: Record<string, string | null>;
    rawBody?: string;
  } = {},
): Promise<Response> {
  const body = options.rawBody ?? JSON.stringify(payload);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-github-event": event,
    "x-github-delivery": options.delivery ?? randomUUID(),
    "x-hub-signature-256": await sign(options.secret ?? SECRET, body),
    "user-agent": "GitHub-Hookshot/test",
  };
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  return fetch(`${app.url}/api/github/webhooks`, { method: "POST", headers, body });
}
