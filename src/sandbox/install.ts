/**
 * The host-side dependency installer (adapter of the `DependencyInstaller` port): pinned packages are installed
 * on the host, before the offline sandbox run, with install scripts disabled, into a per-manifest directory that
 * becomes the sandbox's input tree.
 *
 * - npm: `npm install --ignore-scripts --no-audit --no-fund` into `<cache>/npm/<hash>/` (no lifecycle script runs).
 * - PyPI: `pip install --only-binary=:all: --target` (wheels only: an sdist would run its setup code).
 *
 * Trees are cached by a hash of the manifest under `~/.cache/retrace` (or $RETRACE_CACHE_DIR), so a repeat is a
 * directory lookup. A package that cannot be installed is returned as a failure with a reason, never thrown.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { packageNameProblem, versionProblem } from "../repro/package-name.ts";
import type {
  DependencyInstaller,
  DependencyRequest,
  InstallFailure,
  InstallRequest,
  InstallResult,
  RegistryLookup,
} from "../repro/ports.ts";

export interface HostInstallerOptions {
  /** Cache root (default: $RETRACE_CACHE_DIR or ~/.cache/retrace). */
  cacheDir?: string;
  /** Resolves unpinned packages to a concrete version, so the cache key is exact. */
  registry?: RegistryLookup;
  /** Python version of the sandbox image, for wheel selection (default "3.11", the Debian bookworm image). */
  pythonVersion?: string;
  /** Limit of one install, in ms (default 180 s). */
  timeoutMs?: number;
  /** npm / pip executables (default "npm", "pip3"). */
  npm?: string;
  pip?: string;
  /** The environment the allow-list is taken from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** More variable names to pass to npm/pip, for a registry set-up the allow-list does not cover. */
  passEnv?: string[];
}

/**
 * The only host variables npm and pip see. They run on names taken from untrusted issues, so the host's
 * secrets (PRIVATE_KEY, WEBHOOK_SECRET, ANTHROPIC_API_KEY, GITHUB_TOKEN, …) are never passed: only what a
 * registry needs — the path, the home directory (npm's ~/.npmrc and cache, pip's config), the locale, proxies,
 * CA bundles, and the registry / index / cache settings.
 */
export const INSTALLER_ENV_ALLOW = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "npm_config_registry",
  "npm_config_cache",
  "npm_config_userconfig",
  "npm_config_globalconfig",
  "npm_config_cafile",
  "npm_config_proxy",
  "npm_config_https_proxy",
  "npm_config_noproxy",
  "npm_config_strict_ssl",
  "npm_config_offline",
  "npm_config_prefer_offline",
  "NPM_CONFIG_REGISTRY",
  "NPM_CONFIG_CACHE",
  "NPM_CONFIG_USERCONFIG",
  "NPM_CONFIG_GLOBALCONFIG",
  "NPM_CONFIG_CAFILE",
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "PIP_FIND_LINKS",
  "PIP_CONFIG_FILE",
  "PIP_CERT",
  "PIP_CLIENT_CERT",
  "PIP_TRUSTED_HOST",
  "PIP_PROXY",
  "PIP_DEFAULT_TIMEOUT",
  "PIP_CACHE_DIR",
  "PIP_NO_CACHE_DIR",
] as const;

/** The environment of one npm/pip run: the allow-listed host variables, then Retrace's own settings. */
export function installerEnv(source: NodeJS.ProcessEnv, passEnv: readonly string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of [...INSTALLER_ENV_ALLOW, ...passEnv]) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    npm_config_ignore_scripts: "true",
    npm_config_update_notifier: "false",
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PIP_NO_INPUT: "1",
  };
}

const MARKER = ".retrace-installed.json";

export function defaultCacheDir(): string {
  return process.env.RETRACE_CACHE_DIR ?? path.join(os.homedir(), ".cache", "retrace");
}

interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
  error: Error | null;
  /** True when the time limit killed the command. */
  timedOut: boolean;
}

function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; timeoutMs: number; env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        cwd: options.cwd,
        timeout: options.timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: options.env,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        const code =
          error && typeof (error as { code?: unknown }).code === "number"
            ? (error as { code: number }).code
            : error
              ? null
              : 0;
        // execFile kills the child on `timeout` and reports it as `killed` (the message says only "Command failed").
        const timedOut =
          error !== null && (error as { killed?: boolean }).killed === true && !options.signal?.aborted;
        resolve({ code, stdout: String(stdout), stderr: String(stderr), error, timedOut });
      },
    );
  });
}

/**
 * Why pip found nothing to install, from its "(from versions: …)" list (wheels only, so the list holds the
 * versions with a wheel for this platform): none at all, or others but not the one asked for.
 */
