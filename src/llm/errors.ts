/**
 * Errors of the model layer. Both are `kind: "model"`, so a run they end reads `error:model`.
 */
import { RetraceError } from "../core/errors.ts";
import type { TokenUsage } from "../core/ports/model.ts";

/** Tokens and dollars a failed call still cost; the loop engine charges them to the step. */
export interface Spent {
  usage: TokenUsage;
  costUsd: number;
}

/** The provider failed (after the retries it was allowed), or answered with something unusable. */
export class ModelError extends RetraceError {
  constructor(
    message: string,
    hint: string,
    /** HTTP status, when the provider answered with one. */
    readonly status: number | null = null,
    cause?: unknown,
  ) {
    super("model", message, { hint, cause });
  }
}

/** The model's tool input failed its schema twice (the first failure got one repair turn). */
export class ToolInputError extends RetraceError {
  constructor(
    readonly tool: string,
    readonly problems: string,
    /** What the two unusable answers cost. */
    readonly spent?: Spent,
  ) {
    super("model", `the model's input for tool "${tool}" is invalid after one repair turn:\n${problems}`, {
      hint: "use a stronger model (model.strong in .github/retrace.yml), or simplify the tool's input schema",
    });
  }
}
