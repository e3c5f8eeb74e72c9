/**
 * Dependency preflight: before tests run in the offline sandbox, find out what the repository declares and
 * whether it is present in the checkout. A JS test run with its declared packages missing fails for a reason
 * that has nothing to do with the patch (`Cannot find module 'jest'`), so it must stop the job with an
 * actionable error instead of being read as evidence against the patch.
 * Pure: reads the repository through the Workspace port.
 */
import { hostLimits } from "../core/host-limits.ts";
import path from "node:path";
import { GlobError, globMatcher } from "../core/glob.ts";
import { RetraceError } from "../core/errors.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import type { ExtraDir } from "../core/ports/sandbox.ts";
import {
  chooseRequirementsFiles,
  isIncludeForTests,
  type PythonManifestRequirements,
  parseRequirements,
  pyprojectRequirements,
  requirementIncludes,
  setupCfgRequirements,
  setupPyRequirements,
  toxExtras,
  toxRequirements,
  unusedOrchestrators,
  withoutProject,
} from "./python-requirements.ts";
import { declaredVersionFiles, type VersionFile } from "./python-version-file.ts";
import type { TestCommand } from "./test-runner/types.ts";

/** Lockfiles in the order they are looked for; only npm's can be installed by Retrace (`npm ci`). */
export const JS_LOCKFILES = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
] as const;

/**
 * Most workspace globs package.json may list, and most repository directories (workspace packages) a lockfile
 * may list: each glob is matched against every package directory of the checkout and each directory is read on
 * the host, so 20,000 globs held the host's CPU for minutes (third red team). Real monorepos list a handful.
 * The operator's (`RETRACE_HOST_LIMITS` workspaceGlobs / workspaceDirs, src/core/host-limits.ts); 100 and 1,000
 * by default.
 */
export function maxWorkspaceGlobs(): number {
  return hostLimits().workspaceGlobs;
}
export function maxWorkspaceDirs(): number {
  return hostLimits().workspaceDirs;
}

export interface JsDependencies {
  /** Names from package.json `dependencies` and `devDependencies`, sorted. */
  declared: string[];
  /** Declared names without `node_modules/<name>` in the checkout (a directory, or a link as pnpm makes). */
  missing: string[];
  /** The first lockfile found (see JS_LOCKFILES), or null: then versions are not pinned. */
  lockfile: string | null;
}

export interface PythonDependencies {
  /** Where the requirements were read (`pyproject.toml [project.optional-dependencies] tests`, `requirements.txt`). */
  sources: string[];
  /** Requirement specifiers as written (the project itself, comments, options and includes left out). */
  requirements: string[];
  /** `src/<package>/__init__.py` without `src/__init__.py`: the package is imported from `src/` (src layout). */
  srcLayout: boolean;
  /** What was read but not installed, and why (a computed `setup.py` value, an orchestrator); absent when none. */
  notes?: string[];
  /**
   * Version files the build backend would write (hatch-vcs, setuptools-scm) that the checkout lacks: written
   * into each run's copy (python-version-file.ts); absent when none.
   */
  versionFiles?: VersionFile[];
}

export interface DependencyReport {
  /** Null when there is no package.json. */
  js: JsDependencies | null;
  /** Null when no Python requirement file was found. */
  python: PythonDependencies | null;
}

/** The declared JS packages of the checkout are not installed, and Retrace was not given them either. */
export class MissingDependenciesError extends RetraceError {
  /** The declared packages missing from node_modules. */
  readonly missing: string[];
  constructor(missing: string[], lockfile: string | null) {
    const shown =
      missing.slice(0, 8).join(", ") + (missing.length > 8 ? ` and ${missing.length - 8} more` : "");
    super(
      "infrastructure",
      `dependencies not installed: ${shown} (declared in package.json, missing from node_modules); the tests would fail for a reason that has nothing to do with the patch`,
      {
        hint: isNpmLockfile(lockfile)
          ? "run `npm ci --ignore-scripts` in the repository before Retrace"
          : lockfile === null
            ? "commit a lockfile (`npm install --package-lock-only`) so the versions are pinned, then run `npm ci --ignore-scripts` before Retrace"
            : `install the dependencies from ${lockfile} (e.g. \`${lockfile === "yarn.lock" ? "yarn install --frozen-lockfile --ignore-scripts" : "pnpm install --frozen-lockfile --ignore-scripts"}\`) before Retrace`,
      },
    );
    this.missing = missing;
  }
}

