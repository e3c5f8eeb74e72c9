/**
 * The PATH of the programs Retrace starts on the host (git and the `sh` that wraps it, tar, npm, pip3). A program
 * named without a slash is looked up in the child's PATH, and an empty entry (`PATH=:/usr/bin`, what
 * `PATH=$EXTRA:$PATH` gives when EXTRA is unset) or a relative one (`.`, `node_modules/.bin`) is looked up from the
 * child's working directory — the checkout, for git, and for everything the Action starts (its working directory is
 * the workspace). A repository that commits an executable `git` would then run it on the host (twenty-eighth red
 * team). So only absolute entries are kept, and none inside the directories a caller names (the checkout: a step
 * before the Action may have put `$GITHUB_WORKSPACE/node_modules/.bin` on the PATH).
 *
 * Pure: the PATH value and the directories are parameters.
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
