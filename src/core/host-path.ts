/**
 * The PATH of the programs Retrace starts on the host (git and the `sh` that wraps it, tar, npm, pip3). A program
 * named without a slash is looked up in the child's PATH, and an empty entry (`PATH=:/usr/bin`, what
 * `PATH=$EXTRA:$PATH` gives when EXTRA is unset) or a relative one (`.`, `node_modules/.bin`) is looked up from the
 * child's working directory — the checkout, for git, and for everything the Action starts (its working directory is
 * the workspace). A repository that commits an executable `git` would then run it on the host (twenty-eighth red
 * team). So only absolute entries are kept, and none inside the directories a caller names (the checkout: a step
 * before the Action may have put `$GITHUB_WORKSPACE/node_modules/.bin` on the PATH).
 *
 * Every such spawn excludes the same directories (hostPathExclusions): the one it names (the checkout it runs in or
 * packs), the process's working directory (the Action's is the workspace) and GITHUB_WORKSPACE when set — npm's own
 * working directory or a tar of another directory is not where a step put `$GITHUB_WORKSPACE/node_modules/.bin`.
 *
 * Pure: the PATH value, the working directory and the directories are parameters.
 */
import path from "node:path";

/** What is left when no entry of the host's PATH may be used. */
export const FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Whether `entry` is `dir` or lies below it (both absolute, compared after normalising). */
function inside(entry: string, dir: string): boolean {
  const d = path.resolve(dir);
  if (d === path.parse(d).root) return false;
  const e = path.resolve(entry);
  return e === d || e.startsWith(`${d}${path.sep}`);
}

/**
 * `value` (the host's PATH) with only its absolute entries, first occurrence of each kept, none at or under any of
 * `exclude` (absolute directories: the checkout); FALLBACK_PATH when nothing is left.
 */
export function hostPath(value: string | undefined, exclude: readonly string[] = []): string {
  const kept: string[] = [];
  for (const entry of (value ?? "").split(path.delimiter)) {
    if (!path.isAbsolute(entry)) continue;
    if (exclude.some((dir) => path.isAbsolute(dir) && inside(entry, dir))) continue;
    if (!kept.includes(entry)) kept.push(entry);
  }
  return kept.length > 0 ? kept.join(path.delimiter) : FALLBACK_PATH;
}

/**
 * The directories no host PATH entry may lie in: `dirs` (the checkout a spawn runs in or reads), the process's working
 * directory `cwd` (null when it is gone) and `workspace` (GITHUB_WORKSPACE) when set; only absolute ones, each once.
 */
export function hostPathExclusions(
  dirs: readonly string[],
  cwd: string | null,
  workspace: string | undefined,
): string[] {
  const out: string[] = [];
  for (const dir of [...dirs, cwd, workspace])
    if (dir && path.isAbsolute(dir) && !out.includes(dir)) out.push(dir);
  return out;
}

/** The process's working directory, or null when it was removed (`process.cwd()` then throws). */
function workingDir(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

/**
 * The PATH of a program Retrace starts on the host: `env.PATH` through hostPath, excluding hostPathExclusions of
 * `dirs`, the working directory and `env.GITHUB_WORKSPACE`. The environment and the working directory are parameters
 * (the process's own when a deep caller has none to pass, as hostLimits does).
 */
export function hostSpawnPath(
  dirs: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string | null = workingDir(),
): string {
  return hostPath(
    env.PATH,
    hostPathExclusions(dirs, homeOrAbove(cwd, env.HOME) ? null : cwd, env.GITHUB_WORKSPACE),
  );
}

/**
 * Whether `cwd` is the home directory or one of its ancestors (`/home`): a checkout never is, and a developer's
 * toolchain often lives below it (`~/.nvm/versions/node/v20/bin`, `~/.cargo/bin`), so such a working directory is
 * not excluded — the CLI started from `~` keeps its npm and git.
 */
function homeOrAbove(cwd: string | null, home: string | undefined): boolean {
  if (!cwd || !home || !path.isAbsolute(home)) return false;
  const c = path.resolve(cwd);
  const h = path.resolve(home);
  return h === c || h.startsWith(c === path.parse(c).root ? c : `${c}${path.sep}`);
}