function objectKeys(value: unknown): string[] {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

async function present(workspace: Workspace, name: string): Promise<boolean> {
  const p = `node_modules/${name}`;
  if (await workspace.exists(p)) return true;
  // pnpm and npm workspaces link packages into node_modules: a link there is an installed package.
  return (await workspace.findSymlink(p)) !== null;
}

/** The names of the workspace packages package.json's `workspaces` globs match (inside the repository). */
async function workspacePackageNames(workspace: Workspace, pkg: unknown): Promise<string[]> {
  const ws = (pkg as { workspaces?: unknown }).workspaces;
  const list = Array.isArray(ws)
    ? ws
    : Array.isArray((ws as { packages?: unknown })?.packages)
      ? (ws as { packages: unknown[] }).packages
      : [];
  // At most maxWorkspaceGlobs() (the install refuses more): each is matched against every package directory.
  const globs = list
    .slice(0, maxWorkspaceGlobs())
    .filter((g): g is string => typeof g === "string" && !g.split("/").includes("..") && !g.startsWith("/"));
  if (globs.length === 0) return [];
  let match: (path: string) => boolean;
  try {
    match = globMatcher(globs.map((g) => g.replace(/\/+$/, "")));
  } catch (e) {
    if (e instanceof GlobError) return [];
    throw e;
  }
  const names: string[] = [];
  for (const f of await workspace.listFiles({ max: 50_000 })) {
    if (!f.endsWith("/package.json") || f.includes("node_modules/")) continue;
    if (!match(f.slice(0, -"/package.json".length))) continue;
    try {
      const name = (JSON.parse(await workspace.readFile(f)) as { name?: unknown }).name;
      if (typeof name === "string" && /^(@[\w.-]+\/)?[\w.-]+$/.test(name)) names.push(name);
    } catch {
      // not a package
    }
    if (names.length >= 500) break;
  }
  return names;
}

/** package.json's declared dependencies and which of them are missing; null without a (valid JSON) package.json. */
export async function checkJsDependencies(workspace: Workspace): Promise<JsDependencies | null> {
  if (!(await workspace.exists("package.json"))) return null;
  let pkg: unknown;
  try {
    pkg = JSON.parse(await workspace.readFile("package.json"));
  } catch {
    return null; // detectTestCommand reports invalid JSON with its own hint
  }
  const p = pkg as { dependencies?: unknown; devDependencies?: unknown };
  const declared = [
    ...new Set([
      ...objectKeys(p.dependencies),
      ...objectKeys(p.devDependencies),
      // npm/yarn workspaces: each workspace package is linked into node_modules by the install.
      ...(await workspacePackageNames(workspace, pkg)),
    ]),
  ].sort();
  const missing: string[] = [];
  for (const name of declared) if (!(await present(workspace, name))) missing.push(name);
  let lockfile: string | null = null;
  for (const f of JS_LOCKFILES) {
    if (await workspace.exists(f)) {
      lockfile = f;
      break;
    }
  }
  return { declared, missing, lockfile };
}

/** Largest manifest or requirements file read. */
const MAX_PY_MANIFEST = 1024 * 1024;

/**
 * What a Python repository's tests need (python-requirements.ts reads each manifest, python-version-file.ts
 * the version files its build would write); null when it declares nothing, has no src layout and no version
 * file to write.
 */
export async function checkPythonDependencies(
  workspace: Workspace,
  command?: string,
): Promise<PythonDependencies | null> {
  const all = await workspace.listFiles({ max: 20_000 });
  const present = new Set(all);
  const read = async (f: string): Promise<string | null> => {
    const text = await workspace.readFile(f).catch(() => null);
    return text !== null && text.length <= MAX_PY_MANIFEST ? text : null;
  };
  const requirements: string[] = [];
  const sources: string[] = [];
  let project: string | null = null;
  const take = (r: PythonManifestRequirements) => {
    requirements.push(...r.requirements);
    sources.push(...r.sources);
    project ??= r.project;
  };
  const pyproject = present.has("pyproject.toml") ? await read("pyproject.toml") : null;
  if (pyproject !== null) take(pyprojectRequirements(pyproject));
  const notes: string[] = [];
  const versionFiles: VersionFile[] = [];
  if (pyproject !== null) {
    const declared = declaredVersionFiles(pyproject);
    notes.push(...declared.notes);
    // A version file the checkout has (committed, or left by a build) is the repository's own: never replaced;
    // nor is one written through a symlink of the checkout.
    for (const f of declared.files) {
      if (await workspace.exists(f.path)) continue;
      if ((await workspace.findSymlink(f.path)) !== null) {
        notes.push(`${f.field} ${JSON.stringify(f.path)}: under a symlink of the checkout, not written`);
        continue;
      }
      versionFiles.push(f);
    }
  }
  const setupCfg = present.has("setup.cfg") ? await read("setup.cfg") : null;
  if (setupCfg !== null) take(setupCfgRequirements(setupCfg));
  const tox = present.has("tox.ini") ? await read("tox.ini") : null;
  const setupPy = present.has("setup.py") ? await read("setup.py") : null;
  if (setupPy !== null) {
    const r = setupPyRequirements(setupPy, tox === null ? [] : toxExtras(tox));
    take(r);
    notes.push(...r.notes);
  }
  // Requirements files: the test ones at the usual places, and what they and tox.ini include with `-r`.
  const queue = chooseRequirementsFiles(all);
  if (tox !== null) {
    const t = toxRequirements(tox);
    if (t.requirements.length > 0) {
      requirements.push(...t.requirements);
      sources.push("tox.ini [testenv] deps");
    }
    queue.push(...t.includes.map((f) => path.posix.normalize(f)));
  }
  const done = new Set<string>();
  while (queue.length > 0 && done.size < 50) {
    const f = queue.shift() as string;
    if (done.has(f) || f.startsWith("../") || path.posix.isAbsolute(f) || !present.has(f)) continue;
    if (!isIncludeForTests(f)) continue;
    done.add(f);
    const text = await read(f);
    if (text === null) continue;
    const reqs = parseRequirements(text);
    if (reqs.length > 0) {
      requirements.push(...reqs);
      sources.push(f);
    }
    const dir = path.posix.dirname(f);
    queue.push(...requirementIncludes(text).map((i) => path.posix.normalize(path.posix.join(dir, i))));
  }
  const srcLayout = all.some((f) => /^src\/[^/]+\/__init__\.py$/.test(f)) && !present.has("src/__init__.py");
  let wanted = withoutProject(requirements, project);
  if (command !== undefined) {
    const unused = unusedOrchestrators(wanted, command);
    if (unused.length > 0) {
      wanted = wanted.filter((r) => !unused.includes(r));
      notes.push(`not installed, the test command does not run them: ${unused.join(", ")}`);
    }
  }
  if (wanted.length === 0 && !srcLayout && versionFiles.length === 0) return null;
  return {
    sources,
    requirements: wanted,
    srcLayout,
    ...(notes.length > 0 ? { notes } : {}),
    ...(versionFiles.length > 0 ? { versionFiles } : {}),
  };
}

/** What the repository declares (JS and Python), and for JS what is missing from the checkout. */
export async function checkDependencies(workspace: Workspace): Promise<DependencyReport> {
  return { js: await checkJsDependencies(workspace), python: await checkPythonDependencies(workspace) };
}

/** Whether a test command runs JS tooling (and so needs the package's node_modules). */
export function runsJs(command: TestCommand): boolean {
  if (["jest", "vitest", "mocha", "node-test"].includes(command.framework)) return true;
  // A package script or binary the command was expanded from (`npm run tests-only` → `nyc tape …`).
  if (/package\.json scripts|node_modules\/\.bin/.test(command.detectedBy)) return true;
  return /^\s*(npm|npx|yarn|pnpm|node|bun)(\s|$)/.test(command.command);
}

/**
 * Throws MissingDependenciesError when `command` runs JS, package.json declares packages that are not in the
 * checkout, and the caller does not provide a node_modules of its own (`provided`: installed on the host from
 * the lockfile and copied into the sandbox).
 */
export async function requireDependencies(
  workspace: Workspace,
  command: TestCommand,
  options: { provided?: boolean } = {},
): Promise<JsDependencies | null> {
  if (!runsJs(command)) return null;
  const js = await checkJsDependencies(workspace);
  if (js === null || options.provided === true) return js;
  if (js.missing.length > 0) throw new MissingDependenciesError(js.missing, js.lockfile);
  return js;
}

/** Whether the lockfile is npm's, which `npm ci` installs exactly. */
export function isNpmLockfile(lockfile: string | null): boolean {
  return lockfile === "package-lock.json" || lockfile === "npm-shrinkwrap.json";
}

/** Whether the extra directories put a `node_modules` into the workspace. */
export function providesNodeModules(extraDirs: readonly ExtraDir[] | undefined): boolean {
  return (extraDirs ?? []).some((d) => d.paths.some((p) => p.replace(/\/$/, "") === "node_modules"));
}

/** Whether a test command runs Python (and so needs the repository's Python requirements). */
export function runsPython(command: TestCommand): boolean {
  if (command.framework === "pytest") return true;
  const words = command.command.trim().split(/\s+/);
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? "")) words.shift();
  return /^(python[0-9.]*|pytest|py\.test)$/.test(words[0] ?? "");
}

