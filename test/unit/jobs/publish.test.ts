/**
 * The one publisher (src/jobs/publish.ts) the App and the Action share: the tracking comment found by its marker
 * and edited in place, the check run, the policy gate run again before a draft PR, the refusal note with each
 * violation's rule and file:line, the autofix-on-an-issue note, failures and refusals. The real policy gate;
 * GitHub is the HTTP fake behind the real octokit port.
 */
import { createRequire } from "node:module";
import { createTwoFilesPatch } from "diff";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { FixJobSpec } from "../../../src/core/job.ts";
import type { GitHubPort } from "../../../src/core/ports/github.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import {
  AUTOFIX_ON_ISSUE,
  type Publisher,
  type PublishedJob,
  publishFailure,
  publishRefusal,
  publishResult,
  refusalNote,
  startCheckRun,
  writeTrackingComment,
} from "../../../src/jobs/publish.ts";
import { JobResult } from "../../../src/jobs/result.ts";
import { markerFor } from "../../../src/jobs/tracking-comment.ts";
import type { FixTrigger, ReproTrigger } from "../../../src/jobs/triggers.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";

const { Octokit } = createRequire(import.meta.url)("@octokit/core") as typeof import("@octokit/core");
const REPO = { owner: "octo", repo: "app" };
const SHA = "0123456789abcdef0123456789abcdef01234567";
const TOKEN = `ghp_${"a1B2".repeat(9)}`;
const BUGGY = "def add(a, b):\n    return a - b\n";
const GOOD = createTwoFilesPatch("a/src/calc.py", "b/src/calc.py", BUGGY, BUGGY.replace("-", "+"));
const EVIL = createTwoFilesPatch(
  "a/src/calc.py",
  "b/src/calc.py",
  BUGGY,
  "import os\ndef add(a, b):\n    os.system('rm -rf /')\n    return a + b\n",
);

let fake: FakeGitHub;
let github: GitHubPort;
let p: Publisher;
beforeEach(async () => {
  fake = await startFakeGitHub();
  github = createGitHubPort(
    new Octokit({ auth: "t", baseUrl: fake.url, request: { retries: 0 } }) as unknown as OctokitLike,
  );
  const redactor = new Redactor([]);
  p = { github, repo: REPO, gate: evaluatePatch, redact: (s) => redactor.redact(s) };
  fake.state.files.set(`octo/app@${SHA}:src/calc.py`, BUGGY);
  fake.state.branches.set("octo/app:feature", SHA);
});
afterEach(async () => {
  await fake.close();
});

const check: FixTrigger = {
  type: "fix",
  repo: "octo/app",
  installationId: null,
  defaultBranch: "main",
  via: "check_run",
  word: "test",
  actor: "ana",
  checkPermission: false,
  headSha: SHA,
  headBranch: "feature",
  prNumber: 4,
  checkRunId: 31,
  checkName: "test",
  actionsJobId: 31,
  onRetraceBranch: false,
};
const fixJob = (over: Partial<PublishedJob> = {}): PublishedJob => ({
  id: "fix-1",
  kind: "fix",
  trigger: check,
  issueNumber: 4,
  commentId: null,
  checkRunId: null,
  ...over,
});
const spec = FixJobSpec.parse({ kind: "fix", id: "fix-1", headSha: SHA, headBranch: "feature" });
const fixed = (patch: string, over: Partial<JobResult> = {}): JobResult => ({
  jobId: "fix-1",
  kind: "fix",
  outcome: "succeeded",
  verdict: "FIXED",
  summary: "test_add passes now.",
  patch,
  prTitle: "Fix add",
  prBody: `Adds. token ${TOKEN}`,
  failures: [],
  costUsd: 0.1,
  tokens: 10,
  attempts: 1,
  durationMs: 5,
  ...over,
});

describe("publishResult: the gate again, with the failing check the job's gate judged suppressions against", () => {
  const JS = "export function add(a, b) {\n  return a - b;\n}\n";
  const SUPPRESSED = createTwoFilesPatch(
    "a/src/calc.js",
    "b/src/calc.js",
    JS,
    "export function add(a, b) {\n  // @ts-expect-error a and b are numbers here\n  return a + b;\n}\n",
  );
  beforeEach(() => {
    fake.state.files.set(`octo/app@${SHA}:src/calc.js`, JS);
  });

  it("a suppression of a tool the failing check does not run (node --test): the runner allowed it, so does the publisher", async () => {
    // What the runner's job result carries, read back through the schema as the App reads a runner's result.
    const result = JobResult.parse(fixed(SUPPRESSED, { failingCheck: "node --test" }));
    expect(result.failingCheck).toBe("node --test");
    const done = await publishResult(p, fixJob(), spec, result, RetraceConfig.parse({}));
    expect(done.note).toBeNull();
    expect(done.prUrl).toMatch(/\/pull\/\d+$/);
  });

  it("a suppression of a tool the failing check runs (tsc in the build step): blocked", async () => {
    const done = await publishResult(
      p,
      fixJob(),
      spec,
      fixed(SUPPRESSED, { failingCheck: "tsc -p . && node --test" }),
      RetraceConfig.parse({}),
    );
    expect(done.prUrl).toBeNull();
    expect(done.note).toMatch(/^The policy gate refused the patch.*suppressions \(`src\/calc\.js:2`\)/);
  });

  it("a result that does not say what the failing check runs: every suppression is blocked, as before", async () => {
    const done = await publishResult(p, fixJob(), spec, fixed(SUPPRESSED), RetraceConfig.parse({}));
    expect(done.prUrl).toBeNull();
    expect(done.note).toMatch(/suppressions \(`src\/calc\.js:2`\)/);
  });
});

