/**
 * Run one configuration of a program in the sandbox, `runs` times, and observe each run.
 */
import type { SandboxLimits, SandboxRunResult } from "../core/ports/sandbox.ts";
import type { Program } from "./complete.ts";
import { withinCpuTime } from "../core/time-limit.ts";
import { outputBudgetMs, outputUnread, type RunObservation } from "./match.ts";
import { parseException } from "./outcome.ts";
import type { InstallResult, ReproPorts } from "./ports.ts";

const RUNTIME_MARKER = "@@retrace-runtime ";

export interface ExecutedRun extends RunObservation {
  /** Runtime version the sandbox reported ("3.11.2", "18.19.0"), when it did. */
  runtimeVersion: string | null;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
}

/** The command: record the runtime version on stderr (one marker line, removed again), then exec the entry. */
export function runCommand(program: Program, runnableEntry: string): string[] {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const args = (program.args ?? []).map((a) => ` ${q(a)}`).join("");
  // The interpreter's own options the report typed (`-O`, `-W error`, `--no-warnings`), before the entry.
  const flags = (program.interpreterFlags ?? []).map((f) => `${q(f)} `).join("");
  if (program.runtime === "python") {
    return [
      "sh",
      "-c",
      `echo "${RUNTIME_MARKER}$(python3 -c 'import platform; print(platform.python_version())')" >&2; exec python3 ${flags}${q(runnableEntry)}${args}`,
    ];
  }
  return [
    "sh",
    "-c",
    `echo "${RUNTIME_MARKER}$(node --version)" >&2; exec node ${flags}${q(runnableEntry)}${args}`,
  ];
}

/**
 * The run's whole environment. No PYTHONDONTWRITEBYTECODE: CPython writes its bytecode caches as on the reporter's
 * machine, so a report about importing, caching or a module its code writes and imports again runs as it did there
 * (a run without caches cannot show stale bytecode: issue 12, hold25). The workspace is the run's own tmpfs.
 */
export function sandboxEnv(install: InstallResult | null): Record<string, string> {
  const env: Record<string, string> = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: "/tmp",
    LANG: "C.UTF-8",
    TZ: "UTC",
    PYTHONUNBUFFERED: "1",
    PYTHONIOENCODING: "utf-8",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
  };
  if (install?.pythonPath) env["PYTHONPATH"] = `/workspace/${install.pythonPath}`;
  return env;
}

export function observe(result: SandboxRunResult, runtime: Program["runtime"]): ExecutedRun {
  let stderr = result.stderr;
  let runtimeVersion: string | null = null;
  const idx = stderr.indexOf(RUNTIME_MARKER);
  if (idx >= 0) {
    const end = stderr.indexOf("\n", idx);
    runtimeVersion =
      stderr
        .slice(idx + RUNTIME_MARKER.length, end < 0 ? undefined : end)
        .trim()
        .replace(/^v/, "") || null;
    stderr = stderr.slice(0, idx) + (end < 0 ? "" : stderr.slice(end + 1));
  }
  // Read with the same bound on host CPU as the rest of the run's output (`matchRunWithinBudget`).
  const read =
    result.stoppedBy === null && result.exitCode !== 0
      ? withinCpuTime(
          () => parseException(stderr, runtime === "python" ? "python" : "node"),
          outputBudgetMs({ stdout: "", stderr }),
        )
      : null;
  if (read && !read.ok) throw outputUnread({ stdout: "", stderr }, read.message);
  const exception = read?.value ?? null;
  return {
    exitCode: result.exitCode,
    stoppedBy: result.stoppedBy,
    stdout: result.stdout,
    stderr,
    exception,
    durationMs: result.durationMs,
    ...(result.cpuMs === undefined ? {} : { cpuMs: result.cpuMs }),
    runtimeVersion,
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
  };
}

/** The limits of one run: the configured sandbox limits, with the repro run timeout (default 10 s). */
export function runLimits(ports: Pick<ReproPorts, "limits" | "runTimeoutMs">): Partial<SandboxLimits> {
  return { ...ports.limits, timeoutMs: ports.runTimeoutMs ?? ports.limits?.timeoutMs ?? 10_000 };
}

