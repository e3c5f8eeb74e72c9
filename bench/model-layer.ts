/**
 * Model layer + loop engine figures, against the local Messages API server (real SDK, real HTTP):
 *  1. a sample trace: tokens (incl. cache read/write) and cost accounted per step, totals = sum of steps;
 *  2. retry behaviour: per scenario, requests made, delays planned (retry-after or backoff) and observed.
 * One JSON object per line; the last line has the headline figures.
 */
import { z } from "zod";
import { billableTokens } from "../src/core/budget.ts";
import { defineMachine, runMachine } from "../src/core/loop.ts";
import { createAnthropicModel, type RetryEvent } from "../src/llm/anthropic.ts";
import { apiError, type FakeReply, message, startFakeAnthropic } from "../test/support/fake-anthropic.ts";

const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const server = await startFakeAnthropic();

// ---- 1. sample trace --------------------------------------------------------------------------------
const Edit = z.object({ path: z.string(), search: z.string(), replace: z.string() });
const tools = [{ name: "propose_edit", description: "one edit", input: Edit }];
const context = "repository context ".repeat(600);
type Ctx = { tries: number };
const machine = defineMachine<Ctx>()({
  name: "sample-fix",
  initial: "triage",
  states: {
    triage: { on: ["root_cause"], run: (ctx) => ({ next: "root_cause", ctx }) },
    root_cause: {
      startsAttempt: true,
      on: ["propose"],
      run: async (ctx, io) => {
        await io.model?.complete({
          system: "Find the root cause.",
          context,
          messages: [{ role: "user", content: "why?" }],
          maxTokens: 1024,
        });
        return { next: "propose", ctx };
      },
    },
    propose: {
      on: ["verify"],
      run: async (ctx, io) => {
        await io.model?.complete({
          system: "Propose an edit.",
          context,
          messages: [
            { role: "user", content: io.feedback ? `last try failed: ${io.feedback.message}` : "fix it" },
          ],
          tools,
          toolChoice: { type: "tool", name: "propose_edit" },
          maxTokens: 2048,
        });
        return { next: "verify", ctx: { tries: ctx.tries + 1 } };
      },
    },
    verify: {
      on: ["root_cause", "done"],
      run: (ctx) =>
        ctx.tries >= 2
          ? { next: "done", ctx }
          : {
              next: "root_cause",
              ctx,
              feedback: {
                step: "verify",
                errorType: "test_failed",
                message: "test_sum still fails",
                violations: [],
              },
            },
    },
    done: { terminal: "completed" },
  },
});
const edit = { path: "src/sum.ts", search: "a - b", replace: "a + b" };
server.reply(
  message({
    model: "claude-haiku-4-5-20251001",
    text: "sign error",
    usage: {
      input_tokens: 412,
      output_tokens: 180,
      cache_creation_input_tokens: 3_650,
      cache_read_input_tokens: 0,
    },
  }),
  message({
    model: "claude-haiku-4-5-20251001",
    toolUses: [{ name: "propose_edit", input: edit }],
    usage: {
      input_tokens: 95,
      output_tokens: 140,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 3_650,
    },
  }),
  message({
    model: "claude-opus-4-5-20251101",
    text: "also the rounding",
    usage: {
      input_tokens: 520,
      output_tokens: 260,
      cache_creation_input_tokens: 3_650,
      cache_read_input_tokens: 0,
    },
  }),
  message({
    model: "claude-opus-4-5-20251101",
    toolUses: [{ name: "propose_edit", input: edit }],
    usage: {
      input_tokens: 130,
      output_tokens: 150,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 3_650,
    },
  }),
);
const model = createAnthropicModel({ apiKey: "sk-ant-bench-0000000000", baseURL: server.url });
const run = await runMachine(
  machine,
  { tries: 0 },
  { model, models: { fast: "claude-haiku-4-5", strong: "claude-opus-4-5", escalateAfter: 1 } },
);
for (const s of run.trace.steps) {
  out({
    kind: "step",
    step: s.state,
    attempt: s.attempt,
    model: s.model,
    exchanges: s.exchanges.length,
    ...s.usage,
    costUsd: s.costUsd,
  });
}
const sumCost = Math.round(run.trace.steps.reduce((c, s) => c + s.costUsd, 0) * 1e6) / 1e6;
out({
  kind: "trace_totals",
  reason: run.reason,
  ...run.trace.totals.usage,
  costUsd: run.trace.totals.costUsd,
  sumOfStepsCostUsd: sumCost,
});

