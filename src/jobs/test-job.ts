/**
 * `retrace test` as a job-layer call: one run of the repository's tests with the settings, sandbox (runtime
 * layer, image and limits within the operator's rules) and dependency provider that `verify` and `fix` use, so
 * what it shows is what their first base run would see.
 */
import { randomUUID } from "node:crypto";
import { runSuite, type SuiteRun } from "../fix/run-suite.ts";
import { type RepoRunInput, repoRunContext } from "./repo-run.ts";

export interface TestJobInput extends RepoRunInput {
  /** The run's limit (ms), over the sandbox's. */
  timeoutMs?: number | undefined;
}

export async function runTestJob(input: TestJobInput): Promise<SuiteRun> {
  const { settings, sandbox, dependencies } = await repoRunContext(input);
  return runSuite({
    workspace: input.workspace,
    sandbox,
    ...(settings.testCommand ? { testCommand: settings.testCommand } : {}),
    jobId: `test-${randomUUID().slice(0, 8)}`,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.timeoutMs === undefined ? {} : { limits: { timeoutMs: input.timeoutMs } }),
    dependencies,
  });
}
