/**
 * The App's job lifecycle: accept a webhook (durably, de-duplicated) → intake → run locally or dispatch to
 * the repository's workflow → publish (policy gate again, draft PR, comment, check run). Every job ends in
 * a reported terminal state; a restart resumes what was accepted. The trigger, the intake and the publisher are
 * the job layer's (src/jobs/, shared with the Action); the App keeps its store, queue, slots and dispatch.
 */
import { createHash } from "node:crypto";
import PQueue from "p-queue";
import { describeError } from "../core/errors.ts";
import type { JobSpec } from "../core/job.ts";
import { Redactor } from "../core/redact.ts";
import { type RetraceConfig, defaultConfig } from "../config/schema.ts";
import { loadRepoConfig } from "../config/repo-config.ts";
import type { GitHubPort, RepoId } from "../core/ports/github.ts";
import { repoIdOf } from "../core/ports/github.ts";
import { unzip } from "../github/unzip.ts";
import { hasPermission, intake } from "../jobs/intake.ts";
import type { IntakeMaxima } from "../jobs/intake-rules.ts";
import {
  CHECK_NAME,
  type PolicyGate,
  type Publisher,
  publishFailure,
  publishRefusal,
  publishResult,
  startCheckRun,
  writeTrackingComment,
} from "../jobs/publish.ts";
import { JobResult, type JobRunner } from "../jobs/result.ts";
import type { TrackingPhase } from "../jobs/tracking-comment.ts";
import { type CollectTrigger, type Identity, type JobTrigger, parseEvent } from "../jobs/triggers.ts";
import { type Checkout, checkoutCommit } from "./checkout.ts";
import { appIntakeContext } from "./intake-context.ts";
import { type JobRecord, jobIdFor, TERMINAL_STATES } from "./job-record.ts";
import type { JobStore } from "./job-store.ts";
import { RepoSlots } from "./repo-slots.ts";

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface JobServiceOptions {
  store: JobStore;
  runner: JobRunner;
  gate: PolicyGate;
  /** An installation-scoped GitHub client. */
  githubFor: (installationId: number) => Promise<GitHubPort>;
  identity: Identity;
  /** `local`: run jobs in this process; `actions`: dispatch the repository's Retrace workflow. */
  executor: "local" | "actions";
  /** Workflow file dispatched by the `actions` executor. */
  workflow: string;
  /** Jobs running at once across all repositories. */
  concurrency: number;
  /** How many times a restart may resume a job that was running. */
  maxResumes?: number;
  log: Logger;
  now?: () => number;
  /** Values to redact from everything posted (the App's own secrets). */
  secrets?: string[];
  /** How a fix job gets the failing commit's files (default: the repository tarball through the API). */
  checkout?: typeof checkoutCommit;
  /** The operator's maxima (RETRACE_HOST_LIMITS) the intake lowers a repository's budgets and daily limits to. */
  maxima: IntakeMaxima;
}

export type ReceiveOutcome =
  | { status: "queued"; jobId: string }
  | { status: "duplicate" }
  | { status: "ignored"; reason: string };

/** How long a refused comment command answers the actor's further ones in a repository without a record. */
const REFUSAL_MEMORY_MS = 2 * 60_000;

export const RESULT_ARTIFACT_PREFIX = "retrace-result-";

/** A delivery's event as the de-duplication key of its body: the event name and the payload GitHub signed. */
export function eventDigest(name: string, payload: unknown): string {
  return `sha256:${createHash("sha256")
    .update(name)
    .update("\0")
    .update(JSON.stringify(payload) ?? "")
    .digest("hex")}`;
}

export class JobService {
  private readonly queue: PQueue;
  private readonly controllers = new Map<string, AbortController>();
  private readonly slots = new RepoSlots();
  private readonly redactor: Redactor;
  private readonly now: () => number;
  private readonly log: Logger;
  private stopped = false;

  constructor(private readonly o: JobServiceOptions) {
    this.queue = new PQueue({ concurrency: o.concurrency });
    this.redactor = new Redactor(o.secrets ?? []);
    this.now = o.now ?? Date.now;
    // Every log line goes through the redactor: error messages quote API answers and runner output.
    const r = (m: string) => this.redactor.redact(m);
    this.log = {
      info: (m) => o.log.info(r(m)),
      warn: (m) => o.log.warn(r(m)),
      error: (m) => o.log.error(r(m)),
    };
  }

