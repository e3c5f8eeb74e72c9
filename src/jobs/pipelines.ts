/**
 * The production pipelines behind `runJob`: each resolves the job's settings (./settings.ts, the one place),
 * builds the local adapters it needs (install container, fs workspace, Docker sandbox), runs the pure
 * pipeline and maps its result onto the common `JobResult`. The CLI's `repro` and `fix` commands run the same
 * functions (`runReproJob`, `runFixJob`), which also hand back the pipeline's own run for the files they write
 * (report.md, the reproduction script, patch.diff).
 */
import { RetraceError } from "../core/errors.ts";
import { type FixJobSpec, ReproJobSpec } from "../core/job.ts";
import { Redactor } from "../core/redact.ts";
import { type FixRun, runFix } from "../fix/pipeline.ts";
import { renderReproReport } from "../report/repro-report.ts";
import type { ReproEvent } from "../repro/ports.ts";
import { runRepro } from "../repro/run-repro.ts";
import { fixJobResult } from "./fix-result.ts";
import type { JobPorts, JobRun, Pipelines } from "./job-ports.ts";
import { createLocalFixPorts, fixRunOptions } from "./local-fix.ts";
import { createLocalReproPorts, type LocalReproPortsOptions } from "./local-repro.ts";
import { reproJobResult } from "./repro-result.ts";
import { createJobSandbox, type JobSettings, resolveJobSettings } from "./settings.ts";

/** The job's settings from its spec, the ports' config and environment, and the surface's overrides. */
export function settingsFor(spec: ReproJobSpec | FixJobSpec, ports: JobPorts): JobSettings {
  return resolveJobSettings(spec, {
    config: ports.config,
    env: ports.env ?? process.env,
    ...(ports.overrides ? { overrides: ports.overrides } : {}),
  });
}

/**
 * The repro adapters' options for a job: the entry's ports and the job's settings — run and install limits,
 * the latest-release comparison, the models, the sandbox limits of every run.
 */
export function localReproOptions(
  ports: JobPorts,
  redactor: Redactor,
  settings: JobSettings = settingsFor(
    ReproJobSpec.parse({ kind: "repro", id: "options", markdown: "", budget: {} }),
    ports,
  ),
): LocalReproPortsOptions {
  return {
    model: ports.model,
    models: settings.models,
    maxOutputTokens: settings.maxOutputTokens,
    redact: (s) => redactor.redact(s),
    ...(ports.sandbox ? { sandbox: ports.sandbox } : {}),
    ...(ports.signal ? { signal: ports.signal } : {}),
    ...settings.repro,
    limits: settings.sandbox.limits,
  };
}

export interface ReproJobRun {
  job: JobRun;
  outcome: Awaited<ReturnType<typeof runRepro>>;
  startedAt: number;
}

/** A reproduction as a job: settings, adapters, the pipeline, its result and trace (redacted). */
export async function runReproJob(
  spec: ReproJobSpec,
  ports: JobPorts & { onEvent?: (e: ReproEvent) => void },
): Promise<ReproJobRun> {
  const redactor = ports.redactor ?? new Redactor();
  const startedAt = (ports.clock ?? { now: () => Date.now() }).now();
  const settings = settingsFor(spec, ports);
  if (!ports.sandbox) for (const note of settings.sandbox.notes) ports.onProgress?.(note);
  ports.onProgress?.("reproducing the report in the sandbox");
  const options = localReproOptions(ports, redactor, settings);
  const outcome = await runRepro(spec, {
    ...createLocalReproPorts({ ...options, sandbox: options.sandbox ?? createJobSandbox(settings.sandbox) }),
    ...(ports.onEvent ? { onEvent: ports.onEvent } : {}),
    ...(ports.onProgress ? { onProgress: ports.onProgress } : {}),
  });
  const report = renderReproReport(outcome.result);
  const trace = redactor.redactDeep(outcome.trace);
  return {
    job: { result: redactor.redactDeep(reproJobResult(spec.id, outcome.result, report)), trace },
    outcome,
    startedAt,
  };
}

/** A fix as a job: settings, the repository's ports, the pipeline, its result and trace (redacted). */
export async function runFixJob(
  spec: FixJobSpec,
  ports: JobPorts & { publishLocalBranch?: boolean },
): Promise<{ job: JobRun; run: FixRun }> {
  if (!ports.repoDir) {
    throw new RetraceError("usage", "a fix job needs a checkout of the repository", {
      hint: "run it where the repository is checked out (the Action's workspace, or `retrace fix --repo DIR`)",
    });
  }
  const redactor = ports.redactor ?? new Redactor();
  const settings = settingsFor(spec, ports);
  const fixPorts = await createLocalFixPorts({
    repoDir: ports.repoDir,
    jobId: spec.id,
    settings,
    model: ports.model,
    redactor,
    ...(ports.sandbox ? { sandbox: ports.sandbox } : {}),
    ...(ports.signal ? { signal: ports.signal } : {}),
    ...(ports.onProgress ? { log: ports.onProgress } : {}),
    // The surfaces publish the verified patch themselves (a draft PR through the API); the CLI asks for a branch.
    publishLocalBranch: ports.publishLocalBranch ?? false,
  });
  const run = await runFix(fixPorts, fixRunOptions(spec, settings));
  return { job: { result: fixJobResult(run, redactor), trace: redactor.redactDeep(run.trace) }, run };
}

export const defaultPipelines: Pipelines = {
  repro: async (spec, ports) => (await runReproJob(spec, ports)).job,
  fix: async (spec, ports) => (await runFixJob(spec, ports)).job,
};

// `retrace verify`'s job-layer call lives apart (verify-job.ts), so the CLI command loads it without the repro
// and fix pipelines' modules; re-exported here for the callers that import every pipeline from one place.
export { runVerifyJob, type VerifyJobInput } from "./verify-job.ts";
