/**
 * The `.github/retrace.yml` schema. Every field has a description and a default, so an empty file (or none)
 * is a valid, conservative configuration. Unknown keys are errors: a typo must not silently disable a rule.
 * JSON Schema for editors is generated from this file (`scripts/gen-schema.ts` → schema/retrace.schema.json).
 */
import { z } from "zod";
import { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL } from "../llm/pricing.ts";
import { PolicyConfig } from "../policy/config.ts";
import { MIN_RUN_TIMEOUT_MS } from "../sandbox/limits.ts";

export { PolicyConfig } from "../policy/config.ts";

const positiveInt = () => z.number().int().min(1);

/** Sandbox limits a repository may set (the driver validates the combination again before a run). */
export const SandboxLimitsConfig = z
  .strictObject({
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(3_600_000)
      .optional()
      .describe("Wall-clock limit of one sandboxed command, in milliseconds."),
    memoryMb: z
      .number()
      .int()
      .min(32)
      .max(65_536)
      .optional()
      .describe("Memory limit in MiB (no swap beyond it)."),
    cpus: z.number().min(0.1).max(64).optional().describe("CPU limit in cores (fractions allowed)."),
    pids: z.number().int().min(8).max(32_768).optional().describe("Maximum processes and threads."),
    outputBytes: z
      .number()
      .int()
      .min(1_024)
      .max(256 * 1024 * 1024)
      .optional()
      .describe("Cap on each of stdout and stderr, in bytes."),
    fileSizeMb: z
      .number()
      .int()
      .min(1)
      .max(16_384)
      .optional()
      .describe("Largest file a process may write, in MiB."),
    nofile: z.number().int().min(64).max(1_048_576).optional().describe("Open file descriptors."),
    tmpMb: z.number().int().min(1).max(16_384).optional().describe("Size of the /tmp tmpfs, in MiB."),
    workspaceMb: z
      .number()
      .int()
      .min(8)
      .max(65_536)
      .optional()
      .describe("Size of the /workspace tmpfs, in MiB."),
  })
  .describe(
    "Overrides of the sandbox driver's default limits; unset fields keep the driver's defaults (60 s, 1024 MiB, 1 core, 256 pids for a reproduction's runs; 10 min, half the host's memory within 2048-8192 MiB (a CI runner's), 2 cores, 512 pids for each run of the test suite in verify and fix jobs). Each is lowered to the host's maximum (the operator's RETRACE_SANDBOX_MAX_LIMITS; by default 20 min, three quarters of the host's memory and at least 4096 MiB, 1024 pids, 4096 MiB workspace — docs/security.md).",
  );

export const SandboxConfig = z
  .strictObject({
    image: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Docker image untrusted code runs in; unset means the host's default ($RETRACE_SANDBOX_IMAGE, else retrace-sandbox:1, built from sandbox/). Another image only when the operator lists it in RETRACE_SANDBOX_IMAGES; otherwise the job stops with a configuration error.",
      ),
    limits: SandboxLimitsConfig.prefault({}),
  })
  .describe("Where and under which limits untrusted code runs.");

export const InstallConfig = z
  .strictObject({
    allowGit: z
      .boolean()
      .default(false)
      .describe(
        "Let a lockfile install git dependencies (git+…, github:, user/repo). Off: they are refused before npm runs. Either way installs run in the install container, never on the host.",
      ),
    allowRemote: z
      .boolean()
      .default(false)
      .describe(
        "Let a lockfile install tarballs from hosts other than the configured npm registry. Off: refused before npm runs. The hosts `allowGit`/`allowRemote` open are reached at public addresses only; internal ones (a company git server) need the operator's `RETRACE_PRIVATE_SOURCE_HOSTS=host[:port],…`.",
      ),
    allowFile: z
      .boolean()
      .default(false)
      .describe(
        "Let a lockfile install file: and link: sources inside the repository (workspace packages are always allowed). Paths outside the repository are refused whatever this says.",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(10_000)
      .max(3_600_000)
      .optional()
      .describe(
        "Wall-clock limit of one install of the repository's own dependencies (fixes, `verify`), resolution and install together, in milliseconds; unset: 15 minutes. A real project's first install on a loaded machine can take several minutes; when it is reached the job stops with an infrastructure error naming this field. Reproductions use repro.installTimeoutMs.",
      ),
    maxPackages: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(20)
      .describe(
        "Most packages installed for one bug report; the rest are refused by name. Lowered to the host's maximum (the operator's RETRACE_HOST_LIMITS maxPackages, 100 by default).",
      ),
  })
  .describe(
    "Dependency installs (a report's packages, a repository's lockfile): in a throwaway container, from the configured registry only, unless a field here allows more.",
  );

export const ReproConfig = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Whether Retrace reproduces bug reports in this repository."),
    label: z
      .string()
      .min(1)
      .default("needs-repro")
      .describe("Adding this label to an issue starts a reproduction."),
    runs: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(3)
      .describe(
        "How many times each candidate runs; REPRODUCED needs every run to show the reported behaviour.",
      ),
    runTimeoutMs: z
      .number()
      .int()
      .min(MIN_RUN_TIMEOUT_MS)
      .max(600_000)
      .default(60_000)
      .describe("Wall-clock limit of one run of the reproduction, in milliseconds."),
    installTimeoutMs: z
      .number()
      .int()
      .min(1_000)
      .max(1_800_000)
      .default(300_000)
      .describe("Wall-clock limit of installing the reproduction's pinned dependencies, in milliseconds."),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(3)
      .describe("Refinement attempts (extract → run → evaluate) before a verdict is given."),
    maxUsd: z
      .number()
      .min(0)
      .default(2)
      .describe(
        "Dollars one reproduction may spend on the model (the App also caps it by limits.usdPerDay).",
      ),
    maxTokens: z.number().int().min(0).default(400_000).describe("Model tokens one reproduction may spend."),
    maxWallMs: z
      .number()
      .int()
      .min(1_000)
      .default(15 * 60_000)
      .describe("Wall-clock limit of one reproduction job, in milliseconds."),
    compareLatest: z
      .boolean()
      .default(true)
      .describe(
        "Also run against the latest release when the report names an older version (verdict matrix).",
      ),
  })
  .describe("Reproducing bug reports: issue labelled `label`, or `/repro` in a comment.");