  /** Synchronous part of a webhook: de-duplicate, decide, persist, enqueue. Nothing here calls GitHub. */
  receive(deliveryId: string, name: string, payload: unknown): ReceiveOutcome {
    if (!this.o.store.recordDelivery(deliveryId, this.now())) return { status: "duplicate" };
    // The signature covers the body, not the delivery header: the same signed body under a fresh delivery id (a
    // replay by anyone who saw one delivery: a log, a proxy) is the same event, and each event is one job.
    if (!this.o.store.recordDelivery(eventDigest(name, payload), this.now())) return { status: "duplicate" };
    const d = parseEvent(name, payload, { kind: "app", identity: this.o.identity });
    if (!d.accept) return { status: "ignored", reason: d.reason };
    if (d.trigger.type === "collect") {
      const t = d.trigger;
      this.queue.add(() => this.guard(`collect run ${t.runId}`, () => this.collect(t)));
      return { status: "queued", jobId: `collect-${t.runId}` };
    }
    if (d.trigger.type === "dispatch")
      return { status: "ignored", reason: "the App dispatches jobs; it takes none" };
    const installationId = d.trigger.installationId;
    if (installationId === null) return { status: "ignored", reason: "the payload names no installation" };
    const waiting = this.pendingOrRefused(d.trigger);
    if (waiting) return { status: "ignored", reason: waiting };
    const record = this.newRecord(
      jobIdFor(d.trigger.type, deliveryId),
      deliveryId,
      d.trigger,
      installationId,
    );
    this.o.store.insert(record);
    this.enqueue(record.id);
    return { status: "queued", jobId: record.id };
  }

  /** After a restart: re-run accepted and interrupted jobs; report the ones that cannot be resumed. */
  async resume(): Promise<{ resumed: string[]; failed: string[] }> {
    const resumed: string[] = [];
    const failed: string[] = [];
    for (const job of this.o.store.listUnfinished()) {
      if (job.state === "received") {
        this.enqueue(job.id);
        resumed.push(job.id);
      } else if (job.state === "running") {
        if (job.resumes < (this.o.maxResumes ?? 1)) {
          this.o.store.update(job.id, { state: "received", resumes: job.resumes + 1 });
          this.enqueue(job.id);
          resumed.push(job.id);
        } else {
          await this.guard(job.id, () =>
            this.fail(
              job.id,
              "Retrace restarted while this job was running, more often than it may resume a job.",
            ),
          );
          failed.push(job.id);
        }
      } else if (job.state === "dispatched") {
        const wall = job.spec?.budget.maxWallMs ?? 15 * 60_000;
        if (this.now() - job.updatedAt > wall + 3_600_000) {
          await this.guard(job.id, () =>
            this.fail(job.id, "the dispatched workflow never delivered a result artifact."),
          );
          failed.push(job.id);
        }
      }
    }
    return { resumed, failed };
  }

  /** Resolves when no job is queued or running. */
  async idle(): Promise<void> {
    await this.queue.onIdle();
  }

  /** Stop taking work. Running jobs stay `running` in the store, so the next start resumes them. */
  stop(): void {
    this.stopped = true;
    this.queue.pause();
    this.queue.clear();
    for (const c of this.controllers.values()) c.abort();
  }

  /**
   * Why a comment command (which needs its actor's permission) makes no record, or null. Each comment command used
   * to make a job record before anything was read, so a reader's 60 `/retrace` comments left 60 refused records on
   * disk (waves 20 and 21): now an actor with a command job still waiting on the same issue or pull request, or
   * whose command was refused in this repository in the last REFUSAL_MEMORY_MS (for permission: any command; for
   * its word: the same word), is answered without a record.
   */
  private pendingOrRefused(t: JobTrigger): string | null {
    if ((t.type !== "repro" && t.type !== "fix") || t.via !== "command" || !t.checkPermission) return null;
    const number = t.type === "repro" ? t.issueNumber : t.prNumber;
    const terminal = new Set<string>(TERMINAL_STATES);
    for (const j of this.o.store.jobsSince(t.repo, this.now() - REFUSAL_MEMORY_MS)) {
      const by = j.trigger;
      if ((by.type !== "repro" && by.type !== "fix") || by.via !== "command" || by.actor !== t.actor)
        continue;
      if (!terminal.has(j.state) && j.kind === t.type && j.issueNumber === number)
        return `@${t.actor}'s command job ${j.id} on #${number} is still waiting`;
      if (j.state === "skipped" && (j.reason?.startsWith(`@${t.actor} lacks `) || by.word === t.word))
        return `@${t.actor}'s ${by.word} was refused in ${t.repo} moments ago (job ${j.id}: ${j.reason ?? "skipped"})`;
    }
    return null;
  }

