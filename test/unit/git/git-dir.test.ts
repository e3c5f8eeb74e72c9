/**
 * The checkout's git directory, checked before every host-side git command (src/git/git-dir.ts, ninth red team):
 * metadata files that are links to a host file (git quotes their lines in its errors), borrowed object stores,
 * `commondir` and `.git` files naming another repository on the host — each refused by `safeGit` before git runs,
 * with a control for each showing what plain git does with it; clones, shallow clones, linked worktrees and
 * submodules still work.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitConfigRefusedError } from "../../../src/git/errors.ts";
import { checkGitDir } from "../../../src/git/git-dir.ts";
import { safeGit } from "../../../src/git/run-git.ts";

const SECRET = "RT9-HOST-FILE root:$6$hash:19000\nsecond line\n";
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    [
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@t",
      "-c",
      "init.defaultBranch=main",
      "-c",
      "protocol.file.allow=always",
      ...args,
    ],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** A fresh directory holding a host file and a repository `repo` with two commits. */
function setup(): { root: string; repo: string; secret: string } {
  const root = mkdtempSync(path.join(tmpdir(), "retrace-gitdir-"));
  dirs.push(root);
  const secret = path.join(root, "secret.txt");
  writeFileSync(secret, SECRET);
  const repo = path.join(root, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q");
  writeFileSync(path.join(repo, "a.txt"), "a\n");
  git(repo, "add", "a.txt");
  git(repo, "commit", "-q", "-m", "one");
  writeFileSync(path.join(repo, "a.txt"), "b\n");
  git(repo, "commit", "-q", "-am", "two");
  return { root, repo, secret };
}

/** Plain git's answer (stdout and stderr), for the controls. */
function plain(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", ["-c", "protocol.file.allow=always", ...args], { cwd, encoding: "utf8" });
  return `${r.stdout}${r.stderr}`;
}

async function refusedBySafeGit(repo: string): Promise<string> {
  const error = await safeGit(repo)
    .raw(["diff", "--no-ext-diff", "HEAD~1", "HEAD"])
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(GitConfigRefusedError);
  const message = (error as Error).message;
  expect(message).not.toMatch(/RT9-HOST-FILE|second line/);
  return message;
}

describe("the checkout's git directory", () => {
  it("refuses metadata files that are links to a host file (plain git quotes the file)", async () => {
    for (const name of ["packed-refs", "shallow", "objects/info/alternates", "info/grafts", "config"]) {
      const { repo, secret } = setup();
      mkdirSync(path.join(repo, ".git", path.dirname(name)), { recursive: true });
      rmSync(path.join(repo, ".git", name), { force: true });
      symlinkSync(secret, path.join(repo, ".git", name));
      if (name !== "config" && name !== "info/grafts")
        expect(plain(repo, "diff", "HEAD~1", "HEAD")).toMatch(/RT9-HOST-FILE|second line/);
      expect(await refusedBySafeGit(repo)).toContain(`.git/${name} as a symbolic link`);
    }
  });

  it("refuses a hard-linked metadata file and a linked objects directory", async () => {
    const { repo, secret } = setup();
    rmSync(path.join(repo, ".git", "packed-refs"), { force: true });
    linkSync(secret, path.join(repo, ".git", "packed-refs"));
    expect(await refusedBySafeGit(repo)).toContain("a hard link");
    const other = setup();
    const objects = path.join(other.repo, ".git", "objects");
    rmSync(objects, { recursive: true });
    symlinkSync(path.join(repo, ".git", "objects"), objects);
    expect(await refusedBySafeGit(other.repo)).toContain(".git/objects as a symbolic link");
  });

  it("refuses another repository's objects, refs or directory (plain git reads its files)", async () => {
    const host = setup();
    const hostSha = git(host.repo, "rev-parse", "HEAD").trim();
    writeFileSync(path.join(host.repo, "a.txt"), "HOST-ONLY\n");
    git(host.repo, "commit", "-q", "-am", "host");
    const hostHead = git(host.repo, "rev-parse", "HEAD").trim();

    const borrowed = setup();
    writeFileSync(
      path.join(borrowed.repo, ".git", "objects", "info", "alternates"),
      `${path.join(host.repo, ".git", "objects")}\n`,
    );
    writeFileSync(path.join(borrowed.repo, ".git", "refs", "heads", "main"), `${hostHead}\n`);
    expect(plain(borrowed.repo, "diff", "HEAD~1", "HEAD")).toContain("HOST-ONLY");
    expect(await refusedBySafeGit(borrowed.repo)).toContain("borrows objects");

    const common = setup();
    writeFileSync(path.join(common.repo, ".git", "commondir"), `${path.join(host.repo, ".git")}\n`);
    expect(plain(common.repo, "diff", "HEAD~1", "HEAD")).toContain("HOST-ONLY");
    expect(await refusedBySafeGit(common.repo)).toContain("commondir");

    const file = path.join(host.root, "checkout");
    mkdirSync(file);
    writeFileSync(path.join(file, ".git"), `gitdir: ${path.join(host.repo, ".git")}\n`);
    expect(plain(file, "diff", "HEAD~1", "HEAD")).toContain("HOST-ONLY");
    expect(await refusedBySafeGit(file)).toContain("outside this checkout");

    const link = path.join(host.root, "linked");
    mkdirSync(link);
    symlinkSync(path.join(host.repo, ".git"), path.join(link, ".git"));
    expect(await refusedBySafeGit(link)).toContain("symbolic link (.git)");
    expect(git(host.repo, "rev-parse", "HEAD~1").trim()).toBe(hostSha);
  });

  it("refuses a forged worktree: a .git file naming another repository's worktree directory", async () => {
    const host = setup();
    git(host.repo, "worktree", "add", "-q", path.join(host.root, "wt"), "-b", "wt");
    const forged = path.join(host.root, "forged");
    mkdirSync(forged);
    writeFileSync(path.join(forged, ".git"), `gitdir: ${path.join(host.repo, ".git", "worktrees", "wt")}\n`);
    await expect(checkGitDir(forged)).rejects.toThrow(/not a worktree of this checkout/);
  });

  it("lets git run on clones, shallow clones, linked worktrees, submodules and subdirectories", async () => {
    const { root, repo } = setup();
    await expect(safeGit(repo).raw(["diff", "--no-ext-diff", "HEAD~1", "HEAD"])).resolves.toContain("+b");
    const shallow = path.join(root, "shallow");
    git(root, "clone", "-q", "--depth", "1", `file://${repo}`, shallow);
    await expect(safeGit(shallow).raw(["rev-parse", "HEAD"])).resolves.toMatch(/^[0-9a-f]{40}/);
    const wt = path.join(root, "wt");
    git(repo, "worktree", "add", "-q", wt, "-b", "feature");
    await expect(safeGit(wt).raw(["rev-parse", "--abbrev-ref", "HEAD"])).resolves.toBe("feature\n");
    mkdirSync(path.join(repo, "sub"));
    await expect(safeGit(path.join(repo, "sub")).raw(["rev-parse", "HEAD"])).resolves.toMatch(
      /^[0-9a-f]{40}/,
    );
    const superRepo = path.join(root, "super");
    mkdirSync(superRepo);
    git(superRepo, "init", "-q");
    git(superRepo, "submodule", "add", "-q", `file://${repo}`, "mod");
    await expect(safeGit(path.join(superRepo, "mod")).raw(["rev-parse", "HEAD"])).resolves.toMatch(
      /^[0-9a-f]{40}/,
    );
    // A directory with no repository above it is git's to answer.
    const none = mkdtempSync(path.join(tmpdir(), "retrace-gitdir-none-"));
    dirs.push(none);
    await expect(checkGitDir(none)).resolves.toBeUndefined();
    unlinkSync(path.join(repo, "a.txt"));
  });

  // Twenty-ninth red team: links deeper in .git than the files above. Plain git writes and reads through them.
  describe("every entry below the top-level files", () => {
    const linkIn = (repo: string, rel: string, target: string) => {
      const p = path.join(repo, ".git", rel);
      rmSync(p, { recursive: true, force: true });
      mkdirSync(path.dirname(p), { recursive: true });
      symlinkSync(target, p);
    };

    it("refuses a reflog that is a link to a host path (plain git appends to the host file)", async () => {
      const { root, repo } = setup();
      const victim = path.join(root, "victim.txt");
      linkIn(repo, "logs/HEAD", victim);
      plain(repo, "-c", "user.name=t", "-c", "user.email=t@t", "checkout", "-q", "--detach", "HEAD~1");
      expect(readFileSync(victim, "utf8")).toMatch(/checkout: moving/);
      rmSync(victim);
      expect(await refusedBySafeGit(repo)).toContain(".git/logs/HEAD as a symbolic link");
      expect(existsSync(victim)).toBe(false);
    });

    it("refuses ref, reflog and object directories that are links to a host directory (plain git writes there)", async () => {
      for (const rel of ["logs/refs", "refs/heads/retrace", "objects/ab"]) {
        const { root, repo } = setup();
        const victim = path.join(root, "victim");
        mkdirSync(victim);
        linkIn(repo, rel, victim);
        expect(await refusedBySafeGit(repo)).toContain(`.git/${rel} as a symbolic link`);
      }
      const { root, repo } = setup();
      const victim = path.join(root, "victim");
      mkdirSync(victim);
      linkIn(repo, "refs/heads/retrace", victim);
      plain(repo, "branch", "retrace/fix-1");
      expect(readdirSync(victim)).toEqual(["fix-1"]);
    });

    it("refuses object fan-out directories and pack files linked into another repository (plain git reads its files)", async () => {
      for (const packed of [false, true]) {
        const host = setup();
        writeFileSync(path.join(host.repo, "a.txt"), "HOST-ONLY\n");
        git(host.repo, "commit", "-q", "-am", "host");
        if (packed) git(host.repo, "repack", "-a", "-d", "-q");
        const hostObjects = path.join(host.repo, ".git", "objects");
        const checkout = path.join(host.root, "checkout");
        mkdirSync(checkout);
        execFileSync("cp", ["-a", path.join(host.repo, ".git"), path.join(checkout, ".git")]);
        const objects = path.join(checkout, ".git", "objects");
        for (const n of readdirSync(objects).filter((n) => /^[0-9a-f]{2}$/.test(n)))
          rmSync(path.join(objects, n), { recursive: true });
        if (packed) {
          rmSync(path.join(objects, "pack"), { recursive: true });
          mkdirSync(path.join(objects, "pack"));
          for (const p of readdirSync(path.join(hostObjects, "pack")))
            symlinkSync(path.join(hostObjects, "pack", p), path.join(objects, "pack", p));
        } else {
          for (const n of readdirSync(hostObjects).filter((n) => /^[0-9a-f]{2}$/.test(n)))
            symlinkSync(path.join(hostObjects, n), path.join(objects, n));
        }
        expect(plain(checkout, "diff", "HEAD~1", "HEAD")).toContain("HOST-ONLY");
        expect(await refusedBySafeGit(checkout)).toMatch(
          /\.git\/objects\/(pack\/pack-|[0-9a-f]{2}).* as a symbolic link/,
        );
      }
    });

    it("refuses a FIFO among the refs and a hard-linked reflog", async () => {
      const { repo, secret } = setup();
      execFileSync("mkfifo", [path.join(repo, ".git", "refs", "heads", "pipe")]);
      expect(await refusedBySafeGit(repo)).toContain(".git/refs/heads/pipe that is not a regular file");
      const other = setup();
      rmSync(path.join(other.repo, ".git", "logs", "refs", "heads", "main"));
      linkSync(secret, path.join(other.repo, ".git", "logs", "refs", "heads", "main"));
      expect(await refusedBySafeGit(other.repo)).toContain("logs/refs/heads/main with 2 names");
    });

    it("lets git run on a local clone (hard-linked objects), a linked hooks directory, packs and loose objects", async () => {
      const { root, repo } = setup();
      const local = path.join(root, "local");
      git(root, "clone", "-q", repo, local);
      const loose = readdirSync(path.join(local, ".git", "objects")).filter((n) => /^[0-9a-f]{2}$/.test(n));
      expect(loose.length).toBeGreaterThan(0);
      await expect(safeGit(local).raw(["diff", "--no-ext-diff", "HEAD~1", "HEAD"])).resolves.toContain("+b");
      const hooks = path.join(root, "shared-hooks");
      mkdirSync(hooks);
      rmSync(path.join(repo, ".git", "hooks"), { recursive: true, force: true });
      symlinkSync(hooks, path.join(repo, ".git", "hooks"));
      git(repo, "repack", "-q");
      await expect(safeGit(repo).raw(["rev-parse", "HEAD~1"])).resolves.toMatch(/^[0-9a-f]{40}/);
    });
  });
});
