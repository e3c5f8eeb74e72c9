/** Event → trigger (src/jobs/triggers.ts) for the App and the Action, with plain object literals as payloads. */
import { describe, expect, it } from "vitest";
import { type Decision, isBot, parseEvent, type Surface, slashWord } from "../../../src/jobs/triggers.ts";

const ME: Surface = { kind: "app", identity: { appId: 4242, appSlug: "retrace" } };
const base = {
  repository: { full_name: "octo/app", default_branch: "main" },
  installation: { id: 7 },
};
const human = { login: "ana", type: "User" };

describe("slashWord", () => {
  it("takes the first word when it is a slash command", () => {
    expect(slashWord("/autofix please")).toBe("/autofix");
    expect(slashWord("  /repro\nmore")).toBe("/repro");
    expect(slashWord("/re-pro_2")).toBe("/re-pro_2");
  });
  it("ignores commands that are not the first word, paths and non-strings", () => {
    expect(slashWord("please /autofix")).toBeNull();
    expect(slashWord("/usr/bin/env")).toBeNull();
    expect(slashWord("")).toBeNull();
    expect(slashWord(undefined)).toBeNull();
  });
});

describe("isBot", () => {
  it("knows bots by type or by the [bot] suffix", () => {
    expect(isBot({ login: "x", type: "Bot" })).toBe(true);
    expect(isBot({ login: "renovate[bot]", type: "User" })).toBe(true);
    expect(isBot(human)).toBe(false);
    expect(isBot(undefined)).toBe(false);
  });
});

describe("parseEvent (App): issues", () => {
  it("a label on an issue is a repro candidate (the intake checks the configured label)", () => {
    const d = parseEvent(
      "issues",
      { ...base, action: "labeled", sender: human, label: { name: "needs-repro" }, issue: { number: 5 } },
      ME,
    );
    expect(d).toEqual({
      accept: true,
      trigger: {
        type: "repro",
        repo: "octo/app",
        installationId: 7,
        defaultBranch: "main",
        issueNumber: 5,
        via: "label",
        word: "needs-repro",
        actor: "ana",
        // A label needs the labeller's permission too (triage rights are enough to set one).
        checkPermission: true,
        thenFix: false,
      },
    });
  });
  it("skips other actions, bots, pull requests and payloads without repository or installation", () => {
    const labeled = { ...base, action: "labeled", sender: human, label: { name: "x" }, issue: { number: 1 } };
    expect(parseEvent("issues", { ...labeled, action: "opened" }, ME)).toMatchObject({ accept: false });
    expect(parseEvent("issues", { ...labeled, sender: { login: "dependabot[bot]" } }, ME)).toMatchObject({
      accept: false,
      reason: expect.stringContaining("bots"),
    });
    expect(
      parseEvent("issues", { ...labeled, issue: { number: 1, pull_request: { url: "u" } } }, ME),
    ).toMatchObject({ accept: false, reason: expect.stringContaining("pull requests") });
    expect(parseEvent("issues", { ...labeled, repository: undefined }, ME)).toEqual({
      accept: false,
      reason: "the payload names no repository",
    });
    expect(parseEvent("issues", { ...labeled, installation: undefined }, ME)).toEqual({
      accept: false,
      reason: "the payload names no installation",
    });
  });
});

