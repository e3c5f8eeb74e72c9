/**
 * The `--out DIR` of a command: checked before any work starts (so a typo does not cost a sandbox run), and
 * written all-or-nothing at the end (a failed write removes what it wrote, and the directory if it made it).
 *
 * Directories are created one level at a time: Node 20's recursive mkdir never settles for some paths
 * (`mkdir("/proc/x", { recursive: true })`), which would hang the command.
 */
import { constants } from "node:fs";
import { lstat, mkdir, readlink, rm, rmdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { UsageError } from "../core/errors.ts";
import { readErrorReason } from "./read-input.ts";

const HINT = "pass a directory you can write to (it is created when missing)";

function outError(flag: string, dir: string, error: unknown): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT"
      ? "the file system does not allow creating it"
      : code === "EROFS"
        ? "read-only file system"
        : code === "ENOSPC"
          ? "no space left on the device"
          : code === "EEXIST" || code === "ENOTDIR"
            ? "a file is in the way of the directory"
            : readErrorReason(error);
  return new UsageError(`cannot write ${flag} ${dir}: ${why}`, HINT);
}

/** Creates `dir` and its missing parents one level at a time; returns the directories it created, outermost first. */
async function makeDirs(dir: string): Promise<string[]> {
  const missing: string[] = [];
  let p = dir;
  for (;;) {
    const st = await stat(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return null;
      throw e;
    });
    if (st) {
      if (!st.isDirectory()) throw Object.assign(new Error(`${p} is not a directory`), { code: "ENOTDIR" });
      break;
    }
    missing.unshift(p);
    const parent = path.dirname(p);
    if (parent === p) break;
    p = parent;
  }
  const created: string[] = [];
  try {
    for (const d of missing) {
      await mkdir(d);
      created.push(d);
    }
  } catch (error) {
    await removeDirs(created);
    throw error;
  }
  return created;
}

async function removeDirs(created: string[]): Promise<void> {
  for (const d of [...created].reverse()) await rmdir(d).catch(() => undefined);
}

/**
 * Refuses an output directory reached through a symbolic link that a checkout could hold: the directory itself, or
 * any directory between the current one and it (red team 22: `--out retrace-out`, committed as a link to a
 * directory outside the checkout, had `result.json` written there). Links above the current directory are the
 * machine's own layout (`/tmp` on macOS) and are followed.
 */
async function refuseLinks(flag: string, dir: string, abs: string): Promise<void> {
  const cwd = process.cwd();
  const inside = path.relative(cwd, abs);
  const below = inside !== "" && !inside.startsWith("..") && !path.isAbsolute(inside);
  const checked = below
    ? inside.split(path.sep).map((_, i, a) => path.join(cwd, ...a.slice(0, i + 1)))
    : [abs];
  for (const p of checked) {
    const st = await lstat(p).catch(() => null);
    if (st === null) return;
    if (st.isSymbolicLink()) {
      const target = await readlink(p).catch(() => "?");
      throw new UsageError(
        `cannot write ${flag} ${dir}: ${p === abs ? "it is" : `${path.relative(cwd, p)} is`} a symbolic link (to ${target}), which a checkout can hold`,
        "pass the directory the link points to, or a directory that is not a link",
      );
    }
  }
}

/**
 * Checks that `dir` can be written, before the command does its work: an existing file in the way, a
 * read-only or special file system and missing permissions are usage errors. Leaves nothing behind.
 * @returns the absolute directory
 */
export async function checkOutDir(flag: string, dir: string): Promise<string> {
  const abs = path.resolve(dir);
  let created: string[] = [];
  const probe = path.join(abs, `.retrace-probe-${process.pid}`);
  await refuseLinks(flag, dir, abs);
  try {
    created = await makeDirs(abs);
    await writeFile(probe, "");
  } catch (error) {
    throw outError(flag, dir, error);
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
    await removeDirs(created);
  }
  return abs;
}

/** Writes `files` (name → content) into `dir`, all or nothing. */
export async function writeOutDir(
  flag: string,
  dir: string,
  files: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  const abs = path.resolve(dir);
  let created: string[] = [];
  const written: string[] = [];
  // Checked again when written: the link may have been put there while the command ran.
  await refuseLinks(flag, dir, abs);
  try {
    created = await makeDirs(abs);
    for (const [name, content] of files) {
      const file = path.join(abs, name);
      written.push(file);
      // A link already standing at an output's name is refused (ELOOP), never written through.
      await writeFile(file, content, {
        flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      });
    }
  } catch (error) {
    for (const file of written) await rm(file, { force: true }).catch(() => undefined);
    await removeDirs(created);
    throw outError(flag, dir, error);
  }
}
