/**
 * Replay end to end with a small toy pipeline: record a run with the scripted model, write its trace as JSON,
 * replay it through runJob, and get the same result; change the pipeline and get told where it diverged.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { defineMachine, runMachine } from "../../../src/core/loop.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { main } from "../../../src/cli/main.ts";
import { replayTrace } from "../../../src/jobs/replay.ts";
import {
  type JobPorts,
  type JobRun,
  PipelineUnavailableError,
  pipelines,
  runJob,
} from "../../../src/jobs/run-job.ts";
import { ReplayModel } from "../../../src/llm/replay.ts";
import { ScriptedModel } from "../../../src/llm/scripted.ts";

const Guess = z.object({ script: z.string().min(1) });

/** A toy repro pipeline: ask the model for a script with a tool, "run" it (pure), refine once on failure. */
function toyPipeline(variant: { toolName?: string; threshold?: number } = {}) {
  const toolName = variant.toolName ?? "write_script";
  const machine = defineMachine<{ report: string; script: string | null; ok: boolean }>()({
    name: "toy-repro",
    initial: "extract",
    states: {
      extract: {
        startsAttempt: true,
        on: ["evaluate"],
        run: async (ctx, io) => {
          const prompt = io.feedback ? `previous failed: ${io.feedback.message}` : ctx.report;
          const a = await io.model?.complete({
            system: "write a script",
            context: ctx.report,
            messages: [{ role: "user", content: prompt }],
            tools: [{ name: toolName, description: "the script", input: Guess }],
            toolChoice: { type: "tool", name: toolName },
          });
          const input = a?.toolCalls[0]?.input as z.infer<typeof Guess> | undefined;
          return { next: "evaluate", ctx: { ...ctx, script: input?.script ?? null } };
        },
      },
      evaluate: {
        on: ["extract", "done"],
        run: (ctx) =>
          (ctx.script?.length ?? 0) >= (variant.threshold ?? 10)
            ? { next: "done", ctx: { ...ctx, ok: true } }
            : {
                next: "extract",
                ctx,
                feedback: {
                  step: "evaluate",
                  errorType: "too_short",
                  message: `script "${ctx.script}" is too short`,
                  violations: [],
                },
              },
      },
      done: { terminal: "completed" },
    },
    result: (ctx, end) => ({
      verdict: ctx.ok ? "REPRODUCED" : "NOT_REPRODUCED",
      script: ctx.script,
      reason: end.reason,
    }),
  });
  return async (spec: ReproJobSpec, ports: JobPorts): Promise<JobRun> => {
    const run = await runMachine(
      machine,
      { report: spec.markdown, script: null, ok: false },
      {
        model: ports.model,
        models: { fast: "claude-haiku-4-5", strong: "claude-sonnet-4-5", escalateAfter: 1 },
        budget: spec.budget,
        ...(ports.redactor ? { redactor: ports.redactor } : {}),
      },
    );
    return {
      trace: run.trace,
      result: {
        jobId: spec.id,
        kind: "repro",
        outcome: run.reason === "completed" ? "succeeded" : "failed",
        verdict: run.ctx.ok ? "REPRODUCED" : null,
        summary: `script: ${run.ctx.script}`,
        patch: null,
        failures: [],
        costUsd: run.costUsd,
        tokens: run.usage.inputTokens + run.usage.outputTokens,
        attempts: run.attempts,
        durationMs: run.trace.durationMs,
      },
    };
  };
}

const spec = ReproJobSpec.parse({
  kind: "repro",
  id: "toy-1",
  markdown: "# crash\nIt crashes with token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  model: "claude-haiku-4-5",
});

async function record(): Promise<{ json: unknown; scripted: ScriptedModel }> {
  const scripted = new ScriptedModel([
    {
      toolCalls: [{ name: "write_script", input: { script: "x()" } }],
      usage: { inputTokens: 900, outputTokens: 40, cacheWriteTokens: 2000 },
    },
    {
      toolCalls: [{ name: "write_script", input: { script: "import lib; lib.crash()" } }],
      usage: { inputTokens: 950, outputTokens: 60, cacheReadTokens: 2000 },
    },
  ]);
  const run = await runJob(spec, { model: scripted, redactor: new Redactor() }, { repro: toyPipeline() });
  return { json: JSON.parse(JSON.stringify(run.trace)), scripted };
}

