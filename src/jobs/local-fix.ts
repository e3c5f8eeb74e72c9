/**
 * The fix pipeline's ports on this machine: a repository checkout on disk, the Docker sandbox, git for the
 * failing commit's diff and (when asked) a local branch with the verified commit. One place for the CLI's
 * `retrace fix` and for `runJob` (App, Action), which publish differently: a local branch vs a draft PR.
 */
import { type RetraceConfig, policyForFix } from "../config/schema.ts";
import type { ModelChoice } from "../core/loop.ts";
import type { Redactor } from "../core/redact.ts";
import { createFixPorts } from "../fix/fix-ports.ts";
import type { FixOptions, FixPorts } from "../fix/ports.ts";
import type { FixJobSpec } from "../core/job.ts";
import { createBranchWithCommit, createFsWorkspace, safeGit } from "../git/index.ts";
import type { Model } from "../llm/types.ts";
import { createDockerSandbox, DEFAULT_SANDBOX_IMAGE } from "../sandbox/docker.ts";
import { repositorySandbox } from "../sandbox/limits.ts";
import { createRepoDependencyProvider } from "../install/repo-deps.ts";
import type { Sandbox } from "../sandbox/types.ts";

export interface LocalFixPortsOptions {
  repoDir: string;
  jobId: string;
  /** The repository's validated `.github/retrace.yml` (its policy, verify runs, test command, limits, models). */
  config: RetraceConfig;
  /** A test command given explicitly; wins over `fix.testCommand`. */
  testCommand?: string;
  model: Model | null;
  /** Explicit model names; the config's `model` section when absent. */
  models?: ModelChoice;
  redactor: Redactor;
  sandbox?: Sandbox;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Commit the verified patch to a new local branch (the CLI); surfaces that open PRs leave it off. */
  publishLocalBranch: boolean;
}

export async function createLocalFixPorts(o: LocalFixPortsOptions): Promise<FixPorts> {
  // No program the checkout's git config names (diff drivers, textconv, fsmonitor, hooks) runs.
  const git = safeGit(o.repoDir, o.signal ? { signal: o.signal } : {});
  const testCommand = o.testCommand ?? o.config.fix.testCommand;
  // The repository's image only when the operator allows it; its limits lowered to the host's maxima.
  const box = repositorySandbox(
    o.config.sandbox,
    process.env,
    process.env.RETRACE_SANDBOX_IMAGE ?? DEFAULT_SANDBOX_IMAGE,
  );
  if (!o.sandbox) for (const note of box.notes) o.log?.(note);
  return createFixPorts({
    workspace: await createFsWorkspace(o.repoDir),
    sandbox: o.sandbox ?? createDockerSandbox(box.image ? { image: box.image } : {}),
    jobId: o.jobId,
    ...(testCommand ? { testCommand } : {}),
    policy: policyForFix(o.config),
    verifyRuns: o.config.fix.verifyRuns,
    limits: box.limits,
    // Missing JS dependencies are installed from the repo's npm lockfile into Retrace's cache, not the checkout.
    dependencies: createRepoDependencyProvider({
      policy: o.config.install,
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.log ? { log: o.log } : {}),
    }),
    commitDiff: async () => {
      // The failing commit is HEAD; its diff against the parent, when it has one.
      const diff = await git
        .raw(["diff", "--no-color", "--no-ext-diff", "--no-textconv", "HEAD~1", "HEAD"])
        .catch(() => null);
      const sha = (await git.raw(["rev-parse", "--short", "HEAD"]).catch(() => "HEAD")).trim();
      return diff ? { label: `commit ${sha} vs its parent`, diff } : null;
    },
    ...(o.publishLocalBranch
      ? {
          publish: async ({ branch, patch, message }) => {
            const r = await createBranchWithCommit(o.repoDir, {
              branch,
              patch,
              message,
              author: { name: "Retrace", email: "retrace@users.noreply.github.com" },
            });
            return { branch: r.branch, commit: r.commit };
          },
        }
      : {}),
    model: o.model,
    models: o.models ?? {
      fast: o.config.model.default,
      strong: o.config.model.strong,
      escalateAfter: o.config.model.escalateAfter,
    },
    redactor: o.redactor,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
}

/** Model names of a fix job: the spec's when it names them, else the repository's configuration. */
export function fixModels(spec: FixJobSpec, config: RetraceConfig): ModelChoice {
  return {
    fast: spec.model ?? config.model.default,
    strong: spec.strongModel ?? config.model.strong,
    escalateAfter: config.model.escalateAfter,
  };
}

/** The fix pipeline's options for a job spec; the spec goes into the trace, so `retrace replay` can re-run it. */
export function fixRunOptions(spec: FixJobSpec, config: RetraceConfig): FixOptions {
  return {
    id: spec.id,
    ...(spec.log === undefined ? {} : { log: spec.log }),
    ...(spec.triageRuns === undefined ? {} : { triageRuns: spec.triageRuns }),
    ...(spec.contextTokens === undefined ? {} : { contextTokens: spec.contextTokens }),
    budget: spec.budget,
    maxOutputTokens: config.model.maxOutputTokens,
    job: spec,
  };
}
