import { describe, expect, it } from "vitest";
import { applyEdits } from "../../../src/fix/apply-edits.ts";
import { patchStats, renderPatch } from "../../../src/fix/render-diff.ts";

const base: Record<string, string> = {
  "calc.py": "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n",
};
const read = async (p: string) => base[p] ?? null;

describe("applyEdits", () => {
  it("replaces a unique old_string and renders a git-style diff", async () => {
    const r = await applyEdits(
      [
        {
          path: "calc.py",
          old_string: "def add(a, b):\n    return a - b",
          new_string: "def add(a, b):\n    return a + b",
        },
      ],
      read,
    );
    expect(r.errors).toEqual([]);
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]?.after).toContain("return a + b");
    const patch = renderPatch(r.changes);
    expect(patch).toBe(
      "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,5 +1,5 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n \n \n def sub(a, b):\n",
    );
    expect(patchStats(patch)).toEqual({ files: 1, added: 1, removed: 1 });
  });

  it("reports an ambiguous old_string with its count instead of throwing", async () => {
    const r = await applyEdits(
      [{ path: "calc.py", old_string: "return a - b", new_string: "return a + b" }],
      read,
    );
    expect(r.changes).toEqual([]);
    expect(r.errors).toEqual([expect.objectContaining({ index: 0, code: "ambiguous", path: "calc.py" })]);
    expect(r.errors[0]?.message).toContain("occurs 2 times");
  });

  it("reports a missing old_string, a missing file and a path escaping the repo", async () => {
    const r = await applyEdits(
      [
        { path: "calc.py", old_string: "return a * b", new_string: "x" },
        { path: "nope.py", old_string: "x", new_string: "y" },
        { path: "../etc/passwd", old_string: "", new_string: "root" },
        { path: "/abs.py", old_string: "", new_string: "x" },
      ],
      read,
    );
    expect(r.errors.map((e) => e.code)).toEqual([
      "not_found",
      "file_missing",
      "invalid_path",
      "invalid_path",
    ]);
    expect(r.errors[0]?.message).toContain("copy it exactly");
  });

  it("creates a new file with an empty old_string and refuses to overwrite an existing one that way", async () => {
    const r = await applyEdits(
      [
        { path: "util/helpers.py", old_string: "", new_string: "X = 1\n" },
        { path: "calc.py", old_string: "", new_string: "overwrite\n" },
      ],
      read,
    );
    expect(r.errors.map((e) => e.code)).toEqual(["file_exists"]);
    const patch = renderPatch(r.changes);
    expect(patch).toContain(
      "diff --git a/util/helpers.py b/util/helpers.py\nnew file mode 100644\n--- /dev/null\n+++ b/util/helpers.py\n@@ -0,0 +1,1 @@\n+X = 1\n",
    );
  });

  it("chains several edits to the same file in order", async () => {
    const r = await applyEdits(
      [
        {
          path: "calc.py",
          old_string: "def add(a, b):\n    return a - b",
          new_string: "def add(a, b):\n    return a + b",
        },
        {
          path: "calc.py",
          old_string: "def add(a, b):\n    return a + b",
          new_string: "def add(a, b):\n    return b + a",
        },
      ],
      read,
    );
    expect(r.errors).toEqual([]);
    expect(r.changes[0]?.after.startsWith("def add(a, b):\n    return b + a\n")).toBe(true);
  });

  it("flags an edit that changes nothing", async () => {
    const r = await applyEdits([{ path: "calc.py", old_string: "def sub", new_string: "def sub" }], read);
    expect(r.errors[0]?.code).toBe("no_change");
  });
});
