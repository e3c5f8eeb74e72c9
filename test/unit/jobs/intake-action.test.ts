/**
 * The one intake (src/jobs/intake.ts) with the Action's context: no job store (so no daily limits), lineage
 * followed through the draft PRs, the `mode` and the inputs' overrides, the event's issue text, a failed
 * workflow run's logs, a dispatched spec; and the cases where the App and the Action used to disagree, now one
 * rule for both (docs/jobs.md). GitHub is the HTTP fake behind the real octokit port.
 */
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { JobSpec } from "../../../src/core/job.ts";
import { DEFAULT_HOST_LIMITS } from "../../../src/core/host-limits.ts";
import type { GitHubPort } from "../../../src/core/ports/github.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import { type IntakeContext, intake, resolveCommand } from "../../../src/jobs/intake.ts";
import type { FixTrigger, ReproTrigger } from "../../../src/jobs/triggers.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";

const { Octokit } = createRequire(import.meta.url)("@octokit/core") as typeof import("@octokit/core");

let fake: FakeGitHub;
let github: GitHubPort;
beforeEach(async () => {
  fake = await startFakeGitHub();
  github = createGitHubPort(
    new Octokit({ auth: "t", baseUrl: fake.url, request: { retries: 0 } }) as unknown as OctokitLike,
  );
  fake.state.permissions.set("octo/app:ana", "write");
  fake.state.branches.set("octo/app:feature", "sha-1");
});
afterEach(async () => {
  await fake.close();
});

const action = (over: Partial<IntakeContext> = {}): IntakeContext => ({
  jobId: (kind) => `${kind}-555-1`,
  maxima: DEFAULT_HOST_LIMITS,
  ...over,
});
const config = (raw: unknown = {}) => RetraceConfig.parse(raw);

const label = (over: Partial<ReproTrigger> = {}): ReproTrigger => ({
  type: "repro",
  repo: "octo/app",
  installationId: null,
  defaultBranch: "main",
  issueNumber: 3,
  via: "label",
  word: "needs-repro",
  actor: "ana",
  checkPermission: true,
  thenFix: false,
  issue: { title: "Crash", body: "boom" },
  ...over,
});
const failedRun = (over: Partial<FixTrigger> = {}): FixTrigger => ({
  type: "fix",
  repo: "octo/app",
  installationId: null,
  defaultBranch: "main",
  via: "workflow_run",
  word: "CI",
  actor: "ana",
  checkPermission: false,
  headSha: "sha-1",
  headBranch: "feature",
  prNumber: null,
  checkRunId: null,
  checkName: "CI",
  actionsJobId: null,
  runId: 77,
  onRetraceBranch: false,
  ...over,
});
const autofixOnPull = (over: Partial<FixTrigger> = {}): FixTrigger => ({
  ...failedRun(),
  via: "command",
  word: "/autofix",
  checkPermission: true,
  headSha: null,
  headBranch: null,
  prNumber: 4,
  checkName: null,
  ...over,
  runId: undefined,
});
const pull = (headSha = "sha-1", headRepo = "octo/app") => ({
  title: "PR",
  body: "",
  pull: { headRef: "feature", headSha, baseRef: "main", headRepo },
});

