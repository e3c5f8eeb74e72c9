/** The intake (src/app/intake.ts): permission (fail closed), newer commit, fix.checks, lineage cap, budgets, spec. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasPermission, intakeFix, intakeRepro, jobIdFor } from "../../../src/app/intake.ts";
import type { JobRecord } from "../../../src/app/job-record.ts";
import { type JobStore, openSqliteJobStore } from "../../../src/app/job-store.ts";
import type { FixTrigger, ReproTrigger } from "../../../src/app/triggers.ts";
import { RetraceConfig } from "../../../src/config/schema.ts";
import type { GitHubPort, Permission } from "../../../src/github/port.ts";

const REPO = { owner: "octo", repo: "app" };
const NOW = Date.UTC(2025, 10, 21, 12);

/** A GitHubPort from plain functions; any other call fails the test. */
function fakeGitHub(impl: Partial<GitHubPort>): GitHubPort {
  return new Proxy(impl, {
    get(target, key) {
      const f = (target as Record<string | symbol, unknown>)[key];
      if (f) return f;
      return () => {
        throw new Error(`unexpected GitHub call ${String(key)}`);
      };
    },
  }) as GitHubPort;
}

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
beforeEach(async () => {
  store = await openSqliteJobStore(null);
});
afterEach(() => store.close());

describe("hasPermission", () => {
  const gh = (p: Permission | Error) =>
    fakeGitHub({ getPermission: async () => (p instanceof Error ? Promise.reject(p) : p) });
  it("ranks read < triage < write < maintain < admin", async () => {
    expect(await hasPermission(gh("write"), REPO, "ana", "write")).toBe(true);
    expect(await hasPermission(gh("admin"), REPO, "ana", "maintain")).toBe(true);
    expect(await hasPermission(gh("triage"), REPO, "ana", "write")).toBe(false);
    expect(await hasPermission(gh("write"), REPO, "ana", "maintain")).toBe(false);
    expect(await hasPermission(gh("none"), REPO, "ana", "write")).toBe(false);
  });
  it("fails closed when the API errors", async () => {
    expect(await hasPermission(gh(new Error("HTTP 502")), REPO, "ana", "write")).toBe(false);
  });
});

describe("intakeRepro", () => {
  const issue = fakeGitHub({
    getIssue: async () => ({ number: 3, title: "Crash", body: "boom", isPull: false, htmlUrl: "u" }),
    getPermission: async () => "read",
  });
  it("builds the spec from the issue and the config", async () => {
    const config = RetraceConfig.parse({ repro: { runs: 5, maxAttempts: 2 }, limits: { usdPerDay: 1.5 } });
    const out = await intakeRepro(record("repro-1", reproTrigger()), reproTrigger(), config, {
      github: issue,
      repo: REPO,
      store,
      now: NOW,
    });
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
        budget: { maxAttempts: 2, maxUsd: 1.5 },
      },
    });
  });
  it("a command needs the configured permission; a label other than the configured one is ignored", async () => {
    const config = RetraceConfig.parse({});
    const cmd = reproTrigger({ via: "command", word: "/repro", checkPermission: true });
    const refused = await intakeRepro(record("r", cmd), cmd, config, {
      github: issue,
      repo: REPO,
      store,
      now: NOW,
    });
    expect(refused).toEqual({
      ok: false,
      reason: "@ana lacks write permission (or it could not be read)",
      report: false,
      issueNumber: 3,
    });
    const other = reproTrigger({ word: "bug" });
    expect(
      await intakeRepro(record("r2", other), other, config, { github: issue, repo: REPO, store, now: NOW }),
    ).toMatchObject({ ok: false, reason: "label bug is not the configured repro.label (needs-repro)" });
  });
});

