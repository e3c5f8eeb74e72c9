/**
 * The installer of a repository's own dependencies (adapter of the fix pipeline's `DependencyProvider` port),
 * always in the throwaway install container (`npm.ts`, `pip.ts`) — never on the host, never in the caller's
 * checkout — after the sources passed the policy (`lockfile-policy.ts`, `install.allow*`):
 * - an npm lockfile: `npm ci --ignore-scripts`, cached by package.json + lockfile + registry + image + policy;
 * - no lockfile, or yarn's / pnpm's: package.json resolved by npm (the direct dependencies pinned to the
 *   foreign lockfile's versions, `foreign-lockfile.ts`), the resolved tree checked, cached by that tree;
 * - Python: the declared runtime and test requirements, wheels only, into the runs' user site; and the version
 *   files its build backend would write (hatch-vcs, setuptools-scm), at their paths in each run's copy.
 * The checked directory is copied into each offline sandbox run next to the repository copy.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type Docker from "dockerode";
import { InfrastructureError } from "../core/errors.ts";
import { hostLimits } from "../core/host-limits.ts";
import {
  type DependencyProvider,
  isNpmLockfile,
  type JsDependencies,
  maxWorkspaceDirs,
  maxWorkspaceGlobs,
  type PythonDependencies,
} from "../fix/dependencies.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import { connectDocker } from "../sandbox/engine.ts";
import type { ExtraDir } from "../core/ports/sandbox.ts";
import { VERSION_FILE_VERSION } from "../fix/python-version-file.ts";
import { cacheKey, InstallCache } from "./cache.ts";
import { DEFAULT_INSTALL_LIMITS, type InstallLimits } from "./container.ts";
import { escapes, REGISTRY_ONLY, type SourcePolicy, workspaceGlobs } from "./lockfile-policy.ts";
import { GlobError, globMatcher } from "../core/glob.ts";
import { lockfilePins, npmLockfileInSync, pinnedManifest } from "./foreign-lockfile.ts";
import {
  InstallFailedError,
  installNpmLockfile,
  installNpmManifest,
  RESOLVED_LOCKFILE,
  SourcePolicyError,
} from "./npm.ts";
import { installPythonRequirements, PYTHON_USER_BASE } from "./pip.ts";
import { installPnpmWorkspace, pnpmWorkspaceDirs } from "./pnpm.ts";
import { readPackageManager } from "./pnpm-lockfile.ts";
import { installYarnWorkspace, YARN_CLASSIC_DEFAULT } from "./yarn.ts";
import { yarnLockfileFormat } from "./yarn-lockfile.ts";
import semver from "semver";
import { hostRegistryConfig, type RegistryConfig } from "./registry-config.ts";
import type { InstallContext } from "./session.ts";

export interface RepoDepsOptions {
  /** Cache root (default: $RETRACE_CACHE_DIR or ~/.cache/retrace); installs go under `repo-deps/`. */
  cacheDir?: string;
  cacheQuotaBytes?: number;
  /** Limit of one install, resolution included, in ms (`install.timeoutMs`; default REPO_INSTALL_TIMEOUT_MS). */
  timeoutMs?: number;
  limits?: Partial<InstallLimits>;
  /** Which sources besides the registry the lockfile may name (`install.allowGit/allowRemote/allowFile`). */
  policy?: SourcePolicy;
  registryConfig?: RegistryConfig;
  docker?: Docker;
  image?: string;
  signal?: AbortSignal;
  /** Progress lines ("installing … from package-lock.json", "cached"). */
  log?: (line: string) => void;
}

/**
 * Default limit of one install of a repository's dependencies: a real project's first resolution and install
 * (hundreds of packages) took over 300 s on a loaded 2-core machine, which is no reason to stop the job.
 */
export const REPO_INSTALL_TIMEOUT_MS = 15 * 60_000;

