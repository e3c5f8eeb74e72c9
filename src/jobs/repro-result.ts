/**
 * Maps a reproduction result onto the surfaces' common `JobResult` (src/jobs/result.ts): the report is the
 * comment, the verdict is carried as is, and NEEDS_INFO becomes the `needs_info` outcome.
 */
import type { JobResult } from "./result.ts";
import type { ReproResult } from "../repro/result.ts";

const MAX_MD = 60_000;

export function reproJobResult(jobId: string, result: ReproResult, reportMarkdown: string): JobResult {
  const md =
    reportMarkdown.length <= MAX_MD ? reportMarkdown : `${reportMarkdown.slice(0, MAX_MD - 40)}\n\n… (cut)\n`;
  return {
    jobId,
    kind: "repro",
    outcome: result.verdict === "NEEDS_INFO" ? "needs_info" : "succeeded",
    verdict: result.verdict,
    summary: md,
    patch: null,
    failures: [],
    costUsd: result.costUsd,
    tokens: result.tokens,
    attempts: result.attempts,
    durationMs: result.durationMs,
  };
}
