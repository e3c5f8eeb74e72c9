/**
 * One patch applier (src/core/apply-patch.ts): what verification runs on is what both publishers write, byte for
 * byte and mode for mode — the draft PR through the GitHub tree API (GitHub faked at the HTTP layer) and the CLI
 * branch (a real temporary git repository). Each patch is real `git diff` output made in the test, in the shapes
 * where `git apply` and the `diff` package used to disagree: a mode change (the draft PR kept the base mode and
 * verification ignored it), a patch whose line ends were turned into CRLF on the way (`git apply` refuses it, so
 * the CLI branch failed after verification passed), a file with mixed line ends (verification refused a patch
 * `git apply` takes), and a hunk at an offset on a file without a final newline.
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileWrite } from "../../../src/core/apply-patch.ts";
import { applyPatchToWorkspace } from "../../../src/fix/apply-patch.ts";
import { createBranchWithCommit } from "../../../src/git/branch-commit.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { openDraftPullRequest } from "../../../src/github/draft-pr.ts";
import { createGitHubPort, type OctokitLike } from "../../../src/github/octokit-port.ts";
import { type FakeGitHub, startFakeGitHub } from "../../e2e/support/fake-github.ts";

const { Octokit } = createRequire(import.meta.url)("@octokit/core") as typeof import("@octokit/core");
const REPO = { owner: "octo", repo: "app" };
const author = { name: "Retrace", email: "retrace@example.com" };

const ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};
function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...ENV, HOME: dir } });
}
function gitBytes(dir: string, ...args: string[]): Buffer {
  return execFileSync("git", args, { cwd: dir, env: { ...ENV, HOME: dir } });
}

interface Case {
  name: string;
  /** Base files: text and whether executable. */
  base: Record<string, { text: string; exec?: boolean }>;
  /** The edit made in a scratch checkout, then `git diff`. */
  edit(dir: string): Promise<void>;
  /** Turns the real `git diff` output into the patch under test (e.g. the CRLF a web form adds). */
  transport?(patch: string): string;
  /** Changes the base after the diff was taken (lines above the hunk: an offset). */
  rebase?: Record<string, string>;
  /** What `git apply --cached` does with the same patch, for the record. */
  gitApply: "same" | "refuses";
}

const CASES: Case[] = [
  {
    name: "a mode change with an edit (old mode 100644 / new mode 100755)",
    base: { "run.sh": { text: "#!/bin/sh\nexit 1\n" } },
    edit: async (d) => {
      await writeFile(path.join(d, "run.sh"), "#!/bin/sh\nexit 0\n");
      await chmod(path.join(d, "run.sh"), 0o755);
    },
    gitApply: "same",
  },
  {
    name: "a git diff whose line ends became CRLF in transport",
    base: { "src/calc.py": { text: "def add(a, b):\n    return a - b\n" } },
    edit: (d) => writeFile(path.join(d, "src/calc.py"), "def add(a, b):\n    return a + b\n"),
    transport: (p) => p.replace(/\n/g, "\r\n"),
    gitApply: "refuses",
  },
  {
    name: "an edit of a file with mixed line ends (CRLF and LF)",
    base: { "data.txt": { text: "one\r\ntwo\nthree\r\n" } },
    edit: (d) => writeFile(path.join(d, "data.txt"), "one\r\nTWO\nthree\r\n"),
    gitApply: "same",
  },
  {
    name: "a hunk at an offset, in an executable without a final newline",
    base: { "bin/tool": { text: "#!/bin/sh\n1\n2\n3\n4\n5\n6\n7\nlast", exec: true } },
    edit: (d) => writeFile(path.join(d, "bin/tool"), "#!/bin/sh\n1\n2\n3\n4\n5\n6\n7\nLAST"),
    rebase: { "bin/tool": "#!/bin/sh\n# added above\n# and more\n1\n2\n3\n4\n5\n6\n7\nlast" },
    gitApply: "same",
  },
];

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

/** A fresh repository with the case's base committed; the patch is real `git diff` output of the edit. */
async function prepare(c: Case): Promise<{ repo: string; patch: string; sha: string }> {
  const repo = await mkdtemp(path.join(tmpdir(), "retrace-publish-"));
  git(repo, "init", "-q", "-b", "main");
  git(repo, "config", "core.autocrlf", "false");
  for (const [p, f] of Object.entries(c.base)) {
    await execFileSync("mkdir", ["-p", path.dirname(path.join(repo, p))]);
    await writeFile(path.join(repo, p), f.text);
    if (f.exec) await chmod(path.join(repo, p), 0o755);
  }
  git(repo, "add", ".");
  git(repo, "commit", "-q", "-m", "base");
  await c.edit(repo);
  let patch = git(repo, "diff");
  git(repo, "checkout", "-q", "--", ".");
  if (c.rebase) {
    for (const [p, text] of Object.entries(c.rebase)) await writeFile(path.join(repo, p), text);
    git(repo, "commit", "-q", "-am", "rebase");
  }
  if (c.transport) patch = c.transport(patch);
  return { repo, patch, sha: git(repo, "rev-parse", "HEAD").trim() };
}

/** The base as the fake GitHub serves it: the same files and modes at `sha`. */
async function serve(repo: string, sha: string): Promise<void> {
  for (const line of git(repo, "ls-tree", "-r", "HEAD").trim().split("\n")) {
    const m = /^(\d+) blob \S+\t(.*)$/.exec(line)!;
    const key = `octo/app@${sha}:${m[2]}`;
    fake.state.files.set(key, await readFile(path.join(repo, m[2]!), "utf8"));
    fake.state.modes.set(key, m[1]!);
  }
}

