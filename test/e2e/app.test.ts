/**
 * The App end to end over HTTP: the real Probot server on a loopback port, signed webhooks with payloads
 * from @octokit/webhooks-examples, GitHub's REST API faked at the HTTP layer (test/e2e/support/fake-github.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch } from "diff";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppServer } from "../../src/app/server.ts";
import type { JobSpec } from "../../src/core/job.ts";
import type { JobResult, JobRunner } from "../../src/jobs/result.ts";
import { type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";
import { example, newDbPath, postWebhook, runnerFixResult, startApp } from "./support/app-harness.ts";
import { tarGz } from "./support/tarball.ts";
import { zip } from "./support/zip.ts";

const REPO = "Codertocat/Hello-World";
const SHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";
const BUGGY = "def add(a, b):\n    return a - b\n";
const FIXED = "def add(a, b):\n    return a + b\n";
const PATCH = createTwoFilesPatch("a/src/calc.py", "b/src/calc.py", BUGGY, FIXED);

/** A real, small runner: reproduces when the report shows a traceback, fixes calc.py with a fixed patch. */
/** What a fix runner found in its checkout: the file it would fix, and the checkout's one commit. */
const checkouts: Array<{ dir: string; calc: string; head: string }> = [];

function makeRunner(calls: JobSpec[], patch = PATCH): JobRunner {
  return async (spec, options) => {
    calls.push(spec);
    if (spec.kind === "fix" && options.repoDir) {
      const dir = options.repoDir;
      checkouts.push({
        dir,
        calc: readFileSync(join(dir, "src/calc.py"), "utf8"),
        head: execFileSync("git", ["log", "--format=%s", "-1"], { cwd: dir, encoding: "utf8" }).trim(),
      });
    }
    const base = {
      jobId: spec.id,
      failures: [],
      costUsd: 0.0123,
      tokens: 1500,
      attempts: 1,
      durationMs: 2100,
    };
    if (spec.kind === "repro") {
      const reproduced = spec.markdown.includes("Traceback");
      return {
        ...base,
        kind: "repro",
        outcome: reproduced ? "succeeded" : "needs_info",
        verdict: reproduced ? "REPRODUCED" : "NEEDS_INFO",
        summary: reproduced
          ? "The KeyError appears on 3 of 3 runs.\n\n```python\nrun()\n```"
          : "No runnable code.",
        patch: null,
      } satisfies JobResult;
    }
    return {
      ...base,
      kind: "fix",
      outcome: "succeeded",
      verdict: "FIXED",
      summary: "`test_add` failed before and passes now on 2 of 2 runs; no other test changed.",
      patch,
      prTitle: "Fix add() returning the difference",
      prBody:
        "`add` subtracted; it now adds.\n\n| test | before | after |\n|---|---|---|\n| test_add | failed | passed |",
    } satisfies JobResult;
  };
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

let github: FakeGitHub;
let app: AppServer | null = null;

/** GitHub's tarball of the tiny repository at a commit: what the local executor checks out for a fix. */
function calcTarball(sha: string): Promise<Uint8Array> {
  const top = `Codertocat-Hello-World-${sha.slice(0, 7)}`;
  return tarGz([
    { name: `${top}/`, type: "directory" },
    { name: `${top}/src/`, type: "directory" },
    { name: `${top}/src/calc.py`, content: BUGGY },
  ]);
}

async function seedRepo(): Promise<void> {
  github.state.issues.set(`${REPO}#1`, {
    title: "KeyError on load",
    body: "Traceback (most recent call last):\nKeyError: 'path'",
  });
  github.state.branches.set(`${REPO}:changes`, SHA);
  github.state.files.set(`${REPO}@${SHA}:src/calc.py`, BUGGY);
  github.state.permissions.set(`${REPO}:Codertocat`, "admin");
  github.state.jobLogs.set(128620228, "FAILED tests/test_calc.py::test_add - assert -1 == 3\n");
  github.state.tarballs.set(`${REPO}@${SHA}`, await calcTarball(SHA));
}

beforeEach(async () => {
  checkouts.length = 0;
  github = await startFakeGitHub();
  await seedRepo();
});

afterEach(async () => {
  await app?.close();
  app = null;
  await github.close();
});

function noMergeOrForcePush(): void {
  expect(github.requests.filter((r) => /\/merge$/.test(r.path))).toEqual([]);
  expect(github.calls("PATCH", /\/git\/refs\//)).toEqual([]);
  expect(github.unexpected).toEqual([]);
}

describe("issues.labeled → reproduction", () => {
  it("creates one tracking comment, edits it in place, and posts the verdict", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    const res = await postWebhook(app, "issues", payload);
    expect(res.status).toBe(200);
    await app.service.idle();

    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      kind: "repro",
      issueNumber: 1,
      markdown: "# KeyError on load\n\nTraceback (most recent call last):\nKeyError: 'path'",
    });
    expect(github.calls("POST", /\/issues\/1\/comments$/)).toHaveLength(1);
    const edits = github.calls("PATCH", /\/issues\/comments\/\d+$/);
    expect(edits.length).toBeGreaterThanOrEqual(2);
    const comment = github.state.comments[0]!;
    const jobId = calls[0]!.id;
    expect(comment.body).toBe(
      [
        `<!-- retrace:job:${jobId} -->`,
        "### Retrace reproduction: ✅ REPRODUCED",
        "",
        "| job | trigger |",
        "|---|---|",
        `| \`${jobId}\` | label \`needs-repro\` added by @Codertocat |`,
        "",
        "The KeyError appears on 3 of 3 runs.\n\n```python\nrun()\n```",
        "",
        "<sub>outcome `succeeded` · 1 attempt(s) · 1500 tokens · $0.0123 · 2.1 s</sub>",
      ].join("\n"),
    );
    expect(app.store.get(jobId)?.state).toBe("completed");
    noMergeOrForcePush();
  });

  it("ignores other labels and labels set by bots", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    const other = example("issues", "labeled"); // label "bug"
    expect((await postWebhook(app, "issues", other)).status).toBe(200);
    const byBot = example("issues", "labeled");
    byBot.label.name = "needs-repro";
    byBot.sender = { login: "dependabot[bot]", type: "Bot" };
    expect((await postWebhook(app, "issues", byBot)).status).toBe(200);
    await app.service.idle();
    expect(calls).toEqual([]);
    expect(github.calls("POST", /comments$/)).toEqual([]);
  });

  it("a label set by a triage-only user starts nothing (the labeller's permission is read)", async () => {
    const calls: JobSpec[] = [];
    github.state.permissions.set(`${REPO}:Codertocat`, "triage");
    app = await startApp(github, makeRunner(calls));
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    expect((await postWebhook(app, "issues", payload)).status).toBe(200);
    await app.service.idle();
    expect(calls).toEqual([]);
    expect(github.calls("GET", /collaborators\/Codertocat\/permission$/)).toHaveLength(1);
    expect(github.calls("POST", /comments$/)).toEqual([]);
  });
});

