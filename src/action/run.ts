/**
 * The Action, step by step: inputs → event → job spec → run → publish (comment, draft PR, or the result
 * artifact for the App) → outputs, summary, annotations. Side effects come in through `ActionDeps`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { downloadJobLogs, hasPermission } from "../app/intake.ts";
import { fixBudget, forkRule, lineageRule, newerCommitRule, reproBudget } from "../app/intake-rules.ts";
import { loadRepoConfig } from "../app/repo-config.ts";
import { markerFor, renderTrackingComment } from "../app/tracking-comment.ts";
import type { Trigger } from "../app/triggers.ts";
import { policyForFix, type RetraceConfig } from "../config/schema.ts";
import { FixJobSpec, type JobSpec, ReproJobSpec } from "../core/job.ts";
import { describeError } from "../core/errors.ts";
import { Redactor } from "../core/redact.ts";
import { BRANCH_PREFIX, openDraftPullRequest } from "../github/draft-pr.ts";
import type { GitHubPort, RepoId } from "../core/ports/github.ts";
import { repoIdOf } from "../core/ports/github.ts";
import type { JobResult, JobRunner } from "../jobs/result.ts";
import type { GateResult } from "../policy/types.ts";
import { type ActionTrigger, parseActionEvent, resolveActionTrigger } from "./event.ts";
import { type ActionInputs, readInputs } from "./inputs.ts";
import { lineageOf } from "./lineage.ts";

/** The part of @actions/core the Action uses. */
export interface CoreLike {
  getInput(name: string): string;
  setSecret(secret: string): void;
  setOutput(name: string, value: string): void;
  notice(message: string, props?: { title?: string }): void;
  info(message: string): void;
  error(message: string, props?: { title?: string; file?: string; startLine?: number }): void;
  summary: { addRaw(text: string, addEOL?: boolean): { write(): Promise<unknown> } };
}

export interface ActionDeps {
  env: NodeJS.ProcessEnv;
  core: CoreLike;
  github: (token: string) => GitHubPort;
  /** The runner for the job; `image` is the sandbox image provisioning made available, when it ran. */
  runner: (inputs: ActionInputs, image?: string) => JobRunner;
  /**
   * Make the sandbox image available on this machine (pull the published image, or build it) and return the
   * reference runs use. Absent: the runner's own default image must already be there.
   */
  provision?: (inputs: ActionInputs, log: (line: string) => void) => Promise<string>;
  gate: (patch: string, config: RetraceConfig["policy"]) => GateResult;
}

export interface ActionOutcome {
  trigger: ActionTrigger["type"];
  result: JobResult | null;
  prUrl: string | null;
  commentUrl: string | null;
}

