/**
 * The state of a checkout before `retrace fix` works on it. The sandbox copies the working tree as it is on
 * disk, while the branch Retrace creates is built on HEAD: uncommitted changes would be verified but not be
 * on the branch. So they are named to the user, and `fix` refuses them unless told otherwise.
 */
import { lstat, mkdir, readlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../core/errors.ts";
import type { SafeGit } from "../git/run-git.ts";

/** The directory in a repository where `retrace fix` writes its outputs by default. */
export const OUT_ROOT = ".retrace";

/**
 * Paths with uncommitted changes: modified, staged, deleted, renamed and untracked (not ignored) files, in
 * `git status` order. Retrace's own output directory does not count.
 */
export async function uncommittedChanges(git: SafeGit): Promise<string[]> {
  const out = await git.raw(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"]);
  const paths: string[] = [];
  for (const entry of out.split("\0")) {
    if (entry.length < 4) continue;
    const file = entry.slice(3);
    if (file === OUT_ROOT || file.startsWith(`${OUT_ROOT}/`)) continue;
    paths.push(file);
  }
  return paths;
}

/** `a, b, c and 4 more` */
export function listPaths(paths: readonly string[], max = 5): string {
  const shown = paths.slice(0, max).join(", ");
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}

/**
 * Makes `<repo>/.retrace` when it is missing, with a `.gitignore` that ignores everything in it: outputs of
 * one run never show up in `git status`, so they neither get committed by accident nor make the next run's
 * tree look changed.
 */
export async function ensureOutRoot(repo: string): Promise<void> {
  const root = path.join(repo, OUT_ROOT);
  if (await checkOutRoot(repo)) return;
  await mkdir(root);
  await writeFile(
    path.join(root, ".gitignore"),
    "# written by retrace fix: its outputs stay out of git\n*\n",
  );
}

/**
 * `<repo>/.retrace` is the repository's file, not Retrace's: a checkout can commit it as a symbolic link (to
 * `/etc/cron.d`, to another user's directory), and writing the outputs "into the repository" would then write
 * them wherever it points, on the host. Retrace writes there only when it is a real directory (never followed
 * through a link) or missing (it makes it); the same holds for the run's own directory below it (`sub`,
 * `fix-<id>`): each component is `lstat`-ed, so no link — nor a chain of links that each look inside — is ever
 * followed. Checked before the run and again before the write.
 * @returns whether `.retrace` exists (as a real directory)
 */
export async function checkOutRoot(repo: string, sub?: string): Promise<boolean> {
  const root = path.join(repo, OUT_ROOT);
  const exists = await realDirectory(root);
  if (exists && sub !== undefined) await realDirectory(path.join(root, sub));
  return exists;
}

/** Whether `dir` is a real directory (false when missing); a link or another file is a usage error. */
async function realDirectory(dir: string): Promise<boolean> {
  const st = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (st === null) return false;
  if (st.isDirectory()) return true;
  const what = st.isSymbolicLink()
    ? `a symbolic link (to ${await readlink(dir).catch(() => "?")})`
    : "not a directory";
  throw new UsageError(
    `${dir} is ${what}: retrace fix writes its outputs into the repository only into a real directory, never through a link`,
    "remove it from the checkout, or pass --out DIR to write the outputs elsewhere",
  );
}
