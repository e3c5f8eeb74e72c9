/**
 * Flaky triage: before any model call, rerun only the failing tests on the unchanged base, N times. If the
 * same code passes even once, the failure is flaky and no patch is proposed. The rerun itself is a port
 * (`rerun`) so this stays pure; the pipeline gives it a sandbox run of the filtered test command.
 */
import { RetraceError } from "../core/errors.ts";
import type { FlakyReport } from "./result.ts";
import { wilsonInterval } from "./wilson.ts";

/** Outcome of one test in one rerun: as the test runner reported it, or "missing" when it was not reported. */
export type RerunOutcome = "passed" | "failed" | "skipped" | "missing" | string;

export interface RerunResult {
  /** Test id → outcome for the tests of this run. */
  outcomes: Map<string, RerunOutcome>;
  durationMs: number;
  /** Set when the sandbox stopped the run (timeout, output limit): the run proves nothing. */
  stoppedBy: string | null;
  /**
   * What went wrong when the run could not run the tests (a collection or import error, a missing module, no
   * report): the rerun's own failures or problem, for the message when no rerun reached the failing tests.
   */
  problem?: string | null;
}

/**
 * No rerun ran the failing tests: they failed to load (import error, missing module, collection error) or the
 * run never reported them. That is a fact about this environment or the test command, not evidence that the
 * failure is real or flaky; the job stops here and says why, before any model is asked.
 */
export class TriageInconclusiveError extends RetraceError {
  constructor(command: string, problem: string) {
    super(
      "infrastructure",
      `the failing tests did not run when rerun on the unchanged base (${command}): ${problem}`,
      {
        hint: "check that the test command is the one CI runs (fix.testCommand in .github/retrace.yml) and that the repository's dependencies install in the sandbox",
      },
    );
  }
}

export interface TriageOptions {
  /** Test ids that failed in the log or the base run. */
  failing: readonly string[];
  /** Reruns (default 3). */
  runs?: number;
  /** The command the reruns use (for the report). */
  command: string;
  /** True when `command` runs the whole suite (no per-test filter is known). */
  fullSuite: boolean;
  /** Runs the tests once on the unchanged base. */
  rerun: (index: number) => Promise<RerunResult>;
  /** Called after each rerun (progress). */
  onRun?: (index: number, result: RerunResult) => void;
}

export interface TriageResult {
  flaky: boolean;
  report: FlakyReport;
}

/** A rerun counts as passing when every failing test was reported as passed. Missing counts as not passing. */
export async function triageFlaky(options: TriageOptions): Promise<TriageResult> {
  const runs = options.runs ?? 3;
  if (!Number.isInteger(runs) || runs < 1)
    throw new RangeError(`flaky triage needs at least 1 rerun, got ${runs}`);
  if (options.failing.length === 0) throw new RangeError("flaky triage needs at least one failing test id");
  const perTest = new Map(options.failing.map((id) => [id, { id, passed: 0, failed: 0 }]));
  let passes = 0;
  let failures = 0;
  let durationMs = 0;
  const notRun: string[] = [];
  for (let i = 0; i < runs; i += 1) {
    const r = await options.rerun(i);
    options.onRun?.(i, r);
    durationMs += r.durationMs;
    // A completed rerun that reports none of the failing tests did not run them: it proves nothing either way.
    if (r.stoppedBy === null && options.failing.every((id) => !r.outcomes.has(id))) {
      notRun.push(r.problem?.trim() || "the rerun reported none of the failing tests");
      continue;
    }
    let allPassed = r.stoppedBy === null;
    for (const id of options.failing) {
      const counts = perTest.get(id)!;
      if (r.stoppedBy === null && r.outcomes.get(id) === "passed") counts.passed += 1;
      else {
        counts.failed += 1;
        allPassed = false;
      }
    }
    if (allPassed) passes += 1;
    else failures += 1;
  }
  const ran = runs - notRun.length;
  if (ran === 0) throw new TriageInconclusiveError(options.command, notRun[0] ?? "no rerun ran them");
  const interval = wilsonInterval(failures, ran, 0.95);
  return {
    flaky: passes > 0,
    report: {
      runs: ran,
      passes,
      failures,
      failureRate: failures / ran,
      interval: { low: interval.low, high: interval.high, confidence: interval.confidence },
      perTest: [...perTest.values()],
      command: options.command,
      fullSuite: options.fullSuite,
      durationMs,
    },
  };
}
