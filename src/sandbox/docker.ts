/**
 * The Docker driver of the Sandbox port: one fresh, locked-down container per run.
 *
 * Life of a run: create (no network, no capabilities, read-only root, tmpfs /tmp and /workspace, limits) →
 * start a keeper process → stream the input tree in with `tar -x` → exec the command under `env -i` so it
 * sees only the caller's environment → collect files with `tar -c` → inspect (OOM?) → force-remove in
 * `finally`. The workspace is a tmpfs rather than a bind mount so a disk-fill stays inside the memory limit
 * and never reaches the host (docs/sandbox.md has the measurements behind this choice).
 */
import { isPlainJobId } from "../core/job.ts";
import { readdir, readlink, realpath, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough, type Readable, Writable } from "node:stream";
import type Docker from "dockerode";
import { CancelledError, InfrastructureError, RetraceError } from "../core/errors.ts";
import { connectDocker, pingEngine, requireImage } from "./engine.ts";
import { DEFAULT_LIMITS, operatorMaxLimits, resolveLimits } from "./limits.ts";
import { reapContainers, RETRACE_LABEL, type ReapResult } from "./reaper.ts";
import {
  type Entry,
  isEmptyInput,
  packInput,
  prepareInput,
  safeRelativePath,
  unpackCollected,
} from "./tree.ts";
import {
  maxCollectMib,
  SANDBOX_HOSTNAME,
  type Sandbox,
  type ExtraDir,
  type SandboxInput,
  type SandboxLimits,
  type SandboxPrepareRequest,
  type SandboxRunRequest,
  type SandboxRunResult,
  type SandboxStep,
  type StopReason,
} from "../core/ports/sandbox.ts";

/** What tar in the sandbox prints when the workspace is full (see the copy-in). */
const NO_SPACE = /No space left|Wrote only \d+ of \d+ bytes/i;

export const DEFAULT_SANDBOX_IMAGE = "retrace-sandbox:1";
/** The unprivileged user baked into the sandbox image. */
const SANDBOX_USER = "10001:10001";
const STDIN_FILE = ".retrace-stdin";
/** Where read-only mounts of extra directories sit in a container: outside the workspace (see mountPlan). */
const MOUNT_ROOT = "/deps";
/** Most links into one mounted directory; a larger one is copied. */
const MAX_MOUNT_LINKS = 20_000;
/** What a run prints when it wrote into a read-only mount: it is run again on a copy. */
const READ_ONLY_FAILURE = /\bEROFS\b|read-only file system/i;
/** A mounted directory's entry linked into the workspace: a plain name, as package managers write them. */
const LINKABLE_NAME = /^[\w@.+~-][\w@.+~ -]*$/;

export interface DockerSandboxOptions {
  /** Image runs use unless a request names another. Default: $RETRACE_SANDBOX_IMAGE or retrace-sandbox:1. */
  image?: string;
  docker?: Docker;
  /** Default limits of every run (validated). */
  defaults?: Partial<SandboxLimits>;
  /**
   * The host's maxima: every run's limits (defaults and request) are lowered to them. Default: the operator's
   * RETRACE_SANDBOX_MAX_LIMITS over MAX_LIMITS (src/sandbox/limits.ts).
   */
  maxLimits?: SandboxLimits;
  /** How long `docker stop` may take before SIGKILL (ms). */
  stopGraceMs?: number;
  /**
   * Called with the time each step of a run (or of making a container ready) took: where a verification's
   * wall time goes (`retrace verify --timings`). Never changes what runs.
   */
  onStep?: (step: SandboxStep) => void;
  /**
   * Mount `mountable` extra directories read-only instead of copying them into every container (docs/sandbox.md,
   * "Dependencies mounted read-only"). Default: when the engine is on this host's socket and
   * RETRACE_SANDBOX_MOUNTS is not `0` — a remote engine cannot see this host's directories.
   */
  mountExtraDirs?: boolean;
}

export class DockerSandbox implements Sandbox {
  readonly image: string;
  readonly docker: Docker;
  readonly defaults: SandboxLimits;
  readonly maxLimits: SandboxLimits;
  private readonly stopGraceMs: number;
  private readonly onStep: ((step: SandboxStep) => void) | undefined;
  /** Images checked to exist, with the paths their VOLUME instructions declare. */
  private readonly checkedImages = new Map<string, string[]>();
  private engineChecked = false;
  private startupReap: Promise<unknown> | undefined;
  private readonly mountExtraDirs: boolean;
  /** Host directories not mounted any more: a run on the mount met it read-only, or the mount failed. */
  private readonly copyOnly = new Set<string>();

  constructor(options: DockerSandboxOptions = {}) {
    this.image = options.image ?? process.env.RETRACE_SANDBOX_IMAGE ?? DEFAULT_SANDBOX_IMAGE;
    this.docker = options.docker ?? connectDocker();
    this.maxLimits = options.maxLimits ?? operatorMaxLimits();
    this.defaults = resolveLimits(DEFAULT_LIMITS, options.defaults, this.maxLimits);
    this.stopGraceMs = options.stopGraceMs ?? 1_000;
    this.onStep = options.onStep;
    this.mountExtraDirs =
      options.mountExtraDirs ?? (process.env.RETRACE_SANDBOX_MOUNTS !== "0" && engineOnThisHost(this.docker));
  }

