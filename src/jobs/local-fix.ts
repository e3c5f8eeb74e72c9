/**
 * The fix pipeline's ports on this machine: a repository checkout on disk, the Docker sandbox, git for the
 * failing commit's diff and (when asked) a local branch with the verified commit. One place for the CLI's
 * `retrace fix` and for `runJob` (App, Action), which publish differently: a local branch vs a draft PR.
 */
import { policyForFix } from "../config/schema.ts";
import type { Redactor } from "../core/redact.ts";
import { createFixPorts } from "../fix/build-ports.ts";
import type { FixOptions, FixPorts } from "../fix/ports.ts";
import type { FixJobSpec } from "../core/job.ts";
import { createBranchWithCommit, createFsWorkspace, safeGit } from "../git/index.ts";
import type { Model } from "../core/ports/model.ts";
import { createRepoDependencyProvider, repoInstallOptions } from "../install/repo-deps.ts";
import { createJobSandbox, type JobSettings } from "./settings.ts";
import { sandboxForRepo } from "../install/repo-runtime.ts";
import type { Sandbox } from "../core/ports/sandbox.ts";

export interface LocalFixPortsOptions {
  repoDir: string;
  jobId: string;
  /** The job's resolved settings (./settings.ts): config, models, sandbox, test command. */
  settings: JobSettings;
  model: Model | null;
  redactor: Redactor;
  /** A sandbox to use instead of the one the settings describe (tests, replay). */
  sandbox?: Sandbox;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Commit the verified patch to a new local branch (the CLI); surfaces that open PRs leave it off. */
  publishLocalBranch: boolean;
}

export async function createLocalFixPorts(o: LocalFixPortsOptions): Promise<FixPorts> {
  const { config, testCommand: chosen } = o.settings;
  // No program the checkout's git config names (diff drivers, textconv, fsmonitor, hooks) runs.
  const git = safeGit(o.repoDir, o.signal ? { signal: o.signal } : {});
  if (chosen) o.log?.(`test command: ${chosen.command} (from ${chosen.source})`);
  if (!o.sandbox) for (const note of o.settings.sandbox.notes) o.log?.(note);
  // The repository's own Node (.nvmrc, engines…) as a runtime layer; a runtime that cannot be had stops here
  // with an infrastructure error, before any test runs or any model is asked.
  const { sandbox, installImage } = await sandboxForRepo(
    o.sandbox ?? createJobSandbox(o.settings.sandbox),
    o.repoDir,
    o.log ? { log: o.log } : {},
  );
  return createFixPorts({
    workspace: await createFsWorkspace(o.repoDir),
    sandbox,
    jobId: o.jobId,
    ...(chosen ? { testCommand: chosen.command, testCommandSource: chosen.source } : {}),
    policy: policyForFix(config),
    verifyRuns: config.fix.verifyRuns,
    limits: o.settings.sandbox.limits,
    // Missing JS dependencies are installed from the repo's npm lockfile into Retrace's cache, not the checkout.
    dependencies: createRepoDependencyProvider({
      ...repoInstallOptions(config.install),
      ...(installImage ? { image: installImage } : {}),
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
    models: o.settings.models,
    redactor: o.redactor,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
}

/** The fix pipeline's options for a job spec; the spec goes into the trace, so `retrace replay` can re-run it. */
export function fixRunOptions(spec: FixJobSpec, settings: JobSettings): FixOptions {
  return {
    id: spec.id,
    ...(spec.log === undefined ? {} : { log: spec.log }),
    ...(spec.triageRuns === undefined ? {} : { triageRuns: spec.triageRuns }),
    ...(spec.contextTokens === undefined ? {} : { contextTokens: spec.contextTokens }),
    budget: spec.budget,
    maxOutputTokens: settings.maxOutputTokens,
    job: spec,
  };
}
