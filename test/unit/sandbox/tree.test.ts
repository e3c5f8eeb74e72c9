import { lstat, mkdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { extractLikeTheSandbox, tmp } from "../../support/sandbox-tar.ts";
import {
  isEmptyInput,
  packInput,
  prepareInput,
  safeRelativePath,
  unpackCollected,
} from "../../../src/sandbox/tree.ts";

describe("safeRelativePath", () => {
  // `a/c/../b` was collapsed to `a/b` before the one path rule (issue 11, docs/paths.md): refused now.
  it.each([
    "../x",
    "a/../../x",
    "/etc/passwd",
    "a\\b",
    "",
    ".",
    "a\0b",
    "a/c/../b",
    ".git/config",
    "x/.GIT/y",
  ])("rejects %j", (p) => {
    expect(() => safeRelativePath(p)).toThrow(/unsafe path/);
  });
  it("normalises harmless paths", () => {
    expect(safeRelativePath("a/./b/")).toBe("a/b");
  });
});

describe("input trees", () => {
  it("packs a directory without following symlinks, skipping VCS metadata, with inline files winning", async () => {
    const dir = await tmp();
    await mkdir(path.join(dir, "src"));
    await mkdir(path.join(dir, ".git"));
    await writeFile(path.join(dir, ".git", "HEAD"), "ref");
    await writeFile(path.join(dir, "src", "a.py"), "print(1)");
    await writeFile(path.join(dir, "over.txt"), "from-dir");
    await symlink("/etc/shadow", path.join(dir, "link"));
    const prepared = await prepareInput({
      dir,
      files: { "over.txt": "inline", "new/deep.txt": "x" },
      remove: ["src"],
    });
    expect(prepared.remove).toEqual(["src"]);
    const out = await extractLikeTheSandbox(packInput(prepared, { ".stdin": Buffer.from("in") }));
    expect((await lstat(path.join(out, "link"))).isSymbolicLink()).toBe(true);
    expect(await readlink(path.join(out, "link"))).toBe("/etc/shadow");
    expect(await readFile(path.join(out, "over.txt"), "utf8")).toBe("inline");
    expect(await readFile(path.join(out, "new", "deep.txt"), "utf8")).toBe("x");
    expect(await readFile(path.join(out, ".stdin"), "utf8")).toBe("in");
    expect(await readFile(path.join(out, "src", "a.py"), "utf8")).toBe("print(1)");
    await expect(lstat(path.join(out, ".git"))).rejects.toThrow(/ENOENT/);
  });

  it("keeps the executable bit of files copied from a directory", async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    await writeFile(path.join(dir, "data.txt"), "x", { mode: 0o644 });
    const out = await extractLikeTheSandbox(packInput(await prepareInput({ dir })));
    expect((await lstat(path.join(out, "run.sh"))).mode & 0o111).not.toBe(0);
    expect((await lstat(path.join(out, "data.txt"))).mode & 0o111).toBe(0);
  });

  it("writes inline files the patch leaves executable (git mode 100755) with the executable bit", async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, "run.sh"), "#!/bin/sh\nexit 1\n", { mode: 0o644 });
    const prepared = await prepareInput({
      dir,
      files: { "run.sh": "#!/bin/sh\nexit 0\n", "data.txt": "x" },
      executable: ["run.sh"],
    });
    const out = await extractLikeTheSandbox(packInput(prepared));
    expect((await lstat(path.join(out, "run.sh"))).mode & 0o111).not.toBe(0);
    expect((await lstat(path.join(out, "data.txt"))).mode & 0o111).toBe(0);
  });

  it("packs inline files alone when there is no directory", async () => {
    const prepared = await prepareInput({ files: { "a/b.txt": "x" } });
    expect(isEmptyInput(prepared)).toBe(false);
    expect(isEmptyInput(await prepareInput(undefined))).toBe(true);
    const out = await extractLikeTheSandbox(packInput(prepared));
    expect(await readFile(path.join(out, "a", "b.txt"), "utf8")).toBe("x");
  });

  it("rejects inline files and removals that escape the workspace", async () => {
    await expect(prepareInput({ files: { "../../etc/cron.d/x": "boom" } })).rejects.toThrow(/unsafe path/);
    await expect(prepareInput({ remove: ["/etc"] })).rejects.toThrow(/unsafe path/);
  });

  it("says which directory is missing", async () => {
    await expect(prepareInput({ dir: "/nonexistent/retrace" })).rejects.toThrow(
      /not found: \/nonexistent\/retrace/,
    );
  });
});

describe("collected files", () => {
  it("keeps regular files only and drops escaping names", async () => {
    const pack = tar.pack();
    pack.entry({ name: "ok.txt" }, "fine");
    pack.entry({ name: "../escape.txt" }, "evil");
    pack.entry({ name: "link", type: "symlink", linkname: "/etc/passwd" });
    pack.entry({ name: "dir", type: "directory" });
    pack.finalize();
    const stream = new PassThrough();
    pack.pipe(stream);
    const { files, tooLarge } = await unpackCollected(stream, 1024);
    expect(Object.keys(files)).toEqual(["ok.txt"]);
    expect(Buffer.from(files["ok.txt"]!).toString()).toBe("fine");
    expect(tooLarge).toEqual([]);
  });

  it("stops at the cap: the file crossing it is named, not kept, and the rest of the stream is not read", async () => {
    const pack = tar.pack();
    pack.entry({ name: "small.txt" }, "x".repeat(100));
    pack.entry({ name: "report.xml" }, Buffer.alloc(4096, 0x41));
    pack.entry({ name: "after.txt" }, "never read");
    pack.finalize();
    const stream = new PassThrough();
    pack.pipe(stream);
    const { files, tooLarge } = await unpackCollected(stream, 1024);
    expect(Object.keys(files)).toEqual(["small.txt"]);
    expect(tooLarge).toEqual(["report.xml"]);
    expect(stream.destroyed).toBe(true);
  });
});
