/**
 * Replay: re-run a recorded job with the model answers from its trace, and say whether it reached the
 * same result — and if not, where it diverged (a model exchange, a transition, or the result).
 */
import { UsageError } from "../core/errors.ts";
import { MAX_PAYLOAD_DEPTH, nestsDeeperThan } from "../core/json-depth.ts";
import { Trace, type TraceResult } from "../core/trace.ts";
import { ReplayModel } from "../llm/replay.ts";
import { type JobPorts, type JobRun, type Pipelines, pipelines, runJob } from "./run-job.ts";

export interface ReplayReport {
  /** True when the replay made the same transitions, used the tape exactly, and reached the same result. */
  same: boolean;
  /** Where and how the replay differed, most telling first. Empty when `same`. */
  divergences: string[];
  recorded: TraceResult;
  replayed: TraceResult;
  /** Model exchanges on the tape, and how many the replay used. */
  exchanges: { recorded: number; replayed: number };
  run: JobRun;
}

/** Fields that measure time: they differ on every run and are not compared. */
const TIME_KEYS = new Set(["durationMs", "startedAt", "endedAt", "at", "elapsedMs"]);

function stripTime(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripTime);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!TIME_KEYS.has(k)) out[k] = stripTime(x);
    return out;
  }
  return v;
}

/** The first path at which two JSON values differ, e.g. `output.verdict: "FIXED" ≠ "NOT_FIXED"`; null if equal. */
export function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (Object.is(a, b)) return null;
  const show = (x: unknown) => {
    const s = JSON.stringify(x) ?? String(x);
    return s.length > 120 ? `${s.slice(0, 120)}…` : s;
  };
  if (
    typeof a !== typeof b ||
    a === null ||
    b === null ||
    typeof a !== "object" ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return `${path || "(root)"}: ${show(a)} ≠ ${show(b)}`;
  }
  const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
  for (const k of keys) {
    const d = firstDifference(
      (a as Record<string, unknown>)[k],
      (b as Record<string, unknown>)[k],
      path ? `${path}.${k}` : k,
    );
    if (d) return d;
  }
  return null;
}

/** Parses a trace document, with an error that says what is wrong with it. */
export function parseTrace(input: unknown, source = "the trace"): Trace {
  // The comparison walks the recorded result level by level: a trace nested past any real one (an edited
  // `result.output` 100,000 levels deep overflowed the stack) is refused before anything walks it.
  if (nestsDeeperThan(input, MAX_PAYLOAD_DEPTH))
    throw new UsageError(
      `${source} nests deeper than ${MAX_PAYLOAD_DEPTH} levels, which no trace Retrace writes does`,
      "pass the trace.json a Retrace run wrote (e.g. with --out)",
    );
  const parsed = Trace.safeParse(input);
  if (!parsed.success) {
    // One line: the fields that are wrong (a trace from another version names its `version` here).
    const paths = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "(root)"))];
    const listed = paths.slice(0, 8).join(", ") + (paths.length > 8 ? `, … (${paths.length - 8} more)` : "");
    const first = parsed.error.issues[0];
    throw new UsageError(
      `${source} is not a valid Retrace trace: wrong or missing ${listed} (${first?.message ?? "invalid"})`,
      "pass the trace.json a Retrace run wrote (e.g. with --out)",
    );
  }
  return parsed.data;
}

export async function replayTrace(
  input: unknown,
  ports: Omit<JobPorts, "model">,
  registry: Pipelines = pipelines,
): Promise<ReplayReport> {
  const trace = parseTrace(input);
  if (!trace.job)
    throw new UsageError(
      "the trace has no job spec, so there is nothing to re-run",
      "only traces of jobs (retrace repro, retrace fix, the App, the Action) can be replayed",
    );
  const tape = new ReplayModel(trace);
  const recordedExchanges = tape.unused;
  const useModel = recordedExchanges > 0 || trace.job.model !== null;
  const run = await runJob(trace.job, { ...ports, model: useModel ? tape : null }, registry);

  const divergences: string[] = [];
  if (tape.divergence) divergences.push(tape.divergence.message);
  const rec = trace.steps.map((s) => `${s.state}→${s.next ?? "(end)"}`);
  const now = run.trace.steps.map((s) => `${s.state}→${s.next ?? "(end)"}`);
  const firstStep = rec.findIndex((t, i) => t !== now[i]);
  if (firstStep >= 0 || rec.length !== now.length) {
    const i = firstStep >= 0 ? firstStep : Math.min(rec.length, now.length);
    divergences.push(
      `transition #${i + 1} differs: the trace went ${rec[i] ?? "(nowhere: it had ended)"}, the replay went ${now[i] ?? "(nowhere: it had ended)"}`,
    );
  }
  if (tape.unused > 0 && !tape.divergence)
    divergences.push(`the replay used ${tape.used} of the ${recordedExchanges} recorded model exchanges`);
  const resultDiff = firstDifference(stripTime(trace.result), stripTime(run.trace.result));
  if (resultDiff) divergences.push(`the result differs at ${resultDiff}`);

  return {
    same: divergences.length === 0,
    divergences,
    recorded: trace.result,
    replayed: run.trace.result,
    exchanges: { recorded: recordedExchanges, replayed: tape.used },
    run,
  };
}
