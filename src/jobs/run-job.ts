/**
 * `runJob(spec, ports)`: the one entry the CLI, the App, the Action and `retrace replay` use to run a job.
 * It dispatches on `spec.kind` to the pipeline registered for it, and makes sure the trace names the job
 * (replay needs the spec). The production pipelines live in ./pipelines.ts; tests and replay may pass a registry.
 */
import type { JobSpec } from "../core/job.ts";
import { RetraceError } from "../core/errors.ts";
import type { JobPorts, JobRun, Pipelines } from "./job-ports.ts";
import { defaultPipelines } from "./pipelines.ts";

export type { JobPorts, JobRun, Pipeline, Pipelines } from "./job-ports.ts";

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
