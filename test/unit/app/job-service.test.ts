/**
 * The job service (src/app/job-service.ts) with a real job store and the real octokit port against the HTTP fake:
 * what it logs and posts is redacted, an invalid config is reported only to someone allowed to ask, and the
 * dispatched spec names its workflow's branch and the failed jobs whose logs the runner downloads.
 */
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jobIdFor } from "../../../src/app/job-record.ts";
import { JobService } from "../../../src/app/job-service.ts";
import { type JobStore, openSqliteJobStore } from "../../../src/app/job-store.ts";
import { DEFAULT_HOST_LIMITS } from "../../../src/core/host-limits.ts";
import type { JobSpec } from "../../../src/core/job.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import type { JobRunner } from "../../../src/jobs/result.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";

const { Octokit } = createRequire(import.meta.url)("@octokit/core") as typeof import("@octokit/core");
const SECRET = "app-private-secret-value-42";
const TOKEN = `ghp_${"a1B2".repeat(9)}`;

let fake: FakeGitHub;
let store: JobStore;
let lines: string[];
beforeEach(async () => {
  fake = await startFakeGitHub();
  store = await openSqliteJobStore(null);
  lines = [];
  fake.state.issues.set("octo/app#3", { title: "Crash", body: "boom" });
  fake.state.permissions.set("octo/app:ana", "write");
  fake.state.permissions.set("octo/app:tri", "triage");
  fake.state.branches.set("octo/app:feature", "abc123");
  fake.state.jobLogs.set(31, "FAILED test_add");
});
afterEach(async () => {
  store.close();
  await fake.close();
});

function service(runner: JobRunner, executor: "local" | "actions" = "local"): JobService {
  return new JobService({
    store,
    runner,
    gate: evaluatePatch,
    githubFor: async () =>
      createGitHubPort(new Octokit({ auth: "t", baseUrl: fake.url }) as unknown as OctokitLike),
    identity: { appId: 4242, appSlug: "retrace" },
    executor,
    workflow: "retrace.yml",
    concurrency: 1,
    log: {
      info: (m) => lines.push(`info ${m}`),
      warn: (m) => lines.push(`warn ${m}`),
      error: (m) => lines.push(`error ${m}`),
    },
    secrets: [SECRET],
    maxima: DEFAULT_HOST_LIMITS,
  });
}

const labeled = (login: string, defaultBranch: string | null = "main") => ({
  action: "labeled",
  repository: { full_name: "octo/app", ...(defaultBranch ? { default_branch: defaultBranch } : {}) },
  installation: { id: 7 },
  sender: { login, type: "User" },
  label: { name: "needs-repro" },
  issue: { number: 3 },
});

const failedCheck = (defaultBranch: string | null) => ({
  action: "completed",
  repository: { full_name: "octo/app", ...(defaultBranch ? { default_branch: defaultBranch } : {}) },
  installation: { id: 7 },
  sender: { login: "ana", type: "User" },
  check_run: {
    id: 31,
    name: "test",
    head_sha: "abc123",
    conclusion: "failure",
    app: { id: 15368, slug: "github-actions" },
    check_suite: { head_branch: "feature" },
    pull_requests: [],
  },
});

describe("redaction", () => {
  it("log lines and the failure comment never carry a secret from a runner error", async () => {
    const s = service(async () => {
      throw new Error(`the runner failed: token ${TOKEN}, key ${SECRET}`);
    });
    s.receive("d1", "issues", labeled("ana"));
    await s.idle();
    const text = lines.join("\n");
    expect(text).toContain("the runner failed");
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SECRET);
    const comment = fake.state.comments.at(-1)!.body;
    expect(comment).toContain("the runner failed");
    expect(comment).not.toContain(TOKEN);
    expect(comment).not.toContain(SECRET);
  });

  it("the invalid-config check run summary is redacted", async () => {
    fake.state.files.set("octo/app@:.github/retrace.yml", `limits:\n  ${TOKEN}: 1\n`);
    const s = service(async () => {
      throw new Error("must not run");
    });
    s.receive("d2", "check_run", failedCheck("main"));
    await s.idle();
    const check = fake.state.checkRuns[0]!.body as { output: { summary: string } };
    expect(check.output.summary).toContain("limits");
    expect(check.output.summary).toContain("[REDACTED:github-token]");
    expect(check.output.summary).not.toContain(TOKEN);
    expect(lines.join("\n")).not.toContain(TOKEN);
  });
});

