/**
 * The thirteenth red team's classes in the core: a patch's new name beside a base name one file system stores as the
 * same file (the applier, with a base that lists directories), the applier's section cap, paths too deep or long for
 * the one path rule, job ids and branch names that read as paths or options, and commit text that CI acts on.
 */
import { describe, expect, it } from "vitest";
import { applyPatch, MAX_PATCH_FILES, type PatchBase } from "../../../src/core/apply-patch.ts";
import { isPlainBranchName, isPlainJobId, JobSpec } from "../../../src/core/job.ts";
import { repoPathProblem } from "../../../src/core/repo-path.ts";
import type { RepoPath } from "../../../src/core/repo-path.ts";
import { clipped, COMMIT_BODY_MAX } from "../../../src/fix/states/finish.ts";
import { commitText } from "../../../src/report/markdown.ts";

function base(files: Record<string, string>): PatchBase {
  const dirs = new Set<string>();
  for (const f of Object.keys(files)) {
    const parts = f.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
  }
  return {
    where: "in the test",
    async modes(paths: readonly RepoPath[]) {
      const out = new Map<string, string>();
      for (const p of paths) {
        if (files[p] !== undefined) out.set(p, "100644");
        else if (dirs.has(p)) out.set(p, "040000");
      }
      return out;
    },
    read: async (p) => files[p] ?? null,
    async names(dir: string) {
      const prefix = dir === "" ? "" : `${dir}/`;
      const names = new Set<string>();
      for (const p of [...Object.keys(files), ...dirs])
        if (p.startsWith(prefix) && !p.slice(prefix.length).includes("/")) names.add(p.slice(prefix.length));
      return dir === "" || dirs.has(dir) ? [...names] : null;
    },
  };
}

const newFile = (p: string) =>
  `diff --git a/${p} b/${p}\nnew file mode 100644\n--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+x\n`;

describe("the applier and names a file system stores as one", () => {
  it.each([
    ["NFD beside NFC", "src/caf\u00e9.js", "src/cafe\u0301.js"],
    ["another case", "src/index.js", "src/INDEX.js"],
    ["a trailing dot", "src/index.js", "src/index.js."],
    ["a directory in another case", "src/a.js", "SRC/b.js"],
  ])("refuses a new name %s", async (_, existing, created) => {
    await expect(applyPatch(base({ [existing]: "y\n" }), newFile(created))).rejects.toThrow(
      /stores both as one file/,
    );
  });
  it("creates a new name beside different ones, and a file in a new directory", async () => {
    const w = await applyPatch(
      base({ "src/index.js": "y\n" }),
      newFile("src/indexes.js") + newFile("lib/new/a.js"),
    );
    expect(w.map((c) => c.path)).toEqual(["lib/new/a.js", "src/indexes.js"]);
  });
  it("refuses more file sections than it applies", async () => {
    let p = "";
    for (let i = 0; i <= MAX_PATCH_FILES; i++) p += newFile(`f/x${i}.js`);
    await expect(applyPatch(base({}), p)).rejects.toThrow(/at most 1000/);
  });
});

describe("the path rule bounds depth and length", () => {
  it("refuses 129 directories and 4,097 bytes, takes 128 and 4,096", () => {
    expect(repoPathProblem(`${"d/".repeat(128)}x`)?.code).toBe("long");
    expect(repoPathProblem(`${"d/".repeat(127)}x`)).toBeNull();
    expect(repoPathProblem("a".repeat(4097))?.code).toBe("long");
    expect(repoPathProblem("a".repeat(4096))).toBeNull();
  });
});

describe("job ids and branch names", () => {
  it.each(["..", ".", "a..b", "x.lock", "-rf", ".hidden", "a:b", "a.", "a/b", ""])(
    "refuses the job id %j",
    (id) => {
      expect(isPlainJobId(id)).toBe(false);
    },
  );
  it.each(["fix-123-1", "repro-ad7ba068c772", "verify-1a2b3c4d", "a.b_c-d"])("takes the job id %j", (id) => {
    expect(isPlainJobId(id)).toBe(true);
  });
  it.each([
    "--upload-pack=x",
    "../../refs/x",
    "a\nb",
    "a b",
    "x.lock",
    "a..b",
    "@",
    "a@{1}",
    "/a",
    "a/",
    "a/.b",
  ])("refuses the branch %j", (b) => {
    expect(isPlainBranchName(b)).toBe(false);
  });
  it.each(["main", "feature/x-1", "retrace/fix-2", "release-1.2"])("takes the branch %j", (b) => {
    expect(isPlainBranchName(b)).toBe(true);
  });
  it("a spec's repository is never a path and its sha never an expression", () => {
    for (const fullName of ["../..", "./x", "rt/.."])
      expect(JobSpec.safeParse({ kind: "fix", id: "fix-1", model: null, repo: { fullName } }).success).toBe(
        false,
      );
    expect(
      JobSpec.safeParse({ kind: "fix", id: "fix-1", model: null, headSha: "HEAD~1 --output=x" }).success,
    ).toBe(false);
    expect(
      JobSpec.safeParse({
        kind: "fix",
        id: "fix-1",
        model: null,
        repo: { fullName: "o/.github" },
        headSha: "a".repeat(40),
      }).success,
    ).toBe(true);
  });
});

describe("commit text", () => {
  it("writes CI-skip directives so no CI reads them, and shows hidden characters", () => {
    expect(
      commitText("x [skip ci] [ci skip] [no ci] [skip actions] [actions skip] [skip travis] ***NO_CI***"),
    ).toBe("x (skip ci) (ci skip) (no ci) (skip actions) (actions skip) (skip travis) NO_CI");
    expect(commitText("a\u202eb\u200bc")).toBe("a\\u{202e}b\\u{200b}c");
    expect(commitText("test_x[param-1] [1-2]")).toBe("test_x[param-1] [1-2]");
    expect(commitText(commitText("[skip ci]\u202e"))).toBe(commitText("[skip ci]\u202e"));
  });

  it("shows letters that render as nothing (Hangul fillers, the soft hyphen) and cuts a huge summary", () => {
    expect(commitText("test_\u3164x ad\u00admin\uffa0")).toBe("test_\\u{3164}x ad\\u{ad}min\\u{ffa0}");
    const body = clipped("word ".repeat(1 << 20), COMMIT_BODY_MAX);
    expect(body.length).toBeLessThan(COMMIT_BODY_MAX + 60);
    expect(body).toMatch(/… \(\d+ more characters cut\)$/);
    expect(clipped("short", COMMIT_BODY_MAX)).toBe("short");
    // Never half a surrogate pair.
    expect(clipped(`${"a".repeat(3)}\u{1f600}`, 4)).toMatch(/^aaa… /);
  });
});