describe("check_run.completed failure → fix", () => {
  it("opens a draft PR on a retrace/ branch based on the failing branch, with a Retrace check run", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    const payload = example("check_run", "completed");
    expect((await postWebhook(app, "check_run", payload)).status).toBe(200);
    await app.service.idle();

    expect(calls).toHaveLength(1);
    const spec = calls[0]!;
    expect(spec).toMatchObject({ kind: "fix", headSha: SHA, headBranch: "changes" });
    expect(spec.kind === "fix" && spec.log).toBe("FAILED tests/test_calc.py::test_add - assert -1 == 3\n");
    // The runner got a checkout of the failing commit (from the tarball), removed after the job.
    expect(checkouts).toEqual([{ dir: expect.any(String), calc: BUGGY, head: `${REPO}@${SHA}` }]);
    expect(existsSync(checkouts[0]!.dir)).toBe(false);

    const tree = github.calls("POST", /\/git\/trees$/)[0]!.body as Record<string, unknown>;
    expect(tree).toEqual({
      base_tree: `tree-of-${SHA}`,
      tree: [{ path: "src/calc.py", mode: "100644", type: "blob", content: FIXED }],
    });
    const commit = github.calls("POST", /\/git\/commits$/)[0]!.body as Record<string, unknown>;
    expect(commit.parents).toEqual([SHA]);
    const ref = github.calls("POST", /\/git\/refs$/)[0]!.body as Record<string, string>;
    expect(ref.ref).toBe(`refs/heads/retrace/${spec.id}`);
    const pulls = github.calls("POST", /\/pulls$/);
    expect(pulls).toHaveLength(1);
    const pr = pulls[0]!.body as Record<string, unknown>;
    expect(pr).toMatchObject({
      draft: true,
      base: "changes",
      head: `retrace/${spec.id}`,
      title: "Fix add() returning the difference",
    });
    expect(String(pr.body)).toContain("| test_add | failed | passed |");

    const check = github.state.checkRuns[0]!;
    expect(check.body).toMatchObject({
      name: "Retrace",
      head_sha: SHA,
      status: "completed",
      conclusion: "success",
    });
    // The failing check is on a PR: the tracking comment goes there and links the draft PR.
    const comment = github.state.comments.find((c) => c.issue === 2)!;
    expect(comment.body).toContain(`**Draft pull request:** https://github.test/${REPO}/pull/`);
    expect(app.store.get(spec.id)).toMatchObject({ state: "completed", prBranch: `retrace/${spec.id}` });
    noMergeOrForcePush();
  });

  it("skips the job when a newer commit exists on the branch", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    github.state.branches.set(`${REPO}:changes`, "ffffffffffffffffffffffffffffffffffffffff");
    expect((await postWebhook(app, "check_run", example("check_run", "completed"))).status).toBe(200);
    await app.service.idle();
    expect(calls).toEqual([]);
    expect(github.calls("POST", /comments$|check-runs$|pulls$/)).toEqual([]);
    const [job] = app.store.all();
    expect(job).toMatchObject({ state: "skipped" });
    expect(job!.reason).toMatch(/newer commit \(fffffff\) exists on changes/);
  });

  it("refuses a patch the policy gate rejects: no PR, the reasons on the comment", async () => {
    const calls: JobSpec[] = [];
    const evil = createTwoFilesPatch(
      "a/.github/workflows/ci.yml",
      "b/.github/workflows/ci.yml",
      "on: push\n",
      "on: [push]\n",
    );
    github.state.files.set(`${REPO}@${SHA}:.github/workflows/ci.yml`, "on: push\n");
    app = await startApp(github, makeRunner(calls, evil));
    expect((await postWebhook(app, "check_run", example("check_run", "completed"))).status).toBe(200);
    await app.service.idle();
    expect(calls).toHaveLength(1);
    expect(github.calls("POST", /pulls$|git\/refs$/)).toEqual([]);
    const comment = github.state.comments.find((c) => c.issue === 2)!;
    expect(comment.body).toMatch(
      /The policy gate refused the patch, so no pull request was opened: .*\.github\/workflows\/ci\.yml/,
    );
  });

  it("caps fixes of Retrace's own branches per lineage", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    await postWebhook(app, "check_run", example("check_run", "completed"));
    await app.service.idle();
    const first = calls[0]!;
    const branch = `retrace/${first.id}`;
    const sha = github.state.branches.get(`${REPO}:${branch}`)!;
    github.state.files.set(`${REPO}@${sha}:src/calc.py`, BUGGY);
    github.state.tarballs.set(`${REPO}@${sha}`, await calcTarball(sha));
    let run = 0;
    const onFix = () => {
      const p = example("check_run", "completed");
      // Two failed runs are two events: GitHub gives each its own id (one body posted twice is one event).
      p.check_run.id += ++run;
      p.check_run.head_sha = sha;
      p.check_run.check_suite.head_branch = branch;
      p.check_run.pull_requests = [];
      return p;
    };
    await postWebhook(app, "check_run", onFix()); // 1st fix of the lineage: allowed (cap 1)
    await app.service.idle();
    await postWebhook(app, "check_run", onFix()); // 2nd: capped
    await app.service.idle();
    expect(calls).toHaveLength(2);
    const skipped = app.store.all().filter((j) => j.state === "skipped");
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(/fix.lineageCap \(1\) reached for the lineage of changes/);
  });
});