// ---- 2. retries ------------------------------------------------------------------------------------
const scenarios: { name: string; replies: FakeReply[]; timeoutMs?: number }[] = [
  {
    name: "429 retry-after-ms 250",
    replies: [apiError(429, { "retry-after-ms": "250" }), message({ text: "ok" })],
  },
  {
    name: "429 retry-after 1 (s)",
    replies: [apiError(429, { "retry-after": "1" }), message({ text: "ok" })],
  },
  { name: "529 overloaded x2", replies: [apiError(529), apiError(529), message({ text: "ok" })] },
  { name: "500 then ok", replies: [apiError(500), message({ text: "ok" })] },
  { name: "malformed JSON then ok", replies: [{ raw: '{"type":"mess' }, message({ text: "ok" })] },
  {
    name: "hung connection (timeout 400 ms) then ok",
    replies: [{ hang: true }, message({ text: "ok" })],
    timeoutMs: 400,
  },
  {
    name: "500 forever (gives up)",
    replies: [apiError(500), apiError(500), apiError(500), apiError(500), apiError(500)],
  },
  { name: "429 retry-after 3600 (refused at once)", replies: [apiError(429, { "retry-after": "3600" })] },
];
let honoured = true;
let worstOverrunMs = 0;
let totalRequests = 0;
for (const sc of scenarios) {
  server.requests.length = 0;
  server.reply(...sc.replies);
  const events: RetryEvent[] = [];
  const m = createAnthropicModel({
    apiKey: "sk-ant-bench-0000000000",
    baseURL: server.url,
    retry: {
      maxRetries: 4,
      baseDelayMs: 200,
      maxDelayMs: 5_000,
      maxTotalMs: 30_000,
      timeoutMs: sc.timeoutMs ?? 5_000,
    },
    onRetry: (e) => events.push(e),
  });
  const t0 = Date.now();
  let outcome: string;
  try {
    outcome = `answered: ${(await m.complete({ system: "s", messages: [{ role: "user", content: "x" }] })).text}`;
  } catch (e) {
    outcome = `error: ${(e as Error).message}`;
  }
  const at = server.requests.map((r) => r.at);
  const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
  // The gap between requests includes the wait plus the previous request's own time (e.g. a timeout).
  const observedWaits = gaps.map((g, i) => (i === 0 && sc.timeoutMs ? g - sc.timeoutMs : g));
  events.forEach((e, i) => {
    const seen = observedWaits[i] ?? 0;
    if (seen + 5 < e.delayMs) honoured = false;
    worstOverrunMs = Math.max(worstOverrunMs, seen - e.delayMs);
  });
  totalRequests += at.length;
  // Each scenario scripts exactly the replies it needs: fewer requests means the retry loop stopped doing
  // the work this bench measures (the last scenario is refused before any retry, by design).
  if (at.length !== sc.replies.length) {
    process.stderr.write(
      `model-layer bench: "${sc.name}" sent ${at.length} requests for ${sc.replies.length} scripted replies\n`,
    );
    process.exitCode = 1;
  }
  out({
    kind: "retry",
    scenario: sc.name,
    requests: at.length,
    plannedDelaysMs: events.map((e) => e.delayMs),
    fromRetryAfter: events.map((e) => e.fromHeader),
    observedWaitsMs: observedWaits,
    elapsedMs: Date.now() - t0,
    outcome: outcome.slice(0, 160),
  });
}
await server.close();
if (run.trace.steps.length !== 7 || sumCost !== run.trace.totals.costUsd || !honoured) {
  process.stderr.write(
    `model-layer bench: the sample trace has ${run.trace.steps.length} steps (want 7), totals ${sumCost === run.trace.totals.costUsd ? "match" : "do not match"} the steps, delays ${honoured ? "" : "not "}honoured\n`,
  );
  process.exitCode = 1;
}
out({
  kind: "headline",
  sampleSteps: run.trace.steps.length,
  sampleTokens: billableTokens(run.trace.totals.usage),
  sampleCostUsd: run.trace.totals.costUsd,
  totalsEqualSumOfSteps: sumCost === run.trace.totals.costUsd,
  retryScenarios: scenarios.length,
  requestsToFakeServer: totalRequests,
  everyDelayHonoured: honoured,
  worstExtraWaitMs: worstOverrunMs,
});
