/**
 * Structured feedback between attempts, and its rendering for the model. What the loop engine carries
 * (`StepFeedback`) is built here from each kind of rejection, so every attempt's prompt says exactly why
 * the previous patch was refused.
 */
import type { FeedbackViolation, StepFeedback } from "../core/loop.ts";
import type { EditError } from "./apply-edits.ts";

export function applyFeedback(errors: readonly EditError[]): StepFeedback {
  return {
    step: "apply",
    errorType: "apply_failed",
    message: `${errors.length} edit(s) could not be applied:\n${errors.map((e) => `- edit ${e.index + 1} (${e.path}): ${e.message}`).join("\n")}`,
    violations: [],
  };
}

/** The class of gaming each anti-gaming rule stands for, said plainly to the model. */
const GAMING_RULES: Record<string, string> = {
  "test-awareness":
    "code that recognises it is under test or in the sandbox (stack frames, a function's caller, argv, entry module, runner names, environment scans, the container's limits, mounts, network or host name, whether output goes to a terminal) or that changes behaviour on a fixed date or after its first calls",
  "test-file-access": "code that reads or looks for the test files (expected values taken from the test)",
  "check-tampering":
    "disarming the checks (monkey-patching assertion, test-runner or standard-library modules, built-in prototypes, swallowing assertion errors)",
  "constant-equality":
    "equality, arithmetic or conversions that ignore the value (an `==` that is always true, a difference that is nothing near the answer, a value that answers `==` differently)",
  "special-casing": "special-casing the failing test's own inputs or expected outputs",
  "test-bypass": "bypassing the tests (skips, test detection, exit hooks)",
};

/** The gaming classes of policy violations, said plainly (null when none is about gaming). */
export function gamingClassOf(rules: readonly string[]): string | null {
  const classes = [...new Set(rules.map((r) => GAMING_RULES[r]).filter((c): c is string => !!c))];
  return classes.length > 0 ? classes.join("; ") : null;
}

const HONEST =
  "Fix the behaviour for every input, the way the code's documentation describes it; do not detect the test, read it, special-case its values or change how results are checked.";

export function policyFeedback(violations: readonly FeedbackViolation[], patch: string): StepFeedback {
  const classes = [...new Set(violations.map((v) => GAMING_RULES[v.rule]).filter((c): c is string => !!c))];
  return {
    step: "policy",
    errorType: classes.length > 0 ? "gaming_detected" : "policy_violation",
    message:
      classes.length > 0
        ? `the policy gate refused the patch as gaming the tests — ${classes.join("; ")} (${violations.length} violation(s)); it was not applied. ${HONEST}`
        : `the policy gate refused the patch (${violations.length} violation(s)); it was not applied. Fix the code under test, not the tests or the checks.`,
    excerpt: patch.length > 4_000 ? `${patch.slice(0, 4_000)}\n[... patch cut]` : patch,
    violations: [...violations],
  };
}

export interface VerifyRejection {
  /** Previously failing tests that still fail. */
  stillFailing: string[];
  /** Previously passing tests that now fail. */
  newFailures: string[];
  /** Why the run itself did not complete, when it did not. */
  runProblem?: string;
  /** The test output that matters. */
  excerpt: string;
  /** Gaming detected by a tripwire or the neutral run: its class, plainly, and the layer's reasons. */
  gaming?: { gamingClass: string; reasons: string[] };
}

export function verifyFeedback(v: VerifyRejection): StepFeedback {
  if (v.gaming) {
    return {
      step: "verify",
      errorType: "gaming_detected",
      message: `the tests passed, but the patch games them rather than fixing the code — ${v.gaming.gamingClass}. ${v.gaming.reasons.join(" ")} ${HONEST}`,
      excerpt: v.excerpt,
      violations: [],
    };
  }
  const parts: string[] = [];
  if (v.runProblem) parts.push(`the test run did not complete: ${v.runProblem}`);
  if (v.stillFailing.length > 0) parts.push(`still failing: ${v.stillFailing.join(", ")}`);
  if (v.newFailures.length > 0)
    parts.push(`newly failing (passed before the patch): ${v.newFailures.join(", ")}`);
  if (parts.length === 0) parts.push("the verdict did not hold on a repeat run");
  return {
    step: "verify",
    errorType: v.runProblem
      ? "run_incomplete"
      : v.stillFailing.length > 0
        ? "tests_still_failing"
        : v.newFailures.length > 0
          ? "new_failures"
          : "unstable",
    message: `the patch was applied in a fresh sandbox and rejected: ${parts.join("; ")}`,
    excerpt: v.excerpt,
    violations: [],
  };
}

export function modelFeedback(step: string, message: string): StepFeedback {
  return { step, errorType: "no_tool_call", message, violations: [] };
}

/** The feedback as the model reads it at the start of the next attempt. */
export function renderFeedback(history: readonly StepFeedback[]): string {
  if (history.length === 0) return "";
  const blocks = history.map((f, i) => {
    const lines = [`Attempt ${i + 1} was rejected at step "${f.step}" (${f.errorType}): ${f.message}`];
    if (f.violations.length > 0) {
      lines.push("Policy violations:");
      for (const v of f.violations)
        lines.push(`- [${v.rule}] ${v.file ?? ""}${v.line ? `:${v.line}` : ""} ${v.message}`);
    }
    if (f.excerpt) lines.push(`Output:\n${f.excerpt}`);
    return lines.join("\n");
  });
  return `Previous attempts failed. Do not repeat them.\n\n${blocks.join("\n\n")}`;
}
