/** `triage`: the flaky check — the failing tests rerun on the unchanged base; a pass ends the run as FLAKY. */
import type { StateSpec } from "../../core/loop.ts";
import { triageFlaky } from "../flaky-triage.ts";
import type { FixCtx, FixEnv, FixStateName } from "./fix-state.ts";

export function triageState({ ports, options, log }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    on: ["flaky", "context", "no_model"],
    run: async (ctx, io) => {
      const runs = options.triageRuns ?? 3;
      log(
        `flaky triage: rerunning ${ctx.failingIds.length} failing test(s) ${runs} time(s) on the unchanged base`,
      );
      const { flaky, report } = await triageFlaky({
        failing: ctx.failingIds,
        runs,
        command: ports.tests.canFilter ? ports.tests.filterCommand(ctx.failingIds) : ports.tests.command,
        fullSuite: !ports.tests.canFilter,
        rerun: async () => {
          const r = await ports.tests.runOnly(ctx.failingIds, io.signal);
          // When the failing tests are not in the rerun at all, say what the rerun did report instead.
          const loadFailures = r.failures.map((f) => `${f.testId}: ${f.message.split("\n")[0]}`).slice(0, 3);
          return {
            outcomes: r.outcomes,
            durationMs: r.durationMs,
            stoppedBy: r.stoppedBy ?? (r.problem && r.outcomes.size > 0 ? "incomplete" : null),
            problem: [r.problem, ...loadFailures].filter(Boolean).join("; ") || null,
          };
        },
        onRun: (i, r) =>
          log(
            `  rerun ${i + 1}/${runs}: ${ctx.failingIds.map((id) => `${id}=${r.outcomes.get(id) ?? "missing"}`).join(" ")}`,
          ),
      });
      const next = { ...ctx, flaky: report };
      if (flaky)
        return { next: "flaky", ctx: next, summary: `flaky: passed ${report.passes}/${report.runs}` };
      if (!io.model)
        return {
          next: "no_model",
          ctx: { ...next, earlyStop: "no_model" as const },
          summary: "not flaky; no model configured",
        };
      return {
        next: "context",
        ctx: next,
        summary: `not flaky: failed ${report.failures}/${report.runs}`,
      };
    },
  };
}
