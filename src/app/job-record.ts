/**
 * The durable record of one job the App accepted. Written before the webhook is acknowledged, updated at
 * every state change, so a restart finds every job that was not finished.
 */
import { createHash } from "node:crypto";
import type { JobSpec } from "../core/job.ts";
import type { JobResult } from "../jobs/result.ts";
import type { Trigger } from "../jobs/triggers.ts";

export type JobState =
  /** Accepted from a webhook; authorization, config and budgets not checked yet. */
  | "received"
  /** Running in this process (local executor). */
  | "running"
  /** Handed to the repository's Retrace workflow (actions executor); waiting for its artifact. */
  | "dispatched"
  /** Finished: the result is on the comment. */
  | "completed"
  /** Finished with an error; the error is on the comment. */
  | "failed"
  /** Not run: not authorized, a newer commit exists, budget, lineage cap. `reason` says which. */
  | "skipped";

export const TERMINAL_STATES: readonly JobState[] = ["completed", "failed", "skipped"];

export interface JobRecord {
  /** Job id: also the tracking comment marker and the `retrace/` branch suffix. */
  id: string;
  /** X-GitHub-Delivery of the webhook that created it. */
  deliveryId: string;
  /** "owner/name". */
  repo: string;
  installationId: number;
  kind: "repro" | "fix";
  state: JobState;
  trigger: Trigger;
  /** The spec, once built. */
  spec: JobSpec | null;
  /** Issue or PR the tracking comment is on. */
  issueNumber: number | null;
  commentId: number | null;
  commentUrl: string | null;
  checkRunId: number | null;
  /** Fix lineage: the first non-Retrace branch a chain of fixes started from. */
  lineage: string | null;
  /** Branch the fix PR was opened from. */
  prBranch: string | null;
  prUrl: string | null;
  /** Why the job was skipped or failed. */
  reason: string | null;
  result: JobResult | null;
  costUsd: number;
  /** How many times a restart resumed it. */
  resumes: number;
  createdAt: number;
  updatedAt: number;
}

/** A job's id: stable per webhook delivery and kind, so a redelivered webhook names the same job. */
export function jobIdFor(kind: "repro" | "fix", deliveryId: string): string {
  return `${kind}-${createHash("sha256").update(deliveryId).digest("hex").slice(0, 12)}`;
}
