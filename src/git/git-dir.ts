/**
 * The checkout's git directory, checked before every host-side git command (`safeGit`). Git reads files there
 * that point elsewhere, and quotes their lines when they are not what it expects: `.git/packed-refs`,
 * `.git/shallow` or `.git/objects/info/alternates` committed as a link to a host file put that file's lines in
 * git's error, and so in Retrace's (ninth red team: `fatal: unexpected line in .git/packed-refs: root:$6$…`);
 * `objects/info/alternates`, `commondir` or a `.git` file (`gitdir:`) naming another repository on the host made
 * the fix pipeline read that repository's commits into the model's context and write its branch there.
 *
 * The rule: the git directory is `<checkout>/.git`, a real directory, or a `.git` file naming a linked worktree's
 * directory (`<repo>/.git/worktrees/<name>`, whose own `gitdir` file points back at this checkout, as
 * `git worktree add` writes it) or a submodule's directory inside an enclosing repository's `.git`. In it (and in
 * a worktree's common directory), the files git reads are regular files with one name, reached through no link;
 * its object, ref and info directories are real directories; no object store is borrowed (`alternates`), and a
 * `commondir` is only a linked worktree's. Nothing here runs git or reads more than a few small files.
 *
 * Below those files, every entry of the git directory (`walk`): git writes and reads through links anywhere in it,
 * not only in the files it names at the top (twenty-ninth red team: `logs/HEAD` a link to a host path got the
 * Action's checkout's reflog line appended to it; `logs/refs`, `refs/heads/<prefix>` and the object fan-out
 * directories as links to a host directory got the fix branch's reflog, ref and objects written there; fan-out
 * directories or pack files linked into another repository on the host put its files in local-fix's diff). So no
 * entry is a symbolic link, a FIFO, a socket or a device; outside `objects` no file has a second name (git appends
 * to reflogs and rewrites refs in place). In `objects`, a file with several names is a local clone's (`git clone
 * /path` hard-links the objects by default): allowed, a link to it cannot be made by a remote. `hooks` is not
 * walked: hooks never run (`core.hooksPath=/dev/null`), and a shared hooks directory linked in is common.
 */
import type { Stats } from "node:fs";
import { openRegularFile } from "./regular-file.ts";
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { GitConfigRefusedError } from "./errors.ts";

/** Files git reads from a git directory (and quotes, some of them, when they hold something unexpected). */
const FILES = [
  "HEAD",
  "config",
  "config.worktree",
  "packed-refs",
  "shallow",
  "index",
  "commondir",
  "gitdir",
  "FETCH_HEAD",
  "ORIG_HEAD",
  "MERGE_HEAD",
  "CHERRY_PICK_HEAD",
  "REVERT_HEAD",
  "info/exclude",
  "info/attributes",
  "info/sparse-checkout",
  "info/grafts",
  "objects/info/alternates",
  "objects/info/http-alternates",
  "objects/info/commit-graph",
  "objects/info/packs",
];
/** Directories that must be real directories of the git directory, never links to another. */
const DIRS = [
  "objects",
  "objects/info",
  "objects/pack",
  "refs",
  "refs/heads",
  "refs/tags",
  "info",
  "logs",
  "worktrees",
];
/** Files that make git read another repository's objects. */
const BORROWED = ["objects/info/alternates", "objects/info/http-alternates"];

const HINT =
  "run Retrace on a plain clone of the repository (git clone), whose .git holds no links and borrows nothing";

function refuse(what: string): never {
  throw new GitConfigRefusedError(
    `the checkout's git directory ${what}, so Retrace does not run git on it`,
    HINT,
  );
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  return lstat(p).catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT" || e.code === "ENOTDIR") return null;
    throw e;
  });
}