/**
 * The port that installs a repository's dependencies outside its checkout and returns the host directories to
 * copy into each sandbox run (src/install/repo-deps.ts: in the install container, cached).
 * - `js`: exactly as its npm lockfile pins them, else resolved from package.json (`node_modules`);
 * - `python`: its runtime and test requirements (`PYTHONUSERBASE`, see TEST_ENV), wheels only.
 */
export interface DependencyProvider {
  /**
   * Installs the JS dependencies of `workspace`'s package.json. `next.baseDirs`: what the provider gave the
   * base, when this is a patched manifest installed next to it; the provider starts from the base's resolved
   * tree where it kept one (npm keeps what still matches and resolves only the rest).
   */
  js(workspace: Workspace, js: JsDependencies, next?: { baseDirs: readonly ExtraDir[] }): Promise<ExtraDir[]>;
  python?(workspace: Workspace, python: PythonDependencies): Promise<ExtraDir[]>;
}

/**
 * The extra directories every test run gets: `extraDirs` as given, plus what `provider` installs:
 * - when the command runs JS and declared packages are missing from the checkout (from its npm lockfile, or
 *   from package.json with a yarn/pnpm lockfile's pins or none, as the provider says in its progress lines).
 *   Throws MissingDependenciesError when they are missing and there is no provider;
 * - when the command runs Python and the repository declares requirements (or has a src layout).
 */
export async function dependencyDirs(
  workspace: Workspace,
  command: TestCommand,
  options: { extraDirs?: ExtraDir[] | undefined; provider?: DependencyProvider | undefined } = {},
): Promise<ExtraDir[]> {
  const given = options.extraDirs ?? [];
  if (runsPython(command) && options.provider?.python) {
    const python = await checkPythonDependencies(workspace, command.command);
    if (python !== null) return [...given, ...(await options.provider.python(workspace, python))];
    return given;
  }
  if (!runsJs(command) || providesNodeModules(given)) return given;
  const js = await checkJsDependencies(workspace);
  if (js === null || js.missing.length === 0) return given;
  if (options.provider) return [...given, ...(await options.provider.js(workspace, js))];
  throw new MissingDependenciesError(js.missing, js.lockfile);
}
