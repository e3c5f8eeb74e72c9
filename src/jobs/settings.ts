/**
 * One resolved `JobSettings` per job, built here and nowhere else, from three sources in this order of
 * precedence: the job spec (what the trigger or the command line asked for), the repository's validated
 * `.github/retrace.yml` (defaults when there is none), and the environment the operator controls
 * (RETRACE_SANDBOX_IMAGE, RETRACE_SANDBOX_IMAGES, RETRACE_SANDBOX_MAX_LIMITS, RETRACE_HOST_LIMITS). Every surface — the App, the
 * Action, the CLI — and `retrace replay` run a job on the settings this module returns, so a config field
 * means the same thing on each (docs/config.md says where each applies).
 *
 * Adding a config field: its schema in src/config/schema.ts, its resolved value here, and the one place that
 * reads it from `JobSettings`.
 */
import { hostLimits } from "../core/host-limits.ts";
import { defaultConfig, type RetraceConfig } from "../config/schema.ts";
import { FixJobSpec, type JobSpec } from "../core/job.ts";
import type { ModelChoice } from "../core/loop.ts";
import type { Sandbox, SandboxLimits, SandboxStep } from "../core/ports/sandbox.ts";
import { failedActionsStep } from "../fix/ci-step.ts";
import { createDockerSandbox, DEFAULT_SANDBOX_IMAGE } from "../sandbox/docker.ts";
import { clampLimits, operatorMaxLimits, repositorySandbox, TEST_RUN_LIMITS } from "../sandbox/limits.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** The sandbox a job's runs use: the image and limits the repository asks for, within the operator's rules. */
export interface SandboxSettings {
  /** The image every run uses: the repository's `sandbox.image` when the operator allows it, else the host's. */
  image: string;
  /** Default limits of every run: the repository's `sandbox.limits`, lowered to the host's maxima. */
  limits: Partial<SandboxLimits>;
  /** The host's maxima (RETRACE_SANDBOX_MAX_LIMITS over the built-in maxima). */
  maxLimits: SandboxLimits;
  /** What was lowered or refused on the way, for the job's log. */
  notes: string[];
}

/** A fix job's test command, with where it came from (recorded in the trace and the PR body). */
export interface TestCommandChoice {
  command: string;
  source: string;
}

export interface JobSettings {
  /** The repository's configuration, validated, defaults filled in. */
  config: RetraceConfig;
  /** Fast and strong model names and when to escalate, for both pipelines. */
  models: ModelChoice;
  /** Output token cap of each model call (`model.maxOutputTokens`). */
  maxOutputTokens: number;
  sandbox: SandboxSettings;
  /** Reproductions: each run's and each install's time limit, the latest-release comparison, the most packages. */
  repro: { runTimeoutMs: number; installTimeoutMs: number; compareLatest: boolean; maxPackages: number };
  /** Fix jobs: the test command when one is given, configured, or read from the failing workflow step; null
   * means "detect it from the repository's files". Always null for reproductions. */
  testCommand: TestCommandChoice | null;
}

/** What a surface adds on top of the spec: command-line flags of the CLI (they win over the config). */
export interface SettingsOverrides {
  /** `--test`: the fix's test command. */
  testCommand?: string;
  /** `--timeout` of `retrace repro`: each sandbox run's limit (ms), over `repro.runTimeoutMs`. */
  runTimeoutMs?: number;
  /** `--install-timeout` of `retrace repro`: each dependency install's limit (ms), over `repro.installTimeoutMs`. */
  installTimeoutMs?: number;
  /** `--model` / `--strong-model`. */
  model?: string;
  strongModel?: string;
}

export interface ResolveSettingsInput {
  /** The repository's validated `.github/retrace.yml`; the defaults when none was loaded. */
  config?: RetraceConfig | undefined;
  env: Env;
  overrides?: SettingsOverrides;
}

/** Model names: the spec's (a trigger or `--model` pinned them), then the overrides, then `model:`. */
export function resolveModels(
  spec: JobSpec,
  config: RetraceConfig,
  overrides: SettingsOverrides = {},
): ModelChoice {
  const strongFromSpec = spec.kind === "fix" ? spec.strongModel : undefined;
  // "default" in a spec means "the configured model", as a trigger writes it when it names none.
  const pinned = spec.model !== null && spec.model !== "default" ? spec.model : undefined;
  return {
    fast: pinned ?? overrides.model ?? config.model.default,
    strong: strongFromSpec ?? overrides.strongModel ?? config.model.strong,
    escalateAfter: config.model.escalateAfter ?? DEFAULT_ESCALATE_AFTER[spec.kind],
  };
}

