/**
 * The intake of a job: everything between "a webhook arrived" and "the job may run" that needs the API.
 * Who asked (permission through the API, fail closed), what the repository's config says, whether a newer
 * commit makes the failure moot, the lineage cap and the daily budgets. Returns a spec, or why not.
 */
import { createHash } from "node:crypto";
import picomatch from "picomatch";
import { FixJobSpec, type JobSpec, ReproJobSpec } from "../core/job.ts";
import type { RetraceConfig } from "../config/schema.ts";
import type { GitHubPort, Permission, RepoId } from "../github/port.ts";
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
  if (trigger.via === "label" && trigger.word !== config.repro.label) {
    return silent(`label ${trigger.word} is not the configured repro.label (${config.repro.label})`);
  }
  if (
    trigger.via === "command" &&
    trigger.word !== config.commands.repro &&
    trigger.word !== config.commands.autofix
  ) {
    return silent(`${trigger.word} is not a configured command`);
  }
  if (!config.repro.enabled) return silent("repro.enabled is false in .github/retrace.yml");
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
    budget: { maxAttempts: config.repro.maxAttempts, maxUsd: Math.min(2, b.remainingUsd) },
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
  if (!config.fix.enabled) return silent("fix.enabled is false in .github/retrace.yml");
  if (trigger.via === "command" && trigger.word !== config.commands.autofix) {
    return silent(`${trigger.word} is not the configured autofix command on a pull request`);
  }
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
  let actionsJobId = trigger.actionsJobId;
  let checkName = trigger.checkName;
  if (trigger.via === "command" && trigger.prNumber !== null) {
    const pull = await deps.github.getPull(deps.repo, trigger.prNumber);
    if (pull.headRepoFullName !== record.repo) {
      return {
        ok: false,
        reason: "the pull request comes from a fork; Retrace only fixes branches of this repository",
        report: true,
        issueNumber,
      };
    }
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
    actionsJobId = relevant.find((c) => c.actionsJobId !== null)?.actionsJobId ?? null;
    checkName = relevant.map((c) => c.name).join(", ");
  }
  if (!headSha || !headBranch) return silent("the failed commit or branch is unknown");
  if (trigger.via === "check_run" && config.fix.checks !== "all") {
    const match = picomatch(config.fix.checks, { nocase: true });
    if (!checkName || !match(checkName)) return silent(`check ${checkName} is not in fix.checks`);
  }
  const head = await deps.github.getBranchHead(deps.repo, headBranch);
  if (head !== headSha) {
    return silent(
      `a newer commit (${head?.slice(0, 7) ?? "none"}) exists on ${headBranch}; the failure is moot`,
    );
  }
  let lineage = headBranch;
  if (trigger.onRetraceBranch) {
    const parent = deps.store.findByPrBranch(record.repo, headBranch);
    lineage = parent?.lineage ?? headBranch;
    deps.store.update(record.id, { lineage });
    const count = deps.store.countLineageFixes(record.repo, lineage);
    if (count > config.fix.lineageCap) {
      return silent(
        `fix.lineageCap (${config.fix.lineageCap}) reached for the lineage of ${lineage}: a fix never chases its own failures`,
      );
    }
  }
  const b = budgets(config, deps.store, record.repo, deps.now);
  if ("error" in b) return { ok: false, reason: b.error as string, report: true, issueNumber };
  let log = deps.log;
  if (log === undefined && actionsJobId !== null) {
    try {
      log = await deps.github.getJobLog(deps.repo, actionsJobId);
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
    ...(config.fix.testCommand ? { testCommand: config.fix.testCommand } : {}),
    model: config.model.default,
    budget: {
      maxAttempts: config.fix.maxAttempts,
      maxWallMs: config.fix.maxWallMs,
      maxTokens: config.fix.maxTokens,
      maxUsd: Math.min(config.fix.maxUsd, b.remainingUsd),
    },
  });
  issueNumber ??= null;
  return { ok: true, spec, issueNumber, headSha, lineage };
}