/** A small file's text (its first 4 KiB): a regular file with one name, opened without following a link. */
async function smallFile(p: string): Promise<string> {
  const handle = await openRegularFile(p);
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** Entries of one git directory walked before git runs; past it the checkout is refused (a pathological `.git`). */
export const MAX_GIT_DIR_ENTRIES = 2_000_000;

/** Top-level entries of a git directory that are never walked (see the header). */
const NOT_WALKED = new Set(["hooks"]);

/**
 * Every entry below `gitDir` (but `hooks`): refused when it is a link, not a file or directory, or (outside
 * `objects`) a file with more than one name. Reads directory entries' types (no `lstat` per loose object).
 */
function walk(gitDir: string, label: string): void {
  // Synchronous on purpose: a promise per entry cost ~0.2 s of CPU for a .git of 2,000 files; this is ~10 ms.
  let seen = 0;
  const stack: { dir: string; rel: string; objects: boolean }[] = [{ dir: gitDir, rel: "", objects: false }];
  for (let at = stack.pop(); at; at = stack.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(at.dir, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      throw e;
    }
    for (const e of entries) {
      const rel = at.rel === "" ? e.name : `${at.rel}/${e.name}`;
      if (at.rel === "" && NOT_WALKED.has(e.name)) continue;
      if (++seen > MAX_GIT_DIR_ENTRIES)
        refuse(
          `holds more than ${MAX_GIT_DIR_ENTRIES.toLocaleString("en-US")} entries (git gc packs loose objects)`,
        );
      const full = path.join(at.dir, e.name);
      if (e.isSymbolicLink()) refuse(`has ${label}/${rel} as a symbolic link`);
      if (e.isDirectory()) {
        stack.push({ dir: full, rel, objects: at.objects || (at.rel === "" && e.name === "objects") });
        continue;
      }
      if (!e.isFile()) refuse(`has ${label}/${rel} that is not a regular file or a directory`);
      if (!at.objects) {
        const st = lstatSync(full, { throwIfNoEntry: false });
        if (st && st.nlink > 1) refuse(`has ${label}/${rel} with ${st.nlink} names (a hard link)`);
      }
    }
  }
}

/** The files and directories of one git directory (`label` names it in a refusal). */
async function checkContents(gitDir: string, label: string, allowCommondir: boolean): Promise<void> {
  for (const d of DIRS) {
    const st = await lstatOrNull(path.join(gitDir, d));
    if (st && !st.isDirectory())
      refuse(`has ${label}/${d} as ${st.isSymbolicLink() ? "a symbolic link" : "a file"}`);
  }
  for (const f of FILES) {
    const st = await lstatOrNull(path.join(gitDir, f));
    if (!st) continue;
    if (st.isSymbolicLink()) refuse(`has ${label}/${f} as a symbolic link`);
    if (!st.isFile()) refuse(`has ${label}/${f} that is not a regular file`);
    if (st.nlink > 1) refuse(`has ${label}/${f} with ${st.nlink} names (a hard link)`);
  }
  for (const f of BORROWED) {
    if (await lstatOrNull(path.join(gitDir, f)))
      refuse(`borrows objects from another repository (${label}/${f})`);
  }
  if (!allowCommondir && (await lstatOrNull(path.join(gitDir, "commondir"))))
    refuse(`shares another repository's refs and objects (${label}/commondir)`);
  walk(gitDir, label);
}

/**
 * Checks the git directory of the checkout at `workDir` (found as git finds it: `.git` here or in the nearest
 * parent that has one). Resolves when git may run; throws GitConfigRefusedError naming what is wrong. A directory
 * with no `.git` above it is left to git (which finds no repository).
 */
export async function checkGitDir(workDir: string): Promise<void> {
  let top = path.resolve(workDir);
  let dotGit: Stats | null = null;
  for (;;) {
    dotGit = await lstatOrNull(path.join(top, ".git"));
    if (dotGit) break;
    const up = path.dirname(top);
    if (up === top) return;
    top = up;
  }
  const dot = path.join(top, ".git");
  if (dotGit.isSymbolicLink()) refuse("is a symbolic link (.git)");
  if (dotGit.isDirectory()) {
    await checkContents(dot, ".git", false);
    return;
  }
  if (!dotGit.isFile()) refuse("is neither a directory nor a file (.git)");
  if (dotGit.nlink > 1) refuse("is a .git file with more than one name (a hard link)");
  const m = /^gitdir: (.+?)\r?\n?$/.exec(await smallFile(dot));
  if (!m) refuse("is a .git file that does not name one (gitdir: <path>)");
  const named = path.resolve(top, m[1]!);
  const st = await lstatOrNull(named);
  if (!st?.isDirectory()) refuse(`is a .git file naming ${m[1]}, which is not a directory`);
  const gitDir = await realpath(named);
  // A linked worktree: <common>/worktrees/<name>, whose `gitdir` file points back at this checkout's .git.
  const commonFile = path.join(gitDir, "commondir");
  if (await lstatOrNull(commonFile)) {
    await checkContents(gitDir, m[1]!, true);
    const common = await realpath(path.resolve(gitDir, (await smallFile(commonFile)).trim())).catch(
      () => null,
    );
    const back = await smallFile(path.join(gitDir, "gitdir")).catch(() => null);
    const backTo = back ? await realpath(path.resolve(gitDir, back.trim())).catch(() => null) : null;
    if (
      common === null ||
      path.dirname(gitDir) !== path.join(common, "worktrees") ||
      backTo !== (await realpath(dot))
    )
      refuse(`is a .git file naming ${m[1]}, which is not a worktree of this checkout's repository`);
    await checkContents(common, path.relative(top, common) || common, false);
    return;
  }
  // A submodule: its git directory lives in an enclosing repository's .git (`../.git/modules/<name>`).
  for (let up = path.dirname(top); ; up = path.dirname(up)) {
    const enclosing = await lstatOrNull(path.join(up, ".git"));
    if (enclosing?.isDirectory() && inside(await realpath(path.join(up, ".git")), gitDir)) {
      await checkContents(gitDir, m[1]!, false);
      return;
    }
    if (path.dirname(up) === up) break;
  }
  refuse(`is a .git file naming ${m[1]}, a repository outside this checkout`);
}
