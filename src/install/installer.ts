/**
 * The dependency installer of the reproduction pipeline (adapter of the `DependencyInstaller` port): the
 * packages a report names are installed in the throwaway install container (`npm.ts`, `pip.ts`), never on the
 * host, and the checked, cached tree becomes the sandbox run's input.
 *
 * Before anything runs: each name must be a registry name and each version exact (a bare name is resolved
 * to the configured registry's latest release first; a dist-tag other than `latest`, a range, a URL or a path
 * is refused); at most `maxPackages` per report (`install.maxPackages`), the rest refused by name. A package
 * that cannot be installed comes back as a failure with a reason, never thrown; an unreachable Docker engine,
 * a missing image, or a registry that cannot say which release of an unpinned package is the newest is an
 * infrastructure error.
 */
import { hostLimits } from "../core/host-limits.ts";
import type Docker from "dockerode";
import { CancelledError, InfrastructureError } from "../core/errors.ts";
import { packageNameProblem, versionProblem } from "../repro/package-name.ts";
import {
  type DependencyInstaller,
  type DependencyRequest,
  type Ecosystem,
  type InstallFailure,
  type InstallRequest,
  type InstallResult,
  type LatestRelease,
  NO_SUCH_PACKAGE,
  NOT_ON_MIRROR,
  type RegistryLookup,
} from "../repro/ports.ts";
import { InstallCache } from "./cache.ts";
import { DEFAULT_INSTALL_LIMITS, type InstallLimits } from "./container.ts";
import { InstallFailedError, installNpmPackages, SourcePolicyError } from "./npm.ts";
import { installPipPackages, PYTHON_TARGET } from "./pip.ts";
import { hostRegistryConfig, type RegistryConfig } from "./registry-config.ts";
import { connectDocker } from "../sandbox/engine.ts";

export const DEFAULT_MAX_PACKAGES = 20;

export interface ContainerInstallerOptions {
  /** Cache root (default: $RETRACE_CACHE_DIR or ~/.cache/retrace). */
  cacheDir?: string;
  /** Cache quota in bytes (default: $RETRACE_INSTALL_CACHE_MB MiB, else 4 GiB). */
  cacheQuotaBytes?: number;
  /** Resolves unpinned packages to a concrete version, so the install is exact. */
  registry?: RegistryLookup;
  /** The registries (default: the operator's configuration). */
  registryConfig?: RegistryConfig;
  /** Limit of one install, in ms (default 180 s); a request's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** Install container limits other than time. */
  limits?: Partial<InstallLimits>;
  /** Most packages installed for one report (`install.maxPackages`, default 20). */
  maxPackages?: number;
  docker?: Docker;
  /** Install image (default: the operator's sandbox image). */
  image?: string;
}

/** Why `version` is not an exact release version of `ecosystem`, or null. */
export function exactVersionProblem(ecosystem: "npm" | "pypi", version: string): string | null {
  const generic = versionProblem(version);
  if (generic) return generic;
  const exact =
    ecosystem === "npm"
      ? /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/
      : /^(?:\d+!)?\d+(?:\.\d+)*(?:[-_.]?(?:a|b|rc|alpha|beta|c|pre|preview)\d*)?(?:[-_.]?(?:post|rev|r)\d*)?(?:[-_.]?dev\d*)?(?:\+[0-9A-Za-z.]+)?$/i;
  return exact.test(version)
    ? null
    : `${JSON.stringify(version)} is not an exact version (registry versions only)`;
}

/** The registry's latest release of `name`; a lookup without `latestRelease` answers every null as unknown. */
async function latestRelease(
  registry: RegistryLookup | undefined,
  ecosystem: Ecosystem,
  name: string,
): Promise<LatestRelease> {
  if (!registry) return { kind: "unknown" };
  try {
    if (registry.latestRelease) return await registry.latestRelease(ecosystem, name);
    const version = await registry.latestVersion(ecosystem, name);
    return version ? { kind: "release", version } : { kind: "unknown" };
  } catch {
    return { kind: "unknown" };
  }
}

export class ContainerDependencyInstaller implements DependencyInstaller {
  private readonly cache: InstallCache;
  readonly maxPackages: number;

  constructor(private readonly options: ContainerInstallerOptions = {}) {
    const envQuota = Number(process.env.RETRACE_INSTALL_CACHE_MB);
    this.cache = new InstallCache({
      ...(options.cacheDir ? { root: options.cacheDir } : {}),
      ...(options.cacheQuotaBytes
        ? { quotaBytes: options.cacheQuotaBytes }
        : Number.isFinite(envQuota) && envQuota > 0
          ? { quotaBytes: envQuota * 1024 * 1024 }
          : {}),
    });
    // Never more than the operator's maximum, whoever asks (RETRACE_HOST_LIMITS maxPackages).
    this.maxPackages = Math.min(options.maxPackages ?? DEFAULT_MAX_PACKAGES, hostLimits().maxPackages);
  }

