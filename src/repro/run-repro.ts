/**
 * The reproduction pipeline, one machine on the loop engine: read the report → complete the code → the
 * attempt's stages (needs, installs, transpile, repeated runs with the version matrix) → verdict. Deterministic
 * without a model; with one, the model's states (`model-assist.ts`) write or refine a program when the report's
 * own attempt leaves something to add. One trace records every step of both.
 *
 *   parse → expectations → complete ─▶ [needs | install → transpile → run] ─▶ done
 *                                    └──────────────┬─────────────────────┘
 *                                    write → scan → [stages] → evaluate ─▶ done    (the model, when asked)
 */
import { InfrastructureError, RetraceError } from "../core/errors.ts";
import { hostLimits } from "../core/host-limits.ts";
import { measuredCpu, withinCpuTime } from "../core/time-limit.ts";
import type { ReproJobSpec } from "../core/job.ts";
import { defineMachine, type ModelChoice, type RunResult, runMachine } from "../core/loop.ts";
import { Redactor } from "../core/redact.ts";
import type { Trace } from "../core/trace.ts";
import { newTrial, nextStage } from "./attempt.ts";
import { buildResult, noCodeResult } from "./build-result.ts";
import { completeProgram, type Program } from "./complete.ts";
import { expectationsSummary, hostBusy, readExpectations, readingSummary, readReport } from "./context.ts";
import { impliedLoad } from "./load-error.ts";
import { modelChoice, modelResult, modelStates } from "./model-assist.ts";
import type { ReproEvent, ReproPorts } from "./ports.ts";
import { pyProseCallFor } from "./py-prose-call.ts";
import { isProseCallProgram, proseCallFor, proseCallPlanOf, settleProseCall } from "./prose-call-program.ts";
import type { ReproResult } from "./result.ts";
import { afterReport, stageStates } from "./stages.ts";
import { finalContext, initialState, type ReproEnv, type ReproState, summarizeState } from "./state.ts";

export interface ReproOutcome {
  result: ReproResult;
  /** The run's trace (the loop engine's, with the result as its output), for trace.json and replay. */
  trace: Trace;
  /** The trace's steps, one line each (what `onEvent` received as they ended). */
  events: ReproEvent[];
  /** The files that ran (entry included), for the reproduction file and for debugging. */
  program: Program | null;
}

/** The engine's Redactor, applying the pipeline's redaction (registered secrets) after its own patterns. */
class PortRedactor extends Redactor {
  constructor(private readonly fn: (s: string) => string) {
    super();
  }
  override redact(text: string): string {
    return this.fn(super.redact(text));
  }
}

/**
 * Host CPU the next step of reading the report may take: what its parse, expectations and completion have left of
 * RETRACE_HOST_LIMITS parseTimeMs (at least 1 ms: a step with nothing left times out at once, naming the limit).
 */
export function readBudget(s: Pick<ReproState, "readCpuMs">): number {
  return Math.max(1, Math.floor(hostLimits().parseTimeMs - s.readCpuMs));
}

