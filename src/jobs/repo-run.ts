/**
 * What every run of a repository's own tests needs, set up once for `verify` and `test` alike: the settings
 * (config, flags, environment), the sandbox (the repository's runtime layer, its image and limits within the
 * operator's rules) and the dependency provider (installs in the install container, cached).
 */
import type { RetraceConfig } from "../config/schema.ts";
import type { SandboxStep } from "../core/ports/sandbox.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import type { DependencyProvider } from "../fix/dependencies.ts";
import { createRepoDependencyProvider, repoInstallOptions } from "../install/repo-deps.ts";
import { sandboxForRepo } from "../install/repo-runtime.ts";
import { hostRegistryConfig } from "../install/registry-config.ts";
import type { Sandbox } from "../core/ports/sandbox.ts";
import { createJobSandbox, type Env, fixSettings, type JobSettings } from "./settings.ts";

export interface RepoRunInput {
  workspace: Workspace;
  /** The repository's validated config (its policy, verify runs, test command, sandbox section). */
  config: RetraceConfig;
  /** `--test`, over `fix.testCommand`. */
  testCommand?: string | undefined;
  env?: Env;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Each sandbox step's time (`--timings`). */
  onSandboxStep?: (step: SandboxStep) => void;
}

export async function repoRunContext(
  input: RepoRunInput,
): Promise<{ settings: JobSettings; sandbox: Sandbox; dependencies: DependencyProvider }> {
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
  const dependencies = createRepoDependencyProvider({
    ...repoInstallOptions(settings.config.install),
    ...(installImage ? { image: installImage } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.log ? { log: input.log } : {}),
  });
  return { settings, sandbox, dependencies };
}
