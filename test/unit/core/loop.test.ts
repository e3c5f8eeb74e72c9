import { describe, expect, it } from "vitest";
import { BudgetExhaustedError } from "../../../src/core/budget.ts";
import { RetraceError } from "../../../src/core/errors.ts";
import { defineMachine, MachineDefinitionError, runMachine } from "../../../src/core/loop.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { Trace } from "../../../src/core/trace.ts";
import type { Model, ModelRequest, ModelResponse } from "../../../src/core/ports/model.ts";

type Ctx = { tries: number; seen: string[] };

/** A model that answers with fixed usage and records requests. */
function countingModel(perCall = { input: 100, output: 50 }, costUsd = 0.01) {
  const requests: ModelRequest[] = [];
  const model: Model = {
    async complete(req): Promise<ModelResponse> {
      requests.push(req);
      return {
        model: req.model ?? "m",
        text: `answer ${requests.length}`,
        toolCalls: [],
        stopReason: "end_turn",
        usage: {
          inputTokens: perCall.input,
          outputTokens: perCall.output,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
        costUsd,
      };
    },
  };
  return { model, requests };
}

/** propose → check → (propose)* until `succeedOn` tries, like the fix loop. */
function proposeCheck(succeedOn: number) {
  return defineMachine<Ctx>()({
    name: "toy",
    initial: "propose",
    states: {
      propose: {
        startsAttempt: true,
        on: ["check"],
        run: async (ctx, io) => {
          const a = await io.model?.complete({ system: "s", messages: [{ role: "user", content: "go" }] });
          const fbNote = io.feedback ? `fb:${io.feedback.errorType}@${io.feedback.step}` : "fb:none";
          return {
            next: "check",
            ctx: { tries: ctx.tries + 1, seen: [...ctx.seen, `${a?.text}|${fbNote}|${io.modelName}`] },
          };
        },
      },
      check: {
        on: ["propose", "done"],
        run: (ctx) =>
          ctx.tries >= succeedOn
            ? { next: "done", ctx }
            : {
                next: "propose",
                ctx,
                feedback: {
                  step: "check",
                  errorType: "test_failed",
                  message: `try ${ctx.tries} failed`,
                  violations: [],
                },
              },
      },
      done: { terminal: "completed" },
    },
    result: (ctx, end) => ({ tries: ctx.tries, reason: end.reason }),
  });
}

describe("defineMachine", () => {
  it("exposes the transition table", () => {
    expect(proposeCheck(1).table).toEqual({ propose: ["check"], check: ["propose", "done"], done: [] });
  });
  it("rejects unknown targets, missing run and unreachable terminals", () => {
    expect(() =>
      defineMachine<Ctx>()({
        name: "bad",
        initial: "a",
        // @ts-expect-error -- "nowhere" is not a state
        states: { a: { on: ["nowhere"], run: (ctx) => ({ next: "a", ctx }) }, z: { terminal: "completed" } },
      }),
    ).toThrow(/may move to "nowhere"/);
    expect(() =>
      defineMachine<Ctx>()({
        name: "bad",
        initial: "a",
        states: { a: { on: ["a"] }, z: { terminal: "completed" } },
      }),
    ).toThrow(/has no run/);
    expect(() =>
      defineMachine<Ctx>()({
        name: "bad",
        initial: "a",
        states: { a: { on: ["a"], run: (ctx) => ({ next: "a", ctx }) }, z: { terminal: "completed" } },
      }),
    ).toThrow(MachineDefinitionError);
  });
  it("rejects a cycle without an attempt state (it could loop forever)", () => {
    expect(() =>
      defineMachine<Ctx>()({
        name: "spin",
        initial: "a",
        states: {
          a: { on: ["b"], run: (ctx) => ({ next: "b", ctx }) },
          b: { on: ["a", "z"], run: (ctx) => ({ next: "a", ctx }) },
          z: { terminal: "completed" },
        },
      }),
    ).toThrow(
      'machine "spin": the cycle a → b → a has no state with startsAttempt, so a run could loop forever',
    );
  });
});

describe("runMachine", () => {
  it("completes, hands feedback of attempt N to attempt N+1 and escalates after failures", async () => {
    const { model, requests } = countingModel();
    const r = await runMachine(
      proposeCheck(3),
      { tries: 0, seen: [] },
      {
        model,
        models: { fast: "fast-1", strong: "strong-1", escalateAfter: 2 },
        clock: new ManualClock(),
      },
    );
    expect(r.reason).toBe("completed");
    expect(r.attempts).toBe(3);
    expect(r.failedAttempts).toBe(2);
    expect(r.ctx.seen).toEqual([
      "answer 1|fb:none|fast-1",
      "answer 2|fb:test_failed@check|fast-1",
      "answer 3|fb:test_failed@check|strong-1",
    ]);
    expect(requests.map((q) => q.model)).toEqual(["fast-1", "fast-1", "strong-1"]);
    expect(requests.map((q) => q.meta)).toEqual([
      { step: "propose", attempt: 1 },
      { step: "propose", attempt: 2 },
      { step: "propose", attempt: 3 },
    ]);
    expect(r.output).toEqual({ tries: 3, reason: "completed" });
    const trace = Trace.parse(r.trace);
    expect(trace.steps.map((s) => `${s.state}->${s.next}`)).toEqual([
      "propose->check",
      "check->propose",
      "propose->check",
      "check->propose",
      "propose->check",
      "check->done",
    ]);
    expect(trace.totals.usage.inputTokens).toBe(300);
    expect(trace.totals.costUsd).toBeCloseTo(0.03, 10);
    expect(trace.steps[0]?.exchanges[0]?.response?.text).toBe("answer 1");
    expect(trace.steps[1]?.feedback?.message).toBe("try 1 failed");
  });

  it("ends with budget_exhausted:attempts when the attempts run out", async () => {
    const r = await runMachine(proposeCheck(10), { tries: 0, seen: [] }, { budget: { maxAttempts: 2 } });
    expect(r.reason).toBe("budget_exhausted:attempts");
    expect(r.attempts).toBe(2);
    expect(r.state).toBe("propose");
    expect(r.error?.hint).toMatch(/attempts/);
  });

  it("ends with budget_exhausted:tokens and never calls the model past the bound", async () => {
    const { model, requests } = countingModel({ input: 600, output: 400 });
    const r = await runMachine(
      proposeCheck(10),
      { tries: 0, seen: [] },
      {
        model,
        models: { fast: "f" },
        budget: { maxTokens: 2_000, maxAttempts: 10 },
      },
    );
    expect(r.reason).toBe("budget_exhausted:tokens");
    expect(requests).toHaveLength(2);
    expect(r.usage.inputTokens + r.usage.outputTokens).toBe(2_000);
    // The output cap sent to the model never exceeds what is left.
    expect(requests.map((q) => q.maxTokens)).toEqual([2_000, 1_000]);
  });

  it("ends with budget_exhausted:dollars", async () => {
    const { model } = countingModel({ input: 1, output: 1 }, 0.75);
    const r = await runMachine(
      proposeCheck(10),
      { tries: 0, seen: [] },
      {
        model,
        models: { fast: "f" },
        budget: { maxUsd: 1, maxAttempts: 10 },
      },
    );
    expect(r.reason).toBe("budget_exhausted:dollars");
    expect(r.costUsd).toBe(1.5);
  });

  it("stops a step that outlives the wall-time budget, at the deadline, and aborts its signal", async () => {
    const clock = new ManualClock();
    let aborted = false;
    const m = defineMachine<{ n: number }>()({
      name: "slow",
      initial: "work",
      states: {
        work: {
          on: ["done"],
          run: (ctx, io) =>
            new Promise((resolve) => {
              io.signal.addEventListener("abort", () => {
                aborted = true;
              });
              clock.advance(5_000);
              setTimeout(() => resolve({ next: "done", ctx }), 5);
            }),
        },
        done: { terminal: "completed" },
      },
    });
    const r = await runMachine(m, { n: 0 }, { clock, budget: { maxWallMs: 2_000 } });
    expect(r.reason).toBe("budget_exhausted:time");
    expect(aborted).toBe(true);
    expect(r.trace.durationMs).toBe(2_000);
    expect(r.trace.steps[0]?.durationMs).toBe(2_000);
  });

  /** One state that throws `err`. */
  const failing = (err: unknown) =>
    defineMachine<null>()({
      name: "e",
      initial: "a",
      states: {
        a: {
          on: ["z"],
          run: () => {
            throw err;
          },
        },
        z: { terminal: "completed" },
      },
    });

  it("maps errors to error:<kind> and cancellation to cancelled", async () => {
    expect((await runMachine(failing(new RetraceError("sandbox", "boom")), null)).reason).toBe(
      "error:sandbox",
    );
    expect((await runMachine(failing(new TypeError("x is undefined")), null)).reason).toBe("error:internal");
    expect((await runMachine(failing(new BudgetExhaustedError("dollars")), null)).reason).toBe(
      "budget_exhausted:dollars",
    );
    const ctl = new AbortController();
    const m = defineMachine<null>()({
      name: "c",
      initial: "a",
      states: {
        a: { on: ["z"], run: () => new Promise<never>(() => ctl.abort()) },
        z: { terminal: "completed" },
      },
    });
    const r = await runMachine(m, null, { signal: ctl.signal });
    expect(r.reason).toBe("cancelled");
  });

  it("keeps what a failing step threw, as thrown, beside the trace's record of it", async () => {
    const thrown = new TypeError("x is undefined");
    const r = await runMachine(failing(thrown), null);
    expect(r.cause).toBe(thrown);
    expect(r.trace.steps[0]?.error).toMatchObject({ kind: "internal", message: "x is undefined" });
    expect(JSON.stringify(r.trace)).not.toContain("cause");
  });

  it("runs a free step under a zero dollar budget without a model, and stops at the first step that may spend", async () => {
    const { model, requests } = countingModel();
    const seen: (string | null)[] = [];
    const m = defineMachine<null>()({
      name: "f",
      initial: "read",
      states: {
        read: {
          free: true,
          on: ["ask"],
          run: (ctx, io) => {
            seen.push(io.model ? "model" : null);
            return { next: "ask", ctx };
          },
        },
        ask: {
          startsAttempt: true,
          on: ["z"],
          run: async (ctx, io) => {
            await io.model?.complete({ system: "s", messages: [{ role: "user", content: "go" }] });
            return { next: "z", ctx };
          },
        },
        z: { terminal: "completed" },
      },
    });
    const r = await runMachine(m, null, { model, models: { fast: "f" }, budget: { maxUsd: 0 } });
    expect(seen).toEqual([null]);
    expect(r.trace.steps.map((s) => [s.state, s.model])).toEqual([["read", null]]);
    expect(r.reason).toBe("budget_exhausted:dollars");
    expect(requests).toHaveLength(0);
  });

  it("treats a transition outside the table as error:internal", async () => {
    const m = defineMachine<null>()({
      name: "t",
      initial: "a",
      states: {
        a: { on: ["b"], run: (ctx) => ({ next: "z" as "b", ctx }) },
        b: { on: ["z"], run: (ctx) => ({ next: "z", ctx }) },
        z: { terminal: "failed" },
      },
    });
    const r = await runMachine(m, null);
    expect(r.reason).toBe("error:internal");
    expect(r.error?.message).toMatch(/returned next "z"/);
  });

  it("redacts secrets in the trace", async () => {
    const redactor = new Redactor(["super-secret-value"]);
    const { model } = countingModel();
    const m = defineMachine<{ s: string }>()({
      name: "r",
      initial: "a",
      states: {
        a: {
          on: ["z"],
          run: async (ctx, io) => {
            await io.model?.complete({
              system: `key ${ctx.s}`,
              messages: [{ role: "user", content: ctx.s }],
            });
            return { next: "z", ctx };
          },
        },
        z: { terminal: "completed" },
      },
    });
    const r = await runMachine(m, { s: "super-secret-value" }, { model, models: { fast: "f" }, redactor });
    expect(JSON.stringify(r.trace)).not.toContain("super-secret-value");
    expect(r.trace.steps[0]?.exchanges[0]?.request.system).toBe("key [REDACTED:secret]");
  });
});

describe("runMachine, calls in flight when a step is stopped", () => {
  it("records them as stopped and never charges them after the run ended", async () => {
    const clock = new ManualClock();
    let release: (() => void) | undefined;
    const slowModel: Model = {
      complete: (req) =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              model: req.model ?? "m",
              text: "late",
              toolCalls: [],
              stopReason: "end_turn",
              usage: { inputTokens: 1000, outputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 },
              costUsd: 1,
            });
          clock.advance(10_000);
        }),
    };
    const m = defineMachine<null>()({
      name: "late",
      initial: "a",
      states: {
        a: {
          on: ["z"],
          run: async (ctx, io) => {
            await io.model?.complete({ system: "s", messages: [] });
            return { next: "z", ctx };
          },
        },
        z: { terminal: "completed" },
      },
    });
    const r = await runMachine(m, null, {
      clock,
      model: slowModel,
      models: { fast: "f" },
      budget: { maxWallMs: 5_000 },
      settleMs: 20,
    });
    expect(r.reason).toBe("budget_exhausted:time");
    expect(r.trace.steps[0]?.error?.message).toMatch(/did not finish within 20 ms of being stopped/);
    const before = JSON.stringify(r.trace);
    release?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(JSON.stringify(r.trace)).toBe(before);
    expect(r.trace.totals.usage.inputTokens).toBe(0);
    expect(r.trace.steps[0]?.exchanges[0]?.error?.message).toMatch(
      /stopped before the call returned: the job's time budget/,
    );
    expect(r.trace.steps[0]?.exchanges[0]?.durationMs).toBe(5_000);
  });
});

describe("runMachine, clean-up of a stopped step", () => {
  it("waits for a stopped step to finish its clean-up before the run ends", async () => {
    const clock = new ManualClock();
    let cleanedUp = false;
    const m = defineMachine<null>()({
      name: "cleanup",
      initial: "work",
      states: {
        work: {
          on: ["done"],
          run: (ctx, io) =>
            new Promise((resolve) => {
              io.signal.addEventListener("abort", () => {
                // Like a sandbox run: the abort kills the container, whose removal takes a moment.
                setTimeout(() => {
                  cleanedUp = true;
                  resolve({ next: "done", ctx });
                }, 30);
              });
              clock.advance(5_000);
            }),
        },
        done: { terminal: "completed" },
      },
    });
    const r = await runMachine(m, null, { clock, budget: { maxWallMs: 1_000 } });
    expect(r.reason).toBe("budget_exhausted:time");
    expect(cleanedUp).toBe(true);
    expect(r.trace.steps[0]?.error?.message ?? "").not.toMatch(/did not finish/);
  });
});
