/**
 * The App end to end with the REAL pipelines: the real Probot server, signed webhooks, the fake GitHub at the
 * HTTP layer, the production runner (createDefaultRunner → runJob → the repro and fix pipelines), the real
 * Docker sandbox, and — for the fix — the real Anthropic SDK against the local fake Messages API.
 * Set RETRACE_E2E_SAMPLES=<dir> to keep the final tracking comments and the PR body (docs/app.md samples).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { AppServer } from "../../src/app/server.ts";
import { createDefaultRunner } from "../../src/jobs/default-runner.ts";
import { describeDocker, sandboxImage } from "../support/docker.ts";
import { type FakeAnthropic, message, startFakeAnthropic } from "../support/fake-anthropic.ts";
import { example, postWebhook, startApp } from "./support/app-harness.ts";
import { type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";
import { repoTarball } from "./support/tarball.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REPO = "Codertocat/Hello-World";
const SHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";
const CHECK_RUN_ID = 128620228; // the check run (an Actions job) of the check_run.completed example
const API_KEY = "sk-ant-e2e-app-0000000000000000";
const FIXTURE = path.join(ROOT, "test/fixtures/fix-repos/py-pricing");
const BUGGY_LINE = "    return amount * (1 - percent)";
const FIXED_LINE = "    return amount * (1 - percent / 100)";

/** The failing job's log as the Actions API serves it: timestamped lines around real pytest output. */
const JOB_LOG = [
  "##[group]Run pytest",
  "pytest",
  "##[endgroup]",
  "============================= test session starts ==============================",
  "collected 4 items",
  "",
  "tests/test_cart.py ..F.                                                  [100%]",
  "",
  "=================================== FAILURES ===================================",
  "________________________ test_discount_is_a_percentage _________________________",
  "",
  "    def test_discount_is_a_percentage():",
  ">       assert apply_discount(200.0, 10) == 180.0",
  "E       assert -1800.0 == 180.0",
  "E        +  where -1800.0 = apply_discount(200.0, 10)",
  "",
  "tests/test_cart.py:13: AssertionError",
  "=========================== short test summary info ============================",
  "FAILED tests/test_cart.py::test_discount_is_a_percentage - assert -1800.0 == 180.0",
  "========================= 1 failed, 3 passed in 0.05s ==========================",
  "##[error]Process completed with exit code 1.",
]
  .map((line, i) => `2025-11-21T09:00:${String(10 + i).padStart(2, "0")}.1234567Z ${line}`)
  .join("\n");

let github: FakeGitHub;
let anthropic: FakeAnthropic;
let app: AppServer | null = null;

function keepSample(name: string, text: string): void {
  const dir = process.env.RETRACE_E2E_SAMPLES;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), text);
}

beforeEach(async () => {
  github = await startFakeGitHub();
  anthropic = await startFakeAnthropic();
});

afterEach(async () => {
  await app?.close();
  app = null;
  await github.close();
  await anthropic.close();
});

