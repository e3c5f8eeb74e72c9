/**
 * `retrace test` as a job-layer call: one run of the repository's tests with the settings, sandbox (runtime
 * layer, image and limits within the operator's rules) and dependency provider that `verify` and `fix` use, so
 * what it shows is what their first base run would see.
 */
import { randomUUID } from "node:crypto";
import type { RetraceConfig } from "../config/schema.ts";
import type { SandboxStep } from "../core/ports/sandbox.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import { runSuite, type SuiteRun } from "../fix/run-suite.ts";
import { createRepoDependencyProvider, repoInstallOptions } from "../install/repo-deps.ts";
import { sandboxForRepo } from "../install/repo-runtime.ts";
import { hostRegistryConfig } from "../install/registry-config.ts";
import { createJobSandbox, type Env, fixSettings } from "./settings.ts";

export interface TestJobInput {
  workspace: Workspace;
  config: RetraceConfig;
  /** `--test`, over `fix.testCommand`. */
  testCommand?: string | undefined;
  /** The run's limit (ms), over the sandbox's. */
  timeoutMs?: number | undefined;
  env?: Env;
  signal?: AbortSignal;
  log?: (line: string) => void;
  onSandboxStep?: (step: SandboxStep) => void;
}

export async function runTestJob(input: TestJobInput): Promise<SuiteRun> {
  const settings = fixSettings(input.config, {
    testCommand: input.testCommand,
    ...(input.env ? { env: input.env } : {}),
  });
  for (const note of settings.sandbox.notes) input.log?.(note);
  void hostRegistryConfig();
  const { sandbox, installImage } = await sandboxForRepo(
    createJobSandbox(settings.sandbox, input.onSandboxStep),
    input.workspace.root,
    input.log ? { log: input.log } : {},
  );
  return runSuite({
    workspace: input.workspace,
    sandbox,
    ...(settings.testCommand ? { testCommand: settings.testCommand } : {}),
    jobId: `test-${randomUUID().slice(0, 8)}`,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.timeoutMs === undefined ? {} : { limits: { timeoutMs: input.timeoutMs } }),
    dependencies: createRepoDependencyProvider({
      ...repoInstallOptions(settings.config.install),
      ...(installImage ? { image: installImage } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.log ? { log: input.log } : {}),
    }),
  });
}
