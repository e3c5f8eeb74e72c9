/**
 * Property tests of the loop engine over random machines, behaviours and budgets (fast-check):
 * no run exceeds a bound, every run ends with a reason, and the trace's totals are the sums of its steps.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addUsage, billableTokens, zeroUsage } from "../../../src/core/budget.ts";
import { RetraceError } from "../../../src/core/errors.ts";
import { defineMachine, runMachine, type StateSpec } from "../../../src/core/loop.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { Trace } from "../../../src/core/trace.ts";
import type { Model } from "../../../src/core/ports/model.ts";

interface Call {
  input: number;
  output: number;
  cost: number;
  ms: number;
}
interface Action {
  advanceMs: number;
  calls: Call[];
  fail: null | "sandbox" | "internal" | "cancel";
  pick: number;
  feedback: boolean;
}

const callArb: fc.Arbitrary<Call> = fc.record({
  input: fc.integer({ min: 0, max: 6_000 }),
  output: fc.integer({ min: 0, max: 3_000 }),
  cost: fc.double({ min: 0, max: 0.6, noNaN: true }).map((x) => Math.round(x * 1e6) / 1e6),
  ms: fc.integer({ min: 0, max: 1_500 }),
});
const actionArb: fc.Arbitrary<Action> = fc.record({
  advanceMs: fc.integer({ min: 0, max: 4_000 }),
  calls: fc.array(callArb, { maxLength: 3 }),
  fail: fc.oneof(
    { weight: 12, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom("sandbox" as const, "internal" as const, "cancel" as const) },
  ),
  pick: fc.nat(),
  feedback: fc.boolean(),
});
const machineArb = fc.record({
  n: fc.integer({ min: 1, max: 5 }),
  attemptFlags: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
  edgeSeeds: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 5, maxLength: 5 }),
  actions: fc.array(actionArb, { minLength: 1, maxLength: 30 }),
  budget: fc.record({
    maxAttempts: fc.integer({ min: 1, max: 6 }),
    maxWallMs: fc.integer({ min: 1_000, max: 30_000 }),
    maxTokens: fc.integer({ min: 0, max: 30_000 }),
    maxUsd: fc.double({ min: 0, max: 3, noNaN: true }),
  }),
  withModel: fc.boolean(),
});

type Ctx = { steps: number };

type Params = typeof machineArb extends fc.Arbitrary<infer T> ? T : never;

function build(p: Params, clock: ManualClock, ctl: AbortController) {
  const names = Array.from({ length: p.n }, (_, i) => `s${i}`);
  const states: Record<string, StateSpec<Ctx, string>> = {
    done: { terminal: "completed" },
    gave_up: { terminal: "failed" },
  };
  let global = 0;
  names.forEach((name, i) => {
    // Forward edges, back edges only to s0 (which starts attempts), and the terminals: every cycle passes s0.
    const candidates = [...names.slice(i + 1), "s0", "done", "gave_up"];
    const picked = (p.edgeSeeds[i] as number[]).map((x) => candidates[x % candidates.length] as string);
    // Each state can move on to the next one, the last one can finish: a terminal state is reachable.
    const on = [...new Set([...picked, i === p.n - 1 ? "done" : (names[i + 1] as string)])];
    states[name] = {
      startsAttempt: i === 0 || p.attemptFlags[i],
      on,
      run: async (ctx, io) => {
        const a = p.actions[global++ % p.actions.length] as Action;
        clock.advance(a.advanceMs);
        for (const c of a.calls) {
          await io.model?.complete({ system: "s", messages: [{ role: "user", content: JSON.stringify(c) }] });
        }
        if (a.fail === "cancel") ctl.abort();
        if (a.fail === "sandbox") throw new RetraceError("sandbox", "sandbox broke");
        if (a.fail === "internal") throw new Error("bug");
        return {
          next: on[a.pick % on.length] as string,
          ctx: { steps: ctx.steps + 1 },
          ...(a.feedback
            ? { feedback: { step: name, errorType: "x", message: "failed", violations: [] } }
            : {}),
        };
      },
    };
  });
  return defineMachine<Ctx>()({ name: "random", initial: "s0", states: states as never });
}

/** A model that spends what the request says, never more output than the request's max_tokens (as the API does). */
function spendingModel(
  clock: ManualClock,
  calls: { usedBefore: number; maxTokens: number | undefined }[],
  used: () => number,
): Model {
  return {
    async complete(req) {
      const c = JSON.parse(req.messages[0]?.content as string) as Call;
      calls.push({ usedBefore: used(), maxTokens: req.maxTokens });
      clock.advance(c.ms);
      if (req.signal?.aborted) throw req.signal.reason;
      const output = Math.min(c.output, req.maxTokens ?? Number.POSITIVE_INFINITY);
      return {
        model: req.model ?? "m",
        text: "",
        toolCalls: [],
        stopReason: "end_turn",
        usage: { inputTokens: c.input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 },
        costUsd: c.cost,
      };
    },
  };
}