function pipMissingReason(output: string): string {
  const listed = /\(from versions: ([^)]*)\)/.exec(output)?.[1]?.trim();
  if (!listed || listed === "none")
    return "the package index here offers no installable release of it (no such project, or none with a wheel for this platform; source distributions are not installed: they run code)";
  const versions = listed.split(/,\s*/);
  return `that version is not in the package index here (it offers ${versions.length > 6 ? `${versions.slice(0, 2).join(", ")}, …, ${versions.slice(-3).join(", ")}` : versions.join(", ")})`;
}

/** The one line of npm/pip output that says why it failed. */
export function installFailureReason(output: string, ecosystem: "npm" | "pypi"): string {
  if (ecosystem === "npm") {
    if (/ETARGET|No matching version/i.test(output)) return "no such version in the npm registry";
    if (/E404|404 Not Found/i.test(output)) return "no such package in the npm registry";
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network/i.test(output))
      return "the npm registry could not be reached";
    if (/ERESOLVE/.test(output)) return "conflicting peer dependencies";
  } else {
    if (/No matching distribution found|Could not find a version that satisfies/i.test(output)) {
      return /Could not fetch URL|connection|NewConnectionError|Network is unreachable|Temporary failure|Max retries|ProxyError/i.test(
        output,
      )
        ? "PyPI could not be reached"
        : pipMissingReason(output);
    }
    if (
      /Could not fetch URL|NewConnectionError|Network is unreachable|Temporary failure|Max retries|ProxyError|timed out/i.test(
        output,
      )
    ) {
      return "PyPI could not be reached";
    }
  }
  const line = output
    .split("\n")
    .map((l) => l.trim())
    .find((l) => /error/i.test(l));
  return (line ?? output.trim().split("\n").pop() ?? "unknown error").slice(0, 200);
}

