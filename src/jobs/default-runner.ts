/**
 * The production JobRunner the App and the Action use: the model from the environment (or none: the
 * deterministic paths), the Docker sandbox, and `runJob`. Surfaces take a JobRunner, so tests pass their own.
 */
import { Redactor } from "../core/redact.ts";
import { createModelFromEnv } from "../llm/from-env.ts";
import { createDockerSandbox } from "../sandbox/docker.ts";
import type { JobRunner } from "./result.ts";
import { runJob } from "./run-job.ts";

export interface DefaultRunnerOptions {
  env: Record<string, string | undefined>;
  /** The repository checkout fix jobs work on (the Action's GITHUB_WORKSPACE). */
  repoDir?: string;
  /** Secrets to redact from everything the job writes. */
  secrets?: string[];
}

export function createDefaultRunner(options: DefaultRunnerOptions): JobRunner {
  const model = createModelFromEnv({}, options.env);
  const sandbox = createDockerSandbox(
    options.env.RETRACE_SANDBOX_IMAGE ? { image: options.env.RETRACE_SANDBOX_IMAGE } : {},
  );
  return async (spec, run) => {
    const redactor = new Redactor([options.env.ANTHROPIC_API_KEY, ...(options.secrets ?? [])]);
    const { result } = await runJob(spec, {
      model: spec.model === null ? null : model,
      sandbox,
      signal: run.signal,
      redactor,
      ...(run.config === undefined ? {} : { config: run.config }),
      ...((run.repoDir ?? options.repoDir) ? { repoDir: run.repoDir ?? options.repoDir } : {}),
      ...(run.onProgress ? { onProgress: run.onProgress } : {}),
    });
    return result;
  };
}
