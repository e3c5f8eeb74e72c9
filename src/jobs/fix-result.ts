/**
 * Maps a finished fix run onto the surfaces' common `JobResult` (src/jobs/result.ts), so `runJob` can
 * register the fix pipeline with one small adapter: the PR body and patch when FIXED, the report otherwise.
 * The pipeline returns the run; its markdown (the PR body or the honest report) is rendered here, on the way
 * out to a surface, not inside the pipeline.
 */
import { commitText } from "../report/markdown.ts";
import type { Redactor } from "../core/redact.ts";
import type { JobOutcome, JobResult } from "./result.ts";
import type { FixRun } from "../fix/pipeline.ts";
import { renderFixReport } from "../report/pr-body.ts";
import type { FixOutcome } from "../fix/result.ts";

const OUTCOME: Record<FixOutcome, JobOutcome> = {
  FIXED: "succeeded",
  FLAKY: "flaky",
  GAVE_UP: "failed",
  BLOCKED: "failed",
  BUDGET_EXHAUSTED: "budget_exhausted",
  ERROR: "error",
};

const MAX_MD = 60_000;

function cap(md: string): string {
  return md.length <= MAX_MD ? md : `${md.slice(0, MAX_MD - 40)}\n\n… (cut at ${MAX_MD} characters)\n`;
}

export function fixJobResult(run: FixRun, redactor: Redactor): JobResult {
  const r = run.result;
  const md = cap(fixReportMarkdown(run, redactor));
  const fixed = r.outcome === "FIXED" && run.patch !== null;
  const firstTests = r.failingTests.slice(0, 2).join(", ");
  return {
    jobId: r.id,
    kind: "fix",
    outcome: OUTCOME[r.outcome],
    verdict: r.outcome === "FIXED" ? "FIXED" : r.outcome === "FLAKY" ? "FLAKY" : "NOT_FIXED",
    summary: fixed
      ? `**FIXED**: ${r.reason}\n\n${r.branch ? `Branch \`${r.branch}\`, ` : ""}${r.attempts} attempt(s), ${r.tokens} tokens, $${r.costUsd.toFixed(4)}.`
      : md,
    patch: fixed ? redactor.redact(run.patch!) : null,
    // Redacted like the patch: a change whose text held a secret no longer matches it, and no PR is opened.
    ...(fixed && run.changes
      ? {
          changes: run.changes.map((c) => ({
            ...c,
            content: c.content === null ? null : redactor.redact(c.content),
          })),
        }
      : {}),
    ...(fixed && run.ctx.gate?.failingCheck !== undefined ? { failingCheck: run.ctx.gate.failingCheck } : {}),
    ...(fixed
      ? {
          // The title is the App's commit message too: log text in it is shown, never acted on (commitText).
          prTitle:
            `Fix failing test${r.failingTests.length === 1 ? "" : "s"}: ${commitText(firstTests)}`.slice(
              0,
              200,
            ),
          prBody: md,
        }
      : {}),
    failures: run.ctx.failures
      .filter((f) => f.file)
      .slice(0, 200)
      .map((f) => ({
        file: f.file!,
        ...(f.line ? { line: f.line } : {}),
        message: redactor.redact(f.message.split("\n")[0] ?? "").slice(0, 500),
      })),
    costUsd: r.costUsd,
    tokens: r.tokens,
    attempts: r.attempts,
    durationMs: r.durationMs,
  };
}

/** The markdown for `pr.md` of a finished run: PR body when FIXED, the honest report otherwise. Redacted. */
export function fixReportMarkdown(run: FixRun, redactor: Redactor): string {
  const ctx = run.ctx;
  return renderFixReport({
    result: run.result,
    excerpt: ctx.excerpt,
    ...(ctx.accepted?.rootCause ? { rootCause: ctx.accepted.rootCause } : {}),
    ...(ctx.accepted?.summary ? { summary: ctx.accepted.summary } : {}),
    ...(run.patch ? { patch: run.patch } : {}),
    ...(ctx.gate?.allowed ? { policyRules: ctx.gate.rules } : {}),
    ...(ctx.gate?.allowed && ctx.gate.warnings
      ? {
          policyWarnings: ctx.gate.warnings.map(
            (v) =>
              `${v.rule} ${v.file ?? "(patch)"}${v.line === undefined ? "" : `:${v.line}`}: ${v.message}`,
          ),
        }
      : {}),
    stackFiles: [
      ...new Set(
        ctx.failures.flatMap((f) => [...(f.file ? [f.file] : []), ...f.frames.map((fr) => fr.file)]),
      ),
    ],
    redact: (s) => redactor.redact(s),
  });
}
