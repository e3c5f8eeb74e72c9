/**
 * A model-driven repro run recorded through `runJob` (the production repro pipeline, with a scripted model
 * and a sandbox that answers like Python would) replays from its trace to the same verdict with the replay
 * model; a changed tape is a divergence that names where.
 */
import { describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import type { Trace } from "../../../src/core/trace.ts";
import { replayTrace } from "../../../src/jobs/replay.ts";
import { runJob } from "../../../src/jobs/run-job.ts";
import { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL } from "../../../src/llm/pricing.ts";
import { ScriptedModel } from "../../../src/llm/scripted.ts";
import { WRITE_REPRODUCTION_TOOL } from "../../../src/repro/model-tool.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

/** Python-like: a script indexing a missing "name" key raises KeyError; anything else prints "ok". */
const sandbox = fakeSandbox((req) => {
  const code = String(req.input?.files?.["reproduction.py"] ?? "");
  const crash = /\["name"\]/.test(code);
  return {
    exitCode: crash ? 1 : 0,
    stdout: crash ? "" : "ok\n",
    stderr: `@@retrace-runtime 3.11.2\n${crash ? "Traceback (most recent call last):\n  File \"/workspace/reproduction.py\", line 2, in <module>\nKeyError: 'name'\n" : ""}`,
    durationMs: 40,
  };
});

const write = (code: string) => ({
  toolCalls: [
    {
      name: WRITE_REPRODUCTION_TOOL,
      input: {
        language: "python",
        files: [{ path: "reproduction.py", content: code }],
        entry: "reproduction.py",
        dependencies: [],
        expected: { exceptionType: "KeyError", message: "'name'" },
        notes: "a record without a name, as described",
      },
    },
  ],
  usage: { inputTokens: 700, outputTokens: 90 },
});

const spec = ReproJobSpec.parse({
  kind: "repro",
  id: "replay-model",
  markdown:
    "# format_record crashes\n\nCalling `format_record` on a record without a name raises `KeyError: 'name'` instead of using a default.\n",
  runs: 2,
  model: "default",
});

async function record(): Promise<Trace> {
  const model = new ScriptedModel([
    write('record = {"id": 1}\nprint(record.get("name"))\n'),
    write('record = {"id": 1}\nprint(record["name"])\n'),
  ]);
  const run = await runJob(spec, { model, sandbox });
  expect(run.result.verdict).toBe("REPRODUCED");
  expect(run.result.attempts).toBe(2);
  expect(model.remaining).toBe(0);
  // As written to trace.json and read back.
  return JSON.parse(JSON.stringify(run.trace)) as Trace;
}

describe("replay of a model-driven repro run", () => {
  it("replays through runJob with the replay model to the same verdict, transitions and result", async () => {
    const trace = await record();
    expect(trace.totals.exchanges).toBe(2);
    expect(trace.steps.filter((s) => s.exchanges.length > 0).map((s) => `${s.state}#${s.attempt}`)).toEqual([
      "write#1",
      "write#2",
    ]);
    // The adapter's default names (fast, then strong after one failed attempt) reach the recorded requests.
    expect(trace.steps.flatMap((s) => s.exchanges.map((e) => e.request.model))).toEqual([
      DEFAULT_FAST_MODEL,
      DEFAULT_STRONG_MODEL,
    ]);
    const report = await replayTrace(trace, { sandbox });
    expect(report.divergences).toEqual([]);
    expect(report.same).toBe(true);
    expect(report.exchanges).toEqual({ recorded: 2, replayed: 2 });
    expect(report.run.result.verdict).toBe("REPRODUCED");
    expect(report.replayed.output).toMatchObject({ verdict: "REPRODUCED", attempts: 2, tokens: 1_580 });
    expect(report.run.trace.steps.flatMap((s) => s.exchanges.map((e) => e.request.model))).toEqual([
      DEFAULT_FAST_MODEL,
      DEFAULT_STRONG_MODEL,
    ]);
  });

  it("a tape that no longer fits the run is reported as a divergence at the exchange", async () => {
    const trace = await record();
    const second = trace.steps.find((s) => s.state === "write" && s.attempt === 2)!;
    second.exchanges[0]!.request.tools = [{ name: "renamed_tool", description: "", inputSchema: {} }];
    const report = await replayTrace(trace, { sandbox });
    expect(report.same).toBe(false);
    expect(report.divergences[0]).toContain("replay diverged at model exchange #2");
    expect(report.divergences[0]).toContain("[renamed_tool]");
  });
});
