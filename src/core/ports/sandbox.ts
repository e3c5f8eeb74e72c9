/**
 * The Sandbox port: run one command in a fresh, isolated environment.
 * Core code (repro, fix) takes a `Sandbox` as a parameter and never imports a driver.
 */
import { DEFAULT_HOST_LIMITS, hostLimits } from "../host-limits.ts";

/** Resource limits of one run. All are enforced by the driver; invalid values are rejected before a run starts. */
export interface SandboxLimits {
  /** Wall-clock limit; then stop, then SIGKILL, then force-remove. */
  timeoutMs: number;
  /** Memory limit in MiB (swap is set equal to it: no swap beyond memory). */
  memoryMb: number;
  /** CPU limit in cores (fractions allowed). */
  cpus: number;
  /** Maximum number of processes/threads. */
  pids: number;
  /** Cap on each of stdout and stderr, in bytes; exceeding it kills the run (`output_limit`). */
  outputBytes: number;
  /** Largest file a process may write, in MiB (`fsize` ulimit). */
  fileSizeMb: number;
  /** Open file descriptors (`nofile` ulimit). */
  nofile: number;
  /** Size of the `/tmp` tmpfs in MiB. */
  tmpMb: number;
  /** Size of the `/workspace` tmpfs in MiB (the only writable place besides /tmp). */
  workspaceMb: number;
}

/** The input file tree: a host directory copied per job, and/or files given inline (inline files win). */
export interface SandboxInput {
  /** A host directory whose *copy* becomes the workspace. The caller's directory is never mounted or changed. */
  dir?: string;
  /** Files to place in the workspace, keyed by relative POSIX path. */
  files?: Record<string, string | Uint8Array>;
  /** Workspace-relative paths removed after `dir` is copied (a patch that deletes files). */
  remove?: string[];
  /** Inline `files` written executable (0755; git mode 100755), as the patch leaves them; others are 0644. */
  executable?: string[];
  /**
   * Host directories whose listed entries are copied into the workspace after `dir` (e.g. a `node_modules`
   * installed on the host from the repository's lockfile). Each is packed with the host's `tar -c -C hostDir`;
   * symlinks stay links. Neither `dir` nor `hostDir` is changed.
   */
  extraDirs?: ExtraDir[];
}

/** A host directory and the entries of it (relative paths) to copy into the workspace at the same paths. */
export interface ExtraDir {
  /** Absolute host directory. */
  hostDir: string;
  /** Relative POSIX paths inside `hostDir` (files or directories), copied to the same workspace paths. */
  paths: string[];
  /**
   * The driver may mount `hostDir`'s paths read-only instead of copying them, where it can (a local engine): a
   * directory Retrace wrote and checked itself and that no run may change (the dependency cache), never one a
   * caller supplied. What a run sees is the same tree; a run that meets the read-only mount is run again on a copy.
   */
  mountable?: boolean;
}

export interface SandboxRunRequest {
  /** The job this run belongs to: containers are labelled with it, and the reaper can find them. */
  jobId: string;
  /** argv of the command; no shell is implied (use ["sh", "-c", "..."] to get one). */
  command: string[];
  input?: SandboxInput;
  /** The complete environment of the command. Nothing from the host leaks in. */
  env?: Record<string, string>;
  /** Working directory relative to the workspace root (default: the root). */
  workdir?: string;
  /** Data written to the command's stdin, then closed. Without it stdin is empty (EOF at once). */
  stdin?: string;
  /** Overrides of the driver's default limits. */
  limits?: Partial<SandboxLimits>;
  /** Aborting kills the run at once; the result then has `stoppedBy: "killed"`. */
  signal?: AbortSignal;
  /** Workspace-relative paths (files or directories) to bring back after the run. */
  collect?: string[];
  /**
   * The collected paths name files (a test report): a directory left there comes back as nothing, not its contents
   * (a run left 20,000 files where its report belonged, all read onto the host: twenty-first red team).
   */
  collectFilesOnly?: boolean;
  /** Image to run in (default: the driver's configured image). */
  image?: string;
  /**
   * The environment's host name (lower-case letters, digits and hyphens, starting with a letter; at most 63). By
   * default the driver's own (Docker: the container id's first 12 hex digits). The anti-gaming run sets another.
   */
  hostname?: string;
}

