/**
 * The Action, step by step: inputs → event → job spec → run → publish (comment, draft PR, or the result
 * artifact for the App) → outputs, summary, annotations. The trigger, the intake and the publisher are the job
 * layer's (src/jobs/, shared with the App); the Action keeps its inputs, outputs, summary and annotations.
 * Side effects come in through `ActionDeps`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRepoConfig } from "../config/repo-config.ts";
import { ConfigError, describeError } from "../core/errors.ts";
import { hostLimits } from "../core/host-limits.ts";
import { withoutWorkflowCommands } from "../core/workflow-commands.ts";
import { fence } from "../report/markdown.ts";
import { truncate } from "../github/octokit-port.ts";
import { Redactor } from "../core/redact.ts";
import type { GitHubPort } from "../core/ports/github.ts";
import { repoIdOf } from "../core/ports/github.ts";
import { intake } from "../jobs/intake.ts";
import {
  type PolicyGate,
  type Publisher,
  type PublishedJob,
  publishFailure,
  publishRefusal,
  publishResult,
} from "../jobs/publish.ts";
import type { JobResult, JobRunner } from "../jobs/result.ts";
import { type DispatchTrigger, type JobTrigger, parseEvent } from "../jobs/triggers.ts";
import { readEventFile } from "./event-file.ts";
import { type ActionInputs, readInputs } from "./inputs.ts";

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
  gate: PolicyGate;
}

/** What the Action was asked to do, for its log and tests: `ignore` when the event starts nothing. */
export type ActionTriggerName = "repro" | "fix-pr" | "fix-run" | "fix-check" | "dispatch" | "ignore";

export function triggerName(t: JobTrigger | DispatchTrigger): ActionTriggerName {
  if (t.type !== "fix") return t.type;
  return t.via === "command" ? "fix-pr" : t.via === "workflow_run" ? "fix-run" : "fix-check";
}

export interface ActionOutcome {
  trigger: ActionTriggerName;
  result: JobResult | null;
  prUrl: string | null;
  commentUrl: string | null;
}

/** The runner keeps a step summary of at most 1 MiB (a larger one is dropped whole): an error's text is capped well below. */
export const MAX_SUMMARY_MESSAGE = 64_000;

/** The step summary of a failed job: the message as a text block, capped (MAX_SUMMARY_MESSAGE). Pure. */
export function errorSummary(kind: string, message: string): string {
  return `## Retrace ${kind}: error\n\n${fence(truncate(message, MAX_SUMMARY_MESSAGE), "text")}\n`;
}

