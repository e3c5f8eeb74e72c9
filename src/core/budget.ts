/**
 * Budgets of a run: attempts, wall time, tokens and dollars. Whichever is reached first ends the run.
 * The meter is plain arithmetic over an injected clock; the loop engine asks it before every step and
 * every model call, and charges it after every model call.
 */
import type { Budget } from "./job.ts";
import type { Clock } from "./loop-clock.ts";
import { RetraceError } from "./errors.ts";

/** The four bounds, named as they appear in `budget_exhausted:<kind>`. */
export type BudgetKind = "attempts" | "time" | "tokens" | "dollars";

/** Tokens of one or more model calls, as the provider counted them. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const zeroUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/**
 * Tokens that count against `maxTokens`: everything the provider processed (cache reads and writes are
 * input tokens too; they are cheaper, and the dollar bound sees that).
 */
export function billableTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** Sums money in whole micro-dollars so totals equal the sum of their parts exactly. */
export function addUsd(a: number, b: number): number {
  return Math.round((a + b) * 1e6) / 1e6;
}

const orUnbounded = (n: unknown): number =>
  typeof n === "number" && !Number.isNaN(n) && n >= 0 ? n : Number.POSITIVE_INFINITY;

export class BudgetMeter {
  readonly startedAt: number;
  readonly deadline: number;
  private used: Usage = zeroUsage();
  private spentUsd = 0;
  private attemptsStarted = 0;

  constructor(
    readonly budget: Budget,
    private readonly clock: Clock,
  ) {
    this.startedAt = clock.now();
    this.deadline = this.startedAt + budget.maxWallMs;
  }

  get usage(): Usage {
    return { ...this.used };
  }
  get costUsd(): number {
    return this.spentUsd;
  }
  get attempts(): number {
    return this.attemptsStarted;
  }
  get tokens(): number {
    return billableTokens(this.used);
  }
  remainingMs(): number {
    return Math.max(0, this.deadline - this.clock.now());
  }
  remainingTokens(): number {
    return Math.max(0, this.budget.maxTokens - this.tokens);
  }

  /** The first bound that is already reached (time, tokens, dollars), or null. Attempts are checked on entry. */
  exhausted(): BudgetKind | null {
    if (this.clock.now() >= this.deadline) return "time";
    if (this.tokens >= this.budget.maxTokens) return "tokens";
    if (this.spentUsd >= this.budget.maxUsd) return "dollars";
    return null;
  }

  /** The first bound that has been *passed* (strictly more than allowed), or null. */
  overrun(): BudgetKind | null {
    if (this.tokens > this.budget.maxTokens) return "tokens";
    if (this.spentUsd > this.budget.maxUsd) return "dollars";
    return null;
  }

  /** Starts one more attempt; false when that would exceed `maxAttempts`. */
  startAttempt(): boolean {
    if (this.attemptsStarted >= this.budget.maxAttempts) return false;
    this.attemptsStarted += 1;
    return true;
  }

  /**
   * Adds one answer's usage. A count or cost that is not a non-negative number (a string, NaN, null, negative —
   * what a misbehaving endpoint may send) is counted as unbounded, so the job ends on that bound: added as it
   * was, it made the totals NaN or negative and the bounds never tripped (wave 16). Adapters refuse such answers
   * first; this holds for any Model.
   */
  charge(usage: Usage, costUsd: number): void {
    this.used = addUsage(this.used, {
      inputTokens: orUnbounded(usage.inputTokens),
      outputTokens: orUnbounded(usage.outputTokens),
      cacheReadTokens: orUnbounded(usage.cacheReadTokens),
      cacheWriteTokens: orUnbounded(usage.cacheWriteTokens),
    });
    this.spentUsd = addUsd(this.spentUsd, orUnbounded(costUsd));
  }
}

/** Thrown (by the metered model, or by a step) when a bound of the run is reached. Ends the run as `budget_exhausted:<bound>`. */
export class BudgetExhaustedError extends RetraceError {
  constructor(readonly bound: BudgetKind) {
    super("budget", `the job's ${bound} budget is exhausted`, {
      hint:
        bound === "attempts"
          ? "raise the attempts limit (`limits` in .github/retrace.yml), or give the job more context"
          : bound === "time"
            ? "raise the wall-time limit (`limits` in .github/retrace.yml), or lower the sandbox timeout"
            : bound === "tokens"
              ? "raise the token limit (`limits` in .github/retrace.yml), or narrow the context given to the model"
              : "raise the dollar limit (`limits` in .github/retrace.yml), or use a cheaper model",
    });
  }
}
