/** src/core/apply-patch.ts: the one applier's modes and line ends, over an in-memory base. */
import { describe, expect, it } from "vitest";
import { applyPatch, firstDifference, type PatchBase } from "../../../src/core/apply-patch.ts";

function base(files: Record<string, { text: string; mode?: string }>): PatchBase {
  return {
    where: "in the repository",
    modes: async (paths) =>
      new Map(paths.filter((p) => p in files).map((p) => [p, files[p]!.mode ?? "100644"] as const)),
    read: async (p) => files[p]?.text ?? null,
  };
}

/** `git diff --cached --binary` of a new conftest.py marked binary in .gitattributes (made with git 2.x). */
const GIT_BINARY_NEW = [
  "diff --git a/conftest.py b/conftest.py",
  "new file mode 100644",
  "index 0000000000000000000000000000000000000000..4f28bc7a4992fa35bc68694e612a5b49e2d770b9",
  "GIT binary patch",
  "literal 18",
  "XcmYdEO;bqI(6r)G0D^+V;$kiUEH(s;",
  "",
  "literal 0",
  "HcmV?d00001",
  "",
  "",
].join("\n");
const TEXT_NEW =
  "diff --git a/helper.py b/helper.py\nnew file mode 100644\n--- /dev/null\n+++ b/helper.py\n@@ -0,0 +1 @@\n+x = 1\n";

describe("applyPatch refuses binary changes: nothing written, never an empty file (red team 28, item 3 of f14c)", () => {
  it("a `GIT binary patch` creating a file, alone or after a text section", async () => {
    await expect(applyPatch(base({}), GIT_BINARY_NEW)).rejects.toThrow(
      /binary change \(GIT binary patch\) for conftest\.py: binary changes cannot be applied/,
    );
    await expect(applyPatch(base({}), TEXT_NEW + GIT_BINARY_NEW)).rejects.toThrow(/for conftest\.py/);
    // CRLF-transported.
    await expect(applyPatch(base({}), GIT_BINARY_NEW.replace(/\n/g, "\r\n"))).rejects.toThrow(
      /GIT binary patch/,
    );
  });

  it("a `Binary files … differ` new file and a modified one", async () => {
    const added =
      "diff --git a/conftest.py b/conftest.py\nnew file mode 100644\nindex 0000000..4f28bc7\nBinary files /dev/null and b/conftest.py differ\n";
    await expect(applyPatch(base({}), added)).rejects.toThrow(/Binary files … differ\) for conftest\.py/);
  });

  it("counter-examples: text lines that read `GIT binary patch` or `Binary files … differ` inside hunks apply", async () => {
    const patch =
      "diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,3 @@\n GIT binary patch\n-old\n+Binary files a/x and b/x differ\n+GIT binary patch\n";
    expect(await applyPatch(base({ "notes.txt": { text: "GIT binary patch\nold\n" } }), patch)).toEqual([
      {
        path: "notes.txt",
        content: "GIT binary patch\nBinary files a/x and b/x differ\nGIT binary patch\n",
        mode: "100644",
      },
    ]);
    expect(await applyPatch(base({}), TEXT_NEW)).toEqual([
      { path: "helper.py", content: "x = 1\n", mode: "100644" },
    ]);
  });
});

