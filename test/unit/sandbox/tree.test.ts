import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import tar from "tar-stream";
import { afterEach, describe, expect, it } from "vitest";
import { listInput, packInput, safeRelativePath, unpackCollected } from "../../../src/sandbox/tree.ts";

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), "retrace-tree-"));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function entriesOf(
  stream: NodeJS.ReadableStream,
): Promise<Array<{ name: string; type: string; body: string; linkname?: string | null }>> {
  const extract = tar.extract();
  const out: Array<{ name: string; type: string; body: string; linkname?: string | null }> = [];
  extract.on("entry", (h, body, next) => {
    const chunks: Buffer[] = [];
    body.on("data", (c: unknown) => chunks.push(c as Buffer));
    body.on("end", () => {
      out.push({
        name: h.name,
        type: h.type ?? "",
        body: Buffer.concat(chunks).toString(),
        linkname: h.linkname,
      });
      next();
    });
  });
  const done = new Promise<void>((r) => extract.on("finish", () => r()));
  stream.pipe(extract);
  await done;
  return out;
}

describe("safeRelativePath", () => {
  it.each(["../x", "a/../../x", "/etc/passwd", "a\\b", "", ".", "a\0b"])("rejects %j", (p) => {
    expect(() => safeRelativePath(p)).toThrow(/unsafe path/);
  });
  it("normalises harmless paths", () => {
    expect(safeRelativePath("a/./b/")).toBe("a/b");
    expect(safeRelativePath("a/c/../b")).toBe("a/b");
  });
});

describe("input trees", () => {
  it("packs a directory without following symlinks, skipping .git, with inline files winning", async () => {
    const dir = await tmp();
    await mkdir(path.join(dir, "src"));
    await mkdir(path.join(dir, ".git"));
    await writeFile(path.join(dir, ".git", "HEAD"), "ref");
    await writeFile(path.join(dir, "src", "a.py"), "print(1)");
    await writeFile(path.join(dir, "over.txt"), "from-dir");
    await symlink("/etc/shadow", path.join(dir, "link"));
    const entries = await listInput({
      dir,
      files: { "over.txt": "inline", "new/deep.txt": "x" },
      remove: ["src"],
    });
    const packed = await entriesOf(packInput(entries, { ".stdin": Buffer.from("in") }));
    const byName = Object.fromEntries(packed.map((e) => [e.name, e]));
    expect(byName["link"]).toMatchObject({ type: "symlink", linkname: "/etc/shadow", body: "" });
    expect(byName["over.txt"]?.body).toBe("inline");
    expect(byName["new/deep.txt"]?.body).toBe("x");
    expect(byName["new"]?.type).toBe("directory");
    expect(byName[".stdin"]?.body).toBe("in");
    expect(Object.keys(byName).some((n) => n.startsWith(".git"))).toBe(false);
    expect(Object.keys(byName).some((n) => n.startsWith("src"))).toBe(false);
  });

  it("keeps the executable bit of files copied from a directory", async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    await writeFile(path.join(dir, "data.txt"), "x", { mode: 0o600 });
    const extract = tar.extract();
    const modes: Record<string, number> = {};
    extract.on("entry", (h, body, next) => {
      modes[h.name] = h.mode ?? 0;
      body.on("end", next);
      body.resume();
    });
    const done = new Promise<void>((r) => extract.on("finish", () => r()));
    packInput(await listInput({ dir })).pipe(extract);
    await done;
    expect(modes["run.sh"]! & 0o777).toBe(0o755);
    expect(modes["data.txt"]! & 0o777).toBe(0o644);
  });

  it("rejects an inline file that escapes the workspace", async () => {
    await expect(listInput({ files: { "../../etc/cron.d/x": "boom" } })).rejects.toThrow(/unsafe path/);
  });

  it("says which directory is missing", async () => {
    await expect(listInput({ dir: "/nonexistent/retrace" })).rejects.toThrow(
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
    const files = await unpackCollected(stream, 1024);
    expect(Object.keys(files)).toEqual(["ok.txt"]);
    expect(Buffer.from(files["ok.txt"]!).toString()).toBe("fine");
  });
});
