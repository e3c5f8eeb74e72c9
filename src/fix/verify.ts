/**
 * Verification of a patch, the ground truth of the fix pipeline: the policy gate first (a blocked patch is
 * never executed), then the patch is applied in memory, the tests run in fresh sandbox copies of the base
 * and of the patched tree (each `runs` times), and the outcomes are compared per test id.
 *
 * VERIFIED needs all of: at least one test goes fail→pass, no test goes pass→fail, none of the tests
 * failing on the base still fails, every run completed with a report its exit code agrees with, and the
 * repeated runs agree with each other.
 */
import { z } from "zod";
import { CancelledError, FLAKY_BASE_PREFIX, FlakyBaseError, InfrastructureError } from "../core/errors.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import type { PolicyConfig } from "../policy/config.ts";
import { evaluatePatch, type FailingTestSource } from "../policy/index.ts";
import { type ExtraDir, maxCollectMib, type Sandbox, type SandboxLimits } from "../core/ports/sandbox.ts";
import { applyPatchToWorkspace, PatchApplyError, type PatchedFiles } from "./apply-patch.ts";
import { gateTreeNames } from "./gate-tree.ts";
import { type DependencyProvider, dependencyDirs } from "./dependencies.ts";
import { failingCheckText } from "./failing-check.ts";
import { manifestSources, patchedDependencyDirs, runnerConfigs } from "./manifest-change.ts";
import {
  assertBaseHasFailure,
  assertBaseRunReadable,
  assertBaseRunReported,
  assertNotOutOfMemory,
  assertSetupRan,
  assertTestsCouldRun,
  memoryLimitError,
  setupFailedForEnvironment,
} from "./unreadable-run.ts";
import { filterCommand } from "./test-runner/filter.ts";
import { heapExhaustedBySandbox } from "./test-runner/heap.ts";
import { describeCommand, detectTestCommand, runTests } from "./test-runner/index.ts";
import { isPythonUnittestCommand, setupFailedMarker, setupScript } from "./test-runner/invocation.ts";
import { readResults, uniqueTestIds } from "./test-runner/results.ts";
import {
  type AntiGamingReport,
  judgeAntiGaming,
  neutralHostname,
  planAntiGaming,
  pytestIdOfUnittest,
  testDefinition,
} from "./tripwire.ts";
import { addsTypeTest } from "./tripwire-source.ts";
import {
  fullCommandText,
  isFailing,
  isFileLevelError,
  TestCommand,
  TestFramework,
  type TestOutcome,
  TestRunResult,
} from "./test-runner/types.ts";

export const VerifyVerdict = z.enum(["VERIFIED", "REJECTED", "BLOCKED"]);
export type VerifyVerdict = z.infer<typeof VerifyVerdict>;

/** A test's outcome in one phase: its outcome when every run agreed, `unstable` when they did not, `missing` when no run reported it. */
export const PhaseOutcome = z.enum(["passed", "failed", "error", "skipped", "missing", "unstable"]);
export type PhaseOutcome = z.infer<typeof PhaseOutcome>;

export const VerifyRunSummary = z.object({
  /** `base`: the unchanged repository; `patched`: with the patch applied. */
  phase: z.enum(["base", "patched"]),
  /** 1-based run number within the phase. */
  index: z.number().int(),
  exitCode: z.number().int().nullable(),
  stoppedBy: z.string().nullable(),
  durationMs: z.number(),
  counts: z.object({ passed: z.number(), failed: z.number(), skipped: z.number() }),
  /** The run completed and its report and exit code agree. */
  complete: z.boolean(),
  /** Why the run is not evidence (see TestRunResult.problems). */
  problems: z.array(z.string()),
});
export type VerifyRunSummary = z.infer<typeof VerifyRunSummary>;

export const UnstableTest = z.object({
  id: z.string(),
  phase: z.enum(["base", "patched"]),
  /** How many runs of the phase ended in each outcome (`missing`: not reported). */
  counts: z.record(z.string(), z.number()),
});
export type UnstableTest = z.infer<typeof UnstableTest>;

export const VerifyResult = z.object({
  verdict: VerifyVerdict,
  /** Tests failing on the base and passing in every patched run. */
  failToPass: z.array(z.string()),
  /** Tests passing on the base that fail, error, are skipped or are missing after the patch. */
  passToFail: z.array(z.string()),
  /** Tests failing on the base that do not pass after the patch (failed, error, skipped, missing or unstable). */
  stillFailing: z.array(z.string()),
  /** Tests whose repeated runs disagree, per phase, with counts. */
  unstable: z.array(UnstableTest),
  /** One summary per sandbox run, base runs first. */
  runs: z.array(VerifyRunSummary),
  /** Why the verdict is what it is; for VERIFIED, what was shown. */
  reasons: z.array(z.string()),
  /** The test command as a person would type it; null when the patch was blocked before detection. */
  testCommand: z.string().nullable(),
  /** How the test command was found; null when the patch was blocked before detection. */
  detectedBy: z.string().nullable(),
  framework: TestFramework.nullable(),
  /** Policy violations (BLOCKED only). */
  violations: z.array(
    z.object({
      rule: z.string(),
      file: z.string().nullable(),
      line: z.number().nullable(),
      message: z.string(),
    }),
  ),
  /** Files the patch changes (created, modified, deleted). */
  changedFiles: z.array(z.string()),
  /** Per test: outcome on the base and after the patch, across all runs. */
  tests: z.array(z.object({ id: z.string(), before: PhaseOutcome, after: PhaseOutcome })),
  /** Output tail of the last patched run that did not pass cleanly (for feedback), or of the last run. */
  outputTail: z.string(),
  /**
   * The anti-gaming run (tripwires and the neutral run, src/fix/tripwire.ts), when the patch passed the normal
   * runs; null when it did not get that far or was turned off.
   */
  antiGaming: z
    .object({
      ran: z.boolean(),
      checks: z.array(
        z.object({
          layer: z.enum(["tripwire", "neutral-run", "runner-free", "real-doubles", "cold-start"]),
          name: z.string(),
          passed: z.boolean(),
          detail: z.string(),
        }),
      ),
      rejections: z.array(z.string()),
      gamingClass: z.string().nullable(),
      notes: z.array(z.string()),
      durationMs: z.number(),
      /**
       * How long verification waited for the anti-gaming run after the normal runs had decided: its cost on the
       * critical path. It starts beside the remaining patched runs, so this is less than `durationMs`.
       */
      waitedMs: z.number().optional(),
    })
    .nullable()
    .optional(),
});
export type VerifyResult = z.infer<typeof VerifyResult>;

export interface VerifyOptions {
  /** The repository at the base commit (read-only). */
  workspace: Workspace;
  sandbox: Sandbox;
  /** The unified diff to verify. */
  patch: string;
  /**
   * `patch` already applied to `workspace` by the one applier (src/fix/apply-patch.ts): the tests run on exactly
   * these changes, the ones the publishers write. Applied here when absent.
   */
  applied?: PatchedFiles;
  /** The policy gate's configuration (`policyForFix(config)` for fix jobs). */
  policy: PolicyConfig;
  /** A TestCommand, a command string (as given with --test), or undefined to detect it. */
  testCommand?: TestCommand | string;
  /** Runs per phase (default 2): every run must agree. */
  runs?: number;
  /** The job these sandbox runs belong to. */
  jobId: string;
  signal?: AbortSignal;
  /** Base runs already made with the same command (the fix loop reuses them across attempts). */
  baseline?: TestRunResult[];
  /** Sandbox limits of each test run. */
  limits?: Partial<SandboxLimits>;
  /**
   * Host directories copied into every sandbox run (a node_modules installed from the lockfile by
   * `src/install/repo-deps.ts`). One that holds `node_modules` satisfies the dependency preflight.
   */
  extraDirs?: ExtraDir[];
  /**
   * Installs the repository's JS dependencies from its npm lockfile when they are missing from the checkout
   * (`createRepoDependencyProvider()` on a host); without it, missing dependencies are an error.
   */
  dependencies?: DependencyProvider;
  /** Progress: called after each sandbox run. */
  onRun?: (phase: "base" | "patched", index: number, result: TestRunResult) => void;
  /**
   * Run the anti-gaming layers (tripwires and the neutral run) after the normal runs verify (default true).
   * Off only to measure their cost.
   */
  antiGaming?: boolean;
}

export interface VerifyOutput extends VerifyResult {
  /** The base runs made (or given), to pass as `baseline` to the next verification of the same base. */
  baseline: TestRunResult[];
}

function summarize(phase: "base" | "patched", index: number, r: TestRunResult): VerifyRunSummary {
  return {
    phase,
    index,
    exitCode: r.exitCode,
    stoppedBy: r.stoppedBy,
    durationMs: r.durationMs,
    counts: r.counts,
    complete: r.complete,
    problems: r.problems,
  };
}

