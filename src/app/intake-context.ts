/**
 * What the App's job store tells the one intake (src/jobs/intake.ts): the job's id, today's usage of the
 * repository (the daily limits apply on the App only, which keeps count), and the lineage of a Retrace branch
 * counted from the job records (the Action follows the draft PRs through the API instead).
 */
import type { IntakeContext } from "../jobs/intake.ts";
import type { IntakeMaxima } from "../jobs/intake-rules.ts";
import type { JobRecord } from "./job-record.ts";
import type { JobStore } from "./job-store.ts";

export function startOfUtcDay(now: number): number {
  return Math.floor(now / 86_400_000) * 86_400_000;
}

export function appIntakeContext(
  store: JobStore,
  record: JobRecord,
  now: number,
  maxima: IntakeMaxima,
): IntakeContext {
  return {
    jobId: () => record.id,
    maxima,
    usage: () => {
      const since = startOfUtcDay(now);
      return { jobs: store.countJobsSince(record.repo, since), usd: store.costSince(record.repo, since) };
    },
    lineage: async (branch) => {
      // The fix that opened this branch's PR carries the lineage; the record joins it before it is counted.
      const root = store.findByPrBranch(record.repo, branch)?.lineage ?? branch;
      store.update(record.id, { lineage: root });
      return { root, fixes: store.countLineageFixes(record.repo, root) };
    },
  };
}
