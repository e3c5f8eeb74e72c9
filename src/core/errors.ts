/**
 * Typed errors, one class per concept. Every error carries a `hint`: what the user should do next.
 * Entries print `message` and `hint`, and map `exitCode` to the process exit code.
 */
export type ErrorKind =
  | "usage"
  | "config"
  | "infrastructure"
  | "sandbox"
  | "model"
  | "budget"
  | "github"
  | "patch"
  | "cancelled"
  | "internal";

export class RetraceError extends Error {
  readonly kind: ErrorKind;
  readonly hint: string | undefined;
  /** Process exit code an entry should use: 2 for usage/config mistakes, 3 for infrastructure (4: a test flaky on the unpatched base, FlakyBaseError), 1 otherwise. */
  readonly exitCode: number;

  constructor(
    kind: ErrorKind,
    message: string,
    options: { hint?: string; cause?: unknown; exitCode?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.kind = kind;
    this.hint = options.hint;
    this.exitCode =
      options.exitCode ?? (kind === "usage" || kind === "config" ? 2 : kind === "infrastructure" ? 3 : 1);
  }
}

/** The user called a command wrongly (bad flag, missing file). */
export class UsageError extends RetraceError {
  constructor(message: string, hint?: string) {
    super("usage", message, hint === undefined ? {} : { hint });
  }
}

/** A configuration file or value is invalid; the message names the field. */
export class ConfigError extends RetraceError {
  constructor(message: string, hint?: string) {
    super("config", message, hint === undefined ? {} : { hint });
  }
}

/** Something Retrace depends on is missing or unreachable (Docker engine, sandbox image, registry). */
export class InfrastructureError extends RetraceError {
  constructor(message: string, hint?: string, cause?: unknown) {
    super("infrastructure", message, { ...(hint === undefined ? {} : { hint }), cause });
  }
}

/**
 * A test the verdict rests on gives different outcomes on the UNPATCHED base, even after re-runs: no verdict about
 * the patch can be drawn from it (neither VERIFIED nor REJECTED). An infrastructure error of its own, exit code 4,
 * so that callers that stop on infrastructure errors (the fix loop, the Action, the App) stop here too, blaming
 * neither the patch nor its author; `flaky` names each test and how many base runs ended in each outcome.
 */
/** How a FlakyBaseError's message starts: the fix loop's trace keeps kind and message only, and its CLI exits 4 on it. */
export const FLAKY_BASE_PREFIX = "no verdict, the unpatched base is flaky: ";

export class FlakyBaseError extends RetraceError {
  readonly flaky: readonly { id: string; counts: Readonly<Record<string, number>> }[];
  constructor(
    message: string,
    flaky: readonly { id: string; counts: Readonly<Record<string, number>> }[],
    hint?: string,
  ) {
    super("infrastructure", message, { ...(hint === undefined ? {} : { hint }), exitCode: 4 });
    this.flaky = flaky;
  }
}

/** The run was cancelled through its AbortSignal. */
export class CancelledError extends RetraceError {
  constructor(message = "the job was cancelled") {
    super("cancelled", message);
  }
}

export function isRetraceError(e: unknown): e is RetraceError {
  return e instanceof RetraceError;
}

/** One line for a terminal or a comment: the message, then what to do. */
export function describeError(e: unknown): string {
  if (e instanceof RetraceError) return e.hint ? `${e.message}\n  → ${e.hint}` : e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
