/**
 * The one intake of a job, for the App and the Action: everything between "an event asked for a job" and "the
 * job may run". Who asked (permission through the API, fail closed), what the repository's config says (the
 * configured label and commands, repro/fix switches, fix.checks), whether the failure is on a fork, whether a
 * failed check exists, whether a newer commit makes the failure moot, the lineage cap, the daily limits when
 * the surface keeps count, and the spec itself. Returns the spec, or a `Skip` that says why.
 *
 * What differs between the surfaces comes in through `IntakeContext` as facts (the job id, today's usage, how
 * a lineage is followed, the Action's mode and inputs), never as a second copy of a rule. docs/jobs.md lists
 * every rule and the order they run in.
 */
import type { RetraceConfig } from "../config/schema.ts";
import { type Budget, FixJobSpec, type JobSpec, ReproJobSpec } from "../core/job.ts";
import type { GitHubPort, Permission, RepoId } from "../core/ports/github.ts";
import { repoIdOf } from "../core/ports/github.ts";
import {
  clampBudget,
  type DailyUsage,
  dailyLimitRule,
  type IntakeMaxima,
  fixBudget,
  fixRule,
  forkRule,
  lineageRule,
  newerCommitRule,
  reproBudget,
  reproRule,
} from "./intake-rules.ts";
import { type Lineage, lineageOf } from "./lineage.ts";
import { readRepositoryPackage } from "./repository-package.ts";
import type { DispatchTrigger, FixTrigger, JobTrigger, ReproTrigger } from "./triggers.ts";

/** Which jobs a surface runs: the Action's `mode` input (the App runs both). */
export type Mode = "auto" | "repro" | "fix";

export interface IntakeContext {
  /** The id of the job about to be built, once its kind is known. */
  jobId: (kind: "repro" | "fix") => string;
  /** `repro` or `fix` turns the other kind off; default `auto` (both). */
  mode?: Mode;
  /**
   * Today's jobs and dollars of the repository, on a surface that keeps count (the App's job store); the daily
   * limits (`limits.jobsPerDay`, `limits.usdPerDay`) apply only then.
   */
  usage?: () => DailyUsage;
  /** How the lineage of a Retrace branch is followed; default: through its draft pull requests (the API). */
  lineage?: (branch: string) => Promise<Lineage>;
  /**
   * The operator's maxima (RETRACE_HOST_LIMITS) a repository's budgets and daily limits are lowered to, read by the
   * entry from Retrace's own environment (`hostLimits(env)`).
   */
  maxima: IntakeMaxima;
  /** Per-run values that win over the config (the Action's `model`, `max-attempts`, `budget-usd` inputs). */
  overrides?: { model?: string | null; maxAttempts?: number | null; maxUsd?: number | null };
}

export type Accept = {
  ok: true;
  spec: JobSpec;
  /** The trigger as the intake read it against the config (a configured command word resolved). */
  trigger: JobTrigger | DispatchTrigger;
  /** The issue or pull request the tracking comment goes on. */
  issueNumber: number | null;
  /** The failed commit (fix jobs): the App's Retrace check run goes on it. */
  headSha: string | null;
  /** The branch a chain of fixes started from (fix jobs). */
  lineage: string | null;
};
/** `report: true` when the refusal is worth a comment (budget, fork, no failed check); false for silent skips. */
export type Skip = { ok: false; reason: string; report: boolean; issueNumber: number | null };
export type IntakeResult = Accept | Skip;

const RANK: Record<Permission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/** Permission through the API; any error means "no" (fail closed). */
export async function hasPermission(
  github: GitHubPort,
  repo: RepoId,
  user: string,
  min: "write" | "maintain" | "admin",
): Promise<boolean> {
  try {
    return RANK[await github.getPermission(repo, user)] >= RANK[min];
  } catch {
    return false;
  }
}

/** The logs of failed Actions jobs, in order, joined by newlines. */
export async function downloadJobLogs(github: GitHubPort, repo: RepoId, jobIds: number[]): Promise<string> {
  const logs = await Promise.all(jobIds.map((id) => github.getJobLog(repo, id)));
  return logs.length === 1 ? (logs[0] as string) : logs.join("\n");
}

/**
 * A slash command read against the configured words: on a pull request the configured repro word reproduces
 * (the parser only knows the default words), and `thenFix` follows the configured autofix word.
 */