export const FixConfig = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe("Whether Retrace proposes fixes for failed checks in this repository."),
    checks: z
      .union([z.literal("all"), z.array(z.string().min(1)).min(1)])
      .default("all")
      .describe('Check-run or workflow names whose failures Retrace fixes (globs allowed), or "all".'),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(3)
      .describe("Propose → gate → verify attempts before the job gives up."),
    maxUsd: z.number().min(0).default(2).describe("Dollars one fix job may spend on the model."),
    maxTokens: z.number().int().min(0).default(400_000).describe("Model tokens one fix job may spend."),
    maxWallMs: z
      .number()
      .int()
      .min(1_000)
      .default(15 * 60_000)
      .describe("Wall-clock limit of one fix job, in milliseconds."),
    verifyRuns: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(2)
      .describe("How many times the patched tests must pass before a fix counts as verified."),
    allowTestEdits: z
      .boolean()
      .optional()
      .describe("Whether fix patches may edit test files; when unset, `policy.allowTestEdits` applies."),
    lineageCap: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(1)
      .describe(
        "How many Retrace fixes may be stacked on one branch lineage (a fix of a fix); 0 disables fixing Retrace's own branches.",
      ),
    testCommand: z
      .string()
      .min(1)
      .optional()
      .describe("Test command run in the sandbox; detected from the repository when unset."),
  })
  .describe("Fixing failed checks: a failed check run or workflow run, or `/autofix` in a comment.");

export const CommandsConfig = z
  .strictObject({
    repro: z
      .string()
      .regex(/^\/[\w-]+$/, "a slash command is `/` followed by letters, digits, `-` or `_`")
      .default("/repro")
      .describe("Comment command that starts a reproduction of the issue."),
    autofix: z
      .string()
      .regex(/^\/[\w-]+$/, "a slash command is `/` followed by letters, digits, `-` or `_`")
      .default("/autofix")
      .describe("Comment command (on a pull request) that starts a fix of its failed checks."),
    minPermission: z
      .enum(["write", "maintain", "admin"])
      .default("write")
      .describe("Lowest repository permission a commenter needs for a command to act (fail closed)."),
  })
  .describe("Slash commands in issue and pull-request comments.");

export const LimitsConfig = z
  .strictObject({
    jobsPerDay: positiveInt()
      .default(20)
      .describe("Most jobs (repro + fix) started for this repository per UTC day."),
    usdPerDay: z
      .number()
      .min(0)
      .default(10)
      .describe("Most model dollars spent for this repository per UTC day."),
    concurrentJobs: positiveInt()
      .max(16)
      .default(2)
      .describe("Most jobs of this repository running at once."),
  })
  .describe("Per-repository budgets, enforced by the App before a job starts.");

export const ModelConfig = z
  .strictObject({
    default: z.string().min(1).default(DEFAULT_FAST_MODEL).describe("Model used for every step at first."),
    strong: z
      .string()
      .min(1)
      .default(DEFAULT_STRONG_MODEL)
      .describe("Stronger model the loop escalates to after `escalateAfter` failed attempts."),
    escalateAfter: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "Failed attempts on the default model before escalating; 0 never escalates. When unset: 2 for fixes, 1 for reproductions (a reproduction attempt is cheap next to a wrong verdict).",
      ),
    maxOutputTokens: z
      .number()
      .int()
      .min(256)
      .max(64_000)
      .default(8_192)
      .describe("Output token cap per model call."),
  })
  .describe("Model names and escalation. Without an API key Retrace runs its deterministic path only.");

export const RetraceConfig = z
  .strictObject({
    policy: PolicyConfig.prefault({}),
    repro: ReproConfig.prefault({}),
    fix: FixConfig.prefault({}),
    commands: CommandsConfig.prefault({}),
    limits: LimitsConfig.prefault({}),
    model: ModelConfig.prefault({}),
    sandbox: SandboxConfig.prefault({}),
    install: InstallConfig.prefault({}),
  })
  .describe("Retrace configuration (.github/retrace.yml).");

/** The parsed configuration: every field present (except optional overrides). */
export type RetraceConfig = z.infer<typeof RetraceConfig>;
/** What a user may write. */
export type RetraceConfigInput = z.input<typeof RetraceConfig>;

/** The configuration an empty `.github/retrace.yml` means. */
export function defaultConfig(): RetraceConfig {
  return RetraceConfig.parse({});
}

/** The policy a fix job's patches are gated with: `fix.allowTestEdits`, when set, overrides the policy's. */
export function policyForFix(config: RetraceConfig): PolicyConfig {
  const allowTestEdits = config.fix.allowTestEdits ?? config.policy.allowTestEdits;
  return { ...config.policy, allowTestEdits };
}