export function buildReproMachine(env: ReproEnv, modelUnavailable: Error | null = null) {
  return defineMachine<ReproState>()({
    name: "repro",
    initial: "parse",
    summarize: summarizeState,
    states: {
      parse: {
        free: true,
        on: ["expectations"],
        run: (s) => {
          const [read, ms] = measuredCpu(() => readReport(env.spec.markdown, readBudget(s)));
          return {
            next: "expectations",
            ctx: { ...s, read: { ...s.read, ...read }, readCpuMs: s.readCpuMs + ms },
            summary: readingSummary(read),
          };
        },
      },
      expectations: {
        free: true,
        on: ["complete", "done"],
        run: (s) => {
          const [{ expectations, unreadable }, ms] = measuredCpu(() =>
            readExpectations(s.read.report, readBudget(s)),
          );
          const read = { ...s.read, expectations, unreadable: s.read.unreadable ?? unreadable };
          return {
            next: read.unreadable ? "done" : "complete",
            ctx: { ...s, read, readCpuMs: s.readCpuMs + ms },
            summary: expectationsSummary(expectations),
          };
        },
      },
      complete: {
        free: true,
        on: ["needs", "install", "transpile", "run", "write", "done"],
        run: (s, io) => {
          // What is left of the parse's budget: completing the program scans the report's code with patterns of
          // their own, after the bounded parse (a shell line's 60,000 trailing spaces cost 4.85 s here before),
          // and a limit of its own per step let one report cost three limits (issue 14: one budget for all).
          const limitMs = env.completeTimeMs ?? readBudget(s);
          const completed = withinCpuTime(
            () => completeProgram(s.read.report, s.read.expectations.invocation, env.spec.package),
            limitMs,
          );
          if (!completed.ok && completed.reason === "busy")
            throw hostBusy("the report's code", completed.message);
          if (!completed.ok) {
            const unreadable = `the report's code could not be completed into a program: ${completed.reason === "timeout" ? `it took longer than ${limitMs} ms${env.completeTimeMs === undefined ? ` (what was left of RETRACE_HOST_LIMITS parseTimeMs, ${hostLimits().parseTimeMs} ms for the whole reading of the report)` : ""}` : completed.message}`;
            return { next: "done", ctx: { ...s, read: { ...s.read, unreadable } }, summary: unreadable };
          }
          // No code, and no outcome stated but the package's own loading failing: that error states the program.
          const implied =
            completed.value === null && s.read.expectations.actual.kind === "unknown"
              ? impliedLoad(env.spec.markdown, env.spec.package)
              : null;
          // No code at all: the call the report's prose states, when it names it with inputs and outcomes.
          const prose =
            completed.value === null && !implied
              ? proseCallFor(s.read.report, env.spec.markdown, env.spec.package)
              : null;
          // No code, and a Python report: the standard-library call its prose states ("math.sin() with 90 returns …").
          const pyProse =
            completed.value === null && !implied && !(prose && "program" in prose)
              ? pyProseCallFor(s.read.report, env.spec.markdown)
              : null;
          const stated = implied ?? (prose && "program" in prose ? prose : null) ?? pyProse;
          const program = completed.value ?? stated?.program ?? null;
          if (!program) return afterReport(env, s, "write", io, "nothing runnable in the report");
          const read = stated
            ? {
                ...s.read,
                expectations: {
                  ...s.read.expectations,
                  actual: stated.actual,
                  ...(pyProse && stated === pyProse && pyProse.expectedOutput.length > 0
                    ? { expectedOutput: pyProse.expectedOutput }
                    : {}),
                },
              }
            : s.read;
          return {
            next: nextStage(program, null),
            ctx: { ...s, read, program, trial: newTrial(program, read.expectations.actual) },
            summary: `${program.language} program, entry ${program.entry}, ${program.completions.length} completion(s)`,
          };
        },
      },
      ...stageStates(env),
      ...modelStates(env, modelUnavailable),
      done: { terminal: "completed" },
    },
  });
}

/** Errors that end a model loop with a note rather than the job: the model's own, and the budget's. */
const FATAL_IN_MODEL_LOOP = new Set(["infrastructure", "cancelled", "internal"]);

/** What a caller may set besides the spec and the ports. */
export interface ReproOptions {
  /** Host time for completing the report's code, in ms; RETRACE_HOST_LIMITS parseTimeMs when not given. */
  completeTimeMs?: number;
}