describe("loop engine properties", () => {
  it("no run exceeds a bound, every run ends with a reason, trace totals equal the sum of steps", async () => {
    const reasons = new Set<string>();
    await fc.assert(
      fc.asyncProperty(machineArb, async (p) => {
        const clock = new ManualClock();
        const ctl = new AbortController();
        const machine = build(p, clock, ctl);
        const calls: { usedBefore: number; maxTokens: number | undefined }[] = [];
        let tokensSoFar = 0;
        const model = spendingModel(clock, calls, () => tokensSoFar);
        const r = await runMachine(
          machine,
          { steps: 0 },
          {
            clock,
            signal: ctl.signal,
            budget: p.budget,
            model: p.withModel ? model : null,
            models: { fast: "fast", strong: "strong", escalateAfter: 1 },
            onStep: (s) => {
              tokensSoFar += billableTokens(s.usage);
            },
          },
        );
        const t = Trace.parse(r.trace);
        reasons.add(r.reason.startsWith("error:") ? "error" : r.reason);

        // Ends with a reason; terminal states exactly for completed/failed.
        expect(r.reason).toMatch(
          /^(completed|failed|cancelled|budget_exhausted:(attempts|time|tokens|dollars)|error:[a-z_]+)$/,
        );
        expect(t.result.reason).toBe(r.reason);
        expect(["done", "gave_up"].includes(r.state)).toBe(r.reason === "completed" || r.reason === "failed");

        // Attempts and steps bounded.
        expect(r.attempts).toBeLessThanOrEqual(p.budget.maxAttempts);
        expect(t.steps.length).toBeLessThanOrEqual((p.budget.maxAttempts + 1) * p.n);

        // Time: no step starts at or after the deadline; the run ends by the deadline.
        const start = Date.parse(t.startedAt);
        for (const s of t.steps) expect(Date.parse(s.startedAt)).toBeLessThan(start + p.budget.maxWallMs);
        expect(t.durationMs).toBeLessThanOrEqual(p.budget.maxWallMs);

        // Tokens and dollars: no model call starts once a bound is reached; each call's output cap fits what is
        // left; if the total ended above a bound, only the single call that crossed it did so, and the run
        // ended right there as budget_exhausted.
        const exchanges = t.steps.flatMap((s) => s.exchanges);
        let running = zeroUsage();
        let usd = 0;
        for (const e of exchanges) {
          expect(billableTokens(running)).toBeLessThan(p.budget.maxTokens);
          expect(usd).toBeLessThan(p.budget.maxUsd);
          expect(e.request.maxTokens ?? 0).toBeLessThanOrEqual(p.budget.maxTokens - billableTokens(running));
          running = addUsage(running, e.response?.usage ?? zeroUsage());
          usd += e.response?.costUsd ?? 0;
        }
        if (billableTokens(r.usage) > p.budget.maxTokens || r.costUsd > p.budget.maxUsd) {
          expect(r.reason).toMatch(/^budget_exhausted:(tokens|dollars)$/);
        }

        // Totals are the sums of the steps.
        const sum = t.steps.reduce((u, s) => addUsage(u, s.usage), zeroUsage());
        expect(t.totals.usage).toEqual(sum);
        expect(t.totals.usage).toEqual(r.usage);
        const costSum = t.steps.reduce((c, s) => Math.round((c + s.costUsd) * 1e6) / 1e6, 0);
        expect(t.totals.costUsd).toBe(costSum);
        expect(t.totals.costUsd).toBe(r.costUsd);
        expect(t.totals.exchanges).toBe(exchanges.length);
        expect(t.totals.steps).toBe(t.steps.length);
        for (const s of t.steps) {
          const ex = s.exchanges.reduce((u, e) => addUsage(u, e.response?.usage ?? zeroUsage()), zeroUsage());
          expect(s.usage).toEqual(ex);
        }
      }),
      { numRuns: 300 },
    );
    // The generator really reaches every way a run can end.
    expect([...reasons].sort()).toEqual([
      "budget_exhausted:attempts",
      "budget_exhausted:dollars",
      "budget_exhausted:time",
      "budget_exhausted:tokens",
      "cancelled",
      "completed",
      "error",
      "failed",
    ]);
  });
});
