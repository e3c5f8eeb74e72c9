/**
 * The throwaway install container: the sandbox image, the unprivileged sandbox user, no network (its one way
 * out is the egress proxy's socket, mounted read-only), a read-only root with size-capped `noexec` tmpfs for
 * `/tmp` and the output directory `/out`, memory/pids/CPU/nofile limits, one wall-clock deadline for the whole
 * install, capped output, and no host environment at all (only the variables the installer sets). It is
 * force-removed when the install ends — which is also how every process in it (npm, git, pip) is killed on
 * failure, timeout or cancel. Files go in and out as tar streams; what comes out is checked by
 * `extractChecked` before anything on the host uses it.
 */
import os from "node:os";
import { PassThrough } from "node:stream";
import type Docker from "dockerode";
import tarStream from "tar-stream";
import { CancelledError, InfrastructureError } from "../core/errors.ts";
import {
  CappedSink,
  DEFAULT_SANDBOX_IMAGE,
  resourceLimits,
  waitForExec,
  withTimeout,
} from "../sandbox/docker.ts";
import { connectDocker, pingEngine, requireImage } from "../sandbox/engine.ts";
import { RETRACE_LABEL } from "../sandbox/reaper.ts";
import { type ExtractLimits, type ExtractResult, extractChecked } from "./extract.ts";
import { installTimedOut } from "./install-errors.ts";
import {
  CONTAINER_PROXY_DIR,
  CONTAINER_PROXY_URL,
  type EgressProxy,
  FORWARDER_READY,
  FORWARDER_SCRIPT,
} from "./proxy.ts";

const SANDBOX_USER = "10001:10001";
/** The install's working and output directory (tmpfs). */
export const OUT_DIR = "/out";

export interface InstallLimits {
  /** Wall-clock limit of the whole install (all its steps), in ms. */
  timeoutMs: number;
  /** The setting that raises `timeoutMs` (`install.timeoutMs in .github/retrace.yml`), named when it is reached. */
  timeoutSetting?: string;
  memoryMb: number;
  cpus: number;
  pids: number;
  nofile: number;
  /** Size of the `/out` tmpfs (the install's disk), in MiB. */
  outMb: number;
  /** Size of the `/tmp` tmpfs (package manager caches), in MiB. */
  tmpMb: number;
  /** Cap on each of stdout and stderr of one step, in bytes. */
  outputBytes: number;
  /** Most files the installed tree may hold. */
  maxFiles: number;
  /** Most bytes the installed tree may hold, in MiB. */
  maxOutputMb: number;
}

export const DEFAULT_INSTALL_LIMITS: InstallLimits = {
  timeoutMs: 300_000,
  memoryMb: 3_072,
  cpus: 2,
  pids: 512,
  nofile: 8_192,
  outMb: 1_024,
  tmpMb: 1_024,
  outputBytes: 1024 * 1024,
  maxFiles: 200_000,
  maxOutputMb: 1_024,
};

/**
 * A step's command as an error names it: the program and its flags (`npm ci --ignore-scripts`), not the inline
 * scripts of `sh -c` nor long argument lists.
 */
export function stepName(cmd: readonly string[]): string {
  const shown = cmd[0] === "sh" && cmd[1] === "-c" ? ["sh -c …"] : cmd.slice(0, 6);
  const line = shown.join(" ");
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

export function extractLimits(limits: InstallLimits): ExtractLimits {
  return { maxFiles: limits.maxFiles, maxBytes: limits.maxOutputMb * 1024 * 1024 };
}

/** The whole environment of every step: nothing from the host. */
export function installEnv(extra: Record<string, string> = {}): string[] {
  const env: Record<string, string> = {
    HOME: "/tmp/home",
    PATH: "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    HTTP_PROXY: CONTAINER_PROXY_URL,
    HTTPS_PROXY: CONTAINER_PROXY_URL,
    http_proxy: CONTAINER_PROXY_URL,
    https_proxy: CONTAINER_PROXY_URL,
    ...extra,
  };
  return Object.entries(env).map(([k, v]) => `${k}=${v}`);
}

export interface StepResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why the step was stopped, if it was. */
  stoppedBy: "timeout" | "cancelled" | "output_limit" | null;
}

export interface InstallContainerOptions {
  docker?: Docker;
  /** Default: $RETRACE_SANDBOX_IMAGE or retrace-sandbox:1 (the operator's image, never a repository's). */
  image?: string;
  limits: InstallLimits;
  proxy: EgressProxy;
  /** Host directories mounted read-only at the same path (local pip mirrors of the operator's config). */
  readOnlyDirs?: readonly string[];
  /** Label of the job, for the reaper. */
  jobId: string;
  signal?: AbortSignal;
}