describe("slash commands", () => {
  function autofixComment(login: string, type = "User") {
    const p = example("issue_comment", "created");
    p.issue.pull_request = { url: "x" };
    p.issue.number = 2;
    p.comment.body = "/autofix please";
    p.comment.user = { login, type };
    p.sender = { login, type };
    return p;
  }

  beforeEach(() => {
    github.state.issues.set(`${REPO}#2`, {
      title: "Changes",
      body: "",
      pull: { headRef: "changes", headSha: SHA, baseRef: "master", headRepo: REPO },
    });
    github.state.failedChecks.set(SHA, [
      { id: 128620228, name: "Octocoders-linter", appSlug: "github-actions" },
    ]);
  });

  it("/autofix by an admin on a PR runs a fix for its failing checks", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    await postWebhook(app, "issue_comment", autofixComment("Codertocat"));
    await app.service.idle();
    expect(github.calls("GET", /collaborators\/Codertocat\/permission$/)).toHaveLength(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ kind: "fix", headBranch: "changes", headSha: SHA });
    expect(github.calls("POST", /pulls$/)[0]!.body).toMatchObject({ draft: true, base: "changes" });
  });

  it("/autofix by a non-collaborator, a read-only user, a bot, or Retrace itself starts nothing", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    github.state.permissions.set(`${REPO}:reader`, "read");
    await postWebhook(app, "issue_comment", autofixComment("stranger"));
    await postWebhook(app, "issue_comment", autofixComment("reader"));
    await postWebhook(app, "issue_comment", autofixComment("renovate[bot]", "Bot"));
    const own = autofixComment("retrace-test[bot]", "Bot");
    own.comment.performed_via_github_app = { id: 4242 };
    await postWebhook(app, "issue_comment", own);
    await app.service.idle();
    expect(calls).toEqual([]);
    expect(github.calls("POST", /comments$|check-runs$|pulls$/)).toEqual([]);
    // Only the two humans were looked up; the bots were refused before any API call.
    expect(github.calls("GET", /permission$/).map((r) => r.path)).toEqual([
      `/repos/${REPO}/collaborators/stranger/permission`,
      `/repos/${REPO}/collaborators/reader/permission`,
    ]);
  });

  it("a permission API error means no", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    github.state.failures.push({ match: /permission$/, status: 500 });
    await postWebhook(app, "issue_comment", autofixComment("Codertocat"));
    await app.service.idle();
    expect(calls).toEqual([]);
  });
});

