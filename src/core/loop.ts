/**
 * The loop engine: a pipeline is a table of states; `runMachine` walks it under a budget and always ends in
 * a terminal state with a reason. Pure: time comes from a `Clock`, the model from the `Model` port.
 *
 * Usage (a pipeline reads like its diagram):
 *
 *   type Ctx = { report: string; script?: string; verdict?: string };
 *   const repro = defineMachine<Ctx>()({
 *     name: "repro",
 *     initial: "extract",
 *     states: {
 *       extract: { startsAttempt: true, on: ["run"], run: async (ctx, io) => {
 *         const answer = await io.model?.complete({ system: SYSTEM, context: ctx.report, messages: [...] });
 *         return { next: "run", ctx: { ...ctx, script: answer?.text ?? deterministicScript(ctx) } };
 *       } },
 *       run: { on: ["evaluate"], run: async (ctx) => ({ next: "evaluate", ctx }) },
 *       evaluate: { on: ["refine", "done", "gave_up"], run: async (ctx, io) =>
 *         ok(ctx) ? { next: "done", ctx }
 *         : { next: "refine", ctx, feedback: { step: "evaluate", errorType: "mismatch", message: "...", violations: [] } } },
 *       refine: { startsAttempt: true, on: ["run"], run: async (ctx, io) => {  // io.feedback = what failed last time
 *         return { next: "run", ctx }; } },
 *       done: { terminal: "completed" },
 *       gave_up: { terminal: "failed" },
 *     },
 *   });
 *   const result = await runMachine(repro, { report }, { budget, clock, signal, model, models, redactor, job });
 *   // result.reason: "completed" | "failed" | "budget_exhausted:<bound>" | "error:<kind>" | "cancelled"; result.trace
 */
import { z } from "zod";
import type { Model, ModelRequest, ModelResponse } from "./ports/model.ts";
import {
  addUsage,
  addUsd,
  BudgetExhaustedError,
  type BudgetKind,
  BudgetMeter,
  type Usage,
  zeroUsage,
} from "./budget.ts";
import { CancelledError, RetraceError } from "./errors.ts";
import { Budget, type JobSpec } from "./job.ts";
import { type Clock, systemClock } from "./loop-clock.ts";
import { Redactor } from "./redact.ts";
import type { Trace, TraceExchange, TraceStep } from "./trace.ts";
import { TRACE_VERSION } from "./trace.ts";

/** A policy violation carried in feedback (the policy gate's shape). */
export interface FeedbackViolation {
  rule: string;
  file?: string;
  line?: number;
  message: string;
}

/** What attempt N tells attempt N+1: which step failed and why. */
export interface StepFeedback {
  /** The state that failed. */
  step: string;
  /** Machine-readable failure type, e.g. "test_failed", "policy_violation", "no_match". */
  errorType: string;
  /** What went wrong. */
  message: string;
  /** The output that matters (a test failure, a stack). */
  excerpt?: string;
  /** Policy violations, when the gate refused. */
  violations: FeedbackViolation[];
}

/** What a state's `run` returns: where to go, the new context, and optionally feedback for the next attempt. */
export interface StepOutcome<C, S extends string> {
  next: S;
  ctx: C;
  /** Marks the current attempt failed and hands this to the next attempt (`io.feedback`). */
  feedback?: StepFeedback;
  /** One line for the trace; the machine's `summarize(ctx)` is used when absent. */
  summary?: string;
}

/** Budget controls a step can read. */
export interface BudgetView {
  remainingMs(): number;
  remainingTokens(): number;
  readonly tokens: number;
  readonly costUsd: number;
}

