/**
 * Dependency preflight: before tests run in the offline sandbox, find out what the repository declares and
 * whether it is present in the checkout. A JS test run with its declared packages missing fails for a reason
 * that has nothing to do with the patch (`Cannot find module 'jest'`), so it must stop the job with an
 * actionable error instead of being read as evidence against the patch.
 * Pure: reads the repository through the Workspace port.
 */
import { RetraceError } from "../core/errors.ts";
import type { Workspace } from "../core/ports/workspace.ts";
import type { ExtraDir } from "../core/ports/sandbox.ts";
import type { TestCommand } from "./test-runner/types.ts";

/** Lockfiles in the order they are looked for; only npm's can be installed by Retrace (`npm ci`). */
export const JS_LOCKFILES = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
] as const;

export interface JsDependencies {
  /** Names from package.json `dependencies` and `devDependencies`, sorted. */
  declared: string[];
  /** Declared names without `node_modules/<name>` in the checkout (a directory, or a link as pnpm makes). */
  missing: string[];
  /** The first lockfile found (see JS_LOCKFILES), or null: then versions are not pinned. */
  lockfile: string | null;
}

export interface PythonDependencies {
  /** Files that declare requirements: `requirements*.txt` at the root, `pyproject.toml` with `[project] dependencies`. */
  files: string[];
  /** Requirement specifiers as written (comments, options and `-r` includes left out). Not checked: reported only. */
  requirements: string[];
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
  const declared = [...new Set([...objectKeys(p.dependencies), ...objectKeys(p.devDependencies)])].sort();
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

/** Requirement lines of a requirements file: no blanks, comments, pip options or includes. */
export function parseRequirements(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/(^|\s)#.*$/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("-"));
}

/** The `dependencies` array of the `[project]` table of a pyproject.toml (strings only). */
export function parsePyprojectDependencies(text: string): string[] {
  const lines = text.split(/\r?\n/);
  let inProject = false;
  let collecting = false;
  let buffer = "";
  for (const raw of lines) {
    const line = raw.replace(/(^|\s)#.*$/, "");
    if (!collecting && /^\s*\[/.test(line)) {
      inProject = /^\s*\[project\]\s*$/.test(line);
      continue;
    }
    if (inProject && !collecting) {
      const m = /^\s*dependencies\s*=\s*(.*)$/.exec(line);
      if (m) {
        collecting = true;
        buffer = m[1] ?? "";
      }
    } else if (collecting) {
      buffer += `\n${line}`;
    }
    if (collecting && buffer.includes("]")) break;
  }
  if (!collecting) return [];
  const out: string[] = [];
  for (const m of buffer.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)) {
    const value = (m[1] ?? m[2] ?? "").trim();
    if (value) out.push(value);
  }
  return out;
}

/** Python requirement files at the root and what they declare; null when there are none. */
export async function checkPythonDependencies(workspace: Workspace): Promise<PythonDependencies | null> {
  const root = await workspace.listFiles({ max: 20_000 });
  const files: string[] = [];
  const requirements: string[] = [];
  for (const f of root.filter((x) => /^requirements[^/]*\.txt$/.test(x))) {
    files.push(f);
    requirements.push(...parseRequirements(await workspace.readFile(f)));
  }
  if (root.includes("pyproject.toml")) {
    const deps = parsePyprojectDependencies(await workspace.readFile("pyproject.toml"));
    if (deps.length > 0) {
      files.push("pyproject.toml");
      requirements.push(...deps);
    }
  }
  return files.length === 0 ? null : { files, requirements };
}

/** What the repository declares (JS and Python), and for JS what is missing from the checkout. */
export async function checkDependencies(workspace: Workspace): Promise<DependencyReport> {
  return { js: await checkJsDependencies(workspace), python: await checkPythonDependencies(workspace) };
}

/** Whether a test command runs JS tooling (and so needs the package's node_modules). */
export function runsJs(command: TestCommand): boolean {
  if (["jest", "vitest", "mocha", "node-test"].includes(command.framework)) return true;
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

/**
 * The port that installs a repository's JS dependencies outside its checkout, exactly as its npm lockfile pins
 * them, and returns the host directories to copy into each sandbox run (src/install/repo-deps.ts: in the install container).
 */
export type DependencyProvider = (workspace: Workspace, js: JsDependencies) => Promise<ExtraDir[]>;

/**
 * The extra directories every test run gets: `extraDirs` as given, plus what `provider` installs when the
 * command runs JS, declared packages are missing from the checkout and an npm lockfile pins them. Throws
 * MissingDependenciesError when they are missing and cannot be installed (no provider, no npm lockfile: Retrace
 * never installs without a lockfile, the versions would float).
 */
export async function dependencyDirs(
  workspace: Workspace,
  command: TestCommand,
  options: { extraDirs?: ExtraDir[] | undefined; provider?: DependencyProvider | undefined } = {},
): Promise<ExtraDir[]> {
  const given = options.extraDirs ?? [];
  if (!runsJs(command) || providesNodeModules(given)) return given;
  const js = await checkJsDependencies(workspace);
  if (js === null || js.missing.length === 0) return given;
  if (options.provider && isNpmLockfile(js.lockfile))
    return [...given, ...(await options.provider(workspace, js))];
  throw new MissingDependenciesError(js.missing, js.lockfile);
}