export async function runAction(deps: ActionDeps): Promise<ActionOutcome> {
  const { core, env } = deps;
  // 1. Inputs, secrets masked before anything is logged.
  const inputs = readInputs((n) => core.getInput(n));
  for (const s of [inputs.anthropicApiKey, inputs.githubToken]) if (s) core.setSecret(s);
  const redactor = new Redactor([inputs.anthropicApiKey, inputs.githubToken]);
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();

  // 2. The event: what it asks for, before any API call.
  const eventName = env.GITHUB_EVENT_NAME ?? "";
  const eventPath = env.GITHUB_EVENT_PATH;
  const payload = eventPath && existsSync(eventPath) ? JSON.parse(readFileSync(eventPath, "utf8")) : {};
  const candidate = parseActionEvent(eventName, payload);
  const outputs = (o: {
    verdict?: string;
    outcome: string;
    pr?: string | null;
    comment?: string | null;
    cost?: number;
  }) => {
    core.setOutput("verdict", o.verdict ?? "");
    core.setOutput("outcome", o.outcome);
    core.setOutput("pr-url", o.pr ?? "");
    core.setOutput("comment-url", o.comment ?? "");
    core.setOutput("cost-usd", (o.cost ?? 0).toFixed(4));
  };
  const skipped = (reason: string, type: ActionTrigger["type"] = "ignore"): ActionOutcome => {
    core.notice(`Retrace: nothing to do — ${redactor.redact(reason)}.`, { title: "Retrace" });
    outputs({ outcome: "skipped" });
    return { trigger: type, result: null, prUrl: null, commentUrl: null };
  };
  if (candidate.type === "ignore") return skipped(candidate.reason);

  // 3. The repository's config, from its default branch through the API: the checkout may be the very
  // branch under test (workflow_run checks out the PR head), and a branch must not set its own policy.
  const repoName = env.GITHUB_REPOSITORY ?? payload?.repository?.full_name;
  if (!repoName)
    throw new Error("GITHUB_REPOSITORY is not set: run Retrace inside a GitHub Actions workflow");
  const repo = repoIdOf(repoName);
  const github = deps.github(inputs.githubToken);
  const config = await loadRepoConfig(github, repo, inputs.config);
  const trigger = resolveActionTrigger(candidate, config, inputs.mode);
  if (trigger.type === "ignore") return skipped(trigger.reason);
  if (trigger.type === "command") throw new Error("internal: an unresolved command reached the run");

  // 4. Authorization: labels and commands act only for write/maintain/admin (read through the API, fail closed).
  if (trigger.type === "repro" || trigger.type === "fix-pr") {
    if (!(await hasPermission(github, repo, trigger.actor, config.commands.minPermission))) {
      return skipped(
        `@${trigger.actor} lacks ${config.commands.minPermission} permission (or it could not be read); nothing runs`,
        trigger.type,
      );
    }
  }
  // A fix of Retrace's own branch is capped per lineage, as in the App.
  if (trigger.type === "fix-run" || trigger.type === "fix-check") {
    const lineage = await lineageOf(github, repo, trigger.headBranch, config.fix.lineageCap);
    const capped = lineageRule(config, lineage.root, lineage.fixes);
    if (capped) return skipped(capped, trigger.type);
  }
  const jobId = `${env.GITHUB_RUN_ID ?? "local"}-${env.GITHUB_RUN_ATTEMPT ?? "1"}`;
  const built = await buildSpec(trigger, {
    github,
    repo,
    repoName,
    config,
    inputs,
    jobId,
    defaultBranch: payload?.repository?.default_branch,
  });
  if ("skip" in built) return skipped(built.skip, trigger.type);
  const { spec, issueNumber } = built;

  // 5. Provision the sandbox, then run. A failure of either is reported where the user looks (the tracking
  // comment, the outputs, the summary) before the step fails: an environment problem, never a verdict.
  const controller = new AbortController();
  let raw: JobResult;
  try {
    const image = deps.provision ? await deps.provision(inputs, (l) => core.info(l)) : undefined;
    raw = await deps.runner(inputs, image)(spec, {
      signal: controller.signal,
      config,
      onProgress: (l) => core.info(l),
    });
  } catch (error) {
    const message = redactor.redact(describeError(error));
    let commentUrl: string | null = null;
    if (issueNumber !== null && trigger.type !== "dispatch" && !inputs.dryRun) {
      try {
        const body = renderTrackingComment(
          { id: spec.id, kind: spec.kind, trigger: commentTrigger(trigger, repoName) },
          { phase: "failed", error: message },
          (s) => redactor.redact(s),
        );
        const existing = await github.findComment(repo, issueNumber, markerFor(spec.id));
        commentUrl = (
          existing
            ? await github.updateComment(repo, existing.id, body)
            : await github.createComment(repo, issueNumber, body)
        ).url;
      } catch (commentError) {
        core.info(
          `Retrace: could not write the failed-job comment: ${redactor.redact(describeError(commentError))}`,
        );
      }
    }
    outputs({ outcome: "error", comment: commentUrl });
    await core.summary.addRaw(`## Retrace ${spec.kind}: error\n\n${message}\n`, true).write();
    throw error;
  }
  const result = redactor.redactDeep(raw);

  // 6. Publish.
  let prUrl: string | null = null;
  let commentUrl: string | null = null;
  let note: string | undefined;
  if (trigger.type === "dispatch") {
    // The App opens the PR with its own token after validating this artifact and gating the patch again.
    const dir = join(env.RUNNER_TEMP ?? workspace, "retrace-result");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "result.json"), JSON.stringify(result, null, 2));
    if (result.patch) writeFileSync(join(dir, "patch.diff"), result.patch);
    core.setOutput("result-dir", dir);
    core.setOutput("artifact-name", `retrace-result-${spec.id}`);
  } else if (inputs.dryRun) {
    core.notice("Retrace: dry run — no comment and no pull request were written.");
  } else {
    if (
      spec.kind === "fix" &&
      result.patch &&
      result.outcome === "succeeded" &&
      spec.headBranch &&
      spec.headSha
    ) {
      const verdict = deps.gate(result.patch, policyForFix(config));
      if (!verdict.allowed) {
        note = `The policy gate refused the patch: ${verdict.violations.map((v) => `${v.rule}: ${v.message}`).join("; ")}`;
      } else {
        const pr = await openDraftPullRequest(github, repo, {
          baseBranch: spec.headBranch,
          baseSha: spec.headSha,
          branch: `${BRANCH_PREFIX}${spec.id}`,
          patch: result.patch,
          ...(result.changes ? { verified: result.changes } : {}),
          title: result.prTitle ?? `Fix failing check on ${spec.headBranch}`,
          body: `${result.prBody ?? result.summary}\n\n${markerFor(spec.id)}`,
        });
        prUrl = pr.url;
      }
    }
    if (issueNumber !== null) {
      const body = renderTrackingComment(
        { id: spec.id, kind: spec.kind, trigger: commentTrigger(trigger, repoName) },
        { phase: "done", result, prUrl, ...(note ? { note } : {}) },
        (s) => redactor.redact(s),
      );
      const existing = await github.findComment(repo, issueNumber, markerFor(spec.id));
      const ref = existing
        ? await github.updateComment(repo, existing.id, body)
        : await github.createComment(repo, issueNumber, body);
      commentUrl = ref.url;
    }
  }

  // 7. Outputs, summary, annotations.
  outputs({
    verdict: result.verdict ?? "",
    outcome: result.outcome,
    pr: prUrl,
    comment: commentUrl,
    cost: result.costUsd,
  });
  for (const f of result.failures.slice(0, 50)) {
    core.error(f.message, { title: "Retrace", file: f.file, ...(f.line ? { startLine: f.line } : {}) });
  }
  await core.summary
    .addRaw(
      [
        `## Retrace ${spec.kind}: ${result.verdict ?? result.outcome}`,
        "",
        prUrl ? `Draft pull request: ${prUrl}\n` : "",
        note ? `> ${note}\n` : "",
        result.summary,
        "",
        `Cost: $${result.costUsd.toFixed(4)} · ${result.tokens} tokens · ${result.attempts} attempt(s)`,
      ].join("\n"),
      true,
    )
    .write();
  return { trigger: trigger.type, result, prUrl, commentUrl };
}

