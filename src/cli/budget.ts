/**
 * A CLI job's budget through the one clamp every surface uses (src/jobs/intake-rules.ts clampBudget): `--budget-usd`
 * and the spec's wall time and tokens never pass the operator's maxima for one job (RETRACE_HOST_LIMITS `jobUsd`,
 * `jobMinutes`, `jobTokens`), as the Action's `budget-usd` input does not. A lowered `--budget-usd` is said on stderr
 * (with `--json` too: stdout stays the result).
 */
import { hostLimits } from "../core/host-limits.ts";
import { clampBudget } from "../jobs/intake-rules.ts";
import type { Budget } from "../core/job.ts";
import { printErr } from "./print.ts";

export function clampCliBudget(budget: Budget): Budget {
  const clamped = clampBudget(budget, Number.POSITIVE_INFINITY, hostLimits());
  if (clamped.maxUsd < budget.maxUsd)
    printErr(
      `retrace: --budget-usd ${budget.maxUsd} is lowered to ${clamped.maxUsd}, this host's maximum for one job (RETRACE_HOST_LIMITS jobUsd)\n`,
    );
  return clamped;
}