  /** `work`, timed as `step` of a run or a ready container when an onStep hook listens. */
  private async timed<T>(
    jobId: string,
    of: SandboxStep["of"],
    step: SandboxStep["step"],
    work: () => Promise<T>,
  ): Promise<T> {
    if (!this.onStep) return work();
    const t0 = Date.now();
    try {
      return await work();
    } finally {
      const at = Date.now();
      this.onStep({ jobId, of, step, ms: at - t0, at });
    }
  }

  /** Remove leftover Retrace containers (past their deadline, or owned by a dead process on this host). */
  async reap(): Promise<ReapResult> {
    // An unreachable engine is an infrastructure error with a hint, not a bare socket error.
    await pingEngine(this.docker);
    return reapContainers(this.docker);
  }

  /** Reap now and then every `intervalMs`; returns a function that stops the timer. */
  startReaper(intervalMs = 60_000): () => void {
    const timer = setInterval(() => void this.reap().catch(() => undefined), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  async run(request: SandboxRunRequest): Promise<SandboxRunResult> {
    const limits = resolveLimits(this.defaults, request.limits, this.maxLimits);
    validateRequest(request);
    if (request.signal?.aborted) throw new CancelledError("the sandbox run was cancelled before it started");
    const plan = this.willMount(request.input) ? await this.mountPlan(request.input!) : null;
    if (plan === null) return this.runOnce(request, limits, null);
    try {
      const result = await this.runOnce(request, limits, plan);
      // The tree is the same either way, except that the mounted part cannot be written: a run that met that
      // (a tool writing into a package's own directory) is run again on a copy, and so is every later run of
      // these directories — the read-only mount is Retrace's choice, never a reason for a verdict.
      if (!READ_ONLY_FAILURE.test(result.stdout) && !READ_ONLY_FAILURE.test(result.stderr)) return result;
    } catch (error) {
      if (error instanceof CancelledError || request.signal?.aborted) throw error;
      // The engine could not mount them (one that does not see this host's files) or the mount was not there:
      // copied instead, as without mounts.
    }
    for (const d of plan.mounted) this.copyOnly.add(d.hostDir);
    return this.runOnce(request, limits, null);
  }

  /** Whether `input` has directories to mount (the plan may still decide to copy them). */
  private willMount(input: Pick<SandboxInput, "extraDirs"> | undefined): boolean {
    return (
      this.mountExtraDirs &&
      (input?.extraDirs ?? []).some((d) => d.mountable && !this.copyOnly.has(d.hostDir))
    );
  }

  /**
   * How to mount `input`'s mountable directories: each path of one bind-mounted read-only under
   * /deps/<n>/<path>, and the workspace given links to it — a `node_modules` becomes a real, writable
   * directory of links to each of its entries (tools write their caches into node_modules/.vite, .cache, …), any
   * other path one link. Null, with the directories copied from then on, when one cannot be mounted as it is: a
   * path that is not itself (a symlink on the way), an entry name that is not a plain name, too many entries.
   */
  /** planOne's answer per directory and place, kept: a mountable directory (an install cache entry) never changes,
   * and a verification plans the same one for every run (a node_modules readdir, a Python user site walked). */
  private readonly plans = new Map<string, Promise<Awaited<ReturnType<typeof planOne>> | null>>();

  private planOneOnce(d: ExtraDir, root: string): Promise<Awaited<ReturnType<typeof planOne>> | null> {
    const key = JSON.stringify([d.hostDir, d.paths, root]);
    let plan = this.plans.get(key);
    if (!plan) {
      plan = planOne(d, root).catch(() => null);
      this.plans.set(key, plan);
      if (this.plans.size > 64) this.plans.delete(this.plans.keys().next().value!);
    }
    return plan;
  }

  private async mountPlan(input: SandboxInput): Promise<MountPlan | null> {
    const mounted: ExtraDir[] = [];
    const copied: ExtraDir[] = [];
    const mounts: Docker.MountSettings[] = [];
    const links = new Map<string, Entry>();
    const probes: string[] = [];
    const addDirs = (rel: string) => {
      const parts = rel.split("/");
      for (let i = 1; i <= parts.length; i++) {
        const dir = parts.slice(0, i).join("/");
        if (!links.has(dir)) links.set(dir, { name: dir, kind: "dir", mode: 0o755 });
      }
    };
    for (const d of input.extraDirs ?? []) {
      if (!d.mountable || this.copyOnly.has(d.hostDir)) {
        copied.push(d);
        continue;
      }
      const n = mounted.length;
      const plan = await this.planOneOnce(d, `${MOUNT_ROOT}/${n}`);
      if (plan === null) {
        this.copyOnly.add(d.hostDir);
        copied.push(d);
        continue;
      }
      mounted.push(d);
      for (const m of plan.mounts) mounts.push(m);
      for (const p of plan.probes) probes.push(p);
      for (const l of plan.links) {
        if (l.kind === "dir") addDirs(l.name);
        else {
          const parent = path.posix.dirname(l.name);
          if (parent !== ".") addDirs(parent);
          links.set(l.name, l);
        }
      }
    }
    if (mounted.length === 0) return null;
    return { mounted, input: { ...input, extraDirs: copied }, mounts, links: [...links.values()], probes };
  }

  private async runOnce(
    request: SandboxRunRequest,
    limits: SandboxLimits,
    plan: MountPlan | null,
  ): Promise<SandboxRunResult> {
    const image = request.image ?? this.image;
    const volumes = await this.ensureReady(image);
    // A container made ready for this shape of run (prepare) already holds `dir` and `extraDirs`: only the
    // run's own files and removals are copied in.
    const job = request.jobId;
    const ready = await this.timed(job, "run", "wait-ready", () =>
      this.takeReady(readyKey(request, image, limits, plan !== null)),
    );
    let input: Awaited<ReturnType<typeof prepareInput>>;
    try {
      input = await this.timed(job, "run", "pack", () =>
        prepareInput(ready ? withoutTree(request.input) : (plan?.input ?? request.input)),
      );
    } catch (error) {
      if (ready) await this.destroy(ready);
      throw error;
    }
    if (!ready && plan) input.inline.unshift(...plan.links);

    const started = Date.now();
    const container =
      ready ??
      (await this.timed(job, "run", "create", () =>
        this.docker.createContainer(
          containerSpec(request.jobId, image, limits, volumes, plan?.mounts, request.hostname),
        ),
      ));
    try {
      if (!ready) await this.timed(job, "run", "start", () => container.start());
      const stdinFile: Record<string, Uint8Array> =
        request.stdin === undefined ? {} : { [STDIN_FILE]: Buffer.from(request.stdin, "utf8") };
      if (!isEmptyInput(input) || request.stdin !== undefined) {
        const probes = !ready && plan ? plan.probes : [];
        await this.timed(job, "run", "copy-in", () =>
          this.copyIn(container, packInput(input, stdinFile), input.remove, limits, request.signal, probes),
        );
      }
      const outcome = await this.timed(job, "run", "exec", () =>
        this.execCommand(container, request, limits),
      );
      // A run that failed may have failed for the memory limit: the kernel's OOM killer picks the largest process,
      // often a runner's worker or a build under a shell, and the command then ends with its own exit code. The
      // memory cgroup's counter says; read beside the collection, so it costs no time on the run's path.
      const oom =
        outcome.stoppedBy === "killed" || (outcome.stoppedBy === null && outcome.exitCode !== 0)
          ? this.oomKilled(container)
          : Promise.resolve(false);
      let files: Record<string, Uint8Array> = {};
      let tooLarge: string[] = [];
      if (outcome.stoppedBy === null && request.collect && request.collect.length > 0) {
        const paths = request.collect;
        ({ files, tooLarge } = await this.timed(job, "run", "collect", () =>
          this.collect(container, paths, limits, request.collectFilesOnly === true),
        ));
      }
      let stoppedBy = outcome.stoppedBy;
      if (await oom) stoppedBy = "memory_limit";
      return {
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        stdoutTruncated: outcome.stdoutTruncated,
        stderrTruncated: outcome.stderrTruncated,
        durationMs: outcome.durationMs || Date.now() - started,
        files,
        ...(tooLarge.length > 0 ? { collectTooLarge: tooLarge } : {}),
        stoppedBy,
        ...(outcome.cpuMs === undefined ? {} : { cpuMs: outcome.cpuMs }),
        memoryMb: limits.memoryMb,
      };
    } finally {
      // A job that made its runs ready removes their containers off its critical path: `release` waits for them.
      if (ready) this.removeLater(request.jobId, container);
      else await this.timed(job, "run", "remove", () => this.destroy(container));
    }
  }

  /** Containers made ready by `prepare`, not yet taken, by the shape of run they are for (readyKey). */
  private readonly ready = new Map<
    string,
    { jobId: string; at: number; container: Promise<Docker.Container | null> }[]
  >();

  private readyChain: Promise<void> = Promise.resolve();

  prepare(request: SandboxPrepareRequest, count: number): void {
    let limits: SandboxLimits;
    try {
      limits = resolveLimits(this.defaults, request.limits, this.maxLimits);
    } catch {
      return; // the run itself will say what is wrong with its limits
    }
    const image = request.image ?? this.image;
    const mount = this.willMount(request.input);
    if (request.hostname !== undefined && !SANDBOX_HOSTNAME.test(request.hostname)) return; // the run will say so
    const key = readyKey(request, image, limits, mount);
    const list = this.ready.get(key) ?? [];
    this.ready.set(key, list);
    // One after another: the first is ready as soon as one alone can be (a run is usually waiting for it), the
    // rest are made while that run goes on.
    for (let i = 0; i < Math.min(count, MAX_READY); i++) {
      const container = this.readyChain.then(() =>
        this.makeReady(request, image, limits, mount).catch(() => null),
      );
      this.readyChain = container.then(() => undefined);
      list.push({ jobId: request.jobId, at: Date.now(), container });
    }
  }

  /** Removals of containers that ran a job's ready runs, by job: `release` waits for them. */
  private readonly removing = new Map<string, Promise<void>[]>();

  private removeLater(jobId: string, container: Docker.Container): void {
    const list = this.removing.get(jobId) ?? [];
    this.removing.set(jobId, list);
    list.push(this.timed(jobId, "run", "remove", () => this.destroy(container)));
  }

  async release(jobId: string): Promise<void> {
    const removals = this.removing.get(jobId) ?? [];
    this.removing.delete(jobId);
    const taken: Promise<Docker.Container | null>[] = [];
    for (const [key, list] of this.ready) {
      const keep = list.filter((e) => e.jobId !== jobId);
      for (const e of list) if (e.jobId === jobId) taken.push(e.container);
      if (keep.length === 0) this.ready.delete(key);
      else this.ready.set(key, keep);
    }
    await Promise.all([
      ...removals,
      ...taken.map(async (p) => {
        const c = await p;
        if (c) await this.destroy(c);
      }),
    ]);
  }

  /** A container made ready for runs of this key, or null (none, or it could not be made). */
  private async takeReady(key: string): Promise<Docker.Container | null> {
    const list = this.ready.get(key);
    if (!list) return null;
    while (list.length > 0) {
      const entry = list.shift()!;
      const container = await entry.container;
      if (container === null) continue;
      // Made long ago (its deadline label covers a run of the host's maximum time from when it was made ready):
      // not used.
      if (Date.now() - entry.at > this.maxLimits.timeoutMs) {
        await this.destroy(container);
        continue;
      }
      if (list.length === 0) this.ready.delete(key);
      return container;
    }
    this.ready.delete(key);
    return null;
  }

  /** A started container with `dir` and `extraDirs` copied in, labelled for the reaper like any run's. */
  private async makeReady(
    request: SandboxPrepareRequest,
    image: string,
    limits: SandboxLimits,
    mount: boolean,
  ): Promise<Docker.Container | null> {
    const volumes = await this.ensureReady(image);
    // Made for runs that mount: without a plan (the directories are copied from now on) no run of its key comes.
    const plan = mount ? await this.mountPlan(request.input) : null;
    if (mount && plan === null) return null;
    const tree = plan?.input ?? request.input;
    const input = await prepareInput({
      ...(tree.dir ? { dir: tree.dir } : {}),
      ...(tree.extraDirs ? { extraDirs: tree.extraDirs } : {}),
    });
    if (plan) input.inline.unshift(...plan.links);
    // Its deadline covers the wait before a run takes it and the run at the host's maximum time.
    const job = request.jobId;
    const container = await this.timed(job, "prepare", "create", () =>
      this.docker.createContainer(
        containerSpec(
          request.jobId,
          image,
          { ...limits, timeoutMs: 2 * this.maxLimits.timeoutMs },
          volumes,
          plan?.mounts,
          request.hostname,
        ),
      ),
    );
    try {
      await this.timed(job, "prepare", "start", () => container.start());
      if (!isEmptyInput(input))
        await this.timed(job, "prepare", "copy-in", () =>
          this.copyIn(container, packInput(input), [], limits, undefined, plan?.probes ?? []),
        );
      return container;
    } catch {
      await this.destroy(container);
      if (plan) for (const d of plan.mounted) this.copyOnly.add(d.hostDir);
      return null;
    }
  }

  /** Engine and image are there; returns the image's VOLUME paths. */
  private async ensureReady(image: string): Promise<string[]> {
    if (!this.engineChecked) {
      await pingEngine(this.docker);
      this.engineChecked = true;
      // Start-up reap: leftovers of a crashed earlier process. Not awaited by later runs.
      this.startupReap ??= this.reap().catch(() => undefined);
    }
    let volumes = this.checkedImages.get(image);
    if (volumes === undefined) {
      await requireImage(this.docker, image);
      volumes = imageVolumes(image, await this.docker.getImage(image).inspect());
      this.checkedImages.set(image, volumes);
    }
    return volumes;
  }

  private async copyIn(
    container: Docker.Container,
    tarStream: Readable,
    remove: string[],
    limits: SandboxLimits,
    signal: AbortSignal | undefined,
    probes: readonly string[] = [],
  ) {
    try {
      await this.copyInStream(container, tarStream, remove, limits, signal, probes);
    } finally {
      // Whatever happened (tar in the container failed, the copy timed out, the job was cancelled), the host's
      // tar children stop here: destroying the stream kills them (packInput), so none is left blocked on a pipe.
      tarStream.destroy();
    }
  }

  private async copyInStream(
    container: Docker.Container,
    tarStream: Readable,
    remove: string[],
    limits: SandboxLimits,
    signal: AbortSignal | undefined,
    probes: readonly string[],
  ) {
    // -i reads the concatenated archives of packInput; removals (a patch deleting files) come after. First, a
    // read-only mount must show what this host sees in it (an engine elsewhere would mount an empty or another
    // directory): each probe, an entry of a mounted directory, must exist, or the copy-in fails (and the run is
    // made again on a copy).
    const exec = await container.exec({
      Cmd: [
        "/bin/sh",
        "-c",
        'n=$1; shift; while [ "$n" -gt 0 ]; do [ -e "$1" ] || { echo "retrace: mount not seen: $1" >&2; exit 97; }; shift; n=$((n - 1)); done; tar -x -i --no-same-owner --no-overwrite-dir -f - -C /workspace && cd /workspace && rm -rf -- "$@"',
        "copy-in",
        String(probes.length),
        ...probes,
        ...remove,
      ],
      User: SANDBOX_USER,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: true });
    const err = new CappedSink(64 * 1024);
    const out = new CappedSink(64 * 1024);
    this.docker.modem.demuxStream(stream, out, err);
    let packError: unknown = null;
    tarStream.on("error", (error) => {
      // Packing failed on the host (an unreadable file, a tar error): stop the copy and report that.
      packError = error;
      (stream as unknown as { destroy: () => void }).destroy();
    });
    const onAbort = () => (stream as unknown as { destroy: () => void }).destroy();
    signal?.addEventListener("abort", onAbort, { once: true });
    tarStream.pipe(stream);
    try {
      await waitForExec(exec, stream, limits.timeoutMs);
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    if (signal?.aborted)
      throw new CancelledError("the sandbox run was cancelled while its input was copied in");
    if (packError) throw packError;
    const info = await exec.inspect();
    const message = err.text().trim();
    // A full workspace is the input's size, whether tar in the sandbox has ended yet or is still reading the rest of
    // the stream: said as such, with the limit to raise, before any reading of the clock. GNU tar says it either way:
    // `Cannot write: No space left on device`, or, for a write cut short, `Wrote only 3072 of 10240 bytes`.
    const noSpace = NO_SPACE.test(message);
    const unfinished = info.Running || info.ExitCode === null;
    if (unfinished) (stream as unknown as { destroy: () => void }).destroy();
    if (unfinished && !noSpace) {
      // The copy itself passed the run's limit (a loaded host, a limit of a second or two): the host's doing, named
      // with the limit to raise, never an error of the input.
      throw new InfrastructureError(
        `copying the input into the sandbox did not finish within the run's time limit (${limits.timeoutMs / 1000} s), so the command never started`,
        "raise the run's time limit (`--timeout SECONDS`), or run again when the machine is less loaded",
      );
    }
    if (noSpace || info.ExitCode !== 0) {
      throw new RetraceError(
        "sandbox",
        `could not copy the input tree into the sandbox: ${message || `tar exited ${info.ExitCode}`}`,
        {
          hint: noSpace
            ? `the input is larger than the workspace (${limits.workspaceMb} MiB): raise sandbox limits.workspaceMb`
            : "check the input tree (file names, sizes)",
        },
      );
    }
  }

  private async execCommand(container: Docker.Container, request: SandboxRunRequest, limits: SandboxLimits) {
    const envPairs = Object.entries(request.env ?? {}).map(([k, v]) => `${k}=${v}`);
    const argv = ["env", "-i", ...envPairs, ...request.command];
    const cmd =
      request.stdin === undefined
        ? argv
        : // Feed stdin from the copied file; the file is removed first so the command cannot read it back.
          ["/bin/sh", "-c", `exec 0<"$0" && rm -f "$0" && exec "$@"`, `/workspace/${STDIN_FILE}`, ...argv];
    const workdir = request.workdir ? `/workspace/${safeRelativePath(request.workdir)}` : "/workspace";
    const exec = await container.exec({
      Cmd: cmd,
      User: SANDBOX_USER,
      WorkingDir: workdir,
      AttachStdin: false,
      AttachStdout: true,
      AttachStderr: true,
    });
    const out = new CappedSink(limits.outputBytes);
    const err = new CappedSink(limits.outputBytes);
    const t0 = Date.now();
    const stream = await exec.start({ hijack: true, stdin: false });
    this.docker.modem.demuxStream(stream, out, err);

    let stoppedBy: StopReason | null = null;
    const stop = (reason: StopReason) => {
      if (stoppedBy !== null) return;
      stoppedBy = reason;
      void this.halt(container);
    };
    // At the time limit, one reading of the container's CPU time (its cgroup, through the engine) before the stop:
    // CPU ≈ wall is the program's own endless loop, CPU far below wall is a loaded host (match.ts `cpuBound`).
    let cpuMs: number | undefined;
    let ended = false;
    const timer = setTimeout(() => {
      void containerCpuMs(container)
        .then((ms) => {
          if (!ended) cpuMs = ms ?? undefined;
        })
        .finally(() => {
          if (!ended) stop("timeout");
        });
    }, limits.timeoutMs);
    const onAbort = () => stop("killed");
    request.signal?.addEventListener("abort", onAbort, { once: true });
    // An abort that fired while the container was being prepared has no event left to deliver.
    if (request.signal?.aborted) onAbort();
    out.onOverflow = () => stop("output_limit");
    err.onOverflow = () => stop("output_limit");
    try {
      await waitForExec(exec, stream, limits.timeoutMs + this.stopGraceMs + 10_000, () => stoppedBy !== null);
    } finally {
      ended = stoppedBy === null;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
    }
    const durationMs = Date.now() - t0;
    const info = await exec.inspect().catch(() => null);
    const exitCode = stoppedBy !== null ? null : (info?.ExitCode ?? null);
    const code = info?.ExitCode ?? null;
    const signal =
      stoppedBy !== null ? "SIGKILL" : code !== null && code > 128 ? signalName(code - 128) : null;
    return {
      exitCode,
      signal,
      stdout: out.text(),
      stderr: err.text(),
      stdoutTruncated: out.truncated,
      stderrTruncated: err.truncated,
      durationMs,
      stoppedBy: stoppedBy as StopReason | null,
      ...(stoppedBy === "timeout" && cpuMs !== undefined ? { cpuMs } : {}),
    };
  }

  private async collect(
    container: Docker.Container,
    paths: string[],
    limits: SandboxLimits,
    filesOnly: boolean,
  ) {
    // "." collects the whole workspace.
    const rel = paths.map((p) => (p === "." || p === "./" ? "." : safeRelativePath(p)));
    const exec = await container.exec({
      // Files only: a directory named there is archived as its own entry, without what it holds.
      Cmd: [
        "tar",
        "-c",
        "-f",
        "-",
        "--ignore-failed-read",
        ...(filesOnly ? ["--no-recursion"] : []),
        "-C",
        "/workspace",
        "--",
        ...rel,
      ],
      User: SANDBOX_USER,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    // The host's cap, not the workspace's: what comes back is read into the host's memory and parsed there.
    const cap = Math.min(limits.workspaceMb, maxCollectMib()) * 1024 * 1024;
    const tarOut = new PassThrough();
    // The demultiplexer writes whatever the socket gives, with no back-pressure: past the cap (and some room for
    // tar headers) nothing more is passed on and the exec's stream is closed, so a huge file is never buffered.
    let passed = 0;
    const guard = new Writable({
      write(chunk: Buffer, _enc, cb) {
        passed += chunk.length;
        if (passed <= cap + 1024 * 1024) tarOut.write(chunk);
        else stream.destroy();
        cb();
      },
    });
    this.docker.modem.demuxStream(stream, guard, new CappedSink(64 * 1024));
    stream.on("end", () => tarOut.end());
    stream.on("close", () => tarOut.end());
    // Past the cap unpackCollected destroys tarOut: the exec's stream goes with it (the container is removed next).
    tarOut.on("error", () => undefined);
    tarOut.on("close", () => stream.destroy());
    return unpackCollected(tarOut, cap);
  }

  /**
   * Did the kernel's OOM killer fire in this container? Docker flags `OOMKilled` only for the main process,
   * so read the memory cgroup's own counter (cgroup v2 `memory.events`, v1 `memory.oom_control`).
   */
  private async oomKilled(container: Docker.Container): Promise<boolean> {
    const state = await container.inspect().catch(() => null);
    if (state?.State.OOMKilled) return true;
    if (!state?.State.Running) return false;
    // The container may stop between the inspect and the exec (a halt for a time limit or an abort is under way,
    // and on a loaded engine it wins the race: "409 container is not running"): then the engine's flag decides.
    return this.readOomCounter(container).catch(async () => {
      const after = await container.inspect().catch(() => null);
      return after?.State.OOMKilled === true;
    });
  }

  private async readOomCounter(container: Docker.Container): Promise<boolean> {
    const exec = await container.exec({
      Cmd: [
        "sh",
        "-c",
        "cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null",
      ],
      User: SANDBOX_USER,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const out = new CappedSink(16 * 1024);
    this.docker.modem.demuxStream(stream, out, new CappedSink(1024));
    await waitForExec(exec, stream, 5_000);
    const match = /^oom_kill (\d+)$/m.exec(out.text());
    return match !== null && Number(match[1]) > 0;
  }

  /** Stop, then SIGKILL: each step bounded so a hung engine call cannot hang the run. */
  private async halt(container: Docker.Container): Promise<void> {
    await withTimeout(
      container.stop({ t: Math.ceil(this.stopGraceMs / 1000) }),
      this.stopGraceMs + 2_000,
    ).catch(() => undefined);
    await withTimeout(container.kill({ signal: "SIGKILL" }), 5_000).catch(() => undefined);
  }

  private async destroy(container: Docker.Container): Promise<void> {
    // Removal must happen whatever else failed; the reaper catches the rare container this misses.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await withTimeout(container.remove({ force: true, v: true }), 15_000);
        return;
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return;
      }
    }
  }
}

export function createDockerSandbox(options: DockerSandboxOptions = {}): DockerSandbox {
  return new DockerSandbox(options);
}

/**
 * The paths an image's VOLUME instructions declare. Docker would back each with an anonymous volume on the
 * host's disk, outside every cap of the run (a 1.2 GB write went through one); each gets a size-capped tmpfs
 * instead (containerSpec), charged to the memory limit like /workspace. A path a tmpfs cannot be mounted at
 * is refused.
 */
export function imageVolumes(image: string, info: { Config?: { Volumes?: unknown } | null }): string[] {
  const declared = info.Config?.Volumes;
  const paths = declared && typeof declared === "object" ? Object.keys(declared) : [];
  for (const p of paths) {
    if (!p.startsWith("/") || /^\/*$/.test(p) || /[,:\s]/.test(p) || p.split("/").includes("..")) {
      throw new RetraceError("sandbox", `sandbox image ${image} declares a VOLUME at ${JSON.stringify(p)}`, {
        hint: "build the image without that VOLUME instruction: a volume is written to the host's disk, outside the sandbox's size caps",
      });
    }
  }
  return paths.map((p) => p.replace(/\/+$/, "") || "/").filter((p) => p !== "/workspace" && p !== "/tmp");
}

/**
 * The engine's resource limits for a container Retrace starts (run and install containers alike): pids,
 * memory with no swap on top, CPUs, open files and the largest file a process may write.
 */
export function resourceLimits(l: {
  pids: number;
  memoryMb: number;
  cpus: number;
  nofile: number;
  fileSizeMb: number;
}): Pick<Docker.HostConfig, "PidsLimit" | "Memory" | "MemorySwap" | "NanoCpus" | "Ulimits"> {
  const memory = l.memoryMb * 1024 * 1024;
  const fsize = l.fileSizeMb * 1024 * 1024;
  return {
    PidsLimit: l.pids,
    Memory: memory,
    MemorySwap: memory,
    NanoCpus: Math.round(l.cpus * 1e9),
    Ulimits: [
      { Name: "nofile", Soft: l.nofile, Hard: l.nofile },
      { Name: "fsize", Soft: fsize, Hard: fsize },
    ],
  };
}

function containerSpec(
  jobId: string,
  image: string,
  limits: SandboxLimits,
  volumes: readonly string[] = [],
  mounts: readonly Docker.MountSettings[] = [],
  hostname?: string,
): Docker.ContainerCreateOptions {
  // A tmpfs over each declared volume: no anonymous volume on the host's disk, and the size of /tmp at most.
  const volumeTmpfs = Object.fromEntries(
    volumes.map((p) => [p, `rw,noexec,nosuid,nodev,size=${limits.tmpMb}m,uid=10001,gid=10001,mode=0755`]),
  );
  const deadline = Date.now() + limits.timeoutMs + 5 * 60_000;
  return {
    Image: image,
    // The engine's default host name (the container id's first 12 hex digits) unless the run asks for another.
    ...(hostname !== undefined ? { Hostname: hostname } : {}),
    Cmd: ["sleep", "infinity"],
    User: SANDBOX_USER,
    WorkingDir: "/workspace",
    Env: [],
    Labels: {
      [RETRACE_LABEL]: "1",
      "dev.retrace.job": jobId,
      "dev.retrace.owner": `${os.hostname()}:${process.pid}`,
      "dev.retrace.deadline": String(deadline),
    },
    // `NetworkMode: none` alone is the isolation: the container gets only a loopback interface. Docker's
    // `NetworkDisabled` on top of it also leaves /etc/hosts empty, so `localhost` stops resolving (vitest 4,
    // any test of a local server fail at start with EAI_AGAIN): loopback names are kept, egress is not.
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Tty: false,
    HostConfig: {
      NetworkMode: "none",
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      ReadonlyRootfs: true,
      ...(mounts.length > 0 ? { Mounts: [...mounts] } : {}),
      Tmpfs: {
        ...volumeTmpfs,
        "/tmp": `rw,noexec,nosuid,nodev,size=${limits.tmpMb}m,mode=1777`,
        "/workspace": `rw,exec,nosuid,nodev,size=${limits.workspaceMb}m,uid=10001,gid=10001,mode=0755`,
      },
      ...resourceLimits(limits),
      Init: true,
      AutoRemove: false,
      Privileged: false,
      IpcMode: "private",
      LogConfig: { Type: "none", Config: {} },
    },
  };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function validateRequest(request: SandboxRunRequest): void {
  const bad = (message: string) => new RetraceError("usage", `invalid sandbox request: ${message}`);
  if (!request.jobId || !isPlainJobId(request.jobId))
    throw bad(
      "jobId must be 1-128 characters of [A-Za-z0-9_.-], start with a letter or digit, and hold no '..' and no ending '.' or '.lock'",
    );
  if (request.command.length === 0 || request.command[0] === "") throw bad("command is empty");
  if (request.command[0]!.includes("=")) throw bad("the program name may not contain '='");
  for (const [k, v] of Object.entries(request.env ?? {})) {
    if (!ENV_NAME.test(k)) throw bad(`environment variable name ${JSON.stringify(k)} is not valid`);
    if (v.includes("\0")) throw bad(`environment variable ${k} contains a NUL byte`);
  }
  if (request.workdir !== undefined) safeRelativePath(request.workdir);
  if (request.hostname !== undefined && !SANDBOX_HOSTNAME.test(request.hostname))
    throw bad(`hostname ${JSON.stringify(request.hostname)} is not one lower-case DNS label`);
}

/** Wait until the exec's process has exited. The stream may stay open (a daemonized child holds the pipe), so
 * completion is read from `exec.inspect()`, polled, as well as from the stream's end. */
export async function waitForExec(
  exec: Docker.Exec,
  stream: NodeJS.ReadableStream,
  limitMs: number,
  stopped: () => boolean = () => false,
): Promise<void> {
  let ended = false;
  const onEnd = () => {
    ended = true;
  };
  stream.on("end", onEnd);
  stream.on("close", onEnd);
  stream.on("error", onEnd);
  const deadline = Date.now() + limitMs;
  let delay = 5;
  try {
    while (Date.now() < deadline) {
      if (ended) return;
      const info = await exec.inspect().catch(() => null);
      if (info && !info.Running && info.ExitCode !== null) {
        // Give buffered output a moment to drain, then stop waiting whatever holds the pipe open.
        await settle(() => ended, 200);
        return;
      }
      if (stopped() && (info === null || !info.Running)) return;
      await sleep(delay);
      delay = Math.min(delay * 2, 100);
    }
  } finally {
    (stream as unknown as { destroy?: () => void }).destroy?.();
  }
}

async function settle(done: () => boolean, maxMs: number): Promise<void> {
  const until = Date.now() + maxMs;
  while (!done() && Date.now() < until) await sleep(10);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The CPU time a container has used, in ms: one reading of its cgroup's counter through the engine's stats
 * (`one-shot`, no waiting for a second sample); null when the engine does not answer within 3 s.
 */
export async function containerCpuMs(container: Docker.Container): Promise<number | null> {
  try {
    const engine = container as unknown as { stats(options: object): Promise<unknown> };
    const stats = (await withTimeout(engine.stats({ stream: false, "one-shot": true }), 3_000)) as {
      cpu_stats?: { cpu_usage?: { total_usage?: number } };
    };
    const ns = stats.cpu_stats?.cpu_usage?.total_usage;
    return typeof ns === "number" && Number.isFinite(ns) && ns > 0 ? Math.round(ns / 1e6) : null;
  } catch {
    return null;
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Most containers one `prepare` makes ready. */
const MAX_READY = 8;

/**
 * What a container made ready must share with the run that takes it: the job, the image, the limits the
 * container is made with (memory, CPUs, processes, file limits, tmpfs sizes; the time and output limits belong
 * to the command), the input tree copied in beforehand and the host name.
 */
function readyKey(
  request: Pick<SandboxRunRequest, "jobId" | "input" | "hostname">,
  image: string,
  limits: SandboxLimits,
  mounted: boolean,
): string {
  const { memoryMb, cpus, pids, fileSizeMb, nofile, tmpMb, workspaceMb } = limits;
  const { jobId, input, hostname } = request;
  return JSON.stringify([
    jobId,
    image,
    [memoryMb, cpus, pids, fileSizeMb, nofile, tmpMb, workspaceMb],
    input?.dir ?? null,
    (input?.extraDirs ?? []).map((d) => [d.hostDir, d.paths]),
    mounted,
    hostname ?? null,
  ]);
}

interface MountPlan {
  /** The directories mounted (the others stay in `input.extraDirs`, copied). */
  mounted: ExtraDir[];
  input: SandboxInput;
  mounts: Docker.MountSettings[];
  /** Directories and links packed into the workspace before anything else. */
  links: Entry[];
  /** Container paths that must exist once the mounts are made. */
  probes: string[];
}

/** One directory's mounts, links and probes under `root`; throws when it cannot be mounted as it is. */
async function planOne(
  d: ExtraDir,
  root: string,
): Promise<{ mounts: Docker.MountSettings[]; links: Entry[]; probes: string[] }> {
  const hostRoot = await realpath(d.hostDir);
  const mounts: Docker.MountSettings[] = [];
  const links: Entry[] = [];
  const probes: string[] = [];
  for (const p of d.paths) {
    const rel = safeRelativePath(p);
    const source = path.join(hostRoot, rel);
    // The path must be itself: no symlink on the way could make the mount show something else.
    if ((await realpath(source)) !== source) throw new Error(`${source} is not a plain path`);
    const target = `${root}/${rel}`;
    mounts.push({ Type: "bind", Source: source, Target: target, ReadOnly: true });
    if ((await stat(source)).isDirectory()) {
      const leaf = /(^|\/)(node_modules|site-packages)$/.test(rel);
      await linkTree(source, rel, target, leaf, 0, links, probes);
    } else {
      links.push({ name: rel, kind: "symlink", mode: 0o777, target });
      probes.push(target);
    }
  }
  return { mounts, links, probes };
}

/**
 * `rel` as a real directory of the workspace whose entries link to `target`'s: directories down to a
 * `node_modules` or `site-packages` (at most 3 levels) are real too, and so are a node_modules's `@scope`
 * directories, so that what tools and Retrace's own runs write there (vitest's node_modules/.vite, the pytest
 * plug-in Retrace puts into the Python user site) lands in the workspace and never meets the read-only mount.
 * A link of the tree is copied as the link it is, as the copy would: a workspace package's relative link
 * (`node_modules/@ws/a -> ../../packages/a`) must reach the workspace, not the mount's parent.
 */
async function linkTree(
  source: string,
  rel: string,
  target: string,
  leaf: boolean,
  depth: number,
  links: Entry[],
  probes: string[],
): Promise<void> {
  links.push({ name: rel, kind: "dir", mode: 0o755 });
  const inNodeModules = path.posix.basename(rel) === "node_modules";
  const entries = (await readdir(source, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const name = e.name;
    if (!LINKABLE_NAME.test(name) || name === "." || name === "..") throw new Error(`entry ${name}`);
    if (links.length >= MAX_MOUNT_LINKS) throw new Error(`more than ${MAX_MOUNT_LINKS} entries`);
    const [from, to, at] = [path.join(source, name), `${rel}/${name}`, `${target}/${name}`];
    if (e.isSymbolicLink()) {
      links.push({ name: to, kind: "symlink", mode: 0o777, target: await readlink(from) });
    } else if (e.isDirectory() && !leaf) {
      const next = depth + 1 >= 3 || name === "node_modules" || name === "site-packages";
      await linkTree(from, to, at, next, depth + 1, links, probes);
    } else if (e.isDirectory() && inNodeModules && name.startsWith("@")) {
      await linkTree(from, to, at, true, depth + 1, links, probes);
    } else {
      links.push({ name: to, kind: "symlink", mode: 0o777, target: at });
      if (probes.length === 0 || !probes[probes.length - 1]!.startsWith(`${target}/`)) probes.push(at);
    }
  }
}

/** Whether the engine runs on this host (a local socket): only then can it mount this host's directories. */
function engineOnThisHost(docker: Docker): boolean {
  const modem = (docker as { modem?: { socketPath?: unknown; host?: unknown } }).modem;
  // docker-modem keeps a socket path, or a function finding the default one when DOCKER_HOST names none.
  return (typeof modem?.socketPath === "string" || typeof modem?.socketPath === "function") && !modem.host;
}

/** A run's input without the tree a container made ready already holds. */
function withoutTree(input: SandboxInput | undefined): SandboxInput {
  const { dir: _dir, extraDirs: _extra, ...rest } = input ?? {};
  return rest;
}

function signalName(n: number): string | null {
  const entry = Object.entries(os.constants.signals).find(([, v]) => v === n);
  return entry ? entry[0] : null;
}

/** A Writable that keeps the first `cap` bytes and reports the first byte past it. */
export class CappedSink extends Writable {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  onOverflow: (() => void) | undefined;

  constructor(private readonly cap: number) {
    super();
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (error?: Error | null) => void): void {
    const room = this.cap - this.size;
    if (chunk.length > room) {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.cap;
      if (!this.truncated) {
        this.truncated = true;
        this.onOverflow?.();
      }
    } else {
      this.chunks.push(chunk);
      this.size += chunk.length;
    }
    cb();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
