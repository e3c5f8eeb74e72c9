/**
 * The production JobRunner the App and the Action use: the model from the environment (or none: the
 * deterministic paths), the Docker sandbox, and `runJob`. Surfaces take a JobRunner, so tests pass their own.
 *
 * Two guarantees live here because both surfaces need them:
 * - a fix runs on the failed commit: when the runner works on its own checkout (the Action's workspace), HEAD
 *   must be `spec.headSha`, or that commit is fetched and checked out, or the job fails saying so. Otherwise
 *   the patch would be verified against one tree and applied (as a draft PR on `headSha`) to another;
 * - the repository's `sandbox.image` and `sandbox.limits` apply to its jobs within the operator's rules: the
 *   image only when the operator allows it ($RETRACE_SANDBOX_IMAGES), the limits lowered to the host's maxima
 *   ($RETRACE_SANDBOX_MAX_LIMITS); the host's image ($RETRACE_SANDBOX_IMAGE, else the driver's default) stays
 *   the default when the config leaves it unset.
 */
import { hostLimits } from "../core/host-limits.ts";
import { privateSourceHosts } from "../core/private-source-hosts.ts";
import { defaultConfig } from "../config/schema.ts";
import { RetraceError } from "../core/errors.ts";
import { Redactor } from "../core/redact.ts";
import { safeGit } from "../git/run-git.ts";
import { createModelFromEnv } from "../llm/from-env.ts";
import type { JobRunner } from "./result.ts";
import { operatorMaxLimits } from "../sandbox/limits.ts";
import { createJobSandbox, resolveSandbox } from "./settings.ts";
import { type Pipelines, pipelines as productionPipelines, runJob } from "./run-job.ts";
import { isLocalOrigin, originAccess, type Resolve } from "../git/origin.ts";
import { GitConfigRefusedError } from "../git/errors.ts";
import { checkAttributeBudget } from "../git/pattern-budget.ts";

export interface DefaultRunnerOptions {
  env: Record<string, string | undefined>;
  /** The repository checkout fix jobs work on (the Action's GITHUB_WORKSPACE); moved to `spec.headSha`. */
  repoDir?: string;
  /** Secrets to redact from everything the job writes. */
  secrets?: string[];
  /** The pipelines `runJob` dispatches to; the production ones unless a test or replay passes its own. */
  pipelines?: Pipelines;
}