/** What the engine gives a state's `run`. */
export interface StepIO {
  /** The model, metered (charged to this step) and escalated; null when the job runs offline. */
  readonly model: Model | null;
  /** The model name this step's calls use by default; null offline. */
  readonly modelName: string | null;
  /** Current attempt (0 before the first `startsAttempt` state). */
  readonly attempt: number;
  /** Attempts so far that produced feedback. */
  readonly failedAttempts: number;
  /** The most recent feedback, or null. */
  readonly feedback: StepFeedback | null;
  /** All feedback so far, oldest first. */
  readonly history: readonly StepFeedback[];
  /** Aborts on cancellation or when the wall-time budget runs out. Pass it to sandbox runs. */
  readonly signal: AbortSignal;
  readonly clock: Clock;
  readonly budget: BudgetView;
  readonly redactor: Redactor;
}

export type TerminalKind = "completed" | "failed";

export interface StateSpec<C, S extends string> {
  /** The states this one may move to: the transition table. Required unless terminal. */
  on?: readonly S[];
  /** The work of the state. Required unless terminal. */
  run?: (ctx: C, io: StepIO) => Promise<StepOutcome<C, S>> | StepOutcome<C, S>;
  /** Makes the state terminal: the run ends here with this reason. */
  terminal?: TerminalKind;
  /** Entering this state starts a new attempt (counted against `maxAttempts`). */
  startsAttempt?: boolean;
  /**
   * The step calls no model (its `io.model` is null), so it spends nothing the token and dollar bounds count:
   * only the time bound and cancellation are checked before it. A deterministic step runs even when a zero
   * token or dollar budget rules the model out.
   */
  free?: boolean;
}

export interface MachineSpec<C, S extends string> {
  /** Name recorded in the trace ("repro", "fix"). */
  name: string;
  initial: NoInfer<S>;
  /** The states; their keys are the state names (only keys are used to infer the names). */
  states: { [K in S]: StateSpec<C, NoInfer<S>> };
  /** Summary of a context for the trace (redacted and truncated by the engine). Default: JSON. */
  summarize?: (ctx: C) => unknown;
  /** The result document recorded in the trace and compared by replay. Default: none. */
  result?: (ctx: C, end: { reason: EndReason; state: string }) => unknown;
}

export interface Machine<C, S extends string = string> extends MachineSpec<C, S> {
  /** The transition table, for docs and tests: state → allowed next states (terminal states map to []). */
  readonly table: Readonly<Record<S, readonly S[]>>;
}

export type EndReason = TerminalKind | `budget_exhausted:${BudgetKind}` | `error:${string}` | "cancelled";

/** Thrown by `defineMachine` for a malformed table, and at run time for a transition the table does not allow. */
export class MachineDefinitionError extends RetraceError {
  constructor(message: string) {
    super("internal", message, {
      hint: "fix the machine's state table: targets must be states, and every `next` must be listed in `on`",
    });
  }
}

/**
 * Declares a machine and checks its table: the initial state exists, every target exists, non-terminal
 * states have `run` and `on`, terminal states have neither, and some terminal state is reachable.
 * Curried so the context type is written once and state names are inferred: `defineMachine<Ctx>()({...})`.
 */
