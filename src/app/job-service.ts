/**
 * The App's job lifecycle: accept a webhook (durably, de-duplicated) → intake → run locally or dispatch to
 * the repository's workflow → publish (policy gate again, draft PR, comment, check run). Every job ends in
 * a reported terminal state; a restart resumes what was accepted.
 */
import PQueue from "p-queue";
import { describeError } from "../core/errors.ts";
import type { JobSpec } from "../core/job.ts";
import { Redactor } from "../core/redact.ts";
import { type RetraceConfig, defaultConfig, policyForFix } from "../config/schema.ts";
import type { PolicyConfig } from "../policy/config.ts";
import { BRANCH_PREFIX, openDraftPullRequest } from "../github/draft-pr.ts";
import type { GitHubPort, RepoId } from "../core/ports/github.ts";
import { repoIdOf } from "../core/ports/github.ts";
import { unzip } from "../github/unzip.ts";
import { JobResult, type JobRunner } from "../jobs/result.ts";
import { type Checkout, checkoutCommit } from "./checkout.ts";
import { hasPermission, intakeFix, intakeRepro, jobIdFor } from "./intake.ts";
import type { JobRecord } from "./job-record.ts";
import type { JobStore } from "./job-store.ts";
import { loadRepoConfig } from "./repo-config.ts";
import { RepoSlots } from "./repo-slots.ts";
import { markerFor, renderTrackingComment, type TrackingPhase } from "./tracking-comment.ts";
import { type CollectTrigger, decide, type Identity, type Trigger } from "./triggers.ts";

/** One violation as the policy gate reports it. */
export interface GateViolation {
  rule: string;
  file?: string | null;
  line?: number | null;
  message: string;
}
/** The deterministic policy gate (src/policy `evaluatePatch`), injected. */
export type PolicyGate = (
  patch: string,
  config: PolicyConfig,
) => { allowed: boolean; violations: GateViolation[] };

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
}

export type ReceiveOutcome =
  | { status: "queued"; jobId: string }
  | { status: "duplicate" }
  | { status: "ignored"; reason: string };

export const RESULT_ARTIFACT_PREFIX = "retrace-result-";

/**
 * `/autofix` on a plain issue runs the reproduction only, and says so: Retrace's fix pipeline fixes a failing
 * check (a test it can run before and after), and an issue has none yet. See docs/app.md.
 */