describe("replay", () => {
  // The CLI test registers the toy pipeline in the shared registry; put back whatever was there.
  const wired = pipelines.repro;
  afterEach(() => {
    if (wired) pipelines.repro = wired;
    else delete pipelines.repro;
    vi.restoreAllMocks();
  });

  it("records the job spec (redacted) and the model exchanges, with escalation after the failed attempt", async () => {
    const { json, scripted } = await record();
    const t = json as {
      job: { markdown: string };
      steps: { state: string; model: string; exchanges: unknown[] }[];
    };
    expect(t.job.markdown).toContain("[REDACTED:github-token]");
    expect(t.steps.map((s) => `${s.state}:${s.model}`)).toEqual([
      "extract:claude-haiku-4-5",
      "evaluate:claude-haiku-4-5",
      "extract:claude-sonnet-4-5",
      "evaluate:claude-sonnet-4-5",
    ]);
    expect(scripted.requests.map((r) => r.model)).toEqual(["claude-haiku-4-5", "claude-sonnet-4-5"]);
  });

  it("reaches the same result from the trace alone", async () => {
    const { json } = await record();
    const report = await replayTrace(json, {}, { repro: toyPipeline() });
    expect(report.divergences).toEqual([]);
    expect(report.same).toBe(true);
    expect(report.exchanges).toEqual({ recorded: 2, replayed: 2 });
    expect(report.replayed.output).toEqual({
      verdict: "REPRODUCED",
      script: "import lib; lib.crash()",
      reason: "completed",
    });
    expect(report.run.result.tokens).toBe(900 + 40 + 950 + 60);
  });

  it("says at which exchange and step the run diverged when the tool set changed", async () => {
    const { json } = await record();
    const report = await replayTrace(json, {}, { repro: toyPipeline({ toolName: "emit_script" }) });
    expect(report.same).toBe(false);
    expect(report.divergences[0]).toBe(
      'replay diverged at model exchange #1 in step "extract" (attempt 1): the trace offered tools [write_script], this run offers [emit_script]',
    );
  });

  it("says which transition differs when the pipeline's logic changed", async () => {
    const { json } = await record();
    const report = await replayTrace(json, {}, { repro: toyPipeline({ threshold: 2 }) });
    expect(report.same).toBe(false);
    expect(report.divergences).toContain(
      "transition #2 differs: the trace went evaluate→extract, the replay went evaluate→done",
    );
    expect(report.divergences).toContain("the replay used 1 of the 2 recorded model exchanges");
    expect(report.divergences.some((d) => d.startsWith("the result differs at "))).toBe(true);
  });

  it("a replay model asked past the end of its tape names the step", async () => {
    const { json } = await record();
    const tape = new ReplayModel(json as never);
    const req = {
      system: "s",
      messages: [],
      tools: [{ name: "write_script", description: "", input: Guess }],
    };
    await tape.complete({ ...req, meta: { step: "extract", attempt: 1 } });
    await tape.complete({ ...req, meta: { step: "extract", attempt: 2 } });
    await expect(tape.complete({ ...req, meta: { step: "extract", attempt: 3 } })).rejects.toThrow(
      'replay diverged at model exchange #3: step "extract" (attempt 3) made a call, but the trace recorded only 2',
    );
  });

  it("rejects a document that is not a trace, naming the field", async () => {
    await expect(replayTrace({ version: 1, machine: "x" }, {}, {})).rejects.toThrow(
      /not a valid Retrace trace[\s\S]*steps/,
    );
  });

  it("runJob says clearly when a pipeline is not wired", async () => {
    await expect(runJob(spec, { model: null }, {})).rejects.toBeInstanceOf(PipelineUnavailableError);
    await expect(runJob(spec, { model: null }, {})).rejects.toThrow(
      "the repro pipeline is not available yet",
    );
  });

  it("retrace replay <trace.json> re-runs through the registered pipeline and exits 0 on the same result, 1 on divergence", async () => {
    const { json } = await record();
    const dir = mkdtempSync(path.join(tmpdir(), "retrace-replay-"));
    const file = path.join(dir, "trace.json");
    writeFileSync(file, JSON.stringify(json));
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((s) => {
      out.push(String(s));
      return true;
    });
    pipelines.repro = toyPipeline();
    process.exitCode = undefined;
    expect(await main(["replay", file])).toBe(0);
    expect(out.join("")).toContain(
      'replay: same result — completed in state "done", 4 transitions, 2 model exchanges replayed',
    );
    out.length = 0;
    pipelines.repro = toyPipeline({ threshold: 2 });
    process.exitCode = undefined;
    expect(await main(["replay", file])).toBe(1);
    expect(out.join("")).toContain("transition #2 differs");
    process.exitCode = undefined;
    writeFileSync(file, "{not json");
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await main(["replay", file])).toBe(2);
    process.exitCode = undefined;
  });
});
