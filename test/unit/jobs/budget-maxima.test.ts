/**
 * A repository's own budgets (`.github/retrace.yml`) against the operator's maxima (RETRACE_HOST_LIMITS `jobUsd`,
 * `jobMinutes`, `jobTokens`, `usdPerDay`, `jobsPerDay`; twenty-eighth red team: a config asking $1e9, 1e12 ms, 1e12
 * tokens or 1e9 jobs a day got them). Counter-examples: the defaults and a repository asking less than the maxima
 * keep what they ask; an operator who raises a maximum gets it.
 */
import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { DEFAULT_HOST_LIMITS, parseHostLimits } from "../../../src/core/host-limits.ts";
import { dailyLimitRule, fixBudget, reproBudget } from "../../../src/jobs/intake-rules.ts";

const greedy = parseRepoConfig(
  [
    "repro:",
    "  maxUsd: 1000000000",
    "  maxWallMs: 1000000000000",
    "  maxTokens: 1000000000000",
    "fix:",
    "  maxUsd: 1000000000",
    "  maxWallMs: 1000000000000",
    "  maxTokens: 1000000000000",
    "limits:",
    "  usdPerDay: 1000000000",
    "  jobsPerDay: 1000000000",
    "",
  ].join("\n"),
);

describe("a repository's budgets are lowered to the operator's maxima", () => {
  it.each([
    ["repro", reproBudget],
    ["fix", fixBudget],
  ] as const)("%s: dollars, wall time and tokens of one job", (_kind, budget) => {
    const b = budget(greedy, Number.POSITIVE_INFINITY, DEFAULT_HOST_LIMITS);
    expect(b.maxUsd).toBe(DEFAULT_HOST_LIMITS.jobUsd);
    expect(b.maxWallMs).toBe(DEFAULT_HOST_LIMITS.jobMinutes * 60_000);
    expect(b.maxTokens).toBe(DEFAULT_HOST_LIMITS.jobTokens);
  });

  it("the daily limits: jobs refused past the host's count, dollars left from the host's", () => {
    const refused = dailyLimitRule(greedy, { jobs: 100_000, usd: 0 }, DEFAULT_HOST_LIMITS);
    expect(refused).toHaveProperty("refuse");
    expect((refused as { refuse: string }).refuse).toContain("RETRACE_HOST_LIMITS jobsPerDay");
    expect(dailyLimitRule(greedy, { jobs: 0, usd: 5_000 }, DEFAULT_HOST_LIMITS)).toHaveProperty("refuse");
    expect(dailyLimitRule(greedy, { jobs: 0, usd: 40 }, DEFAULT_HOST_LIMITS)).toEqual({
      remainingUsd: DEFAULT_HOST_LIMITS.usdPerDay - 40,
    });
  });

  it("keeps what the defaults and a modest repository ask (below the maxima)", () => {
    const defaults = parseRepoConfig("");
    expect(fixBudget(defaults, Number.POSITIVE_INFINITY, DEFAULT_HOST_LIMITS)).toEqual({
      maxAttempts: defaults.fix.maxAttempts,
      maxWallMs: defaults.fix.maxWallMs,
      maxTokens: defaults.fix.maxTokens,
      maxUsd: defaults.fix.maxUsd,
    });
    const modest = parseRepoConfig(
      "fix:\n  maxUsd: 7.5\n  maxWallMs: 3600000\nlimits:\n  usdPerDay: 60\n  jobsPerDay: 200\n",
    );
    const b = fixBudget(modest, 12, DEFAULT_HOST_LIMITS);
    expect([b.maxUsd, b.maxWallMs]).toEqual([7.5, 3_600_000]);
    expect(dailyLimitRule(modest, { jobs: 199, usd: 10 }, DEFAULT_HOST_LIMITS)).toEqual({ remainingUsd: 50 });
    expect(dailyLimitRule(modest, { jobs: 201, usd: 10 }, DEFAULT_HOST_LIMITS)).toHaveProperty("refuse");
  });

  it("an operator who raises a maximum lets a repository ask for more", () => {
    const raised = parseHostLimits("jobUsd=500,jobMinutes=600,usdPerDay=10000");
    const b = fixBudget(greedy, Number.POSITIVE_INFINITY, raised);
    expect([b.maxUsd, b.maxWallMs]).toEqual([500, 600 * 60_000]);
    expect(dailyLimitRule(greedy, { jobs: 0, usd: 5_000 }, raised)).toEqual({ remainingUsd: 5_000 });
  });
});