function noMerge(): void {
  expect(github.requests.filter((r) => /\/merge$/.test(r.path) || r.method === "PUT")).toEqual([]);
  expect(github.calls("PATCH", /\/git\/refs\//)).toEqual([]);
  expect(github.unexpected).toEqual([]);
}

describeDocker("App with the real pipelines", () => {
  it("issues.labeled needs-repro on a real report → the repro pipeline in the sandbox, offline → REPRODUCED on the comment", {
    timeout: 180_000,
  }, async () => {
    const report = readFileSync(path.join(ROOT, "examples/python-keyerror.md"), "utf8");
    const [titleLine, ...rest] = report.split("\n");
    github.state.issues.set(`${REPO}#1`, {
      title: titleLine!.replace(/^#\s*/, ""),
      body: rest.join("\n").trim(),
    });
    // The labeller needs write permission, like a commenter (DESIGN.md: who may trigger).
    github.state.permissions.set(`${REPO}:Codertocat`, "write");
    // No ANTHROPIC_API_KEY: the deterministic path, no model at all.
    const runner = createDefaultRunner({ env: { RETRACE_SANDBOX_IMAGE: sandboxImage } });
    app = await startApp(github, runner);
    const payload = example("issues", "labeled");
    payload.label.name = "needs-repro";
    expect((await postWebhook(app, "issues", payload)).status).toBe(200);
    await app.service.idle();

    const [job] = app.store.all();
    expect(job, JSON.stringify(app.store.all())).toMatchObject({ kind: "repro", state: "completed" });
    expect(job!.result).toMatchObject({ verdict: "REPRODUCED", outcome: "succeeded", tokens: 0, costUsd: 0 });
    expect(github.state.comments).toHaveLength(1);
    const body = github.state.comments[0]!.body;
    expect(
      body.startsWith(`<!-- retrace:job:${job!.id} -->\n### Retrace reproduction: ✅ REPRODUCED\n`),
    ).toBe(true);
    expect(body).toContain(`| \`${job!.id}\` | label \`needs-repro\` added by @Codertocat |`);
    expect(body).toContain("KeyError: 'font'");
    expect(body).toContain('print(settings["theme"]["font"])'); // the runnable reproduction script
    expect(anthropic.requests).toEqual([]);
    keepSample("repro-comment.md", body);
    noMerge();
  });

  it("/autofix on a plain issue reproduces it and says that a fix needs a failing check", {
    timeout: 180_000,
  }, async () => {
    const report = readFileSync(path.join(ROOT, "examples/python-keyerror.md"), "utf8");
    github.state.issues.set(`${REPO}#1`, { title: "merge_settings KeyError", body: report });
    github.state.permissions.set(`${REPO}:Codertocat`, "write");
    app = await startApp(github, createDefaultRunner({ env: { RETRACE_SANDBOX_IMAGE: sandboxImage } }));
    const payload = example("issue_comment", "created");
    payload.issue.number = 1;
    delete payload.issue.pull_request;
    payload.comment.body = "/autofix";
    payload.comment.user = { login: "Codertocat", type: "User" };
    payload.sender = { login: "Codertocat", type: "User" };
    await postWebhook(app, "issue_comment", payload);
    await app.service.idle();
    const [job] = app.store.all();
    expect(job).toMatchObject({ kind: "repro", state: "completed" });
    expect(job!.result?.verdict).toBe("REPRODUCED");
    const body = github.state.comments.find((c) => c.issue === 1)!.body;
    expect(body).toContain("✅ REPRODUCED");
    expect(body).toContain("`/autofix` on an issue runs the reproduction only");
    expect(body).toContain("commit the reproduction as a failing test on a branch");
    // Nothing was fixed, so nothing was written to the repository.
    expect(github.calls("POST", /\/pulls$|\/git\//)).toEqual([]);
    noMerge();
  });

  it("check_run failure → tarball checkout → the fix pipeline with the real SDK → verified → draft PR on retrace/…", {
    timeout: 300_000,
  }, async () => {
    github.state.branches.set(`${REPO}:changes`, SHA);
    github.state.tarballs.set(`${REPO}@${SHA}`, await repoTarball(FIXTURE, REPO, SHA));
    const cart = readFileSync(path.join(FIXTURE, "pricing/cart.py"), "utf8");
    github.state.files.set(`${REPO}@${SHA}:pricing/cart.py`, cart);
    github.state.jobLogs.set(CHECK_RUN_ID, JOB_LOG);
    anthropic.reply(
      message({
        toolUses: [
          {
            name: "report_root_cause",
            input: {
              hypothesis: "apply_discount treats the percentage as a fraction",
              evidence: "apply_discount(200, 10) = 200 * (1 - 10) = -1800; the docstring says 0-100",
              files: ["pricing/cart.py"],
            },
          },
        ],
        usage: { input_tokens: 2_400, output_tokens: 60 },
      }),
      message({
        toolUses: [
          {
            name: "propose_edits",
            input: {
              summary: "Divide the percentage by 100 before applying it",
              edits: [{ path: "pricing/cart.py", old_string: BUGGY_LINE, new_string: FIXED_LINE }],
            },
          },
        ],
        usage: { input_tokens: 2_900, output_tokens: 80 },
      }),
    );
    const runner = createDefaultRunner({
      env: {
        ANTHROPIC_API_KEY: API_KEY,
        ANTHROPIC_BASE_URL: anthropic.url,
        RETRACE_SANDBOX_IMAGE: sandboxImage,
      },
    });
    app = await startApp(github, runner);
    expect((await postWebhook(app, "check_run", example("check_run", "completed"))).status).toBe(200);
    await app.service.idle();

    const [job] = app.store.all();
    expect(job, JSON.stringify(job?.reason ?? job?.result?.summary)).toMatchObject({
      kind: "fix",
      state: "completed",
    });
    expect(job!.spec).toMatchObject({ kind: "fix", headSha: SHA, headBranch: "changes", log: JOB_LOG });
    expect(job!.result).toMatchObject({
      outcome: "succeeded",
      verdict: "FIXED",
      tokens: 2_400 + 60 + 2_900 + 80,
    });

    // The checkout came from the tarball, with the installation token.
    const tarball = github.calls("GET", new RegExp(`^/repos/${REPO}/tarball/${SHA}$`));
    expect(tarball).toHaveLength(1);
    expect(tarball[0]!.headers.authorization).toBe("token ghs_fakeinstallationtoken77");
    // …and the per-job checkout is gone once the job ended.
    expect(readdirSync(tmpdir()).filter((d) => d.startsWith(`retrace-checkout-${job!.id}-`))).toEqual([]);
    // The model was the real SDK over HTTP, with the key from the runner's environment.
    expect(anthropic.requests).toHaveLength(2);
    expect(anthropic.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(anthropic.pending()).toBe(0);

    // The tree holds the patched file, exactly.
    const tree = github.calls("POST", /\/git\/trees$/);
    expect(tree).toHaveLength(1);
    expect(tree[0]!.body).toEqual({
      base_tree: `tree-of-${SHA}`,
      tree: [
        {
          path: "pricing/cart.py",
          mode: "100644",
          type: "blob",
          content: cart.replace(BUGGY_LINE, FIXED_LINE),
        },
      ],
    });
    // …which is the change verification ran on, carried in the job result (the one applier, docs/paths.md).
    expect(job!.result?.changes).toEqual([
      { path: "pricing/cart.py", mode: "100644", content: cart.replace(BUGGY_LINE, FIXED_LINE) },
    ]);
    expect((github.calls("POST", /\/git\/commits$/)[0]!.body as { parents: string[] }).parents).toEqual([
      SHA,
    ]);
    const refs = github.calls("POST", /\/git\/refs$/);
    expect(refs.map((r) => (r.body as { ref: string }).ref)).toEqual([`refs/heads/retrace/${job!.id}`]);
    const pulls = github.calls("POST", /\/pulls$/);
    expect(pulls).toHaveLength(1);
    const pr = pulls[0]!.body as Record<string, unknown>;
    expect(pr).toMatchObject({ draft: true, base: "changes", head: `retrace/${job!.id}` });
    const prBody = String(pr.body);
    expect(prBody).toContain("A human must review it before merging.");
    expect(prBody).toContain("test_discount_is_a_percentage");
    expect(prBody).toContain(`<!-- retrace:job:${job!.id} -->`);
    expect(prBody).not.toContain(API_KEY);

    const check = github.state.checkRuns[0]!.body;
    expect(check).toMatchObject({
      name: "Retrace",
      head_sha: SHA,
      status: "completed",
      conclusion: "success",
    });
    const comment = github.state.comments.find((c) => c.issue === 2)!.body;
    expect(comment).toContain("### Retrace fix: ✅ FIXED");
    expect(comment).toContain(`**Draft pull request:** https://github.test/${REPO}/pull/`);
    keepSample("fix-comment.md", comment);
    keepSample("fix-pr-title.txt", String(pr.title));
    keepSample("fix-pr-body.md", prBody);
    noMerge();
  });
});