describe("intakeFix", () => {
  const head = (sha: string | null, log = "FAILED t") =>
    fakeGitHub({ getBranchHead: async () => sha, getJobLog: async () => log });

  it("builds the spec with the job log, and takes the fix budget from the config", async () => {
    const config = RetraceConfig.parse({ fix: { maxUsd: 0.5, testCommand: "pytest -q" } });
    const t = fixTrigger();
    const out = await intakeFix(record("fix-1", t), t, config, {
      github: head("sha-1"),
      repo: REPO,
      store,
      now: NOW,
    });
    expect(out).toMatchObject({
      ok: true,
      headSha: "sha-1",
      lineage: "feature",
      spec: {
        kind: "fix",
        headSha: "sha-1",
        headBranch: "feature",
        log: "FAILED t",
        testCommand: "pytest -q",
      },
    });
    expect(out.ok && out.spec.budget.maxUsd).toBe(0.5);
  });

  it("skips when a newer commit exists, or the check is not in fix.checks", async () => {
    const t = fixTrigger();
    const moot = await intakeFix(record("f", t), t, RetraceConfig.parse({}), {
      github: head("sha-2"),
      repo: REPO,
      store,
      now: NOW,
    });
    expect(moot).toMatchObject({
      ok: false,
      report: false,
      reason: expect.stringContaining("newer commit (sha-2)"),
    });
    const only = RetraceConfig.parse({ fix: { checks: ["lint*"] } });
    expect(
      await intakeFix(record("g", t), t, only, { github: head("sha-1"), repo: REPO, store, now: NOW }),
    ).toMatchObject({ ok: false, reason: "check test is not in fix.checks" });
  });

  it("caps fixes per lineage: a fix of a fix counts against the branch the chain started from", async () => {
    const config = RetraceConfig.parse({ fix: { lineageCap: 1 } });
    // The first fix (of `feature`) opened its PR on retrace/fix-0.
    store.insert(
      record("fix-0", fixTrigger(), { state: "completed", lineage: "feature", prBranch: "retrace/fix-0" }),
    );
    const onFix = fixTrigger({ headBranch: "retrace/fix-0", onRetraceBranch: true });
    store.insert(record("fix-1", onFix));
    const first = await intakeFix(store.get("fix-1")!, onFix, config, {
      github: head("sha-1"),
      repo: REPO,
      store,
      now: NOW,
    });
    expect(first).toMatchObject({ ok: true, lineage: "feature" });
    store.insert(record("fix-2", onFix));
    const second = await intakeFix(store.get("fix-2")!, onFix, config, {
      github: head("sha-1"),
      repo: REPO,
      store,
      now: NOW,
    });
    expect(second).toEqual({
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
    const out = await intakeFix(record("f", t), t, config, {
      github: head("sha-1"),
      repo: REPO,
      store,
      now: NOW,
    });
    expect(out).toEqual({
      ok: false,
      report: true,
      issueNumber: 4,
      reason: "the daily model budget of this repository (limits.usdPerDay = $1) is spent ($1.25)",
    });
  });

  it("a fork's pull request is refused with a reason", async () => {
    const t = fixTrigger({ via: "command", word: "/autofix", prNumber: 4, headSha: null, headBranch: null });
    const gh = fakeGitHub({
      getPull: async () => ({
        number: 4,
        headRef: "x",
        headSha: "s",
        baseRef: "main",
        headRepoFullName: "evil/app",
      }),
    });
    expect(
      await intakeFix(record("f", t), t, RetraceConfig.parse({}), {
        github: gh,
        repo: REPO,
        store,
        now: NOW,
      }),
    ).toMatchObject({ ok: false, report: true, reason: expect.stringContaining("fork") });
  });
});

describe("jobIdFor", () => {
  it("is stable per delivery and kind", () => {
    expect(jobIdFor("fix", "d1")).toBe(jobIdFor("fix", "d1"));
    expect(jobIdFor("fix", "d1")).toMatch(/^fix-[0-9a-f]{12}$/);
    expect(jobIdFor("repro", "d1")).not.toBe(jobIdFor("repro", "d2"));
  });
});