type RunnableTrigger = Exclude<ActionTrigger, { type: "ignore" } | { type: "command" }>;

/** The trigger as the tracking comment describes it. */
function commentTrigger(t: RunnableTrigger, repo: string): Trigger {
  const base = { repo, installationId: 0, defaultBranch: null };
  if (t.type === "repro") {
    return {
      ...base,
      type: "repro",
      issueNumber: t.issueNumber,
      via: t.via,
      word: t.word,
      actor: t.actor,
      checkPermission: true,
      thenFix: false,
    };
  }
  return {
    ...base,
    type: "fix",
    via: t.type === "fix-pr" ? "command" : "check_run",
    word: t.type === "fix-pr" ? t.word : "/autofix",
    actor: t.type === "fix-pr" ? t.actor : "",
    checkPermission: false,
    headSha: "headSha" in t ? t.headSha : null,
    headBranch: "headBranch" in t ? t.headBranch : null,
    prNumber: "prNumber" in t ? t.prNumber : null,
    checkRunId: null,
    checkName: t.type === "fix-run" ? t.workflowName : t.type === "fix-check" ? t.checkName : "check",
    actionsJobId: null,
    onRetraceBranch: false,
  };
}

async function buildSpec(
  t: RunnableTrigger,
  c: {
    github: GitHubPort;
    repo: RepoId;
    repoName: string;
    config: RetraceConfig;
    inputs: ActionInputs;
    jobId: string;
    defaultBranch?: string;
  },
): Promise<{ spec: JobSpec; issueNumber: number | null } | { skip: string }> {
  const repoRef = { fullName: c.repoName, ...(c.defaultBranch ? { defaultBranch: c.defaultBranch } : {}) };
  const model = c.inputs.model ?? c.config.model.default;
  // The inputs override the config's attempts and dollars; the rest of the budget comes from the config.
  const overrides = {
    ...(c.inputs.maxAttempts === null ? {} : { maxAttempts: c.inputs.maxAttempts }),
    ...(c.inputs.budgetUsd === null ? {} : { maxUsd: c.inputs.budgetUsd }),
  };
  if (t.type === "dispatch") {
    const spec = t.spec;
    // The App leaves the log behind (inputs are size-limited) and names the failed jobs: download them here.
    if (spec.kind === "fix" && spec.log === undefined && spec.logJobIds?.length) {
      try {
        return {
          spec: { ...spec, log: await downloadJobLogs(c.github, c.repo, spec.logJobIds) },
          issueNumber: null,
        };
      } catch {
        return { spec, issueNumber: null }; // the pipeline reruns the tests to find the failure
      }
    }
    return { spec, issueNumber: null };
  }
  if (t.type === "repro") {
    const spec = ReproJobSpec.parse({
      kind: "repro",
      id: `repro-${c.jobId}`,
      repo: repoRef,
      issueNumber: t.issueNumber,
      markdown: `# ${t.title}\n\n${t.body}`,
      runs: c.config.repro.runs,
      model,
      budget: { ...reproBudget(c.config), ...overrides },
    });
    return { spec, issueNumber: t.issueNumber };
  }
  let headSha: string;
  let headBranch: string;
  let prNumber: number | null;
  let logJobIds: number[] = [];
  let log: string | undefined;
  if (t.type === "fix-pr") {
    const pull = await c.github.getPull(c.repo, t.prNumber);
    const fork = forkRule(c.repoName, pull.headRepoFullName);
    if (fork) return { skip: fork };
    headSha = pull.headSha;
    headBranch = pull.headRef;
    prNumber = t.prNumber;
    const failed = await c.github.listFailedCheckRuns(c.repo, headSha);
    logJobIds = failed
      .filter((r) => r.name !== "Retrace")
      .flatMap((r) => (r.actionsJobId === null ? [] : [r.actionsJobId]))
      .slice(0, 20);
    log = logJobIds.length ? await downloadJobLogs(c.github, c.repo, logJobIds) : undefined;
  } else if (t.type === "fix-run") {
    ({ headSha, headBranch, prNumber } = t);
    const moot = newerCommitRule(headSha, headBranch, await c.github.getBranchHead(c.repo, headBranch));
    if (moot) return { skip: moot };
    const jobs = await c.github.getFailedJobLogs(c.repo, t.runId);
    logJobIds = jobs.map((j) => j.jobId).slice(0, 20);
    log = jobs.length ? jobs.map((j) => `##[group]${j.name}\n${j.log}\n##[endgroup]`).join("\n") : undefined;
  } else {
    ({ headSha, headBranch, prNumber } = t);
    const moot = newerCommitRule(headSha, headBranch, await c.github.getBranchHead(c.repo, headBranch));
    if (moot) return { skip: moot };
    logJobIds = t.actionsJobId === null ? [] : [t.actionsJobId];
    log = t.actionsJobId === null ? undefined : await c.github.getJobLog(c.repo, t.actionsJobId);
  }
  const spec = FixJobSpec.parse({
    kind: "fix",
    id: `fix-${c.jobId}`,
    repo: repoRef,
    headSha,
    headBranch,
    ...(log === undefined ? {} : { log }),
    ...(logJobIds.length ? { logJobIds } : {}),
    ...(c.config.fix.testCommand ? { testCommand: c.config.fix.testCommand } : {}),
    model,
    budget: { ...fixBudget(c.config), ...overrides },
  });
  return { spec, issueNumber: prNumber };
}
