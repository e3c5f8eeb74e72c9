/**
 * The trace: a job's audit log and its replay tape. One JSON document per run, validated by `Trace`.
 * Every string in it has been through the Redactor before it was written.
 */
import { z } from "zod";
import { JobSpec } from "./job.ts";

export const TRACE_VERSION = 1;

export const TraceUsage = z.object({
  /** Uncached input tokens. */
  inputTokens: z.number().int().min(0),
  /** Output tokens. */
  outputTokens: z.number().int().min(0),
  /** Input tokens read from the prompt cache. */
  cacheReadTokens: z.number().int().min(0),
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens: z.number().int().min(0),
});

const TraceToolSpec = z.object({
  /** Tool name. */
  name: z.string(),
  /** Tool description given to the model. */
  description: z.string(),
  /** The JSON Schema of the tool input (from its zod schema). */
  inputSchema: z.unknown(),
});

const TraceBlock = z.union([
  z.object({ type: z.literal("text"), /** Text. */ text: z.string() }),
  z.object({
    type: z.literal("tool_use"),
    /** Tool-use id. */
    id: z.string(),
    /** Tool name. */
    name: z.string(),
    /** Tool input as the model sent it. */
    input: z.unknown(),
  }),
  z.object({
    type: z.literal("tool_result"),
    /** The tool_use this answers. */
    toolUseId: z.string(),
    /** Result text. */
    content: z.string(),
    /** True when the result reports an error. */
    isError: z.boolean().optional(),
  }),
]);

export const TraceMessage = z.object({
  /** Who spoke. */
  role: z.enum(["user", "assistant"]),
  /** Plain text or content blocks. */
  content: z.union([z.string(), z.array(TraceBlock)]),
});

export const TraceModelRequest = z.object({
  /** Model asked for. */
  model: z.string(),
  /** System prompt. */
  system: z.string(),
  /** Cached stable context, when given. */
  context: z.string().optional(),
  /** The conversation. */
  messages: z.array(TraceMessage),
  /** Tools offered. */
  tools: z.array(TraceToolSpec),
  /** Tool choice, when forced. */
  toolChoice: z.unknown().optional(),
  /** Output token cap sent. */
  maxTokens: z.number().int().optional(),
  /** Sampling temperature sent. */
  temperature: z.number().optional(),
});

export const TraceModelResponse = z.object({
  /** Model that answered. */
  model: z.string(),
  /** Text of the answer. */
  text: z.string(),
  /** Validated tool calls. */
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), input: z.unknown() })),
  /** Provider stop reason. */
  stopReason: z.string().nullable(),
  /** Tokens of this exchange. */
  usage: TraceUsage,
  /** Dollars of this exchange. */
  costUsd: z.number().min(0),
});

export const TraceExchange = z.object({
  /** Position among all exchanges of the run (0-based): the replay order. */
  seq: z.number().int().min(0),
  /** State that made the call. */
  step: z.string(),
  /** Attempt during which the call was made. */
  attempt: z.number().int().min(0),
  /** ISO time the call started. */
  startedAt: z.string(),
  /** Duration of the call in ms. */
  durationMs: z.number().min(0),
  /** The request, redacted. */
  request: TraceModelRequest,
  /** The answer, redacted; absent when the call failed. */
  response: TraceModelResponse.optional(),
  /** Why the call failed. */
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
});
export type TraceExchange = z.infer<typeof TraceExchange>;

export const TraceFeedback = z.object({
  /** The state that failed. */
  step: z.string(),
  /** Machine-readable type of the failure (e.g. "test_failed", "policy_violation"). */
  errorType: z.string(),
  /** What went wrong, in one or two sentences. */
  message: z.string(),
  /** The part of the output that matters. */
  excerpt: z.string().optional(),
  /** Policy violations, when the gate refused a patch. */
  violations: z.array(
    z.object({
      /** Rule id. */
      rule: z.string(),
      /** File the rule fired on. */
      file: z.string().optional(),
      /** Line the rule fired on. */
      line: z.number().int().optional(),
      /** Why. */
      message: z.string(),
    }),
  ),
});

export const TraceStep = z.object({
  /** Position in the run (0-based). */
  index: z.number().int().min(0),
  /** State that ran. */
  state: z.string(),
  /** Attempt number during the step (0 = before the first attempt). */
  attempt: z.number().int().min(0),
  /** Model the step was given (after escalation), or null when offline. */
  model: z.string().nullable(),
  /** ISO start time. */
  startedAt: z.string(),
  /** ISO end time. */
  endedAt: z.string(),
  /** Duration in ms. */
  durationMs: z.number().min(0),
  /** The state the step moved to; null when the run ended during the step. */
  next: z.string().nullable(),
  /** Redacted summary of the context the step started with. */
  input: z.string(),
  /** Redacted summary of what the step produced. */
  output: z.string(),
  /** Tokens spent by the step's model calls. */
  usage: TraceUsage,
  /** Dollars spent by the step's model calls. */
  costUsd: z.number().min(0),
  /** Every model exchange of the step, in full. */
  exchanges: z.array(TraceExchange),
  /** Failure feedback the step handed to the next attempt. */
  feedback: TraceFeedback.optional(),
  /** Set when the step ended the run with an error, a budget or a cancellation. */
  error: z.object({ kind: z.string(), message: z.string(), hint: z.string().optional() }).optional(),
});
export type TraceStep = z.infer<typeof TraceStep>;

export const TraceResult = z.object({
  /** `completed`, `failed`, `budget_exhausted:<kind>`, `error:<kind>` or `cancelled`. */
  reason: z
    .string()
    .regex(/^(completed|failed|cancelled|budget_exhausted:(attempts|time|tokens|dollars)|error:[a-z_]+)$/),
  /** Last state reached. */
  state: z.string(),
  /** Attempts started. */
  attempts: z.number().int().min(0),
  /** Attempts that produced failure feedback. */
  failedAttempts: z.number().int().min(0),
  /** The pipeline's result document (redacted), when it produced one. */
  output: z.unknown().optional(),
  /** The error that ended the run, when one did. */
  error: z.object({ kind: z.string(), message: z.string(), hint: z.string().optional() }).optional(),
});
export type TraceResult = z.infer<typeof TraceResult>;

export const Trace = z.object({
  /** Trace format version. */
  version: z.literal(TRACE_VERSION),
  /** Name of the machine that ran (e.g. "repro", "fix"). */
  machine: z.string(),
  /** The job spec, when the run was a job (replay needs it). */
  job: JobSpec.nullable(),
  /** Budget the run had. */
  budget: z.object({
    /** Max attempts. */
    maxAttempts: z.number(),
    /** Max wall time in ms. */
    maxWallMs: z.number(),
    /** Max tokens. */
    maxTokens: z.number(),
    /** Max dollars. */
    maxUsd: z.number(),
  }),
  /** ISO start. */
  startedAt: z.string(),
  /** ISO end. */
  endedAt: z.string(),
  /** Whole run in ms. */
  durationMs: z.number().min(0),
  /** Every transition, in order. */
  steps: z.array(TraceStep),
  /** Sums over `steps`. */
  totals: z.object({
    /** Sum of step usage. */
    usage: TraceUsage,
    /** Sum of step cost. */
    costUsd: z.number().min(0),
    /** Number of model exchanges. */
    exchanges: z.number().int().min(0),
    /** Number of steps. */
    steps: z.number().int().min(0),
  }),
  /** How the run ended. */
  result: TraceResult,
});
export type Trace = z.infer<typeof Trace>;