/** A host name a sandbox may be given (one DNS label). */
export const SANDBOX_HOSTNAME = /^[a-z][a-z0-9-]{0,62}$/;

/** Why the sandbox, rather than the command, ended the run. */
export type StopReason = "timeout" | "output_limit" | "memory_limit" | "killed";

/**
 * What the host reads back from a run, at most: a test report (the one thing collected today) is parsed on the
 * host, so its size is a host-memory question, not a workspace one. A run's code writes it and can make it as
 * large as the workspace (gigabytes with a repository's `sandbox.limits`); past this cap nothing more is kept.
 */
export const MAX_COLLECT_BYTES = DEFAULT_HOST_LIMITS.collectMb * 1024 * 1024;
/** The cap in force: the operator's (`RETRACE_HOST_LIMITS` collectMb), MAX_COLLECT_BYTES by default. */
export function maxCollectMib(): number {
  return hostLimits().collectMb;
}

export interface SandboxRunResult {
  /** Exit code of the command; null when it did not exit by itself. */
  exitCode: number | null;
  /** Signal that ended the command (e.g. "SIGKILL"), when known. */
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  durationMs: number;
  /**
   * CPU time the container had used when the time limit stopped it (one reading of its cgroup through the engine,
   * taken before the stop); absent when the run was not stopped for time or the engine did not answer.
   */
  cpuMs?: number;
  /** Collected files, keyed by workspace-relative path. Symlinks are never followed. */
  files: Record<string, Uint8Array>;
  /** Collected paths not brought back because they pass the host's cap on what a run returns (MAX_COLLECT_BYTES). */
  collectTooLarge?: string[];
  /** Set when the sandbox stopped the run; null when the command ended on its own. */
  stoppedBy: StopReason | null;
  /** The memory limit the run had, in MiB (what `memory_limit` refers to), when the driver knows it. */
  memoryMb?: number;
}

/** The shape of runs to make ready ahead of time: their job, image, limits and the input tree every one of them starts from. */
export interface SandboxPrepareRequest {
  jobId: string;
  /** The tree each run starts from (`dir` and `extraDirs`; a run's own `files` and `remove` come on top of it). */
  input: Pick<SandboxInput, "dir" | "extraDirs">;
  limits?: Partial<SandboxLimits>;
  image?: string;
  /** The runs' host name (SandboxRunRequest.hostname): a run takes a ready environment only with the same one. */
  hostname?: string;
}

export interface Sandbox {
  run(request: SandboxRunRequest): Promise<SandboxRunResult>;
  /**
   * Optional: make up to `count` runs of this shape ready while other work goes on (an environment made and the
   * input tree copied in; no command runs). A later `run` whose job, image, container limits, `dir` and
   * `extraDirs` are the same takes one and copies only its own `files` and `remove`; any other run is made as
   * usual. What is made ready and not taken is removed by `release`.
   */
  prepare?(request: SandboxPrepareRequest, count: number): void;
  /** Optional: removes what `prepare` made for `jobId` and no run took. */
  release?(jobId: string): Promise<void>;
}

/** One timed step of the driver: `wait-ready` is the wait for a container `prepare` is still making. */
export interface SandboxStep {
  jobId: string;
  /** `run` for a run's own steps, `prepare` for making a container ready. */
  of: "run" | "prepare";
  step: "wait-ready" | "pack" | "create" | "start" | "copy-in" | "exec" | "collect" | "remove";
  ms: number;
  /** When the step ended (Date.now()). */
  at: number;
}