describe("the verified changes are what both publishers write", () => {
  for (const [i, c] of CASES.entries()) {
    it(c.name, async () => {
      const { repo, patch, sha } = await prepare(c);
      try {
        // Verification's view: the one applier over the checkout (what the sandbox runs and the ports carry).
        const verified: FileWrite[] = (await applyPatchToWorkspace(await createFsWorkspace(repo), patch))
          .changes;
        expect(verified.length).toBeGreaterThan(0);

        // The CLI branch, from the verified changes.
        const branch = await createBranchWithCommit(repo, {
          branch: `retrace/fix-${i}`,
          message: "fix",
          changes: verified,
          author,
        });
        for (const ch of verified) {
          const blob = gitBytes(repo, "cat-file", "blob", `${branch.commit}:${ch.path}`);
          expect(blob.equals(Buffer.from(ch.content!, "utf8")), `${ch.path} bytes`).toBe(true);
          expect(git(repo, "ls-tree", branch.commit, "--", ch.path)).toMatch(new RegExp(`^${ch.mode} `));
        }
        // The same patch given to the CLI branch goes through the same applier: the same tree.
        const fromPatch = await createBranchWithCommit(repo, {
          branch: `retrace/patch-${i}`,
          message: "fix",
          patch,
          author,
        });
        expect(git(repo, "rev-parse", `${fromPatch.commit}^{tree}`)).toBe(
          git(repo, "rev-parse", `${branch.commit}^{tree}`),
        );

        // What `git apply --cached` (the CLI's applier before) makes of it, for the record.
        await writeFile(path.join(repo, "..", `p${i}-${path.basename(repo)}.diff`), patch);
        const applied = (() => {
          try {
            execFileSync(
              "git",
              ["apply", "--check", "--cached", path.join(repo, "..", `p${i}-${path.basename(repo)}.diff`)],
              {
                cwd: repo,
                env: { ...ENV, HOME: repo },
                stdio: "pipe",
              },
            );
            return "same";
          } catch {
            return "refuses";
          }
        })();
        expect(applied).toBe(c.gitApply);

        // The draft PR, from the same verified changes, over the GitHub API.
        await serve(repo, sha);
        const github = createGitHubPort(
          new Octokit({ auth: "t", baseUrl: fake.url }) as unknown as OctokitLike,
        );
        const before = fake.calls("POST", /\/git\/trees$/).length;
        await openDraftPullRequest(github, REPO, {
          baseBranch: "main",
          baseSha: sha,
          branch: `retrace/pr-${i}`,
          patch,
          verified,
          title: "Fix",
          body: "b",
        });
        const posted = fake.calls("POST", /\/git\/trees$/)[before]!.body as {
          tree: Array<{ path: string; mode: string; content?: string | null; sha?: null }>;
        };
        expect(posted.tree.map((e) => ({ path: e.path, mode: e.mode, content: e.content ?? null }))).toEqual(
          verified.map((v) => ({ path: v.path, mode: v.mode, content: v.content })),
        );
      } finally {
        await rm(repo, { recursive: true, force: true });
      }
    });
  }

  it("refuses a file that is not UTF-8 everywhere: its text would not write back its bytes", async () => {
    const repo = await mkdtemp(path.join(tmpdir(), "retrace-publish-"));
    try {
      git(repo, "init", "-q", "-b", "main");
      // Latin-1 "café" (0xE9), then an ASCII line the patch changes.
      await writeFile(path.join(repo, "notes.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0x0a]));
      git(repo, "add", ".");
      git(repo, "commit", "-q", "-m", "base");
      const patch = "--- a/notes.txt\n+++ b/notes.txt\n@@ -2 +2 @@\n-x\n+y\n";
      await expect(applyPatchToWorkspace(await createFsWorkspace(repo), patch)).rejects.toThrow(
        /notes.txt is not UTF-8 text in the repository/,
      );
      await expect(
        createBranchWithCommit(repo, { branch: "retrace/latin1", message: "fix", patch, author }),
      ).rejects.toThrow(/the patch does not apply to the base: notes.txt is not UTF-8 text at /);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });

  it("refuses to open a pull request when the verified changes are not what the patch gives at the base", async () => {
    const c = CASES[0]!;
    const { repo, patch, sha } = await prepare(c);
    try {
      const verified = (await applyPatchToWorkspace(await createFsWorkspace(repo), patch)).changes;
      await serve(repo, sha);
      const github = createGitHubPort(
        new Octokit({ auth: "t", baseUrl: fake.url }) as unknown as OctokitLike,
      );
      const before = fake.calls("POST", /\/git\/trees$/).length;
      const tampered = verified.map((v) => ({ ...v, content: `${v.content}# added after verification\n` }));
      await expect(
        openDraftPullRequest(github, REPO, {
          baseBranch: "main",
          baseSha: sha,
          branch: "retrace/tampered",
          patch,
          verified: tampered,
          title: "Fix",
          body: "b",
        }),
      ).rejects.toThrow(/is not what was verified \(run.sh has different content\)/);
      const modeOnly = verified.map((v) => ({ ...v, mode: "100644" as const }));
      await expect(
        openDraftPullRequest(github, REPO, {
          baseBranch: "main",
          baseSha: sha,
          branch: "retrace/mode",
          patch,
          verified: modeOnly,
          title: "Fix",
          body: "b",
        }),
      ).rejects.toThrow(/run.sh has mode 100644 in one and 100755 in the other/);
      expect(fake.calls("POST", /\/git\/trees$/).length).toBe(before);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  });
});
