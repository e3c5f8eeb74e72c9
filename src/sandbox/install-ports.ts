/**
 * The real adapters of the reproduction pipeline's ports, wired together: Docker sandbox, host installer
 * (npm/pip into the cache), registry lookup, esbuild transpile, system clock. Used by the CLI, the corpus
 * test and the benchmark, so all three run exactly the same thing.
 */
import { systemClock } from "../core/loop-clock.ts";
import type { Model } from "../llm/types.ts";
import type { ReproPorts } from "../repro/ports.ts";
import { createDockerSandbox } from "./docker.ts";
import { createHostInstaller } from "./install.ts";
import { createRegistryLookup } from "./install-registry.ts";
import { esbuildTranspile } from "./install-transpile.ts";
import type { Sandbox } from "./types.ts";

export interface LocalReproPortsOptions {
  model?: Model | null;
  /** Hard limit of each sandbox run (ms). */
  runTimeoutMs?: number;
  redact?: (text: string) => string;
  sandbox?: Sandbox;
  cacheDir?: string;
}

export function createLocalReproPorts(options: LocalReproPortsOptions = {}): ReproPorts {
  const registry = createRegistryLookup();
  return {
    sandbox: options.sandbox ?? createDockerSandbox(),
    installer: createHostInstaller({ registry, ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}) }),
    registry,
    model: options.model ?? null,
    clock: systemClock,
    transpile: esbuildTranspile,
    ...(options.redact ? { redact: options.redact } : {}),
    ...(options.runTimeoutMs ? { runTimeoutMs: options.runTimeoutMs } : {}),
  };
}
