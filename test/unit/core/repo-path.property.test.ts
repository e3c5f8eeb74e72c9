/**
 * One repository-path rule (src/core/repo-path.ts, docs/paths.md): every former validator now accepts exactly
 * the rule's set. Strict validators (patch headers, model edits, the policy gate) accept a path iff the rule
 * does; lenient ones (workspace reads, sandbox paths, archive names) accept a spelling iff its tidy form
 * (empty and `.` segments dropped) passes the rule, and return that form.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPatch, PatchApplyError } from "../../../src/core/apply-patch.ts";
import {
  isGitSegment,
  isProblem,
  isRepoPath,
  repoPathProblem,
  tidyRepoPath,
} from "../../../src/core/repo-path.ts";
import {
  normalizeRepoPath as fixNormalize,
  repoPathProblem as fixProblem,
} from "../../../src/fix/repo-path.ts";
import { WorkspacePathError } from "../../../src/git/errors.ts";
import { normalizeRepoPath as gitNormalize } from "../../../src/git/repo-path.ts";
import { strippedPath, TarballError } from "../../../src/github/tarball.ts";
import { evaluatePatch } from "../../../src/policy/index.ts";
import { safeRelativePath, UnsafePathError } from "../../../src/sandbox/tree.ts";

/** Segments chosen to hit every clause of the rule, mixed with plain names. */
const SEGMENTS = [
  "src",
  "a.py",
  "é.txt",
  "with space",
  "",
  ".",
  "..",
  "...",
  ".git",
  ".GIT",
  ".Git",
  ".git.",
  ".git ",
  "git~1",
  "GIT~1",
  ".gitignore",
  ".github",
  "~",
  "~user",
  "a~",
  "C:",
  "c:x",
  "a\\b",
  "\\",
  "x\u0000y",
  "x\ny",
  "x\ty",
  "x\u007fy",
  "node_modules",
];
const pathLike = fc
  .tuple(
    fc.constantFrom("", "", "", "/", "./", "//"),
    fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 5 }),
    fc.constantFrom("", "", "/"),
  )
  .map(([pre, segs, post]) => `${pre}${segs.join("/")}${post}`);
const anyPath = fc.oneof(pathLike, pathLike, fc.string({ maxLength: 12 }));
const RUNS = { numRuns: 400 };

/** The tidy spelling: empty and `.` segments dropped (what the lenient validators accept). */
const tidy = (p: string) =>
  p
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
const throws = (f: () => unknown, kind: new (...a: never[]) => Error): boolean => {
  try {
    f();
    return false;
  } catch (error) {
    if (error instanceof kind) return true;
    throw error;
  }
};

describe("the rule", () => {
  it("refuses exactly: empty, NUL/control, backslash, absolute, drive, ~, .., non-canonical, .git in any form", () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const segs = p.split("/");
        const expected =
          p !== "" &&
          !/[\u0000-\u001f\u007f\\]/.test(p) &&
          !p.startsWith("/") &&
          !/^[A-Za-z]:/.test(p) &&
          !p.startsWith("~") &&
          !segs.some((s) => s === "" || s === "." || s === "..") &&
          !segs.some((s) => /^\.git[. ]*$/i.test(s) || s.toLowerCase() === "git~1");
        expect(isRepoPath(p)).toBe(expected);
        expect(repoPathProblem(p) === null).toBe(expected);
      }),
      RUNS,
    );
  });

  it("treats `.git` as git and case-insensitive file systems do, at any depth", () => {
    for (const s of [".git", ".GIT", ".gIt", ".git.", ".git  ", ".git. .", "git~1", "GIT~1"])
      expect(isGitSegment(s)).toBe(true);
    for (const s of [".gitignore", ".github", "git", ".git~1", "x.git", ".g it"])
      expect(isGitSegment(s)).toBe(false);
    expect(isRepoPath("a/b/.Git/config")).toBe(false);
    expect(isRepoPath("vendor/lib/.git")).toBe(false);
  });
});

