/**
 * The Action as a process: `node dist/index.mjs` with a real event file, INPUT_* variables and
 * GITHUB_API_URL pointing at the fake GitHub; plus the publish path in-process with the real @actions/core
 * and a small real runner (the pipelines are wired into runJob by the coordinator).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createRequire } from "node:module";
import * as core from "@actions/core";
import { createTwoFilesPatch } from "diff";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAction } from "../../src/action/run.ts";
import type { JobSpec } from "../../src/core/job.ts";
import { createGitHubPort, type OctokitLike } from "../../src/github/octokit-port.ts";
import type { JobResult, JobRunner } from "../../src/jobs/result.ts";
import { evaluatePatch } from "../../src/policy/index.ts";
import { example, failedWorkflowRun } from "./support/app-harness.ts";
import { type FakeGitHub, startFakeGitHub } from "./support/fake-github.ts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const REPO = "Codertocat/Hello-World";
const SHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821";
const KEY = "sk-ant-api03-secretsecretsecretsecret";

let github: FakeGitHub;
let dir: string;

beforeEach(async () => {
  github = await startFakeGitHub();
  dir = mkdtempSync(join(tmpdir(), "retrace-action-"));
});
afterEach(async () => {
  await github.close();
});

/**
 * The workflow_dispatch example names `octo-org/octo-repo`; GitHub writes the workflow's own repository into the
 * event file, so a dispatch to this workflow names REPO (an event file naming another repository is refused: red
 * team 27).
 */
function dispatchExample(): ReturnType<typeof example> {
  const p = example("workflow_dispatch");
  const [owner, name] = REPO.split("/");
  p.repository = { ...p.repository, full_name: REPO, name, owner: { ...p.repository.owner, login: owner } };
  return p;
}

function envFor(event: string, payload: unknown, inputs: Record<string, string> = {}): NodeJS.ProcessEnv {
  const eventPath = join(dir, "event.json");
  writeFileSync(eventPath, JSON.stringify(payload));
  writeFileSync(join(dir, "output"), "");
  writeFileSync(join(dir, "summary"), "");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: github.url,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: join(dir, "output"),
    GITHUB_STEP_SUMMARY: join(dir, "summary"),
    GITHUB_RUN_ID: "555",
    GITHUB_RUN_ATTEMPT: "1",
    RUNNER_TEMP: dir,
    "INPUT_GITHUB-TOKEN": "ghs_faketokenfaketokenfaketokenfaketoken",
    "INPUT_ANTHROPIC-API-KEY": KEY,
    INPUT_MODE: "auto",
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return env;
}

async function action(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; outputs: string }> {
  try {
    const { stdout } = await run(process.execPath, ["dist/index.mjs"], { env, cwd: process.cwd() });
    return { code: 0, stdout, outputs: readFileSync(join(dir, "output"), "utf8") };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout, outputs: readFileSync(join(dir, "output"), "utf8") };
  }
}

describe("the bundle", () => {
  it("dist/ is up to date with the sources", async () => {
    const { stdout } = await run(process.execPath, ["scripts/build-action.mjs", "--check"]);
    expect(stdout).toContain("up to date");
  });
});

describe("the Action as a process", () => {
  it("gives a clear notice and exits cleanly on an event it does not handle", async () => {
    // A real push payload: GitHub always writes the repository, and an event file without one is refused first.
    const r = await action(envFor("push", example("push")));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "::notice title=Retrace::Retrace: nothing to do — the push event is not one Retrace handles",
    );
    expect(r.outputs).toMatch(/outcome<<.*\nskipped\n/);
    expect(r.stdout).toContain(`::add-mask::${KEY}`);
    expect(github.requests).toEqual([]);
  });

  it("runs nothing for a non-collaborator's /repro (permission read through the API)", async () => {
    const p = example("issue_comment", "created");
    p.comment.body = "/repro";
    const r = await action(envFor("issue_comment", p));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("@Codertocat lacks write permission");
    expect(github.calls("GET", /collaborators\/Codertocat\/permission$/)).toHaveLength(1);
    expect(github.calls("POST", /comments$/)).toEqual([]);
  });

  it("fails with the input's name on a bad input", async () => {
    const r = await action(envFor("issues", example("issues", "labeled"), { mode: "everything" }));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::Retrace: input mode must be auto, repro or fix, not "everything"');
  });

  it("rejects a workflow_dispatch whose job spec is not a job spec", async () => {
    const p = dispatchExample();
    p.inputs = { "job-spec": JSON.stringify({ kind: "deploy", id: "x" }) };
    const r = await action(envFor("workflow_dispatch", p));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("::error::Retrace: the job-spec input is not a job spec");
  });
});

