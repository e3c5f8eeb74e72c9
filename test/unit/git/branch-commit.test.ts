import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBranchWithCommit } from "../../../src/git/branch-commit.ts";
import { GitError } from "../../../src/git/errors.ts";

let repo: string;
const author = { name: "Retrace", email: "retrace@example.com" };

function git(...args: string[]): string {
  return execFileSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: repo,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  }).trim();
}

beforeEach(async () => {
  repo = await mkdtemp(path.join(tmpdir(), "retrace-git-"));
  git("init", "-q", "-b", "main");
  await writeFile(path.join(repo, "calc.py"), "def add(a, b):\n    return a - b\n");
  await writeFile(path.join(repo, "old.txt"), "bye\n");
  await writeFile(path.join(repo, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
  git("add", ".");
  git("commit", "-q", "-m", "base");
});

afterEach(async () => {
  await rm(repo, { recursive: true, force: true });
});

const PATCH = `diff --git a/calc.py b/calc.py
--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a - b
+    return a + b
`;

describe("createBranchWithCommit", () => {
  it("creates a branch with one commit from a patch, leaving HEAD, index and working tree alone", async () => {
    await writeFile(path.join(repo, "calc.py"), "def add(a, b):\n    return a - b  # local edit\n");
    git("add", "calc.py");
    const headBefore = git("rev-parse", "HEAD");
    const statusBefore = git("status", "--porcelain");

    const result = await createBranchWithCommit(repo, {
      branch: "retrace/fix-1",
      message: "Fix add",
      patch: PATCH,
      author,
    });

    expect(result.base).toBe(headBefore);
    expect(result.changedFiles).toEqual(["calc.py"]);
    expect(git("rev-parse", "retrace/fix-1")).toBe(result.commit);
    expect(git("rev-parse", `${result.commit}^`)).toBe(headBefore);
    expect(git("show", `${result.commit}:calc.py`)).toBe("def add(a, b):\n    return a + b");
    expect(git("log", "-1", "--format=%an <%ae>|%s", result.commit)).toBe(
      "Retrace <retrace@example.com>|Fix add",
    );
    // Untouched: the current branch, its tip, the staged local edit, the working tree.
    expect(git("rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(git("rev-parse", "HEAD")).toBe(headBefore);
    expect(git("status", "--porcelain")).toBe(statusBefore);
    expect(await readFile(path.join(repo, "calc.py"), "utf8")).toContain("# local edit");
  });

  it("commits whole files, deletions, and keeps the executable bit", async () => {
    const result = await createBranchWithCommit(repo, {
      branch: "retrace/files",
      message: "Files",
      files: { "new/dir/a.txt": "A\n", "old.txt": null, "run.sh": "#!/bin/sh\necho bye\n" },
      author,
    });
    expect(result.changedFiles).toEqual(["new/dir/a.txt", "old.txt", "run.sh"]);
    expect(git("show", `${result.commit}:new/dir/a.txt`)).toBe("A");
    expect(git("ls-tree", result.commit, "run.sh")).toMatch(/^100755 /);
    expect(git("ls-tree", "--name-only", result.commit)).not.toContain("old.txt");
    expect(git("status", "--porcelain")).toBe("");
  });

  it("applies a patch with the one applier (mode changes too); files given after it keep the mode it set", async () => {
    const result = await createBranchWithCommit(repo, {
      branch: "retrace/mode",
      message: "Mode",
      patch: "diff --git a/calc.py b/calc.py\nold mode 100644\nnew mode 100755\n",
      files: { "calc.py": "#!/usr/bin/env python3\n" },
      author,
    });
    expect(git("ls-tree", result.commit, "calc.py")).toMatch(/^100755 /);
    expect(git("show", `${result.commit}:calc.py`)).toBe("#!/usr/bin/env python3");
  });

  it("refuses to overwrite an existing branch", async () => {
    git("branch", "taken");
    await expect(
      createBranchWithCommit(repo, { branch: "taken", message: "x", patch: PATCH, author }),
    ).rejects.toThrow(/branch already exists: taken/);
  });

  it("rejects invalid branch names, bad identities, empty changes and patches that do not apply", async () => {
    await expect(
      createBranchWithCommit(repo, { branch: "a..b", message: "x", patch: PATCH, author }),
    ).rejects.toThrow(/invalid branch name/);
    await expect(
      createBranchWithCommit(repo, { branch: "-x", message: "x", patch: PATCH, author }),
    ).rejects.toThrow(GitError);
    await expect(
      createBranchWithCommit(repo, {
        branch: "ok",
        message: "x",
        patch: PATCH,
        author: { name: "n", email: "nope" },
      }),
    ).rejects.toThrow(/invalid author identity/);
    await expect(
      createBranchWithCommit(repo, { branch: "ok", message: "x", files: { "old.txt": "bye\n" }, author }),
    ).rejects.toThrow(/the change is empty/);
    await expect(
      createBranchWithCommit(repo, {
        branch: "ok",
        message: "x",
        patch: PATCH.replace("a - b", "a * b"),
        author,
      }),
    ).rejects.toThrow(/the patch does not apply to the base/);
    await expect(
      createBranchWithCommit(repo, { branch: "ok", message: "x", files: { "../escape.txt": "x" }, author }),
    ).rejects.toThrow(/escapes the repository/);
    expect(git("branch", "--list", "ok")).toBe("");
  });

  it("fails clearly outside a git repository", async () => {
    const plain = await mkdtemp(path.join(tmpdir(), "retrace-plain-"));
    try {
      await expect(
        createBranchWithCommit(plain, { branch: "b", message: "m", patch: PATCH, author }),
      ).rejects.toThrow(/not a git repository/);
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  });
});