describe("webhook input", () => {
  it("rejects bad signatures, missing headers, wrong content type and malformed JSON; nothing is queued", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    const wrong = await postWebhook(app, "issues", payload, { secret: "not-the-secret" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("signature does not match");
    const missingSig = await postWebhook(app, "issues", payload, {
      headers: { "x-hub-signature-256": null },
    });
    expect(missingSig.status).toBe(400);
    expect(await missingSig.text()).toContain("x-hub-signature-256");
    const missingEvent = await postWebhook(app, "issues", payload, { headers: { "x-github-event": null } });
    expect(missingEvent.status).toBe(400);
    const form = await postWebhook(app, "issues", payload, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const malformed = await postWebhook(app, "issues", null, { rawBody: '{"action": "labeled", ' });
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain("Invalid JSON");
    await app.service.idle();
    expect(app.store.all()).toEqual([]);
    expect(calls).toEqual([]);
    expect(github.requests).toEqual([]);
  });

  it("processes a duplicate delivery once", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls));
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    const delivery = "72d3162e-cc78-11e3-81ab-4c9367dc0958";
    expect((await postWebhook(app, "issues", payload, { delivery })).status).toBe(200);
    expect((await postWebhook(app, "issues", payload, { delivery })).status).toBe(200);
    await app.service.idle();
    expect(calls).toHaveLength(1);
    expect(app.store.all()).toHaveLength(1);
  });

  it("answers health checks", async () => {
    app = await startApp(github, makeRunner([]));
    const res = await fetch(`${app.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", executor: "local", unfinishedJobs: 0 });
  });
});

describe("repository config and limits", () => {
  it("reports an invalid .github/retrace.yml on the job's comment, naming the field", async () => {
    const calls: JobSpec[] = [];
    github.state.files.set(`${REPO}@:.github/retrace.yml`, "repro:\n  runs: 50\nlimits:\n  jobsPerDya: 3\n");
    app = await startApp(github, makeRunner(calls));
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    await postWebhook(app, "issues", payload);
    await app.service.idle();
    expect(calls).toEqual([]);
    const body = github.state.comments[0]!.body;
    expect(body).toContain("### Retrace reproduction: ❌ failed");
    expect(body).toMatch(/- repro\.runs: .*10/);
    expect(body).toMatch(/- limits: .*jobsPerDya/);
  });

  it("uses the configured label and enforces jobs per day", async () => {
    const calls: JobSpec[] = [];
    github.state.files.set(
      `${REPO}@:.github/retrace.yml`,
      "repro:\n  label: repro-me\nlimits:\n  jobsPerDay: 1\n",
    );
    app = await startApp(github, makeRunner(calls));
    for (let i = 0; i < 2; i++) {
      const payload = example("issues", "labeled");
      payload.label.name = "repro-me";
      // Two labelings are two events (the issue's update time differs); one body posted twice is one event.
      payload.issue.updated_at = `2026-01-0${i + 1}T00:00:00Z`;
      await postWebhook(app, "issues", payload);
      await app.service.idle();
    }
    expect(calls).toHaveLength(1);
    const refused = github.state.comments.find((c) => c.body.includes("Not started"))!;
    expect(refused.body).toContain(
      "the daily job limit of this repository (limits.jobsPerDay = 1) is reached",
    );
  });
});

describe("per-repository concurrency", () => {
  it("runs at most limits.concurrentJobs jobs of a repository at once; the others wait their turn", async () => {
    github.state.files.set(`${REPO}@:.github/retrace.yml`, "limits:\n  concurrentJobs: 1\n");
    for (const n of [1, 3, 4]) github.state.issues.set(`${REPO}#${n}`, { title: `t${n}`, body: "Traceback" });
    let inFlight = 0;
    let peak = 0;
    const order: number[] = [];
    const calls: JobSpec[] = [];
    const inner = makeRunner(calls);
    const slow: JobRunner = async (spec, options) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      if (spec.kind === "repro") order.push(spec.issueNumber ?? 0);
      await new Promise((ok) => setTimeout(ok, 150));
      inFlight--;
      return inner(spec, options);
    };
    app = await startApp(github, slow, { env: { RETRACE_CONCURRENCY: "3" } });
    for (const n of [1, 3, 4]) {
      const payload = example("issues", "labeled");
      payload.label.name = "needs-repro";
      payload.issue.number = n;
      await postWebhook(app, "issues", payload);
    }
    await waitUntil(() => app!.store.all().filter((j) => j.state === "completed").length === 3);
    expect(peak).toBe(1);
    expect(order).toEqual([1, 3, 4]);
  });
});

