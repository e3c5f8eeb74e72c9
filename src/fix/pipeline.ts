/**
 * The fix pipeline as a state machine on the loop engine:
 *
 *   failure → triage ─(passes on rerun)→ flaky
 *                    ─(no model)→ no_model
 *                    → context → root_cause → propose → apply → gate → verify → fixed
 *                                    ↑__________ feedback (a rejected attempt) ___________|
 *
 * `root_cause` starts each attempt; a rejection anywhere after it hands structured feedback to the next
 * attempt. The engine ends the run at the first bound (attempts, time, tokens, dollars). Each state is its own
 * file in `states/`, taking the context and `FixEnv` explicitly; `states/finish.ts` turns the run into the
 * result.
 */
import { defineMachine, runMachine } from "../core/loop.ts";
import { Redactor } from "../core/redact.ts";
import { Explorer, type RepoView } from "./explore.ts";
import type { FixOptions, FixPorts } from "./ports.ts";
import { applyState } from "./states/apply.ts";
import { contextState } from "./states/context.ts";
import { failureState } from "./states/failure.ts";
import { finishFix, type FixRun } from "./states/finish.ts";
import { type FixCtx, type FixEnv, initialFixCtx } from "./states/fix-state.ts";
import { gateState } from "./states/gate.ts";
import { proposeState } from "./states/propose.ts";
import { rootCauseState } from "./states/root-cause.ts";
import { triageState } from "./states/triage.ts";
import { verifyState } from "./states/verify.ts";

export { fixBranchName, type FixRun } from "./states/finish.ts";
export { type FixCtx, initialFixCtx } from "./states/fix-state.ts";

function repoView(ports: FixPorts): RepoView {
  return {
    readFile: async (p) =>
      (await ports.workspace.exists(p)) ? await ports.workspace.readFile(p).catch(() => null) : null,
    listFiles: () => ports.workspace.listFiles(),
  };
}

export function fixEnv(ports: FixPorts, options: FixOptions): FixEnv {
  const repo = repoView(ports);
  return {
    ports,
    options,
    repo,
    explorer: new Explorer(repo, { maxCalls: options.maxToolCalls ?? 20 }),
    maxRounds: options.maxRounds ?? 8,
    log: ports.log ?? (() => {}),
  };
}

export function buildFixMachine(env: FixEnv) {
  return defineMachine<FixCtx>()({
    name: "fix",
    initial: "failure",
    summarize: (ctx) => ({
      failing: ctx.failingIds,
      flaky: ctx.flaky ? { runs: ctx.flaky.runs, passes: ctx.flaky.passes } : null,
      attempt: ctx.current?.n ?? null,
      files: ctx.current?.files ?? [],
      rejected: ctx.attemptLog.map((a) => `${a.n}:${a.verdict}`),
    }),
    states: {
      failure: failureState(env),
      triage: triageState(env),
      context: contextState(env),
      root_cause: rootCauseState(env),
      propose: proposeState(env),
      apply: applyState(env),
      gate: gateState(env),
      verify: verifyState(env),
      fixed: { terminal: "completed" },
      flaky: { terminal: "completed" },
      nothing: { terminal: "failed" },
      no_model: { terminal: "failed" },
    },
  });
}

/** Runs the fix pipeline end to end and returns the result document, the trace and the patch. */
export async function runFix(ports: FixPorts, options: FixOptions): Promise<FixRun> {
  const redactor = ports.redactor ?? new Redactor();
  const clock = ports.clock ?? { now: () => Date.now() };
  const started = clock.now();
  const machine = buildFixMachine(fixEnv({ ...ports, redactor }, options));
  const run = await runMachine(machine, initialFixCtx(), {
    ...(options.budget ? { budget: options.budget } : {}),
    ...(ports.clock ? { clock: ports.clock } : {}),
    ...(ports.signal ? { signal: ports.signal } : {}),
    model: ports.model,
    ...(ports.models ? { models: ports.models } : {}),
    ...(options.maxOutputTokens ? { defaultMaxTokens: options.maxOutputTokens } : {}),
    ...(options.job ? { job: options.job } : {}),
    redactor,
  });
  return finishFix(run, ports, options, redactor, () => clock.now() - started);
}
