/**
 * `retrace verify` as a job-layer call, in a module of its own: the verify command loads this and what it needs
 * (the sandbox, the dependency provider, verifyPatch), not the repro and fix pipelines beside it in
 * pipelines.ts (their Markdown parser, transpiler and model client are ~1 s of module loading on a loaded
 * machine, before anything runs).
 */
import { randomUUID } from "node:crypto";
import { policyForFix } from "../config/schema.ts";
import { type VerifyOptions, type VerifyOutput, verifyPatch } from "../fix/verify.ts";
import { type RepoRunInput, repoRunContext } from "./repo-run.ts";

export interface VerifyJobInput extends RepoRunInput {
  patch: string;
  /** Runs per phase; `fix.verifyRuns` when absent. */
  runs?: number | undefined;
  /** Each test run's limit (ms), over the sandbox's. */
  timeoutMs?: number | undefined;
  onRun?: VerifyOptions["onRun"];
}

/**
 * `retrace verify` as a job-layer call: the same settings, sandbox (the repository's runtime layer, its
 * image and limits within the operator's rules) and dependency provider a fix job's verification uses.
 */
export async function runVerifyJob(input: VerifyJobInput): Promise<VerifyOutput> {
  const { settings, sandbox, dependencies } = await repoRunContext(input);
  return verifyPatch({
    workspace: input.workspace,
    sandbox,
    patch: input.patch,
    policy: policyForFix(settings.config),
    ...(settings.testCommand ? { testCommand: settings.testCommand.command } : {}),
    runs: input.runs ?? settings.config.fix.verifyRuns,
    jobId: `verify-${randomUUID().slice(0, 8)}`,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.timeoutMs === undefined ? {} : { limits: { timeoutMs: input.timeoutMs } }),
    dependencies,
    ...(input.onRun ? { onRun: input.onRun } : {}),
  });
}