describe("publishing (in-process, real @actions/core)", () => {
  const BUGGY = "def add(a, b):\n    return a - b\n";
  const PATCH = createTwoFilesPatch("a/src/calc.py", "b/src/calc.py", BUGGY, BUGGY.replace("-", "+"));
  const fixRunner: JobRunner = async (spec) =>
    ({
      jobId: spec.id,
      kind: "fix",
      outcome: "succeeded",
      verdict: "FIXED",
      summary: "test_add passes now.",
      patch: PATCH,
      prTitle: "Fix add",
      prBody: "Adds instead of subtracting.",
      failures: [{ file: "src/calc.py", line: 2, message: "test_add: assert -1 == 3" }],
      costUsd: 0.2,
      tokens: 100,
      attempts: 1,
      durationMs: 10,
    }) satisfies JobResult;

  it("workflow_run failure: downloads failed job logs, opens a draft PR, writes outputs, summary, annotations", async () => {
    github.state.runJobs.set(30433642, [
      { id: 1, name: "build", conclusion: "success" },
      { id: 2, name: "test", conclusion: "failure" },
    ]);
    github.state.jobLogs.set(2, "FAILED test_add\n");
    github.state.files.set(`${REPO}@${SHA}:src/calc.py`, BUGGY);
    const p = failedWorkflowRun(REPO, SHA, "feature", 30433642);
    github.state.branches.set(`${REPO}:feature`, SHA);
    const env = envFor("workflow_run", p);
    Object.assign(process.env, env);
    let seenLog: string | undefined;
    const out = await runAction({
      env,
      core,
      github: (token) => {
        const { Octokit } = require("@octokit/core") as typeof import("@octokit/core");
        return createGitHubPort(new Octokit({ auth: token, baseUrl: github.url }) as unknown as OctokitLike);
      },
      runner: () => async (spec, o) => {
        seenLog = spec.kind === "fix" ? spec.log : undefined;
        return fixRunner(spec, o);
      },
      gate: evaluatePatch,
    });
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toContain(
      "GET /repos/Codertocat/Hello-World/actions/runs/30433642/jobs",
    );
    expect(seenLog).toBe("##[group]test\nFAILED test_add\n\n##[endgroup]");
    expect(out.prUrl).toMatch(/\/pull\/\d+$/);
    expect(github.calls("POST", /pulls$/)[0]!.body).toMatchObject({
      draft: true,
      base: "feature",
      head: "retrace/fix-555-1",
    });
    const outputs = readFileSync(join(dir, "output"), "utf8");
    expect(outputs).toMatch(/verdict<<.*\nFIXED\n/);
    expect(outputs).toMatch(/cost-usd<<.*\n0\.2000\n/);
    expect(readFileSync(join(dir, "summary"), "utf8")).toContain("## Retrace fix: FIXED");
  });
});