export function resolveCommand(t: JobTrigger, config: RetraceConfig): JobTrigger {
  if (t.via !== "command") return t;
  const { repro, autofix } = config.commands;
  if (t.type === "fix" && t.word === repro && t.word !== autofix && t.prNumber !== null) {
    return {
      type: "repro",
      repo: t.repo,
      installationId: t.installationId,
      defaultBranch: t.defaultBranch,
      issueNumber: t.prNumber,
      via: "command",
      word: t.word,
      actor: t.actor,
      checkPermission: true,
      thenFix: false,
    };
  }
  if (t.type === "repro") return { ...t, thenFix: t.word === autofix };
  return t;
}

export async function intake(
  trigger: JobTrigger | DispatchTrigger,
  config: RetraceConfig,
  github: GitHubPort,
  ctx: IntakeContext,
): Promise<IntakeResult> {
  if (trigger.type === "dispatch") return intakeDispatched(trigger, github, ctx);
  const t = resolveCommand(trigger, config);
  return t.type === "repro" ? intakeRepro(t, config, github, ctx) : intakeFix(t, config, github, ctx);
}

/**
 * The App ran the intake before it dispatched: the spec is the job; the failed jobs' logs are fetched here. Its
 * budget goes through the same clamp with this host's maxima (a workflow input is written by whoever may dispatch).
 */
async function intakeDispatched(
  t: DispatchTrigger,
  github: GitHubPort,
  ctx: IntakeContext,
): Promise<IntakeResult> {
  let spec: JobSpec = { ...t.spec, budget: clampBudget(t.spec.budget, Number.POSITIVE_INFINITY, ctx.maxima) };
  // The App leaves the log behind (workflow inputs are size-limited) and names the failed jobs instead.
  if (spec.kind === "fix" && spec.log === undefined && spec.logJobIds?.length) {
    const repo = repoIdOf(spec.repo?.fullName ?? t.repo);
    try {
      spec = { ...spec, log: await downloadJobLogs(github, repo, spec.logJobIds) };
    } catch {
      // The pipeline reruns the tests to find the failure.
    }
  }
  return { ok: true, spec, trigger: t, issueNumber: null, headSha: null, lineage: null };
}

function repoRef(t: JobTrigger) {
  return { fullName: t.repo, ...(t.defaultBranch ? { defaultBranch: t.defaultBranch } : {}) };
}

/**
 * The config's budget for the kind, with the surface's overrides (the Action's `budget-usd`, `max-attempts`), through
 * the one clamp (clampBudget): an input never raises a job past the operator's maxima (RETRACE_HOST_LIMITS `jobUsd`)
 * nor past the dollars left today (f14c item 2; red team 28's Left).
 */
function budgetOf(base: Budget, ctx: IntakeContext, remainingUsd: number): Budget {
  const o = ctx.overrides ?? {};
  return clampBudget(
    {
      ...base,
      ...(o.maxAttempts == null ? {} : { maxAttempts: o.maxAttempts }),
      maxUsd: o.maxUsd ?? base.maxUsd,
    },
    remainingUsd,
    ctx.maxima,
  );
}

function modeRule(ctx: IntakeContext, kind: "repro" | "fix"): string | null {
  const mode = ctx.mode ?? "auto";
  if (kind === "repro" && mode === "fix") return "mode is fix: reproductions are off";
  if (kind === "fix" && mode === "repro") return "mode is repro: fixes are off";
  return null;
}

/** The daily limits when the surface keeps count: the refusal, or the dollars left (unbounded otherwise). */
function daily(config: RetraceConfig, ctx: IntakeContext): { refuse: string } | { remainingUsd: number } {
  return ctx.usage
    ? dailyLimitRule(config, ctx.usage(), ctx.maxima)
    : { remainingUsd: Number.POSITIVE_INFINITY };
}

function lacks(t: JobTrigger, config: RetraceConfig): string {
  return `@${t.actor} lacks ${config.commands.minPermission} permission (or it could not be read)`;
}