describe("parseEvent (App): issue_comment", () => {
  const comment = (
    body: string,
    extra: Record<string, unknown> = {},
    issue: Record<string, unknown> = {},
  ) => ({
    ...base,
    action: "created",
    sender: human,
    issue: { number: 9, ...issue },
    comment: { body, user: human, ...extra },
  });

  it("/autofix on a pull request is a fix job whose commit is read later", () => {
    const d = parseEvent("issue_comment", comment("/autofix", {}, { pull_request: { url: "u" } }), ME);
    expect(d).toMatchObject({
      accept: true,
      trigger: {
        type: "fix",
        via: "command",
        word: "/autofix",
        prNumber: 9,
        headSha: null,
        headBranch: null,
        checkPermission: true,
        onRetraceBranch: false,
      },
    });
  });
  it("/autofix on an issue reproduces first (thenFix); /repro anywhere reproduces", () => {
    expect(parseEvent("issue_comment", comment("/autofix now"), ME)).toMatchObject({
      accept: true,
      trigger: { type: "repro", via: "command", word: "/autofix", thenFix: true, checkPermission: true },
    });
    expect(
      parseEvent("issue_comment", comment("/repro", {}, { pull_request: { url: "u" } }), ME),
    ).toMatchObject({
      accept: true,
      trigger: { type: "repro", issueNumber: 9, thenFix: false },
    });
  });
  it("never reacts to itself, to its marker, to bots or to comments without a command", () => {
    const own = parseEvent(
      "issue_comment",
      comment("/repro", { performed_via_github_app: { id: 4242 } }),
      ME,
    );
    expect(own).toEqual({ accept: false, reason: "Retrace's own comments never trigger it" });
    const ownLogin = parseEvent("issue_comment", comment("/repro", { user: { login: "retrace[bot]" } }), ME);
    expect(ownLogin).toMatchObject({ accept: false });
    const marker = parseEvent("issue_comment", comment("/repro <!-- retrace:job:repro-1 -->"), ME);
    expect(marker).toEqual({ accept: false, reason: "comments carrying a Retrace marker never trigger it" });
    const bot = parseEvent("issue_comment", comment("/repro", { user: { login: "x", type: "Bot" } }), ME);
    expect(bot).toEqual({ accept: false, reason: "comments by bots never trigger Retrace" });
    expect(parseEvent("issue_comment", comment("thanks!"), ME)).toEqual({
      accept: false,
      reason: "the comment holds no slash command",
    });
    expect(parseEvent("issue_comment", { ...comment("/repro"), action: "edited" }, ME)).toMatchObject({
      accept: false,
    });
  });
});

describe("parseEvent (App): check_run and workflow_run", () => {
  const checkRun = (run: Record<string, unknown>) => ({
    ...base,
    action: "completed",
    sender: human,
    check_run: {
      id: 31,
      name: "test",
      head_sha: "abc123",
      conclusion: "failure",
      app: { id: 15368, slug: "github-actions" },
      check_suite: { head_branch: "feature" },
      pull_requests: [
        {
          number: 4,
          head: { ref: "feature", repo: { id: 1, name: "app" } },
          base: { repo: { id: 1, name: "app" } },
        },
      ],
      ...run,
    },
  });

  it("a failed Actions check run is a fix job with its job log id", () => {
    expect(parseEvent("check_run", checkRun({}), ME)).toEqual({
      accept: true,
      trigger: {
        type: "fix",
        repo: "octo/app",
        installationId: 7,
        defaultBranch: "main",
        via: "check_run",
        word: "test",
        actor: "ana",
        checkPermission: false,
        headSha: "abc123",
        headBranch: "feature",
        prNumber: 4,
        checkRunId: 31,
        checkName: "test",
        actionsJobId: 31,
        onRetraceBranch: false,
      },
    });
  });
  it("a check from another app has no Actions log; a retrace/ branch is capped by lineage", () => {
    const d = parseEvent(
      "check_run",
      checkRun({
        app: { id: 1, slug: "circleci" },
        check_suite: { head_branch: "retrace/fix-1" },
        pull_requests: [],
      }),
      ME,
    );
    expect(d).toMatchObject({
      accept: true,
      trigger: { actionsJobId: null, onRetraceBranch: true, prNumber: null, headBranch: "retrace/fix-1" },
    });
  });
  it("skips success, its own check runs and checks without a branch", () => {
    expect(parseEvent("check_run", checkRun({ conclusion: "success" }), ME)).toMatchObject({ accept: false });
    expect(parseEvent("check_run", checkRun({ app: { id: 4242 } }), ME)).toEqual({
      accept: false,
      reason: "Retrace's own check runs never trigger it",
    });
    expect(parseEvent("check_run", checkRun({ name: "Retrace", app: { id: 1 } }), ME)).toMatchObject({
      accept: false,
    });
    expect(
      parseEvent("check_run", checkRun({ check_suite: { head_branch: null }, pull_requests: [] }), ME),
    ).toMatchObject({ accept: false, reason: expect.stringContaining("not on a branch") });
  });
  it("skips a fork's check run and one of a bot's commit", () => {
    const fork = checkRun({
      pull_requests: [
        {
          number: 4,
          head: { ref: "main", repo: { id: 2, name: "app", url: "https://api.github.com/repos/evil/app" } },
          base: { repo: { id: 1, name: "app" } },
        },
      ],
    });
    expect(parseEvent("check_run", fork, ME)).toEqual({
      accept: false,
      reason: "the failure is on a fork (evil/app); Retrace only fixes branches of this repository",
    });
    expect(
      parseEvent("check_run", { ...checkRun({}), sender: { login: "dependabot[bot]", type: "Bot" } }, ME),
    ).toEqual({
      accept: false,
      reason: "check runs of commits by bots (dependabot[bot]) never trigger Retrace",
    });
  });
  it("collects only dispatched workflow runs", () => {
    const run = (event: string) => ({
      ...base,
      action: "completed",
      workflow_run: { id: 88, event, path: ".github/workflows/retrace.yml", head_branch: "main" },
    });
    // The run's workflow file and branch travel with it: the App completes a job only from the run it dispatched.
    expect(parseEvent("workflow_run", run("workflow_dispatch"), ME)).toEqual({
      accept: true,
      trigger: {
        type: "collect",
        repo: "octo/app",
        installationId: 7,
        runId: 88,
        workflowPath: ".github/workflows/retrace.yml",
        headBranch: "main",
      },
    });
    expect(parseEvent("workflow_run", run("push"), ME)).toMatchObject({ accept: false });
    expect(parseEvent("push", { ...base }, ME)).toEqual({
      accept: false,
      reason: "push events are not handled",
    });
  });
});

