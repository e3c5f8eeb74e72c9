/**
 * `runJob(spec, ports)`: the one entry the CLI, the App, the Action and `retrace replay` use to run a job.
 * It dispatches on `spec.kind` to the pipeline registered for it, and makes sure the trace names the job
 * (replay needs the spec). The production pipelines live in ./pipelines.ts; tests and replay may pass a registry.
 */
import type { JobSpec } from "../core/job.ts";
import { RetraceError } from "../core/errors.ts";
import type { ModelChoice } from "../core/loop.ts";
import type { Clock } from "../core/loop-clock.ts";
import type { Redactor } from "../core/redact.ts";
import type { Trace, TraceStep } from "../core/trace.ts";
import type { Model } from "../core/ports/model.ts";
import type { Sandbox } from "../core/ports/sandbox.ts";
import { defaultPipelines } from "./pipelines.ts";
import type { JobResult } from "./result.ts";

/** What a pipeline may use. Entries build it from real adapters; tests and replay pass their own. */
export interface JobPorts {
  /** The model (metered by the engine), or null to run offline. */
  model: Model | null;
  /** Fast/strong model names and when to escalate. */
  models?: ModelChoice;
  sandbox?: Sandbox;
  clock?: Clock;
  signal?: AbortSignal;
  /** Redacts everything the job writes; entries register their own tokens and keys on it. */
  redactor?: Redactor;
  /** The repository's validated `.github/retrace.yml`, when one was loaded. */
  config?: unknown;
  /** A host directory holding the repository checkout (fix jobs, repo bugs). */
  repoDir?: string;
  /** Progress lines (phase names, attempt numbers). */
  onProgress?: (line: string) => void;
  /** Called after every recorded step. */
  onStep?: (step: TraceStep) => void;
}

/** What a job produces: the result every surface renders, its trace, and the verified patch if any. */
export interface JobRun {
  result: JobResult;
  trace: Trace;
}

export type Pipeline<K extends JobSpec["kind"]> = (
  spec: Extract<JobSpec, { kind: K }>,
  ports: JobPorts,
) => Promise<JobRun>;
export type Pipelines = { [K in JobSpec["kind"]]?: Pipeline<K> };

/** The registered pipelines: the production ones (repro, fix) from ./pipelines.ts. */
export const pipelines: Pipelines = defaultPipelines;

/** Thrown when no pipeline is registered for a job kind. */
export class PipelineUnavailableError extends RetraceError {
  constructor(kind: string) {
    super("internal", `the ${kind} pipeline is not available yet`, {
      hint: `register it in src/jobs/run-job.ts (pipelines.${kind}); until then run the ${kind} command directly`,
    });
  }
}

/** Runs one job through the pipeline registered for its kind. */
export async function runJob(
  spec: JobSpec,
  ports: JobPorts,
  registry: Pipelines = pipelines,
): Promise<JobRun> {
  const run = await dispatch(spec, ports, registry);
  if (run.trace.job === null) {
    run.trace = { ...run.trace, job: ports.redactor ? ports.redactor.redactDeep(spec) : spec };
  }
  return run;
}

function dispatch(spec: JobSpec, ports: JobPorts, registry: Pipelines): Promise<JobRun> {
  switch (spec.kind) {
    case "repro": {
      const p = registry.repro;
      if (!p) throw new PipelineUnavailableError("repro");
      return p(spec, ports);
    }
    case "fix": {
      const p = registry.fix;
      if (!p) throw new PipelineUnavailableError("fix");
      return p(spec, ports);
    }
  }
}
