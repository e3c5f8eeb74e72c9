/**
 * The replay model: answers a re-run of a job from the model exchanges recorded in its trace, in order.
 * Each request must match its recording (same step, same attempt, same tool set); the first mismatch
 * is a ReplayDivergenceError that says at which exchange and step the run diverged.
 */
import { RetraceError } from "../core/errors.ts";
import type { Trace, TraceExchange } from "../core/trace.ts";
import { ModelError } from "./errors.ts";
import { checkToolCalls } from "./tool-validation.ts";
import type { Model, ModelRequest, ModelResponse } from "../core/ports/model.ts";

export class ReplayDivergenceError extends RetraceError {
  constructor(
    message: string,
    /** 0-based position of the exchange where the run diverged. */
    readonly exchange: number,
  ) {
    super("model", message, {
      hint: "the code or the inputs changed since the trace was recorded: compare this step's prompt and tools with the trace",
    });
  }
}

const names = (tools: readonly { name: string }[] | undefined) => (tools ?? []).map((t) => t.name).sort();

export class ReplayModel implements Model {
  private readonly tape: TraceExchange[];
  private next = 0;
  /** The first divergence seen, kept even when a pipeline catches the error. */
  divergence: ReplayDivergenceError | null = null;

  constructor(trace: Trace) {
    this.tape = trace.steps.flatMap((s) => s.exchanges).sort((a, b) => a.seq - b.seq);
  }

  /** Recorded exchanges not yet replayed. */
  get unused(): number {
    return this.tape.length - this.next;
  }
  get used(): number {
    return this.next;
  }

  private diverge(message: string, at: number): never {
    const e = new ReplayDivergenceError(message, at);
    this.divergence ??= e;
    throw e;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const at = this.next++;
    const rec = this.tape[at];
    const here = request.meta
      ? `step "${request.meta.step}" (attempt ${request.meta.attempt})`
      : "a call outside any step";
    if (!rec) {
      return this.diverge(
        `replay diverged at model exchange #${at + 1}: ${here} made a call, but the trace recorded only ${this.tape.length}`,
        at,
      );
    }
    const was = `step "${rec.step}" (attempt ${rec.attempt})`;
    if (request.meta && (request.meta.step !== rec.step || request.meta.attempt !== rec.attempt)) {
      return this.diverge(
        `replay diverged at model exchange #${at + 1}: the trace has ${was}, this run is at ${here}`,
        at,
      );
    }
    const want = names(rec.request.tools);
    const got = names(request.tools);
    if (want.join(",") !== got.join(",")) {
      return this.diverge(
        `replay diverged at model exchange #${at + 1} in ${was}: the trace offered tools [${want.join(", ")}], this run offers [${got.join(", ")}]`,
        at,
      );
    }
    if (rec.error)
      throw new ModelError(`(replayed) ${rec.error.message}`, "this call failed when the trace was recorded");
    if (!rec.response)
      return this.diverge(`the trace's model exchange #${at + 1} has neither a response nor an error`, at);
    const response: ModelResponse = {
      model: rec.response.model,
      text: rec.response.text,
      toolCalls: rec.response.toolCalls.map((c) => ({ ...c })),
      stopReason: rec.response.stopReason,
      usage: { ...rec.response.usage },
      costUsd: rec.response.costUsd,
    };
    const checked = checkToolCalls(request, response);
    if (checked.invalid.length > 0) {
      const bad = checked.invalid[0];
      return this.diverge(
        `replay diverged at model exchange #${at + 1} in ${was}: the recorded input of tool "${bad?.call.name}" no longer fits its schema: ${bad?.problem}`,
        at,
      );
    }
    return { ...response, toolCalls: checked.calls };
  }
}
