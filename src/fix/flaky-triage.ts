/**
 * Flaky triage: before any model call, rerun only the failing tests on the unchanged base, N times. If the
 * same code passes even once, the failure is flaky and no patch is proposed. The rerun itself is a port
 * (`rerun`) so this stays pure; the pipeline gives it a sandbox run of the filtered test command.
 */
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
  for (let i = 0; i < runs; i += 1) {
    const r = await options.rerun(i);
    options.onRun?.(i, r);
    durationMs += r.durationMs;
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
  const interval = wilsonInterval(failures, runs, 0.95);
  return {
    flaky: passes > 0,
    report: {
      runs,
      passes,
      failures,
      failureRate: failures / runs,
      interval: { low: interval.low, high: interval.high, confidence: interval.confidence },
      perTest: [...perTest.values()],
      command: options.command,
      fullSuite: options.fullSuite,
      durationMs,
    },
  };
}
