/**
 * The stages of an attempt as loop-engine states, shared by the report's program and the model's: each runs
 * one stage of `attempt.ts` and goes to the next one with work, or ends the attempt. The report's attempt then
 * ends the run or hands over to the model; a model attempt goes to `evaluate`.
 */
import type { StateSpec, StepIO, StepOutcome } from "../core/loop.ts";
import {
  type AttemptOutcome,
  installStage,
  needsStage,
  nextStage,
  runStage,
  type Stage,
  type StageResult,
  transpileStage,
  type Trial,
} from "./attempt.ts";
import type { ReproContext } from "./context.ts";
import { type ModelMode, modelMode } from "./model-mode.ts";
import { contextOf, type ReproEnv, type ReproState, type ReproStateName } from "./state.ts";

type Step = StepOutcome<ReproState, ReproStateName>;

/** The model needs this much of the time budget left to be worth asking. */
const MODEL_MIN_WALL_MS = 1_000;

/** After the report's own attempt (or a report without code): the model, when it can add something, else the end. */
export function afterReport(
  env: ReproEnv,
  s: ReproState,
  mode: ModelMode | null,
  io: StepIO,
  summary: string,
): Step {
  if (!mode || !env.ports.model) return { next: "done", ctx: s, summary };
  if (io.budget.remainingMs() < MODEL_MIN_WALL_MS)
    return {
      next: "done",
      ctx: {
        ...s,
        mode,
        skipped: "the time budget was spent by the deterministic attempt, so the model was not asked",
      },
      summary,
    };
  return { next: "write", ctx: { ...s, mode }, summary };
}

function endAttempt(
  env: ReproEnv,
  s: ReproState,
  outcome: AttemptOutcome,
  io: StepIO,
  summary: string,
): Step {
  const done = { ...s, trial: null };
  if (s.candidate) return { next: "evaluate", ctx: { ...done, outcome }, summary };
  return afterReport(env, { ...done, deterministic: outcome }, modelMode(s.program, outcome), io, summary);
}

function stageState(
  env: ReproEnv,
  stage: Stage,
  work: (ctx: ReproContext, trial: Trial) => StageResult | Promise<StageResult>,
): StateSpec<ReproState, ReproStateName> {
  const order: ReproStateName[] = ["needs", "install", "transpile", "run"];
  return {
    free: true,
    on: [...order.slice(order.indexOf(stage) + 1), "evaluate", "write", "done"],
    run: async (s, io) => {
      const trial = s.trial as Trial;
      const r = await work(contextOf(env, s, io, trial.reported), trial);
      if (r.outcome) return endAttempt(env, s, r.outcome, io, r.summary);
      return { next: nextStage(trial.program, stage), ctx: { ...s, trial: r.trial }, summary: r.summary };
    },
  };
}

export function stageStates(env: ReproEnv) {
  return {
    needs: stageState(env, "needs", (_ctx, trial) => needsStage(trial)),
    install: stageState(env, "install", installStage),
    transpile: stageState(env, "transpile", transpileStage),
    run: stageState(env, "run", runStage),
  };
}
