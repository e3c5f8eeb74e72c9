/**
 * The production pipelines behind `runJob`: each takes a job spec and the entry's ports, builds the local
 * adapters it needs (host installer, fs workspace, Docker sandbox), runs the pure pipeline and maps its result
 * onto the common `JobResult`. The CLI's `repro` and `fix` commands use the same adapters directly, because
 * they also write the pipeline's own files (report.md, reproduction script, patch.diff).
 */
import { RetraceError } from "../core/errors.ts";
import type { FixJobSpec, ReproJobSpec } from "../core/job.ts";
import { Redactor } from "../core/redact.ts";
import { fixJobResult } from "./fix-result.ts";
import { runFix } from "../fix/pipeline.ts";
import { defaultConfig, type RetraceConfig } from "../config/schema.ts";
import { createLocalFixPorts, fixModels, fixRunOptions } from "./local-fix.ts";
import { renderReproReport } from "../report/repro-report.ts";
import { reproJobResult } from "./repro-result.ts";
import { runRepro } from "../repro/run-repro.ts";
import { DEFAULT_SANDBOX_IMAGE } from "../sandbox/docker.ts";
import { createLocalReproPorts, type LocalReproPortsOptions } from "./local-repro.ts";
import { repositorySandbox } from "../sandbox/limits.ts";
import type { JobPorts, JobRun, Pipelines } from "./run-job.ts";

/**
 * The repro adapters' options for a job: the entry's ports, and the repository's `.github/retrace.yml`
 * (defaults when none was loaded) — run and install limits, the latest-release comparison, the sandbox image
 * and the sandbox limits of every run.
 */
export function localReproOptions(ports: JobPorts, redactor: Redactor): LocalReproPortsOptions {
  const config = (ports.config as RetraceConfig | undefined) ?? defaultConfig();
  // The repository's image only when the operator allows it; its limits lowered to the host's maxima.
  const box = repositorySandbox(
    config.sandbox,
    process.env,
    process.env.RETRACE_SANDBOX_IMAGE ?? DEFAULT_SANDBOX_IMAGE,
  );
  return {
    model: ports.model,
    ...(ports.models ? { models: ports.models } : {}),
    redact: (s) => redactor.redact(s),
    ...(ports.sandbox ? { sandbox: ports.sandbox } : {}),
    ...(box.image ? { image: box.image } : {}),
    ...(ports.signal ? { signal: ports.signal } : {}),
    runTimeoutMs: config.repro.runTimeoutMs,
    installTimeoutMs: config.repro.installTimeoutMs,
    compareLatest: config.repro.compareLatest,
    maxPackages: config.install.maxPackages,
    limits: box.limits,
  };
}

async function reproPipeline(spec: ReproJobSpec, ports: JobPorts): Promise<JobRun> {
  const redactor = ports.redactor ?? new Redactor();
  ports.onProgress?.("reproducing the report in the sandbox");
  const outcome = await runRepro(spec, createLocalReproPorts(localReproOptions(ports, redactor)));
  const report = renderReproReport(outcome.result);
  const trace = redactor.redactDeep(outcome.trace);
  return { result: redactor.redactDeep(reproJobResult(spec.id, outcome.result, report)), trace };
}

async function fixPipeline(spec: FixJobSpec, ports: JobPorts): Promise<JobRun> {
  if (!ports.repoDir) {
    throw new RetraceError("usage", "a fix job needs a checkout of the repository", {
      hint: "run it where the repository is checked out (the Action's workspace, or `retrace fix --repo DIR`)",
    });
  }
  const redactor = ports.redactor ?? new Redactor();
  const config = (ports.config as RetraceConfig | undefined) ?? defaultConfig();
  const fixPorts = await createLocalFixPorts({
    repoDir: ports.repoDir,
    jobId: spec.id,
    config,
    ...(spec.testCommand ? { testCommand: spec.testCommand } : {}),
    ...(spec.log === undefined ? {} : { ciLog: spec.log }),
    model: ports.model,
    models: ports.models ?? fixModels(spec, config),
    redactor,
    ...(ports.sandbox ? { sandbox: ports.sandbox } : {}),
    ...(ports.signal ? { signal: ports.signal } : {}),
    ...(ports.onProgress ? { log: ports.onProgress } : {}),
    // No local branch: the surfaces publish the verified patch themselves (a draft PR through the API).
    publishLocalBranch: false,
  });
  const run = await runFix(fixPorts, fixRunOptions(spec, config));
  return { result: fixJobResult(run, redactor), trace: redactor.redactDeep(run.trace) };
}

export const defaultPipelines: Pipelines = { repro: reproPipeline, fix: fixPipeline };