describe("invalid .github/retrace.yml", () => {
  it("a triage-only labeller gets no comment from the App, even about the invalid config", async () => {
    fake.state.files.set("octo/app@:.github/retrace.yml", "repro:\n  runs: 50\n");
    const s = service(async () => {
      throw new Error("must not run");
    });
    s.receive("d3", "issues", labeled("tri"));
    await s.idle();
    expect(fake.calls("GET", /collaborators\/tri\/permission$/)).toHaveLength(1);
    expect(fake.calls("POST", /comments$/)).toEqual([]);
    expect(store.get(jobIdFor("repro", "d3"))).toMatchObject({
      state: "skipped",
      reason: "@tri lacks write permission (or it could not be read); .github/retrace.yml is invalid too",
    });
  });

  it("a writer gets the problem on the comment", async () => {
    fake.state.files.set("octo/app@:.github/retrace.yml", "repro:\n  runs: 50\n");
    const s = service(async () => {
      throw new Error("must not run");
    });
    s.receive("d4", "issues", labeled("ana"));
    await s.idle();
    expect(fake.state.comments[0]!.body).toMatch(/- repro\.runs: .*10/);
  });
});

describe("actions executor dispatch", () => {
  it("asks the API for the default branch when the payload names none, and carries the failed job ids", async () => {
    fake.state.defaultBranches.set("octo/app", "trunk");
    const s = service(async () => {
      throw new Error("must not run here");
    }, "actions");
    s.receive("d5", "check_run", failedCheck(null));
    await s.idle();
    expect(fake.calls("GET", /^\/repos\/octo\/app$/)).toHaveLength(1);
    const [dispatch] = fake.state.dispatches;
    expect(dispatch).toMatchObject({ workflow: "retrace.yml", ref: "trunk" });
    const spec = JSON.parse(dispatch!.inputs["job-spec"]!) as JobSpec;
    expect(spec).toMatchObject({ kind: "fix", headSha: "abc123", logJobIds: [31] });
    expect("log" in spec).toBe(false);
  });
});

describe("commands read against the configured words", () => {
  it("the configured repro word on a pull request reproduces it (the parser only knows the default words)", async () => {
    fake.state.files.set("octo/app@:.github/retrace.yml", "commands:\n  repro: /rep\n");
    const specs: JobSpec[] = [];
    const s = service(async (spec) => {
      specs.push(spec);
      return {
        jobId: spec.id,
        kind: spec.kind,
        outcome: "succeeded",
        verdict: "REPRODUCED",
        summary: "reproduced",
        patch: null,
        failures: [],
        costUsd: 0,
        tokens: 0,
        attempts: 1,
        durationMs: 1,
      };
    });
    s.receive("d6", "issue_comment", {
      action: "created",
      repository: { full_name: "octo/app", default_branch: "main" },
      installation: { id: 7 },
      sender: { login: "ana", type: "User" },
      issue: { number: 3, pull_request: { url: "u" } },
      comment: { body: "/rep", user: { login: "ana", type: "User" } },
    });
    await s.idle();
    expect(specs).toMatchObject([{ kind: "repro", issueNumber: 3, markdown: "# Crash\n\nboom" }]);
    expect(store.get(jobIdFor("fix", "d6"))).toMatchObject({
      kind: "repro",
      state: "completed",
      trigger: { type: "repro", word: "/rep" },
    });
    expect(fake.state.comments[0]!.body).toContain("### Retrace reproduction: ✅ REPRODUCED");
  });
});

describe("replayed deliveries (thirteenth red team)", () => {
  it("one signed body under fresh delivery ids is one job; another event is another", async () => {
    const s = service(async () => {
      throw new Error("recorded");
    });
    const body = labeled("ana");
    expect(s.receive("r1", "issues", body).status).toBe("queued");
    expect(s.receive("r2", "issues", structuredClone(body))).toEqual({ status: "duplicate" });
    expect(s.receive("r3", "issues", { ...labeled("ana"), label: { name: "other" } }).status).toBe("queued");
    await s.idle();
    expect(store.all()).toHaveLength(2);
  });
});