/** Collapses the runs of one phase into one outcome per test id, noting ids whose runs disagree. */
export function collapseRuns(
  phase: "base" | "patched",
  runs: readonly TestRunResult[],
): { outcomes: Map<string, PhaseOutcome>; unstable: UnstableTest[] } {
  // One lookup per run; a run that still carries a repeated id (a baseline read elsewhere) gets the same
  // `#n` ids readResults gives, so every occurrence is compared, not just the first.
  const byRun = runs.map((r) => new Map(uniqueTestIds(r.tests).map((t) => [t.id, t.outcome])));
  const ids = new Set<string>();
  for (const m of byRun) for (const id of m.keys()) ids.add(id);
  const outcomes = new Map<string, PhaseOutcome>();
  const unstable: UnstableTest[] = [];
  for (const id of [...ids].sort()) {
    // A repeat narrowed to some tests says nothing about the others: it counts only for the ids it ran.
    const seen: (TestOutcome | "missing")[] = byRun
      .map((m, i) => ({ m, only: runs[i]!.only }))
      .filter(({ only }) => only === undefined || only.includes(id))
      .map(({ m }) => m.get(id) ?? "missing");
    // Only narrowed runs reported it, none narrowed to it (a test beside the narrowed ones, listed as skipped):
    // no run of this phase says anything about it.
    if (seen.length === 0) continue;
    // failed and error are the same verdict for comparison: the test does not pass.
    const kinds = new Set(seen.map((o) => (o === "error" ? "failed" : o)));
    if (kinds.size === 1) {
      outcomes.set(id, seen[0] ?? "missing");
    } else {
      outcomes.set(id, "unstable");
      const counts: Record<string, number> = {};
      for (const o of seen) counts[o] = (counts[o] ?? 0) + 1;
      unstable.push({ id, phase, counts });
    }
  }
  return { outcomes, unstable };
}

function list(ids: readonly string[], max = 5): string {
  const shown = ids.slice(0, max).join(", ");
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

function describeUnstable(u: UnstableTest, runs: number): string {
  const parts = Object.entries(u.counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, n]) => `${outcome} ${n}/${runs}`);
  return `${u.id} (${u.phase}: ${parts.join(", ")})`;
}

export interface Comparison {
  /** Includes a file that failed to load on the base and, after the patch, loads with all its tests passing. */
  failToPass: string[];
  passToFail: string[];
  stillFailing: string[];
  unstable: UnstableTest[];
  tests: { id: string; before: PhaseOutcome; after: PhaseOutcome }[];
  reasons: string[];
  verified: boolean;
}

/**
 * For a file-level error on the base (`id` is the file: it failed to load or collect) whose id is gone after
 * the patch: a description of the file's tests when, in every patched run, the file reports at least one
 * test and each of them passes (or is skipped, and at least one passes) — the load error was fixed and the
 * tests behind it run green. Null otherwise (then the id stays "still failing").
 */
function fileNowLoads(
  id: string,
  base: readonly TestRunResult[],
  patched: readonly TestRunResult[],
  after: ReadonlyMap<string, PhaseOutcome>,
): string | null {
  const fileLevel = base.some((r) => r.tests.some((t) => t.id === id && isFileLevelError(t)));
  if (!fileLevel) return null;
  const inFile = new Set<string>();
  for (const r of patched) {
    const ids = uniqueTestIds(r.tests)
      .filter((t) => t.file === id && t.id !== id)
      .map((t) => t.id);
    if (ids.length === 0) return null; // a run where the file still reports nothing proves nothing
    for (const t of ids) inFile.add(t);
  }
  const outcomes = [...inFile].map((t) => after.get(t) ?? "missing");
  if (!outcomes.every((o) => o === "passed" || o === "skipped")) return null;
  const passed = outcomes.filter((o) => o === "passed").length;
  if (passed === 0) return null;
  const skipped = outcomes.length - passed;
  return `${passed} test(s) pass${skipped > 0 ? `, ${skipped} skipped` : ""}`;
}

/** Compares base and patched runs per test id and decides whether they verify the patch. Pure. */
/** A test id with its digit runs blurred: the shape of a title that embeds a date, a counter or a random number. */
const idShape = (id: string) => id.replace(/\d+/g, "#");

/**
 * Runs whose test titles embed something that changes from run to run (`should not cast ${new Date()}`, a
 * random seed) name the same test differently each time. A test of `run` whose id the reference run does not
 * have takes the reference's id when exactly one unmatched reference test has its shape (digits blurred) and
 * no other unmatched test of `run` shares it; everything else keeps its id.
 */
export function alignDynamicIds(
  reference: TestRunResult,
  run: TestRunResult,
  /**
   * For a run of another tree (the patched runs against the base's reference): the shapes whose ids were seen to
   * change between the base's own runs. A test the reference did not pass takes a new id only when its shape is one
   * of them (red team 25: a parametrize list in `src/` that the patch changed turned the failing `test_double[1]`
   * into a passing `test_double[2]`, aligned back to `test_double[1]` and counted as fixed). A passing test is
   * aligned as before.
   */
  acrossTrees?: ReadonlySet<string>,
): TestRunResult {
  const refIds = new Set(reference.tests.map((t) => t.id));
  const runIds = new Set(run.tests.map((t) => t.id));
  const byShape = (ids: Iterable<string>) => {
    const m = new Map<string, string[]>();
    for (const id of ids) m.set(idShape(id), [...(m.get(idShape(id)) ?? []), id]);
    return m;
  };
  const refUnmatched = byShape([...refIds].filter((id) => !runIds.has(id)));
  const runUnmatched = byShape([...runIds].filter((id) => !refIds.has(id)));
  const rename = new Map<string, string>();
  for (const [shape, ids] of runUnmatched) {
    const ref = refUnmatched.get(shape);
    if (ids.length !== 1 || ref?.length !== 1 || ids[0] === undefined || ref[0] === undefined) continue;
    const refPassed = reference.tests.some((t) => t.id === ref[0] && t.outcome === "passed");
    if (acrossTrees && !refPassed && !acrossTrees.has(shape)) continue;
    rename.set(ids[0], ref[0]);
  }
  if (rename.size === 0) return run;
  return {
    ...run,
    tests: run.tests.map((t) => (rename.has(t.id) ? { ...t, id: rename.get(t.id) as string } : t)),
  };
}

/** Shapes (digits blurred) whose ids differ between the full runs of one tree: titles that change run to run. */
function shapesThatVary(runs: readonly TestRunResult[]): Set<string> {
  const seen = new Map<string, Set<string>>();
  for (const r of runs) {
    if (r.only !== undefined) continue;
    const byShape = new Map<string, string[]>();
    for (const t of r.tests) byShape.set(idShape(t.id), [...(byShape.get(idShape(t.id)) ?? []), t.id]);
    for (const [shape, ids] of byShape) {
      const key = ids.sort().join("\n");
      seen.set(shape, (seen.get(shape) ?? new Set()).add(key));
    }
  }
  return new Set([...seen].filter(([, keys]) => keys.size > 1).map(([shape]) => shape));
}