  async install(request: InstallRequest): Promise<InstallResult> {
    const t0 = Date.now();
    const pythonPath = request.ecosystem === "pypi" ? PYTHON_TARGET : null;
    const result = (r: Partial<InstallResult>): InstallResult => ({
      dir: null,
      pythonPath,
      installed: [],
      failures: [],
      cached: false,
      durationMs: Date.now() - t0,
      ...r,
    });
    if (request.packages.length === 0) return result({ pythonPath: null });
    // Names and versions come from untrusted reports: anything that is not a registry name and an exact
    // version (or none, for the latest release) is refused before any installer sees it.
    const failures: InstallFailure[] = [];
    const accepted: DependencyRequest[] = [];
    const seen = new Set<string>();
    for (const p of [...request.packages].sort((a, b) => a.name.localeCompare(b.name))) {
      const version = p.version === "latest" ? null : p.version;
      const problem =
        packageNameProblem(request.ecosystem, p.name) ??
        (version === null ? null : exactVersionProblem(request.ecosystem, version));
      if (problem) failures.push({ name: p.name, version: p.version, reason: problem });
      else if (!seen.has(p.name.toLowerCase())) {
        seen.add(p.name.toLowerCase());
        if (accepted.length >= this.maxPackages) {
          failures.push({
            name: p.name,
            version: p.version,
            reason: `more than ${this.maxPackages} packages named in one report (install.maxPackages)`,
          });
        } else accepted.push({ name: p.name, version });
      }
    }
    if (failures.length > 0) return result({ failures });
    // Unpinned names: the configured registry's latest release, at most a few look-ups at a time.
    const pinned: { name: string; version: string }[] = [];
    for (const p of accepted) {
      const where =
        request.ecosystem === "npm"
          ? "the npm registry (npm_config_registry)"
          : "the pip index (PIP_INDEX_URL / PIP_EXTRA_INDEX_URL / PIP_FIND_LINKS)";
      const answer: LatestRelease = p.version
        ? { kind: "release", version: p.version }
        : await latestRelease(this.options.registry, request.ecosystem, p.name);
      const version = answer.kind === "release" ? answer.version : null;
      // The registry's answer is checked like a report's: only an exact version reaches the installer.
      const answerProblem = version ? exactVersionProblem(request.ecosystem, version) : null;
      if (answer.kind === "missing") {
        // The registry answered, and has no package of that name (a private monorepo root, a local module, a
        // typo): a failure of that package, which the caller drops (a guessed import) or asks about (the
        // report's own), never an infrastructure error.
        failures.push({
          name: p.name,
          version: null,
          reason: `${NO_SUCH_PACKAGE}: ${where} has no package of that name`,
        });
      } else if (answer.kind === "unmirrored") {
        // The host's local mirror answered it has no such package, and no other index could be reached: a
        // failure of that package, which the caller drops when Retrace guessed it and otherwise raises as the
        // infrastructure error it is (the mirror lacks a package the report imports).
        failures.push({
          name: p.name,
          version: null,
          reason: `${NOT_ON_MIRROR}: ${where}: its local mirror has no package of that name, and no other index could be reached`,
        });
      } else if (!version) {
        // Not the report's fault: the registry this host is configured with could not say which release is the
        // newest (unreachable, time-out, 5xx). An infrastructure error that says what to do, never a question to
        // the reporter.
        throw new InfrastructureError(
          `could not install ${p.name}: its latest version is unknown — ${where} could not be reached or holds no release of it`,
          `let this host reach a registry that has ${p.name}, or add it to the configured mirror; a report that names the version it uses is installed at that version without this look-up`,
        );
      } else if (answerProblem) {
        failures.push({
          name: p.name,
          version: null,
          reason: `the configured registry answered ${JSON.stringify(version.slice(0, 80))} as the latest version: ${answerProblem}`,
        });
      } else pinned.push({ name: p.name, version });
    }
    if (failures.length > 0) return result({ failures });
    if (request.signal?.aborted) throw new CancelledError("the install was cancelled");
    const ctx = {
      docker: this.options.docker ?? connectDocker(),
      ...(this.options.image ? { image: this.options.image } : {}),
      registry: this.options.registryConfig ?? (await hostRegistryConfig()),
      cache: this.cache,
      limits: {
        ...DEFAULT_INSTALL_LIMITS,
        ...this.options.limits,
        timeoutMs: request.timeoutMs ?? this.options.timeoutMs ?? 180_000,
        timeoutSetting: "repro.installTimeoutMs in .github/retrace.yml",
      },
      jobId: `repro-${request.ecosystem}`,
      ...(request.signal ? { signal: request.signal } : {}),
    };
    try {
      const r =
        request.ecosystem === "npm"
          ? await installNpmPackages(ctx, pinned)
          : await installPipPackages(ctx, pinned);
      return result({ dir: r.dir, installed: r.installed, cached: r.cached });
    } catch (error) {
      if (request.signal?.aborted) throw new CancelledError("the install was cancelled");
      if (error instanceof SourcePolicyError || error instanceof InstallFailedError) {
        const reason = error instanceof InstallFailedError ? error.reason : error.message;
        const blamed = pinned.filter((p) => reason.includes(p.name));
        const step = error instanceof InstallFailedError ? { step: error.command } : {};
        return result({
          failures: (blamed.length > 0 ? blamed : pinned).map((p) => ({
            name: p.name,
            version: p.version,
            reason,
            ...step,
          })),
        });
      }
      throw error;
    }
  }
}

export function createContainerInstaller(
  options: ContainerInstallerOptions = {},
): ContainerDependencyInstaller {
  return new ContainerDependencyInstaller(options);
}
