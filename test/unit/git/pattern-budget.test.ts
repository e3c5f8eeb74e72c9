/**
 * src/git/pattern-budget.ts: what a checkout costs git in attribute matching, counted before git checks out
 * (thirtieth red team: 50,000 `.gitattributes` wildcards over 4,000 files cost git 6–10 s of CPU in
 * `checkout --detach`). The count is each attribute file's pattern lines × the files at or below its directory.
 * Counter-examples: a repository without attribute files; an ordinary LFS-style `.gitattributes` over thousands of
 * files; comments and blank lines, which git never matches.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureCheckoutAt } from "../../../src/jobs/default-runner.ts";
import { attributeCost, checkAttributeBudget, PatternBudgetError } from "../../../src/git/pattern-budget.ts";
import { safeGit } from "../../../src/git/run-git.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

/** A repository with `files` (path → text) in one commit; returns its directory and the commit. */
function repo(files: Record<string, string>): { dir: string; sha: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "pattern-budget-"));
  git(dir, "init", "-q", "-b", "main");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "files");
  return { dir, sha: git(dir, "rev-parse", "HEAD") };
}

const many = (n: number, under = "src") =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${under}/f${i}.txt`, `${i}\n`]));

describe("attributeCost", () => {
  it("counts each attribute file's patterns against the files at or below its directory only", async () => {
    const { dir, sha } = repo({
      ".gitattributes": "# a comment\n\n*.png binary\n  *.bin -text\n",
      "docs/.gitattributes": "*.md text eol=lf\n",
      "docs/a.md": "a\n",
      "docs/deep/b.md": "b\n",
      "lib/c.js": "c\n",
      "lib/d.js": "d\n",
    });
    const cost = await attributeCost(safeGit(dir), sha);
    // Files: .gitattributes, docs/.gitattributes, docs/a.md, docs/deep/b.md, lib/c.js, lib/d.js.
    expect(cost).toEqual({ files: 6, attributeFiles: 2, patterns: 3, comparisons: 2 * 6 + 1 * 3 });
  });

  it("is nothing for a tree without attribute files (no listing needed)", async () => {
    const { dir, sha } = repo({ "a.txt": "a\n", "b/c.txt": "c\n" });
    expect(await attributeCost(safeGit(dir), sha)).toEqual({
      files: 0,
      attributeFiles: 0,
      patterns: 0,
      comparisons: 0,
    });
  });

  it("reads names with colons and spaces whole (git grep -z)", async () => {
    const { dir, sha } = repo({
      "we:ird dir/.gitattributes": "*.x -text\n*.y -text\n",
      "we:ird dir/a.x": "a\n",
    });
    const cost = await attributeCost(safeGit(dir), sha);
    expect(cost).toMatchObject({ attributeFiles: 1, patterns: 2, comparisons: 2 * 2 });
  });
});

describe("checkAttributeBudget", () => {
  it("refuses a tree past the limit, giving the counts and the setting to raise", async () => {
    const patterns = Array.from({ length: 3_000 }, (_, i) => `*q${i}*z -text`).join("\n");
    const { dir, sha } = repo({ ".gitattributes": `${patterns}\n`, ...many(400) });
    const error = await checkAttributeBudget(safeGit(dir), sha, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PatternBudgetError);
    const message = (error as Error).message;
    expect(message).toContain("3,000 patterns over 401 files");
    expect(message).toContain("about 1.3 million");
    expect(message).toContain("gitPatternChecks in RETRACE_HOST_LIMITS");
  });

  it("allows an ordinary LFS-style attribute file over thousands of files at the default limit", async () => {
    const lfs = ["*.psd", "*.png", "*.zip", "*.mp4", "*.wav", "*.fbx", "*.tga", "*.exr"]
      .map((p) => `${p} filter=lfs diff=lfs merge=lfs -text`)
      .join("\n");
    const { dir, sha } = repo({ ".gitattributes": `${lfs}\n`, ...many(3_000) });
    const cost = await checkAttributeBudget(safeGit(dir), sha);
    expect(cost).toMatchObject({ files: 3_001, patterns: 8, comparisons: 8 * 3_001 });
  });
});

describe("ensureCheckoutAt counts the failed commit's attribute patterns first", () => {
  it("refuses the checkout past the budget, before git writes a file, and says why", async () => {
    const { dir, sha: base } = repo({ "README.md": "base\n" });
    const patterns = Array.from({ length: 20_000 }, (_, i) => `*q${i}*z -text`).join("\n");
    for (const [name, text] of Object.entries({ ".gitattributes": `${patterns}\n`, ...many(3_100) })) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "attributes");
    const target = git(dir, "rev-parse", "HEAD");
    git(dir, "checkout", "-q", "--detach", base);
    await expect(ensureCheckoutAt(dir, target)).rejects.toThrow(
      /checking that commit out failed: its \.gitattributes files hold 20,000 patterns over 3,102 files: .*about 62\.1 million.*limit of 60 million/,
    );
    expect(git(dir, "rev-parse", "HEAD")).toBe(base);
    expect(git(dir, "ls-files")).toBe("README.md");
  });
});
