/**
 * Sandbox limits: defaults, the host's maxima, and validation that rejects nonsense before a container exists.
 *
 * A repository's `sandbox.limits` is the repository's wish, not the operator's: every limit is clamped to the
 * host's maximum (`RETRACE_SANDBOX_MAX_LIMITS`, else MAX_LIMITS below), and its `sandbox.image` must be one the
 * operator allows (`RETRACE_SANDBOX_IMAGES`, else only the host's own image).
 */
import os from "node:os";
import { z } from "zod";
import { ConfigError, RetraceError } from "../core/errors.ts";
import type { SandboxLimits } from "../core/ports/sandbox.ts";

export const SandboxLimitsSchema = z.object({
  /** Wall-clock limit of the command, in milliseconds (100 ms to 1 hour). */
  timeoutMs: z.number().int().min(100).max(3_600_000),
  /** Memory limit in MiB; swap equals it. The workspace tmpfs is charged to it too. */
  memoryMb: z.number().int().min(32).max(65_536),
  /** CPU limit in cores. */
  cpus: z.number().min(0.1).max(64),
  /** Maximum processes and threads. */
  pids: z.number().int().min(8).max(32_768),
  /** Cap on each of stdout and stderr, in bytes. */
  outputBytes: z
    .number()
    .int()
    .min(1_024)
    .max(256 * 1024 * 1024),
  /** Largest file a process may write, in MiB. */
  fileSizeMb: z.number().int().min(1).max(16_384),
  /** Open file descriptors. */
  nofile: z.number().int().min(64).max(1_048_576),
  /** Size of /tmp (tmpfs, noexec), in MiB. */
  tmpMb: z.number().int().min(1).max(16_384),
  /** Size of /workspace (tmpfs), in MiB. */
  workspaceMb: z.number().int().min(8).max(65_536),
}) satisfies z.ZodType<SandboxLimits>;

export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 60_000,
  memoryMb: 1_024,
  cpus: 1,
  pids: 256,
  outputBytes: 1024 * 1024,
  fileSizeMb: 256,
  nofile: 1_024,
  tmpMb: 64,
  workspaceMb: 768,
};

/**
 * The memory this host has for runs, in MiB: the machine's, or the cgroup limit Retrace itself runs under when
 * that is smaller (Retrace in a container, a CI job with a memory cap).
 */
export function hostMemoryMb(
  totalBytes: number = os.totalmem(),
  constrainedBytes: number = process.constrainedMemory(),
): number {
  const bytes = constrainedBytes > 0 && constrainedBytes < totalBytes ? constrainedBytes : totalBytes;
  return Math.floor(bytes / (1024 * 1024));
}

/**
 * The default memory of one test-suite run: half the host's memory, at least 2048 MiB and at most 8192 MiB — what a
 * CI runner gives a job (GitHub's hosted ubuntu runners: 7 GB private, 16 GB public), so no verdict hangs on a
 * sandbox default smaller than the repository's own CI (changesets' `tsdown` build ran out of V8 heap at 2048 MiB:
 * Node sizes its heap from the container's limit). Half, because a verification runs up to four runs side by side
 * and the limit is a ceiling, not a reservation. The host's maximum (`maxMemoryMb`) still lowers it.
 */
export function testRunMemoryMb(hostMb: number = hostMemoryMb()): number {
  return Math.min(8_192, Math.max(2_048, Math.floor(hostMb / 2)));
}

/**
 * The host's default maximum of a run's memory when the operator sets none: three quarters of the host's memory,
 * never below 4096 MiB (the earlier fixed maximum) and never above the schema's 65536 MiB.
 */
export function maxMemoryMb(hostMb: number = hostMemoryMb()): number {
  return Math.min(65_536, Math.max(4_096, Math.floor((hostMb * 3) / 4)));
}

/**
 * Defaults of a run of a repository's test suite (`verify`, and every run of a fix job: triage, base, patched,
 * anti-gaming), over DEFAULT_LIMITS: a real suite is a CI job, not a snippet. CI gives a test job minutes (GitHub
 * Actions: 6 hours per job, 2+ cores, 7 GB), and a suite that takes 5 s on an idle machine took over 60 s on a
 * loaded one, so 60 s made base runs infrastructure errors. Ten minutes per run, memory as a runner has it
 * (testRunMemoryMb: half the host's, 2-8 GiB), the host's cores up to two, 512 processes (jest and vitest start a worker per core). A repository's `sandbox.limits` and `--timeout`
 * win over these; the operator's maxima (RETRACE_SANDBOX_MAX_LIMITS) still lower all of them.
 */
export const TEST_RUN_LIMITS: Partial<SandboxLimits> = {
  timeoutMs: 10 * 60_000,
  memoryMb: testRunMemoryMb(),
  cpus: 2,
  pids: 512,
};

export class InvalidLimitsError extends RetraceError {
  constructor(message: string) {
    super("usage", `invalid sandbox limits: ${message}`, {
      hint: "fix the limit named above (see `sandbox.limits` in the configuration reference)",
    });
  }
}

/**
 * The smallest wall-clock limit a reproduction's run may be given (`retrace repro --timeout`,
 * `repro.runTimeoutMs`): the limit also bounds copying the program into the container, and on a loaded host that and
 * the runtime's start alone take seconds. A smaller one is refused before anything runs (issue 12: `--timeout 1`
 * ended in a failed copy-in, an error exit), never turned into a run that cannot even start.
 */
export const MIN_RUN_TIMEOUT_MS = 5_000;

