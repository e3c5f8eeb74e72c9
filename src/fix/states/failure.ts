/** `failure`: the failing tests, from the CI log when there is one, else from a test run on the base. */
import { RetraceError } from "../../core/errors.ts";
import type { StateSpec } from "../../core/loop.ts";
import type { FailureInfo } from "../failure.ts";
import { clip, type FixCtx, type FixEnv, type FixStateName } from "./fix-state.ts";

export function failureState({ ports, options, log }: FixEnv): StateSpec<FixCtx, FixStateName> {
  return {
    on: ["triage", "nothing"],
    run: async (ctx, io) => {
      const files = new Set(await ports.workspace.listFiles());
      let failures: FailureInfo[];
      let excerpt: string;
      let baseOutcomes = new Map<string, string>();
      if (options.log !== undefined) {
        failures = ports.parseLog(options.log, files);
        excerpt = failures.map((f) => f.excerpt).join("\n\n") || clip(options.log);
      } else {
        log(`running the tests on the base: ${ports.tests.command}`);
        const run = await ports.tests.runAll(io.signal);
        if (run.problem && run.failures.length === 0) {
          throw new RetraceError("sandbox", `the base test run did not complete: ${run.problem}`, {
            hint: "check the test command (--test) and the sandbox limits; the output tail is in the trace",
          });
        }
        failures = run.failures;
        baseOutcomes = run.outcomes;
        excerpt =
          failures
            .map((f) => f.excerpt)
            .filter((e) => e !== "")
            .join("\n\n") || run.outputTail;
      }
      const failingIds = [...new Set(failures.map((f) => f.testId))];
      const next = {
        ...ctx,
        failures,
        failingIds,
        excerpt: clip(io.redactor.redact(excerpt)),
        baseOutcomes,
        testCommand: ports.tests.command,
      };
      if (failingIds.length === 0) {
        return {
          next: "nothing",
          ctx: { ...next, earlyStop: "no_failure" as const },
          summary: "no failing test found",
        };
      }
      return {
        next: "triage",
        ctx: next,
        summary: `${failingIds.length} failing: ${failingIds.join(", ")}`,
      };
    },
  };
}
