import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatchToWorkspace, PatchApplyError } from "../../../src/fix/apply-patch.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { memoryWorkspace } from "./memory-workspace.ts";

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
});
