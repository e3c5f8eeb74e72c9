/**
 * The checks the one intake (./intake.ts) applies before a job may start, for the App and the Action alike, as
 * pure functions over the repository's config and what the event says. Each returns the reason to skip, or
 * null to go on; the async checks (permission, newer commit, lineage count, daily usage) feed their answers in.
 */
import { GlobError, globMatcher } from "../core/glob.ts";
import type { RetraceConfig } from "../config/schema.ts";
import type { HostLimits } from "../core/host-limits.ts";
import type { Budget } from "../core/job.ts";
import { BRANCH_PREFIX } from "../github/draft-pr.ts";

// biome-ignore lint/suspicious/noExplicitAny: webhook payloads are read defensively, field by field.
type Payload = any;

/** A bot account (GitHub Apps, Dependabot, …): bots never trigger Retrace. */
export function isBot(user: Payload): boolean {
  const login = typeof user?.login === "string" ? user.login : "";
  return user?.type === "Bot" || login.endsWith("[bot]");
}

/** How a job was asked for, as far as the config's switches and names are concerned. */
export type ReproAsk = { via: "label" | "command"; word: string };
export type FixAsk = {
  via: "check_run" | "workflow_run" | "command";
  word: string;
  checkName: string | null;
};

/** repro.enabled, and the label or command matches the configured one. */
export function reproRule(config: RetraceConfig, ask: ReproAsk): string | null {
  if (ask.via === "label" && ask.word !== config.repro.label) {
    return `label ${ask.word} is not the configured repro.label (${config.repro.label})`;
  }
  if (ask.via === "command" && ask.word !== config.commands.repro && ask.word !== config.commands.autofix) {
    return `${ask.word} is not a configured command`;
  }
  if (!config.repro.enabled) return "repro.enabled is false in .github/retrace.yml";
  return null;
}

/** fix.enabled, the autofix command, and fix.checks for failed checks and workflow runs. */
export function fixRule(config: RetraceConfig, ask: FixAsk): string | null {
  if (!config.fix.enabled) return "fix.enabled is false in .github/retrace.yml";
  if (ask.via === "command" && ask.word !== config.commands.autofix) {
    return `${ask.word} is not the configured autofix command on a pull request`;
  }
  if (ask.via !== "command" && config.fix.checks !== "all") {
    let match: (name: string) => boolean;
    try {
      match = globMatcher(config.fix.checks, { nocase: true });
    } catch (e) {
      if (e instanceof GlobError) return `fix.checks in .github/retrace.yml: ${e.message}`;
      throw e;
    }
    if (!ask.checkName || !match(ask.checkName)) return `check ${ask.checkName} is not in fix.checks`;
  }
  return null;
}

/**
 * The failed branch must live in the repository itself: a fork's branch name means nothing here (a fork's
 * `main` is not this `main`) and must never become a draft PR's base. Unknown head repository → refuse.
 */
export function forkRule(baseRepo: string, headRepo: string | null | undefined): string | null {
  if (typeof headRepo !== "string" || headRepo === "") {
    return "the head repository of the failure is unknown; Retrace only fixes branches of this repository";
  }
  if (headRepo.toLowerCase() !== baseRepo.toLowerCase()) {
    return `the failure is on a fork (${headRepo}); Retrace only fixes branches of this repository`;
  }
  return null;
}

/** Why a failure is moot because its branch has moved on, or null when the failed commit is still the head. */
export function newerCommitRule(failedSha: string, branch: string, branchHead: string | null): string | null {
  if (branchHead === failedSha) return null;
  return `a newer commit (${branchHead?.slice(0, 7) ?? "none"}) exists on ${branch}; the failure is moot`;
}

/** The head repository of a failed workflow run or check run, from its payload (null when it says none). */
export function headRepoOfRun(eventName: "workflow_run" | "check_run", payload: Payload): string | null {
  const base = payload?.repository?.full_name;
  if (eventName === "workflow_run") {
    const name = payload?.workflow_run?.head_repository?.full_name;
    return typeof name === "string" ? name : null;
  }
  // A check run names no head repository; its pull requests do (GitHub lists none for a fork's branch, and
  // then check_suite.head_branch is null too). Any pull request whose head repo differs from its base is a fork.
  const pulls: Payload[] = Array.isArray(payload?.check_run?.pull_requests)
    ? payload.check_run.pull_requests
    : [];
  for (const pr of pulls) {
    const head = pr?.head?.repo?.id;
    const baseId = pr?.base?.repo?.id;
    if (head === undefined || head !== baseId) {
      const fromUrl = /\/repos\/([^/]+\/[^/]+)$/.exec(String(pr?.head?.repo?.url ?? ""))?.[1];
      return fromUrl && fromUrl.toLowerCase() !== String(base).toLowerCase()
        ? fromUrl
        : `repository #${head}`;
    }
  }
  return typeof base === "string" ? base : null;
}

