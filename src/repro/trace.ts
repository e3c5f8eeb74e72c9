/**
 * trace.json of a reproduction: the pipeline's steps in the shared `Trace` format (src/core/trace.ts).
 * On the model path the loop engine's own trace is used and these steps are appended to it.
 */
import type { ReproJobSpec } from "../core/job.ts";
import { TRACE_VERSION, type Trace, type TraceStep } from "../core/trace.ts";
import type { ReproEvent } from "./ports.ts";
import type { ReproResult } from "./result.ts";

const zeroUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export function eventsToSteps(events: ReproEvent[], startedAt: number, firstIndex = 0): TraceStep[] {
  return events.map((e, i) => ({
    index: firstIndex + i,
    state: e.step,
    attempt: 1,
    model: null,
    startedAt: new Date(startedAt + e.atMs).toISOString(),
    endedAt: new Date(startedAt + e.atMs + e.durationMs).toISOString(),
    durationMs: e.durationMs,
    next: events[i + 1]?.step ?? null,
    input: "",
    output: e.summary,
    usage: zeroUsage,
    costUsd: 0,
    exchanges: [],
  }));
}

export function reproTrace(
  spec: ReproJobSpec,
  events: ReproEvent[],
  result: ReproResult,
  startedAt: number,
  modelTrace?: Trace,
): Trace {
  const steps = [
    ...(modelTrace?.steps ?? []),
    ...eventsToSteps(events, startedAt, modelTrace?.steps.length ?? 0),
  ];
  const endedAt = startedAt + result.durationMs;
  return {
    version: TRACE_VERSION,
    machine: "repro",
    job: spec,
    budget: spec.budget,
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
    durationMs: result.durationMs,
    steps,
    totals: modelTrace?.totals ?? { usage: zeroUsage, costUsd: 0, exchanges: 0, steps: steps.length },
    result: {
      reason: "completed",
      state: "verdict",
      attempts: result.attempts,
      failedAttempts: modelTrace?.result.failedAttempts ?? 0,
      output: result,
    },
  };
}
