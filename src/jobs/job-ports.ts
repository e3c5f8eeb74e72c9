/**
 * What a pipeline may use, and what it produces: the types shared by `runJob` (./run-job.ts) and the
 * production pipelines (./pipelines.ts), in their own file so neither imports the other's module.
 */
import type { RetraceConfig } from "../config/schema.ts";
import type { JobSpec } from "../core/job.ts";
import type { Clock } from "../core/loop-clock.ts";
import type { Model } from "../core/ports/model.ts";
import type { Sandbox } from "../core/ports/sandbox.ts";
import type { Redactor } from "../core/redact.ts";
import type { Trace, TraceStep } from "../core/trace.ts";
import type { JobResult } from "./result.ts";
import type { Env, SettingsOverrides } from "./settings.ts";

/** What a pipeline may use. Entries build it from real adapters; tests and replay pass their own. */
export interface JobPorts {
  /** The model (metered by the engine), or null to run offline. */
  model: Model | null;
  /** A sandbox to use instead of the one the job's settings describe (tests, replay, a shared one). */
  sandbox?: Sandbox;
  clock?: Clock;
  signal?: AbortSignal;
  /** Redacts everything the job writes; entries register their own tokens and keys on it. */
  redactor?: Redactor;
  /** The repository's validated `.github/retrace.yml`, when one was loaded (the defaults otherwise). */
  config?: RetraceConfig;
  /** The operator's environment the settings read (RETRACE_SANDBOX_*); process.env when absent. */
  env?: Env;
  /** A surface's own flags over the config (the CLI's --test, --model, --strong-model). */
  overrides?: SettingsOverrides;
  /** A host directory holding the repository checkout (fix jobs, repo bugs). */
  repoDir?: string;
  /** Progress lines (phase names, attempt numbers). */
  onProgress?: (line: string) => void;
  /** Called after every recorded step. */
  onStep?: (step: TraceStep) => void;
}

/** What a job produces: the result every surface renders, and its trace. */
export interface JobRun {
  result: JobResult;
  trace: Trace;
}

export type Pipeline<K extends JobSpec["kind"]> = (
  spec: Extract<JobSpec, { kind: K }>,
  ports: JobPorts,
) => Promise<JobRun>;
export type Pipelines = { [K in JobSpec["kind"]]?: Pipeline<K> };
