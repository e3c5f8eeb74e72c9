/**
 * The neutralising configuration of src/git/run-git.ts: which of a checkout's config keys get which
 * override, which are refused, and that git really runs under it (a real repository on disk).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXED_CONFIG, neutralizingConfig, safeGit } from "../../../src/git/run-git.ts";

describe("neutralizingConfig", () => {
  it("gives each program-naming key a value that runs nothing", () => {
    const { config, env } = neutralizingConfig(
      [
        "filter.lfs.clean",
        "filter.lfs.process",
        "filter.lfs.required",
        "diff.evil.textconv",
        "credential.https://example.com.helper",
        "protocol.ext.allow",
        "protocol.file.allow",
        "hook.pre.command",
        "http.https://x.test/.cookiefile",
        "user.name",
        "core.worktree",
      ],
      "/repo",
    );
    expect(Object.fromEntries(config)).toEqual({
      "filter.lfs.clean": "",
      "filter.lfs.process": "",
      "filter.lfs.required": "false",
      "diff.evil.textconv": "",
      "credential.https://example.com.helper": "",
      "protocol.ext.allow": "never",
      "protocol.file.allow": "always",
      "hook.pre.command": "true",
      "http.https://x.test/.cookiefile": "",
    });
    expect(env).toEqual({ GIT_WORK_TREE: "/repo" });
  });

  it.each([
    "remote.origin.uploadpack",
    "remote.origin.receivepack",
    "remote.origin.vcs",
    "url.ext::sh -c x.insteadof",
    "core.alternaterefscommand",
    "http.curloptresolve",
    "http.https://example.com.curloptresolve",
  ])("refuses %s, naming it", (key) => {
    expect(() => neutralizingConfig([key], "/repo")).toThrow(`the repository's git config sets ${key}`);
  });

  it("gives every proxy the checkout names the empty value (no proxy): git connects where Retrace says", () => {
    const keys = ["http.proxy", "http.https://example.com/.proxy", "remote.origin.proxy"];
    expect(neutralizingConfig(keys, "/repo").config).toEqual(keys.map((k) => [k, ""]));
  });

  it("the fixed configuration disables hooks, fsmonitor and every transport but https, ssh and file", () => {
    for (const pair of [
      "core.hooksPath=/dev/null",
      "core.fsmonitor=false",
      "protocol.allow=never",
      "credential.helper=",
    ])
      expect(FIXED_CONFIG).toContain(pair);
  });
});

describe("safeGit", () => {
  it("runs git with the overrides in force and fails with git's own message", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "retrace-rungit-"));
    execFileSync("git", ["init", "-q", dir]);
    execFileSync("git", ["-C", dir, "config", "filter.x.clean", "false"]);
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    const git = safeGit(dir);
    expect(await git.raw(["config", "--get", "filter.x.clean"])).toBe("\n");
    expect(await git.raw(["config", "--get", "core.hooksPath"])).toBe("/dev/null\n");
    await expect(git.raw(["rev-parse", "--verify", "nope^{commit}"])).rejects.toThrow(
      /git rev-parse --verify failed: fatal: /,
    );
  });

  it("lists the config again before each command: a branch switch that activates an onbranch include runs nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "retrace-onbranch-"));
    const marker = path.join(dir, "..", `${path.basename(dir)}-marker`);
    const g = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: dir,
        stdio: "ignore",
      });
    g("init", "-q", "-b", "main");
    writeFileSync(path.join(dir, "pwn.sh"), `#!/bin/sh\necho pwned > ${marker}\ncat\n`, { mode: 0o755 });
    writeFileSync(path.join(dir, "a.txt"), "a\n");
    g("add", "a.txt");
    g("commit", "-q", "-m", "x");
    g("branch", "fix-1");
    writeFileSync(path.join(dir, ".gitattributes"), "*.txt filter=later\n");
    writeFileSync(
      path.join(dir, "later.cfg"),
      `[filter "later"]\n\tclean = ${dir}/pwn.sh\n[core]\n\tfsmonitor = ${dir}/pwn.sh\n`,
    );
    g("config", "includeIf.onbranch:fix-*.path", "../later.cfg");
    const git = safeGit(dir);
    await git.raw(["status", "--porcelain"]);
    await git.raw(["checkout", "-q", "fix-1"]);
    writeFileSync(path.join(dir, "a.txt"), "b\n");
    await git.raw(["status", "--porcelain"]);
    await git.raw(["add", "a.txt"]);
    expect(existsSync(marker)).toBe(false);
    // Control: plain git on the same checkout runs the program the include names.
    writeFileSync(path.join(dir, "a.txt"), "c\n");
    g("add", "a.txt");
    expect(existsSync(marker)).toBe(true);
  });

  it("kills a command past its time limit", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "retrace-rungit-"));
    execFileSync("git", ["init", "-q", dir]);
    const git = safeGit(dir);
    const t0 = Date.now();
    await expect(git.raw(["-c", "alias.slow=!sleep 5", "slow"], { timeoutMs: 300 })).rejects.toThrow(
      /git -c alias.slow=!sleep 5 did not finish in 300 ms and was killed/,
    );
    expect(Date.now() - t0).toBeLessThan(3_000);
  });
});

describe("safeGit and the host's PATH", () => {
  /** A checkout holding an executable `git` that writes `<checkout>.ran` (outside it) when it runs. */
  function checkoutWithPlantedGit(): string {
    const repo = mkdtempSync(path.join(tmpdir(), "rt28-checkout-"));
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(
      path.join(repo, "git"),
      `#!/bin/sh\necho ran > ${JSON.stringify(`${repo}.ran`)}\nexec /usr/bin/git "$@"\n`,
      {
        mode: 0o755,
      },
    );
    return repo;
  }

  it.each([
    ["an empty entry, git's cwd the checkout", (p: string) => `:${p}`, false],
    ["a `.` entry, the process's cwd the checkout", (p: string) => `.:${p}`, true],
    ["an absolute entry inside the checkout", (p: string) => `${"<repo>"}:${p}`, false],
  ])("never runs a git the checkout holds, found through %s", async (_what, pathOf, chdir) => {
    const repo = checkoutWithPlantedGit();
    const before = process.env.PATH;
    const cwd = process.cwd();
    process.env.PATH = pathOf(before ?? "/usr/bin:/bin").replace("<repo>", repo);
    if (chdir) process.chdir(repo);
    try {
      await safeGit(repo).raw(["status", "--porcelain"]);
    } finally {
      process.env.PATH = before;
      process.chdir(cwd);
    }
    expect(existsSync(`${repo}.ran`)).toBe(false);
  });

  it("still runs the host's git from an ordinary PATH (control)", async () => {
    const repo = checkoutWithPlantedGit();
    await expect(safeGit(repo).raw(["rev-parse", "--git-dir"])).resolves.toMatch(/\.git/);
    expect(existsSync(`${repo}.ran`)).toBe(false);
  });
});
