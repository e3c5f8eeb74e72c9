/**
 * The one intake (src/jobs/intake.ts) as the App uses it (its job store behind `appIntakeContext`): permission
 * (fail closed), newer commit, fix.checks, lineage cap, budgets, spec.
 * GitHub is the HTTP fake (test/e2e/support/fake-github.ts) behind the real octokit port: every answer is a real
 * REST exchange, and the tests assert the requests made.
 */
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appIntakeContext } from "../../../src/app/intake-context.ts";
import { type JobRecord, jobIdFor } from "../../../src/app/job-record.ts";
import { type JobStore, openSqliteJobStore } from "../../../src/app/job-store.ts";
import { hasPermission, intake } from "../../../src/jobs/intake.ts";
import type { FixTrigger, ReproTrigger } from "../../../src/jobs/triggers.ts";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { DEFAULT_HOST_LIMITS } from "../../../src/core/host-limits.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import type { GitHubPort } from "../../../src/core/ports/github.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";

const { Octokit } = createRequire(import.meta.url)("@octokit/core") as typeof import("@octokit/core");
const REPO = { owner: "octo", repo: "app" };
const NOW = Date.UTC(2025, 10, 21, 12);

const fixTrigger = (over: Partial<FixTrigger> = {}): FixTrigger => ({
  type: "fix",
  repo: "octo/app",
  installationId: 1,
  defaultBranch: "main",
  via: "check_run",
  word: "test",
  actor: "ana",
  checkPermission: false,
  headSha: "sha-1",
  headBranch: "feature",
  prNumber: null,
  checkRunId: 5,
  checkName: "test",
  actionsJobId: 5,
  onRetraceBranch: false,
  ...over,
});

const reproTrigger = (over: Partial<ReproTrigger> = {}): ReproTrigger => ({
  type: "repro",
  repo: "octo/app",
  installationId: 1,
  defaultBranch: "main",
  issueNumber: 3,
  via: "label",
  word: "needs-repro",
  actor: "ana",
  checkPermission: false,
  thenFix: false,
  ...over,
});

