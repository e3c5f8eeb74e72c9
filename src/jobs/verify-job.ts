/**
 * `retrace verify` as a job-layer call, in a module of its own: the verify command loads this and what it needs
 * (the sandbox, the dependency provider, verifyPatch), not the repro and fix pipelines beside it in
 * pipelines.ts (their Markdown parser, transpiler and model client are ~1 s of module loading on a loaded
 * machine, before anything runs).
 */
import { randomUUID } from "node:crypto";
import { policyForFix, type RetraceConfig } from "../config/schema.ts";
import type { SandboxStep } from "../core/ports/sandbox.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import { type VerifyOptions, type VerifyOutput, verifyPatch } from "../fix/verify.ts";
import { createRepoDependencyProvider, repoInstallOptions } from "../install/repo-deps.ts";
import { sandboxForRepo } from "../install/repo-runtime.ts";
import { hostRegistryConfig } from "../install/registry-config.ts";
import { createJobSandbox, type Env, fixSettings } from "./settings.ts";

export interface VerifyJobInput {
  workspace: Workspace;
  patch: string;
  /** The repository's validated config (its policy, verify runs, test command, sandbox section). */
  config: RetraceConfig;
  /** `--test`, over `fix.testCommand`. */
  testCommand?: string | undefined;
  /** Runs per phase; `fix.verifyRuns` when absent. */
  runs?: number | undefined;
  /** Each test run's limit (ms), over the sandbox's. */
  timeoutMs?: number | undefined;
  env?: Env;
  signal?: AbortSignal;
  log?: (line: string) => void;
  onRun?: VerifyOptions["onRun"];
  /** Each sandbox step's time (`retrace verify --timings`). */
  onSandboxStep?: (step: SandboxStep) => void;
}

/**
 * `retrace verify` as a job-layer call: the same settings, sandbox (the repository's runtime layer, its
 * image and limits within the operator's rules) and dependency provider a fix job's verification uses.
 */
export async function runVerifyJob(input: VerifyJobInput): Promise<VerifyOutput> {
  const settings = fixSettings(input.config, {
    testCommand: input.testCommand,
    ...(input.env ? { env: input.env } : {}),
  });
  for (const note of settings.sandbox.notes) input.log?.(note);
  // The operator's registry configuration (npm's and pip's, read by running them: 1-2 s) is read while the
  // runtime is resolved; the installs that need it find it read (it is read once per process, never fails).
  void hostRegistryConfig();
  const { sandbox, installImage } = await sandboxForRepo(
    createJobSandbox(settings.sandbox, input.onSandboxStep),
    input.workspace.root,
    input.log ? { log: input.log } : {},
  );
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
    dependencies: createRepoDependencyProvider({
      ...repoInstallOptions(settings.config.install),
      ...(installImage ? { image: installImage } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.log ? { log: input.log } : {}),
    }),
    ...(input.onRun ? { onRun: input.onRun } : {}),
  });
}