describe("parseEvent (Action): the same rules, the Action's events", () => {
  const ACTION: Surface = { kind: "action" };
  const repoOnly = { repository: { full_name: "octo/app", default_branch: "main" } };

  it("a label is the same repro trigger, with the issue's text from the event and no installation", () => {
    const d = parseEvent(
      "issues",
      {
        ...repoOnly,
        action: "labeled",
        sender: human,
        label: { name: "needs-repro" },
        issue: { number: 5, title: "Crash", body: "boom" },
      },
      ACTION,
    );
    expect(d).toEqual({
      accept: true,
      trigger: {
        type: "repro",
        repo: "octo/app",
        installationId: null,
        defaultBranch: "main",
        issueNumber: 5,
        via: "label",
        word: "needs-repro",
        actor: "ana",
        checkPermission: true,
        thenFix: false,
        issue: { title: "Crash", body: "boom" },
      },
    });
  });

  it("/autofix on a pull request is the same fix trigger as on the App", () => {
    const payload = {
      ...repoOnly,
      action: "created",
      sender: human,
      issue: { number: 9, pull_request: { url: "u" } },
      comment: { body: "/autofix", user: human },
    };
    const triggerOf = (d: Decision) => {
      if (!d.accept) throw new Error(d.reason);
      const { installationId: _, ...rest } = d.trigger as unknown as Record<string, unknown>;
      return rest;
    };
    const onAction = triggerOf(parseEvent("issue_comment", payload, ACTION));
    const onApp = triggerOf(parseEvent("issue_comment", { ...payload, installation: { id: 7 } }, ME));
    expect(onAction).toEqual(onApp);
    expect(onAction).toMatchObject({ type: "fix", via: "command", prNumber: 9 });
  });

  it("a failed workflow run is a fix of its branch, named after the workflow (fix.checks matches it)", () => {
    const run = (over: Record<string, unknown> = {}, sender: unknown = human) => ({
      ...repoOnly,
      action: "completed",
      sender,
      workflow_run: {
        id: 77,
        name: "CI",
        conclusion: "failure",
        head_sha: "abc",
        head_branch: "retrace/fix-1",
        head_repository: { full_name: "octo/app" },
        pull_requests: [{ number: 4 }],
        ...over,
      },
    });
    expect(parseEvent("workflow_run", run(), ACTION)).toMatchObject({
      accept: true,
      trigger: {
        type: "fix",
        via: "workflow_run",
        checkName: "CI",
        runId: 77,
        headSha: "abc",
        headBranch: "retrace/fix-1",
        prNumber: 4,
        onRetraceBranch: true,
      },
    });
    expect(parseEvent("workflow_run", run({ conclusion: "success" }), ACTION)).toMatchObject({
      accept: false,
    });
    expect(parseEvent("workflow_run", run({ head_repository: { full_name: "evil/app" } }), ACTION)).toEqual({
      accept: false,
      reason: "the failure is on a fork (evil/app); Retrace only fixes branches of this repository",
    });
    expect(parseEvent("workflow_run", run({}, { login: "x[bot]", type: "Bot" }), ACTION)).toMatchObject({
      accept: false,
      reason: expect.stringContaining("bots"),
    });
    // The App reads the same event as the completion of a run it dispatched, or nothing.
    expect(parseEvent("workflow_run", { ...run(), installation: { id: 7 } }, ME)).toMatchObject({
      accept: false,
      reason: "only dispatched Retrace workflow runs are collected",
    });
  });

  it("a failed check run falls back to its pull request's branch, as on the App", () => {
    const payload = {
      ...repoOnly,
      action: "completed",
      sender: human,
      check_run: {
        id: 31,
        name: "test",
        head_sha: "abc",
        conclusion: "failure",
        app: { id: 1, slug: "github-actions" },
        check_suite: { head_branch: null },
        pull_requests: [{ number: 4, head: { ref: "feature", repo: { id: 1 } }, base: { repo: { id: 1 } } }],
      },
    };
    expect(parseEvent("check_run", payload, ACTION)).toMatchObject({
      accept: true,
      trigger: { via: "check_run", headBranch: "feature", actionsJobId: 31, installationId: null },
    });
  });

  it("workflow_dispatch carries the App's job spec; a bad one is an error; other events name what is handled", () => {
    const spec = { kind: "fix", id: "fix-abc", headSha: "s", headBranch: "b", logJobIds: [41] };
    expect(
      parseEvent("workflow_dispatch", { ...repoOnly, inputs: { "job-spec": JSON.stringify(spec) } }, ACTION),
    ).toMatchObject({ accept: true, trigger: { type: "dispatch", repo: "octo/app", spec } });
    expect(() =>
      parseEvent("workflow_dispatch", { inputs: { "job-spec": '{"kind":"deploy"}' } }, ACTION),
    ).toThrow(/the job-spec input is not a job spec/);
    expect(parseEvent("workflow_dispatch", { inputs: {} }, ACTION)).toMatchObject({ accept: false });
    expect(
      parseEvent("workflow_dispatch", { ...base, inputs: { "job-spec": JSON.stringify(spec) } }, ME),
    ).toEqual({ accept: false, reason: "workflow_dispatch events are not handled" });
    expect(parseEvent("push", {}, ACTION)).toEqual({
      accept: false,
      reason:
        "the push event is not one Retrace handles (issues, issue_comment, workflow_run, check_run, workflow_dispatch)",
    });
  });
});

describe("slashWord: a command GitHub renders as code (wave 18)", () => {
  it("is no command when indented four columns or a tab, after blank lines or not", () => {
    expect(slashWord("    /autofix")).toBeNull();
    expect(slashWord("\t/repro\nmore")).toBeNull();
    expect(slashWord("\n\n      /autofix --help\n")).toBeNull();
    expect(slashWord("    /autofix\r\n")).toBeNull();
  });
  it("is a command indented up to three spaces, after blank lines", () => {
    expect(slashWord("   /autofix")).toBe("/autofix");
    expect(slashWord("\r\n\n /repro\n")).toBe("/repro");
  });
});
