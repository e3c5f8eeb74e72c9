/**
 * The intake of a job: everything between "a webhook arrived" and "the job may run" that needs the API.
 * Who asked (permission through the API, fail closed), what the repository's config says, whether a newer
 * commit makes the failure moot, the lineage cap and the daily budgets. Returns a spec, or why not.
 */
import { createHash } from "node:crypto";
import { FixJobSpec, type JobSpec, ReproJobSpec } from "../core/job.ts";
import type { RetraceConfig } from "../config/schema.ts";
import type { GitHubPort, Permission, RepoId } from "../core/ports/github.ts";
import {
  fixBudget,
  fixRule,
  forkRule,
  lineageRule,
  newerCommitRule,
  reproBudget,
  reproRule,
} from "./intake-rules.ts";
import type { JobRecord } from "./job-record.ts";
import type { JobStore } from "./job-store.ts";
import type { FixTrigger, ReproTrigger } from "./triggers.ts";

export type IntakeOutcome =
  | { ok: true; spec: JobSpec; issueNumber: number | null; headSha: string | null; lineage: string | null }
  /** `report: true` when the refusal is worth a comment (budget, fork); false for silent skips (not authorized). */
  | { ok: false; reason: string; report: boolean; issueNumber: number | null };

const RANK: Record<Permission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export function jobIdFor(kind: "repro" | "fix", deliveryId: string): string {
  return `${kind}-${createHash("sha256").update(deliveryId).digest("hex").slice(0, 12)}`;
}

export function startOfUtcDay(now: number): number {
  return Math.floor(now / 86_400_000) * 86_400_000;
}

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

function budgets(config: RetraceConfig, store: JobStore, repoName: string, now: number) {
  const since = startOfUtcDay(now);
  const jobs = store.countJobsSince(repoName, since);
  const spent = store.costSince(repoName, since);
  if (jobs > config.limits.jobsPerDay) {
    return {
      error: `the daily job limit of this repository (limits.jobsPerDay = ${config.limits.jobsPerDay}) is reached`,
    };
  }
  if (spent >= config.limits.usdPerDay) {
    return {
      error: `the daily model budget of this repository (limits.usdPerDay = $${config.limits.usdPerDay}) is spent ($${spent.toFixed(2)})`,
    };
  }
  return { remainingUsd: config.limits.usdPerDay - spent };
}

export async function intakeRepro(
  record: JobRecord,
  trigger: ReproTrigger,
  config: RetraceConfig,
  deps: { github: GitHubPort; repo: RepoId; store: JobStore; now: number },
): Promise<IntakeOutcome> {
  const issueNumber = trigger.issueNumber;
  const silent = (reason: string): IntakeOutcome => ({ ok: false, reason, report: false, issueNumber });
  const rule = reproRule(config, trigger);
  if (rule) return silent(rule);
  if (
    trigger.checkPermission &&
    !(await hasPermission(deps.github, deps.repo, trigger.actor, config.commands.minPermission))
  ) {
    return silent(
      `@${trigger.actor} lacks ${config.commands.minPermission} permission (or it could not be read)`,
    );
  }
  const b = budgets(config, deps.store, record.repo, deps.now);
  if ("error" in b) return { ok: false, reason: b.error as string, report: true, issueNumber };
  const issue = await deps.github.getIssue(deps.repo, issueNumber);
  const spec = ReproJobSpec.parse({
    kind: "repro",
    id: record.id,
    repo: {
      fullName: record.repo,
      ...(trigger.defaultBranch ? { defaultBranch: trigger.defaultBranch } : {}),
    },
    issueNumber,
    markdown: `# ${issue.title}\n\n${issue.body}`,
    runs: config.repro.runs,
    model: config.model.default,
    budget: reproBudget(config, b.remainingUsd),
  });
  return { ok: true, spec, issueNumber, headSha: null, lineage: null };
}

export async function intakeFix(
  record: JobRecord,
  trigger: FixTrigger,
  config: RetraceConfig,
  deps: { github: GitHubPort; repo: RepoId; store: JobStore; now: number; log?: string },
): Promise<IntakeOutcome> {
  let issueNumber = trigger.prNumber;
  const silent = (reason: string): IntakeOutcome => ({ ok: false, reason, report: false, issueNumber });
  const early = fixRule(config, { via: trigger.via, word: trigger.word, checkName: trigger.checkName });
  if (early) return silent(early);
  if (
    trigger.checkPermission &&
    !(await hasPermission(deps.github, deps.repo, trigger.actor, config.commands.minPermission))
  ) {
    return silent(
      `@${trigger.actor} lacks ${config.commands.minPermission} permission (or it could not be read)`,
    );
  }
  let headSha = trigger.headSha;
  let headBranch = trigger.headBranch;
  let logJobIds = trigger.actionsJobId === null ? [] : [trigger.actionsJobId];
  if (trigger.via === "command" && trigger.prNumber !== null) {
    const pull = await deps.github.getPull(deps.repo, trigger.prNumber);
    const fork = forkRule(record.repo, pull.headRepoFullName);
    if (fork) return { ok: false, reason: fork, report: true, issueNumber };
    headSha = pull.headSha;
    headBranch = pull.headRef;
    const failed = await deps.github.listFailedCheckRuns(deps.repo, pull.headSha);
    const relevant = failed.filter((c) => c.name !== "Retrace");
    if (relevant.length === 0) {
      return {
        ok: false,
        reason: "no check of the pull request's head commit has failed",
        report: true,
        issueNumber,
      };
    }
    logJobIds = relevant.flatMap((c) => (c.actionsJobId === null ? [] : [c.actionsJobId])).slice(0, 20);
  }
  if (!headSha || !headBranch) return silent("the failed commit or branch is unknown");
  const moot = newerCommitRule(headSha, headBranch, await deps.github.getBranchHead(deps.repo, headBranch));
  if (moot) return silent(moot);
  let lineage = headBranch;
  if (trigger.onRetraceBranch) {
    const parent = deps.store.findByPrBranch(record.repo, headBranch);
    lineage = parent?.lineage ?? headBranch;
    deps.store.update(record.id, { lineage });
    const capped = lineageRule(config, lineage, deps.store.countLineageFixes(record.repo, lineage));
    if (capped) return silent(capped);
  }
  const b = budgets(config, deps.store, record.repo, deps.now);
  if ("error" in b) return { ok: false, reason: b.error as string, report: true, issueNumber };
  let log = deps.log;
  if (log === undefined && logJobIds.length > 0) {
    try {
      log = await downloadJobLogs(deps.github, deps.repo, logJobIds);
    } catch {
      log = undefined; // the pipeline collects the failure itself when the log is gone
    }
  }
  const spec = FixJobSpec.parse({
    kind: "fix",
    id: record.id,
    repo: {
      fullName: record.repo,
      ...(trigger.defaultBranch ? { defaultBranch: trigger.defaultBranch } : {}),
    },
    headSha,
    headBranch,
    ...(log === undefined ? {} : { log }),
    ...(logJobIds.length > 0 ? { logJobIds } : {}),
    ...(config.fix.testCommand ? { testCommand: config.fix.testCommand } : {}),
    model: config.model.default,
    budget: fixBudget(config, b.remainingUsd),
  });
  issueNumber ??= null;
  return { ok: true, spec, issueNumber, headSha, lineage };
}
