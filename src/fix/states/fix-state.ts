/**
 * The fix pipeline's context, as the loop engine carries it from state to state, and what every state may
 * read but never changes (`FixEnv`). Each state takes both explicitly and returns the next context; an attempt
 * in progress lives in `ctx.current` and nowhere else.
 */
import type { StepFeedback, StepIO } from "../../core/loop.ts";
import type { ContentBlock, ModelMessage, ModelResponse, ToolCall } from "../../core/ports/model.ts";
import type { FileChange } from "../apply-edits.ts";
import type { Explorer, RepoView } from "../explore.ts";
import type { FailureInfo } from "../failure.ts";
import type { FixOptions, FixPorts, GateVerdict, VerifyVerdict } from "../ports.ts";
import type { AttemptRecord, FlakyReport } from "../result.ts";
import {
  explorationTools,
  type ProposeEditsInput,
  proposeEditsTool,
  type RootCauseInput,
  rootCauseTool,
} from "../tools.ts";

export type FixStateName =
  | "failure"
  | "triage"
  | "context"
  | "root_cause"
  | "propose"
  | "apply"
  | "gate"
  | "verify"
  | "fixed"
  | "flaky"
  | "nothing"
  | "no_model";

/** Why the run stopped before the model loop, when it did. */
export type EarlyStop = "no_failure" | "no_model" | null;

export interface CurrentAttempt {
  n: number;
  model: string;
  tokensAtStart: number;
  costAtStart: number;
  rootCause?: RootCauseInput;
  summary?: string;
  files: string[];
  patch?: string;
}

export interface FixCtx {
  failures: FailureInfo[];
  failingIds: string[];
  excerpt: string;
  testCommand: string | null;
  flaky: FlakyReport | null;
  earlyStop: EarlyStop;
  baseOutcomes: Map<string, string>;
  context: string;
  contextSummary: { included: string[]; omitted: string[]; tokens: number } | null;
  messages: ModelMessage[];
  /** The attempt in progress, from `root_cause` until it is rejected or accepted. */
  current: CurrentAttempt | null;
  /** The current attempt's validated `propose_edits` input. */
  proposal: ProposeEditsInput | null;
  attemptLog: AttemptRecord[];
  changes: FileChange[];
  patch: string | null;
  gate: GateVerdict | null;
  verification: VerifyVerdict | null;
  /** The accepted attempt's root cause and summary (FIXED). */
  accepted: { rootCause?: RootCauseInput; summary?: string } | null;
}

/** What every state reads: the ports, the options, the repository view and the exploration tools. */
export interface FixEnv {
  ports: FixPorts;
  options: FixOptions;
  repo: RepoView;
  /** The exploration tools, with their call allowance over the whole job. */
  explorer: Explorer;
  /** Model rounds allowed per root-cause step. */
  maxRounds: number;
  log: (line: string) => void;
}

export const TOOLS = [...explorationTools, rootCauseTool, proposeEditsTool];
const EXCERPT_LIMIT = 4_000;

export function initialFixCtx(): FixCtx {
  return {
    failures: [],
    failingIds: [],
    excerpt: "",
    testCommand: null,
    flaky: null,
    earlyStop: null,
    baseOutcomes: new Map(),
    context: "",
    contextSummary: null,
    messages: [],
    current: null,
    proposal: null,
    attemptLog: [],
    changes: [],
    patch: null,
    gate: null,
    verification: null,
    accepted: null,
  };
}

/** Zero-width, bidi-control and other invisible characters: a log is hostile input, and these hide text from a human reader. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function clip(text: string, max = EXCERPT_LIMIT): string {
  text = text.replace(INVISIBLE, "");
  return text.length <= max ? text : `[... ${text.length - max} characters cut]\n${text.slice(-max)}`;
}

/** An attempt as the log records it, with what it spent since it started. */
export function attemptRecord(
  c: CurrentAttempt,
  redact: (s: string) => string,
  end: {
    verdict: AttemptRecord["verdict"];
    reason: string;
    violations: string[];
    tokens: number;
    costUsd: number;
  },
): AttemptRecord {
  return {
    n: c.n,
    model: c.model,
    ...(c.rootCause ? { rootCause: redact(c.rootCause.hypothesis) } : {}),
    ...(c.summary ? { summary: redact(c.summary) } : {}),
    files: c.files,
    ...(c.patch ? { patch: redact(c.patch) } : {}),
    verdict: end.verdict,
    reason: redact(end.reason),
    violations: end.violations,
    tokens: Math.max(0, end.tokens - c.tokensAtStart),
    costUsd: Math.max(0, Math.round((end.costUsd - c.costAtStart) * 1e6) / 1e6),
  };
}

/** Closes the current attempt into the log. */
export function closeAttempt(
  ctx: FixCtx,
  io: StepIO,
  verdict: AttemptRecord["verdict"],
  reason: string,
  violations: string[] = [],
): AttemptRecord[] {
  const c = ctx.current;
  if (!c) return ctx.attemptLog;
  const record = attemptRecord(c, (s) => io.redactor.redact(s), {
    verdict,
    reason,
    violations,
    tokens: io.budget.tokens,
    costUsd: io.budget.costUsd,
  });
  return [...ctx.attemptLog, record];
}

/** Rejects the current attempt: closes it with its verdict and hands the feedback to the next one. */
export function reject(
  ctx: FixCtx,
  io: StepIO,
  fb: StepFeedback,
  verdict: AttemptRecord["verdict"],
  violations: string[] = [],
) {
  const attemptLog = closeAttempt(ctx, io, verdict, fb.message.split("\n")[0] ?? fb.message, violations);
  return {
    next: "root_cause" as const,
    ctx: { ...ctx, attemptLog, current: null, messages: [], proposal: null },
    feedback: fb,
    summary: `rejected at ${fb.step}: ${fb.errorType}`,
  };
}

export function failureText(ctx: FixCtx): string {
  const lines = [`Failing tests (${ctx.failingIds.length}):`];
  for (const f of ctx.failures) {
    lines.push(
      `- ${f.testId}${f.file ? ` (${f.file}${f.line ? `:${f.line}` : ""})` : ""}: ${f.message.split("\n")[0] ?? ""}`,
    );
  }
  lines.push("", "Failure output:", ctx.excerpt);
  if (ctx.flaky) {
    lines.push("", `Rerun ${ctx.flaky.runs} time(s) on the unchanged code: failed every time (not flaky).`);
  }
  return lines.join("\n");
}

export function assistantBlocks(res: ModelResponse): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (res.text) blocks.push({ type: "text", text: res.text });
  for (const c of res.toolCalls) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
  return blocks;
}

export function skipped(call: ToolCall, why: string): ContentBlock {
  return { type: "tool_result", toolUseId: call.id, content: why, isError: true };
}