/** Largest package.json or lockfile read from the repository (RETRACE_HOST_LIMITS manifestMb, 64 MiB by default). */
function maxManifest(): { bytes: number; label: string } {
  const mb = hostLimits().manifestMb;
  return { bytes: mb * 1024 * 1024, label: `${mb} MiB (RETRACE_HOST_LIMITS manifestMb)` };
}

/** `a`, `a or b`, `a, b or c`. */
const orList = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;

/**
 * The checkout's package.json, parsed, and the other manifests an install reads (`null` for an `optional` one the
 * checkout lacks), each under the manifest cap: an InfrastructureError names what is too large or not JSON.
 */
async function readManifests(
  workspace: Workspace,
  files: readonly string[],
  optional: readonly string[] = [],
): Promise<{ packageJson: string; pkg: unknown; text: Record<string, string | null> }> {
  const packageJson = await workspace.readFile("package.json");
  const text: Record<string, string | null> = {};
  for (const f of files) text[f] = await workspace.readFile(f);
  for (const f of optional) text[f] = (await workspace.exists(f)) ? await workspace.readFile(f) : null;
  const cap = maxManifest();
  if ([packageJson, ...Object.values(text)].some((t) => (t?.length ?? 0) > cap.bytes))
    throw new InfrastructureError(
      `cannot install the repository's dependencies: ${orList(["package.json", ...files, ...optional])} is larger than ${cap.label}`,
    );
  try {
    return { packageJson, pkg: JSON.parse(packageJson), text };
  } catch (error) {
    throw new InfrastructureError(
      "cannot install the repository's dependencies: package.json is not valid JSON",
      "fix package.json",
      error,
    );
  }
}

/**
 * Installs the checkout's JS dependencies from its npm lockfile in the install container (once per
 * package.json + lockfile + registry + image) and returns the directory to copy into the sandbox:
 * `{ hostDir, paths: ["node_modules", …workspace packages' own node_modules] }`. Throws InfrastructureError when the policy refuses a source (naming
 * the entry and the setting), npm fails (with npm's reason), or the lockfile is not npm's.
 */
export async function installRepoDependencies(
  workspace: Workspace,
  js: JsDependencies,
  options: RepoDepsOptions = {},
  seedLockfile?: string,
): Promise<ExtraDir[]> {
  if (js.lockfile === "pnpm-lock.yaml" && (await isPnpmWorkspace(workspace)))
    return installPnpmFromLockfile(workspace, js, options);
  if (js.lockfile === "yarn.lock" && (await isYarnWorkspace(workspace)))
    return installYarnFromLockfile(workspace, js, options);
  if (js.lockfile === null || !isNpmLockfile(js.lockfile))
    return installFromManifest(workspace, js, options, seedLockfile);
  const packageJson = await workspace.readFile("package.json");
  const lockfile = await workspace.readFile(js.lockfile);
  // A package.json out of step with the lockfile (a patch added a dependency or changed a range): `npm ci`
  // would refuse it; npm resolves the manifest starting from the lockfile, which keeps what still matches.
  if (!npmLockfileInSync(packageJson, lockfile))
    return installFromManifest(workspace, js, options, seedLockfile ?? lockfile);
  const cap = maxManifest();
  if (packageJson.length > cap.bytes || lockfile.length > cap.bytes) {
    throw new InfrastructureError(
      `cannot install the repository's dependencies: package.json or ${js.lockfile} is larger than ${cap.label}`,
    );
  }
  const workspaceFiles = await workspacePackageJsons(workspace, lockfile);
  const r = await installNpmLockfile(
    await installContext(options),
    {
      packageJson,
      lockfile,
      lockfileName: js.lockfile,
      workspaceFiles,
      policy: options.policy ?? REGISTRY_ONLY,
    },
    () =>
      options.log?.(
        `dependencies: npm ci --ignore-scripts from ${js.lockfile} (${js.missing.length} missing in the checkout), in the install container`,
      ),
  );
  if (r.cached) options.log?.(`dependencies: ${js.declared.length} declared, cached install ${r.dir}`);
  return [{ hostDir: r.dir, paths: r.paths, mountable: true }];
}

