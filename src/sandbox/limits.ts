/**
 * Sandbox limits: defaults, and validation that rejects nonsense before a container exists.
 */
import { z } from "zod";
import { RetraceError } from "../core/errors.ts";
import type { SandboxLimits } from "./types.ts";

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

export class InvalidLimitsError extends RetraceError {
  constructor(message: string) {
    super("usage", `invalid sandbox limits: ${message}`, {
      hint: "fix the limit named above (see `sandbox.limits` in the configuration reference)",
    });
  }
}

/** Merge overrides over defaults and validate the result. */
export function resolveLimits(
  base: SandboxLimits,
  overrides: Partial<SandboxLimits> | undefined,
): SandboxLimits {
  const merged = { ...base, ...stripUndefined(overrides ?? {}) };
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