/** `model.escalateAfter` when the repository leaves it unset (docs/config.md). */
export const DEFAULT_ESCALATE_AFTER: Record<JobSpec["kind"], number> = { fix: 2, repro: 1 };

/**
 * The repository's sandbox section within the operator's rules (the image allow-list and the maxima). A fix
 * job's runs are runs of the repository's test suite: TEST_RUN_LIMITS under the repository's own limits, all
 * lowered to the host's maxima.
 */
export function resolveSandbox(
  config: RetraceConfig,
  env: Env,
  kind: JobSpec["kind"] = "repro",
): SandboxSettings {
  const hostImage = env.RETRACE_SANDBOX_IMAGE || DEFAULT_SANDBOX_IMAGE;
  const repo = repositorySandbox(config.sandbox, env, hostImage);
  const maxLimits = operatorMaxLimits(env);
  return {
    image: repo.image ?? hostImage,
    limits:
      kind === "fix" ? clampLimits({ ...TEST_RUN_LIMITS, ...repo.limits }, maxLimits).limits : repo.limits,
    maxLimits,
    notes: repo.notes,
  };
}

/**
 * A fix's test command: `--test`, then `fix.testCommand`, then the failing workflow step's own test line
 * (when the failure came from Actions and its log is known); null otherwise (detected later from the files).
 */
export function resolveTestCommand(
  spec: JobSpec,
  config: RetraceConfig,
  overrides: SettingsOverrides = {},
): TestCommandChoice | null {
  if (spec.kind !== "fix") return null;
  const given = overrides.testCommand ?? spec.testCommand;
  if (given) return { command: given, source: overrides.testCommand ? "--test" : "the job spec" };
  if (config.fix.testCommand) return { command: config.fix.testCommand, source: "fix.testCommand" };
  const step = spec.log ? failedActionsStep(spec.log) : null;
  return step?.testCommand ? { command: step.testCommand, source: "the failing workflow step" } : null;
}

/** The one place a job's settings are resolved. */
export function resolveJobSettings(spec: JobSpec, input: ResolveSettingsInput): JobSettings {
  // A malformed RETRACE_HOST_LIMITS stops the job here, before any work (src/core/host-limits.ts).
  hostLimits(input.env);
  const config = input.config ?? defaultConfig();
  const overrides = input.overrides ?? {};
  return {
    config,
    models: resolveModels(spec, config, overrides),
    maxOutputTokens: config.model.maxOutputTokens,
    sandbox: resolveSandbox(config, input.env, spec.kind),
    repro: {
      runTimeoutMs: overrides.runTimeoutMs ?? config.repro.runTimeoutMs,
      installTimeoutMs: overrides.installTimeoutMs ?? config.repro.installTimeoutMs,
      compareLatest: config.repro.compareLatest,
      // The repository may ask for fewer packages per report, never more than the operator's maximum.
      maxPackages: Math.min(config.install.maxPackages, hostLimits(input.env).maxPackages),
    },
    testCommand: resolveTestCommand(spec, config, overrides),
  };
}

/**
 * Settings of fix work that has no job spec of its own (`retrace verify`, tests of the ports): the repository's
 * config, a given test command (`--test`) and the failing CI log when there is one.
 */
export function fixSettings(
  config: RetraceConfig,
  options: { testCommand?: string | undefined; ciLog?: string | undefined; env?: Env } = {},
): JobSettings {
  const spec = FixJobSpec.parse({
    kind: "fix",
    id: "settings",
    budget: {},
    ...(options.ciLog === undefined ? {} : { log: options.ciLog }),
  });
  return resolveJobSettings(spec, {
    config,
    env: options.env ?? process.env,
    ...(options.testCommand ? { overrides: { testCommand: options.testCommand } } : {}),
  });
}

/** The one place a Docker sandbox is built for a job: its image, its limits as defaults, the host's maxima. */
export function createJobSandbox(settings: SandboxSettings, onStep?: (step: SandboxStep) => void): Sandbox {
  return createDockerSandbox({
    image: settings.image,
    defaults: settings.limits,
    maxLimits: settings.maxLimits,
    ...(onStep ? { onStep } : {}),
  });
}