function record(id: string, trigger: FixTrigger | ReproTrigger, over: Partial<JobRecord> = {}): JobRecord {
  return {
    id,
    deliveryId: `d-${id}`,
    repo: "octo/app",
    installationId: 1,
    kind: trigger.type,
    state: "received",
    trigger,
    spec: null,
    issueNumber: null,
    commentId: null,
    commentUrl: null,
    checkRunId: null,
    lineage: null,
    prBranch: null,
    prUrl: null,
    reason: null,
    result: null,
    costUsd: 0,
    resumes: 0,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

let store: JobStore;
let fake: FakeGitHub;
let github: GitHubPort;
beforeEach(async () => {
  store = await openSqliteJobStore(null);
  fake = await startFakeGitHub();
  github = createGitHubPort(
    new Octokit({ auth: "t", baseUrl: fake.url, request: { retries: 0 } }) as unknown as OctokitLike,
  );
  fake.state.issues.set("octo/app#3", { title: "Crash", body: "boom" });
  fake.state.branches.set("octo/app:feature", "sha-1");
  fake.state.jobLogs.set(5, "FAILED t");
});
afterEach(async () => {
  store.close();
  await fake.close();
});

const ctx = (job: JobRecord) => appIntakeContext(store, job, NOW, DEFAULT_HOST_LIMITS);

describe("hasPermission", () => {
  it("ranks read < triage < write < maintain < admin", async () => {
    const cases: Array<[string, "write" | "maintain", boolean]> = [
      ["write", "write", true],
      ["admin", "maintain", true],
      ["triage", "write", false],
      ["write", "maintain", false],
      ["read", "write", false],
    ];
    for (const [role, min, want] of cases) {
      fake.state.permissions.set("octo/app:ana", role);
      expect(await hasPermission(github, REPO, "ana", min)).toBe(want);
    }
  });
  it("fails closed when the API errors or the user is no collaborator", async () => {
    expect(await hasPermission(github, REPO, "stranger", "write")).toBe(false);
    fake.state.permissions.set("octo/app:ana", "admin");
    fake.state.failures.push({ match: /permission$/, status: 502 });
    expect(await hasPermission(github, REPO, "ana", "write")).toBe(false);
  });
});

describe("intake: reproductions (App)", () => {
  it("builds the spec from the issue and the config, with the repro budget", async () => {
    fake.state.permissions.set("octo/app:ana", "write");
    const config = RetraceConfig.parse({
      repro: { runs: 5, maxAttempts: 2, maxTokens: 1000, maxWallMs: 60_000 },
      limits: { usdPerDay: 1.5 },
    });
    const out = await intake(reproTrigger(), config, github, ctx(record("repro-1", reproTrigger())));
    expect(out).toMatchObject({
      ok: true,
      issueNumber: 3,
      spec: {
        kind: "repro",
        id: "repro-1",
        repo: { fullName: "octo/app", defaultBranch: "main" },
        issueNumber: 3,
        markdown: "# Crash\n\nboom",
        runs: 5,
        budget: { maxAttempts: 2, maxUsd: 1.5, maxTokens: 1000, maxWallMs: 60_000 },
      },
    });
  });
  it("the spec carries the package the repository publishes, read from its root manifest through the API", async () => {
    const config = RetraceConfig.parse({});
    const specOf = async () => {
      const out = await intake(reproTrigger(), config, github, ctx(record("r", reproTrigger())));
      return out.ok && out.spec.kind === "repro" ? out.spec : null;
    };
    // No manifest at all: the repository's name.
    expect((await specOf())?.package).toBe("app");
    expect(fake.calls("GET", /\/contents\//).map((r) => r.path)).toEqual([
      "/repos/octo/app/contents/package.json",
      "/repos/octo/app/contents/pyproject.toml",
      "/repos/octo/app/contents/setup.cfg",
      "/repos/octo/app/contents/setup.py",
    ]);
    fake.state.files.set(
      "octo/app@:pyproject.toml",
      '[build-system]\nrequires = ["x"]\n\n[tool.poetry]\nname = "tomlkit"\n',
    );
    expect((await specOf())?.package).toBe("tomlkit");
    fake.state.files.set("octo/app@:package.json", JSON.stringify({ name: "filesize", version: "11.0.0" }));
    expect((await specOf())?.package).toBe("filesize");
    // A name that is not an npm/PyPI name is never passed on; the next manifest is read.
    fake.state.files.set("octo/app@:package.json", JSON.stringify({ name: "../evil" }));
    expect((await specOf())?.package).toBe("tomlkit");
  });
  it("a manifest the API fails to serve is skipped, never a reason for the job to fail", async () => {
    fake.state.failures.push({ match: /contents\/package\.json$/, status: 502 });
    fake.state.files.set("octo/app@:setup.cfg", "[metadata]\nname = isodate\nversion = 0.7.2\n");
    const out = await intake(
      reproTrigger(),
      RetraceConfig.parse({}),
      github,
      ctx(record("r", reproTrigger())),
    );
    expect(out.ok && out.spec.kind === "repro" && out.spec.package).toBe("isodate");
  });
  it("repro.maxUsd caps a reproduction below the day's remaining dollars", async () => {
    fake.state.permissions.set("octo/app:ana", "write");
    const config = RetraceConfig.parse({ repro: { maxUsd: 0.25 } });
    const out = await intake(reproTrigger(), config, github, ctx(record("r", reproTrigger())));
    expect(out.ok && out.spec.budget.maxUsd).toBe(0.25);
  });
  it("a command needs the configured permission; a label other than the configured one is ignored", async () => {
    const config = RetraceConfig.parse({});
    const cmd = reproTrigger({ via: "command", word: "/repro", checkPermission: true });
    fake.state.permissions.set("octo/app:ana", "read");
    expect(await intake(cmd, config, github, ctx(record("r", cmd)))).toEqual({
      ok: false,
      reason: "@ana lacks write permission (or it could not be read)",
      report: false,
      issueNumber: 3,
    });
    const other = reproTrigger({ word: "bug" });
    expect(await intake(other, config, github, ctx(record("r2", other)))).toMatchObject({
      ok: false,
      reason: "label bug is not the configured repro.label (needs-repro)",
    });
    expect(fake.calls("GET", /\/issues\/3$/)).toEqual([]);
  });
  it("a label set by a triage-only user starts nothing (the labeller's permission is read)", async () => {
    fake.state.permissions.set("octo/app:tri", "triage");
    const t = reproTrigger({ actor: "tri", checkPermission: true });
    expect(await intake(t, RetraceConfig.parse({}), github, ctx(record("r", t)))).toEqual({
      ok: false,
      reason: "@tri lacks write permission (or it could not be read)",
      report: false,
      issueNumber: 3,
    });
    expect(fake.calls("GET", /collaborators\/tri\/permission$/)).toHaveLength(1);
    expect(fake.calls("GET", /\/issues\/3$/)).toEqual([]);
  });
  it("repro.enabled false starts nothing", async () => {
    const config = RetraceConfig.parse({ repro: { enabled: false } });
    expect(await intake(reproTrigger(), config, github, ctx(record("r", reproTrigger())))).toMatchObject({
      ok: false,
      reason: "repro.enabled is false in .github/retrace.yml",
    });
    expect(fake.requests).toEqual([]);
  });
});

describe("intake: fixes (App)", () => {
  it("builds the spec with the job log (and its job id), and takes the fix budget from the config", async () => {
    const config = RetraceConfig.parse({ fix: { maxUsd: 0.5, testCommand: "pytest -q" } });
    const t = fixTrigger();
    const out = await intake(t, config, github, ctx(record("fix-1", t)));
    expect(out).toMatchObject({
      ok: true,
      headSha: "sha-1",
      lineage: "feature",
      spec: {
        kind: "fix",
        headSha: "sha-1",
        headBranch: "feature",
        log: "FAILED t",
        logJobIds: [5],
        testCommand: "pytest -q",
      },
    });
    expect(out.ok && out.spec.budget.maxUsd).toBe(0.5);
    expect(fake.calls("GET", /\/actions\/jobs\/5\/logs$/)).toHaveLength(1);
  });

  it("skips when a newer commit exists, or the check is not in fix.checks", async () => {
    const t = fixTrigger();
    fake.state.branches.set("octo/app:feature", "sha-2");
    expect(await intake(t, RetraceConfig.parse({}), github, ctx(record("f", t)))).toMatchObject({
      ok: false,
      report: false,
      reason: expect.stringContaining("newer commit (sha-2)"),
    });
    const only = RetraceConfig.parse({ fix: { checks: ["lint*"] } });
    expect(await intake(t, only, github, ctx(record("g", t)))).toMatchObject({
      ok: false,
      reason: "check test is not in fix.checks",
    });
  });

  it("caps fixes per lineage: a fix of a fix counts against the branch the chain started from", async () => {
    const config = RetraceConfig.parse({ fix: { lineageCap: 1 } });
    fake.state.branches.set("octo/app:retrace/fix-0", "sha-1");
    // The first fix (of `feature`) opened its PR on retrace/fix-0.
    store.insert(
      record("fix-0", fixTrigger(), { state: "completed", lineage: "feature", prBranch: "retrace/fix-0" }),
    );
    const onFix = fixTrigger({ headBranch: "retrace/fix-0", onRetraceBranch: true });
    store.insert(record("fix-1", onFix));
    expect(await intake(onFix, config, github, ctx(store.get("fix-1")!))).toMatchObject({
      ok: true,
      lineage: "feature",
    });
    store.insert(record("fix-2", onFix));
    expect(await intake(onFix, config, github, ctx(store.get("fix-2")!))).toEqual({
      ok: false,
      report: false,
      issueNumber: null,
      reason: "fix.lineageCap (1) reached for the lineage of feature: a fix never chases its own failures",
    });
  });

  it("refuses when the daily dollars are spent, and says so on the comment", async () => {
    const config = RetraceConfig.parse({ limits: { usdPerDay: 1 } });
    store.insert(record("old", fixTrigger(), { state: "completed", costUsd: 1.25 }));
    const t = fixTrigger({ prNumber: 4 });
    expect(await intake(t, config, github, ctx(record("f", t)))).toEqual({
      ok: false,
      report: true,
      issueNumber: 4,
      reason: "the daily model budget of this repository (limits.usdPerDay = $1) is spent ($1.25)",
    });
  });

  it("a fork's pull request is refused with a reason, before its checks are read", async () => {
    fake.state.permissions.set("octo/app:ana", "admin");
    fake.state.issues.set("octo/app#4", {
      title: "PR",
      body: "",
      pull: { headRef: "main", headSha: "s", baseRef: "main", headRepo: "evil/app" },
    });
    const t = fixTrigger({
      via: "command",
      word: "/autofix",
      checkPermission: true,
      prNumber: 4,
      headSha: null,
      headBranch: null,
    });
    expect(await intake(t, RetraceConfig.parse({}), github, ctx(record("f", t)))).toEqual({
      ok: false,
      report: true,
      issueNumber: 4,
      reason: "the failure is on a fork (evil/app); Retrace only fixes branches of this repository",
    });
    expect(fake.calls("GET", /check-runs$/)).toEqual([]);
  });

  it("/autofix on a pull request carries every failed Actions job's id and log", async () => {
    fake.state.permissions.set("octo/app:ana", "write");
    fake.state.issues.set("octo/app#4", {
      title: "PR",
      body: "",
      pull: { headRef: "feature", headSha: "sha-1", baseRef: "main", headRepo: "octo/app" },
    });
    fake.state.failedChecks.set("sha-1", [
      { id: 5, name: "test", appSlug: "github-actions" },
      { id: 6, name: "lint", appSlug: "github-actions" },
      { id: 7, name: "ci/circle", appSlug: "circleci" },
    ]);
    fake.state.jobLogs.set(6, "lint failed");
    const t = fixTrigger({
      via: "command",
      word: "/autofix",
      checkPermission: true,
      prNumber: 4,
      headSha: null,
      headBranch: null,
      actionsJobId: null,
    });
    const out = await intake(t, RetraceConfig.parse({}), github, ctx(record("f", t)));
    expect(out).toMatchObject({ ok: true, spec: { logJobIds: [5, 6], log: "FAILED t\nlint failed" } });
  });

  it("fix.enabled false starts nothing", async () => {
    const t = fixTrigger();
    expect(
      await intake(t, RetraceConfig.parse({ fix: { enabled: false } }), github, ctx(record("f", t))),
    ).toMatchObject({ ok: false, reason: "fix.enabled is false in .github/retrace.yml" });
    expect(fake.requests).toEqual([]);
  });
});

describe("jobIdFor", () => {
  it("is stable per delivery and kind", () => {
    expect(jobIdFor("fix", "d1")).toBe(jobIdFor("fix", "d1"));
    expect(jobIdFor("fix", "d1")).toMatch(/^fix-[0-9a-f]{12}$/);
    expect(jobIdFor("repro", "d1")).not.toBe(jobIdFor("repro", "d2"));
  });
});