export async function runAction(deps: ActionDeps): Promise<ActionOutcome> {
  const { core, env } = deps;
  // 1. Inputs, secrets masked before anything is logged.
  const inputs = readInputs((n) => core.getInput(n));
  for (const s of [inputs.anthropicApiKey, inputs.githubToken]) if (s) core.setSecret(s);
  const redactor = new Redactor([inputs.anthropicApiKey, inputs.githubToken]);

  // 2. The event: what it asks for, before any API call (the same parser as the App's).
  const eventName = env.GITHUB_EVENT_NAME ?? "";
  const eventPath = env.GITHUB_EVENT_PATH;
  // biome-ignore lint/suspicious/noExplicitAny: the event is read defensively, field by field (parseEvent).
  const payload = readEventFile(eventPath) as any;
  // The workflow's repository is GITHUB_REPOSITORY: an event file naming another one was not written by GitHub for
  // this run, and its fields (a dispatched spec's repository, a default branch) would be checked against itself
  // (red team 27: a spec naming `attacker/other` fetched that repository's logs with this workflow's token).
  const eventRepo = payload?.repository?.full_name;
  // GitHub always writes the repository into the event file: one without it was not written by GitHub for this run,
  // and its checks (a dispatched spec's repository) would compare against an empty name (red team 27's Left).
  if (typeof eventRepo !== "string" || eventRepo === "")
    throw new ConfigError(
      "the event file names no repository (`repository.full_name`), which GitHub always writes",
      "run Retrace as a step of a GitHub Actions workflow, which writes the event file of its own repository",
    );
  // GitHub sets GITHUB_REPOSITORY for every step: without it there is nothing to check the event file against, and
  // any `repository.full_name` it names would be trusted.
  const workflowRepo = env.GITHUB_REPOSITORY?.trim();
  if (!workflowRepo)
    throw new ConfigError(
      "GITHUB_REPOSITORY is not set, so the event file's repository cannot be checked against this workflow's",
      "run Retrace as a step of a GitHub Actions workflow, which sets GITHUB_REPOSITORY (owner/name) for every step",
    );
  if (eventRepo.toLowerCase() !== workflowRepo.toLowerCase())
    throw new ConfigError(
      `the event file names the repository ${JSON.stringify(String(eventRepo)).slice(0, 120)}, not this workflow's (GITHUB_REPOSITORY=${workflowRepo})`,
      "run Retrace as a step of a GitHub Actions workflow, which writes the event file of its own repository",
    );
  const decision = parseEvent(eventName, payload, { kind: "action" });
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
  const skipped = (
    reason: string,
    type: ActionTriggerName = "ignore",
    commentUrl: string | null = null,
  ): ActionOutcome => {
    core.notice(`Retrace: nothing to do — ${redactor.redact(reason)}.`, { title: "Retrace" });
    outputs({ outcome: "skipped", comment: commentUrl });
    return { trigger: type, result: null, prUrl: null, commentUrl };
  };
  if (!decision.accept) return skipped(decision.reason);
  if (decision.trigger.type === "collect") throw new Error("internal: the Action collects no workflow run");

  // 3. The repository's config, from its default branch through the API: the checkout may be the very
  // branch under test (workflow_run checks out the PR head), and a branch must not set its own policy.
  const repoName = env.GITHUB_REPOSITORY ?? payload?.repository?.full_name;
  if (!repoName)
    throw new Error("GITHUB_REPOSITORY is not set: run Retrace inside a GitHub Actions workflow");
  const repo = repoIdOf(repoName);
  const github = deps.github(inputs.githubToken);
  const config = await loadRepoConfig(github, repo, inputs.config);

  // 4. The one intake (src/jobs/intake.ts): permission, config, fork, newer commit, lineage, spec.
  const runId = `${env.GITHUB_RUN_ID ?? "local"}-${env.GITHUB_RUN_ATTEMPT ?? "1"}`;
  const outcome = await intake({ ...decision.trigger, repo: repoName }, config, github, {
    jobId: (kind) => `${kind}-${runId}`,
    maxima: hostLimits(env),
    mode: inputs.mode,
    overrides: { model: inputs.model, maxAttempts: inputs.maxAttempts, maxUsd: inputs.budgetUsd },
  });
  const publisher: Publisher = { github, repo, gate: deps.gate, redact: (s) => redactor.redact(s) };
  if (!outcome.ok) {
    const t = decision.trigger as JobTrigger;
    let commentUrl: string | null = null;
    if (outcome.report && outcome.issueNumber !== null && !inputs.dryRun) {
      const refused: PublishedJob = {
        id: `${t.type}-${runId}`,
        kind: t.type,
        trigger: t,
        issueNumber: outcome.issueNumber,
        commentId: null,
        checkRunId: null,
      };
      commentUrl = (await publishRefusal(publisher, refused, outcome.reason))?.url ?? null;
    }
    return skipped(outcome.reason, triggerName(t), commentUrl);
  }
  const { spec, trigger } = outcome;
  // A dispatched job's comment and check are the App's; a dry run writes nothing. The Action's comment is
  // written once the job has ended (the run's log shows the progress meanwhile).
  const job: PublishedJob = {
    id: spec.id,
    kind: spec.kind,
    trigger,
    issueNumber: trigger.type === "dispatch" || inputs.dryRun ? null : outcome.issueNumber,
    commentId: null,
    checkRunId: null,
  };

  // 5. Provision the sandbox, then run. A failure of either is reported where the user looks (the tracking
  // comment, the outputs, the summary) before the step fails: an environment problem, never a verdict.
  const controller = new AbortController();
  // Progress echoes repository and report text: no line of it may read as a workflow command (`::error …`).
  const info = (line: string) => core.info(withoutWorkflowCommands(line));
  // The budget in force, after the one clamp (src/jobs/intake-rules.ts clampBudget): the `budget-usd` input never
  // raises a job past the operator's maximum (f14c item 2).
  const b = spec.budget;
  if (inputs.budgetUsd !== null && b.maxUsd < inputs.budgetUsd) {
    core.notice(
      `Retrace: the budget-usd input ($${inputs.budgetUsd}) is lowered to $${b.maxUsd}, the host's maximum for one job (RETRACE_HOST_LIMITS jobUsd) or the dollars left today.`,
      { title: "Retrace" },
    );
  }
  info(
    `Retrace: ${spec.kind} budget: $${b.maxUsd}, ${b.maxAttempts} attempt(s), ${Math.round(b.maxWallMs / 60_000)} min, ${b.maxTokens} tokens`,
  );
  let raw: JobResult;
  try {
    const image = deps.provision ? await deps.provision(inputs, info) : undefined;
    raw = await deps.runner(inputs, image)(spec, {
      signal: controller.signal,
      config,
      onProgress: info,
    });
  } catch (error) {
    const message = redactor.redact(describeError(error));
    let commentUrl: string | null = null;
    try {
      commentUrl = (await publishFailure(publisher, job, message))?.url ?? null;
    } catch (commentError) {
      info(
        `Retrace: could not write the failed-job comment: ${redactor.redact(describeError(commentError))}`,
      );
    }
    outputs({ outcome: "error", comment: commentUrl });
    // The message quotes repository, report and log text: a text block, never rendered (as in the PR body).
    await core.summary.addRaw(errorSummary(spec.kind, message), true).write();
    throw error;
  }
  const result = redactor.redactDeep(raw);

  // 6. Publish: the App's job goes back as an artifact (the App gates and publishes it); otherwise the one
  // publisher (src/jobs/publish.ts) writes the comment and, for a verified fix that passes the gate, the PR.
  let prUrl: string | null = null;
  let commentUrl: string | null = null;
  let note: string | null = null;
  if (trigger.type === "dispatch") {
    // The runner's own temporary directory; never a fixed name in the checkout, which could be a committed link.
    const dir = env.RUNNER_TEMP
      ? join(env.RUNNER_TEMP, "retrace-result")
      : mkdtempSync(join(tmpdir(), "retrace-result-"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "result.json"), JSON.stringify(result, null, 2));
    if (result.patch) writeFileSync(join(dir, "patch.diff"), result.patch);
    core.setOutput("result-dir", dir);
    core.setOutput("artifact-name", `retrace-result-${spec.id}`);
  } else if (inputs.dryRun) {
    core.notice("Retrace: dry run — no comment and no pull request were written.");
  } else {
    const done = await publishResult(publisher, job, spec, result, config);
    ({ prUrl, note } = done);
    commentUrl = done.comment?.url ?? null;
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
        // The note and the summary quote a model's words, report, log and repository text: text blocks, never
        // rendered (a step summary renders images, links and HTML comments, and a heading could forge a verdict).
        note ? `${fence(note, "text")}\n` : "",
        fence(result.summary, "text"),
        "",
        `Cost: $${result.costUsd.toFixed(4)} · ${result.tokens} tokens · ${result.attempts} attempt(s)`,
      ].join("\n"),
      true,
    )
    .write();
  return { trigger: triggerName(trigger), result, prUrl, commentUrl };
}
