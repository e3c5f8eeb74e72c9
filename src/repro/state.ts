/**
 * The reproduction as the loop engine carries it: one context through every state, from reading the report
 * to the last program that ran, for the deterministic and the model path alike.
 *
 *   parse → expectations → complete ─▶ [needs | install → transpile → run] ─▶ done
 *                                                        │ (the model can add something)
 *                            write → scan ─▶ [needs | install → transpile → run] → evaluate ─▶ done
 *                              ▲__________________ feedback _____________________________│
 */
import type { StepIO } from "../core/loop.ts";
import type { ReproJobSpec } from "../core/job.ts";
import type { AttemptOutcome, Trial } from "./attempt.ts";
import type { Program } from "./complete.ts";
import { type ReportReading, type ReproContext, unread } from "./context.ts";
import type { ModelMode } from "./model-mode.ts";
import type { ReproPorts } from "./ports.ts";
import type { ReportedBehaviour } from "./result.ts";
import type { RiskFinding } from "./risk-scan.ts";

export type ReproStateName =
  | "parse"
  | "expectations"
  | "complete"
  | "needs"
  | "install"
  | "transpile"
  | "run"
  | "write"
  | "scan"
  | "evaluate"
  | "done";

/** What every state may read and never changes: the job, its ports, when it started. */
export interface ReproEnv {
  spec: ReproJobSpec;
  ports: ReproPorts;
  startedAt: number;
  redact: (s: string) => string;
  /** Host time for completing the report's code into a program, in ms (what is left of the report's reading
   * budget, RETRACE_HOST_LIMITS parseTimeMs, unless the caller passes its own). */
  completeTimeMs?: number;
}

/** A model-written program, before and while it runs. */
export interface Candidate {
  program: Program;
  notes: string;
  risks: RiskFinding[];
  /** The report's expectation as used for this attempt (possibly read from the prose by the model). */
  reported: ReportedBehaviour;
}

/** One model-written program that ran (or was refused before running). */
export interface ModelAttempt extends Candidate {
  attempt: number;
  outcome: AttemptOutcome;
}

export interface ReproState {
  read: ReportReading;
  /**
   * Host CPU spent so far reading the report, in ms: its parse, what it says happens and the completion of its
   * code share one budget (RETRACE_HOST_LIMITS parseTimeMs), so the three together stay within it.
   */
  readCpuMs: number;
  /** The program completed from the report's code; null when it has none. */
  program: Program | null;
  /** The program going through the stages now (the report's, or the model's candidate). */
  trial: Trial | null;
  /** The outcome of the report's own program. */
  deterministic: AttemptOutcome | null;
  /** What the model was asked for; null when it was not (no model, or the deterministic verdict stands). */
  mode: ModelMode | null;
  /** Why the model was not asked although it could have helped (the time budget was spent). */
  skipped: string | null;
  /** The model's program of this attempt, and its outcome between the runs and `evaluate`. */
  candidate: Candidate | null;
  outcome: AttemptOutcome | null;
  attempts: ModelAttempt[];
  /** The model that answered last. */
  model: string | null;
}

export function initialState(markdown: string): ReproState {
  return {
    read: unread(markdown),
    readCpuMs: 0,
    program: null,
    trial: null,
    deterministic: null,
    mode: null,
    skipped: null,
    candidate: null,
    outcome: null,
    attempts: [],
    model: null,
  };
}

/**
 * The context a state's work reads: the report as read, the ports with the step's signal (stopped on
 * cancellation and when the time budget runs out), and the behaviour the runs are matched against.
 */
export function contextOf(
  env: ReproEnv,
  s: ReproState,
  io: StepIO,
  reported?: ReportedBehaviour,
): ReproContext {
  const signal = env.ports.signal ? AbortSignal.any([env.ports.signal, io.signal]) : io.signal;
  return {
    ...env,
    ports: { ...env.ports, signal },
    ...s.read,
    expectations: reported ? { ...s.read.expectations, actual: reported } : s.read.expectations,
  };
}

/** The context outside a step (building the result): the report as read, the job's own ports. */
export function finalContext(env: ReproEnv, s: ReproState, reported?: ReportedBehaviour): ReproContext {
  return {
    ...env,
    ...s.read,
    expectations: reported ? { ...s.read.expectations, actual: reported } : s.read.expectations,
  };
}

/** One line for the trace: which path, which program, how many model programs ran. */
export function summarizeState(s: ReproState): string {
  if (s.mode) {
    const last = s.attempts.at(-1);
    return `${s.attempts.length ? "refine" : s.mode}; ${s.attempts.length} program(s) run${last ? `, last ${last.outcome.verdict}` : ""}`;
  }
  const program = s.trial?.program ?? s.program;
  return program ? `${program.language} program ${program.entry}` : "the report";
}