export class HostDependencyInstaller implements DependencyInstaller {
  private readonly cacheDir: string;
  private readonly timeoutMs: number;
  private readonly pythonVersion: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: HostInstallerOptions = {}) {
    this.cacheDir = options.cacheDir ?? defaultCacheDir();
    this.timeoutMs = options.timeoutMs ?? 180_000;
    this.pythonVersion = options.pythonVersion ?? "3.11";
    this.env = installerEnv(options.env ?? process.env, options.passEnv);
  }

  async install(request: InstallRequest): Promise<InstallResult> {
    const t0 = Date.now();
    if (request.packages.length === 0) {
      return { dir: null, pythonPath: null, installed: [], failures: [], cached: false, durationMs: 0 };
    }
    // Names and versions come from untrusted reports: anything that is not a plain registry name and exact
    // version is refused before npm or pip sees it.
    const invalid = invalidRequests(request);
    if (invalid.length > 0) {
      return {
        dir: null,
        pythonPath: null,
        installed: [],
        failures: invalid,
        cached: false,
        durationMs: Date.now() - t0,
      };
    }
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    const packages = await this.resolveUnpinned(request);
    const manifest = {
      ecosystem: request.ecosystem,
      python: request.ecosystem === "pypi" ? this.pythonVersion : undefined,
      packages,
    };
    const hash = createHash("sha256").update(JSON.stringify(manifest)).digest("hex").slice(0, 24);
    const finalDir = path.join(this.cacheDir, request.ecosystem, hash);
    const pythonPath = request.ecosystem === "pypi" ? "python-packages" : null;
    const markerPath = path.join(finalDir, MARKER);
    if (existsSync(markerPath)) {
      const installed = JSON.parse(await readFile(markerPath, "utf8")) as { name: string; version: string }[];
      return {
        dir: finalDir,
        pythonPath,
        installed,
        failures: [],
        cached: true,
        durationMs: Date.now() - t0,
      };
    }
    await mkdir(path.dirname(finalDir), { recursive: true });
    const tmp = `${finalDir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
    await mkdir(tmp, { recursive: true });
    try {
      const outcome =
        request.ecosystem === "npm"
          ? await this.installNpm(tmp, packages, timeoutMs, request.signal)
          : await this.installPip(tmp, packages, timeoutMs, request.signal);
      if (outcome.failures.length > 0) {
        return {
          dir: null,
          pythonPath,
          installed: outcome.installed,
          failures: outcome.failures,
          cached: false,
          durationMs: Date.now() - t0,
        };
      }
      await writeFile(path.join(tmp, MARKER), JSON.stringify(outcome.installed));
      try {
        await rename(tmp, finalDir);
      } catch (e) {
        // Another job installed the same manifest meanwhile: theirs is as good as ours.
        if (!existsSync(markerPath)) throw e;
      }
      return {
        dir: finalDir,
        pythonPath,
        installed: outcome.installed,
        failures: [],
        cached: false,
        durationMs: Date.now() - t0,
      };
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  private async resolveUnpinned(request: InstallRequest): Promise<DependencyRequest[]> {
    const today = new Date().toISOString().slice(0, 10);
    return Promise.all(
      [...request.packages]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(async (p) => {
          if (p.version) return p;
          const latest = await this.options.registry
            ?.latestVersion(request.ecosystem, p.name)
            .catch(() => null);
          // Unresolved "latest" is cached per day, so it does not stay stale forever.
          return { name: p.name, version: latest ?? null, ...(latest ? {} : { day: today }) };
        }),
    );
  }

  private async installNpm(
    dir: string,
    packages: DependencyRequest[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ installed: { name: string; version: string }[]; failures: InstallFailure[] }> {
    const dependencies = Object.fromEntries(packages.map((p) => [p.name, p.version ?? "latest"]));
    await writeFile(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "retrace-repro", private: true, dependencies }, null, 2),
    );
    const res = await run(
      this.options.npm ?? "npm",
      [
        "install",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--no-package-lock",
        "--omit=dev",
        "--loglevel=error",
        "--prefer-offline",
        // The packages are in package.json (keys, never argv), and nothing after `--` is an option.
        "--",
      ],
      { cwd: dir, timeoutMs, env: this.env, ...(signal ? { signal } : {}) },
    );
    if (res.code !== 0) {
      const output = `${res.stderr}\n${res.stdout}\n${res.error?.message ?? ""}`;
      const reason = res.timedOut
        ? `npm install timed out after ${timeoutMs} ms`
        : installFailureReason(output, "npm");
      const blamed = packages.filter((p) => output.includes(p.name));
      return {
        installed: [],
        failures: (blamed.length > 0 ? blamed : packages).map((p) => ({
          name: p.name,
          version: p.version,
          reason,
        })),
      };
    }
    const installed: { name: string; version: string }[] = [];
    for (const p of packages) {
      try {
        const pkg = JSON.parse(
          await readFile(path.join(dir, "node_modules", p.name, "package.json"), "utf8"),
        ) as { version?: string };
        installed.push({ name: p.name, version: pkg.version ?? p.version ?? "unknown" });
      } catch {
        installed.push({ name: p.name, version: p.version ?? "unknown" });
      }
    }
    return { installed, failures: [] };
  }

  private async installPip(
    dir: string,
    packages: DependencyRequest[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<{ installed: { name: string; version: string }[]; failures: InstallFailure[] }> {
    const target = path.join(dir, "python-packages");
    const specs = packages.map((p) => (p.version ? `${p.name}==${p.version}` : p.name));
    const res = await run(
      this.options.pip ?? "pip3",
      [
        "install",
        "--only-binary=:all:",
        "--target",
        target,
        "--python-version",
        this.pythonVersion,
        "--implementation",
        "cp",
        "--platform",
        "manylinux2014_x86_64",
        "--platform",
        "manylinux_2_28_x86_64",
        "--no-compile",
        "--retries",
        "0",
        "--timeout",
        "8",
        "--quiet",
        // Nothing after `--` is an option: a name can never become `--extra-index-url …`.
        "--",
        ...specs,
      ],
      { timeoutMs, env: this.env, ...(signal ? { signal } : {}) },
    );
    if (res.code !== 0) {
      const output = `${res.stderr}\n${res.stdout}\n${res.error?.message ?? ""}`;
      const reason = res.timedOut
        ? `pip install timed out after ${timeoutMs} ms`
        : /ENOENT/.test(res.error?.message ?? "")
          ? "pip is not available on this host"
          : installFailureReason(output, "pypi");
      const blamed = packages.filter((p) => output.toLowerCase().includes(p.name.toLowerCase()));
      return {
        installed: [],
        failures: (blamed.length > 0 ? blamed : packages).map((p) => ({
          name: p.name,
          version: p.version,
          reason,
        })),
      };
    }
    const infos = (await readdir(target).catch(() => [] as string[])).filter((f) => f.endsWith(".dist-info"));
    const norm = (s: string) => s.toLowerCase().replace(/[-_.]+/g, "-");
    const installed = packages.map((p) => {
      const info = infos.find((f) => norm(f.replace(/-[^-]+\.dist-info$/, "")) === norm(p.name));
      return {
        name: p.name,
        version: info
          ? info
              .replace(/\.dist-info$/, "")
              .split("-")
              .pop()!
          : (p.version ?? "unknown"),
      };
    });
    return { installed, failures: [] };
  }
}

/** The requests npm/pip must not see: names that break the ecosystem's naming rule, versions that are not exact. */
export function invalidRequests(request: InstallRequest): InstallFailure[] {
  const failures: InstallFailure[] = [];
  for (const p of request.packages) {
    const problem =
      packageNameProblem(request.ecosystem, p.name) ??
      (p.version === null ? null : versionProblem(p.version));
    if (problem) failures.push({ name: p.name, version: p.version, reason: problem });
  }
  return failures;
}

export function createHostInstaller(options: HostInstallerOptions = {}): HostDependencyInstaller {
  return new HostDependencyInstaller(options);
}