describe("durability", () => {
  it("resumes a job interrupted by a restart, on the same comment, and reports one interrupted too often", async () => {
    const dbPath = newDbPath();
    const hanging: JobRunner = (_spec, { signal }) =>
      new Promise((_ok, fail) => signal.addEventListener("abort", () => fail(new Error("aborted"))));
    app = await startApp(github, hanging, { dbPath });
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    await postWebhook(app, "issues", payload);
    await github.waitFor("PATCH", /issues\/comments\/\d+$/); // running
    const [job] = app.store.all();
    expect(job!.state).toBe("running");
    await app.close();

    // Restart: the job runs again and finishes on the same comment.
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls), { dbPath });
    await app.service.idle();
    expect(calls.map((c) => c.id)).toEqual([job!.id]);
    expect(github.state.comments).toHaveLength(1);
    expect(github.state.comments[0]!.body).toContain("✅ REPRODUCED");
    await app.close();

    // A job interrupted more often than it may resume is reported failed on its comment.
    const payload2 = example("issues", "labeled");
    payload2.label.name = "needs-repro";
    payload2.issue.number = 3;
    github.state.issues.set(`${REPO}#3`, { title: "t", body: "b" });
    for (let i = 0; i < 2; i++) {
      app = await startApp(github, hanging, { dbPath });
      if (i === 0) await postWebhook(app, "issues", payload2);
      const store = app.store;
      await waitUntil(() =>
        store.all().some((j) => j.issueNumber === 3 && j.state === "running" && j.resumes === i),
      );
      await app.close();
    }
    app = await startApp(github, makeRunner(calls), { dbPath });
    await app.service.idle();
    const c3 = github.state.comments.find((c) => c.issue === 3)!;
    expect(c3.body).toContain("### Retrace reproduction: ❌ failed");
    expect(c3.body).toContain("Retrace restarted while this job was running");
    expect(calls).toHaveLength(1);
  });
});