/** The fix job's checkout is not at the failed commit and cannot be moved there. */
export class CheckoutMismatchError extends RetraceError {
  constructor(message: string, cause?: unknown) {
    super("infrastructure", message, {
      hint: "check out the failed commit before Retrace runs (actions/checkout with `ref:` set to the failed head sha), with a token that may fetch it",
      cause,
    });
  }
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/i;

/**
 * Make `dir`'s HEAD the commit `sha`: nothing when it already is; a checkout when the commit is present;
 * otherwise `git fetch --depth=1 origin <sha>` then a detached checkout. Fails with the reason otherwise.
 */
export async function ensureCheckoutAt(
  dir: string,
  sha: string,
  log?: (line: string) => void,
  /**
   * Where the commit is fetched from when the checkout lacks it: the job's repository on its GitHub server in the
   * Action (`repositoryUrlFrom`), never the checkout's configured origin there; `origin` elsewhere.
   */
  source = "origin",
  /** Hosts the operator lets a fetch reach on a private address (`RETRACE_PRIVATE_SOURCE_HOSTS`). */
  privateHosts: readonly string[] = [],
  /** How the origin's name is resolved (once; git is pinned to the answer: src/git/origin.ts). */
  resolve?: Resolve,
): Promise<void> {
  // The sha comes from a webhook or a dispatched spec: it must be a full object name, never an option.
  if (!SHA.test(sha))
    throw new CheckoutMismatchError(`the failed commit ${JSON.stringify(sha)} is not a full commit sha`);
  // No hook, filter, fsmonitor or transport program the checkout's config names runs (src/git/run-git.ts).
  const git = safeGit(dir);
  const headOf = async () => (await git.raw(["rev-parse", "HEAD"]).catch(() => "")).trim().toLowerCase();
  const before = await headOf();
  if (before === sha.toLowerCase()) return;
  log?.(
    `the checkout is at ${before.slice(0, 12) || "no commit"}; checking out the failed commit ${sha.slice(0, 12)}`,
  );
  try {
    const present = await git
      .raw(["cat-file", "-e", `${sha}^{commit}`])
      .then(() => true)
      .catch(() => false);
    if (!present) {
      let pin: [string, string][] = [];
      if (source === "origin") {
        // A config Retrace refuses is refused here, naming the key; no origin at all is git's own error below.
        // Every value: git fetches from the first `remote.origin.url`, while `--get` answers the last, so a config
        // with a second value would have one URL checked and another fetched from.
        const urls = (
          await git.raw(["config", "--get-all", "remote.origin.url"]).catch((e: unknown) => {
            if (e instanceof GitConfigRefusedError) throw e;
            return "";
          })
        )
          .split("\n")
          .map((u) => u.trim())
          .filter((u) => u !== "");
        if (urls.length > 1)
          throw new Error(
            `the checkout's origin has ${urls.length} URLs (${urls.map((u) => JSON.stringify(u)).join(", ")}); Retrace's git fetches only from an origin with one`,
          );
        const url = urls[0] ?? "";
        const access = await originAccess(url, privateHosts, resolve);
        if ("refused" in access) throw new Error(access.refused);
        pin = access.config;
        // A repository on this host (a path, file://) is this checkout's origin only when it holds the checkout's
        // own commit: a config pointing origin at another host repository would bring its files into the runs.
        if (url !== "" && isLocalOrigin(url)) {
          const related =
            before !== "" &&
            (await git.raw(["fetch", "--no-tags", "--depth=1", "--dry-run", "origin", before]).then(
              () => true,
              (e: unknown) => {
                if (e instanceof GitConfigRefusedError) throw e;
                return false;
              },
            ));
          if (!related)
            throw new Error(
              `the checkout's origin ${JSON.stringify(url)} is a repository on this host that does not hold the checkout's own commit ${before.slice(0, 12) || "(none)"}; Retrace's git does not fetch another repository into the checkout`,
            );
        }
      }
      await git.raw(["fetch", "--no-tags", "--depth=1", source, sha], { timeoutMs: 300_000, config: pin });
    }
    // Git matches every file it writes against the tree's attribute patterns: counted first, refused past the budget.
    await checkAttributeBudget(git, sha);
    await git.raw(["checkout", "--quiet", "--detach", sha], { timeoutMs: 300_000 });
  } catch (error) {
    throw new CheckoutMismatchError(
      `the checkout in ${dir} is at ${before.slice(0, 12) || "no commit"}, not the failed commit ${sha.slice(0, 12)}, and checking that commit out failed: ${(error as Error).message.trim()}`,
      error,
    );
  }
  const after = await headOf();
  if (after !== sha.toLowerCase()) {
    throw new CheckoutMismatchError(
      `after checking out ${sha.slice(0, 12)} the checkout in ${dir} is at ${after.slice(0, 12)}`,
    );
  }
}

/**
 * The repository a GitHub Actions job runs for, as its server names it (`GITHUB_SERVER_URL`/`GITHUB_REPOSITORY`,
 * set by the runner, not by the repository), or "origin" outside Actions. A checkout's `remote.origin.url` is the
 * checkout's own file: a step before Retrace's could point it at a host repository (a path, `file://`) or a
 * service on loopback, and the fetch would bring that repository's files into the runs.
 */
export function repositoryUrlFrom(env: Record<string, string | undefined>): string {
  const server = env.GITHUB_SERVER_URL;
  const repo = env.GITHUB_REPOSITORY;
  const plain = (part: string) => /^[\w.-]+$/.test(part) && part !== "." && part !== "..";
  const parts = repo?.split("/") ?? [];
  if (!server || !/^https:\/\/[^/\s]+$/.test(server) || parts.length !== 2 || !parts.every(plain))
    return "origin";
  return `${server}/${repo}.git`;
}

export function createDefaultRunner(options: DefaultRunnerOptions): JobRunner {
  const model = createModelFromEnv({}, options.env);
  // The operator's maxima are read once at start: a malformed RETRACE_SANDBOX_MAX_LIMITS stops the runner
  // before it takes a job, never a job halfway.
  operatorMaxLimits(options.env);
  hostLimits(options.env);
  return async (spec, run) => {
    const redactor = new Redactor([options.env.ANTHROPIC_API_KEY, ...(options.secrets ?? [])]);
    // A checkout made for this job (the App's) is the failed commit by construction; the runner's own is not.
    const repoDir = run.repoDir ?? options.repoDir;
    if (spec.kind === "fix" && spec.headSha && !run.repoDir && options.repoDir) {
      await ensureCheckoutAt(
        options.repoDir,
        spec.headSha,
        run.onProgress,
        repositoryUrlFrom(options.env),
        privateSourceHosts(options.env),
      );
    }
    // The sandbox the job's settings describe (./settings.ts: the repository's image and limits within this
    // runner's environment), built here so a refused image or a malformed maximum fails before the job starts;
    // the models and every other setting come from the same settings inside the pipeline.
    const box = resolveSandbox(run.config ?? defaultConfig(), options.env, spec.kind);
    for (const note of box.notes) run.onProgress?.(note);
    const { result } = await runJob(
      spec,
      {
        model: spec.model === null ? null : model,
        env: options.env,
        sandbox: createJobSandbox(box),
        signal: run.signal,
        redactor,
        ...(run.config === undefined ? {} : { config: run.config }),
        ...(repoDir ? { repoDir } : {}),
        ...(run.onProgress ? { onProgress: run.onProgress } : {}),
      },
      options.pipelines ?? productionPipelines,
    );
    return result;
  };
}
