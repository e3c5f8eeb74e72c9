/**
 * After the run: the outcome and its reason from how the machine ended, the attempt log (with the attempt the
 * run ended inside, read from the trace), the branch when FIXED and a publisher is wired, and the result.
 */
import { commitText } from "../../report/markdown.ts";
import type { FileWrite } from "../../core/apply-patch.ts";
import { addUsage, addUsd, billableTokens, zeroUsage } from "../../core/budget.ts";
import type { RunResult } from "../../core/loop.ts";
import type { Redactor } from "../../core/redact.ts";
import type { Trace } from "../../core/trace.ts";
import type { FixOptions, FixPorts } from "../ports.ts";
import type { AttemptRecord, FixOutcome, FixResult } from "../result.ts";
import { attemptRecord, type CurrentAttempt, type FixCtx } from "./fix-state.ts";

/** The longest subject (test ids) and body (a model's summary) of the commit message Retrace writes, in characters. */
export const COMMIT_SUBJECT_MAX = 200;
export const COMMIT_BODY_MAX = 4_000;

/** `text` cut to `max` characters (never inside a surrogate pair), saying how much was cut. */
export function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, /[\ud800-\udbff]/.test(text[max - 1] ?? "") ? max - 1 : max);
  return `${cut}… (${text.length - cut.length} more characters cut)`;
}

export interface FixRun {
  result: FixResult;
  trace: Trace;
  /** The accepted patch (FIXED only). */
  patch: string | null;
  /** The verified file changes of the accepted patch (FIXED only, when the verify port reports them). */
  changes: FileWrite[] | null;
  ctx: FixCtx;
}

/** Branch name for a fix: `retrace/fix-<first 8 safe characters of the id>`. */
export function fixBranchName(id: string): string {
  const short =
    id
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .slice(0, 8) || "job";
  return `retrace/fix-${short}`;
}

/**
 * The attempt the run ended inside (a budget bound or an error), not yet in the log: the context's, or — when
 * `root_cause` itself was stopped before it returned — the one that step opened, as its trace records it.
 */
export function openAttempt(run: RunResult<FixCtx>): CurrentAttempt | null {
  if (run.ctx.current) return run.ctx.current;
  const last = run.trace.steps.at(-1);
  if (!run.error || !last || last.state !== "root_cause" || last.next !== null) return null;
  const before = run.trace.steps.slice(0, -1);
  return {
    n: last.attempt,
    model: last.model ?? "(default)",
    tokensAtStart: billableTokens(before.reduce((u, s) => addUsage(u, s.usage), zeroUsage())),
    costAtStart: before.reduce((c, s) => addUsd(c, s.costUsd), 0),
    files: [],
  };
}

function outcomeOf(
  run: RunResult<FixCtx>,
  attemptLog: AttemptRecord[],
): { outcome: FixOutcome; reason: string } {
  const ctx = run.ctx;
  if (run.reason === "completed") {
    if (run.state === "flaky") {
      const f = ctx.flaky!;
      return {
        outcome: "FLAKY",
        reason: `the failing test(s) passed in ${f.passes} of ${f.runs} reruns on unchanged code`,
      };
    }
    return {
      outcome: "FIXED",
      reason: `a patch was verified: ${ctx.failingIds.length} failing test(s) now pass and nothing else broke`,
    };
  }
  if (run.state === "nothing")
    return { outcome: "GAVE_UP", reason: "no failing test was found: nothing to fix" };
  if (run.state === "no_model") {
    return {
      outcome: "ERROR",
      reason:
        "the failure is real (not flaky), but no model is configured: set ANTHROPIC_API_KEY or pass --model pointing at a configured endpoint",
    };
  }
  const last = attemptLog.at(-1);
  if (run.reason === "budget_exhausted:attempts") {
    const allBlocked = attemptLog.length > 0 && attemptLog.every((a) => a.verdict === "policy");
    if (allBlocked || last?.verdict === "policy") {
      return {
        outcome: "BLOCKED",
        reason: `every patch the model proposed was refused by the policy gate (${attemptLog.length} attempt(s))`,
      };
    }
    return {
      outcome: "GAVE_UP",
      reason: `no verified fix after ${run.attempts} attempt(s); last: ${last?.reason || "—"}`,
    };
  }
  if (run.reason.startsWith("budget_exhausted:")) {
    return {
      outcome: "BUDGET_EXHAUSTED",
      reason:
        `the ${run.reason.slice("budget_exhausted:".length)} budget ran out: ${run.error?.message ?? ""}`.trim(),
    };
  }
  if (run.reason === "cancelled") return { outcome: "ERROR", reason: "the job was cancelled" };
  return {
    outcome: "ERROR",
    reason: `${run.error?.message ?? run.reason}${run.error?.hint ? ` (${run.error.hint})` : ""}`,
  };
}

/** The result of a finished run; publishes the branch when FIXED and a publisher is wired. */
export async function finishFix(
  run: RunResult<FixCtx>,
  ports: FixPorts,
  options: FixOptions,
  redactor: Redactor,
  durationMs: () => number,
): Promise<FixRun> {
  const ctx = run.ctx;
  const tokens = billableTokens(run.usage);
  const open = openAttempt(run);
  const attemptLog =
    open && !ctx.attemptLog.some((a) => a.n === open.n)
      ? [
          ...ctx.attemptLog,
          attemptRecord(open, (s) => redactor.redact(s), {
            verdict: run.reason.startsWith("budget_exhausted") ? "budget" : "error",
            reason: run.error?.message ?? run.reason,
            violations: [],
            tokens,
            costUsd: run.costUsd,
          }),
        ]
      : ctx.attemptLog;
  const { outcome, reason } = outcomeOf(run, attemptLog);
  let branch: string | null = null;
  let commit: string | null = null;
  const patch = outcome === "FIXED" ? ctx.patch : null;
  if (outcome === "FIXED" && patch && ports.publish) {
    // Test ids come from a log and the summary from a model: shown, never acted on (commitText).
    // Both are cut to a commit message's size: a model's summary or a log's test id can be megabytes.
    const message = `Fix ${commitText(clipped(ctx.failingIds.slice(0, 3).join(", "), COMMIT_SUBJECT_MAX))}\n\n${commitText(clipped(ctx.accepted?.summary ?? "", COMMIT_BODY_MAX))}\n\nProposed by Retrace and verified in a sandbox. A human must review it before merging.`;
    const published = await ports.publish({
      branch: fixBranchName(options.id),
      patch,
      ...(ctx.verification?.changes ? { changes: ctx.verification.changes } : {}),
      message: redactor.redact(message),
    });
    branch = published.branch;
    commit = published.commit;
  }
  const result: FixResult = {
    id: options.id,
    outcome,
    reason: redactor.redact(reason),
    attempts: attemptLog.length,
    tokens,
    costUsd: run.costUsd,
    branch,
    commit,
    failingTests: ctx.failingIds,
    testCommand: ctx.testCommand,
    flaky: ctx.flaky,
    verification:
      outcome === "FIXED" && ctx.verification
        ? {
            runs: ctx.verification.runs,
            tests: ctx.verification.tests,
            ...(ctx.verification.antiGaming ? { antiGaming: ctx.verification.antiGaming } : {}),
            ...(ctx.verification.antiGamingGap ? { antiGamingGap: ctx.verification.antiGamingGap } : {}),
          }
        : null,
    attemptLog,
    durationMs: Math.max(0, durationMs()),
  };
  const changes = result.outcome === "FIXED" ? (ctx.verification?.changes ?? null) : null;
  return { result, trace: run.trace, patch, changes, ctx: { ...ctx, attemptLog } };
}
