/**
 * A per-job checkout for the App's `local` executor: the failing commit's files fetched as GitHub's tarball
 * with the installation token, unpacked safely into a fresh temp directory, and committed once (`git init`,
 * one commit) so the fix pipeline's git calls work. `dispose()` removes it; callers call it in `finally`.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { safeGit } from "../git/run-git.ts";
import type { GitHubPort, RepoId } from "../core/ports/github.ts";
import { operatorTarballLimits, removeTree, type TarballLimits, unpackTarball } from "../github/tarball.ts";

export interface Checkout {
  /** Host directory holding the files of `sha`, with one local commit. */
  dir: string;
  files: number;
  bytes: number;
  /** Symbolic links dropped because they dangled or resolved outside the checkout. */
  droppedLinks: string[];
  dispose(): Promise<void>;
}

export interface CheckoutOptions {
  /** Parent of the per-job directory (the OS temp dir by default). */
  tmpRoot?: string;
  limits?: TarballLimits;
}

export async function checkoutCommit(
  github: GitHubPort,
  repo: RepoId,
  sha: string,
  jobId: string,
  options: CheckoutOptions = {},
): Promise<Checkout> {
  const safeId = jobId.replace(/[^\w.-]/g, "_");
  const dir = await mkdtemp(path.join(options.tmpRoot ?? tmpdir(), `retrace-checkout-${safeId}-`));
  try {
    const archive = await github.downloadTarball(repo, sha);
    const unpacked = await unpackTarball(archive, dir, options.limits ?? operatorTarballLimits());
    // safeGit: no GIT_DIR leaking in from the App's environment, no global or system config, no hook, filter
    // or other program named by any config runs on this commit.
    // A large archive takes a while to add and commit: 5 minutes, then the process group is killed.
    const git = safeGit(dir, { timeoutMs: 300_000 });
    await git.raw(["init", "-q"]);
    // -f: the commit mirrors the archive even where the repository's .gitignore lists a committed file.
    await git.raw(["add", "-A", "-f"]);
    await git.raw([
      "-c",
      "user.name=Retrace",
      "-c",
      "user.email=retrace@users.noreply.github.com",
      "commit",
      "-q",
      "--no-verify",
      "--allow-empty",
      "-m",
      `${repo.owner}/${repo.repo}@${sha}`,
    ]);
    return {
      dir,
      files: unpacked.files,
      bytes: unpacked.bytes,
      droppedLinks: unpacked.droppedLinks,
      dispose: () => removeTree(dir),
    };
  } catch (error) {
    await removeTree(dir);
    throw error;
  }
}