describe("every former validator accepts exactly the rule's set", () => {
  it("fix/repo-path: repoPathProblem (model edits) is the rule; normalizeRepoPath (explore tools) is its tidy form", () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        expect(fixProblem(p) === null).toBe(isRepoPath(p));
        const n = fixNormalize(p);
        const t = tidyRepoPath(p);
        expect(n).toBe(isProblem(t) ? null : t);
        if (n !== null) expect(isRepoPath(n)).toBe(true);
        // Formerly `/etc/passwd` came back as `etc/passwd`: an absolute path is refused, not re-rooted.
        if (p.startsWith("/")) expect(n).toBeNull();
      }),
      RUNS,
    );
  });

  it("git/repo-path (workspace reads, branch files): the tidy rule, `.` for the root", () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const root = p !== "" && !p.startsWith("/") && tidy(p) === "";
        const refused = throws(() => gitNormalize(p), WorkspacePathError);
        if (root) {
          expect(gitNormalize(p)).toBe(".");
          return;
        }
        const t = tidyRepoPath(p);
        expect(refused).toBe(isProblem(t));
        if (!refused) expect(gitNormalize(p)).toBe(t);
      }),
      RUNS,
    );
  });

  it("sandbox/tree safeRelativePath (inputs, removals, collected files): the tidy rule", () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const t = tidyRepoPath(p);
        expect(throws(() => safeRelativePath(p), UnsafePathError)).toBe(isProblem(t));
        if (!isProblem(t)) expect(safeRelativePath(p)).toBe(t);
      }),
      RUNS,
    );
  });

  it("github/tarball strippedPath (repository archives): the rule on the name below the top directory", () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const name = `octo-app-abc1234/${p}`;
        const below = tidy(p);
        if (below === "") {
          if (!p.includes("..")) expect(strippedPath(name)).toBeNull();
          return;
        }
        const refused = throws(() => strippedPath(name), TarballError);
        expect(refused).toBe(!isRepoPath(below));
        if (!refused) expect(strippedPath(name)).toBe(below);
      }),
      RUNS,
    );
  });

  it("the policy gate's path-escape rule blocks exactly what the rule refuses (git-quoted header names)", () => {
    const quote = (s: string) =>
      `"${[...Buffer.from(s, "utf8")]
        .map((b) =>
          b === 0x22 || b === 0x5c
            ? `\\${String.fromCharCode(b)}`
            : b < 0x20 || b >= 0x7f
              ? `\\${b.toString(8).padStart(3, "0")}`
              : String.fromCharCode(b),
        )
        .join("")}"`;
    fc.assert(
      fc.property(
        pathLike.filter((p) => p !== ""),
        (p) => {
          const patch = `diff --git ${quote(`a/${p}`)} ${quote(`b/${p}`)}\nnew file mode 100644\n--- /dev/null\n+++ ${quote(`b/${p}`)}\n@@ -0,0 +1 @@\n+x\n`;
          const blocked = evaluatePatch(patch).violations.some((v) => v.rule === "path-escape");
          expect(blocked).toBe(!isRepoPath(p));
        },
      ),
      RUNS,
    );
  });

  it("the patch applier (verification, draft PR, CLI branch) takes a header path iff the rule does", async () => {
    const base = {
      where: "in the repository",
      modes: async () => new Map<string, string>(),
      read: async () => null,
    };
    await fc.assert(
      fc.asyncProperty(
        pathLike.filter(
          (p) => p !== "" && !/[\t\n\u0000"]/.test(p) && !p.startsWith("/") && !p.endsWith(" "),
        ),
        async (p) => {
          const patch = `--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+x\n`;
          const result = await applyPatch(base, patch).then(
            (changes) => changes,
            (error: unknown) => {
              if (!(error instanceof PatchApplyError)) throw error;
              return error;
            },
          );
          if (isRepoPath(p)) expect(result).toEqual([{ path: p, content: "x\n", mode: "100644" }]);
          else expect((result as PatchApplyError).message).toMatch(/invalid path/);
        },
      ),
      RUNS,
    );
  });
});
