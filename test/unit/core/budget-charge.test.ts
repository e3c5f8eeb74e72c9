/**
 * `BudgetMeter.charge` on counts that are not counts (wave 16): a string, NaN, null or a negative count or cost
 * from any Model ends the job on its bound instead of making the totals NaN or negative, which no bound trips.
 */
import { describe, expect, it } from "vitest";
import { BudgetMeter } from "../../../src/core/budget.ts";
import { Budget } from "../../../src/core/job.ts";
import type { Clock } from "../../../src/core/loop-clock.ts";

const clock: Clock = { now: () => 0, setTimer: () => () => {} };
const meter = () => new BudgetMeter(Budget.parse({ maxTokens: 100, maxUsd: 1 }), clock);
const usage = (n: unknown) =>
  ({ inputTokens: n, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }) as never;

describe("BudgetMeter.charge", () => {
  it("honest counts are added as they are and end the job only at its bound", () => {
    const m = meter();
    m.charge(usage(49), 0.1);
    expect(m.tokens).toBe(50);
    expect(m.exhausted()).toBeNull();
    m.charge(usage(49), 0.1);
    expect(m.exhausted()).toBe("tokens");
  });

  it.each([["many"], [Number.NaN], [null], [-1e15], [undefined]])("a count of %s ends the job", (n) => {
    const m = meter();
    m.charge(usage(n), 0);
    expect(m.exhausted()).toBe("tokens");
  });

  it.each([[Number.NaN], [-5], ["1"]])("a cost of %s ends the job", (usd) => {
    const m = meter();
    m.charge(usage(1), usd as number);
    expect(m.exhausted()).toBe("dollars");
  });
});
