/**
 * The production pipelines behind `runJob`: each takes a job spec and the entry's ports, builds the local
 * adapters it needs (host installer, fs workspace, Docker sandbox), runs the pure pipeline and maps its result
 * onto the common `JobResult`. The CLI's `repro` and `fix` commands use the same adapters directly, because
 * they also write the pipeline's own files (report.md, reproduction script, patch.diff).
 */
import { simpleGit } from "simple-git";
import { RetraceError } from "../core/errors.ts";
import type { FixJobSpec, ReproJobSpec } from "../core/job.ts";
import { Redactor } from "../core/redact.ts";
import { createFixPorts } from "../fix/fix-ports.ts";
import { fixJobResult } from "../fix/job-result.ts";
import { runFix } from "../fix/pipeline.ts";
import { createFsWorkspace } from "../git/index.ts";
import { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL } from "../llm/pricing.ts";
import { policyForFix } from "../config/schema.ts";
import { renderReproReport } from "../report/repro-report.ts";
import { reproJobResult } from "../repro/job-result.ts";
import { runRepro } from "../repro/run-repro.ts";
import { reproTrace } from "../repro/trace.ts";
import { createDockerSandbox } from "../sandbox/docker.ts";
import { createLocalReproPorts } from "../sandbox/install-ports.ts";
import type { JobPorts, JobRun, Pipelines } from "./run-job.ts";

async function reproPipeline(spec: ReproJobSpec, ports: JobPorts): Promise<JobRun> {
  const redactor = ports.redactor ?? new Redactor();
  const startedAt = (ports.clock ?? { now: () => Date.now() }).now();
  ports.onProgress?.("reproducing the report in the sandbox");
  const outcome = await runRepro(
    spec,
    createLocalReproPorts({
      model: ports.model,
      redact: (s) => redactor.redact(s),
      ...(ports.sandbox ? { sandbox: ports.sandbox } : {}),
    }),
  );
  const report = renderReproReport(outcome.result);
  const trace = redactor.redactDeep(
    reproTrace(spec, outcome.events, outcome.result, startedAt, outcome.trace),
  );
  return { result: redactor.redactDeep(reproJobResult(spec.id, outcome.result, report)), trace };
}

async function fixPipeline(spec: FixJobSpec, ports: JobPorts): Promise<JobRun> {
  if (!ports.repoDir) {
    throw new RetraceError("usage", "a fix job needs a checkout of the repository", {
      hint: "run it where the repository is checked out (the Action's workspace, or `retrace fix --repo DIR`)",
    });
  }
  const redactor = ports.redactor ?? new Redactor();
  const git = simpleGit(ports.repoDir);
  const config = ports.config as Parameters<typeof policyForFix>[0] | undefined;
  const fixPorts = await createFixPorts({
    workspace: await createFsWorkspace(ports.repoDir),
    sandbox: ports.sandbox ?? createDockerSandbox(),
    jobId: spec.id,
    ...(spec.testCommand ? { testCommand: spec.testCommand } : {}),
    ...(config ? { policy: policyForFix(config) } : {}),
    commitDiff: async () => {
      const diff = await git.raw(["diff", "--no-color", "HEAD~1", "HEAD"]).catch(() => null);
      return diff ? { label: "the failing commit vs its parent", diff } : null;
    },
    // No local branch: the surfaces publish the verified patch themselves (a draft PR through the API).
    model: ports.model,
    models: ports.models ?? {
      fast: spec.model ?? DEFAULT_FAST_MODEL,
      strong: DEFAULT_STRONG_MODEL,
      escalateAfter: 1,
    },
    redactor,
    ...(ports.signal ? { signal: ports.signal } : {}),
    ...(ports.onProgress ? { log: ports.onProgress } : {}),
  });
  const run = await runFix(fixPorts, {
    id: spec.id,
    ...(spec.log === undefined ? {} : { log: spec.log }),
    budget: spec.budget,
  });
  return { result: fixJobResult(run, redactor), trace: redactor.redactDeep(run.trace) };
}

export const defaultPipelines: Pipelines = { repro: reproPipeline, fix: fixPipeline };