export async function runRepro(
  spec: ReproJobSpec,
  ports: ReproPorts,
  options: ReproOptions = {},
): Promise<ReproOutcome> {
  const env: ReproEnv = {
    spec,
    ports,
    startedAt: ports.clock.now(),
    redact: ports.redact ?? ((s) => s),
    ...(options.completeTimeMs !== undefined ? { completeTimeMs: options.completeTimeMs } : {}),
  };
  // Model names are needed only when the model is asked; without them, asking it is the adapter's mistake.
  let models: ModelChoice | undefined;
  let modelUnavailable: Error | null = null;
  if (ports.model) {
    try {
      models = modelChoice(spec, ports.models);
    } catch (e) {
      modelUnavailable = e as Error;
    }
  }
  const events: ReproEvent[] = [];
  const run = await runMachine(buildReproMachine(env, modelUnavailable), initialState(spec.markdown), {
    budget: spec.budget,
    clock: ports.clock,
    ...(ports.signal ? { signal: ports.signal } : {}),
    model: ports.model,
    ...(models ? { models } : {}),
    redactor: new PortRedactor(env.redact),
    job: spec,
    onStep: (step) => {
      const event: ReproEvent = {
        step: step.state,
        atMs: Date.parse(step.startedAt) - env.startedAt,
        durationMs: step.durationMs,
        summary: step.output,
      };
      events.push(event);
      ports.onEvent?.(event);
    },
  });
  const { result, program } = resultOf(env, run);
  const trace: Trace = {
    ...run.trace,
    result: { ...run.trace.result, output: redactStringsDeep(result, env.redact) },
  };
  return { result, trace, events, program };
}

function redactStringsDeep<T>(value: T, redact: (s: string) => string): T {
  return new PortRedactor(redact).redactDeep(value);
}

function resultOf(
  env: ReproEnv,
  run: RunResult<ReproState>,
): { result: ReproResult; program: Program | null } {
  const s = run.ctx;
  // The report's own attempt is not the model's to lose: anything that stops it ends the job, as thrown. In
  // the model's loop only infrastructure, cancellation and internal errors do; the rest end it with a note.
  if (run.error && (!s.mode || FATAL_IN_MODEL_LOOP.has(run.error.kind))) {
    // The wall-time budget spent before the report's own runs were done: the host's time (a loaded machine, a slow
    // install), not the report's, so no verdict is drawn and the job is not an error either; a run that hangs is
    // stopped by the sandbox's own timeout first.
    if (!s.mode && run.reason === "budget_exhausted:time")
      throw new InfrastructureError(
        "the job's time budget ran out before the report's own code had finished its runs, so nothing is said about the report",
        `run the job again when the host is less loaded; ${run.error.hint ?? "raise the wall-time limit (`limits` in .github/retrace.yml)"}`,
      );
    if (run.cause !== undefined) throw run.cause;
    throw new RetraceError(run.error.kind as "infrastructure", run.error.message, {
      ...(run.error.hint ? { hint: run.error.hint } : {}),
    });
  }
  const ctx = finalContext(env, s);
  if (s.read.unreadable) {
    return {
      result: noCodeResult(ctx, {
        reasons: [`Not run: ${s.read.unreadable}.`],
        questions: [
          "Could you shorten the report to the code that shows the problem, its output or error, and the versions you use (plain paragraphs and code blocks)?",
        ],
      }),
      program: null,
    };
  }
  if (s.mode) {
    const u = run.usage;
    const tokens = u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
    const reason =
      s.skipped ??
      (run.reason === "completed"
        ? null
        : run.reason.startsWith("budget_exhausted:")
          ? `the model loop stopped: the ${run.reason.slice("budget_exhausted:".length)} budget ran out after ${run.attempts} attempt(s)`
          : `the model loop stopped: ${run.error?.message ?? run.reason}`);
    return modelResult(env, s, { reason, attempts: run.attempts, tokens, costUsd: run.costUsd });
  }
  if (!s.program || !s.deterministic) {
    const prose = proseCallFor(s.read.report, env.spec.markdown, env.spec.package);
    const ask = prose && "ask" in prose ? prose.ask : null;
    return {
      result: noCodeResult(ctx, ask ? { reasons: [ask.reason], questions: [ask.question] } : {}),
      program: null,
    };
  }
  const plan =
    env.spec.package && isProseCallProgram(s.program)
      ? proseCallPlanOf(s.read.report.title, env.spec.markdown, env.spec.package)
      : null;
  const attempt = plan ? settleProseCall(plan, env.spec.package!, s.deterministic) : s.deterministic;
  return {
    result: buildResult(ctx, s.program, attempt, {
      attempts: 1,
      tokens: 0,
      costUsd: 0,
      model: null,
      risks: [],
      author: "report",
    }),
    program: s.program,
  };
}
