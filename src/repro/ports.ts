/**
 * The ports the reproduction pipeline takes. `src/repro` never does I/O itself: the CLI (or App, or Action)
 * passes real adapters, tests pass fakes.
 */
import type { ModelChoice } from "../core/loop.ts";
import type { Clock } from "../core/loop-clock.ts";
import type { Model } from "../core/ports/model.ts";
import type { Sandbox, SandboxLimits } from "../core/ports/sandbox.ts";

export type Ecosystem = "npm" | "pypi";

export interface DependencyRequest {
  name: string;
  /** Exact version, or null for the latest release. */
  version: string | null;
  /** With no exact version: the release line the report names (`yargs@5` → "5"), resolved before installing. */
  within?: string | null;
}

export interface InstallRequest {
  ecosystem: Ecosystem;
  packages: DependencyRequest[];
  /** Wall-clock limit of this install, in ms (`repro.installTimeoutMs`); the installer's default when absent. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface InstallFailure {
  name: string;
  version: string | null;
  /** What went wrong, one line ("no matching version", "registry unreachable"). */
  reason: string;
  /** The install step that failed (`npm ci`), where the installer knows it. */
  step?: string;
}

export interface InstallResult {
  /**
   * Host directory whose contents become the workspace root (it holds `node_modules/`, or the Python
   * target directory); null when nothing was installed.
   */
  dir: string | null;
  /** Workspace-relative directory to put on PYTHONPATH (Python installs only). */
  pythonPath: string | null;
  /** What was installed, with resolved versions. */
  installed: { name: string; version: string }[];
  failures: InstallFailure[];
  /** True when the tree came from the cache (same manifest installed before). */
  cached: boolean;
  durationMs: number;
}

/** Installs pinned dependencies on the host, with install scripts disabled, before the offline run. */
export interface DependencyInstaller {
  install(request: InstallRequest): Promise<InstallResult>;
  /** Most packages one request may name (`install.maxPackages`); more are refused by name, nothing looked up. */
  readonly maxPackages?: number;
}

/** The sandbox's runtime versions ("18.20.4"), where known. */
export interface RuntimeVersions {
  node?: string | null;
}

/** What a release is looked up for: the sandbox's runtime, and the release line the report names (`5`, `1.2.x`). */
export interface ReleaseQuery extends RuntimeVersions {
  /** A version prefix or range the release must fall in ("5", "1.2", "5.x"); the newest inside it wins. */
  within?: string | null;
}

/**
 * Latest release of a package; null when the registry cannot be reached ("latest unknown"). Given the
 * sandbox's runtime, the newest release that declares support for it (a latest that needs a newer Node than
 * the sandbox has is not what a report without a version can be judged on).
 */
export interface RegistryLookup {
  latestVersion(ecosystem: Ecosystem, name: string, query?: ReleaseQuery): Promise<string | null>;
  /**
   * The same look-up, telling the two nulls apart: `missing` when every configured registry answered that it has
   * no such package (HTTP 404 / 410, a packument without releases, no index page), `unknown` when one could not
   * be reached or answered otherwise (network error, time-out, 5xx). Only `unknown` is an infrastructure problem.
   * Optional: a lookup without it answers every null as `unknown`.
   */
  latestRelease?(ecosystem: Ecosystem, name: string, query?: ReleaseQuery): Promise<LatestRelease>;
}

/**
 * How an install failure's reason begins when the registry answered it has no package of that name
 * (`LatestRelease` `missing`): asked about as such, never as a version question.
 */
export const NO_SUCH_PACKAGE = "no such package";

/**
 * How an install failure's reason begins when the install reached its time limit (a first install on a loaded
 * machine) or the registry or package index could not be reached: the host's doing, never the report's. A repro
 * ends on it as an infrastructure error saying what to do, never a question about the version.
 */
export const INSTALL_TIMED_OUT = "timed out after";
export const NPM_UNREACHABLE = "the npm registry could not be reached";
export const INDEX_UNREACHABLE = "the package index could not be reached";

/** An install failure the host caused (its time limit, an unreachable registry), by its reason. */
export function hostInstallFailure(reason: string): "timeout" | "unreachable" | null {
  if (reason.startsWith(INSTALL_TIMED_OUT)) return "timeout";
  if (reason.startsWith(NPM_UNREACHABLE) || reason.startsWith(INDEX_UNREACHABLE)) return "unreachable";
  return null;
}

/**
 * How an install failure's reason begins when a local mirror (a `file://` pip index) answered it has no package of
 * that name and no other index could be reached (`LatestRelease` `unmirrored`): a guessed package is dropped on it,
 * a package the report's own code imports stays an infrastructure error (the host's mirror lacks it).
 */
export const NOT_ON_MIRROR = "not on the local mirror";

/**
 * A registry's answer to "which release is the latest" (`RegistryLookup.latestRelease`); `unmirrored`: a local
 * mirror answered it has no such package, and every other index was unreachable (said nothing).
 */
export type LatestRelease =
  | { kind: "release"; version: string }
  | { kind: "missing" }
  | { kind: "unmirrored" }
  | { kind: "unknown" };

/** TypeScript → JavaScript (types stripped, nothing else changed). */
export type Transpile = (
  code: string,
  options: { format: "esm" | "cjs"; filename: string },
) => Promise<string>;

/** One recorded step of the pipeline, for trace.json. */
export interface ReproEvent {
  /** Pipeline step: parse, complete, install, run, evaluate, matrix, model, verdict. */
  step: string;
  /** Milliseconds since the job started. */
  atMs: number;
  durationMs: number;
  /** One-line summary of what the step did. */
  summary: string;
  /** Step details (redacted before they are written anywhere). */
  data?: Record<string, unknown>;
}

export interface ReproPorts {
  sandbox: Sandbox;
  /**
   * The sandbox's runtime versions, asked before installing (so a package's latest release is one that runs
   * there); absent or null: unknown, and the registry's latest is used as it is.
   */
  runtimeVersions?: () => Promise<RuntimeVersions | null>;
  installer: DependencyInstaller;
  /** The model, or null for the deterministic (offline) path. */
  model: Model | null;
  /**
   * Model names (fast, and strong after a failed attempt), supplied by the adapter that builds the ports (the
   * pure pipeline knows no model names). Required with a model; a job spec naming a model (`spec.model` other
   * than "default") pins that one instead.
   */
  models?: ModelChoice;
  /** Output token cap of each model call (`model.maxOutputTokens`); the engine's default when absent. */
  maxOutputTokens?: number;
  clock: Clock;
  registry: RegistryLookup;
  transpile: Transpile;
  /** Applied to every text that leaves the pipeline (report, evidence, trace). */
  redact?: (text: string) => string;
  signal?: AbortSignal;
  /** Receives each pipeline step as it ends. */
  onEvent?: (event: ReproEvent) => void;
  /** Progress inside a step, one line each ("run 2 of 3 (reported versions) finished: exit code 1"). */
  onProgress?: (line: string) => void;
  /** Hard per-run timeout in ms (`repro.runTimeoutMs`; default 10 s, the CLI's `--timeout`). */
  runTimeoutMs?: number;
  /** Limit of each dependency install in ms (`repro.installTimeoutMs`); the installer's default when absent. */
  installTimeoutMs?: number;
  /** Whether a pinned older version is also run on the latest release (`repro.compareLatest`, default true). */
  compareLatest?: boolean;
  /**
   * Sandbox limits of every run (`sandbox.limits`), merged into each request; the run timeout comes from
   * `runTimeoutMs` when both are set (it is the repro-specific setting).
   */
  limits?: Partial<SandboxLimits>;
}
