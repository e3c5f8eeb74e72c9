/**
 * The tracking comment: one per job, edited in place from "queued" to the final result, written by the one
 * publisher (./publish.ts) for the App and the Action. The hidden marker lets a surface find it again (after a
 * restart, or from a later step) and keeps Retrace from reacting to its own comment.
 */
import { code, fence, visible } from "../report/markdown.ts";
import type { JobResult } from "./result.ts";
import type { Trigger } from "./triggers.ts";
import { TRACKING_MARKER_PREFIX } from "./triggers.ts";

/**
 * Repository text (a check-run, workflow or branch name) in the trigger's table cell: one code span (`code`: a
 * backtick in it cannot end the span, so it cannot mention, link or embed an image), with `|` escaped so it
 * cannot add cells (GitHub splits a table row at a bare `|` even inside a code span).
 */
function cellCode(text: string): string {
  return code(text).replace(/\|/g, "\\|");
}

/** A commit's short name as it is, when it is one (a payload's `head_sha` is not checked before this). */
function shortSha(sha: string | null): string {
  const s = (sha ?? "").slice(0, 7);
  return /^[0-9a-f]*$/i.test(s) ? s : cellCode(s);
}

export function markerFor(jobId: string): string {
  return `${TRACKING_MARKER_PREFIX}${jobId} -->`;
}

export type TrackingPhase =
  | { phase: "queued" }
  | { phase: "running"; progress?: string }
  | { phase: "dispatched"; workflow: string }
  | { phase: "done"; result: JobResult; prUrl?: string | null; note?: string }
  | { phase: "failed"; error: string };

const KIND_NAME = { repro: "reproduction", fix: "fix" } as const;

function triggerLine(trigger: Trigger): string {
  switch (trigger.type) {
    case "repro":
      return trigger.via === "label"
        ? `label ${cellCode(trigger.word)} added by @${trigger.actor}`
        : `${cellCode(trigger.word)} by @${trigger.actor}`;
    case "fix":
      if (trigger.via === "command") return `${cellCode(trigger.word)} by @${trigger.actor}`;
      return `${trigger.via === "check_run" ? "check" : "workflow"} ${cellCode(trigger.checkName ?? "")} failed on ${cellCode(trigger.headBranch ?? "")} (${shortSha(trigger.headSha)})`;
    case "collect":
      return `workflow run ${trigger.runId}`;
    case "dispatch":
      return "dispatched by the Retrace App";
  }
}

function statusLine(p: TrackingPhase): string {
  switch (p.phase) {
    case "queued":
      return "⏳ queued";
    case "running":
      return p.progress ? `🔄 running — ${p.progress}` : "🔄 running";
    case "dispatched":
      return `🚀 dispatched to the ${code(p.workflow)} workflow`;
    case "done":
      return `${p.result.outcome === "succeeded" ? "✅" : "⚠️"} ${p.result.verdict ?? p.result.outcome}`;
    case "failed":
      return "❌ failed";
  }
}

/** The full comment body for a job in a phase. `redact` is applied to everything that came from a run. */
export function renderTrackingComment(
  job: { id: string; kind: "repro" | "fix"; trigger: Trigger },
  p: TrackingPhase,
  redact: (s: string) => string = (s) => s,
): string {
  const lines = [
    markerFor(job.id),
    `### Retrace ${KIND_NAME[job.kind]}: ${statusLine(p)}`,
    "",
    `| job | trigger |`,
    `|---|---|`,
    `| \`${job.id}\` | ${triggerLine(job.trigger)} |`,
    "",
  ];
  if (p.phase === "done") {
    const r = p.result;
    if (p.prUrl)
      lines.push(`**Draft pull request:** ${p.prUrl} — verified in the sandbox; review before merging.`, "");
    // The note is Retrace's sentence (outside names in it are code spans, ./publish.ts `refusalNote`). The summary is
    // the run's rendered report (Retrace's markdown; the renderers fence what a model or a report wrote).
    if (p.note) lines.push(`> ${visible(redact(p.note)).replace(/\n/g, " ")}`, "");
    lines.push(redact(r.summary), "");
    const seconds = (r.durationMs / 1000).toFixed(1);
    lines.push(
      `<sub>outcome \`${r.outcome}\` · ${r.attempts} attempt(s) · ${r.tokens} tokens · $${r.costUsd.toFixed(4)} · ${seconds} s</sub>`,
    );
  } else if (p.phase === "failed") {
    lines.push(fence(redact(p.error), "text"), "");
    lines.push("<sub>Comment the command again to retry once the problem is fixed.</sub>");
  } else {
    lines.push("<sub>This comment is updated in place when the job finishes.</sub>");
  }
  return lines.join("\n");
}