/** The operator's maxima when RETRACE_SANDBOX_MAX_LIMITS does not set them. */
export const MAX_LIMITS: SandboxLimits = {
  timeoutMs: 20 * 60_000,
  memoryMb: maxMemoryMb(),
  cpus: Math.max(1, os.cpus().length),
  pids: 1_024,
  outputBytes: 16 * 1024 * 1024,
  fileSizeMb: 2_048,
  nofile: 8_192,
  tmpMb: 2_048,
  workspaceMb: 4_096,
};

export const MAX_LIMITS_ENV = "RETRACE_SANDBOX_MAX_LIMITS";
export const ALLOWED_IMAGES_ENV = "RETRACE_SANDBOX_IMAGES";

/**
 * The host's maxima: MAX_LIMITS with the operator's `RETRACE_SANDBOX_MAX_LIMITS` (`memoryMb=8192,pids=2048`)
 * over it. A malformed value is a configuration error naming the variable, never silently ignored.
 */
export function operatorMaxLimits(env: Record<string, string | undefined> = process.env): SandboxLimits {
  const text = env[MAX_LIMITS_ENV]?.trim();
  if (!text) return MAX_LIMITS;
  const over: Record<string, number> = {};
  for (const item of text.split(",")) {
    const m = /^\s*([A-Za-z]+)\s*=\s*([0-9.]+)\s*$/.exec(item);
    if (!m || !(m[1]! in MAX_LIMITS) || !Number.isFinite(Number(m[2]))) {
      throw new ConfigError(
        `${MAX_LIMITS_ENV} has an invalid item ${JSON.stringify(item.trim())}`,
        `write comma-separated name=value pairs of ${Object.keys(MAX_LIMITS).join(", ")} (e.g. memoryMb=8192,pids=2048)`,
      );
    }
    over[m[1]!] = Number(m[2]);
  }
  const parsed = SandboxLimitsSchema.safeParse({ ...MAX_LIMITS, ...over });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `${MAX_LIMITS_ENV}: ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`,
      "keep each maximum within the range docs/config.md gives for sandbox.limits",
    );
  }
  return parsed.data;
}

/** Each limit at most the host's maximum; `clamped` says which were lowered, from what to what. */
export function clampLimits(
  limits: Partial<SandboxLimits>,
  max: SandboxLimits,
): { limits: Partial<SandboxLimits>; clamped: string[] } {
  const out: Partial<SandboxLimits> = {};
  const clamped: string[] = [];
  for (const [k, v] of Object.entries(stripUndefined(limits)) as [keyof SandboxLimits, number][]) {
    const cap = max[k];
    if (typeof v === "number" && typeof cap === "number" && v > cap) {
      clamped.push(`${k} ${v} → ${cap}`);
      out[k] = cap;
    } else out[k] = v;
  }
  return { limits: out, clamped };
}

/** The images a repository may name: RETRACE_SANDBOX_IMAGES (comma-separated) and the host's own image. */
export function allowedImages(env: Record<string, string | undefined>, hostImage: string): Set<string> {
  const listed = (env[ALLOWED_IMAGES_ENV] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return new Set([hostImage, ...listed]);
}

/** What a repository's `sandbox` section may have on this host. */
export interface RepositorySandbox {
  /** The repository's image when it names one (allowed); undefined means the host's. */
  image: string | undefined;
  /** Its limits, clamped to the host's maxima. */
  limits: Partial<SandboxLimits>;
  /** One line per clamped limit, to show the user (empty when nothing was lowered). */
  notes: string[];
}

/**
 * Applies the operator's rules to a repository's `sandbox` section: an image not allowed is refused (a
 * ConfigError naming it and the variable that allows it), limits above the host's maxima are lowered.
 */
export function repositorySandbox(
  section: { image?: string | undefined; limits?: Partial<SandboxLimits> | undefined },
  env: Record<string, string | undefined>,
  hostImage: string,
): RepositorySandbox {
  const image = section.image;
  if (image !== undefined) {
    const allowed = allowedImages(env, hostImage);
    if (!allowed.has(image)) {
      throw new ConfigError(
        `sandbox.image ${JSON.stringify(image)} is not an image this host allows (allowed: ${[...allowed].join(", ")})`,
        `remove sandbox.image from .github/retrace.yml, or have the operator add the image to ${ALLOWED_IMAGES_ENV}`,
      );
    }
  }
  const max = operatorMaxLimits(env);
  const { limits, clamped } = clampLimits(section.limits ?? {}, max);
  return {
    image,
    limits,
    notes:
      clamped.length === 0
        ? []
        : [`sandbox.limits above this host's maxima (${MAX_LIMITS_ENV}) were lowered: ${clamped.join(", ")}`],
  };
}

/** Merge overrides over defaults, lower each limit to `max` when given, and validate the result. */
export function resolveLimits(
  base: SandboxLimits,
  overrides: Partial<SandboxLimits> | undefined,
  max?: SandboxLimits,
): SandboxLimits {
  const wanted = { ...base, ...stripUndefined(overrides ?? {}) };
  const merged = max === undefined ? wanted : { ...wanted, ...clampLimits(wanted, max).limits };
  const parsed = SandboxLimitsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidLimitsError(`${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`);
  }
  if (parsed.data.workspaceMb + parsed.data.tmpMb > parsed.data.memoryMb * 4) {
    // Not an error per se, but tmpfs pages count against memory: a workspace far larger than memory is a typo.
    throw new InvalidLimitsError(
      `workspaceMb + tmpMb (${parsed.data.workspaceMb + parsed.data.tmpMb}) is over 4x memoryMb (${parsed.data.memoryMb}); tmpfs is charged to the memory limit`,
    );
  }
  return parsed.data;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
