/**
 * The real adapters of the reproduction pipeline's ports, wired together: Docker sandbox, the install
 * container installer (npm/pip in a throwaway container, into the checked cache), registry lookup against the
 * configured registries, esbuild transpile, system clock, default model names. Used by the
 * CLI, `runJob`'s repro pipeline, the corpus test and the benchmark, so all of them run exactly the same thing.
 */
import type { ModelChoice } from "../core/loop.ts";
import { systemClock } from "../core/loop-clock.ts";
import { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL } from "../llm/pricing.ts";
import type { Model } from "../core/ports/model.ts";
import type { ReproPorts } from "../repro/ports.ts";
import { defaultConfig } from "../config/schema.ts";
import { createJobSandbox, DEFAULT_ESCALATE_AFTER, resolveSandbox } from "./settings.ts";
import { createContainerInstaller } from "../install/installer.ts";
import { createRegistryLookup } from "../install/registry-lookup.ts";
import { esbuildTranspile } from "../install/transpile.ts";
import { defaultCacheDir } from "../install/cache.ts";
import { imageId } from "../install/session.ts";
import { connectDocker } from "../sandbox/engine.ts";
import { sandboxRuntimeProbe } from "./sandbox-runtime.ts";
import type { Sandbox, SandboxLimits } from "../core/ports/sandbox.ts";

/**
 * The reproduction loop's models when nothing else is configured: the fast model first, the strong one after
 * one failed attempt (a repro attempt is cheap next to a wrong verdict).
 */
export const DEFAULT_REPRO_MODELS: ModelChoice = {
  fast: DEFAULT_FAST_MODEL,
  strong: DEFAULT_STRONG_MODEL,
  escalateAfter: DEFAULT_ESCALATE_AFTER.repro,
};

export interface LocalReproPortsOptions {
  model?: Model | null;
  /** Model names; default `DEFAULT_REPRO_MODELS` (a job spec naming a model still pins that one). */
  models?: ModelChoice;
  /** Output token cap of each model call (`model.maxOutputTokens`). */
  maxOutputTokens?: number;
  /** Hard limit of each sandbox run (ms). */
  runTimeoutMs?: number;
  /** Limit of each dependency install (ms); the installer's default (180 s) when absent. */
  installTimeoutMs?: number;
  /** Most packages installed for one report (`install.maxPackages`). */
  maxPackages?: number;
  /** Also run a pinned older version on the latest release (default true). */
  compareLatest?: boolean;
  /** Sandbox limits merged into every run (`sandbox.limits`). */
  limits?: Partial<SandboxLimits>;
  redact?: (text: string) => string;
  sandbox?: Sandbox;
  cacheDir?: string;
  signal?: AbortSignal;
}

export function createLocalReproPorts(options: LocalReproPortsOptions = {}): ReproPorts {
  const registry = createRegistryLookup();
  const settings = resolveSandbox(defaultConfig(), process.env);
  const sandbox = options.sandbox ?? createJobSandbox(settings);
  return {
    sandbox,
    runtimeVersions: sandboxRuntimeProbe({
      sandbox,
      // A sandbox given by the caller may run another image: its answer is not kept under this image's id.
      imageKey: options.sandbox ? async () => null : () => imageId(connectDocker(), settings.image),
      cacheDir: options.cacheDir ?? defaultCacheDir(),
    }),
    installer: createContainerInstaller({
      registry,
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      ...(options.installTimeoutMs ? { timeoutMs: options.installTimeoutMs } : {}),
      ...(options.maxPackages ? { maxPackages: options.maxPackages } : {}),
    }),
    registry,
    model: options.model ?? null,
    models: options.models ?? DEFAULT_REPRO_MODELS,
    ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    clock: systemClock,
    transpile: esbuildTranspile,
    ...(options.redact ? { redact: options.redact } : {}),
    ...(options.runTimeoutMs ? { runTimeoutMs: options.runTimeoutMs } : {}),
    ...(options.installTimeoutMs ? { installTimeoutMs: options.installTimeoutMs } : {}),
    ...(options.compareLatest === undefined ? {} : { compareLatest: options.compareLatest }),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}