/** A pnpm workspace: pnpm-workspace.yaml, or a `workspace:` dependency in the root package.json. */
async function isPnpmWorkspace(workspace: Workspace): Promise<boolean> {
  if (await workspace.exists("pnpm-workspace.yaml")) return true;
  const text = await workspace.readFile("package.json").catch(() => "");
  return /"workspace:/.test(text);
}

/** A yarn workspace: package.json `workspaces` (an array, or `{ packages: [...] }`). */
async function isYarnWorkspace(workspace: Workspace): Promise<boolean> {
  const text = await workspace.readFile("package.json").catch(() => "");
  try {
    return workspaceGlobs(JSON.parse(text)).length > 0;
  } catch {
    return false;
  }
}

/**
 * A yarn workspace (yarn.lock and package.json `workspaces`). Classic (v1): `yarn install --frozen-lockfile
 * --ignore-scripts` by the yarn 1 release package.json's `packageManager` names (or YARN_CLASSIC_DEFAULT), in
 * the install container (`yarn.ts`), after the lockfile's sources passed the policy. Berry (2+): not installed,
 * an infrastructure error that says what to do instead.
 */
async function installYarnFromLockfile(
  workspace: Workspace,
  js: JsDependencies,
  options: RepoDepsOptions,
): Promise<ExtraDir[]> {
  const manifests = await readManifests(workspace, ["yarn.lock"]);
  const { packageJson, pkg } = manifests;
  const lockfile = manifests.text["yarn.lock"] as string;
  const format = yarnLockfileFormat(lockfile);
  const pm = readPackageManager(pkg);
  const pmText = pm === null ? "none" : "problem" in pm ? pm.problem : `${pm.name}@${pm.version}`;
  const inCheckout =
    "or install the dependencies in the checkout before Retrace (scripts off): Retrace then uses the checkout's node_modules and installs nothing";
  const pmYarn = pm !== null && !("problem" in pm) && pm.name === "yarn" ? pm : null;
  const berry = format === "berry" || (pmYarn !== null && semver.major(pmYarn.version) >= 2);
  if (berry && (pmYarn === null || semver.major(pmYarn.version) < 2)) {
    // No yarn 2+ release named: npm links a workspace whose packages depend on each other by version, as it
    // always did here; the `workspace:` protocol it cannot read.
    const files = [packageJson, ...Object.values(await workspaceManifests(workspace, pkg))];
    if (!files.some((t) => /"workspace:/.test(t))) return installFromManifest(workspace, js, options);
    throw new InfrastructureError(
      `cannot install the repository's dependencies: it is a yarn berry workspace (yarn.lock with \`__metadata:\`) whose packages use the \`workspace:\` protocol, which Retrace installs with the yarn release package.json's \`packageManager\` names, and package.json packageManager is ${pmText}; npm cannot link such a workspace`,
      `set package.json \`packageManager\` to the yarn release the project's CI uses (\`"packageManager": "yarn@4.x.y"\`), ${inCheckout}`,
    );
  }
  if (berry && format !== "berry")
    throw new InfrastructureError(
      `cannot install the repository's dependencies: package.json packageManager names ${pmText}, and yarn.lock is ${format === "classic" ? "a yarn 1 lockfile" : "not a yarn lockfile Retrace reads"}; \`yarn install --immutable\` would have to rewrite it`,
      `regenerate yarn.lock with ${pmText} (\`yarn install\`) and commit it, or set package.json \`packageManager\` to the yarn 1 release the project's CI uses, ${inCheckout}`,
    );
  if (!berry && format !== "classic")
    throw new InfrastructureError(
      "cannot install the repository's dependencies: yarn.lock is neither a yarn 1 lockfile (`# yarn lockfile v1`) nor a yarn berry one (`__metadata:`)",
      `regenerate yarn.lock with the project's yarn (\`yarn install\`) and commit it, ${inCheckout}`,
    );
  if (pm !== null && pmYarn === null)
    throw new InfrastructureError(
      `cannot install the repository's dependencies: it is a yarn workspace (yarn.lock, package.json \`workspaces\`), which Retrace installs with the yarn release package.json's \`packageManager\` names, and ${"problem" in pm ? pm.problem : `package.json packageManager names ${pm.name}, not yarn`}`,
      `set package.json \`packageManager\` to the yarn release the project's CI uses (\`"packageManager": "yarn@1.22.22"\`), ${inCheckout}`,
    );
  const yarn = {
    flavor: berry ? ("berry" as const) : ("classic" as const),
    ...(pmYarn === null
      ? { version: YARN_CLASSIC_DEFAULT, sha512: null, fromPackageManager: false }
      : { version: pmYarn.version, sha512: pmYarn.sha512, fromPackageManager: true }),
  };
  const workspaceFiles = await workspaceManifests(workspace, pkg);
  const maxDirs = maxWorkspaceDirs();
  if (Object.keys(workspaceFiles).length > maxDirs)
    throw tooManyWorkspaces(
      `package.json \`workspaces\` matches ${Object.keys(workspaceFiles).length} workspace packages`,
      maxDirs,
      "workspaceDirs",
    );
  const r = await installYarnWorkspace(
    await installContext(options),
    { packageJson, lockfile, workspaceFiles, yarn, policy: options.policy ?? REGISTRY_ONLY },
    () =>
      options.log?.(
        `dependencies: yarn@${yarn.version}${yarn.fromPackageManager ? "" : " (no packageManager: Retrace's yarn 1 release)"} install ${berry ? "--immutable, scripts off, nodeLinker node-modules," : "--frozen-lockfile --ignore-scripts"} from yarn.lock (a yarn workspace of ${Object.keys(workspaceFiles).length} package(s); ${js.missing.length} missing in the checkout), in the install container`,
      ),
  );
  if (r.cached) options.log?.(`dependencies: yarn workspace, cached install ${r.dir}`);
  return [{ hostDir: r.dir, paths: r.paths, mountable: true }];
}

/**
 * A pnpm workspace: `pnpm install --frozen-lockfile --ignore-scripts` by the release package.json's
 * `packageManager` names, in the install container (`pnpm.ts`), after the lockfile's sources passed the policy.
 */
async function installPnpmFromLockfile(
  workspace: Workspace,
  js: JsDependencies,
  options: RepoDepsOptions,
): Promise<ExtraDir[]> {
  const manifests = await readManifests(workspace, ["pnpm-lock.yaml"], ["pnpm-workspace.yaml"]);
  const { packageJson, pkg } = manifests;
  const lockfile = manifests.text["pnpm-lock.yaml"] as string;
  const workspaceYaml = manifests.text["pnpm-workspace.yaml"] ?? null;
  const pm = readPackageManager(pkg);
  const setIt =
    'set package.json `packageManager` to the pnpm release the project\'s CI uses (`"packageManager": "pnpm@<x.y.z>"`), or install the dependencies in the checkout before Retrace (`pnpm install --frozen-lockfile --ignore-scripts`): Retrace then uses the checkout\'s node_modules and installs nothing';
  if (pm === null || "problem" in pm || pm.name !== "pnpm")
    throw new InfrastructureError(
      `cannot install the repository's dependencies: it is a pnpm workspace (pnpm-lock.yaml${workspaceYaml === null ? "" : ", pnpm-workspace.yaml"}), which Retrace installs with the pnpm release package.json's \`packageManager\` names, and ${pm === null ? "package.json has no `packageManager`" : "problem" in pm ? pm.problem : `package.json packageManager names ${pm.name}, not pnpm`}`,
      setIt,
    );
  const dirs = pnpmWorkspaceDirs(lockfile);
  const maxDirs = maxWorkspaceDirs();
  if (dirs.length > maxDirs)
    throw tooManyWorkspaces(
      `pnpm-lock.yaml lists ${dirs.length} workspace packages`,
      maxDirs,
      "workspaceDirs",
    );
  const workspaceFiles = await readPackageJsons(workspace, dirs);
  const r = await installPnpmWorkspace(
    await installContext(options),
    {
      packageJson,
      lockfile,
      workspaceYaml,
      workspaceFiles,
      pnpm: { version: pm.version, sha512: pm.sha512 },
      policy: options.policy ?? REGISTRY_ONLY,
    },
    () =>
      options.log?.(
        `dependencies: pnpm@${pm.version} install --frozen-lockfile --ignore-scripts from pnpm-lock.yaml (a pnpm workspace of ${dirs.length} package(s); ${js.missing.length} missing in the checkout), in the install container`,
      ),
  );
  if (r.cached) options.log?.(`dependencies: pnpm workspace, cached install ${r.dir}`);
  return [{ hostDir: r.dir, paths: r.paths, mountable: true }];
}

async function installContext(options: RepoDepsOptions): Promise<InstallContext> {
  return {
    docker: options.docker ?? connectDocker(),
    ...(options.image ? { image: options.image } : {}),
    registry: options.registryConfig ?? (await hostRegistryConfig()),
    cache: new InstallCache({
      ...(options.cacheDir ? { root: options.cacheDir } : {}),
      ...(options.cacheQuotaBytes ? { quotaBytes: options.cacheQuotaBytes } : {}),
    }),
    limits: {
      ...DEFAULT_INSTALL_LIMITS,
      ...options.limits,
      timeoutMs: options.timeoutMs ?? REPO_INSTALL_TIMEOUT_MS,
      timeoutSetting: "install.timeoutMs in .github/retrace.yml",
    },
    jobId: "repo-deps",
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/**
 * No npm lockfile: none at all (npm resolves package.json as the project's own CI's `npm install` does), or
 * yarn's / pnpm's (the direct dependencies pinned to the versions it resolved, npm resolving the rest).
 * Workspace package.json files are brought along for npm workspaces.
 */
async function installFromManifest(
  workspace: Workspace,
  js: JsDependencies,
  options: RepoDepsOptions,
  seedLockfile?: string,
): Promise<ExtraDir[]> {
  let packageJson = await workspace.readFile("package.json");
  const cap = maxManifest();
  if (packageJson.length > cap.bytes)
    throw new InfrastructureError(
      `cannot install the repository's dependencies: package.json is larger than ${cap.label}`,
    );
  let pkg: unknown;
  try {
    pkg = JSON.parse(packageJson);
  } catch (error) {
    throw new InfrastructureError(
      "cannot install the repository's dependencies: package.json is not valid JSON",
      "fix package.json",
      error,
    );
  }
  // yarn's and pnpm's workspaces (the `workspace:` protocol, pnpm-workspace.yaml) link packages npm cannot.
  const workspaceSpec = Object.entries({
    ...((pkg as { dependencies?: Record<string, unknown> }).dependencies ?? {}),
    ...((pkg as { devDependencies?: Record<string, unknown> }).devDependencies ?? {}),
  }).find(([, spec]) => typeof spec === "string" && spec.startsWith("workspace:"));
  if (workspaceSpec || (await workspace.exists("pnpm-workspace.yaml"))) {
    throw new InfrastructureError(
      `cannot install the repository's dependencies: it is a ${workspaceSpec ? `yarn/pnpm workspace (package.json: "${workspaceSpec[0]}": "${String(workspaceSpec[1])}")` : "pnpm workspace (pnpm-workspace.yaml)"}, and Retrace installs with npm, which does not link such workspaces`,
      `install the dependencies in the checkout before Retrace (${js.lockfile === "pnpm-lock.yaml" ? "`pnpm install --frozen-lockfile --ignore-scripts`" : js.lockfile === "yarn.lock" ? "`yarn install --immutable` with scripts off" : "with the workspace's own package manager, scripts off"}): Retrace then uses the checkout's node_modules and installs nothing`,
    );
  }
  // Parsed once here: the manifest installNpmManifest checks is this object (pinned), its text is what npm gets.
  let manifest = pkg;
  let how = "no lockfile: versions resolved from package.json, as `npm install` would";
  if (js.lockfile !== null) {
    const text = await workspace.readFile(js.lockfile);
    if (text.length > cap.bytes)
      throw new InfrastructureError(
        `cannot install the repository's dependencies: ${js.lockfile} is larger than ${cap.label}`,
      );
    const { format, pins } = lockfilePins(js.lockfile, text, pkg);
    manifest = pinnedManifest(pkg, pins);
    packageJson = `${JSON.stringify(manifest, null, 2)}\n`;
    how = `${js.lockfile} (${format}): ${Object.keys(pins).length} of ${js.declared.length} declared dependencies pinned to its versions, the rest resolved by npm`;
  }
  const workspaceFiles = await workspaceManifests(workspace, pkg);
  if (seedLockfile !== undefined) how += "; resolution starts from the base's resolved tree";
  options.log?.(`dependencies: npm install --ignore-scripts, ${how}, in the install container`);
  const r = await installNpmManifest(await installContext(options), {
    packageJson,
    manifest,
    workspaceFiles,
    policy: options.policy ?? REGISTRY_ONLY,
    label: `installing the dependencies of package.json${js.lockfile ? ` (pinned from ${js.lockfile})` : ""}`,
    ...(seedLockfile === undefined ? {} : { seedLockfile }),
  });
  options.log?.(
    `dependencies: ${r.resolvedAt ? `cached install of the tree this package.json resolved to at ${r.resolvedAt} (not resolved again within a day)` : r.cached ? "cached install of the resolved tree" : "installed"}${r.legacyPeerDeps ? " (conflicting peer ranges: resolved with --legacy-peer-deps, as yarn and pnpm accept them)" : ""}`,
  );
  return [{ hostDir: r.dir, paths: r.paths, mountable: true }];
}

/** The package.json of each npm workspace package.json's `workspaces` globs name (inside the repository). */
async function workspaceManifests(workspace: Workspace, pkg: unknown): Promise<Record<string, string>> {
  const all = workspaceGlobs(pkg);
  const maxGlobs = maxWorkspaceGlobs();
  if (all.length > maxGlobs)
    throw tooManyWorkspaces(`package.json lists ${all.length} workspace globs`, maxGlobs, "workspaceGlobs");
  const globs = all.filter((g) => !escapes(g)).map((g) => g.replace(/\/+$/, ""));
  if (globs.length === 0) return {};
  // One matcher for all globs, compiled once; linear in each directory's path whatever the globs.
  let isWorkspace: (dir: string) => boolean;
  try {
    isWorkspace = globMatcher(globs);
  } catch (e) {
    if (!(e instanceof GlobError)) throw e;
    throw new InfrastructureError(
      `cannot install the repository's dependencies: package.json \`workspaces\` ${e.message}`,
      "list the workspace packages with plain globs (`*`, `**`, `?`, `[…]`, `{a,b}`)",
    );
  }
  const dirs = (await workspace.listFiles({ max: 50_000 }))
    .filter((f) => f.endsWith("/package.json") && !f.includes("node_modules/"))
    .map((f) => f.slice(0, -"/package.json".length))
    .filter((dir) => isWorkspace(dir));
  return readPackageJsons(workspace, dirs);
}

/** The package.json of each workspace package the lockfile lists (npm ci needs them to link workspaces). */
async function workspacePackageJsons(
  workspace: Workspace,
  lockfile: string,
): Promise<Record<string, string>> {
  let packages: Record<string, unknown> = {};
  try {
    packages = ((JSON.parse(lockfile) as { packages?: Record<string, unknown> }).packages ?? {}) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
  // Only directories inside the repository (the policy refuses the others before anything runs).
  const dirs = Object.keys(packages).filter(
    (key) =>
      key !== "" && !key.includes("node_modules/") && !key.split("/").includes("..") && !key.startsWith("/"),
  );
  const maxDirs = maxWorkspaceDirs();
  if (dirs.length > maxDirs)
    throw tooManyWorkspaces(
      `the lockfile lists ${dirs.length} directories of the repository (workspace packages)`,
      maxDirs,
      "workspaceDirs",
    );
  return readPackageJsons(workspace, dirs);
}

/** A repository whose workspaces are more than Retrace reads: refused before anything is read or run. */
function tooManyWorkspaces(what: string, max: number, limit: string): InfrastructureError {
  return new InfrastructureError(
    `cannot install the repository's dependencies: ${what}, more than the ${max} Retrace reads (RETRACE_HOST_LIMITS ${limit})`,
    "list the workspace packages with fewer globs (package.json `workspaces`) and regenerate the lockfile, or install the dependencies in the checkout before Retrace; the operator may raise the maximum",
  );
}

/** `<dir>/package.json` of each directory that has one under 1 MiB, at most 500, keyed by path. */
async function readPackageJsons(
  workspace: Workspace,
  dirs: readonly string[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const dir of dirs) {
    const text = await workspace.readFile(`${dir}/package.json`).catch(() => null);
    if (text !== null && text.length < 1024 * 1024) out[`${dir}/package.json`] = text;
    if (Object.keys(out).length >= 500) break;
  }
  return out;
}

/**
 * Installs the repository's Python requirements (runtime and test, python-requirements.ts) into the user site
 * `PYTHON_USER_BASE` (every test run has `PYTHONUSERBASE` pointing there, see TEST_ENV), wheels only, in the
 * install container, cached by the whole resolved tree. A src layout gets a `.pth` line for `/workspace/src`,
 * as an editable install would; a declared version file the checkout lacks is written into each run's copy
 * (`versionFileDirs`). Throws InfrastructureError naming the requirement pip could not install.
 */
export async function installRepoPythonDependencies(
  python: PythonDependencies,
  options: RepoDepsOptions = {},
): Promise<ExtraDir[]> {
  const installed = await installPythonRequirementsOf(python, options);
  return [...installed, ...(await versionFileDirs(python, options))];
}

/** The requirements part of `installRepoPythonDependencies`: its errors name pip's command and the manifests. */
async function installPythonRequirementsOf(
  python: PythonDependencies,
  options: RepoDepsOptions,
): Promise<ExtraDir[]> {
  options.log?.(
    `dependencies: ${python.requirements.length} Python requirement(s) from ${python.sources.join(", ") || "the src layout"}: wheels only, installed in the install container unless cached${python.notes?.length ? ` (${python.notes.join("; ")})` : ""}`,
  );
  try {
    const r = await installPythonRequirements(
      await installContext(options),
      python.requirements,
      python.srcLayout ? { pth: { "retrace-src-layout.pth": "/workspace/src\n" } } : {},
    );
    options.log?.(
      `dependencies: ${r.installed.length} Python package(s)${r.cached ? ", cached" : ""}: ${r.installed
        .slice(0, 12)
        .map((p) => `${p.name}==${p.version}`)
        .join(", ")}${r.installed.length > 12 ? ", …" : ""}`,
    );
    return [{ hostDir: r.dir, paths: [PYTHON_USER_BASE], mountable: true }];
  } catch (error) {
    if (error instanceof InfrastructureError && !(error instanceof SourcePolicyError)) {
      const timedOut = error instanceof InstallFailedError && /^timed out after /.test(error.reason);
      throw new InfrastructureError(
        `cannot install the repository's Python requirements (${python.sources.join(", ")}): ${error.message}`,
        timedOut
          ? error.hint
          : `Retrace resolves them from the indexes this host's pip configuration names (\`pip config list\`: index-url, extra-index-url, find-links; a GitHub runner reaches PyPI): add the missing package there, or leave it out of what the tests declare (${python.sources.join(", ") || "the requirements"})`,
      );
    }
    throw error;
  }
}

const VERSION_FILES_KIND = "python-version-files";

/**
 * The version files the project's build backend would write (python-version-file.ts), as a directory copied
 * into each run's copy at their paths; cached by their paths and contents. None: nothing.
 */
async function versionFileDirs(python: PythonDependencies, options: RepoDepsOptions): Promise<ExtraDir[]> {
  const files = python.versionFiles ?? [];
  if (files.length === 0) return [];
  const cache = new InstallCache({
    ...(options.cacheDir ? { root: options.cacheDir } : {}),
    ...(options.cacheQuotaBytes ? { quotaBytes: options.cacheQuotaBytes } : {}),
  });
  const key = cacheKey({ kind: VERSION_FILES_KIND, files: files.map((f) => [f.path, f.text]) });
  const paths = files.map((f) => f.path);
  options.log?.(
    `dependencies: ${files.map((f) => `${f.path} (${f.field})`).join(", ")} written into each run's copy with version ${VERSION_FILE_VERSION}, as the build backend would (the project itself is not built)`,
  );
  const hit = await cache.lookup(VERSION_FILES_KIND, key);
  if (hit) return [{ hostDir: hit.dir, paths }];
  let tmp: string | null = null;
  try {
    tmp = await cache.tempDir(VERSION_FILES_KIND, key);
    for (const f of files) {
      await mkdir(path.join(tmp, path.dirname(f.path)), { recursive: true });
      await writeFile(path.join(tmp, f.path), f.text, { mode: 0o644 });
    }
    const { dir } = await cache.commit(VERSION_FILES_KIND, key, tmp, { paths });
    return [{ hostDir: dir, paths }];
  } catch (error) {
    if (tmp !== null) await rm(tmp, { recursive: true, force: true });
    throw new InfrastructureError(
      `cannot write the version file(s) ${files.map((f) => `${f.path} (${f.field})`).join(", ")} into the install cache ${cache.root}: ${error instanceof Error ? error.message : String(error)}`,
      "check that the cache directory (RETRACE_CACHE_DIR) is writable and has room",
      error,
    );
  }
}

/** The tree npm resolved for a cached manifest install among `dirs` (kept beside its node_modules), or null. */
async function resolvedTreeOf(dirs: readonly ExtraDir[]): Promise<string | null> {
  for (const d of dirs) {
    if (!d.paths.includes("node_modules")) continue;
    const text = await readFile(path.join(d.hostDir, RESOLVED_LOCKFILE), "utf8").catch(() => null);
    if (text !== null) return text;
  }
  return null;
}

/**
 * The `install` section of .github/retrace.yml as options of the repository's installs: the source policy
 * (what may be fetched: a part of every cache key) and the time limit (which is not).
 */
export function repoInstallOptions(install: {
  allowGit: boolean;
  allowRemote: boolean;
  allowFile: boolean;
  timeoutMs?: number | undefined;
}): Pick<RepoDepsOptions, "policy" | "timeoutMs"> {
  const { timeoutMs, ...policy } = install;
  return { policy, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
}

/**
 * The `DependencyProvider` of this host: `npm ci --ignore-scripts` from an npm lockfile, and pip (wheels only)
 * for Python requirements, each in the install container, cached.
 */
export function createRepoDependencyProvider(options: RepoDepsOptions = {}): DependencyProvider {
  return {
    js: async (workspace, js, next) =>
      installRepoDependencies(
        workspace,
        js,
        options,
        next ? ((await resolvedTreeOf(next.baseDirs)) ?? undefined) : undefined,
      ),
    python: (_workspace, python) => installRepoPythonDependencies(python, options),
  };
}