export const AUTOFIX_ON_ISSUE =
  "`/autofix` on an issue runs the reproduction only: Retrace fixes failing checks, and an issue has none yet. " +
  "To get a fix, commit the reproduction as a failing test on a branch and open a pull request: when its check " +
  "fails, Retrace proposes a verified fix as a draft pull request (or comment `/autofix` on that pull request).";

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
    const d = decide(name, payload, this.o.identity);
    if (!d.accept) return { status: "ignored", reason: d.reason };
    if (d.trigger.type === "collect") {
      const t = d.trigger;
      this.queue.add(() => this.guard(`collect run ${t.runId}`, () => this.collect(t)));
      return { status: "queued", jobId: `collect-${t.runId}` };
    }
    const record = this.newRecord(jobIdFor(d.trigger.type, deliveryId), deliveryId, d.trigger);
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

  private newRecord(id: string, deliveryId: string, trigger: Exclude<Trigger, CollectTrigger>): JobRecord {
    const now = this.now();
    return {
      id,
      deliveryId,
      repo: trigger.repo,
      installationId: trigger.installationId,
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
      if (t.type !== "collect" && t.checkPermission) {
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
        const check = await github.createCheckRun(repo, t.headSha, "Retrace", {
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
    const deps = { github, repo, store: this.o.store, now: this.now() };
    const trigger = job.trigger;
    const intake =
      trigger.type === "repro"
        ? await intakeRepro(job, trigger, config, deps)
        : trigger.type === "fix"
          ? await intakeFix(job, trigger, config, deps)
          : null;
    if (!intake) return;
    if (!intake.ok) {
      this.o.store.update(id, { state: "skipped", reason: intake.reason });
      this.log.info(`job ${id} skipped: ${intake.reason}`);
      if (intake.report && intake.issueNumber !== null) {
        await this.writeComment(
          github,
          repo,
          { ...job, issueNumber: intake.issueNumber },
          {
            phase: "failed",
            error: `Not started: ${intake.reason}.`,
          },
        );
      }
      return;
    }
    let current = this.o.store.update(id, {
      spec: intake.spec,
      issueNumber: intake.issueNumber,
      lineage: intake.lineage,
    });
    current = await this.writeComment(github, repo, current, { phase: "queued" });
    if (intake.headSha && current.checkRunId === null) {
      const check = await github.createCheckRun(repo, intake.headSha, "Retrace", {
        status: "in_progress",
        title: `Retrace ${current.kind} running`,
        summary: `Job \`${id}\` is running.`,
      });
      current = this.o.store.update(id, { checkRunId: check.id });
    }
    if (this.o.executor === "actions") {
      await this.dispatch(github, repo, current, intake.spec);
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
      if (intake.spec.kind === "fix" && intake.spec.headSha) {
        checkout = await (this.o.checkout ?? checkoutCommit)(github, repo, intake.spec.headSha, id);
        if (checkout.droppedLinks.length > 0) {
          this.log.warn(`job ${id}: dropped links outside the checkout: ${checkout.droppedLinks.join(", ")}`);
        }
      }
      result = JobResult.parse(
        await this.o.runner(intake.spec, {
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
    if (t.type !== "collect" && t.defaultBranch) return t.defaultBranch;
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
        const config = await loadRepoConfig(github, repo).catch(() => defaultConfig());
        await this.publish(github, repo, job, checked.data, config);
      });
    }
  }

  /** Gate the patch again, open the draft PR, and write the final comment and check. */
  private async publish(
    github: GitHubPort,
    repo: RepoId,
    job: JobRecord,
    result: JobResult,
    config: RetraceConfig,
  ): Promise<void> {
    let prUrl: string | null = null;
    let prBranch: string | null = null;
    let note: string | undefined;
    const spec = job.spec;
    if (job.kind === "fix" && result.patch && result.outcome === "succeeded" && spec?.kind === "fix") {
      const verdict = this.o.gate(result.patch, policyForFix(config));
      if (!verdict.allowed) {
        note = `The policy gate refused the patch, so no pull request was opened: ${verdict.violations
          .map((v) => `${v.rule}${v.file ? ` (${v.file}${v.line ? `:${v.line}` : ""})` : ""}: ${v.message}`)
          .join("; ")}`;
      } else if (!spec.headBranch || !spec.headSha) {
        note = "The failed branch is unknown, so no pull request was opened.";
      } else {
        prBranch = `${BRANCH_PREFIX}${job.id}`;
        const pr = await openDraftPullRequest(github, repo, {
          baseBranch: spec.headBranch,
          baseSha: spec.headSha,
          branch: prBranch,
          patch: result.patch,
          ...(result.changes ? { verified: result.changes } : {}),
          title: this.redactor.redact(result.prTitle ?? `Fix failing check on ${spec.headBranch}`),
          body: this.redactor.redact(`${result.prBody ?? result.summary}\n\n${markerFor(job.id)}`),
        });
        prUrl = pr.url;
      }
    }
    if (job.trigger.type === "repro" && job.trigger.thenFix) note = AUTOFIX_ON_ISSUE;
    let current = this.o.store.update(job.id, {
      state: "completed",
      result: this.redactor.redactDeep(result),
      costUsd: result.costUsd,
      prUrl,
      prBranch,
      reason: note ?? null,
    });
    current = await this.writeComment(github, repo, current, {
      phase: "done",
      result,
      prUrl,
      ...(note ? { note } : {}),
    });
    if (current.checkRunId !== null) {
      await github.updateCheckRun(repo, current.checkRunId, {
        status: "completed",
        conclusion: result.outcome === "succeeded" ? "success" : "neutral",
        title: `Retrace ${job.kind}: ${result.verdict ?? result.outcome}`,
        summary: this.redactor.redact(
          `${prUrl ? `Draft PR: ${prUrl}\n\n` : ""}${note ? `${note}\n\n` : ""}${result.summary}`,
        ),
      });
    }
  }

  private async fail(id: string, message: string): Promise<void> {
    const job = this.o.store.update(id, { state: "failed", reason: this.redactor.redact(message) });
    const github = await this.o.githubFor(job.installationId);
    const repo = repoIdOf(job.repo);
    await this.writeComment(github, repo, job, { phase: "failed", error: message });
    if (job.checkRunId !== null) {
      await github.updateCheckRun(repo, job.checkRunId, {
        status: "completed",
        conclusion: "failure",
        title: `Retrace ${job.kind} failed`,
        summary: this.redactor.redact(message),
      });
    }
  }

  /** Create or edit the job's one tracking comment (found again by its marker after a restart). */
  private async writeComment(github: GitHubPort, repo: RepoId, job: JobRecord, phase: TrackingPhase) {
    if (job.issueNumber === null) return job;
    const body = renderTrackingComment(job, phase, (s) => this.redactor.redact(s));
    let commentId = job.commentId;
    if (commentId === null)
      commentId = (await github.findComment(repo, job.issueNumber, markerFor(job.id)))?.id ?? null;
    const ref =
      commentId === null
        ? await github.createComment(repo, job.issueNumber, body)
        : await github.updateComment(repo, commentId, body);
    if (job.commentId === ref.id && job.commentUrl === ref.url) return job;
    return this.o.store.update(job.id, {
      commentId: ref.id,
      commentUrl: ref.url,
      issueNumber: job.issueNumber,
    });
  }
}
