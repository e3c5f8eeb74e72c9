/**
 * The job result every surface receives from a pipeline, and the JobRunner port the surfaces take.
 * The same schema validates a result read back from an Actions artifact: runner output is untrusted.
 */
import { z } from "zod";
import type { RetraceConfig } from "../config/schema.ts";
import type { JobSpec } from "../core/job.ts";

export const JobOutcome = z.enum([
  /** The pipeline reached its goal: a verdict (repro) or a verified patch (fix). */
  "succeeded",
  /** The pipeline ran to its end without reaching the goal (no verified patch, not reproduced). */
  "failed",
  /** The failure passed on rerun with unchanged code: no patch is proposed. */
  "flaky",
  /** The input was not enough; the summary holds the questions for the reporter. */
  "needs_info",
  /** Attempts, time, tokens or dollars ran out first. */
  "budget_exhausted",
  /** The job was cancelled (shutdown, abort). */
  "cancelled",
  /** Infrastructure or internal error; the summary says which phase failed. */
  "error",
]);
export type JobOutcome = z.infer<typeof JobOutcome>;

/** A failure location, for annotations and the summary. */
export const FailureLocation = z.object({
  /** Repository-relative file path. */
  file: z.string().min(1),
  /** 1-based line, when known. */
  line: z.number().int().positive().optional(),
  /** What failed there. */
  message: z.string(),
});
export type FailureLocation = z.infer<typeof FailureLocation>;

/** One file change of a verified patch (src/core/apply-patch.ts `FileWrite`): what the draft PR must write. */
export const JobFileChange = z.object({
  path: z.string().min(1).max(4096),
  /** New text (its UTF-8 bytes are written); null deletes the path. */
  content: z.string().max(10_000_000).nullable(),
  mode: z.enum(["100644", "100755"]),
});

export const JobResult = z.object({
  /** The id of the job spec this result answers. */
  jobId: z.string().min(1),
  /** Which pipeline produced it. */
  kind: z.enum(["repro", "fix"]),
  outcome: JobOutcome,
  /**
   * Repro: REPRODUCED, PARTIAL, NOT_REPRODUCED or NEEDS_INFO. Fix: FIXED, NOT_FIXED or FLAKY.
   * Null when the job ended before a verdict.
   */
  verdict: z.string().max(64).nullable(),
  /** Markdown: the evidence, the reproduction script or the flakiness report. Rendered into the comment. */
  summary: z.string().max(60_000),
  /** The verified unified diff (fix jobs that succeeded); null otherwise. */
  patch: z.string().max(1_000_000).nullable().default(null),
  /**
   * The file changes verification ran on (fix jobs that succeeded): the draft PR writes exactly these, and
   * only when applying `patch` at the base commit gives the same bytes and modes.
   */
  changes: z.array(JobFileChange).max(1000).optional(),
  /**
   * What the failing check runs (the test command, the package scripts it names, …: src/fix/failing-check.ts),
   * as the fix job's policy gate judged suppression comments against it. The publisher's gate judges the patch
   * again with it, so a suppression the job allowed (it silences no tool the failing check runs) is not blocked
   * there. Without it the publisher's gate blocks every suppression.
   */
  failingCheck: z.string().max(100_000).optional(),
  /** Title for the draft pull request, when there is a patch. */
  prTitle: z.string().max(200).optional(),
  /** Markdown body for the draft pull request, when there is a patch. */
  prBody: z.string().max(60_000).optional(),
  /** Where the failure is, for annotations. */
  failures: z.array(FailureLocation).max(200).default([]),
  /** Model dollars spent. */
  costUsd: z.number().min(0).default(0),
  /** Model tokens spent (input + output). */
  tokens: z.number().int().min(0).default(0),
  /** Attempts of the pipeline's loop. */
  attempts: z.number().int().min(0).default(0),
  /** Wall time of the job, in milliseconds. */
  durationMs: z.number().min(0).default(0),
});
export type JobResult = z.infer<typeof JobResult>;

/** Options the surfaces pass to a runner. */
export interface JobRunOptions {
  /** Aborted on shutdown or when the job's wall budget runs out. */
  signal: AbortSignal;
  /** The repository's `.github/retrace.yml`, already validated, when one was loaded. */
  config?: RetraceConfig;
  /** Progress lines for the tracking comment (phase names, attempt numbers). */
  onProgress?: (line: string) => void;
  /** A checkout of the failing commit made for this job (the App's local executor); wins over the runner's own. */
  repoDir?: string;
}

/** The pipelines, as one port: spec in, result out. Wired to `runJob` by the entries. */
export type JobRunner = (spec: JobSpec, options: JobRunOptions) => Promise<JobResult>;