describe("a failure that is moot", () => {
  it("workflow_run failure on a branch that has moved on: no job, a notice, no PR", async () => {
    const p = failedWorkflowRun(REPO, SHA, "moved", 30433643);
    github.state.branches.set(`${REPO}:moved`, "f".repeat(40));
    const env = envFor("workflow_run", p);
    Object.assign(process.env, env);
    const ran: string[] = [];
    const pullsBefore = github.calls("POST", /pulls$/).length;
    const out = await runAction({
      env,
      core,
      github: (token) => {
        const { Octokit } = require("@octokit/core") as typeof import("@octokit/core");
        return createGitHubPort(new Octokit({ auth: token, baseUrl: github.url }) as unknown as OctokitLike);
      },
      runner: () => async (spec) => {
        ran.push(spec.id);
        throw new Error("no job should run");
      },
      gate: evaluatePatch,
    });
    expect(ran).toEqual([]);
    expect(out.prUrl ?? null).toBeNull();
    expect(github.calls("POST", /pulls$/).length).toBe(pullsBefore);
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).not.toContain(
      "GET /repos/Codertocat/Hello-World/actions/runs/30433643/jobs",
    );
  });
});

describe("who and what may trigger the Action (shared intake rules)", () => {
  const octokitPort = (token: string) => {
    const { Octokit } = require("@octokit/core") as typeof import("@octokit/core");
    return createGitHubPort(new Octokit({ auth: token, baseUrl: github.url }) as unknown as OctokitLike);
  };
  /** Runs the Action in-process with a runner that records the specs it is given. */
  async function inProcess(event: string, payload: unknown, inputs: Record<string, string> = {}) {
    const env = envFor(event, payload, inputs);
    Object.assign(process.env, env);
    const specs: JobSpec[] = [];
    const out = await runAction({
      env,
      core,
      github: octokitPort,
      runner: () => async (spec, o) => {
        specs.push(spec);
        return spec.kind === "fix"
          ? fixRunner(spec, o)
          : { ...(await fixRunner(spec, o)), kind: "repro", verdict: "REPRODUCED", patch: null };
      },
      gate: evaluatePatch,
    });
    return { out, specs, outputs: readFileSync(join(dir, "output"), "utf8") };
  }
  const BUGGY = "def add(a, b):\n    return a - b\n";
  const PATCH = createTwoFilesPatch("a/src/calc.py", "b/src/calc.py", BUGGY, BUGGY.replace("-", "+"));
  const fixRunner: JobRunner = async (spec) => ({
    jobId: spec.id,
    kind: "fix",
    outcome: "succeeded",
    verdict: "FIXED",
    summary: "ok",
    patch: PATCH,
    failures: [],
    costUsd: 0,
    tokens: 0,
    attempts: 1,
    durationMs: 1,
  });
  function failedRun(branch = "feature", over: Record<string, unknown> = {}) {
    const p = example("workflow_run", "completed");
    p.repository.full_name = REPO;
    Object.assign(p.workflow_run, {
      id: 77,
      name: "CI",
      conclusion: "failure",
      head_sha: SHA,
      head_branch: branch,
      pull_requests: [],
      head_repository: { ...p.workflow_run.head_repository, full_name: REPO },
      ...over,
    });
    github.state.runJobs.set(77, [{ id: 2, name: "test", conclusion: "failure" }]);
    github.state.jobLogs.set(2, "FAILED test_add\n");
    github.state.files.set(`${REPO}@${SHA}:src/calc.py`, BUGGY);
    // The failed commit is still the branch's head (otherwise the failure is moot and skipped).
    github.state.branches.set(`${REPO}:${branch}`, SHA);
    return p;
  }

  it("a fork's workflow run starts nothing, and no API call is made", async () => {
    const p = failedRun("main", { head_repository: { full_name: "evil/Hello-World" } });
    const { out, specs } = await inProcess("workflow_run", p);
    expect(out.trigger).toBe("ignore");
    expect(specs).toEqual([]);
    expect(github.requests).toEqual([]);
  });

  it("a fork's check run starts nothing", async () => {
    const p = example("check_run", "completed");
    p.check_run.conclusion = "failure";
    p.check_run.pull_requests[0].head.repo = {
      id: 999,
      url: "https://api.github.com/repos/evil/Hello-World",
    };
    const { specs } = await inProcess("check_run", p);
    expect(specs).toEqual([]);
    expect(github.requests).toEqual([]);
  });

  it("a bot's workflow run starts nothing", async () => {
    const p = failedRun();
    p.sender = { login: "retrace-app[bot]", type: "Bot" };
    const { specs } = await inProcess("workflow_run", p);
    expect(specs).toEqual([]);
  });

  it("reads .github/retrace.yml from the default branch through the API, not from the checkout", async () => {
    // The branch under test (the checkout) tries to widen its own policy; the default branch turns fixes off.
    mkdirSync(join(dir, ".github"), { recursive: true });
    writeFileSync(join(dir, ".github/retrace.yml"), "fix:\n  enabled: true\n");
    github.state.files.set(`${REPO}@:.github/retrace.yml`, "fix:\n  enabled: false\n");
    const { specs, outputs } = await inProcess("workflow_run", failedRun());
    expect(specs).toEqual([]);
    expect(outputs).toMatch(/outcome<<.*\nskipped\n/);
    const read = github.calls("GET", /\/contents\/\.github(\/|%2F)retrace\.yml$/);
    expect(read).toHaveLength(1);
    expect(read[0]!.query.get("ref")).toBeNull();
  });

  it("applies fix.checks to the failed workflow's name, and the fix budget from the config", async () => {
    github.state.files.set(`${REPO}@:.github/retrace.yml`, "fix:\n  checks: [lint]\n");
    expect((await inProcess("workflow_run", failedRun())).specs).toEqual([]);
    github.state.files.set(
      `${REPO}@:.github/retrace.yml`,
      "fix:\n  checks: [C*]\n  maxTokens: 1234\n  maxWallMs: 60000\n",
    );
    const { specs } = await inProcess("workflow_run", failedRun(), { "dry-run": "true" });
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({
      kind: "fix",
      logJobIds: [2],
      budget: { maxTokens: 1234, maxWallMs: 60_000 },
    });
  });

  it("applies repro.enabled and the configured label; a triage-only labeller starts nothing", async () => {
    const p = example("issues", "labeled");
    p.label.name = "needs-repro";
    github.state.permissions.set(`${REPO}:Codertocat`, "triage");
    expect((await inProcess("issues", p)).specs).toEqual([]);
    expect(github.calls("GET", /collaborators\/Codertocat\/permission$/)).toHaveLength(1);
    expect(github.calls("POST", /comments$/)).toEqual([]);

    github.state.permissions.set(`${REPO}:Codertocat`, "write");
    github.state.files.set(`${REPO}@:.github/retrace.yml`, "repro:\n  enabled: false\n");
    expect((await inProcess("issues", p)).specs).toEqual([]);
    github.state.files.set(`${REPO}@:.github/retrace.yml`, "repro:\n  maxUsd: 0.3\n");
    const { specs } = await inProcess("issues", p, { "dry-run": "true" });
    expect(specs).toMatchObject([{ kind: "repro", budget: { maxUsd: 0.3 } }]);
  });

  it("caps fixes of Retrace's own branches per lineage (followed through the draft PRs)", async () => {
    // feature ← retrace/fix-1 (a first fix) ← retrace/fix-2 (a fix of the fix).
    // Retrace's PRs hold its tracking marker; a person's branch under retrace/ (without it) is not Retrace's.
    const body = (id: string) => `Fix.\n\n<!-- retrace:job:${id} -->`;
    github.state.pulls.push({
      number: 10,
      head: "retrace/fix-1",
      base: "feature",
      html_url: "u10",
      body: body("fix-1"),
    });
    github.state.pulls.push({
      number: 11,
      head: "retrace/fix-2",
      base: "retrace/fix-1",
      html_url: "u11",
      body: body("fix-2"),
    });
    github.state.pulls.push({
      number: 12,
      head: "retrace/notes",
      base: "retrace/fix-2",
      html_url: "u12",
      body: "wip",
    });
    const first = await inProcess("workflow_run", failedRun("retrace/fix-1"), { "dry-run": "true" });
    expect(first.specs).toHaveLength(1); // one stacked fix: within fix.lineageCap = 1
    const second = await inProcess("workflow_run", failedRun("retrace/fix-2"));
    expect(second.specs).toEqual([]);
    expect(second.out.trigger).toBe("fix-run");
    // A person's retrace/notes on top of the fix of the fix: theirs, not a third stacked fix.
    expect(
      (await inProcess("workflow_run", failedRun("retrace/notes"), { "dry-run": "true" })).specs,
    ).toHaveLength(1);
    github.state.files.set(`${REPO}@:.github/retrace.yml`, "fix:\n  lineageCap: 0\n");
    expect((await inProcess("workflow_run", failedRun("retrace/fix-1"))).specs).toEqual([]);
    expect(github.calls("GET", /\/pulls$/)[0]!.query.get("head")).toBe("Codertocat:retrace/fix-1");
  });

  it("a dispatched fix downloads the failed jobs' logs the App left behind", async () => {
    github.state.jobLogs.set(41, "FAILED tests/test_calc.py::test_add\n");
    const p = dispatchExample();
    p.inputs = {
      "job-spec": JSON.stringify({
        kind: "fix",
        id: "fix-abc",
        headSha: SHA,
        headBranch: "feature",
        logJobIds: [41],
      }),
    };
    const { specs } = await inProcess("workflow_dispatch", p);
    expect(specs).toMatchObject([
      { kind: "fix", id: "fix-abc", log: "FAILED tests/test_calc.py::test_add\n" },
    ]);
    expect(github.calls("GET", /\/actions\/jobs\/41\/logs$/)).toHaveLength(1);
  });

  // The cases the App and the Action used to decide differently, now one intake and one publisher (docs/jobs.md).
  it("/autofix on a pull request with no failed check starts nothing, and the comment says why", async () => {
    github.state.permissions.set(`${REPO}:Codertocat`, "write");
    github.state.issues.set(`${REPO}#1`, {
      title: "PR",
      body: "",
      pull: { headRef: "feature", headSha: SHA, baseRef: "main", headRepo: REPO },
    });
    github.state.branches.set(`${REPO}:feature`, SHA);
    const p = example("issue_comment", "created");
    p.issue.pull_request = { url: "x" };
    p.comment.body = "/autofix";
    // Inputs live in process.env for @actions/core: an earlier test's dry run must not carry over.
    const { out, specs } = await inProcess("issue_comment", p, { "dry-run": "false" });
    expect(specs).toEqual([]);
    expect(out.trigger).toBe("fix-pr");
    expect(github.state.comments).toHaveLength(1);
    expect(github.state.comments[0]!.body).toContain(
      "Not started: no check of the pull request's head commit has failed.",
    );
  });

  it("a patch the gate refuses: no PR, and the refusal names the rule and file:line on the comment", async () => {
    const evil = createTwoFilesPatch(
      "a/src/calc.py",
      "b/src/calc.py",
      BUGGY,
      "import os\ndef add(a, b):\n    os.system('rm -rf /')\n    return a + b\n",
    );
    const p = failedRun("feature", { pull_requests: [{ number: 2 }] });
    const env = envFor("workflow_run", p, { "dry-run": "false" });
    Object.assign(process.env, env);
    const out = await runAction({
      env,
      core,
      github: octokitPort,
      runner: () => async (spec, o) => ({ ...(await fixRunner(spec, o)), patch: evil }),
      gate: evaluatePatch,
    });
    expect(out.prUrl).toBeNull();
    expect(github.calls("POST", /pulls$|git\/refs$/)).toEqual([]);
    const comment = github.state.comments.find((c) => c.issue === 2)!;
    expect(comment.body).toContain(
      "The policy gate refused the patch, so no pull request was opened: dangerous-calls (`src/calc.py:3`)",
    );
  });
});
