/**
 * What the fix pipeline needs from the outside world, as ports. The pipeline is pure: the CLI, the App and
 * the Action build these from the real adapters (sandbox test runs, the log parser, the policy gate, git),
 * and unit tests pass fakes.
 */
import type { FixJobSpec } from "../core/job.ts";
import type { FeedbackViolation, ModelChoice } from "../core/loop.ts";
import type { Clock } from "../core/loop-clock.ts";
import type { Redactor } from "../core/redact.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import type { Model } from "../core/ports/model.ts";
import type { FileWrite } from "../core/apply-patch.ts";
import type { FileChange } from "./apply-edits.ts";
import type { FailureInfo } from "./failure.ts";

/** One test run's per-test outcomes, as the pipeline needs them. */
export interface TestRunSummary {
  /** Test id → outcome ("passed", "failed", "error", "skipped"). */
  outcomes: Map<string, string>;
  /** Failing tests with what is known about them (message, file, frames). */
  failures: FailureInfo[];
  /** The last part of the output, for excerpts and feedback. */
  outputTail: string;
  durationMs: number;
  /** Why the run cannot be trusted (sandbox stop, no report...), or null. */
  problem: string | null;
  /** Set when the sandbox stopped the run. */
  stoppedBy: string | null;
}

export interface FixTestPort {
  /** The command the tests run with, as a person would type it. */
  readonly command: string;
  /** Runs the whole suite on the unchanged base. */
  runAll(signal: AbortSignal): Promise<TestRunSummary>;
  /** Whether `runOnly` can select tests (false: it runs the whole suite). */
  readonly canFilter: boolean;
  /** The command that reruns only the given tests (for reports). */
  filterCommand(ids: readonly string[]): string;
  /** Runs only the given tests on the unchanged base. */
  runOnly(ids: readonly string[], signal: AbortSignal): Promise<TestRunSummary>;
}

export interface GateVerdict {
  allowed: boolean;
  violations: FeedbackViolation[];
  /** Names of the rules that ran (for "policy checks passed"). */
  rules: string[];
  /** What the gate saw but does not block (a suppression of a checker the failing check does not run). */
  warnings?: FeedbackViolation[];
  /**
   * What the failing check runs (src/fix/failing-check.ts), as the gate judged suppressions against it; the job
   * result carries it so that a publisher gating the patch again judges it the same way.
   */
  failingCheck?: string;
}

export interface VerifyVerdict {
  ok: boolean;
  /** Verification runs made with the patch. */
  runs: number;
  /** Per test: outcome before (base) and after (patched, all runs). */
  tests: { id: string; before: string; after: string }[];
  stillFailing: string[];
  newFailures: string[];
  /** Why a run did not complete, when one did not. */
  runProblem?: string;
  excerpt: string;
  /** The gaming an anti-gaming layer detected (REJECTED by a tripwire or the neutral run). */
  gaming?: { gamingClass: string; reasons: string[] };
  /** The anti-gaming checks that ran (all passed when ok). */
  antiGaming?: { layer: string; name: string; passed: boolean; detail: string }[];
  /** When verified: what the anti-gaming run could not check (not made, or not every failing test covered). */
  antiGamingGap?: string;
  /** The file changes the patched runs ran on (the one applier's), which the publishers write as they are. */
  changes?: FileWrite[];
}

export interface FixPorts {
  /** Read-only view of the repository at the failing commit. */
  workspace: Workspace;
  tests: FixTestPort;
  /** Parses a CI log into failures (paths already mapped to the repository). */
  parseLog(text: string, repoFiles: ReadonlySet<string>): FailureInfo[];
  /** The deterministic policy gate. */
  gate(patch: string): GateVerdict;
  /** Applies the patch in fresh sandboxes and compares per test id with the base. */
  verify(input: {
    patch: string;
    changes: FileChange[];
    failing: readonly string[];
    signal: AbortSignal;
  }): Promise<VerifyVerdict>;
  /** The failing commit's diff against its parent, when known. */
  commitDiff?(): Promise<{ label: string; diff: string } | null>;
  /** Creates the fix branch with one commit (FIXED only); absent = dry run, no branch. */
  publish?(input: {
    branch: string;
    patch: string;
    /** The verified file changes (when the verify port reports them): written exactly, bytes and modes. */
    changes?: readonly FileWrite[];
    message: string;
  }): Promise<{ branch: string; commit: string }>;
  /** Null: no model configured (only flaky triage can run). */
  model: Model | null;
  models?: ModelChoice;
  redactor?: Redactor;
  clock?: Clock;
  signal?: AbortSignal;
  /** Progress lines (stderr in the CLI). */
  log?(line: string): void;
}

export interface FixOptions {
  /** Job id: names the branch `retrace/fix-<short id>`. */
  id: string;
  /** CI log text; without it the tests run in the sandbox to find the failure. */
  log?: string;
  /** Flaky triage reruns (default 3). */
  triageRuns?: number;
  /** Token budget of the packed context (default 12 000, estimated as chars/4). */
  contextTokens?: number;
  /** Exploration tool calls allowed over the job (default 20). */
  maxToolCalls?: number;
  /** Model rounds allowed per root-cause step (default 8). */
  maxRounds?: number;
  budget?: { maxAttempts?: number; maxWallMs?: number; maxTokens?: number; maxUsd?: number };
  /** Output token cap of each model call (`model.maxOutputTokens`; the engine's default when absent). */
  maxOutputTokens?: number;
  /** The job spec, recorded in the trace so `retrace replay` can re-run the job. */
  job?: FixJobSpec;
}