export function defineMachine<C>() {
  return <const S extends string>(spec: MachineSpec<C, S>): Machine<C, S> => {
    const names = Object.keys(spec.states) as S[];
    const where = `machine "${spec.name}"`;
    if (!names.includes(spec.initial))
      throw new MachineDefinitionError(`${where}: initial state "${spec.initial}" is not in states`);
    const table = {} as Record<S, readonly S[]>;
    for (const name of names) {
      const st = spec.states[name] as StateSpec<C, S>;
      if (st.terminal) {
        if (st.run || (st.on && st.on.length > 0))
          throw new MachineDefinitionError(`${where}: terminal state "${name}" must have neither run nor on`);
        table[name] = [];
        continue;
      }
      if (!st.run)
        throw new MachineDefinitionError(`${where}: state "${name}" has no run and is not terminal`);
      if (!st.on || st.on.length === 0)
        throw new MachineDefinitionError(`${where}: state "${name}" lists no next states in on`);
      for (const target of st.on) {
        if (!names.includes(target))
          throw new MachineDefinitionError(
            `${where}: state "${name}" may move to "${target}", which is not a state`,
          );
      }
      table[name] = [...st.on];
    }
    // Some terminal state must be reachable from the initial one.
    const seen = new Set<S>([spec.initial]);
    const queue: S[] = [spec.initial];
    let terminalReachable = false;
    while (queue.length > 0) {
      const s = queue.shift() as S;
      if (spec.states[s].terminal) terminalReachable = true;
      for (const t of table[s]) {
        if (!seen.has(t)) {
          seen.add(t);
          queue.push(t);
        }
      }
    }
    if (!terminalReachable)
      throw new MachineDefinitionError(`${where}: no terminal state is reachable from "${spec.initial}"`);
    // Every cycle must pass through a `startsAttempt` state: then the attempts bound caps the number of steps
    // (at most (maxAttempts + 1) × states), and no run can spin forever without spending anything.
    const cycle = cycleAvoidingAttempts(table, (s) => spec.states[s].startsAttempt === true);
    if (cycle)
      throw new MachineDefinitionError(
        `${where}: the cycle ${cycle.join(" → ")} has no state with startsAttempt, so a run could loop forever`,
      );
    return { ...spec, table };
  };
}

/** A cycle of the table whose every edge enters a non-attempt state, or null. */
function cycleAvoidingAttempts<S extends string>(
  table: Record<S, readonly S[]>,
  startsAttempt: (s: S) => boolean,
): S[] | null {
  const color = new Map<S, "grey" | "black">();
  const stack: S[] = [];
  const visit = (s: S): S[] | null => {
    color.set(s, "grey");
    stack.push(s);
    for (const t of table[s]) {
      if (startsAttempt(t)) continue;
      if (color.get(t) === "grey") return [...stack.slice(stack.indexOf(t)), t];
      if (!color.has(t)) {
        const found = visit(t);
        if (found) return found;
      }
    }
    stack.pop();
    color.set(s, "black");
    return null;
  };
  for (const s of Object.keys(table) as S[]) {
    if (!color.has(s)) {
      const found = visit(s);
      if (found) return found;
    }
  }
  return null;
}

/** Model choice: a fast default, and a stronger one after `escalateAfter` failed attempts. */
export interface ModelChoice {
  fast: string;
  /** Used once `failedAttempts >= escalateAfter`; the fast model throughout when absent. */
  strong?: string;
  /** Failed attempts before escalating (default 1). */
  escalateAfter?: number;
}

export interface RunOptions {
  /** Bounds; defaults from the job spec schema. */
  budget?: Partial<Budget>;
  clock?: Clock;
  signal?: AbortSignal;
  /** The model port, or null/absent to run offline. */
  model?: Model | null;
  models?: ModelChoice;
  /** Redacts everything written into the trace. A fresh one (patterns only) when absent. */
  redactor?: Redactor;
  /** Recorded in the trace so the run can be replayed. */
  job?: JobSpec | null;
  /** Output cap per model call when the step sets none; also capped by the remaining token budget. */
  defaultMaxTokens?: number;
  /**
   * After a step is stopped (time budget, cancel), how long to wait in real milliseconds for it to finish its
   * own clean-up (a sandbox run removing its container) before the run ends anyway. Default 10 000.
   */
  settleMs?: number;
  /** Called after every step with its trace record (progress output). */
  onStep?: (step: TraceStep) => void;
}

export interface RunResult<C> {
  reason: EndReason;
  /** Last state reached. */
  state: string;
  ctx: C;
  attempts: number;
  failedAttempts: number;
  usage: Usage;
  costUsd: number;
  feedback: StepFeedback[];
  /** The machine's result document (also in the trace, redacted). */
  output: unknown;
  error?: { kind: string; message: string; hint?: string };
  /** What the failing step threw, as thrown (not in the trace), so a pipeline can rethrow it unchanged. */
  cause?: unknown;
  trace: Trace;
}

const SUMMARY_LIMIT = 2_000;