async function intakeRepro(
  t: ReproTrigger,
  config: RetraceConfig,
  github: GitHubPort,
  ctx: IntakeContext,
): Promise<IntakeResult> {
  const issueNumber = t.issueNumber;
  const silent = (reason: string): Skip => ({ ok: false, reason, report: false, issueNumber });
  const repo = repoIdOf(t.repo);
  const rule = reproRule(config, t) ?? modeRule(ctx, "repro");
  if (rule) return silent(rule);
  if (t.checkPermission && !(await hasPermission(github, repo, t.actor, config.commands.minPermission))) {
    return silent(lacks(t, config));
  }
  const day = daily(config, ctx);
  if ("refuse" in day) return { ok: false, reason: day.refuse, report: true, issueNumber };
  const issue = t.issue ?? (await github.getIssue(repo, issueNumber));
  // The package the repository publishes: the report may call it without an import (`filesize(…)`).
  const pkg = await readRepositoryPackage(github, repo);
  const spec = ReproJobSpec.parse({
    kind: "repro",
    id: ctx.jobId("repro"),
    repo: repoRef(t),
    issueNumber,
    markdown: `# ${issue.title}\n\n${issue.body}`,
    ...(pkg ? { package: pkg } : {}),
    runs: config.repro.runs,
    model: ctx.overrides?.model ?? config.model.default,
    budget: budgetOf(reproBudget(config, Number.POSITIVE_INFINITY, ctx.maxima), ctx, day.remainingUsd),
  });
  return { ok: true, spec, trigger: t, issueNumber, headSha: null, lineage: null };
}

async function intakeFix(
  t: FixTrigger,
  config: RetraceConfig,
  github: GitHubPort,
  ctx: IntakeContext,
): Promise<IntakeResult> {
  const issueNumber = t.prNumber;
  const silent = (reason: string): Skip => ({ ok: false, reason, report: false, issueNumber });
  const refuse = (reason: string): Skip => ({ ok: false, reason, report: true, issueNumber });
  const repo = repoIdOf(t.repo);
  const rule = fixRule(config, { via: t.via, word: t.word, checkName: t.checkName }) ?? modeRule(ctx, "fix");
  if (rule) return silent(rule);
  if (t.checkPermission && !(await hasPermission(github, repo, t.actor, config.commands.minPermission))) {
    return silent(lacks(t, config));
  }
  let headSha = t.headSha;
  let headBranch = t.headBranch;
  let logJobIds = t.actionsJobId === null ? [] : [t.actionsJobId];
  if (t.via === "command" && t.prNumber !== null) {
    // A command names a pull request: its head commit and its failed checks are read now.
    const pull = await github.getPull(repo, t.prNumber);
    const fork = forkRule(t.repo, pull.headRepoFullName);
    if (fork) return refuse(fork);
    headSha = pull.headSha;
    headBranch = pull.headRef;
    const failed = (await github.listFailedCheckRuns(repo, pull.headSha)).filter((c) => c.name !== "Retrace");
    if (failed.length === 0) return refuse("no check of the pull request's head commit has failed");
    logJobIds = failed.flatMap((c) => (c.actionsJobId === null ? [] : [c.actionsJobId])).slice(0, 20);
  }
  if (!headSha || !headBranch) return silent("the failed commit or branch is unknown");
  const moot = newerCommitRule(headSha, headBranch, await github.getBranchHead(repo, headBranch));
  if (moot) return silent(moot);
  let lineage = headBranch;
  if (t.onRetraceBranch) {
    const follow = ctx.lineage ?? ((b: string) => lineageOf(github, repo, b, config.fix.lineageCap));
    const found = await follow(headBranch);
    lineage = found.root;
    const capped = lineageRule(config, found.root, found.fixes);
    if (capped) return silent(capped);
  }
  const day = daily(config, ctx);
  if ("refuse" in day) return refuse(day.refuse);
  // The logs: a failed workflow run's failed jobs, or the failed Actions jobs by id. Gone or unreadable: the
  // pipeline reruns the tests to find the failure itself.
  let log: string | undefined;
  try {
    if (t.via === "workflow_run" && t.runId !== undefined) {
      const jobs = await github.getFailedJobLogs(repo, t.runId);
      logJobIds = jobs.map((j) => j.jobId).slice(0, 20);
      if (jobs.length > 0) log = jobs.map((j) => `##[group]${j.name}\n${j.log}\n##[endgroup]`).join("\n");
    } else if (logJobIds.length > 0) {
      log = await downloadJobLogs(github, repo, logJobIds);
    }
  } catch {
    log = undefined;
  }
  const spec = FixJobSpec.parse({
    kind: "fix",
    id: ctx.jobId("fix"),
    repo: repoRef(t),
    headSha,
    headBranch,
    ...(log === undefined ? {} : { log }),
    ...(logJobIds.length > 0 ? { logJobIds } : {}),
    ...(config.fix.testCommand ? { testCommand: config.fix.testCommand } : {}),
    model: ctx.overrides?.model ?? config.model.default,
    budget: budgetOf(fixBudget(config, Number.POSITIVE_INFINITY, ctx.maxima), ctx, day.remainingUsd),
  });
  return { ok: true, spec, trigger: t, issueNumber, headSha, lineage };
}
