/**
 * The host's git: the environment every git command runs in, and the version check that guards what older gits
 * ignore. Apart from run-git.ts so that ./origin.ts can ask the version without importing the runner (run-git →
 * promisor → origin → run-git was an import cycle).
 */
import { spawn } from "node:child_process";
import { hostSpawnPath } from "../core/host-path.ts";
import { GitError } from "./errors.ts";

/**
 * The environment of every git command: nothing of the host's but PATH/HOME/LANG. The PATH keeps only absolute
 * entries outside `cwd`, the process's working directory and GITHUB_WORKSPACE (src/core/host-path.ts): git, the `sh`
 * that starts it and the programs git starts itself (ssh, a remote helper) are never looked up in the checkout.
 */
export function gitEnv(extra: Record<string, string> = {}, cwd?: string): Record<string, string> {
  return {
    PATH: hostSpawnPath(cwd === undefined ? [] : [cwd]),
    HOME: process.env.HOME ?? "/nonexistent",
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    GIT_OPTIONAL_LOCKS: "0",
    // The objects a commit names are the objects git reads: no `refs/replace/*` substitutes another commit, tree
    // or blob (a replaced HEAD put a file no run verified into Retrace's fix commit), no `info/grafts` rewrites
    // a commit's parents.
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_GRAFT_FILE: "/dev/null",
    ...extra,
  };
}

let versionChecked: Promise<[number, number]> | null = null;

/** GIT_CONFIG_COUNT needs git 2.31 (March 2021); an older git would silently ignore the neutralisation. */
export function requireGitVersion(): Promise<[number, number]> {
  versionChecked ??= new Promise((resolve, reject) => {
    const child = spawn("git", ["--version"], { env: gitEnv(), stdio: ["ignore", "pipe", "ignore"] });
    let text = "";
    child.stdout.on("data", (c: Buffer) => {
      text += c.toString();
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new GitError(
          `cannot run git: ${error.message}`,
          error.code === "ENOENT" ? "install git (2.31 or newer) on the host that runs Retrace" : undefined,
          error,
        ),
      ),
    );
    child.on("close", () => {
      const m = /git version (\d+)\.(\d+)/.exec(text);
      const [major, minor] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
      if (major > 2 || (major === 2 && minor >= 31)) resolve([major, minor]);
      else
        reject(
          new GitError(
            `git 2.31 or newer is required (found: ${text.trim() || "no version"})`,
            "upgrade git on the host that runs Retrace",
          ),
        );
    });
  });
  return versionChecked;
}

/** Whether the host's git is at least `major.minor` (a key an older git ignores silently must not be relied on). */
export async function gitAtLeast(major: number, minor: number): Promise<boolean> {
  const [a, b] = await requireGitVersion();
  return a > major || (a === major && b >= minor);
}
