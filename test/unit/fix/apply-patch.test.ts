import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatchToWorkspace, PatchApplyError } from "../../../src/fix/apply-patch.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const calc = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";

describe("applyPatchToWorkspace", () => {
  it("applies a git diff with a/ b/ prefixes", async () => {
    const ws = memoryWorkspace({ "calc.py": calc });
    const patch = [
      "diff --git a/calc.py b/calc.py",
      "index 1111111..2222222 100644",
      "--- a/calc.py",
      "+++ b/calc.py",
      "@@ -1,2 +1,2 @@",
      " def add(a, b):",
      "-    return a - b",
      "+    return a + b",
      "",
    ].join("\n");
    const out = await applyPatchToWorkspace(ws, patch);
    expect(out.files["calc.py"]).toBe(calc.replace("return a - b", "return a + b"));
    expect(out.remove).toEqual([]);
    expect(out.changed).toEqual(["calc.py"]);
  });

  it("handles CRLF patch text, creations, deletions and renames", async () => {
    const ws = memoryWorkspace({ "calc.py": calc, "old.txt": "one\ntwo\n", "src/a.js": "x\n" });
    const patch = [
      "--- /dev/null",
      "+++ b/notes/new.md",
      "@@ -0,0 +1,2 @@",
      "+# New",
      "+text",
      "--- a/old.txt",
      "+++ /dev/null",
      "@@ -1,2 +0,0 @@",
      "-one",
      "-two",
      "diff --git a/src/a.js b/src/b.js",
      "similarity index 100%",
      "rename from src/a.js",
      "rename to src/b.js",
      "",
    ].join("\r\n");
    const out = await applyPatchToWorkspace(ws, patch);
    expect(out.files).toEqual({ "notes/new.md": "# New\ntext\n", "src/b.js": "x\n" });
    expect(out.remove).toEqual(["old.txt", "src/a.js"]);
    expect(out.changed).toEqual(["notes/new.md", "old.txt", "src/a.js", "src/b.js"]);
  });

  it("names the file and the hunk that does not apply", async () => {
    const ws = memoryWorkspace({ "calc.py": calc });
    const patch = [
      "--- a/calc.py",
      "+++ b/calc.py",
      "@@ -1,2 +1,2 @@",
      " def add(a, b):",
      "-    return a - b",
      "+    return a + b",
      "@@ -5,2 +5,2 @@",
      " def sub(a, b):",
      "-    return b - a",
      "+    return a - b",
      "",
    ].join("\n");
    const error = await applyPatchToWorkspace(ws, patch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PatchApplyError);
    expect((error as PatchApplyError).file).toBe("calc.py");
    expect((error as PatchApplyError).hunk).toBe(2);
    expect((error as PatchApplyError).message).toMatch(
      /hunk 2 of 2 \(@@ -5,2 \+5,2 @@\) does not apply to calc.py/,
    );
  });

  it("rejects empty, header-less, escaping and binary patches, and files that are missing or already exist", async () => {
    const ws = memoryWorkspace({ "calc.py": calc });
    await expect(applyPatchToWorkspace(ws, "  \n")).rejects.toThrow(/the patch is empty/);
    await expect(applyPatchToWorkspace(ws, "just some prose\n")).rejects.toThrow(/no file changes/);
    await expect(
      applyPatchToWorkspace(ws, "--- a/../etc/passwd\n+++ b/../etc/passwd\n@@ -1 +1 @@\n-x\n+y\n"),
    ).rejects.toThrow(/invalid path/);
    await expect(
      applyPatchToWorkspace(
        ws,
        "diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n",
      ),
    ).rejects.toThrow(/binary changes/);
    await expect(
      applyPatchToWorkspace(ws, "--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-x\n+y\n"),
    ).rejects.toThrow(/modifies nope.py, which does not exist/);
    await expect(
      applyPatchToWorkspace(ws, "--- /dev/null\n+++ b/calc.py\n@@ -0,0 +1 @@\n+x\n"),
    ).rejects.toThrow(/creates calc.py, which already exists/);
  });

  it("applies the fixture patches to the fixture repository on disk", async () => {
    const root = path.resolve("test/fixtures/repos/py-stats");
    const ws = await createFsWorkspace(root);
    const patch = await readFile(path.join(root, "patches/correct.diff"), "utf8");
    const out = await applyPatchToWorkspace(ws, patch);
    expect(out.changed).toEqual(["stats.py"]);
    expect(out.files["stats.py"]).toContain("return (s[mid - 1] + s[mid]) / 2");
    const stale = await readFile(path.join(root, "patches/does-not-apply.diff"), "utf8");
    await expect(applyPatchToWorkspace(ws, stale)).rejects.toThrow(
      /hunk 1 of 1 .* does not apply to stats.py/,
    );
  });

  describe("symlinks", () => {
    const modify = (p: string) => `--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-x\n+y\n`;
    const create = (p: string) => `--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+y\n`;

    it("refuses a patch that modifies a symlink or writes beyond a symlinked directory (in memory)", async () => {
      const ws = memoryWorkspace({ "real/a.txt": "x\n", "link.txt": "x\n" }, "/repo", ["link.txt", "dir"]);
      await expect(applyPatchToWorkspace(ws, modify("link.txt"))).rejects.toThrow(
        /changes link.txt, which is a symlink in the repository/,
      );
      await expect(applyPatchToWorkspace(ws, create("dir/new.txt"))).rejects.toThrow(
        /creates dir\/new.txt, but dir is a symlink in the repository/,
      );
      const err = await applyPatchToWorkspace(ws, create("dir/new.txt")).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PatchApplyError);
      expect((err as PatchApplyError).file).toBe("dir/new.txt");
      // The rename target side is checked as well.
      await expect(
        applyPatchToWorkspace(
          ws,
          "diff --git a/real/a.txt b/dir/a.txt\nsimilarity index 100%\nrename from real/a.txt\nrename to dir/a.txt\n",
        ),
      ).rejects.toThrow(/dir is a symlink/);
      // Paths without links still apply.
      expect((await applyPatchToWorkspace(ws, modify("real/a.txt"))).files).toEqual({ "real/a.txt": "y\n" });
    });

    it("refuses the same on disk: a committed directory link and a file link", async () => {
      const root = await mkdtemp(path.join(tmpdir(), "retrace-patch-link-"));
      try {
        await mkdir(path.join(root, "src"));
        await writeFile(path.join(root, "src/a.txt"), "x\n");
        await symlink("src", path.join(root, "lib"));
        await symlink("src/a.txt", path.join(root, "alias.txt"));
        const ws = await createFsWorkspace(root);
        await expect(applyPatchToWorkspace(ws, create("lib/b.txt"))).rejects.toThrow(
          /creates lib\/b.txt, but lib is a symlink/,
        );
        await expect(applyPatchToWorkspace(ws, modify("lib/a.txt"))).rejects.toThrow(/lib is a symlink/);
        await expect(applyPatchToWorkspace(ws, modify("alias.txt"))).rejects.toThrow(
          /alias.txt, which is a symlink/,
        );
        expect((await applyPatchToWorkspace(ws, modify("src/a.txt"))).files).toEqual({ "src/a.txt": "y\n" });
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  });
});