  private newRecord(id: string, deliveryId: string, trigger: JobTrigger, installationId: number): JobRecord {
    const now = this.now();
    return {
      id,
      deliveryId,
      repo: trigger.repo,
      installationId,
      kind: trigger.type,
      state: "received",
      trigger,
      spec: null,
      issueNumber: trigger.type === "repro" ? trigger.issueNumber : trigger.prNumber,
      commentId: null,
      commentUrl: null,
      checkRunId: null,
      lineage: null,
      prBranch: null,
      prUrl: null,
      reason: null,
      result: null,
      costUsd: 0,
      resumes: 0,
      createdAt: now,
      updatedAt: now,
    };
  }

  private enqueue(id: string): void {
    this.queue.add(() => this.guard(id, () => this.process(id)));
  }

  /** One try/catch per job: whatever fails, the job ends reported. */
  private async guard(id: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      // Shutting down: the runner was aborted on purpose, and the next start resumes the job.
      if (this.stopped) return;
      this.log.error(`job ${id}: ${describeError(error)}`);
      if (this.o.store.get(id)) {
        try {
          await this.fail(id, describeError(error));
        } catch (reportError) {
          this.log.error(`job ${id}: reporting the failure failed too: ${describeError(reportError)}`);
        }
      }
    }
  }

  private async process(id: string): Promise<void> {
    const job = this.o.store.get(id);
    if (job?.state !== "received" || this.stopped) return;
    const github = await this.o.githubFor(job.installationId);
    const repo = repoIdOf(job.repo);
    let config: RetraceConfig;
    try {
      config = await loadRepoConfig(github, repo);
    } catch (error) {
      const next = this.slots.forfeit(job.repo, id);
      if (next !== null) this.enqueue(next);
      // Nobody without permission makes the App write: with the config unreadable, the default minimum applies.
      const t = job.trigger;
      if ((t.type === "repro" || t.type === "fix") && t.checkPermission) {
        const min = defaultConfig().commands.minPermission;
        if (!(await hasPermission(github, repo, t.actor, min))) {
          const reason = `@${t.actor} lacks ${min} permission (or it could not be read); .github/retrace.yml is invalid too`;
          this.o.store.update(id, { state: "skipped", reason: this.redactor.redact(reason) });
          this.log.info(`job ${id} skipped: ${reason}`);
          return;
        }
      }
      // Invalid config: report on the comment (or the check), naming the field and the problem.
      if (t.type === "fix" && t.headSha && job.issueNumber === null) {
        const check = await github.createCheckRun(repo, t.headSha, CHECK_NAME, {
          status: "completed",
          conclusion: "action_required",
          title: "Invalid .github/retrace.yml",
          summary: this.redactor.redact(describeError(error)),
        });
        this.o.store.update(id, { checkRunId: check.id });
      }
      await this.fail(id, describeError(error));
      return;
    }
    if (!this.slots.tryAcquire(job.repo, id, config.limits.concurrentJobs)) {
      // The repository already runs limits.concurrentJobs jobs: wait (still `received`) for one to finish.
      this.slots.defer(job.repo, id);
      this.log.info(
        `job ${id} waits: ${job.repo} already runs limits.concurrentJobs = ${config.limits.concurrentJobs} job(s)`,
      );
      return;
    }
    try {
      await this.runAccepted(github, repo, job, config);
    } finally {
      const next = this.slots.release(job.repo);
      if (next !== null) this.enqueue(next);
    }
  }

  /** Intake, then run here or dispatch. Holds one of the repository's `limits.concurrentJobs` slots. */
  private async runAccepted(
    github: GitHubPort,
    repo: RepoId,
    job: JobRecord,
    config: RetraceConfig,
  ): Promise<void> {
    const id = job.id;
    const trigger = job.trigger;
    if (trigger.type !== "repro" && trigger.type !== "fix") return;
    const outcome = await intake(
      trigger,
      config,
      github,
      appIntakeContext(this.o.store, job, this.now(), this.o.maxima),
    );
    if (!outcome.ok) {
      this.o.store.update(id, { state: "skipped", reason: outcome.reason });
      this.log.info(`job ${id} skipped: ${outcome.reason}`);
      if (outcome.report && outcome.issueNumber !== null) {
        await this.track(github, repo, { ...job, issueNumber: outcome.issueNumber }, (p, j) =>
          publishRefusal(p, j, outcome.reason),
        );
      }
      return;
    }
    let current = this.o.store.update(id, {
      spec: outcome.spec,
      // A command read against the configured words may have become the other kind of job.
      kind: outcome.spec.kind,
      trigger: outcome.trigger,
      issueNumber: outcome.issueNumber,
      lineage: outcome.lineage,
    });
    current = await this.writeComment(github, repo, current, { phase: "queued" });
    if (outcome.headSha && current.checkRunId === null) {
      const checkRunId = await startCheckRun(this.publisher(github, repo), current, outcome.headSha);
      current = this.o.store.update(id, { checkRunId });
    }
    const spec = outcome.spec;
    if (this.o.executor === "actions") {
      await this.dispatch(github, repo, current, spec);
      return;
    }
    current = this.o.store.update(id, { state: "running" });
    current = await this.writeComment(github, repo, current, { phase: "running" });
    const controller = new AbortController();
    this.controllers.set(id, controller);
    let result: JobResult;
    let checkout: Checkout | null = null;
    try {
      // A fix needs the failing commit's files: fetched with the installation token, removed afterwards.
      if (spec.kind === "fix" && spec.headSha) {
        checkout = await (this.o.checkout ?? checkoutCommit)(github, repo, spec.headSha, id);
        if (checkout.droppedLinks.length > 0) {
          this.log.warn(`job ${id}: dropped links outside the checkout: ${checkout.droppedLinks.join(", ")}`);
        }
      }
      result = JobResult.parse(
        await this.o.runner(spec, {
          signal: controller.signal,
          config,
          ...(checkout ? { repoDir: checkout.dir } : {}),
        }),
      );
    } finally {
      this.controllers.delete(id);
      await checkout?.dispose();
    }
    if (this.stopped) return; // shutting down: the next start resumes it
    await this.publish(github, repo, current, result, config);
  }

  private async dispatch(github: GitHubPort, repo: RepoId, job: JobRecord, spec: JobSpec): Promise<void> {
    const ref = spec.repo?.defaultBranch ?? (await this.defaultBranchOf(github, repo, job));
    // The log stays behind (inputs are size-limited): `logJobIds` tells the runner which logs to download.
    const { log: _log, ...rest } = spec as JobSpec & { log?: string };
    await github.dispatchWorkflow(repo, this.o.workflow, ref, { "job-spec": JSON.stringify(rest) });
    const current = this.o.store.update(job.id, { state: "dispatched" });
    await this.writeComment(github, repo, current, { phase: "dispatched", workflow: this.o.workflow });
  }

  /** The branch the workflow is dispatched on: from the payload, else asked of the API (never guessed). */
  private async defaultBranchOf(github: GitHubPort, repo: RepoId, job: JobRecord): Promise<string> {
    const t = job.trigger;
    if ((t.type === "repro" || t.type === "fix") && t.defaultBranch) return t.defaultBranch;
    return github.getDefaultBranch(repo);
  }

  /** A dispatched run finished: read its artifact, validate it, and publish it as if it had run here. */
  private async collect(t: CollectTrigger): Promise<void> {
    const github = await this.o.githubFor(t.installationId);
    const repo = repoIdOf(t.repo);
    const artifacts = await github.listRunArtifacts(repo, t.runId);
    for (const artifact of artifacts) {
      if (!artifact.name.startsWith(RESULT_ARTIFACT_PREFIX) || artifact.expired) continue;
      const jobId = artifact.name.slice(RESULT_ARTIFACT_PREFIX.length);
      const job = this.o.store.get(jobId);
      // Runner output is untrusted: only a job this App dispatched, in this repository, is completed by it.
      if (!job || job.repo !== t.repo || job.state !== "dispatched") {
        this.log.warn(`run ${t.runId}: artifact ${artifact.name} matches no dispatched job of ${t.repo}`);
        continue;
      }
      // Only the run of the workflow this App dispatched, on the branch it dispatched it on: another workflow of the
      // repository (or this one run on another branch, with a changed file) can upload an artifact of this name and
      // would otherwise publish a verdict and a pull request no Retrace run produced.
      const workflowPath = `.github/workflows/${this.o.workflow}`;
      const ref = job.spec?.repo?.defaultBranch ?? (await this.defaultBranchOf(github, repo, job));
      if (t.workflowPath !== workflowPath || t.headBranch !== ref) {
        this.log.warn(
          `run ${t.runId}: artifact ${artifact.name} comes from ${JSON.stringify(t.workflowPath)} on ${JSON.stringify(t.headBranch)}, not the dispatched ${workflowPath} on ${ref}; ignored`,
        );
        continue;
      }
      await this.guard(jobId, async () => {
        const files = unzip(await github.downloadArtifact(repo, artifact.id));
        const raw = files.get("result.json");
        if (!raw) throw new Error("the result artifact holds no result.json");
        let parsed: unknown;
        try {
          parsed = JSON.parse(new TextDecoder().decode(raw));
        } catch {
          throw new Error("the runner's result.json is not JSON");
        }
        const checked = JobResult.safeParse(parsed);
        if (!checked.success) {
          const first = checked.error.issues
            .slice(0, 5)
            .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
          throw new Error(`the runner's result failed validation: ${first.join("; ")}`);
        }
        if (checked.data.jobId !== jobId || checked.data.kind !== job.kind) {
          throw new Error(`the runner's result answers job ${checked.data.jobId}, not ${jobId}`);
        }
        // A verified fix is a patch: a result saying FIXED without one claims what nothing showed.
        if (checked.data.verdict === "FIXED" && !checked.data.patch) {
          throw new Error("the runner's result says FIXED but holds no patch");
        }
        const config = await loadRepoConfig(github, repo).catch(() => defaultConfig());
        await this.publish(github, repo, job, checked.data, config);
      });
    }
  }

  /** The one publisher (src/jobs/publish.ts), then the outcome in the job store. */
  private async publish(
    github: GitHubPort,
    repo: RepoId,
    job: JobRecord,
    result: JobResult,
    config: RetraceConfig,
  ): Promise<void> {
    const done = await publishResult(this.publisher(github, repo), job, job.spec, result, config);
    this.o.store.update(job.id, {
      state: "completed",
      result: this.redactor.redactDeep(result),
      costUsd: result.costUsd,
      prUrl: done.prUrl,
      prBranch: done.prBranch,
      reason: done.note,
      ...(done.comment ? { commentId: done.comment.id, commentUrl: done.comment.url } : {}),
    });
  }

  private async fail(id: string, message: string): Promise<void> {
    const job = this.o.store.update(id, { state: "failed", reason: this.redactor.redact(message) });
    const github = await this.o.githubFor(job.installationId);
    await this.track(github, repoIdOf(job.repo), job, (p, j) => publishFailure(p, j, message));
  }

  private publisher(github: GitHubPort, repo: RepoId): Publisher {
    return { github, repo, gate: this.o.gate, redact: (s) => this.redactor.redact(s) };
  }

  /** Write through the publisher and keep the comment's id and URL on the record. */
  private async track(
    github: GitHubPort,
    repo: RepoId,
    job: JobRecord,
    write: (p: Publisher, job: JobRecord) => Promise<{ id: number; url: string } | null>,
  ): Promise<JobRecord> {
    const ref = await write(this.publisher(github, repo), job);
    if (ref === null || (job.commentId === ref.id && job.commentUrl === ref.url)) return job;
    return this.o.store.update(job.id, {
      commentId: ref.id,
      commentUrl: ref.url,
      issueNumber: job.issueNumber,
    });
  }

  /** Create or edit the job's one tracking comment (found again by its marker after a restart). */
  private writeComment(github: GitHubPort, repo: RepoId, job: JobRecord, phase: TrackingPhase) {
    return this.track(github, repo, job, (p, j) => writeTrackingComment(p, j, phase));
  }
}
