/**
 * The fix job's result document: what `retrace fix --json` prints, what `result.json` holds, and what a
 * runner hands back to the App (which validates it against this schema before trusting it).
 */
import { z } from "zod";

export const FixOutcome = z.enum(["FIXED", "FLAKY", "GAVE_UP", "BLOCKED", "BUDGET_EXHAUSTED", "ERROR"]);
export type FixOutcome = z.infer<typeof FixOutcome>;

export const FlakyReport = z.object({
  /** How many times the failing tests were rerun on the unchanged base. */
  runs: z.number().int().min(0),
  /** Reruns in which every failing test passed. */
  passes: z.number().int().min(0),
  /** Reruns in which at least one of them failed again. */
  failures: z.number().int().min(0),
  /** Observed failure rate (failures / runs). */
  failureRate: z.number().min(0).max(1),
  /** Wilson score interval of the failure rate. */
  interval: z.object({
    /** Lower bound. */
    low: z.number(),
    /** Upper bound. */
    high: z.number(),
    /** Confidence level, e.g. 0.95. */
    confidence: z.number(),
  }),
  /** Per test id: how often it passed and failed across the reruns. */
  perTest: z.array(
    z.object({
      /** Test id as the runner names it. */
      id: z.string(),
      /** Reruns in which it passed. */
      passed: z.number().int(),
      /** Reruns in which it failed (or was not reported). */
      failed: z.number().int(),
    }),
  ),
  /** The command that reran only the failing tests. */
  command: z.string(),
  /** True when it was a full-suite rerun because no per-test filter is known for the runner. */
  fullSuite: z.boolean(),
  /** Wall time of all reruns, in milliseconds. */
  durationMs: z.number().min(0),
});
export type FlakyReport = z.infer<typeof FlakyReport>;

export const TestComparison = z.object({
  /** Test id. */
  id: z.string(),
  /** Outcome on the base commit. */
  before: z.string(),
  /** Outcome with the patch, on every verification run ("passed" only when it passed on all of them). */
  after: z.string(),
});

export const AttemptRecord = z.object({
  /** 1-based attempt number. */
  n: z.number().int().min(1),
  /** Model that worked this attempt. */
  model: z.string(),
  /** The `report_root_cause` hypothesis, when the model gave one. */
  rootCause: z.string().optional(),
  /** The `propose_edits` summary, when the model proposed edits. */
  summary: z.string().optional(),
  /** Files the patch touched. */
  files: z.array(z.string()),
  /** The rendered patch of this attempt (redacted), when edits applied. */
  patch: z.string().optional(),
  /** "accepted", or the step that rejected the attempt. */
  verdict: z.enum(["accepted", "root_cause", "propose", "apply", "policy", "verify", "budget", "error"]),
  /** Why the attempt was rejected (empty when accepted). */
  reason: z.string(),
  /** Policy violations, when the gate refused the patch. */
  violations: z.array(z.string()),
  /** Tokens (input + output) spent in this attempt. */
  tokens: z.number().int().min(0),
  /** Dollars spent in this attempt. */
  costUsd: z.number().min(0),
});
export type AttemptRecord = z.infer<typeof AttemptRecord>;

export const FixResult = z.object({
  /** Job id; also the suffix source of the branch name. */
  id: z.string(),
  /** How the job ended. */
  outcome: FixOutcome,
  /** One sentence a human can act on. */
  reason: z.string(),
  /** Attempts the model made (0 when the job stopped before any model call). */
  attempts: z.number().int().min(0),
  /** Total model tokens (input + output, cache reads included). */
  tokens: z.number().int().min(0),
  /** Total model cost in US dollars. */
  costUsd: z.number().min(0),
  /** The fix branch created in the repository (FIXED only). */
  branch: z.string().nullable(),
  /** The fix commit on that branch (FIXED only). */
  commit: z.string().nullable(),
  /** Test ids that failed on the base commit. */
  failingTests: z.array(z.string()),
  /** The test command used. */
  testCommand: z.string().nullable(),
  /** Flaky triage evidence; present whenever triage ran. */
  flaky: FlakyReport.nullable(),
  /** Before/after per test, when a patch was verified. */
  verification: z
    .object({
      /** Verification runs with the patch (all must agree). */
      runs: z.number().int(),
      /** Per-test comparison. */
      tests: z.array(TestComparison),
      /** The anti-gaming checks that ran on the accepted patch (tripwires, neutral run), each passed. */
      antiGaming: z
        .array(z.object({ layer: z.string(), name: z.string(), passed: z.boolean(), detail: z.string() }))
        .optional(),
      /** What the anti-gaming run could not check on the accepted patch, said plainly (absent: it checked all). */
      antiGamingGap: z.string().optional(),
    })
    .nullable(),
  /** Every attempt, accepted or not, in order. */
  attemptLog: z.array(AttemptRecord),
  /** Wall time of the whole job, in milliseconds. */
  durationMs: z.number().min(0),
});
export type FixResult = z.infer<typeof FixResult>;

/** Exit code of `retrace fix` for each outcome: 0 when there is a verified fix or a flakiness report. */
export function exitCodeFor(outcome: FixOutcome): number {
  switch (outcome) {
    case "FIXED":
    case "FLAKY":
      return 0;
    default:
      return 1;
  }
}
