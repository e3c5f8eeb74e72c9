/**
 * npm installs in the install container: a repository's lockfile (`npm ci`), or the exact packages a report
 * names (resolved first with `npm install --package-lock-only`, so the whole resolved tree is checked and keys
 * the cache, then `npm ci`). Install scripts never run, npm's git is a program that does not exist unless git
 * sources are allowed, and where the image's npm has them, `--allow-git/--allow-remote/--allow-file/
 * --allow-directory` say the same as the lockfile policy checked beforehand on the host.
 */
import { createHash } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { InfrastructureError } from "../core/errors.ts";
import { InstallFailedError, installTimedOut } from "./install-errors.ts";
import { cacheKey, lookupByManifest, recordManifest } from "./cache.ts";
import { extractLimits, type InstallLimits, OUT_DIR, type StepResult } from "./container.ts";
import { safeEntryPath } from "./extract.ts";
import {
  checkNpmLockfile,
  checkPackageJson,
  describeProblem,
  isStopNote,
  REGISTRY_ONLY,
  type SourcePolicy,
  type SourceProblem,
  workspaceGlobs,
} from "./lockfile-policy.ts";
import { CONTAINER_PROXY_URL, VIRTUAL_NPM_HOST, VIRTUAL_NPM_REGISTRY } from "./proxy.ts";
import { type GitWanted, gitDependenciesInNpmLog, installFailureReason, isGitFailure } from "./reasons.ts";
import { npmAllowedHosts, npmRegistries, type RegistryConfig, registryKey } from "./registry-config.ts";
import {
  CONTAINER_CA_FILE,
  imageId,
  installImage,
  type InstallContext,
  npmHasAllowFlags,
  type Session,
  type SessionOptions,
  withInstallSession,
  withSession,
} from "./session.ts";

export type NpmInstallContext = InstallContext;

export { InstallFailedError, installTimedOut };