/**
 * How long the install container may take to start and have its forwarder listen. Not part of the install's own
 * time limit (`limits.timeoutMs`, which starts once the forwarder listens): on a loaded engine start-up alone
 * took several seconds, and a 6 s install limit then ended as "the forwarder did not start" instead of naming the
 * install's limit.
 */
export const INSTALL_STARTUP_MS = 60_000;

export class InstallContainer {
  private stopped: "timeout" | "cancelled" | null = null;
  /** The command of the step under way (`exec`), for naming the step a time limit stopped. */
  private current: string | null = null;
  private stoppedIn: string | null = null;
  private timer: NodeJS.Timeout;
  private readonly onAbort: () => void;

  private constructor(
    private readonly docker: Docker,
    private readonly container: Docker.Container,
    readonly limits: InstallLimits,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.timer = setTimeout(() => this.halt("timeout"), INSTALL_STARTUP_MS);
    this.onAbort = () => this.halt("cancelled");
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  static async open(options: InstallContainerOptions): Promise<InstallContainer> {
    if (options.signal?.aborted) throw new CancelledError("the install was cancelled before it started");
    const docker = options.docker ?? connectDocker();
    const image = options.image ?? process.env.RETRACE_SANDBOX_IMAGE ?? DEFAULT_SANDBOX_IMAGE;
    await pingEngine(docker);
    await requireImage(docker, image);
    const l = options.limits;
    const container = await docker.createContainer({
      Image: image,
      Cmd: ["node", "-e", FORWARDER_SCRIPT],
      User: SANDBOX_USER,
      WorkingDir: OUT_DIR,
      Env: [],
      Labels: {
        [RETRACE_LABEL]: "1",
        "dev.retrace.job": `install-${options.jobId}`.slice(0, 128),
        "dev.retrace.owner": `${os.hostname()}:${process.pid}`,
        "dev.retrace.deadline": String(Date.now() + l.timeoutMs + 5 * 60_000),
      },
      NetworkDisabled: true,
      HostConfig: {
        NetworkMode: "none",
        CapDrop: ["ALL"],
        SecurityOpt: ["no-new-privileges"],
        ReadonlyRootfs: true,
        Binds: [
          `${options.proxy.socketDir}:${CONTAINER_PROXY_DIR}:ro`,
          ...(options.readOnlyDirs ?? []).map((d) => `${d}:${d}:ro`),
        ],
        Tmpfs: {
          "/tmp": `rw,noexec,nosuid,nodev,size=${l.tmpMb}m,mode=1777`,
          [OUT_DIR]: `rw,noexec,nosuid,nodev,size=${l.outMb}m,uid=10001,gid=10001,mode=0755`,
        },
        ...resourceLimits({ ...l, fileSizeMb: l.maxOutputMb }),
        Init: true,
        Privileged: false,
        IpcMode: "private",
        LogConfig: { Type: "none", Config: {} },
      },
    });
    const session = new InstallContainer(docker, container, l, options.signal);
    try {
      await container.start();
    } catch (error) {
      await session.close();
      throw new InfrastructureError(
        `could not start the install container: ${(error as Error).message}`,
        "check the Docker engine (`docker info`) and the sandbox image",
        error,
      );
    }
    // The forwarder is the container's main process: wait until it listens (up to INSTALL_STARTUP_MS).
    const ready = await session.exec(
      [
        "sh",
        "-c",
        `i=0; while [ ! -e ${FORWARDER_READY} ]; do i=$((i+1)); [ $i -gt 1000 ] && exit 1; sleep 0.05; done`,
      ],
      { waitMs: INSTALL_STARTUP_MS + 10_000 },
    );
    if (ready.exitCode !== 0) {
      const why = ready.stoppedBy ?? `exit code ${ready.exitCode}`;
      await session.close();
      if (ready.stoppedBy === "timeout")
        throw new InfrastructureError(
          `the install container did not start within ${INSTALL_STARTUP_MS / 1000} s, the limit of its start-up (its registry forwarder never listened): the host's doing, not the packages'`,
          "run again when the machine is less loaded; check the Docker engine (`docker info`) if it keeps happening",
        );
      throw new InfrastructureError(
        `the install container's registry forwarder did not start listening (${why})`,
        "check the Docker engine (`docker info`) and that the sandbox image runs node",
      );
    }
    session.startClock();
    return session;
  }

  /** Starts the install's own time limit, in place of the start-up bound. */
  private startClock(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => this.halt("timeout"), this.limits.timeoutMs);
  }

  /** Why the install was stopped (deadline or cancel), if it was. */
  get stoppedBy(): "timeout" | "cancelled" | null {
    return this.stopped;
  }

  /** The step (its command line) that was under way when the install was stopped; null between steps. */
  get stoppedDuring(): string | null {
    return this.stoppedIn;
  }