/** Retrace's own branches: a fix of a fix is capped per lineage (`fix.lineageCap`; 0 disables it). */
export function isRetraceBranch(branch: string): boolean {
  return branch.startsWith(BRANCH_PREFIX);
}

/** `fixes` counts the fixes already stacked on the lineage, this one included. */
export function lineageRule(config: RetraceConfig, lineage: string, fixes: number): string | null {
  if (fixes > config.fix.lineageCap) {
    return `fix.lineageCap (${config.fix.lineageCap}) reached for the lineage of ${lineage}: a fix never chases its own failures`;
  }
  return null;
}

/** What a repository spent today (UTC), on a surface that keeps count (the App's job store). */
export interface DailyUsage {
  jobs: number;
  usd: number;
}

/**
 * `limits.jobsPerDay` and `limits.usdPerDay`, each lowered to the operator's maximum (RETRACE_HOST_LIMITS
 * `jobsPerDay`, `usdPerDay`: a repository's own configuration never raises what the host spends): the reason to
 * refuse, or the dollars left today.
 */
export function dailyLimitRule(
  config: RetraceConfig,
  usage: DailyUsage,
  maxima: Pick<HostLimits, "jobsPerDay" | "usdPerDay">,
): { refuse: string } | { remainingUsd: number } {
  const jobsPerDay = Math.min(config.limits.jobsPerDay, maxima.jobsPerDay);
  const usdPerDay = Math.min(config.limits.usdPerDay, maxima.usdPerDay);
  const lowered = (asked: number, got: number, name: string) =>
    asked > got ? ` (lowered from ${asked} to the host's maximum, RETRACE_HOST_LIMITS ${name})` : "";
  if (usage.jobs > jobsPerDay) {
    return {
      refuse: `the daily job limit of this repository (limits.jobsPerDay = ${jobsPerDay}${lowered(config.limits.jobsPerDay, jobsPerDay, "jobsPerDay")}) is reached`,
    };
  }
  if (usage.usd >= usdPerDay) {
    return {
      refuse: `the daily model budget of this repository (limits.usdPerDay = $${usdPerDay}${lowered(config.limits.usdPerDay, usdPerDay, "usdPerDay")}) is spent ($${usage.usd.toFixed(2)})`,
    };
  }
  return { remainingUsd: usdPerDay - usage.usd };
}

/** What one job may spend whatever a repository asks (RETRACE_HOST_LIMITS `jobUsd`, `jobMinutes`, `jobTokens`). */
export type JobMaxima = Pick<HostLimits, "jobUsd" | "jobMinutes" | "jobTokens">;

/** Every operator maximum the intake applies: one job's (`JobMaxima`) and a repository's day (`dailyLimitRule`). */
export type IntakeMaxima = JobMaxima & Pick<HostLimits, "jobsPerDay" | "usdPerDay">;

/**
 * The one clamp of a job's budget, whoever asked for it (a repository's `repro.*`/`fix.*`, the Action's
 * `budget-usd`/`max-attempts` inputs, a dispatched spec): dollars, wall time and tokens lowered to the operator's
 * maxima for one job, dollars also to what is left today.
 */
export function clampBudget(
  asked: { maxAttempts: number; maxWallMs: number; maxTokens: number; maxUsd: number },
  remainingUsd: number,
  maxima: JobMaxima,
): Budget {
  return {
    maxAttempts: asked.maxAttempts,
    maxWallMs: Math.min(asked.maxWallMs, maxima.jobMinutes * 60_000),
    maxTokens: Math.min(asked.maxTokens, maxima.jobTokens),
    maxUsd: Math.min(asked.maxUsd, maxima.jobUsd, remainingUsd),
  };
}

/**
 * A reproduction's budget from `repro.*`, each lowered to the operator's maximum for one job, capped by the dollars
 * left today when the surface tracks them.
 */
export function reproBudget(config: RetraceConfig, remainingUsd: number, maxima: JobMaxima): Budget {
  return clampBudget(config.repro, remainingUsd, maxima);
}

/**
 * A fix's budget from `fix.*`, each lowered to the operator's maximum for one job, capped by the dollars left today
 * when the surface tracks them.
 */
export function fixBudget(config: RetraceConfig, remainingUsd: number, maxima: JobMaxima): Budget {
  return clampBudget(config.fix, remainingUsd, maxima);
}