export async function executeRuns(options: {
  ports: ReproPorts;
  jobId: string;
  program: Program;
  /** Files to run (JS already transpiled), workspace-relative. */
  files: Record<string, string>;
  runnableEntry: string;
  install: InstallResult | null;
  runs: number;
  /** Which configuration runs, for progress lines ("reported versions", "latest versions"). */
  label?: string;
  /**
   * The report describes no hang, so a run stopped at the time limit says nothing about the bug: it runs once more,
   * alone and with twice the time (see `rerunTimedOut`). `"confirm-hang"` where a timeout is the reported behaviour:
   * one timed-out run is repeated alone with twice the time, and only if it finishes (the machine's load, not a
   * hang) are the others repeated too (see `confirmHang`).
   */
  retryTimeouts?: boolean | "confirm-hang";
}): Promise<ExecutedRun[]> {
  const { ports, program, install } = options;
  const request = {
    jobId: options.jobId,
    command: runCommand(program, options.runnableEntry),
    input: { ...(install?.dir ? { dir: install.dir } : {}), files: options.files },
    env: sandboxEnv(install),
    limits: runLimits(ports),
    ...(ports.signal ? { signal: ports.signal } : {}),
  };
  // Repeats run side by side: each is its own container, and the verdict needs all of them.
  let done = 0;
  const label = options.label ? ` (${options.label})` : "";
  ports.onProgress?.(`starting ${options.runs} run(s)${label} in the sandbox`);
  const results = await Promise.all(
    Array.from({ length: options.runs }, () =>
      ports.sandbox.run(request).then((r) => {
        done++;
        const how = r.stoppedBy ? `stopped (${r.stoppedBy})` : `exit code ${r.exitCode}`;
        ports.onProgress?.(`run ${done} of ${options.runs}${label} finished: ${how}`);
        return r;
      }),
    ),
  );
  const final =
    options.retryTimeouts === "confirm-hang"
      ? await confirmHang(ports, request, results, label)
      : options.retryTimeouts
        ? await rerunTimedOut(ports, request, results, label)
        : results;
  return final.map((r) => observe(r, program.runtime));
}

/** How runs stopped at the time limit are repeated, by what the report claims: a hang is confirmed, not assumed. */
export function timeoutRetryFor(claimedKind: string): true | "confirm-hang" {
  return claimedKind === "hang" ? "confirm-hang" : true;
}

/**
 * The report describes a hang, and a run stopped at the time limit. On a busy host a program that ends can pass the
 * limit too, and calling that "hangs, as reported" would be a false REPRODUCED: one timed-out run goes once more,
 * alone, with twice the time. Still stopped: the hang stands (the other timeouts are kept, not repeated: a real hang
 * costs one more run, not three). Finished: the timeouts were the machine's doing, so each is repeated the same way
 * (`rerunTimedOut`) and the finished runs decide.
 */
async function confirmHang(
  ports: ReproPorts,
  request: Parameters<ReproPorts["sandbox"]["run"]>[0],
  results: SandboxRunResult[],
  label: string,
): Promise<SandboxRunResult[]> {
  const i = results.findIndex((r) => r.stoppedBy === "timeout");
  if (i < 0) return results;
  const first = request.limits?.timeoutMs ?? 10_000;
  const timeoutMs = Math.min(MAX_RETRY_TIMEOUT_MS, first * 2);
  if (timeoutMs <= first) return results;
  ports.signal?.throwIfAborted();
  ports.onProgress?.(
    `run ${i + 1}${label} stopped at the time limit (${Math.round(first / 1000)} s), as a hang would: once more alone with ${Math.round(timeoutMs / 1000)} s to confirm it`,
  );
  const again = await ports.sandbox.run({ ...request, limits: { ...request.limits, timeoutMs } });
  if (again.stoppedBy === "timeout") return results;
  const out = [...results];
  out[i] = again;
  return rerunTimedOut(ports, request, out, label);
}

/** The longest a repeated run may take (`repro.runTimeoutMs`'s own maximum). */
const MAX_RETRY_TIMEOUT_MS = 600_000;

/**
 * Runs stopped at the time limit, each once more on its own with twice the time. The repeats of a configuration
 * run side by side, and on a busy host (or with a heavy package: mathjs's import took 20-60 s at load 30 on 2
 * cores) three parallel imports can all pass the limit where one alone finishes: the machine's doing, not the
 * reporter's code. A run that still stops at the doubled limit keeps its timeout (the verdict then asks how long
 * the code takes); one that finishes replaces it. Sequential, so the repeats no longer compete with each other.
 */
async function rerunTimedOut(
  ports: ReproPorts,
  request: Parameters<ReproPorts["sandbox"]["run"]>[0],
  results: SandboxRunResult[],
  label: string,
): Promise<SandboxRunResult[]> {
  const out = [...results];
  const first = request.limits?.timeoutMs ?? 10_000;
  const timeoutMs = Math.min(MAX_RETRY_TIMEOUT_MS, first * 2);
  if (timeoutMs <= first) return out;
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.stoppedBy !== "timeout") continue;
    ports.signal?.throwIfAborted();
    ports.onProgress?.(
      `run ${i + 1}${label} stopped at the time limit (${Math.round(first / 1000)} s) beside the other runs: once more alone with ${Math.round(timeoutMs / 1000)} s`,
    );
    out[i] = await ports.sandbox.run({ ...request, limits: { ...request.limits, timeoutMs } });
  }
  return out;
}