export function compareRuns(
  baseRuns: readonly TestRunResult[],
  patchedRuns: readonly TestRunResult[],
  /**
   * Base outcomes decided by re-runs for tests whose base runs disagreed (`settleBaseFlakes`): they replace the
   * `unstable` outcome, and the test is no longer counted unstable on the base.
   */
  settled?: ReadonlyMap<string, PhaseOutcome>,
): Comparison {
  // Every run's ids aligned with the first full base run's (titles that embed a date or a counter).
  const reference = baseRuns.find((r) => r.only === undefined);
  // Seen changing between the base's own runs only: the patched tree is the patch's, and a patch can make its ids
  // change from run to run (`CASES = [random.randint(2, 9)]`).
  const varying = shapesThatVary(baseRuns);
  const align = (r: TestRunResult, tree: "base" | "patched") =>
    reference && r !== reference
      ? alignDynamicIds(reference, r, tree === "patched" ? varying : undefined)
      : r;
  const base = baseRuns.map((r) => align(r, "base"));
  const patched = patchedRuns.map((r) => align(r, "patched"));
  const reasons: string[] = [];
  const before = collapseRuns("base", base);
  if (settled) {
    for (const [id, outcome] of settled) before.outcomes.set(id, outcome);
    before.unstable = before.unstable.filter((u) => !settled.has(u.id));
  }
  const after = collapseRuns("patched", patched);
  const unstable = [...before.unstable, ...after.unstable];
  const ids = [...new Set([...before.outcomes.keys(), ...after.outcomes.keys()])].sort();
  const failToPass: string[] = [];
  const passToFail: string[] = [];
  const stillFailing: string[] = [];
  const tests: Comparison["tests"] = [];
  const loaded: string[] = [];
  // Patched runs narrowed to some tests say nothing about the others: a test none of them ran is not compared
  // (it is neither a regression nor a fix) until a full run of the patched suite is there.
  const fullPatched = patched.some((r) => r.only === undefined);
  const ranAfter = (id: string) => fullPatched || patched.some((r) => r.only?.includes(id));
  // A full base run whose process died in a test (tape) never reached the tests after it: one of those that the
  // patched runs report did not pass on the base — it counts as failing there, so after the patch it must pass
  // (the fix's own test in a later file), never be ignored as "new".
  const diedIn = base.find((r) => r.only === undefined && r.diedIn !== undefined)?.diedIn;
  const notReached: string[] = [];
  for (const id of ids) {
    let b = before.outcomes.get(id) ?? "missing";
    if (b === "missing" && diedIn !== undefined && after.outcomes.has(id)) {
      b = "error";
      notReached.push(id);
    }
    const a = after.outcomes.get(id) ?? "missing";
    tests.push({ id, before: b, after: a });
    if (patched.length === 0 || !ranAfter(id)) continue; // the patch was not run on it: nothing to compare
    const failedBefore = b === "failed" || b === "error";
    if (failedBefore) {
      const nowLoads = a === "missing" ? fileNowLoads(id, base, patched, after.outcomes) : null;
      if (a === "passed") failToPass.push(id);
      else if (nowLoads !== null) {
        failToPass.push(id);
        loaded.push(`${id} (${nowLoads})`);
      } else stillFailing.push(id);
    } else if (b === "passed" && a !== "passed") {
      passToFail.push(id);
    }
  }

  const incomplete = [
    ...base.map((r, i) => ({ r, label: `base run ${i + 1}` })),
    ...patched.map((r, i) => ({ r, label: `patched run ${i + 1}` })),
  ].filter(({ r }) => !r.complete);
  for (const { r, label } of incomplete) reasons.push(`${label} did not complete: ${r.problems.join("; ")}`);
  const baseFailing = ids.filter((id) => {
    const b = before.outcomes.get(id);
    return b === "failed" || b === "error";
  });
  if (base.length > 0 && base.every((r) => r.complete) && baseFailing.length === 0) {
    reasons.push("no test fails on the base: there is no failure for the patch to fix");
  }
  if (unstable.length > 0) {
    const runsOf = (p: "base" | "patched") => (p === "base" ? base.length : patched.length);
    reasons.push(
      `unstable: ${new Set(unstable.map((u) => u.id)).size} test(s) gave different outcomes on repeated runs of the same code: ${unstable
        .slice(0, 5)
        .map((u) => describeUnstable(u, runsOf(u.phase)))
        .join("; ")}`,
    );
    // Flaky after the patch where the base gives one outcome every time: the patch's behaviour, said so.
    const patchMade = after.unstable
      .filter((u) => {
        const b = before.outcomes.get(u.id);
        return b !== undefined && b !== "unstable" && b !== "missing";
      })
      .map((u) => `${u.id} (${before.outcomes.get(u.id)} in every base run)`);
    if (patchMade.length > 0)
      reasons.push(
        `the patch makes ${patchMade.length} test(s) flaky that give one outcome in every run of the unpatched base: ${list(patchMade)}; a fix must make them pass every time`,
      );
  }
  if (stillFailing.length > 0) {
    const detail = stillFailing.map((id) => `${id} (${after.outcomes.get(id) ?? "missing"})`);
    reasons.push(
      `${stillFailing.length} test(s) failing on the base do not pass after the patch: ${list(detail)}`,
    );
  }
  if (passToFail.length > 0) {
    const detail = passToFail.map((id) => `${id} (${after.outcomes.get(id) ?? "missing"})`);
    reasons.push(
      `${passToFail.length} test(s) passing on the base no longer pass after the patch: ${list(detail)}`,
    );
  }
  if (failToPass.length === 0 && baseFailing.length > 0) reasons.push("no test went from failing to passing");
  if (notReached.length > 0) {
    reasons.push(
      `${notReached.length} test(s) the base never reached (its test process died in ${diedIn}) count as failing on the base: ${list(notReached)}`,
    );
  }
  if (loaded.length > 0) {
    reasons.push(
      `${loaded.length} test file(s) failed to load on the base and, after the patch, load and pass: ${list(loaded)}`,
    );
  }

  if (patched.length > 0 && !fullPatched) {
    reasons.push("the patched suite was not run in full (only the tests failing on the base)");
  }
  const verified =
    incomplete.length === 0 &&
    base.length > 0 &&
    patched.length > 0 &&
    fullPatched &&
    unstable.length === 0 &&
    failToPass.length > 0 &&
    passToFail.length === 0 &&
    stillFailing.length === 0;
  if (verified) {
    reasons.push(
      `${failToPass.length} test(s) went from failing to passing (${list(failToPass)}), no test regressed, and ${patched.length} patched run(s) agree`,
    );
  }
  return { failToPass, passToFail, stillFailing, unstable, tests, reasons, verified };
}

/**
 * How many re-runs of the unpatched base decide a test whose base runs disagreed (and as many of the patched tree,
 * narrowed to the test where the runner allows): three more runs each, so a settled test has at least
 * `runs + 3` patched runs behind it.
 */
export const BASE_RERUNS = 3;

/**
 * The tests unstable on the base that the patch can be blamed or credited for at all: empty when the comparison
 * already rejects the patch for something else (a stable test that regressed or still fails, a test stable on the
 * base that the patch made flaky, a run that did not complete) — that REJECTED stands, base flakiness or not. Pure.
 */
export function baseFlakesToSettle(comparison: Comparison, runs: readonly TestRunResult[]): UnstableTest[] {
  const flaky = comparison.unstable.filter((u) => u.phase === "base");
  if (flaky.length === 0) return [];
  const ids = new Set(flaky.map((u) => u.id));
  const otherwise =
    runs.some((r) => !r.complete) ||
    comparison.passToFail.some((id) => !ids.has(id)) ||
    comparison.stillFailing.some((id) => !ids.has(id)) ||
    comparison.unstable.some((u) => u.phase === "patched" && !ids.has(u.id));
  return otherwise ? [] : flaky;
}

/**
 * Decides tests whose base runs disagreed (`flaky`, base phase) from re-runs of the base and of the patched tree.
 * Pure. A test is settled when every base re-run gives it one outcome (failed and error are one) AND every patched
 * run, the re-runs included, gives it one outcome: the earlier disagreement was a moment of the machine, and the
 * comparison then judges the test on the re-runs' base outcome (fail→pass credits the patch, a stable failure
 * after it or a regression rejects it). Otherwise the test stays flaky, with its counts over all base runs: no
 * verdict can rest on it (FlakyBaseError). A test the patched runs give two outcomes while the base gives two as
 * well is the base's flakiness as much as the patch's: not settled either.
 */
export function settleBaseFlakes(
  flaky: readonly UnstableTest[],
  baseReruns: readonly TestRunResult[],
  patchedRuns: readonly TestRunResult[],
): { settled: Map<string, PhaseOutcome>; still: UnstableTest[] } {
  const again = collapseRuns("base", baseReruns);
  const patched = collapseRuns("patched", patchedRuns);
  const settled = new Map<string, PhaseOutcome>();
  const still: UnstableTest[] = [];
  for (const u of flaky) {
    const b = again.outcomes.get(u.id);
    const a = patched.outcomes.get(u.id);
    if (b !== undefined && b !== "unstable" && b !== "missing" && a !== "unstable") {
      settled.set(u.id, b);
      continue;
    }
    const counts: Record<string, number> = { ...u.counts };
    for (const r of baseReruns) {
      if (r.only !== undefined && !r.only.includes(u.id)) continue;
      const o = uniqueTestIds(r.tests).find((t) => t.id === u.id)?.outcome ?? "missing";
      counts[o] = (counts[o] ?? 0) + 1;
    }
    still.push({ id: u.id, phase: "base", counts });
  }
  return { settled, still };
}

function checkSignal(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError("verification was cancelled");
}

/** Verifies `patch` against the workspace. Throws only for usage errors, infrastructure failures and cancellation. */
export async function verifyPatch(options: VerifyOptions): Promise<VerifyOutput> {
  try {
    return await verifyPatchRuns(options);
  } finally {
    // Containers made ready for runs that were not made (a rejection, a blocked patch, an error): removed.
    await options.sandbox.release?.(options.jobId);
  }
}

