import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PatchParseError, parseUnifiedDiff } from "../../../src/policy/index.ts";
import { create, modify } from "./helpers.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/patches/${name}`, import.meta.url), "utf8");

describe("parseUnifiedDiff", () => {
  it("reads a git diff produced by git: paths, line numbers, status", () => {
    const p = parseUnifiedDiff(fixture("good-fix.diff"));
    expect(p.files).toHaveLength(1);
    const f = p.files[0]!;
    expect(f).toMatchObject({
      oldPath: "src/calc.py",
      newPath: "src/calc.py",
      status: "modified",
      isGit: true,
    });
    expect(f.oldMode).toBe("100644");
    const changed = f.hunks[0]!.lines.filter((l) => l.kind !== "ctx");
    expect(changed).toEqual([
      { kind: "del", text: "    return a - b", oldLine: 2, newLine: null, patchLine: 7 },
      { kind: "add", text: "    return a + b", oldLine: null, newLine: 2, patchLine: 8 },
    ]);
    expect(p.disagreements).toEqual([]);
  });

  it("reads CRLF patches the same as LF ones", () => {
    const lf = parseUnifiedDiff(fixture("good-fix.diff"));
    const crlf = parseUnifiedDiff(fixture("good-fix-crlf.diff"));
    expect(crlf.crlf).toBe(true);
    expect(crlf.files).toEqual(lf.files);
  });

  it("reads git format-patch output and stops at the signature", () => {
    const p = parseUnifiedDiff(fixture("format-patch.patch"));
    expect(p.files.map((f) => f.path)).toEqual(["src/calc.py"]);
    expect(p.disagreements).toEqual([]);
  });

  it("reads renames without hunks from the extended headers", () => {
    const f = parseUnifiedDiff(fixture("rename-onto-ci.diff")).files[0]!;
    expect(f).toMatchObject({
      status: "renamed",
      oldPath: "src/helper.py",
      newPath: ".github/workflows/evil.yml",
    });
  });

  it("reads quoted names with escapes and names with spaces (git's trailing tab)", () => {
    const p = parseUnifiedDiff(fixture("quoted-paths.diff"));
    expect(p.files.map((f) => f.path)).toEqual(["docs dir/read me.txt", "src/tab\tname.py", "src/é.py"]);
    expect(p.files[1]!.status).toBe("added");
  });

  it("reads GIT binary patch bodies and Binary files lines as binary", () => {
    const f = parseUnifiedDiff(fixture("git-binary-patch.diff")).files[0]!;
    expect(f).toMatchObject({ binary: true, status: "added", path: "src/blob.bin", hunks: [] });
    const plain = parseUnifiedDiff(
      "diff --git a/x.png b/x.png\nindex 1..2 100644\nBinary files a/x.png and b/x.png differ\n",
    ).files[0]!;
    expect(plain.binary).toBe(true);
  });

  it("reads symlink, submodule and mode-change headers", () => {
    expect(parseUnifiedDiff(fixture("symlink.diff")).files[0]).toMatchObject({
      newMode: "120000",
      status: "added",
    });
    expect(parseUnifiedDiff(fixture("submodule.diff")).files[0]).toMatchObject({
      newMode: "160000",
      path: "vendor/lib",
    });
    expect(parseUnifiedDiff(fixture("mode-change.diff")).files[0]).toMatchObject({
      oldMode: "100644",
      newMode: "100755",
    });
  });

  it("handles `\\ No newline at end of file` and zero-length sides", () => {
    const patch =
      "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n\\ No newline at end of file\n";
    const f = parseUnifiedDiff(patch).files[0]!;
    expect(f.hunks[0]!.lines.map((l) => l.kind)).toEqual(["del", "add"]);
    const created = parseUnifiedDiff(create("n.txt", "a\nb\n")).files[0]!;
    expect(created.hunks[0]!.lines.map((l) => l.newLine)).toEqual([1, 2]);
  });

  it("reads plain `diff -u` output with timestamps", () => {
    const patch =
      "--- src/a.py\t2024-01-01 00:00:00.000000000 +0000\n+++ src/a.py\t2024-01-02 00:00:00.000000000 +0000\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";
    const f = parseUnifiedDiff(patch).files[0]!;
    expect(f).toMatchObject({ path: "src/a.py", isGit: false, status: "modified" });
  });

  it("keeps a removed line that starts with `-- ` inside its hunk", () => {
    const patch = modify("q.sql", "-- comment\nselect 1;\n", "select 1;\n");
    const f = parseUnifiedDiff(patch).files[0]!;
    expect(f.hunks[0]!.lines[0]).toMatchObject({ kind: "del", text: "-- comment" });
  });

  it.each([
    ["no diff at all", "hello world\n"],
    ["empty text", ""],
    ["a hunk without file headers", "@@ -1 +1 @@\n-a\n+b\n"],
    ["a truncated hunk", "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n"],
    ["extra lines after a complete hunk", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+smuggled\n"],
    ["a malformed hunk header", "--- a/x\n+++ b/x\n@@ -1 +1\n-a\n+b\n"],
    [
      "an unknown git extended header",
      "diff --git a/x b/x\nweird header\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    ],
    ["a combined merge diff", "diff --cc x\nindex 1,2..3\n--- a/x\n+++ b/x\n"],
    ["a bad quoted name", 'diff --git "a/x\\q" "b/x\\q"\n'],
    ["both sides /dev/null", "--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n"],
  ])("rejects %s with a PatchParseError", (_name, text) => {
    expect(() => parseUnifiedDiff(text)).toThrow(PatchParseError);
  });

  it("names the patch line of a parse error", () => {
    try {
      parseUnifiedDiff("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+smuggled\n");
      expect.unreachable();
    } catch (e) {
      expect((e as PatchParseError).line).toBe(6);
      expect((e as Error).message).toMatch(/line 6: .*smuggled.*complete/);
    }
  });
});
