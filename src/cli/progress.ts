/**
 * What a command that runs the sandbox shows while it works, and how it stops: progress lines on stderr stamped
 * with seconds since the command started (`retrace: [+12.3s] …`, read by the real-repository bench), each sandbox
 * step's time with `--timings`, and SIGINT/SIGTERM turned into a cancellation the job sees (containers removed,
 * no half-written state) instead of a killed process.
 */
import type { SandboxStep } from "../core/ports/sandbox.ts";
import { printErr } from "./print.ts";

export interface Progress {
  /** Seconds since the command started, as `[+12.3s]`. */
  at: () => string;
  log: (line: string) => void;
  /** Present with `--timings`. */
  onSandboxStep?: (step: SandboxStep) => void;
}

/** A duration as the CLI prints it: `12.3 s`. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function progress(timings: boolean | undefined): Progress {
  const t0 = performance.now();
  const startedAt = Date.now();
  const at = () => `[+${((performance.now() - t0) / 1000).toFixed(1)}s]`;
  const log = (line: string) => printErr(`retrace: ${at()} ${line}\n`);
  return {
    at,
    log,
    ...(timings
      ? {
          onSandboxStep: (s: SandboxStep) =>
            log(
              `sandbox ${s.of} ${s.step} ${seconds(s.ms)} (from +${((s.at - s.ms - startedAt) / 1000).toFixed(1)}s)`,
            ),
        }
      : {}),
  };
}

/** Runs `job` with a signal that SIGINT or SIGTERM aborts; the handlers are removed when it ends. */
export async function cancellable<T>(job: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await job(controller.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