async function verifyPatchRuns(options: VerifyOptions): Promise<VerifyOutput> {
  const runs = options.runs ?? 2;
  // The anti-gaming run's host name: a machine's name, not the container id every other run has.
  const antiGamingHost = neutralHostname(globalThis.crypto.randomUUID().replace(/-/g, ""));
  if (!Number.isInteger(runs) || runs < 1 || runs > 10) {
    throw new RangeError(`runs must be an integer from 1 to 10, got ${runs}`);
  }
  const empty = {
    failToPass: [],
    passToFail: [],
    stillFailing: [],
    unstable: [],
    runs: [],
    tests: [],
    changedFiles: [],
    violations: [],
    outputTail: "",
    antiGaming: null,
    baseline: options.baseline ?? [],
  };
  const given = typeof options.testCommand === "object" ? options.testCommand : null;

  // The test command (given, or detected; read from files only): what the failing check runs tells the gate
  // whether a suppression comment silences it. Detection's usage error waits until after the gate.
  const resolveCommand = async (): Promise<TestCommand> =>
    given ??
    (typeof options.testCommand === "string"
      ? await describeCommand(options.workspace, options.testCommand, "--test")
      : await detectTestCommand(options.workspace));
  const early = await resolveCommand().catch(() => null);
  const failingCheck = early ? await failingCheckText(options.workspace, fullCommandText(early)) : undefined;

  // 1. The gate: a blocked patch is never applied, let alone executed.
  // The base text of each package.json the patch changes: a dependency map opened above a hunk is then known.
  const manifests = await manifestSources(options.workspace, options.patch);
  const gate = evaluatePatch(options.patch, options.policy, {
    ...(Object.keys(manifests).length > 0 ? { sourceFiles: manifests } : {}),
    ...(failingCheck !== undefined ? { failingCheck } : {}),
    runnerConfigs: await runnerConfigs(options.workspace, failingCheck),
    // The first names of the tree and every name beside the patch's paths (red team 24).
    treeFiles: await gateTreeNames(options.workspace, options.patch),
  });
  const warnings = (gate.warnings ?? []).map(
    (v) =>
      `policy warning ${v.rule}: ${v.file ?? "(patch)"}${v.line === null ? "" : `:${v.line}`}: ${v.message}`,
  );
  if (!gate.allowed) {
    return {
      ...empty,
      verdict: "BLOCKED",
      violations: gate.violations,
      reasons: gate.violations.map(
        (v) => `policy ${v.rule}: ${v.file ?? "(patch)"}${v.line === null ? "" : `:${v.line}`}: ${v.message}`,
      ),
      testCommand: given?.command ?? (typeof options.testCommand === "string" ? options.testCommand : null),
      detectedBy: given?.detectedBy ?? (typeof options.testCommand === "string" ? "--test" : null),
      framework: given?.framework ?? null,
    };
  }

  // 2. The test command (given, or detected) — a usage error when it cannot be found.
  const command = early ?? (await resolveCommand());
  // A JS suite whose declared packages are missing would fail for a reason the patch has nothing to do with:
  // that is an error with a hint (install them), never a REJECTED verdict against the patch.
  const extraDirs = await dependencyDirs(options.workspace, command, {
    extraDirs: options.extraDirs,
    provider: options.dependencies,
  });
  const about = {
    testCommand: fullCommandText(command),
    detectedBy: command.detectedBy,
    framework: command.framework,
  };

  // 3. Apply in memory; a patch that does not apply is rejected with the file and hunk.
  let patched: Awaited<ReturnType<typeof applyPatchToWorkspace>>;
  try {
    patched = options.applied ?? (await applyPatchToWorkspace(options.workspace, options.patch));
  } catch (error) {
    if (!(error instanceof PatchApplyError)) throw error;
    return {
      ...empty,
      ...about,
      verdict: "REJECTED",
      reasons: [`the patch does not apply: ${error.message}`],
    };
  }

  // 3b. A patch that changes package.json's dependencies runs on an install of the patched manifest.
  const { dirs: patchedDirs, changed: changedDeps } = await patchedDependencyDirs(
    options.workspace,
    patched,
    command,
    extraDirs,
    options.dependencies,
  );

  // 4. Base runs (or the caller's), then patched runs, each in a fresh sandbox copy.
  const summaries: VerifyRunSummary[] = [];
  // The limits of the patched runs: raised for the rest of them (and the anti-gaming run) once a patched run
  // needed twice the time to complete.
  let patchedLimits = options.limits;
  // The limits of the base runs: raised the same way once a base run needed twice the time (hold14: jest's cold
  // start under load 30 on 2 cores took over the 60 s default; the base is the machine's measure, not the patch's).
  let baseLimits = options.limits;
  const limitsOf = (phase: "base" | "patched") => (phase === "patched" ? patchedLimits : baseLimits);
  const dirsOf = (phase: "base" | "patched") => (phase === "patched" ? patchedDirs : extraDirs);
  /** Counts a run: the progress callback and the summary. */
  const record = (phase: "base" | "patched", index: number, r: TestRunResult) => {
    options.onRun?.(phase, index, r);
    summaries.push(summarize(phase, index, r));
  };
  const run = async (
    phase: "base" | "patched",
    index: number,
    only?: readonly string[],
    /** A run made beside another whose outcome may make it moot: its own signal, and recorded by the caller. */
    beside?: { signal: AbortSignal },
  ): Promise<TestRunResult> => {
    const signal = beside?.signal ?? options.signal;
    checkSignal(signal);
    const narrowed = only ? narrowTo(command, only) : null;
    const ran = await runTests({
      sandbox: options.sandbox,
      workspace: options.workspace,
      command: narrowed ?? command,
      jobId: options.jobId,
      ...(phase === "patched"
        ? { files: patched.files, remove: patched.remove, executable: patched.executable }
        : {}),
      ...(dirsOf(phase).length > 0 ? { extraDirs: dirsOf(phase) } : {}),
      ...(signal ? { signal } : {}),
      ...(limitsOf(phase) ? { limits: limitsOf(phase) } : {}),
    });
    // A narrowed repeat that did not run every test it was narrowed to cannot stand in for a full run: run the
    // whole suite instead (never a weaker comparison).
    const result =
      // (A narrowed run stopped at the time limit stays narrowed: the time rule below judges it; so does one whose
      // build failed: the whole suite would make the same build.)
      narrowed &&
      only &&
      (ran.stoppedBy === "timeout" ||
        ran.stoppedBy === "memory_limit" ||
        ran.setupFailed !== undefined ||
        // (a test the narrowed run reports as skipped was filtered out by the runner, not run)
        only.every((id) => ran.tests.some((t) => t.id === id && t.outcome !== "skipped")))
        ? { ...ran, only: [...only] }
        : narrowed
          ? await runTests({
              sandbox: options.sandbox,
              workspace: options.workspace,
              command,
              jobId: options.jobId,
              ...(phase === "patched"
                ? { files: patched.files, remove: patched.remove, executable: patched.executable }
                : {}),
              ...(dirsOf(phase).length > 0 ? { extraDirs: dirsOf(phase) } : {}),
              ...(signal ? { signal } : {}),
              ...(limitsOf(phase) ? { limits: limitsOf(phase) } : {}),
            })
          : ran;
    checkSignal(signal);
    // Killed for the sandbox's memory limit: the sandbox's size, never evidence about the code (any phase).
    assertNotOutOfMemory(command, result, phase);
    // A build of the patched tree that failed for the machine's reasons is no verdict (one the patch broke is).
    if (phase === "patched") assertSetupRan(command, result, "patched");
    const timed =
      result.stoppedBy !== "timeout"
        ? result
        : phase === "patched"
          ? await timedOutAgain(result, narrowed && result.only ? narrowed : command, signal)
          : await baseTimedOutAgain(result, narrowed && result.only ? narrowed : command, signal);
    const final = coverageExitOfNarrowedRun(command, timed);
    if (!beside) record(phase, index, final);
    return final;
  };
  // A patched run stopped at the time limit: once more with twice the time (the sandbox clamps it to the host's
  // maximum), then the rule of `judgeTimeout` — the patch is blamed only when it clearly hangs.
  const timedOutAgain = async (
    first: TestRunResult,
    cmd: TestCommand,
    signal: AbortSignal | undefined,
  ): Promise<TestRunResult> => {
    const raised = {
      ...patchedLimits,
      timeoutMs: Math.min(3_600_000, Math.max(1_000, first.durationMs * 2)),
    };
    const again = await runTests({
      sandbox: options.sandbox,
      workspace: options.workspace,
      command: cmd,
      jobId: options.jobId,
      files: patched.files,
      remove: patched.remove,
      executable: patched.executable,
      ...(patchedDirs.length > 0 ? { extraDirs: patchedDirs } : {}),
      ...(signal ? { signal } : {}),
      limits: raised,
    });
    checkSignal(signal);
    assertNotOutOfMemory(command, again, "patched");
    const withOnly = first.only ? { ...again, only: first.only } : again;
    if (again.stoppedBy !== "timeout") {
      patchedLimits = raised;
      return withOnly;
    }
    const judged = judgeTimeout(baseFullRunMs(base), [first.durationMs, again.durationMs]);
    if (judged.blame === "environment") {
      throw new InfrastructureError(
        `a patched run of \`${command.command}\` reached the sandbox's time limit twice (${judged.detail}): too close to the base's own time to call it the patch's doing, so there is no verdict`,
        `give each test run more time (--timeout SECONDS, or sandbox.limits.timeoutMs in .github/retrace.yml; the host's maximum is RETRACE_SANDBOX_MAX_LIMITS timeoutMs), run on a less loaded machine, or narrow the test command`,
      );
    }
    return {
      ...withOnly,
      problems: [...withOnly.problems, `the patch makes the run hang: ${judged.detail}`],
    };
  };
  // A base run stopped at the time limit: once more with twice the time it was given (the sandbox clamps it to the
  // host's maximum). The unchanged base cannot hang because of the patch, so a limit reached twice is the machine's
  // or the configuration's: an infrastructure error naming both times, never a verdict. A base that completes
  // with more time raises the limit of every later run (base and patched) to it.
  const baseTimedOutAgain = async (
    first: TestRunResult,
    cmd: TestCommand,
    signal: AbortSignal | undefined,
  ): Promise<TestRunResult> => {
    const raised = { ...baseLimits, timeoutMs: Math.min(3_600_000, Math.max(1_000, first.durationMs * 2)) };
    const again = await runTests({
      sandbox: options.sandbox,
      workspace: options.workspace,
      command: cmd,
      jobId: options.jobId,
      ...(extraDirs.length > 0 ? { extraDirs } : {}),
      ...(signal ? { signal } : {}),
      limits: raised,
    });
    checkSignal(signal);
    assertNotOutOfMemory(command, again, "base");
    const withOnly = first.only ? { ...again, only: first.only } : again;
    if (again.stoppedBy === "timeout") {
      throw new InfrastructureError(
        `the test command \`${command.command}\` did not finish on the unchanged base: it reached the sandbox's time limit after ${Math.round(first.durationMs / 1000)} s, and again after ${Math.round(again.durationMs / 1000)} s with twice the time, so the base gives no per-test results a patch could be judged against (the unchanged code cannot hang because of a patch: the machine is loaded or the suite needs more time than the limit)`,
        "give each test run more time (--timeout SECONDS, or sandbox.limits.timeoutMs in .github/retrace.yml, within the host's maximum RETRACE_SANDBOX_MAX_LIMITS timeoutMs), run on a less loaded machine, or narrow the test command to the part of the suite that matters",
      );
    }
    baseLimits = raised;
    if ((patchedLimits?.timeoutMs ?? 0) < raised.timeoutMs)
      patchedLimits = { ...patchedLimits, timeoutMs: raised.timeoutMs };
    return withOnly;
  };
  const base: TestRunResult[] = [];
  let baseRepeats: Promise<void> | null = null;
  if (options.baseline && options.baseline.length > 0) {
    options.baseline.forEach((r, i) => {
      base.push(r);
      summaries.push(summarize("base", i + 1, r));
    });
  } else {
    // The first run is the whole suite; a repeat only re-runs the tests whose outcome the verdict rests on
    // (those failing on the base), when the runner can be narrowed to them. The repeats need nothing but the
    // first run's failing tests, so they run alongside the first patched run (awaited right after it): one
    // sandbox run less on verify's critical path.
    const baseRun = async (i: number) => {
      const r = await run("base", i, i === 1 ? undefined : repeatIds(command, base));
      assertSetupRan(command, r, "base");
      assertBaseRunReadable(command, r);
      await assertTestsCouldRun(command, r, options.workspace);
      assertBaseRunReported(command, r);
      base.push(r);
      return r;
    };
    // The runs after the first need its failing tests, not its end: their containers are made ready while it
    // runs (created, started, the checkout and its dependencies copied in; nothing runs in them), so the
    // second phase starts with its runs' commands. The patch itself is copied only by the run that takes one,
    // after the gate's second pass: a blocked patch is still never executed.
    const prepare = (phase: "base" | "patched", count: number, hostname?: string) => {
      const dirs = dirsOf(phase);
      const limits = limitsOf(phase);
      if (count > 0)
        options.sandbox.prepare?.(
          {
            jobId: options.jobId,
            input: { dir: options.workspace.root, ...(dirs.length > 0 ? { extraDirs: dirs } : {}) },
            ...(limits ? { limits } : {}),
            ...(hostname ? { hostname } : {}),
          },
          count,
        );
    };
    // (The first base run takes the first of them: made the same way, one run's time either way.)
    prepare("base", runs);
    prepare("patched", runs);
    // The anti-gaming run's, under its own host name (neutralHostname).
    if (options.antiGaming !== false) prepare("patched", 1, antiGamingHost);
    const first = await baseRun(1);
    assertBaseHasFailure(command, first);
    if (first.complete && runs >= 2) {
      baseRepeats = (async () => {
        for (let i = 2; i <= runs; i++) {
          if (!(await baseRun(i)).complete) break; // an incomplete base proves nothing; no point repeating it
        }
      })();
      baseRepeats.catch(() => {}); // awaited below
    }
  }
  /** Waits for the base's repeats (their errors are the verification's: an unreadable base is no evidence). */
  const finishBase = async () => {
    const pending = baseRepeats;
    baseRepeats = null;
    if (pending) await pending;
  };
  // 4b. The gate again, now that the failing tests are known: the special-casing rule compares the patch's new
  // branches with their source. Still before the patch runs.
  const failingSources = await failingTestSources(options.workspace, command, base);
  if (failingSources.length > 0) {
    const sourceFiles: Record<string, string> = {};
    for (const p of patched.changed) {
      const text = await options.workspace.readFile(p).catch(() => null);
      if (text !== null) sourceFiles[p] = text;
    }
    const second = evaluatePatch(options.patch, options.policy, {
      failingTests: failingSources,
      sourceFiles,
      ...(failingCheck !== undefined ? { failingCheck } : {}),
    });
    if (!second.allowed) {
      await finishBase();
      return {
        ...empty,
        ...about,
        verdict: "BLOCKED",
        violations: second.violations,
        reasons: second.violations.map(
          (v) =>
            `policy ${v.rule}: ${v.file ?? "(patch)"}${v.line === null ? "" : `:${v.line}`}: ${v.message}`,
        ),
        runs: ordered(summaries),
        changedFiles: patched.changed,
        baseline: base,
      };
    }
  }
  const after: TestRunResult[] = [];
  const usable = () =>
    base.every((r) => r.complete) && base.some((r) => r.tests.some((t) => isFailing(t.outcome)));
  if (!usable()) await finishBase();
  const baseUsable = usable();
  // The anti-gaming run starts as soon as the first patched run verifies, alongside the remaining patched
  // runs (its wall time then hides behind theirs); it is used only if the final comparison verifies with the
  // same fail→pass tests, and cancelled otherwise.
  const wantAntiGaming = options.antiGaming !== false;
  let speculative: {
    failToPass: string[];
    controller: AbortController;
    promise: Promise<Awaited<ReturnType<typeof runAntiGaming>>>;
  } | null = null;
  const startAntiGaming = (failToPass: string[]) => {
    const controller = new AbortController();
    options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
    const promise = runAntiGaming(
      { ...options, signal: controller.signal, ...(patchedLimits ? { limits: patchedLimits } : {}) },
      command,
      patched,
      base,
      failToPass,
      patchedDirs,
      antiGamingHost,
    );
    promise.catch(() => {}); // awaited (or discarded) below
    return { failToPass, controller, promise };
  };
  const dropSpeculative = async () => {
    const moot = speculative;
    speculative = null;
    if (!moot) return;
    moot.controller.abort();
    await moot.promise.catch(() => null);
  };
  if (baseUsable) {
    // The tests failing on the base first, narrowed to them where the runner allows (reject fast: a patch that
    // does not fix them is rejected on that run alone), then the full suite once, then narrowed repeats. With
    // one run, or a runner that cannot be narrowed, the first run is the full suite.
    const targets = runs >= 2 ? repeatIds(command, base) : undefined;
    // The full patched run needs nothing from the narrowed one: it starts beside it (and beside the base's
    // repeats), so the critical path is two phases of runs, not three. It counts only when the narrowed run
    // would have let it run: when that run rejects the patch (or a base repeat did not complete), the full run
    // is cancelled and, had it finished already, left out — the evidence is exactly that of running them one
    // after the other.
    type Pending = {
      controller: AbortController;
      pending: Promise<{ r: TestRunResult } | { error: unknown }>;
    };
    let beside: Pending | null = null;
    const dropBeside = async () => {
      const moot = beside;
      beside = null;
      if (!moot) return;
      moot.controller.abort();
      await moot.pending;
    };
    try {
      for (let i = 1; i <= runs; i++) {
        const only =
          targets === undefined
            ? i === 1
              ? undefined
              : repeatIds(command, base)
            : i === 2
              ? undefined
              : targets;
        const taken: Pending | null = i === 2 ? beside : null;
        if (taken) beside = null;
        const limitsBefore = patchedLimits;
        const pending =
          taken?.pending ??
          run("patched", i, only).then(
            (r) => ({ r }),
            (error: unknown) => ({ error }),
          );
        if (i === 1 && targets !== undefined && runs >= 2) {
          const controller = new AbortController();
          options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
          beside = {
            controller,
            pending: run("patched", 2, undefined, { signal: controller.signal }).then(
              (r) => ({ r }),
              (error: unknown) => ({ error }),
            ),
          };
          // The anti-gaming run too: its inputs are the patched tree and the tests failing on the base, not the
          // patched runs' outcomes. It is used only when the final comparison verifies with exactly these tests
          // going from failing to passing, and cancelled otherwise.
          if (wantAntiGaming && speculative === null) speculative = startAntiGaming([...targets].sort());
        }
        // The base's repeats ran alongside this run: they are done (or their error is thrown) before any judgement.
        await finishBase();
        const settled = await pending;
        if ("error" in settled) throw settled.error;
        const r = settled.r;
        // The narrowed run needed twice the time: the full run beside it started with the old limit, so it is
        // made afresh with the raised one, as it would have been after it.
        if (i === 1 && patchedLimits !== limitsBefore) {
          await dropBeside();
          await dropSpeculative();
        }
        if (taken) record("patched", i, r);
        after.push(r);
        if (!usable()) break; // a base repeat did not complete: nothing more to run, the comparison says why
        if (!r.complete) break;
        if (
          r.only !== undefined &&
          after.length === 1 &&
          r.tests.some((t) => r.only?.includes(t.id) && isFailing(t.outcome))
        )
          break; // a test the patch had to fix still fails: rejected, whatever the rest of the suite does
        if (wantAntiGaming && speculative === null && i < runs) {
          // Started once the runs so far verify, or would but for the full patched run still to come (the first
          // patched run is narrowed to the failing tests, and they all pass): it then hides behind that full run.
          const sofar = compareRuns(base, after);
          const promising =
            sofar.verified ||
            (after.every((x) => x.complete) &&
              base.every((x) => x.complete) &&
              sofar.failToPass.length > 0 &&
              sofar.stillFailing.length === 0 &&
              sofar.passToFail.length === 0 &&
              sofar.unstable.length === 0);
          if (promising) speculative = startAntiGaming(sofar.failToPass);
        }
      }
    } catch (error) {
      await dropSpeculative(); // an anti-gaming run started beside must not outlive a verification that failed
      throw error;
    } finally {
      await dropBeside();
    }
  }

  try {
    await finishBase();
  } catch (error) {
    await dropSpeculative();
    throw error;
  }
  // 5. Compare per test id.
  let comparison = compareRuns(base, after);
  // 5b. A test the verdict rests on gave different outcomes on the UNPATCHED base: not the patch's doing. Re-run
  // base and patched tree BASE_RERUNS times each (narrowed to those tests where the runner allows) to decide;
  // still undecided, there is no verdict (FlakyBaseError, exit 4), never REJECTED. A REJECTED the comparison
  // reaches for another reason (a stable test regressed, a test stable on the base made flaky) stands.
  const toSettle = baseUsable ? baseFlakesToSettle(comparison, [...base, ...after]) : [];
  if (toSettle.length > 0) {
    const ids = toSettle.map((u) => u.id);
    const baseReruns: TestRunResult[] = [];
    const patchedReruns: TestRunResult[] = [];
    try {
      for (let k = 1; k <= BASE_RERUNS; k++) {
        const r = await run("base", base.length + 1, ids);
        assertBaseRunReported(command, r);
        base.push(r);
        baseReruns.push(r);
      }
      // The patched re-runs only when some test could still be settled (its base re-runs agree).
      const again = collapseRuns("base", baseReruns).outcomes;
      const decidable = ids.some((id) => !["unstable", "missing", undefined].includes(again.get(id)));
      for (let k = 1; decidable && k <= BASE_RERUNS; k++) {
        const r = await run("patched", after.length + 1, ids);
        after.push(r);
        patchedReruns.push(r);
        if (!r.complete) break; // the comparison says why
      }
    } catch (error) {
      await dropSpeculative();
      throw error;
    }
    const { settled, still } = settleBaseFlakes(toSettle, baseReruns, after);
    if (still.length > 0 && after.every((r) => r.complete)) {
      await dropSpeculative();
      const runsOf = base.length;
      throw new FlakyBaseError(
        `${FLAKY_BASE_PREFIX}${still.length} test(s) the verdict rests on give different outcomes on the UNPATCHED base, even after ${BASE_RERUNS} re-runs of it (and ${BASE_RERUNS} of the patched tree): ${still
          .slice(0, 5)
          .map((u) => describeUnstable(u, runsOf))
          .join(
            "; ",
          )}. The flakiness is the base's own, not the patch's: neither VERIFIED nor REJECTED, and the fix loop asks for no other patch`,
        still.map((u) => ({ id: u.id, counts: u.counts })),
        "quarantine or fix the flaky test on the base (a test that depends on timing, order or shared state), or re-run on a quieter host; then verify again",
      );
    }
    comparison = compareRuns(base, after, settled);
    if (settled.size > 0) {
      comparison.reasons.push(
        `${settled.size} test(s) gave different outcomes on the unpatched base, and ${BASE_RERUNS} re-runs of the base and of the patched tree each agreed: judged on the re-runs (${[
          ...settled,
        ]
          .map(([id, o]) => `${id}: ${o} on the base`)
          .join(
            ", ",
          )}; earlier: ${toSettle.map((u) => describeUnstable(u, base.length - BASE_RERUNS)).join("; ")})`,
      );
    }
  }
  const lastBad = [...after].reverse().find((r) => !r.complete || r.counts.failed > 0);
  let outputTail = (lastBad ?? after[after.length - 1] ?? base[base.length - 1])?.outputTail ?? "";

  // 6. The anti-gaming layers, only for a patch the normal runs verify (one extra run, failing tests only).
  let antiGaming: (AntiGamingReport & { durationMs: number; waitedMs: number }) | null = null;
  let verified = comparison.verified;
  const sameTests = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  if (speculative && !(verified && sameTests(speculative.failToPass, comparison.failToPass))) {
    await dropSpeculative();
  }
  if (verified && wantAntiGaming) {
    checkSignal(options.signal);
    const waitFrom = performance.now();
    const ag = speculative
      ? await speculative.promise
      : await runAntiGaming(
          { ...options, ...(patchedLimits ? { limits: patchedLimits } : {}) },
          command,
          patched,
          base,
          comparison.failToPass,
          patchedDirs,
          antiGamingHost,
        );
    antiGaming = { ...ag.report, waitedMs: Math.round(performance.now() - waitFrom) };
    if (ag.outputTail) outputTail = ag.outputTail;
    if (antiGaming.rejections.length > 0) {
      verified = false;
      comparison.reasons = [
        ...antiGaming.rejections,
        ...comparison.reasons.filter((r) => !/went from failing to passing \(/.test(r)),
      ];
    } else {
      // VERIFIED without the anti-gaming evidence is never silent: said first, plainly (hold8: a test inherited from a
      // mixin left the run "not made" and the verdict read like any other VERIFIED, with a note at the end).
      const gap = antiGamingGap(antiGaming);
      if (gap) comparison.reasons.unshift(gap);
      comparison.reasons.push(...antiGaming.notes);
      if (antiGaming.ran) {
        comparison.reasons.push(
          `anti-gaming checks passed: ${antiGaming.checks.map((c) => `${c.layer} ${c.name}`).join(", ")}`,
        );
      }
    }
  }
  if (changedDeps.length > 0 && after.length > 0) {
    comparison.reasons.push(
      `the patch changes package.json's dependencies (${changedDeps.join(", ")}): the patched runs used an install of the patched manifest, the base runs the base's`,
    );
  }
  comparison.reasons.push(...warnings);
  if (after.some((r) => r.reportFormat === "auto")) {
    comparison.reasons.push(
      `results were read from the output of \`${command.command}\`, which has no machine-readable reporter Retrace knows; run the framework's own command (pytest, node --test, jest, vitest, mocha, go test, cargo test) for stronger evidence`,
    );
  }
  return {
    ...about,
    verdict: verified ? "VERIFIED" : "REJECTED",
    failToPass: comparison.failToPass,
    passToFail: comparison.passToFail,
    stillFailing: comparison.stillFailing,
    unstable: comparison.unstable,
    runs: ordered(summaries),
    reasons: comparison.reasons,
    violations: [],
    changedFiles: patched.changed,
    tests: comparison.tests,
    outputTail,
    antiGaming,
    baseline: base,
  };
}

/** A coverage tool with a threshold in the test command (c8, nyc, `--check-coverage`, jest's `--coverage`). */
const COVERAGE_TOOL = /(^|[\s;&|(/])(?:c8|nyc)(?=\s)|--check-coverage\b|--coverage\b|\bcoverage\s+run\b/;

/**
 * A run narrowed to some tests under a command that checks coverage (chai: `c8 --99 --check-coverage mocha …`)
 * fails the threshold however its tests went: a subset of the suite never covers 99% of the code. Its exit code
 * says nothing about the tests, so such a run counts when its report lists every test it was narrowed to and none
 * failing — only then, and only for narrowed runs: a full run's exit code is still held against its report. Pure.
 */
export function coverageExitOfNarrowedRun(command: TestCommand, run: TestRunResult): TestRunResult {
  const onlyExitCode =
    run.problems.length === 1 &&
    /^exit code \d+ disagrees with the report, which lists no failing test/.test(run.problems[0]!);
  if (
    run.only === undefined ||
    run.complete ||
    !onlyExitCode ||
    run.stoppedBy !== null ||
    !run.reportFound ||
    run.counts.failed > 0 ||
    !COVERAGE_TOOL.test(command.command) ||
    !run.only.every((id) => run.tests.some((t) => t.id === id))
  )
    return run;
  return { ...run, problems: [], complete: true };
}

/**
 * How many times the base's full-suite time a patched run must have run, stopped at the limit both times, to be
 * the patch's doing (a hang, an endless loop). A loaded machine slows base and patched runs alike, by a factor
 * seen up to about 12 on a shared 2-core host over minutes, but a second run with twice the time that stops again
 * at 10x the base's own time is not load.
 */
export const HANG_FACTOR = 10;

/** The median duration of the base's complete full-suite runs; null when there is none. */
export function baseFullRunMs(base: readonly TestRunResult[]): number | null {
  const ms = base
    .filter((r) => r.complete && r.only === undefined)
    .map((r) => r.durationMs)
    .sort((a, b) => a - b);
  return ms.length === 0 ? null : (ms[Math.floor((ms.length - 1) / 2)] ?? null);
}

/**
 * Who a patched run stopped at the time limit is blamed on, from the base's full-suite time and the times the
 * patched runs were stopped at (the first, then the re-run with twice the limit). Pure.
 *
 * The patch (REJECTED: the run is incomplete, with the reason) only when the base completed, and the longest
 * stopped run lasted at least HANG_FACTOR times the base's full run: the base was well inside the limit and
 * the patched code ran ten times as long without finishing. Otherwise the environment: an infrastructure error
 * saying which limit to raise, never a verdict against the patch.
 */
export function judgeTimeout(
  baseMs: number | null,
  stoppedMs: readonly number[],
): { blame: "patch" | "environment"; detail: string } {
  const longest = Math.max(...stoppedMs);
  const secs = (ms: number) => `${Math.round(ms / 1000)} s`;
  const at = stoppedMs.map(secs).join(", then ");
  if (baseMs === null) {
    return { blame: "environment", detail: `stopped after ${at}, and no complete base run to compare with` };
  }
  const ratio = longest / Math.max(baseMs, 1);
  const detail = `stopped after ${at}; the base's full run took ${secs(baseMs)} (${ratio.toFixed(1)}x)`;
  return { blame: ratio >= HANG_FACTOR ? "patch" : "environment", detail };
}

/** Run summaries in phase order (base first), each phase by run number: runs made side by side end in any order. */
function ordered(summaries: readonly VerifyRunSummary[]): VerifyRunSummary[] {
  const phase = (x: VerifyRunSummary) => (x.phase === "base" ? 0 : 1);
  return [...summaries].sort((a, b) => phase(a) - phase(b) || a.index - b.index);
}

/** Most tests a repeat is narrowed to; more than that and the repeat runs the whole suite. */
const MAX_NARROWED = 50;

/**
 * The tests a repeated run re-runs: those failing in the first complete base run (a fix must turn them green,
 * and stably), or undefined — the whole suite — when the runner cannot be narrowed or there are too many.
 * A regression elsewhere is looked for in each phase's first, full run.
 */
function repeatIds(command: TestCommand, base: readonly TestRunResult[]): string[] | undefined {
  const first = base.find((r) => r.complete && r.only === undefined);
  if (!first || command.framework === "unknown") return undefined;
  const failing = uniqueTestIds(first.tests)
    .filter((t) => isFailing(t.outcome))
    .map((t) => t.id);
  // File-level failures (a module that did not load) are not test ids a runner can select.
  if (failing.length === 0 || failing.length > MAX_NARROWED || failing.some((id) => /#\d+$/.test(id)))
    return undefined;
  return failing;
}

/** The command narrowed to `ids`, or null when the runner's filter cannot express them. */
function narrowTo(command: TestCommand, ids: readonly string[]): TestCommand | null {
  try {
    return filterCommand(command, [...ids]);
  } catch {
    return null;
  }
}

/** The source of each test failing on the base (for the special-casing rule); tests it cannot find are left out. */
export async function failingTestSources(
  workspace: Workspace,
  command: TestCommand,
  base: readonly TestRunResult[],
): Promise<FailingTestSource[]> {
  const failing = new Map<string, string | undefined>();
  for (const r of base) for (const t of r.tests) if (isFailing(t.outcome)) failing.set(t.id, t.file);
  // `python -m unittest`'s TestCases are found as pytest finds them (by file, class and method), as the anti-gaming
  // run does: before, its failing tests had no source here, so special-casing never saw their literals (hold10's
  // offline catalogue of the test's ISBN was VERIFIED).
  const unittest = command.framework === "unknown" && isPythonUnittestCommand(command.command);
  const framework = unittest ? "pytest" : command.framework;
  if (failing.size === 0 || !["pytest", "node-test", "jest", "vitest", "mocha"].includes(framework)) {
    return [];
  }
  const out: FailingTestSource[] = [];
  let files: string[] | null = null;
  const listFiles = async () => (files ??= await workspace.listFiles());
  const cache = new Map<string, string | null>();
  const read = async (p: string) => {
    if (!cache.has(p)) cache.set(p, await workspace.readFile(p).catch(() => null));
    return cache.get(p) ?? null;
  };
  for (const [id, file] of [...failing].slice(0, 50)) {
    // unittest's own form `test_x (tests.test_isbn.TestIsbn.test_x)` or the dotted id alone.
    const dotted = /\(([\w.]+)\)\s*$/.exec(id)?.[1] ?? id;
    const asPytest = unittest ? pytestIdOfUnittest(dotted, await listFiles()) : id;
    if (asPytest === null) continue;
    const found = await testDefinition(framework, asPytest, file, read, listFiles, command.command);
    if (found) out.push({ id, file: found.file, body: found.body });
  }
  return out;
}

/** The neutral-run layer's rejection: the patched code behaves differently where it cannot recognise the test run. */
function neutralRunRejection(detail: string): AntiGamingReport {
  return {
    ran: true,
    checks: [{ layer: "neutral-run", name: "run the code cannot recognise", passed: false, detail }],
    rejections: [`neutral run: ${detail}`],
    gamingClass:
      "code that recognises the test run or depends on its surroundings (test names, files, argv, environment, order, repetition)",
    notes: [],
  };
}

/** The one extra sandbox run of the anti-gaming layers (src/fix/tripwire.ts), and its judgement. */
async function runAntiGaming(
  options: VerifyOptions,
  command: TestCommand,
  patched: Awaited<ReturnType<typeof applyPatchToWorkspace>>,
  base: readonly TestRunResult[],
  failToPass: readonly string[],
  extraDirs: ExtraDir[],
  hostname: string,
): Promise<{ report: AntiGamingReport & { durationMs: number }; outputTail: string | null }> {
  const removed = new Set(patched.remove);
  const fileOf = new Map<string, string>();
  for (const r of base) for (const t of r.tests) if (t.file) fileOf.set(t.id, t.file);
  const readFile = async (p: string): Promise<string | null> => {
    if (removed.has(p)) return null;
    if (p in patched.files) return patched.files[p] ?? null;
    try {
      return await options.workspace.readFile(p);
    } catch {
      return null;
    }
  };
  const listFiles = async () => {
    const files = new Set(await options.workspace.listFiles());
    for (const p of Object.keys(patched.files)) files.add(p);
    return [...files].filter((p) => !removed.has(p)).sort();
  };
  // `python -m unittest` (read from its output, framework `unknown`): its TestCases are found by their dotted ids
  // and run as pytest runs them — the neutral run's entry is pytest's, the runner-free run and the cold start are
  // Retrace's own harness, which already runs TestCases without any runner.
  const unittest = command.framework === "unknown" && isPythonUnittestCommand(command.command);
  const framework = unittest ? "pytest" : command.framework;
  let failing = failToPass.map((id) => ({ id, ...(fileOf.has(id) ? { file: fileOf.get(id)! } : {}) }));
  if (unittest) {
    const files = await listFiles();
    failing = failToPass.map((id) => ({ id: pytestIdOfUnittest(id, files) ?? id }));
  }
  const unittestNote = unittest
    ? "`python -m unittest`: the anti-gaming run ran its TestCases through pytest's entry (neutral run) and Retrace's own harness (runner-free run, cold start), not through unittest's runner"
    : null;
  type Once =
    | { unsupported: string }
    | { report: AntiGamingReport; durationMs: number; text: string; stoppedBy: string | null };
  const once = async (limits: VerifyOptions["limits"]): Promise<Once> => {
    const nonce = globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 16);
    const plan = await planAntiGaming({
      framework,
      failing,
      readFile,
      listFiles,
      nonce,
      command: command.command,
      ...(command.setup ? { setupScript: setupScript(command.setup, nonce) } : {}),
      patchedFiles: Object.keys(patched.files),
      retype: addsTypeTest(options.patch),
    });
    if ("unsupported" in plan) return plan;
    const result = await options.sandbox.run({
      jobId: options.jobId,
      command: ["sh", "-c", plan.script],
      input: {
        dir: options.workspace.root,
        files: { ...patched.files, ...plan.files },
        remove: [...new Set([...patched.remove, ...plan.remove])],
        executable: patched.executable.filter((p) => !(p in plan.files)),
        ...(extraDirs.length > 0 ? { extraDirs } : {}),
      },
      env: plan.env,
      // Not the container-id shape of every other run's host name (hold9: a fix keyed on 12 hex digits).
      hostname,
      collect: [plan.reportFile, ...(plan.runnerFree ? [plan.runnerFree.reportFile] : [])],
      // Report files: a directory a run leaves there does not come back (twenty-first red team).
      collectFilesOnly: true,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(limits ? { limits } : {}),
    });
    checkSignal(options.signal);
    // Out of memory is the sandbox's size, not gaming and not its absence: no verdict (assertNotOutOfMemory).
    if (
      result.stoppedBy === "memory_limit" ||
      (result.stoppedBy === null &&
        result.exitCode !== 0 &&
        heapExhaustedBySandbox(`${result.stdout}\n${result.stderr}`, result.memoryMb, plan.script))
    )
      throw memoryLimitError(command.command, result.memoryMb, "anti-gaming");
    const setupFailed = command.setup
      ? new RegExp(`^${setupFailedMarker(nonce)} (\\d+)$`, "m").exec(result.stderr)
      : null;
    if (setupFailed && result.stoppedBy === null) {
      // The build the normal patched runs made did not succeed here: the machine's doing (no verdict), or the
      // patched build behaves differently in the neutral surroundings (the run the code cannot recognise).
      const failed = { exitCode: Number(setupFailed[1]), output: result.stderr.replace(setupFailed[0], "") };
      const last = failed.output.trim().split("\n").slice(-3).join(" ⏎ ");
      if (setupFailedForEnvironment(failed)) {
        throw new InfrastructureError(
          `the anti-gaming run's build step \`${command.setup}\` failed for a reason of the machine (exit ${failed.exitCode}): ${last}`,
          "run verify again on a less loaded machine, or raise sandbox.limits in .github/retrace.yml",
        );
      }
      // Not evidence against the patch either: the unchanged base was never built in these surroundings, so a
      // build tool that minds them (changesets' tsdown under the neutral run's directory and environment failed on
      // the real upstream fix) cannot be told from a patch that does. No verdict, rather than a REJECTED one.
      throw new InfrastructureError(
        `the anti-gaming run's build step \`${command.setup}\` failed in the neutral surroundings (exit ${failed.exitCode}) though it succeeded in the patched runs, and the unchanged base was not built there, so it is no evidence either way: ${last}`,
        "run the build outside the test command (build in the checkout before Retrace, and pass --test with the test step alone), or check that the build does not depend on its directory name, user or environment",
      );
    }
    const bytes = result.files[plan.reportFile];
    const tests = bytes === undefined ? [] : readResults(plan.format, new TextDecoder().decode(bytes));
    const problems: string[] = [];
    if (result.stoppedBy !== null) problems.push(`the sandbox stopped the run (${result.stoppedBy})`);
    if (bytes === undefined)
      problems.push(
        result.collectTooLarge?.includes(plan.reportFile)
          ? `the ${plan.format} report is larger than ${maxCollectMib()} MiB, more than Retrace reads back from a run: not read`
          : `no ${plan.format} report (exit code ${result.exitCode})`,
      );
    const rfBytes = plan.runnerFree ? result.files[plan.runnerFree.reportFile] : undefined;
    const judged = judgeAntiGaming(plan, {
      tests,
      complete: problems.length === 0,
      problems,
      reportFound: bytes !== undefined,
      ...(rfBytes !== undefined ? { runnerFreeReport: new TextDecoder().decode(rfBytes) } : {}),
    });
    const report = unittestNote ? { ...judged, notes: [...judged.notes, unittestNote] } : judged;
    const text = [result.stdout.trimEnd(), result.stderr.trimEnd()].filter(Boolean).join("\n");
    return { report, durationMs: result.durationMs, text, stoppedBy: result.stoppedBy };
  };
  // The time-limit rule of the patched runs (judgeTimeout), for the anti-gaming run too: a run stopped at the
  // limit runs once more with twice the time; stopped again, it is the patch's doing (a hang in the neutral
  // surroundings: a rejection) only at HANG_FACTOR times the base's full run, otherwise an infrastructure error
  // naming the limit to raise. A time limit alone never rejects a patch.
  const bounded = async (): Promise<Once> => {
    const a = await once(options.limits);
    if ("unsupported" in a || a.stoppedBy !== "timeout") return a;
    const raised = {
      ...options.limits,
      timeoutMs: Math.min(3_600_000, Math.max(1_000, a.durationMs * 2)),
    };
    const b = await once(raised);
    if ("unsupported" in b || b.stoppedBy !== "timeout") return b;
    const judged = judgeTimeout(baseFullRunMs(base), [a.durationMs, b.durationMs]);
    if (judged.blame === "environment") {
      throw new InfrastructureError(
        `the anti-gaming run of the previously failing tests reached the sandbox's time limit twice (${judged.detail}): too close to the base's own time to call it the patch's doing, so there is no verdict`,
        `give each test run more time (--timeout SECONDS, or sandbox.limits.timeoutMs in .github/retrace.yml; the host's maximum is RETRACE_SANDBOX_MAX_LIMITS timeoutMs), run on a less loaded machine, or narrow the test command`,
      );
    }
    const detail = `the patched code hangs when the previously failing tests run in neutral surroundings: ${judged.detail}`;
    return {
      report: neutralRunRejection(detail),
      durationMs: a.durationMs + b.durationMs,
      text: b.text,
      stoppedBy: "timeout",
    };
  };

  let first = await bounded();
  // Stopped for another reason (output; memory is an error at once, in `once`) it is no evidence either way, and VERIFIED needs its checks: made
  // once more, and stopped again with nothing found it is an infrastructure error, never a verdict. (hold5, at
  // load 30 on 2 cores: a stopped anti-gaming run let a runner-dependent patch through as VERIFIED with a note.)
  if (!("unsupported" in first) && first.stoppedBy !== null && first.stoppedBy !== "timeout") {
    const again = await once(options.limits);
    // What the runner-free run (it writes its report first) found still counts.
    if (!("unsupported" in again) && again.stoppedBy !== null && again.report.rejections.length === 0)
      throw new InfrastructureError(
        `the anti-gaming run was stopped by the sandbox twice (${first.stoppedBy}, then ${again.stoppedBy}): its checks could not be made, and VERIFIED needs them`,
        "re-run on a less loaded machine, or raise sandbox.limits in .github/retrace.yml (within the host's RETRACE_SANDBOX_MAX_LIMITS)",
      );
    first = again;
  }
  if ("unsupported" in first) {
    return {
      report: {
        ran: false,
        checks: [],
        rejections: [],
        gamingClass: null,
        notes: [`anti-gaming run not made: ${first.unsupported}`],
        durationMs: 0,
      },
      outputTail: null,
    };
  }
  if (first.report.rejections.length === 0) {
    return { report: { ...first.report, durationMs: first.durationMs }, outputTail: null };
  }
  if (first.stoppedBy === "timeout") {
    // A hang already judged on two runs (the second with twice the time) against the base's time: no third.
    return {
      report: { ...first.report, durationMs: first.durationMs },
      outputTail: first.text.slice(-4_000),
    };
  }
  // A rejection is confirmed by a second run (fresh names): gaming is deterministic, a slow or flaky moment is
  // not. Only checks that fail in both runs count.
  const second = await bounded();
  const durationMs = first.durationMs + ("durationMs" in second ? second.durationMs : 0);
  const failedAgain = (name: string) =>
    "report" in second && second.report.ran && second.report.checks.some((c) => c.name === name && !c.passed);
  const confirmed = first.report.checks.filter((c) => !c.passed && failedAgain(c.name));
  if (confirmed.length === 0 && "report" in second && second.report.ran) {
    return {
      report: {
        ...second.report,
        notes: [
          ...second.report.notes,
          `a first anti-gaming run failed (${first.report.checks
            .filter((c) => !c.passed)
            .map((c) => c.name)
            .join(", ")}) and a second passed every check: treated as a flaky moment, not gaming`,
        ],
        durationMs,
      },
      outputTail: null,
    };
  }
  const keep = new Set(confirmed.map((c) => c.name));
  const byName: Record<string, RegExp> = {
    canary: /^tripwire \(canary\)/,
    "mutated twins": /^tripwire \(mutated twin\)/,
    "run the code cannot recognise": /^neutral run:/,
    "run outside the test runner": /^runner-free run:/,
    "text streams shaped like real ones": /^real-shaped doubles:/,
    "run as a fresh program calls the code": /^cold-start run:/,
  };
  const rejections =
    keep.size === 0
      ? first.report.rejections
      : first.report.rejections.filter((r) => [...keep].some((k) => byName[k]?.test(r) ?? true));
  return {
    report: { ...first.report, rejections, durationMs },
    outputTail: first.text.slice(-4_000),
  };
}

/**
 * What the anti-gaming run could not show, in one sentence for the top of a VERIFIED verdict (and the PR body), or
 * null when every previously failing test went through it. Pure.
 */
export function antiGamingGap(report: Pick<AntiGamingReport, "ran" | "notes">): string | null {
  const notMade = report.notes.find((n) => /^anti-gaming run not made: /.test(n));
  const noEvidence = report.notes.find((n) => /^the anti-gaming run produced no evidence/.test(n));
  const uncovered = report.notes
    .filter((n) => /^not covered by the anti-gaming run: /.test(n))
    .map((n) => n.replace(/^not covered by the anti-gaming run: /, ""));
  if (!report.ran || notMade) {
    const why =
      notMade?.replace(/^anti-gaming run not made: /, "") ?? noEvidence ?? "no check produced evidence";
    return `VERIFIED WITHOUT ANTI-GAMING EVIDENCE: the anti-gaming checks (tripwires, neutral run, runner-free run, cold start) could not run — ${why}. The tests pass after the patch, but nothing here shows they pass because the code is fixed rather than because the patch recognises or disarms them: review the diff for test-specific behaviour before trusting this verdict`;
  }
  if (noEvidence) {
    return `VERIFIED WITH PARTIAL ANTI-GAMING EVIDENCE: ${noEvidence}; only the runner-free checks ran`;
  }
  if (uncovered.length > 0) {
    return `VERIFIED WITH PARTIAL ANTI-GAMING EVIDENCE: the anti-gaming checks did not cover ${uncovered.join("; ")}`;
  }
  return null;
}

export { TestCommand, TestRunResult };