/** A refusal by the source policy: the install never started. */
export class SourcePolicyError extends InfrastructureError {
  constructor(
    readonly problems: SourceProblem[],
    what: string,
  ) {
    const listed = problems.filter((p) => !isStopNote(p)).length;
    const more =
      listed > 5
        ? `; and ${listed - 5} more${listed < problems.length ? ` (the check stops after ${listed})` : ""}`
        : "";
    super(
      `${what} refused: ${problems.slice(0, 5).map(describeProblem).join("; ")}${more}`,
      "Retrace installs only what the configured registry serves, with integrity hashes; set the named `install.*` field in .github/retrace.yml to allow a source (it is then fetched in the install container, never on the host)",
    );
    this.name = "SourcePolicyError";
  }
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/**
 * The npm registries as the install container sees them: the default one at VIRTUAL_NPM_REGISTRY and each of the
 * operator's scoped registries at a virtual host of its own (`s0.npm.registry.retrace.invalid`, …), all mapped
 * by the proxy to the real URLs (with the operator's credentials added there, on the host).
 */
export interface NpmView {
  /** Virtual host → real registry base URL (the proxy's routes). */
  routes: Record<string, string>;
  /** The project `.npmrc` naming each scope's virtual registry (empty without scoped registries). */
  npmrc: string;
  /** The virtual registry npm uses for `name`. */
  virtualFor(name: string): string;
  /** Text with every virtual registry URL replaced by the real one. */
  toReal(text: string): string;
  /** A lockfile's text with the scoped registries' real URLs (and the default one's) made virtual. */
  toVirtual(text: string): string;
  /** What the proxy rewrites in packuments (scoped registries' real base → virtual), empty without scopes. */
  rewriteJson: Record<string, string>;
  /** npm's `replace-registry-host` for this view. */
  replaceHost: string;
}

export function npmView(config: RegistryConfig): NpmView {
  const scopes = Object.entries(config.npmScopes ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const virtual = new Map<string, string>(); // scope → virtual base URL
  const routes: Record<string, string> = { [VIRTUAL_NPM_HOST]: config.npm };
  const real: [string, string][] = [[VIRTUAL_NPM_REGISTRY, config.npm]];
  scopes.forEach(([scope, url], i) => {
    const host = `s${i}.${VIRTUAL_NPM_HOST}`;
    routes[host] = url;
    virtual.set(scope, `http://${host}/`);
    real.push([`http://${host}/`, url]);
  });
  // Without scoped registries npm rewrites every tarball host to the (virtual) default registry ("always"). With
  // them it must not: npm would send a scope's tarballs to the default registry too. Then the scopes' tarball
  // URLs are made virtual (by the proxy in packuments, here in lockfiles) and only the default host is replaced.
  const rewriteJson: Record<string, string> = Object.fromEntries(
    real.slice(1).map(([virtualUrl, realUrl]) => [realUrl, virtualUrl]),
  );
  const toVirtualPairs: [string, string][] = [
    ...Object.entries(rewriteJson),
    [config.npm, VIRTUAL_NPM_REGISTRY] as [string, string],
    ["https://registry.npmjs.org/", VIRTUAL_NPM_REGISTRY] as [string, string],
  ].sort((a, b) => b[0].length - a[0].length);
  return {
    routes,
    rewriteJson,
    replaceHost: scopes.length === 0 ? "always" : new URL(config.npm).host,
    toVirtual: (text) =>
      scopes.length === 0 ? text : toVirtualPairs.reduce((t, [from, to]) => t.split(from).join(to), text),
    npmrc: [...virtual].map(([scope, url]) => `${scope}:registry=${url}\n`).join(""),
    virtualFor: (name) =>
      (name.startsWith("@") ? virtual.get(name.slice(0, name.indexOf("/")).toLowerCase()) : undefined) ??
      VIRTUAL_NPM_REGISTRY,
    toReal: (text) => real.reduce((t, [from, to]) => t.split(from).join(to), text),
  };
}

/** The workspace package directories of `workspaceFiles` (`packages/a/package.json` → `packages/a`), checked. */
function workspaceDirs(files: Record<string, string> | undefined): string[] {
  return Object.keys(files ?? {})
    .filter((f) => f.endsWith("/package.json"))
    .map((f) => safeEntryPath(f.slice(0, -"/package.json".length)))
    .filter((d): d is string => typeof d === "string" && d !== "" && !d.split("/").includes("node_modules"));
}

/** The paths a cache entry holds (entries written before workspaces were installed hold `node_modules` only). */
/**
 * The install session for a repository's lockfile (npm's or pnpm's): the configured registries behind the
 * virtual one, and the extra hosts (git, remote tarballs) the lockfile names and the source policy allows.
 */
export function lockfileSession(
  ctx: NpmInstallContext,
  image: string,
  lock: unknown,
  policy: SourcePolicy,
): { options: SessionOptions; view: NpmView } {
  const lockHosts = extraHosts(lock, policy, ctx.registry);
  const view = npmView(ctx.registry);
  return {
    view,
    options: {
      docker: ctx.docker,
      image,
      limits: ctx.limits,
      allowHosts: [...npmAllowedHosts(ctx.registry), ...lockHosts],
      repositoryHosts: lockHosts,
      routes: view.routes,
      rewriteJson: view.rewriteJson,
      registry: ctx.registry,
      jobId: ctx.jobId,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    },
  };
}

/** The paths a cached install recorded (`node_modules` and workspace packages' own), or null when unreadable. */
export function cachedPaths(meta: unknown): string[] | null {
  const paths = (meta as { paths?: unknown } | null)?.paths;
  return Array.isArray(paths) && paths.every((p) => typeof p === "string") ? (paths as string[]) : null;
}

/**
 * Brings an install's output out of the container into `tmp`: `node_modules`, and the `node_modules` npm made
 * inside a workspace package (a version that conflicts with the root's), under one file and byte budget. Their
 * symlinks may point into the workspace packages (npm links them into node_modules); nowhere else.
 */
export async function copyOutInstall(
  s: Session,
  tmp: string,
  dirs: string[],
  limits: InstallLimits,
  /** More project directories the links may point into (pnpm: a workspace package's links lead into the root's `node_modules/.pnpm`). */
  linkRoots: readonly string[] = [],
): Promise<string[]> {
  const budget = extractLimits(limits);
  const take = async (rel: string) => {
    await mkdir(path.dirname(path.join(tmp, rel)), { recursive: true });
    const r = await s.container.copyOut(rel, path.join(tmp, rel), {
      ...budget,
      links: { at: rel, roots: [...dirs, ...linkRoots] },
    });
    budget.maxFiles -= r.files;
    budget.maxBytes -= r.bytes;
  };
  // A tree with nothing to install (no dependency at all) leaves no node_modules: an empty one is the result.
  const made = await s.container.exec(["test", "-d", "node_modules"]);
  if (made.exitCode === 0) await take("node_modules");
  else await mkdir(path.join(tmp, "node_modules"), { recursive: true });
  const paths = ["node_modules"];
  if (dirs.length === 0) return paths;
  // The directory names come from the repository: handed to the shell as arguments, never as code.
  const found = await s.container.exec([
    "sh",
    "-c",
    'for d in "$@"; do if [ -d "$d/node_modules" ] && [ ! -L "$d" ] && [ ! -L "$d/node_modules" ]; then printf "%s\\n" "$d"; fi; done',
    "sh",
    ...dirs,
  ]);
  for (const d of found.stdout.split("\n")) {
    if (!dirs.includes(d)) continue;
    await take(`${d}/node_modules`);
    paths.push(`${d}/node_modules`);
  }
  return paths;
}

/**
 * Copies a repository install's output out of the container (copyOutInstall) into a new `repo-deps` cache entry
 * under `key`, its `paths` recorded with `meta`; a failed copy or commit leaves no temporary directory behind.
 * npm's and pnpm's installs share it.
 */
export async function cacheRepoInstall(
  s: Session,
  ctx: NpmInstallContext,
  key: string,
  dirs: string[],
  meta: Record<string, unknown>,
  linkRoots: readonly string[] = [],
): Promise<{ dir: string; paths: string[] }> {
  const tmp = await ctx.cache.tempDir("repo-deps", key);
  try {
    await mkdir(tmp);
    const paths = await copyOutInstall(s, tmp, dirs, ctx.limits, linkRoots);
    const { dir } = await ctx.cache.commit("repo-deps", key, tmp, { ...meta, paths });
    return { dir, paths };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** The files npm reads in the install container's project directory besides the manifest. */
function npmrcFiles(view: NpmView): Record<string, string> {
  return view.npmrc ? { ".npmrc": view.npmrc } : {};
}

export function npmEnv(s: Session, policy: SourcePolicy, view: NpmView): Record<string, string> {
  return {
    HOME: "/tmp",
    // npm asks the virtual registry host, which the proxy maps to the configured registry, and rewrites every
    // tarball URL (packuments, lockfile) to it: nothing reaches another host through the registry path.
    npm_config_registry: VIRTUAL_NPM_REGISTRY,
    // With remote or git sources allowed, those are fetched where they are (through the proxy's allow-list);
    // registry.npmjs.org URLs still go to the configured registry.
    npm_config_replace_registry_host: policy.allowRemote || policy.allowGit ? "npmjs" : view.replaceHost,
    npm_config_cache: "/tmp/npm-cache",
    npm_config_userconfig: "/tmp/retrace-no-npmrc",
    npm_config_proxy: CONTAINER_PROXY_URL,
    npm_config_https_proxy: CONTAINER_PROXY_URL,
    npm_config_noproxy: "",
    npm_config_ignore_scripts: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    // A real tree is a thousand requests through the proxy; on a loaded host a few fail once and succeed again
    // (npm's own default is 2 retries). The install's deadline still bounds a registry that never answers.
    npm_config_fetch_retries: "3",
    npm_config_fetch_retry_mintimeout: "2000",
    npm_config_fetch_retry_maxtimeout: "20000",
    npm_config_fetch_timeout: "60000",
    npm_config_loglevel: "error",
    // Without allowGit there is no git for npm to run at all (a clone's `.npmrc` `git=` included).
    ...(policy.allowGit ? {} : { npm_config_git: "/nonexistent/git-is-disabled" }),
    ...(s.hasCa ? { npm_config_cafile: CONTAINER_CA_FILE, NODE_EXTRA_CA_CERTS: CONTAINER_CA_FILE } : {}),
  };
}

async function allowFlags(s: Session, image: string, policy: SourcePolicy): Promise<string[]> {
  if (!(await npmHasAllowFlags(s, image))) return [];
  const v = (on: boolean) => (on ? "all" : "none");
  return [
    `--allow-git=${v(policy.allowGit)}`,
    `--allow-remote=${v(policy.allowRemote)}`,
    `--allow-file=${v(policy.allowFile)}`,
    `--allow-directory=${v(policy.allowFile)}`,
  ];
}

/**
 * `npm ci` in the session, once more when it stopped for the network (a reset or timeout after npm's own retries):
 * a real tree is a thousand requests, and on a loaded host one of them can fail through; the second run takes
 * what the first downloaded from npm's cache in the container. Anything else fails at once.
 */
async function npmCi(s: Session, flags: string[], env: Record<string, string>): Promise<StepResult> {
  const r = await s.container.exec(["npm", "ci", ...flags], { env });
  if (r.exitCode === 0 || r.stoppedBy !== null || s.container.stoppedBy !== null) return r;
  const output = `${r.stderr}\n${r.stdout}`;
  const transient = /\bE50[0-4]\b|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|npm (?:ERR!|error) network/;
  if (!transient.test(output) || isGitFailure(output)) return r;
  return s.container.exec(["npm", "ci", ...flags], { env });
}

/** Where npm writes its debug log in the install container (its cache is `/tmp/npm-cache`). */
const NPM_LOG_GLOB = "/tmp/npm-cache/_logs/*-debug-*.log";

async function stepFailure(
  r: StepResult,
  s: Session,
  command: string,
  limits: InstallLimits,
  policy: SourcePolicy,
): Promise<InstallFailedError> {
  const refused = s.proxy.refused();
  if (r.stoppedBy === "timeout" || s.container.stoppedBy === "timeout")
    return installTimedOut(command, limits);
  const output = `${r.stderr}\n${r.stdout}`;
  if (r.stoppedBy === null && isGitFailure(output)) {
    // npm names no package when git fails; its debug log says which git specs it was resolving, and for whom.
    const log = await s.container.exec([
      "sh",
      "-c",
      `cat ${NPM_LOG_GLOB} 2>/dev/null | grep -E ' silly (fetch manifest|placeDep) ' | head -c 1000000`,
    ]);
    return gitDependencyError(gitDependenciesInNpmLog(log.stdout), command, refused, policy.allowGit);
  }
  const reason =
    r.stoppedBy === "cancelled"
      ? "cancelled"
      : r.stoppedBy === "output_limit"
        ? `its output passed ${limits.outputBytes} bytes`
        : installFailureReason(output, "npm");
  const upstreamErrors = s.proxy.stats().upstreamErrors;
  return new InstallFailedError(
    refused.length > 0
      ? `${reason} (it tried to reach ${refused.join(", ")}, not an allowed registry)`
      : upstreamErrors > 0 && /could not be reached/.test(reason)
        ? `${reason}; ${upstreamErrors} request(s) from the install container to the registry failed on this host`
        : reason,
    command,
  );
}

/**
 * npm stopped at a git dependency: without `install.allowGit` there is no git in the install container (a
 * dependency of a dependency: the policy refuses the ones package.json names before npm runs); with it, the git
 * host was not reachable. The error names each git dependency and what wants it, and the setting.
 */
function gitDependencyError(
  wanted: GitWanted[],
  command: string,
  refused: string[],
  allowGit: boolean,
): InstallFailedError {
  const named = wanted
    .slice(0, 5)
    .map((w) => `${w.name} (${w.spec}${w.by ? `, wanted by ${w.by}` : ""})`)
    .join(", ");
  const what =
    wanted.length === 0
      ? "a dependency of a dependency (npm did not say which)"
      : `${named}${wanted.length > 5 ? ` and ${wanted.length - 5} more` : ""}`;
  const them = wanted.length === 1 ? "it" : "them";
  if (allowGit)
    return new InstallFailedError(
      `the dependency tree needs git: ${what}; install.allowGit is on, and git could not fetch ${them}${refused.length > 0 ? ` (it tried to reach ${refused.join(", ")}, which the install may not reach)` : " (the git host did not answer from the install container)"}`,
      command,
      `check that the git host is reachable from this host (a GitHub runner reaches github.com), or drop the dependency that wants ${them}, or commit a package-lock.json that resolves ${them} from the registry`,
    );
  return new InstallFailedError(
    `the dependency tree needs git: ${what}; Retrace installs registry packages only unless install.allowGit is true in .github/retrace.yml${refused.length > 0 ? ` (it tried to reach ${refused.join(", ")})` : ""}`,
    command,
    `set \`install: { allowGit: true }\` in .github/retrace.yml to let the install container fetch ${them} from the git host (which must then be reachable from this host), or drop the dependency that wants ${them}, or commit a package-lock.json that resolves ${them} from the registry`,
  );
}

/** Fails the install when it filled its disk: what it wrote may be truncated. */
export async function requireRoom(s: Session, limits: InstallLimits, command: string): Promise<void> {
  if (await s.container.diskFull()) {
    throw new InstallFailedError(
      `the install filled its ${limits.outMb} MiB disk (files may be truncated; the install container's outMb limit)`,
      command,
    );
  }
}

export interface NpmTreeResult {
  /** Cache entry directory; it holds `node_modules/` (and workspace packages' own, see `paths`). */
  dir: string;
  /** What to copy into a run: `node_modules` and each workspace package's `<dir>/node_modules` npm made. */
  paths: string[];
  cached: boolean;
  /** The resolved lockfile (report installs) or the repository's. */
  lockfile: string;
}

/**
 * `npm ci --ignore-scripts` of a repository's package.json + lockfile in the install container, cached under
 * `<cache>/repo-deps/<key>/node_modules`. Throws SourcePolicyError before anything runs when the lockfile
 * names a source the policy does not allow, InstallFailedError when npm fails.
 */
export async function installNpmLockfile(
  ctx: NpmInstallContext,
  input: {
    packageJson: string;
    lockfile: string;
    lockfileName: string;
    /** Workspace packages' package.json files (relative path → content). */
    workspaceFiles?: Record<string, string>;
    policy: SourcePolicy;
  },
  onMiss?: () => void,
): Promise<NpmTreeResult> {
  let pkg: unknown;
  let lock: unknown;
  try {
    pkg = JSON.parse(input.packageJson);
    lock = JSON.parse(input.lockfile);
  } catch (error) {
    throw new InfrastructureError(
      `cannot install the repository's dependencies: package.json or ${input.lockfileName} is not valid JSON`,
      "fix the file (or regenerate the lockfile with `npm install --package-lock-only`)",
      error,
    );
  }
  const problems = [
    ...checkPackageJson(pkg, npmRegistries(ctx.registry), input.policy),
    ...checkNpmLockfile(lock, npmRegistries(ctx.registry), input.policy, { workspaces: workspaceGlobs(pkg) }),
  ];
  if (problems.length > 0) throw new SourcePolicyError(problems, `installing ${input.lockfileName}`);
  const image = installImage(ctx.image);
  const key = cacheKey({
    kind: "npm-lockfile",
    registry: registryKey(ctx.registry, "npm"),
    image: await imageId(ctx.docker, image),
    policy: input.policy,
    lockfileName: input.lockfileName,
    packageJson: sha(input.packageJson),
    lockfile: sha(input.lockfile),
    workspaces: Object.entries(input.workspaceFiles ?? {}).map(([k, v]) => [k, sha(v)]),
  });
  const hit = await ctx.cache.lookup("repo-deps", key);
  if (hit)
    return {
      dir: hit.dir,
      paths: cachedPaths(hit.marker.meta) ?? ["node_modules"],
      cached: true,
      lockfile: input.lockfile,
    };
  onMiss?.();
  const { options, view } = lockfileSession(ctx, image, lock, input.policy);
  return withSession(options, async (s) => {
    await s.container.copyIn(OUT_DIR, {
      "package.json": input.packageJson,
      [input.lockfileName]: view.toVirtual(withRegistryTarballs(input.lockfile, view.virtualFor)),
      ...(input.workspaceFiles ?? {}),
      ...npmrcFiles(view),
    });
    const flags = await allowFlags(s, image, input.policy);
    const r = await npmCi(s, flags, npmEnv(s, input.policy, view));
    if (r.exitCode !== 0)
      throw await stepFailure(
        r,
        s,
        `npm ci --ignore-scripts from ${input.lockfileName}`,
        ctx.limits,
        input.policy,
      );
    await requireRoom(s, ctx.limits, `npm ci --ignore-scripts from ${input.lockfileName}`);
    const { dir, paths } = await cacheRepoInstall(s, ctx, key, workspaceDirs(input.workspaceFiles), {
      lockfileName: input.lockfileName,
    });
    return { dir, paths, cached: false, lockfile: input.lockfile };
  });
}

/**
 * The lockfile npm ci is given: registry entries without `resolved` (npm writes none with
 * `omit-lockfile-registry-resolved`) get the configured registry's tarball URL, as npm 10+ computes it itself;
 * without it an older npm fetches every package's full packument first (100 s instead of 15 s here for a
 * mid-size lockfile). The cache key and the policy check use the repository's own bytes.
 */
export function withRegistryTarballs(
  lockfile: string,
  registry: string | ((name: string) => string),
): string {
  const registryFor = typeof registry === "string" ? () => registry : registry;
  let lock: { packages?: Record<string, Record<string, unknown>> };
  try {
    lock = JSON.parse(lockfile) as typeof lock;
  } catch {
    return lockfile;
  }
  if (!lock.packages || typeof lock.packages !== "object") return lockfile;
  let changed = false;
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.includes("node_modules/") || typeof entry !== "object" || entry === null) continue;
    if (entry.resolved !== undefined || entry.link === true || entry.inBundle === true) continue;
    if (typeof entry.version !== "string" || typeof entry.integrity !== "string") continue;
    const name =
      typeof entry.name === "string" ? entry.name : key.slice(key.lastIndexOf("node_modules/") + 13);
    if (!/^(@[\w.-]+\/)?[\w.-]+$/.test(name) || !/^[\w.+-]+$/.test(entry.version)) continue;
    const base = name.includes("/") ? name.split("/")[1]! : name;
    entry.resolved = `${registryFor(name)}${name}/-/${base}-${entry.version}.tgz`;
    changed = true;
  }
  return changed ? JSON.stringify(lock, null, 2) : lockfile;
}

/** Hosts of git/remote sources the policy allows (the proxy lets them through for this install only). */
export function extraHosts(lock: unknown, policy: SourcePolicy, registry: RegistryConfig): string[] {
  if (!policy.allowGit && !policy.allowRemote) return [];
  const hosts = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === "string") {
      const m = /^(?:git\+)?(https?):\/\/([^/@]+@)?([^/:]+)(?::(\d+))?\//i.exec(v);
      if (m) hosts.add(`${m[3]!.toLowerCase()}:${m[4] ?? (m[1]!.toLowerCase() === "https" ? "443" : "80")}`);
      if (/^github:|^[\w.-]+\/[\w.-]+#/.test(v)) hosts.add("github.com:443").add("codeload.github.com:443");
    } else if (typeof v === "object" && v !== null) for (const x of Object.values(v)) visit(x);
  };
  visit(lock);
  for (const h of npmAllowedHosts(registry)) hosts.delete(h);
  return [...hosts];
}

/**
 * The hosts a resolution with `install.allowGit` may reach for git: the hosted services npm's shorthands
 * (`user/repo`, `github:`, `gitlab:`, `bitbucket:`) name, anywhere in the tree, and the hosts of git URLs
 * package.json names. A git URL elsewhere deep in the tree stays refused (its host is known only once resolved).
 */
function manifestGitHosts(packageJson: string, policy: SourcePolicy, registry: RegistryConfig): string[] {
  let specs: unknown[] = [];
  try {
    const m = JSON.parse(packageJson) as Record<string, unknown>;
    // The dependency sections only: `repository`, `homepage` and the like name hosts that are not sources.
    specs = ["dependencies", "devDependencies", "optionalDependencies"].map((k) => m[k] ?? null);
  } catch {
    // the caller parsed it already; nothing more to allow
  }
  const hosted = ["github.com:443", "codeload.github.com:443", "gitlab.com:443", "bitbucket.org:443"];
  return [...new Set([...hosted, ...extraHosts(specs, policy, registry)])];
}

export interface NpmPackagesResult extends NpmTreeResult {
  installed: { name: string; version: string }[];
}

/**
 * The exact `name@version`s a report names, installed in the install container: resolved to a lockfile
 * (`npm install --package-lock-only`), the resolved tree checked against the registry-only policy (a published
 * package depending on git or a tarball URL is refused), then `npm ci`; cached by the whole resolved tree under
 * `<cache>/npm/<key>/node_modules`.
 */
export async function installNpmPackages(
  ctx: NpmInstallContext,
  packages: { name: string; version: string }[],
): Promise<NpmPackagesResult> {
  const packageJson = JSON.stringify(
    {
      name: "retrace-repro",
      private: true,
      dependencies: Object.fromEntries(packages.map((p) => [p.name, p.version])),
    },
    null,
    2,
  );
  const r = await resolveAndInstall(ctx, {
    packageJson,
    policy: REGISTRY_ONLY,
    namespace: "npm",
    kind: "npm-report",
    label: `installing ${packages.map((p) => `${p.name}@${p.version}`).join(", ")}`,
  });
  const installed = packages.map((p) => {
    const e = r.tree[`node_modules/${p.name}`] as { version?: string } | undefined;
    return { name: p.name, version: e?.version ?? p.version };
  });
  return { dir: r.dir, paths: r.paths, cached: r.cached, lockfile: r.lockfile, installed };
}

/**
 * A repository's dependencies from its package.json alone (no npm lockfile: none committed, or yarn's or
 * pnpm's, whose pins the caller has written into `packageJson`), as its own CI's `npm install` would get them:
 * the declared sources checked first (registry only unless the policy allows more), the tree resolved in the
 * install container (`npm install --package-lock-only`, scripts off), the whole resolved tree checked, then
 * `npm ci`. Cached under `<cache>/repo-deps/<key>` by the resolved tree, so a later job that resolves to the
 * same versions reuses it, and one that resolves to newer releases gets them.
 */
/** The file beside a cached manifest install's node_modules that holds the tree npm resolved for it. */
export const RESOLVED_LOCKFILE = "retrace-resolved-lock.json";

export async function installNpmManifest(
  ctx: NpmInstallContext,
  input: {
    /** package.json as npm gets it (its bytes key the cache). */
    packageJson: string;
    /** The same package.json, parsed by the caller (it is not parsed again here): what the policy checks. */
    manifest: unknown;
    workspaceFiles?: Record<string, string>;
    policy: SourcePolicy;
    label: string;
    /**
     * A lockfile npm starts its resolution from (`npm install --package-lock-only` keeps what still matches
     * package.json and resolves only the rest): the base's resolved tree when a patch changed a dependency, so
     * that the patched install differs from the base's only where the patch does. Its sources are checked like
     * any resolved tree's, after the resolution.
     */
    seedLockfile?: string;
  },
): Promise<{
  dir: string;
  paths: string[];
  cached: boolean;
  legacyPeerDeps: boolean;
  /** When the tree came from the manifest index: when this package.json was resolved (no resolution now). */
  resolvedAt?: string;
}> {
  const pkg = input.manifest;
  const problems = checkPackageJson(pkg, npmRegistries(ctx.registry), input.policy);
  if (problems.length > 0) throw new SourcePolicyError(problems, input.label);
  // The same manifest within a day reuses its resolved tree without an install container (lookupByManifest).
  const manifestKey = cacheKey({
    kind: "npm-manifest",
    registry: registryKey(ctx.registry, "npm"),
    image: await imageId(ctx.docker, installImage(ctx.image)),
    policy: input.policy,
    packageJson: sha(input.packageJson),
    workspaces: Object.entries(input.workspaceFiles ?? {}).map(([k, v]) => [k, sha(v)]),
    ...(input.seedLockfile === undefined ? {} : { seed: sha(input.seedLockfile) }),
  });
  const hit = await lookupByManifest<{ legacyPeerDeps?: boolean }>(ctx.cache, "repo-deps", manifestKey);
  if (hit)
    return {
      dir: hit.dir,
      paths: cachedPaths(hit.marker.meta) ?? ["node_modules"],
      cached: true,
      legacyPeerDeps: hit.marker.meta.legacyPeerDeps === true,
      resolvedAt: hit.resolvedAt,
    };
  const r = await resolveAndInstall(ctx, {
    packageJson: input.packageJson,
    ...(input.workspaceFiles ? { workspaceFiles: input.workspaceFiles } : {}),
    ...(input.seedLockfile === undefined ? {} : { seedLockfile: input.seedLockfile }),
    workspaces: workspaceGlobs(pkg),
    policy: input.policy,
    namespace: "repo-deps",
    kind: "npm-manifest",
    label: input.label,
  });
  await recordManifest(ctx.cache, "repo-deps", manifestKey, r.key);
  return { dir: r.dir, paths: r.paths, cached: r.cached, legacyPeerDeps: r.legacyPeerDeps };
}

/**
 * Whether a failed `npm ci` refused the lockfile as out of sync with package.json (npm's EUSAGE), rather than
 * failing to fetch or unpack: right after `npm install --package-lock-only` wrote that lockfile from the same
 * package.json, that is npm's check disagreeing with its own resolution, not the repository's lockfile.
 */
export function ciDisagrees(output: string): boolean {
  return /\bEUSAGE\b/.test(output) && /package\.json and package-lock\.json[^\n]*in sync/.test(output);
}

async function resolveAndInstall(
  ctx: NpmInstallContext,
  input: {
    packageJson: string;
    workspaceFiles?: Record<string, string>;
    seedLockfile?: string;
    workspaces?: string[];
    policy: SourcePolicy;
    namespace: string;
    kind: string;
    label: string;
  },
): Promise<NpmTreeResult & { tree: Record<string, unknown>; legacyPeerDeps: boolean; key: string }> {
  const gitHosts = input.policy.allowGit
    ? manifestGitHosts(input.packageJson, input.policy, ctx.registry)
    : [];
  const view = npmView(ctx.registry);
  return withInstallSession(
    ctx,
    {
      allowHosts: [...npmAllowedHosts(ctx.registry), ...gitHosts],
      repositoryHosts: gitHosts,
      routes: view.routes,
      rewriteJson: view.rewriteJson,
    },
    async (s, { image, id }) => {
      const env = npmEnv(s, input.policy, view);
      await s.container.copyIn(OUT_DIR, {
        "package.json": input.packageJson,
        ...(input.seedLockfile === undefined
          ? {}
          : {
              "package-lock.json": view.toVirtual(withRegistryTarballs(input.seedLockfile, view.virtualFor)),
            }),
        ...(input.workspaceFiles ?? {}),
        ...npmrcFiles(view),
      });
      const flags = await allowFlags(s, image, input.policy);
      let legacyPeerDeps = false;
      let resolve = await s.container.exec(["npm", "install", "--package-lock-only", ...flags], { env });
      // Conflicting peer ranges: what yarn, pnpm and npm 6 accept with a warning, npm 7+ refuses; resolve as
      // they did (peers left to the declaring package) rather than fail a repository its own CI installs.
      if (resolve.exitCode !== 0 && /ERESOLVE/.test(`${resolve.stderr}\n${resolve.stdout}`)) {
        legacyPeerDeps = true;
        resolve = await s.container.exec(
          ["npm", "install", "--package-lock-only", "--legacy-peer-deps", ...flags],
          { env },
        );
      }
      if (resolve.exitCode !== 0)
        throw await stepFailure(resolve, s, "npm install --package-lock-only", ctx.limits, input.policy);
      const lockText = await s.container.exec(["cat", "package-lock.json"]);
      let lock: { packages?: Record<string, unknown> };
      try {
        // Entries npm recorded at a virtual registry are the configured registry's.
        lock = JSON.parse(view.toReal(lockText.stdout)) as typeof lock;
      } catch {
        throw new InstallFailedError(
          "npm did not write a readable lockfile",
          "npm install --package-lock-only",
        );
      }
      const problems = checkNpmLockfile(lock, npmRegistries(ctx.registry), input.policy, {
        workspaces: input.workspaces ?? [],
      });
      if (problems.length > 0) throw new SourcePolicyError(problems, input.label);
      const tree = lock.packages ?? {};
      const key = cacheKey({
        kind: input.kind,
        registry: registryKey(ctx.registry, "npm"),
        image: id,
        policy: input.policy,
        legacyPeerDeps,
        tree: sha(JSON.stringify(tree)),
        workspaces: Object.entries(input.workspaceFiles ?? {}).map(([k, v]) => [k, sha(v)]),
      });
      const hit = await ctx.cache.lookup(input.namespace, key);
      if (hit)
        return {
          dir: hit.dir,
          paths: cachedPaths(hit.marker.meta) ?? ["node_modules"],
          cached: true,
          lockfile: lockText.stdout,
          tree,
          legacyPeerDeps,
          key,
        };
      const ciFlags = legacyPeerDeps ? ["--legacy-peer-deps", ...flags] : flags;
      let r = await npmCi(s, ciFlags, env);
      let installedLock = lockText.stdout;
      let installedTree = tree;
      if (r.exitCode !== 0 && ciDisagrees(`${r.stderr}\n${r.stdout}`)) {
        // npm ci's own sync check refusing the lockfile this npm just wrote from the same package.json (npm 9's
        // check misjudges some nested versions, e.g. a transitive `@types/node` beside a newer peer): install that
        // lockfile with `npm install`, scripts still off, and check the tree it leaves like the resolved one.
        r = await s.container.exec(["npm", "install", "--no-audit", "--no-fund", ...ciFlags], { env });
        if (r.exitCode !== 0)
          throw await stepFailure(r, s, "npm install --ignore-scripts", ctx.limits, input.policy);
        const after = await s.container.exec(["cat", "package-lock.json"]);
        let afterLock: { packages?: Record<string, unknown> };
        try {
          afterLock = JSON.parse(view.toReal(after.stdout)) as typeof afterLock;
        } catch {
          throw new InstallFailedError(
            "npm did not leave a readable lockfile",
            "npm install --ignore-scripts",
          );
        }
        const again = checkNpmLockfile(afterLock, npmRegistries(ctx.registry), input.policy, {
          workspaces: input.workspaces ?? [],
        });
        if (again.length > 0) throw new SourcePolicyError(again, input.label);
        installedLock = after.stdout;
        installedTree = afterLock.packages ?? {};
      } else if (r.exitCode !== 0)
        throw await stepFailure(r, s, "npm ci --ignore-scripts", ctx.limits, input.policy);
      await requireRoom(s, ctx.limits, "npm ci --ignore-scripts");
      const tmp = await ctx.cache.tempDir(input.namespace, key);
      try {
        await mkdir(tmp);
        const paths = await copyOutInstall(s, tmp, workspaceDirs(input.workspaceFiles), ctx.limits);
        // The resolved tree, with the configured registries' URLs: a later install of a patched manifest starts from it.
        await writeFile(`${tmp}/${RESOLVED_LOCKFILE}`, view.toReal(installedLock));
        const installed = Object.entries(installedTree)
          .filter(([k]) => /^node_modules\/(?:@[^/]+\/)?[^/]+$/.test(k))
          .map(([k, v]) => ({
            name: k.slice("node_modules/".length),
            version: (v as { version?: string }).version ?? "",
          }));
        const { dir } = await ctx.cache.commit(input.namespace, key, tmp, {
          installed,
          legacyPeerDeps,
          paths,
        });
        return {
          dir,
          paths,
          cached: false,
          lockfile: installedLock,
          tree: installedTree,
          legacyPeerDeps,
          key,
        };
      } catch (error) {
        await rm(tmp, { recursive: true, force: true });
        throw error;
      }
    },
  );
}