  private halt(reason: "timeout" | "cancelled"): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.stoppedIn = this.current;
    // Killing the container kills every process in it: npm, its git children, pip.
    void withTimeout(this.container.kill({ signal: "SIGKILL" }), 5_000).catch(() => undefined);
  }

  /** Runs one step as the sandbox user; `stdin`, when given, is written and closed. */
  async exec(
    cmd: string[],
    options: {
      env?: Record<string, string>;
      workdir?: string;
      stdin?: Buffer | NodeJS.ReadableStream;
      /** How long to wait for the step past the session's own stop (default: the install's limit + 10 s). */
      waitMs?: number;
    } = {},
  ): Promise<StepResult> {
    if (this.stopped) return { exitCode: null, stdout: "", stderr: "", stoppedBy: this.stopped };
    this.current = stepName(cmd);
    const exec = await this.container.exec({
      Cmd: cmd,
      User: SANDBOX_USER,
      WorkingDir: options.workdir ?? OUT_DIR,
      Env: installEnv(options.env),
      AttachStdin: options.stdin !== undefined,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: options.stdin !== undefined });
    const out = new CappedSink(this.limits.outputBytes);
    const err = new CappedSink(this.limits.outputBytes);
    let overflow = false;
    out.onOverflow = () => {
      overflow = true;
      this.halt("timeout");
    };
    err.onOverflow = out.onOverflow;
    this.docker.modem.demuxStream(stream, out, err);
    if (options.stdin !== undefined) {
      if (Buffer.isBuffer(options.stdin)) stream.end(options.stdin);
      else options.stdin.pipe(stream);
    }
    await waitForExec(
      exec,
      stream,
      options.waitMs ?? this.limits.timeoutMs + 10_000,
      () => this.stopped !== null,
    );
    const info = await exec.inspect().catch(() => null);
    this.current = null;
    const stoppedBy = overflow ? "output_limit" : this.stopped;
    return {
      exitCode: stoppedBy ? null : (info?.ExitCode ?? null),
      stdout: out.text(),
      stderr: err.text(),
      stoppedBy,
    };
  }

  /**
   * Whether the install filled its disk (`/out`, less than 1 MiB left). npm's tar extraction only warns on
   * ENOSPC and exits 0 with truncated files, so a full disk is checked after every install step, never trusted.
   */
  async diskFull(): Promise<boolean> {
    const r = await this.exec(["df", "-Pk", OUT_DIR]);
    const line = r.stdout.trim().split("\n").pop() ?? "";
    const available = Number(line.split(/\s+/)[3]);
    return r.exitCode !== 0 || !Number.isFinite(available) || available < 1024;
  }

  /** Writes `files` (relative paths) under `dir` in the container. */
  async copyIn(dir: string, files: Record<string, string | Buffer>): Promise<void> {
    const pack = tarStream.pack();
    for (const [name, content] of Object.entries(files)) {
      pack.entry({ name, mode: 0o644, uid: 10001, gid: 10001 }, content);
    }
    pack.finalize();
    const r = await this.exec(["tar", "-x", "--no-same-owner", "-f", "-", "-C", dir], {
      stdin: pack as unknown as NodeJS.ReadableStream,
    });
    if (r.stoppedBy === "timeout" || this.stopped === "timeout")
      throw installTimedOut("copying files into the install container", this.limits);
    if (r.exitCode !== 0) {
      throw new InfrastructureError(
        `could not copy files into the install container: ${r.stderr.trim() || r.stoppedBy || `tar exited ${r.exitCode}`}`,
      );
    }
  }

  /** Copies the contents of `rel` (a directory under /out) to the host directory `dest` (created), checked. */
  async copyOut(rel: string, dest: string, limits: ExtractLimits): Promise<ExtractResult> {
    this.current = `copying ${rel} out of the install container`;
    const exec = await this.container.exec({
      Cmd: ["tar", "-c", "-f", "-", "-C", `${OUT_DIR}/${rel}`, "."],
      User: SANDBOX_USER,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const tarOut = new PassThrough();
    const err = new CappedSink(64 * 1024);
    this.docker.modem.demuxStream(stream, tarOut, err);
    stream.on("end", () => tarOut.end());
    stream.on("close", () => tarOut.end());
    let result: ExtractResult;
    try {
      result = await extractChecked(tarOut, dest, limits);
    } finally {
      (stream as unknown as { destroy?: () => void }).destroy?.();
    }
    const info = await exec.inspect().catch(() => null);
    this.current = null;
    if (this.stopped || info?.ExitCode !== 0) {
      throw new InfrastructureError(
        `could not copy ${rel} out of the install container: ${this.stopped ?? (err.text().trim() || `tar exited ${info?.ExitCode}`)}`,
      );
    }
    return result;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this.onAbort);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await withTimeout(this.container.remove({ force: true, v: true }), 15_000);
        return;
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return;
      }
    }
  }
}