function summarizeWith<C>(machine: MachineSpec<C, string>, ctx: C, redactor: Redactor): string {
  let raw: unknown;
  try {
    raw = machine.summarize ? machine.summarize(ctx) : ctx;
  } catch (e) {
    raw = `(summary failed: ${e instanceof Error ? e.message : String(e)})`;
  }
  let text: string;
  if (typeof raw === "string") text = raw;
  else {
    try {
      text = JSON.stringify(raw) ?? String(raw);
    } catch {
      text = String(raw);
    }
  }
  text = redactor.redact(text);
  return text.length > SUMMARY_LIMIT ? `${text.slice(0, SUMMARY_LIMIT)}… (${text.length} chars)` : text;
}

function toolSchema(input: z.ZodType): unknown {
  try {
    return z.toJSONSchema(input, { unrepresentable: "any" });
  } catch {
    return {};
  }
}

/** The request as the trace records it (before the adapter adds provider details). */
function recordRequest(req: ModelRequest & { model: string }, redactor: Redactor): TraceExchange["request"] {
  return redactor.redactDeep({
    model: req.model,
    system: req.system,
    ...(req.context === undefined ? {} : { context: req.context }),
    messages: req.messages.map((m) => ({
      role: m.role,
      content:
        typeof m.content === "string"
          ? m.content
          : m.content.map((b) =>
              b.type === "tool_result"
                ? {
                    type: "tool_result" as const,
                    toolUseId: b.toolUseId,
                    content: b.content,
                    ...(b.isError === undefined ? {} : { isError: b.isError }),
                  }
                : b.type === "tool_use"
                  ? { type: "tool_use" as const, id: b.id, name: b.name, input: b.input }
                  : { type: "text" as const, text: b.text },
            ),
    })),
    tools: (req.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: toolSchema(t.input),
    })),
    ...(req.toolChoice === undefined ? {} : { toolChoice: req.toolChoice }),
    ...(req.maxTokens === undefined ? {} : { maxTokens: req.maxTokens }),
    ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
  });
}

function recordResponse(res: ModelResponse, redactor: Redactor): NonNullable<TraceExchange["response"]> {
  return redactor.redactDeep({
    model: res.model,
    text: res.text,
    toolCalls: res.toolCalls.map((c) => ({ id: c.id, name: c.name, input: c.input })),
    stopReason: res.stopReason,
    usage: { ...res.usage },
    costUsd: res.costUsd,
  });
}

/** How an error ends a run. */
function classify(e: unknown): { reason: EndReason; kind: string; message: string; hint?: string } {
  if (e instanceof BudgetExhaustedError)
    return {
      reason: `budget_exhausted:${e.bound}`,
      kind: "budget",
      message: e.message,
      ...(e.hint ? { hint: e.hint } : {}),
    };
  if (e instanceof CancelledError) return { reason: "cancelled", kind: "cancelled", message: e.message };
  if (e instanceof RetraceError)
    return {
      reason: `error:${e.kind}`,
      kind: e.kind,
      message: e.message,
      ...(e.hint ? { hint: e.hint } : {}),
    };
  if (e instanceof Error && e.name === "AbortError")
    return { reason: "cancelled", kind: "cancelled", message: e.message };
  return { reason: "error:internal", kind: "internal", message: e instanceof Error ? e.message : String(e) };
}

