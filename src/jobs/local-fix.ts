/**
 * The fix pipeline's ports on this machine: a repository checkout on disk, the Docker sandbox, git for the
 * failing commit's diff and (when asked) a local branch with the verified commit. One place for the CLI's
 * `retrace fix` and for `runJob` (App, Action), which publish differently: a local branch vs a draft PR.
 */
import { type RetraceConfig, policyForFix } from "../config/schema.ts";
import type { ModelChoice } from "../core/loop.ts";
import type { Redactor } from "../core/redact.ts";
import { failedActionsStep } from "../fix/ci-step.ts";
import { createFixPorts } from "../fix/build-ports.ts";
import type { FixOptions, FixPorts } from "../fix/ports.ts";
import type { FixJobSpec } from "../core/job.ts";
import { createBranchWithCommit, createFsWorkspace, safeGit } from "../git/index.ts";
import type { Model } from "../core/ports/model.ts";
import { createRepoDependencyProvider } from "../install/repo-deps.ts";
import { createDockerSandbox, DEFAULT_SANDBOX_IMAGE } from "../sandbox/docker.ts";
import { repositorySandbox } from "../sandbox/limits.ts";
import { sandboxForRepo } from "../install/repo-runtime.ts";
import type { Sandbox } from "../core/ports/sandbox.ts";

export interface LocalFixPortsOptions {
  repoDir: string;
  jobId: string;
  /** The repository's validated `.github/retrace.yml` (its policy, verify runs, test command, limits, models). */
  config: RetraceConfig;
  /** A test command given explicitly; wins over `fix.testCommand`. */
  testCommand?: string;
  /** The failing CI job's log: its failed step's own test line is the command when none is configured. */
  ciLog?: string;
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
  // The test command, with where it came from: given, configured, the failing workflow step's own line, or
  // (undefined here) detected from the repository's files.
  const step = o.testCommand || o.config.fix.testCommand || !o.ciLog ? null : failedActionsStep(o.ciLog);
  const chosen: { command: string; source: string } | null = o.testCommand
    ? { command: o.testCommand, source: "--test" }
    : o.config.fix.testCommand
      ? { command: o.config.fix.testCommand, source: "fix.testCommand" }
      : step?.testCommand
        ? { command: step.testCommand, source: "the failing workflow step" }
        : null;
  if (chosen) o.log?.(`test command: ${chosen.command} (from ${chosen.source})`);
  // The repository's image only when the operator allows it; its limits lowered to the host's maxima.
  const box = repositorySandbox(
    o.config.sandbox,
    process.env,
    process.env.RETRACE_SANDBOX_IMAGE ?? DEFAULT_SANDBOX_IMAGE,
  );
  if (!o.sandbox) for (const note of box.notes) o.log?.(note);
  // The repository's own Node (.nvmrc, engines…) as a runtime layer; a runtime that cannot be had stops here
  // with an infrastructure error, before any test runs or any model is asked.
  const { sandbox } = await sandboxForRepo(
    o.sandbox ?? createDockerSandbox(box.image ? { image: box.image } : {}),
    o.repoDir,
    o.log ? { log: o.log } : {},
  );
  return createFixPorts({
    workspace: await createFsWorkspace(o.repoDir),
    sandbox,
    jobId: o.jobId,
    ...(chosen ? { testCommand: chosen.command, testCommandSource: chosen.source } : {}),
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
          // The verified changes, exactly (bytes and modes); the patch through the same applier otherwise.
          publish: async ({ branch, patch, changes, message }) => {
            const r = await createBranchWithCommit(o.repoDir, {
              branch,
              ...(changes ? { changes } : { patch }),
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