describe("intake with the Action's context", () => {
  it("a reproduction takes the issue's text from the event, the inputs' overrides, and no daily limit", async () => {
    const out = await intake(
      label(),
      config({ limits: { usdPerDay: 0.5 }, repro: { maxUsd: 1 } }),
      github,
      action({ overrides: { model: "claude-x", maxAttempts: 2, maxUsd: 3 } }),
    );
    expect(out).toMatchObject({
      ok: true,
      issueNumber: 3,
      spec: {
        kind: "repro",
        id: "repro-555-1",
        markdown: "# Crash\n\nboom",
        model: "claude-x",
        budget: { maxAttempts: 2, maxUsd: 3 },
      },
    });
    expect(fake.calls("GET", /\/issues\/3$/)).toEqual([]);
  });

  it("the operator's maxima the entry passes lower the repository's budget", async () => {
    const maxima = { ...DEFAULT_HOST_LIMITS, jobUsd: 0.25, jobTokens: 1_000, jobMinutes: 2 };
    const out = await intake(label(), config({ repro: { maxUsd: 1 } }), github, action({ maxima }));
    expect(out).toMatchObject({
      ok: true,
      spec: { budget: { maxUsd: 0.25, maxTokens: 1_000, maxWallMs: 120_000 } },
    });
    // Counter-example: the defaults keep what the repository asks below them.
    const kept = await intake(label(), config({ repro: { maxUsd: 1 } }), github, action());
    expect(kept).toMatchObject({ ok: true, spec: { budget: { maxUsd: 1, maxTokens: 400_000 } } });
  });

  it("the mode turns a kind off, after the config's rules and before any permission is read", async () => {
    expect(await intake(label(), config(), github, action({ mode: "fix" }))).toEqual({
      ok: false,
      reason: "mode is fix: reproductions are off",
      report: false,
      issueNumber: 3,
    });
    expect(await intake(failedRun(), config(), github, action({ mode: "repro" }))).toMatchObject({
      ok: false,
      reason: "mode is repro: fixes are off",
    });
    expect(fake.requests).toEqual([]);
  });

  it("a failed workflow run: its failed jobs' logs, grouped, and their ids; fix.checks matches the workflow", async () => {
    fake.state.runJobs.set(77, [
      { id: 1, name: "build", conclusion: "success" },
      { id: 2, name: "test", conclusion: "failure" },
    ]);
    fake.state.jobLogs.set(2, "FAILED test_add");
    const out = await intake(failedRun(), config({ fix: { checks: ["C*"] } }), github, action());
    expect(out).toMatchObject({
      ok: true,
      headSha: "sha-1",
      lineage: "feature",
      spec: {
        kind: "fix",
        id: "fix-555-1",
        logJobIds: [2],
        log: "##[group]test\nFAILED test_add\n##[endgroup]",
      },
    });
    expect(await intake(failedRun(), config({ fix: { checks: ["lint"] } }), github, action())).toMatchObject({
      ok: false,
      reason: "check CI is not in fix.checks",
    });
  });

  it("logs that cannot be read leave the spec without a log (the pipeline reruns the tests)", async () => {
    fake.state.failures.push({ match: /actions\/runs\/77\/jobs$/, status: 502 });
    const out = await intake(failedRun(), config(), github, action());
    expect(out.ok).toBe(true);
    expect(out.ok && out.spec.kind === "fix" && out.spec.log).toBeUndefined();
  });

  it("follows the lineage of a Retrace branch through its draft PRs", async () => {
    fake.state.branches.set("octo/app:retrace/fix-2", "sha-1");
    // Retrace's draft PRs hold its tracking marker (a person's retrace/ branch would not).
    const body = (id: string) => `Fix.\n\n<!-- retrace:job:${id} -->`;
    fake.state.pulls.push({
      number: 10,
      head: "retrace/fix-1",
      base: "feature",
      html_url: "u10",
      body: body("a"),
    });
    fake.state.pulls.push({
      number: 11,
      head: "retrace/fix-2",
      base: "retrace/fix-1",
      html_url: "u11",
      body: body("b"),
    });
    const onFix = failedRun({ headBranch: "retrace/fix-2", onRetraceBranch: true });
    expect(await intake(onFix, config({ fix: { lineageCap: 2 } }), github, action())).toMatchObject({
      ok: true,
      lineage: "feature",
    });
    expect(await intake(onFix, config(), github, action())).toEqual({
      ok: false,
      report: false,
      issueNumber: null,
      reason: "fix.lineageCap (1) reached for the lineage of feature: a fix never chases its own failures",
    });
  });

  it("a dispatched spec is the job: the failed jobs' logs are downloaded, nothing else is asked", async () => {
    fake.state.jobLogs.set(41, "FAILED x");
    const spec = { kind: "fix" as const, id: "fix-abc", headSha: "s", headBranch: "b", logJobIds: [41] };
    const parsed = JobSpec.parse(spec);
    const out = await intake(
      { type: "dispatch", repo: "octo/app", spec: parsed },
      config(),
      github,
      action(),
    );
    expect(out).toMatchObject({ ok: true, issueNumber: null, spec: { id: "fix-abc", log: "FAILED x" } });
    // The log endpoint redirects to the log's blob, as GitHub's does.
    expect(fake.requests.map((r) => r.path).filter((p) => !p.startsWith("/_blobs/"))).toEqual([
      "/repos/octo/app/actions/jobs/41/logs",
    ]);
  });
});

describe("the cases the surfaces decided differently, now one rule (docs/jobs.md)", () => {
  it("/autofix on a pull request with no failed check is refused, and the refusal is worth a comment", async () => {
    fake.state.issues.set("octo/app#4", pull());
    fake.state.failedChecks.set("sha-1", [{ id: 9, name: "Retrace", appSlug: "retrace" }]);
    expect(await intake(autofixOnPull(), config(), github, action())).toEqual({
      ok: false,
      report: true,
      issueNumber: 4,
      reason: "no check of the pull request's head commit has failed",
    });
  });

  it("/autofix on a pull request whose branch has moved on is moot, as for a failed check", async () => {
    fake.state.issues.set("octo/app#4", pull("sha-old"));
    fake.state.failedChecks.set("sha-old", [{ id: 5, name: "test", appSlug: "github-actions" }]);
    expect(await intake(autofixOnPull(), config(), github, action())).toMatchObject({
      ok: false,
      report: false,
      reason: "a newer commit (sha-1) exists on feature; the failure is moot",
    });
    expect(fake.calls("GET", /\/actions\/jobs\/5\/logs$/)).toEqual([]);
  });

  it("a configured repro word on a pull request reproduces it; a configured autofix word on an issue reproduces, then explains", async () => {
    const words = config({ commands: { repro: "/rep", autofix: "/fixit" } });
    const onPull = resolveCommand(autofixOnPull({ word: "/rep" }), words);
    expect(onPull).toMatchObject({ type: "repro", issueNumber: 4, via: "command", thenFix: false });
    fake.state.issues.set("octo/app#4", { title: "PR", body: "text" });
    expect(await intake(autofixOnPull({ word: "/rep" }), words, github, action())).toMatchObject({
      ok: true,
      spec: { kind: "repro", issueNumber: 4, markdown: "# PR\n\ntext" },
      trigger: { type: "repro" },
    });
    const onIssue = label({ via: "command", word: "/fixit" });
    expect(resolveCommand(onIssue, words)).toMatchObject({ thenFix: true });
    expect(resolveCommand(label({ via: "command", word: "/autofix", thenFix: true }), words)).toMatchObject({
      thenFix: false,
    });
  });
});
