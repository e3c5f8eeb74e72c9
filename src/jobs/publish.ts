/**
 * The one publisher of a job, for the App and the Action: the tracking comment (one per job, edited in place),
 * the App's Retrace check run, and for a verified fix the policy gate run again on the patch, then the draft
 * pull request on a `retrace/…` branch, or the refusal note naming each violation's rule and `file:line`.
 *
 * The publisher keeps no state: it takes where the job's comment and check are, and returns what it wrote, so
 * the App persists the references in its job store and the Action reads them into its outputs.
 */
import { code, commitText, fence } from "../report/markdown.ts";
import { policyForFix, type RetraceConfig } from "../config/schema.ts";
import type { JobSpec } from "../core/job.ts";
import type { CommentRef, GitHubPort, RepoId } from "../core/ports/github.ts";
import { BRANCH_PREFIX, openDraftPullRequest } from "../github/draft-pr.ts";
import type { PolicyConfig } from "../policy/config.ts";
import { GATE_TREE_FILES } from "../policy/index.ts";
import { parsePatchSections } from "../core/apply-patch.ts";
import type { JobResult } from "./result.ts";
import { markerFor, renderTrackingComment, type TrackingPhase } from "./tracking-comment.ts";
import type { Trigger } from "./triggers.ts";

/** One violation as the policy gate reports it. */
export interface GateViolation {
  rule: string;
  file?: string | null;
  line?: number | null;
  message: string;
}
/**
 * The deterministic policy gate (src/policy `evaluatePatch`), injected by the entries. `context.failingCheck`:
 * what the failing check runs (JobResult.failingCheck), so that suppressions block only when they silence it.
 */
export type PolicyGate = (
  patch: string,
  config: PolicyConfig,
  context?: { failingCheck?: string; treeFiles?: readonly string[] },
) => { allowed: boolean; violations: GateViolation[] };

/** Where the job publishes: the repository, the gate, and the redactor everything written passes through. */
export interface Publisher {
  github: GitHubPort;
  repo: RepoId;
  gate: PolicyGate;
  redact: (text: string) => string;
}

/** The job as the publisher sees it. */
export interface PublishedJob {
  id: string;
  kind: "repro" | "fix";
  trigger: Trigger;
  /** The issue or pull request the tracking comment goes on; null: no comment (a check run only, or nothing). */
  issueNumber: number | null;
  /** The comment written before, when known; otherwise it is found by its marker. */
  commentId: number | null;
  /** The App's Retrace check run on the failed commit, when one was created. */
  checkRunId: number | null;
}

/** What `publishResult` wrote. */
export interface Publication {
  prUrl: string | null;
  prBranch: string | null;
  /** The note shown above the summary (the gate's refusal, the autofix-on-an-issue explanation). */
  note: string | null;
  comment: CommentRef | null;
}

/**
 * `/autofix` on a plain issue runs the reproduction only, and says so: Retrace's fix pipeline fixes a failing
 * check (a test it can run before and after), and an issue has none yet. See docs/app.md.
 */
export const AUTOFIX_ON_ISSUE =
  "`/autofix` on an issue runs the reproduction only: Retrace fixes failing checks, and an issue has none yet. " +
  "To get a fix, commit the reproduction as a failing test on a branch and open a pull request: when its check " +
  "fails, Retrace proposes a verified fix as a draft pull request (or comment `/autofix` on that pull request).";

/** The check run's name: Retrace never reacts to a check of this name (./triggers.ts). */
export const CHECK_NAME = "Retrace";

/** Create or edit the job's one tracking comment (found by its marker when its id is not known). */
export async function writeTrackingComment(
  p: Publisher,
  job: PublishedJob,
  phase: TrackingPhase,
): Promise<CommentRef | null> {
  if (job.issueNumber === null) return null;
  const body = renderTrackingComment(job, phase, p.redact);
  let commentId = job.commentId;
  if (commentId === null)
    commentId = (await p.github.findComment(p.repo, job.issueNumber, markerFor(job.id)))?.id ?? null;
  return commentId === null
    ? p.github.createComment(p.repo, job.issueNumber, body)
    : p.github.updateComment(p.repo, commentId, body);
}

/** The App's Retrace check run on the failed commit, in progress until the job ends. */
export async function startCheckRun(p: Publisher, job: PublishedJob, headSha: string): Promise<number> {
  const check = await p.github.createCheckRun(p.repo, headSha, CHECK_NAME, {
    status: "in_progress",
    title: `Retrace ${job.kind} running`,
    summary: `Job \`${job.id}\` is running.`,
  });
  return check.id;
}

/** The paths a patch names (each section's old and new), or none when it does not parse (the gate refuses it). */
function patchPaths(patch: string): string[] {
  try {
    return [
      ...new Set(parsePatchSections(patch).flatMap((s) => [s.oldPath, s.newPath].filter((p) => p !== null))),
    ];
  } catch {
    return [];
  }
}