/** Tokens a failed model call still cost (errors of the model layer carry them as `spent`). */
function spentOf(e: unknown): { usage: Usage; costUsd: number } | null {
  if (typeof e !== "object" || e === null || !("spent" in e)) return null;
  const s = (e as { spent?: { usage?: Usage; costUsd?: number } }).spent;
  return s?.usage && typeof s.costUsd === "number" ? { usage: s.usage, costUsd: s.costUsd } : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Runs a machine from its initial state until a terminal state, a budget bound, an error or cancellation.
 * Never throws for anything a step does: the result (and its trace) says how the run ended.
 */
export async function runMachine<C, S extends string>(
  machine: Machine<C, S>,
  initialCtx: C,
  options: RunOptions = {},
): Promise<RunResult<C>> {
  const clock = options.clock ?? systemClock;
  const redactor = options.redactor ?? new Redactor();
  const budget = Budget.parse(options.budget ?? {});
  const meter = new BudgetMeter(budget, clock);
  const baseModel = options.model ?? null;
  const choice = options.models;
  const escalateAfter = choice?.escalateAfter ?? 1;
  const defaultMaxTokens = options.defaultMaxTokens ?? 8_192;

  const steps: TraceStep[] = [];
  const feedback: StepFeedback[] = [];
  const failedAttemptSet = new Set<number>();
  let exchangeSeq = 0;
  let ctx = initialCtx;
  let state: S = machine.initial;
  let ended: { reason: EndReason; error?: { kind: string; message: string; hint?: string } } | null = null;
  let cause: unknown;

  const end = (reason: EndReason, error?: { kind: string; message: string; hint?: string }) => {
    ended = error ? { reason, error: redactor.redactDeep(error) } : { reason };
  };

  while (ended === null) {
    const spec = machine.states[state] as StateSpec<C, S>;
    if (spec.terminal) {
      end(spec.terminal);
      break;
    }
    if (options.signal?.aborted) {
      end("cancelled", { kind: "cancelled", message: "the job was cancelled" });
      break;
    }
    const exhausted = meter.exhausted();
    const bound = spec.free && exhausted !== "time" ? null : exhausted;
    if (bound) {
      const e = new BudgetExhaustedError(bound);
      end(`budget_exhausted:${bound}`, {
        kind: "budget",
        message: e.message,
        ...(e.hint ? { hint: e.hint } : {}),
      });
      break;
    }
    if (spec.startsAttempt && !meter.startAttempt()) {
      const e = new BudgetExhaustedError("attempts");
      end("budget_exhausted:attempts", {
        kind: "budget",
        message: e.message,
        ...(e.hint ? { hint: e.hint } : {}),
      });
      break;
    }

    // --- one step ---
    const attempt = meter.attempts;
    const failedAttempts = failedAttemptSet.size;
    const modelName = baseModel
      ? choice
        ? choice.strong && failedAttempts >= escalateAfter
          ? choice.strong
          : choice.fast
        : null
      : null;
    const startedAt = clock.now();
    const record: TraceStep = {
      index: steps.length,
      state,
      attempt,
      model: baseModel && !spec.free ? modelName : null,
      startedAt: iso(startedAt),
      endedAt: iso(startedAt),
      durationMs: 0,
      next: null,
      input: summarizeWith(machine as MachineSpec<C, string>, ctx, redactor),
      output: "",
      usage: zeroUsage(),
      costUsd: 0,
      exchanges: [],
    };

    const stepCtl = new AbortController();
    let stoppedAt: number | null = null;
    const stop = (reason: Error) => {
      if (stepCtl.signal.aborted) return;
      stoppedAt = clock.now();
      stepCtl.abort(reason);
    };
    const onExternalAbort = () => stop(new CancelledError());
    options.signal?.addEventListener("abort", onExternalAbort, { once: true });
    const cancelTimer = clock.setTimer(meter.remainingMs(), () => stop(new BudgetExhaustedError("time")));
    const stopped = new Promise<never>((_, reject) => {
      stepCtl.signal.addEventListener("abort", () => reject(stepCtl.signal.reason), { once: true });
    });
    stopped.catch(() => {});

    const stepName = state as string;
    let stepClosed = false;
    const metered: Model | null =
      baseModel && !spec.free
        ? {
            complete: async (req: ModelRequest): Promise<ModelResponse> => {
              if (stepCtl.signal.aborted) throw stepCtl.signal.reason;
              const b = meter.exhausted();
              if (b) throw new BudgetExhaustedError(b);
              const seq = exchangeSeq++;
              const request: ModelRequest & { model: string } = {
                ...req,
                model: req.model ?? modelName ?? choice?.fast ?? "",
                maxTokens: Math.min(req.maxTokens ?? defaultMaxTokens, meter.remainingTokens()),
                signal: req.signal ? AbortSignal.any([req.signal, stepCtl.signal]) : stepCtl.signal,
                meta: { step: stepName, attempt },
              };
              if (request.model === "") delete (request as ModelRequest).model;
              const t0 = clock.now();
              const exchange: TraceExchange = {
                seq,
                step: stepName,
                attempt,
                startedAt: iso(t0),
                durationMs: 0,
                request: recordRequest({ ...request, model: request.model ?? "(adapter default)" }, redactor),
              };
              record.exchanges.push(exchange);
              let res: ModelResponse;
              try {
                res = await baseModel.complete(request);
              } catch (e) {
                // A call that returns after its step was stopped is not recorded: the trace is final by then.
                if (stepClosed) throw e;
                exchange.durationMs = Math.max(0, clock.now() - t0);
                const spent = spentOf(e);
                if (spent) {
                  meter.charge(spent.usage, spent.costUsd);
                  record.usage = addUsage(record.usage, spent.usage);
                  record.costUsd = addUsd(record.costUsd, spent.costUsd);
                }
                const c = classify(e);
                exchange.error = { kind: c.kind, message: redactor.redact(c.message) };
                throw e;
              }
              if (stepClosed) throw stepCtl.signal.reason ?? new CancelledError();
              exchange.durationMs = Math.max(0, clock.now() - t0);
              exchange.response = recordResponse(res, redactor);
              meter.charge(res.usage, res.costUsd);
              record.usage = addUsage(record.usage, res.usage);
              record.costUsd = addUsd(record.costUsd, res.costUsd);
              const over = meter.overrun();
              if (over) throw new BudgetExhaustedError(over);
              return res;
            },
          }
        : null;

    const io: StepIO = {
      model: metered,
      modelName: baseModel && !spec.free ? modelName : null,
      attempt,
      failedAttempts,
      feedback: feedback.at(-1) ?? null,
      history: [...feedback],
      signal: stepCtl.signal,
      clock,
      redactor,
      budget: {
        remainingMs: () => meter.remainingMs(),
        remainingTokens: () => meter.remainingTokens(),
        get tokens() {
          return meter.tokens;
        },
        get costUsd() {
          return meter.costUsd;
        },
      },
    };

    let outcome: StepOutcome<C, S> | null = null;
    const running = Promise.resolve().then(() => (spec.run as NonNullable<typeof spec.run>)(ctx, io));
    running.catch(() => {});
    try {
      outcome = await Promise.race([running, stopped]);
      if (!spec.on?.includes(outcome.next)) {
        throw new MachineDefinitionError(
          `machine "${machine.name}": state "${stepName}" returned next "${outcome.next}", which its table does not allow (on: ${JSON.stringify(spec.on)})`,
        );
      }
      const over = meter.overrun();
      if (over) throw new BudgetExhaustedError(over);
    } catch (e) {
      const c = classify(e);
      cause = e;
      end(c.reason, { kind: c.kind, message: c.message, ...(c.hint ? { hint: c.hint } : {}) });
      record.error = redactor.redactDeep({
        kind: c.kind,
        message: c.message,
        ...(c.hint ? { hint: c.hint } : {}),
      });
      outcome = null;
    } finally {
      cancelTimer();
      options.signal?.removeEventListener("abort", onExternalAbort);
      stepClosed = true;
      if (stepCtl.signal.aborted) {
        // The step was told to stop: give it a bounded, real-time moment to finish its clean-up, so a job never
        // ends while one of its sandboxes is still being removed.
        const settled = await settle(running, options.settleMs ?? 10_000);
        if (!settled) {
          const note = `the step did not finish within ${options.settleMs ?? 10_000} ms of being stopped`;
          record.error = record.error
            ? { ...record.error, message: `${record.error.message}; ${note}` }
            : { kind: "internal", message: note };
        }
      }
      // Calls still in flight when the step was stopped: recorded as stopped, never charged later.
      for (const x of record.exchanges) {
        if (!x.response && !x.error) {
          const c = classify(stepCtl.signal.reason ?? new CancelledError());
          x.error = { kind: c.kind, message: `the step was stopped before the call returned: ${c.message}` };
          x.durationMs = Math.max(0, (stoppedAt ?? clock.now()) - Date.parse(x.startedAt));
        }
      }
    }

    const endedAt = stoppedAt ?? clock.now();
    record.endedAt = iso(endedAt);
    record.durationMs = Math.max(0, endedAt - startedAt);
    if (outcome) {
      ctx = outcome.ctx;
      record.next = outcome.next;
      record.output = outcome.summary
        ? redactor.redact(outcome.summary)
        : summarizeWith(machine as MachineSpec<C, string>, ctx, redactor);
      if (outcome.feedback) {
        const fb = outcome.feedback;
        feedback.push(fb);
        failedAttemptSet.add(attempt);
        record.feedback = redactor.redactDeep({
          step: fb.step,
          errorType: fb.errorType,
          message: fb.message,
          ...(fb.excerpt === undefined ? {} : { excerpt: fb.excerpt }),
          violations: fb.violations.map((v) => ({ ...v })),
        });
      }
      state = outcome.next;
    } else {
      record.output = summarizeWith(machine as MachineSpec<C, string>, ctx, redactor);
    }
    steps.push(record);
    options.onStep?.(record);
  }

  const final = ended as unknown as {
    reason: EndReason;
    error?: { kind: string; message: string; hint?: string };
  };
  let output: unknown;
  try {
    output = machine.result ? machine.result(ctx, { reason: final.reason, state }) : undefined;
  } catch (e) {
    output = { resultFailed: e instanceof Error ? e.message : String(e) };
  }
  // The run ends when its last step ended, or (for a check between steps) now, but never on paper after the
  // deadline: a time-out ends the run at the deadline even if the clock read later while unwinding.
  const lastStepEnd = steps.length > 0 ? Date.parse((steps.at(-1) as TraceStep).endedAt) : meter.startedAt;
  const endedAt = Math.max(lastStepEnd, Math.min(clock.now(), meter.deadline));
  const totals = steps.reduce(
    (acc, s) => ({
      usage: addUsage(acc.usage, s.usage),
      costUsd: addUsd(acc.costUsd, s.costUsd),
      exchanges: acc.exchanges + s.exchanges.length,
      steps: acc.steps + 1,
    }),
    { usage: zeroUsage(), costUsd: 0, exchanges: 0, steps: 0 },
  );
  const trace: Trace = {
    version: TRACE_VERSION,
    machine: machine.name,
    job: options.job ? redactor.redactDeep(options.job) : null,
    budget: { ...budget },
    startedAt: iso(meter.startedAt),
    endedAt: iso(endedAt),
    durationMs: Math.max(0, endedAt - meter.startedAt),
    steps,
    totals,
    result: {
      reason: final.reason,
      state,
      attempts: meter.attempts,
      failedAttempts: failedAttemptSet.size,
      ...(output === undefined ? {} : { output: redactor.redactDeep(output) }),
      ...(final.error ? { error: final.error } : {}),
    },
  };
  return {
    reason: final.reason,
    state,
    ctx,
    attempts: meter.attempts,
    failedAttempts: failedAttemptSet.size,
    usage: meter.usage,
    costUsd: meter.costUsd,
    feedback,
    output,
    ...(final.error ? { error: final.error } : {}),
    ...(cause === undefined ? {} : { cause }),
    trace,
  };
}

/** Resolves true when `p` settles within `ms` real milliseconds, false otherwise (never rejects). */
function settle(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
    p.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}