describe("actions executor", () => {
  it("dispatches the workflow, then validates the artifact, gates the patch again and opens the draft PR", async () => {
    const calls: JobSpec[] = [];
    app = await startApp(github, makeRunner(calls), { env: { RETRACE_EXECUTOR: "actions" } });
    await postWebhook(app, "check_run", example("check_run", "completed"));
    await app.service.idle();
    expect(calls).toEqual([]); // nothing ran in the App
    const [dispatch] = github.state.dispatches;
    expect(dispatch).toMatchObject({ workflow: "retrace.yml", ref: "master" });
    const spec = JSON.parse(dispatch!.inputs["job-spec"]!) as JobSpec;
    expect(spec).toMatchObject({ kind: "fix", headBranch: "changes", headSha: SHA });
    expect("log" in spec).toBe(false);

    const result = runnerFixResult(spec.id, PATCH, { prBody: "body" });
    github.state.artifacts.set(9001, [
      {
        id: 5,
        name: `retrace-result-${spec.id}`,
        zip: zip({ "result.json": JSON.stringify(result), "patch.diff": PATCH }),
      },
      { id: 6, name: "retrace-result-someone-elses-job", zip: zip({ "result.json": "{}" }) },
    ]);
    const run = example("workflow_run", "completed");
    run.workflow_run.id = 9001;
    run.workflow_run.event = "workflow_dispatch";
    // The dispatched workflow's run, on the branch it was dispatched on (the example predates the `path` field).
    run.workflow_run.path = ".github/workflows/retrace.yml";
    run.workflow_run.head_branch = github.state.dispatches[0]!.ref;
    await postWebhook(app, "workflow_run", run);
    await app.service.idle();
    expect(github.calls("POST", /pulls$/)[0]!.body).toMatchObject({
      draft: true,
      base: "changes",
      head: `retrace/${spec.id}`,
    });
    expect(app.store.get(spec.id)).toMatchObject({ state: "completed", costUsd: 0.5 });
    noMergeOrForcePush();
  });

  it("rejects an artifact whose result fails the schema", async () => {
    app = await startApp(github, makeRunner([]), { env: { RETRACE_EXECUTOR: "actions" } });
    await postWebhook(app, "check_run", example("check_run", "completed"));
    await app.service.idle();
    const spec = JSON.parse(github.state.dispatches[0]!.inputs["job-spec"]!) as JobSpec;
    github.state.artifacts.set(9002, [
      {
        id: 7,
        name: `retrace-result-${spec.id}`,
        zip: zip({ "result.json": JSON.stringify({ jobId: spec.id, kind: "fix", outcome: "merged" }) }),
      },
    ]);
    const run = example("workflow_run", "completed");
    run.workflow_run.id = 9002;
    run.workflow_run.event = "workflow_dispatch";
    // The dispatched workflow's run, on the branch it was dispatched on (the example predates the `path` field).
    run.workflow_run.path = ".github/workflows/retrace.yml";
    run.workflow_run.head_branch = github.state.dispatches[0]!.ref;
    await postWebhook(app, "workflow_run", run);
    await app.service.idle();
    expect(github.calls("POST", /pulls$/)).toEqual([]);
    expect(app.store.get(spec.id)!.state).toBe("failed");
    expect(github.state.comments.find((c) => c.issue === 2)!.body).toContain(
      "the runner's result failed validation: outcome",
    );
  });
});