/** The gate's refusal, one violation after the other, each with its rule and `file:line` when it has one. */
export function refusalNote(violations: GateViolation[]): string {
  // A file name and a message come from the patch: each one code span, so none mentions, links or hides (wave 23).
  return `The policy gate refused the patch, so no pull request was opened: ${violations
    .map(
      (v) =>
        `${v.rule}${v.file ? ` (${code(`${v.file}${v.line ? `:${v.line}` : ""}`)})` : ""}: ${code(v.message)}`,
    )
    .join("; ")}`;
}

/** The draft PR's title and body: the pipeline's, or a plain one; the marker ties the PR to the job. */
export function pullRequestText(
  jobId: string,
  result: JobResult,
  headBranch: string,
  redact: (text: string) => string,
): { title: string; body: string } {
  return {
    // A result's title comes from a run (an artifact, in the App): shown, never acted on, whoever built it.
    title: redact(commitText(result.prTitle ?? `Fix failing check on ${headBranch}`)),
    // Without the pipeline's body, the run's summary is shown as text (a fenced block), never rendered.
    body: redact(`${result.prBody ?? fence(result.summary, "text")}\n\n${markerFor(jobId)}`),
  };
}

/**
 * A finished job: gate a verified patch again and open the draft PR (or say why not), then the final comment
 * and the check run's conclusion. A patch is only ever published from a `succeeded` fix of a known commit.
 */
export async function publishResult(
  p: Publisher,
  job: PublishedJob,
  spec: JobSpec | null,
  result: JobResult,
  config: RetraceConfig,
): Promise<Publication> {
  let prUrl: string | null = null;
  let prBranch: string | null = null;
  let note: string | null = null;
  if (job.kind === "fix" && result.patch && result.outcome === "succeeded" && spec?.kind === "fix") {
    // The base tree's names along the patch's paths: a new file that folds onto one of them (`src/Auth.js`
    // beside `src/auth.js`) is refused here too, not only by the runner's gate (wave 23).
    const treeFiles = spec.headSha
      ? await p.github.listTreeNames(p.repo, spec.headSha, patchPaths(result.patch), GATE_TREE_FILES)
      : [];
    const verdict = p.gate(result.patch, policyForFix(config), {
      ...(result.failingCheck !== undefined ? { failingCheck: result.failingCheck } : {}),
      treeFiles,
    });
    if (!verdict.allowed) {
      note = refusalNote(verdict.violations);
    } else if (!spec.headBranch || !spec.headSha) {
      note = "The failed branch is unknown, so no pull request was opened.";
    } else {
      prBranch = `${BRANCH_PREFIX}${job.id}`;
      const pr = await openDraftPullRequest(p.github, p.repo, {
        baseBranch: spec.headBranch,
        baseSha: spec.headSha,
        branch: prBranch,
        patch: result.patch,
        // The PR holds exactly the bytes verification ran on: the applier's result at the base must equal them.
        ...(result.changes ? { verified: result.changes } : {}),
        ...pullRequestText(job.id, result, spec.headBranch, p.redact),
      });
      prUrl = pr.url;
    }
  }
  if (job.trigger.type === "repro" && job.trigger.thenFix) note = AUTOFIX_ON_ISSUE;
  const comment = await writeTrackingComment(p, job, {
    phase: "done",
    result,
    prUrl,
    ...(note ? { note } : {}),
  });
  if (job.checkRunId !== null) {
    await p.github.updateCheckRun(p.repo, job.checkRunId, {
      status: "completed",
      conclusion: result.outcome === "succeeded" ? "success" : "neutral",
      title: `Retrace ${job.kind}: ${result.verdict ?? result.outcome}`,
      summary: p.redact(
        `${prUrl ? `Draft PR: ${prUrl}\n\n` : ""}${note ? `${note}\n\n` : ""}${result.summary}`,
      ),
    });
  }
  return { prUrl, prBranch, note, comment };
}

/** A job that ended in an error: on its comment and its check run. Never a verdict. */
export async function publishFailure(
  p: Publisher,
  job: PublishedJob,
  message: string,
): Promise<CommentRef | null> {
  const comment = await writeTrackingComment(p, job, { phase: "failed", error: message });
  if (job.checkRunId !== null) {
    await p.github.updateCheckRun(p.repo, job.checkRunId, {
      status: "completed",
      conclusion: "failure",
      title: `Retrace ${job.kind} failed`,
      summary: fence(p.redact(message), "text"),
    });
  }
  return comment;
}

/** A job the intake refused with a reason worth telling (a fork, no failed check, a daily limit). */
export function publishRefusal(p: Publisher, job: PublishedJob, reason: string): Promise<CommentRef | null> {
  return writeTrackingComment(p, job, { phase: "failed", error: `Not started: ${reason}.` });
}