describe("applyPatch", () => {
  it("takes the mode from the patch (a mode-only section, a new executable) and keeps the base's otherwise", async () => {
    const b = base({ "run.sh": { text: "echo\n" }, "bin/x": { text: "a\n", mode: "100755" } });
    expect(await applyPatch(b, "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n")).toEqual([
      { path: "run.sh", content: "echo\n", mode: "100755" },
    ]);
    expect(
      await applyPatch(
        b,
        "diff --git a/new.sh b/new.sh\nnew file mode 100755\n--- /dev/null\n+++ b/new.sh\n@@ -0,0 +1 @@\n+hi\n",
      ),
    ).toEqual([{ path: "new.sh", content: "hi\n", mode: "100755" }]);
    expect(await applyPatch(b, "--- a/bin/x\n+++ b/bin/x\n@@ -1 +1 @@\n-a\n+b\n")).toEqual([
      { path: "bin/x", content: "b\n", mode: "100755" },
    ]);
    await expect(
      applyPatch(b, "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 120000\n"),
    ).rejects.toThrow(/gives run.sh the mode 120000; Retrace only writes regular files/);
  });

  it("reads a patch with CRLF headers as transported; any other patch as written (mixed line ends kept)", async () => {
    const crlf = "--- a/a.txt\r\n+++ b/a.txt\r\n@@ -1,2 +1,2 @@\r\n one\r\n-two\r\n+TWO\r\n";
    expect(await applyPatch(base({ "a.txt": { text: "one\ntwo\n" } }), crlf)).toEqual([
      { path: "a.txt", content: "one\nTWO\n", mode: "100644" },
    ]);
    const mixed = "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\r\n-two\n+TWO\n three\r\n";
    expect(await applyPatch(base({ "a.txt": { text: "one\r\ntwo\nthree\r\n" } }), mixed)).toEqual([
      { path: "a.txt", content: "one\r\nTWO\nthree\r\n", mode: "100644" },
    ]);
  });

  it("refuses a submodule, a directory and a file whose text is not UTF-8", async () => {
    const b = base({ lib: { text: "", mode: "160000" }, "l.txt": { text: "caf\uFFFD\nx\n" } });
    await expect(applyPatch(b, "--- a/lib\n+++ b/lib\n@@ -1 +1 @@\n-a\n+b\n")).rejects.toThrow(
      /lib is not a regular file in the repository \(git mode 160000\)/,
    );
    await expect(applyPatch(b, "--- a/l.txt\n+++ b/l.txt\n@@ -2 +2 @@\n-x\n+y\n")).rejects.toThrow(
      /l.txt is not UTF-8 text/,
    );
  });

  it("firstDifference names the first path, content or mode that differs", () => {
    const a = [{ path: "a", content: "x", mode: "100644" as const }];
    expect(firstDifference(a, a)).toBeNull();
    expect(firstDifference(a, [{ ...a[0]!, content: "y" }])).toBe("a has different content");
    expect(firstDifference(a, [{ ...a[0]!, content: null }])).toBe(
      "a is deleted in one and written in the other",
    );
    expect(firstDifference(a, [{ ...a[0]!, mode: "100755" }])).toBe(
      "a has mode 100644 in one and 100755 in the other",
    );
    expect(firstDifference(a, [...a, { path: "b", content: "", mode: "100644" }])).toBe(
      "b is changed in one and not the other",
    );
  });

  it("refuses hunks that overlap or run backwards, and applies hunks in file order (red team 25)", async () => {
    const b = base({ "a.js": { text: "one\ntwo\nthree\nfour\nfive\nsix\nseven\n" } });
    const head = "diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n";
    const h1 = "@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n";
    // The same lines twice: both hunks matched the original and the file written held `one` twice.
    await expect(applyPatch(b, `${head}${h1}@@ -1,2 +1,2 @@\n one\n-two\n+2\n`)).rejects.toThrow(
      /hunks 1 and 2 of a\.js .* overlap or are out of order/,
    );
    // A later hunk written first.
    await expect(applyPatch(b, `${head}@@ -6,1 +6,1 @@\n-six\n+SIX\n${h1}`)).rejects.toThrow(
      /overlap or are out of order/,
    );
    // A hunk on line 2 after an insertion after line 2 runs backwards; two insertions at one place overlap.
    await expect(
      applyPatch(b, `${head}@@ -2,0 +3,1 @@\n+new\n@@ -2,1 +3,1 @@\n-two\n+TWO\n`),
    ).rejects.toThrow(/overlap/);
    await expect(applyPatch(b, `${head}@@ -2,0 +3,1 @@\n+new\n@@ -2,0 +4,1 @@\n+newer\n`)).rejects.toThrow(
      /overlap/,
    );
    // Adjacent and separate hunks in order still apply.
    expect(
      await applyPatch(b, `${head}${h1}@@ -3,1 +3,1 @@\n-three\n+THREE\n@@ -7,1 +7,1 @@\n-seven\n+SEVEN\n`),
    ).toEqual([{ path: "a.js", content: "one\nTWO\nTHREE\nfour\nfive\nsix\nSEVEN\n", mode: "100644" }]);
    expect(await applyPatch(b, `${head}@@ -2,0 +3,1 @@\n+new\n@@ -3,1 +4,1 @@\n-three\n+THREE\n`)).toEqual([
      { path: "a.js", content: "one\ntwo\nnew\nTHREE\nfour\nfive\nsix\nseven\n", mode: "100644" },
    ]);
  });
});