describe("publishResult", () => {
  it("a verified fix that passes the gate: a draft PR on retrace/<job>, the comment links it, the check succeeds", async () => {
    const checkRunId = await startCheckRun(p, fixJob(), SHA);
    expect(fake.state.checkRuns[0]!.body).toMatchObject({
      name: "Retrace",
      head_sha: SHA,
      status: "in_progress",
    });
    const done = await publishResult(p, fixJob({ checkRunId }), spec, fixed(GOOD), RetraceConfig.parse({}));
    expect(done).toMatchObject({
      prBranch: "retrace/fix-1",
      note: null,
      prUrl: expect.stringMatching(/\/pull\/\d+$/),
    });
    const pr = fake.calls("POST", /\/pulls$/)[0]!.body as Record<string, string>;
    expect(pr).toMatchObject({ draft: true, base: "feature", head: "retrace/fix-1", title: "Fix add" });
    expect(pr.body).toContain(markerFor("fix-1"));
    expect(pr.body).not.toContain(TOKEN);
    expect(fake.state.comments).toHaveLength(1);
    expect(fake.state.comments[0]!.body).toContain(`**Draft pull request:** ${done.prUrl}`);
    expect(fake.calls("PATCH", /check-runs\/\d+$/)[0]!.body).toMatchObject({
      status: "completed",
      conclusion: "success",
    });
  });

  it("a patch the gate refuses: no branch, no PR; the note names the rule and file:line on the comment and the check", async () => {
    const checkRunId = await startCheckRun(p, fixJob(), SHA);
    const done = await publishResult(p, fixJob({ checkRunId }), spec, fixed(EVIL), RetraceConfig.parse({}));
    expect(done.prUrl).toBeNull();
    expect(done.note).toMatch(
      /^The policy gate refused the patch, so no pull request was opened: dangerous-calls \(`src\/calc\.py:3`\): `/,
    );
    expect(fake.calls("POST", /git\/refs$|pulls$/)).toEqual([]);
    expect(fake.state.comments[0]!.body).toContain("dangerous-calls (`src/calc.py:3`)");
    const summary = (fake.calls("PATCH", /check-runs\/\d+$/)[0]!.body as { output: { summary: string } })
      .output.summary;
    expect(summary).toContain("dangerous-calls (`src/calc.py:3`)");
  });

  it("only a succeeded fix is published: a patch on a failed result opens nothing", async () => {
    const done = await publishResult(
      p,
      fixJob(),
      spec,
      fixed(EVIL, { outcome: "failed", verdict: "NOT_FIXED" }),
      RetraceConfig.parse({}),
    );
    expect(done).toMatchObject({ prUrl: null, note: null });
    expect(fake.calls("POST", /pulls$/)).toEqual([]);
    expect(fake.state.comments[0]!.body).toContain("NOT_FIXED");
  });

  it("refusal notes leave out what a violation does not know", () => {
    expect(
      refusalNote([
        { rule: "size-caps", message: "too big" },
        { rule: "forbidden-paths", file: ".github/x.yml", message: "no" },
      ]),
    ).toBe(
      "The policy gate refused the patch, so no pull request was opened: size-caps: `too big`; forbidden-paths (`.github/x.yml`): `no`",
    );
  });

  it("/autofix on an issue: the reproduction's comment says what a fix needs", async () => {
    const trigger: ReproTrigger = {
      type: "repro",
      repo: "octo/app",
      installationId: null,
      defaultBranch: "main",
      issueNumber: 3,
      via: "command",
      word: "/autofix",
      actor: "ana",
      checkPermission: true,
      thenFix: true,
    };
    const done = await publishResult(
      p,
      { id: "repro-1", kind: "repro", trigger, issueNumber: 3, commentId: null, checkRunId: null },
      null,
      { ...fixed(GOOD), jobId: "repro-1", kind: "repro", verdict: "REPRODUCED", patch: null },
      RetraceConfig.parse({}),
    );
    expect(done.note).toBe(AUTOFIX_ON_ISSUE);
    expect(fake.state.comments[0]!.body).toContain(`> ${AUTOFIX_ON_ISSUE}`);
  });
});

describe("the tracking comment", () => {
  it("is found by its marker and edited in place; no issue means no comment and no request", async () => {
    const first = await writeTrackingComment(p, fixJob(), { phase: "running" });
    const again = await writeTrackingComment(p, fixJob(), { phase: "failed", error: "boom" });
    expect(again?.id).toBe(first?.id);
    expect(fake.calls("POST", /comments$/)).toHaveLength(1);
    expect(fake.state.comments[0]!.body).toContain("❌ failed");
    const before = fake.requests.length;
    expect(await writeTrackingComment(p, fixJob({ issueNumber: null }), { phase: "queued" })).toBeNull();
    expect(fake.requests.length).toBe(before);
  });

  it("a failure goes on the comment and fails the check; a refusal says the job did not start", async () => {
    const checkRunId = await startCheckRun(p, fixJob(), SHA);
    await publishFailure(p, fixJob({ checkRunId }), `sandbox gone ${TOKEN}`);
    expect(fake.calls("PATCH", /check-runs\/\d+$/)[0]!.body).toMatchObject({ conclusion: "failure" });
    expect(JSON.stringify(fake.calls("PATCH", /check-runs\/\d+$/)[0]!.body)).not.toContain(TOKEN);
    expect(fake.state.comments[0]!.body).not.toContain(TOKEN);
    await publishRefusal(p, fixJob({ id: "fix-2" }), "the failure is on a fork (evil/app)");
    expect(fake.state.comments[1]!.body).toContain("Not started: the failure is on a fork (evil/app).");
  });
});
