/**
 * A repository archive whose entries lie under one of its own symbolic links (ninth red team): links are created
 * last, in archive order, so `t -> s/..` (with `s -> .`, each text inside) made `t/x/y` a directory and a link in
 * the checkout's parent, left there when the drop pass then failed. Git cannot hold such a tree (a path is a
 * link or a directory, not both), so any entry under a link of the archive is refused, nothing is written outside
 * the checkout, and the error names the entry.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { afterEach, describe, expect, it } from "vitest";
import { TarballError, unpackTarball } from "../../../src/github/tarball.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Entry = { name: string; type?: "file" | "directory" | "symlink"; linkname?: string };

async function archive(entries: Entry[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => {
    chunks.push(c as Buffer);
  });
  const done = new Promise<void>((r) => pack.on("end", () => r()));
  for (const e of entries) {
    const type = e.type ?? "file";
    await new Promise<void>((resolve, reject) =>
      pack.entry(
        { name: `o-r-abc/${e.name}`, type, ...(e.linkname !== undefined ? { linkname: e.linkname } : {}) },
        type === "file" ? "x\n" : "",
        (err?: Error | null) => (err ? reject(err) : resolve()),
      ),
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/** Unpacks into `<parent>/checkout`; returns the error and what the parent holds besides the checkout. */
async function unpack(entries: Entry[]): Promise<{ error: unknown; outside: string[] }> {
  const parent = mkdtempSync(path.join(tmpdir(), "retrace-tar-links-"));
  dirs.push(parent);
  const dir = path.join(parent, "checkout");
  mkdirSync(dir);
  const error = await unpackTarball(await archive(entries), dir).then(
    () => null,
    (e: unknown) => e,
  );
  return { error, outside: readdirSync(parent).filter((n) => n !== "checkout") };
}

describe("entries under the archive's own links", () => {
  it("refuses a link under a link that resolves to the checkout's parent; nothing is made there", async () => {
    const r = await unpack([
      { name: "s", type: "symlink", linkname: "." },
      { name: "t", type: "symlink", linkname: "s/.." },
      { name: "t/escape/x", type: "symlink", linkname: "y" },
    ]);
    expect(r.error).toBeInstanceOf(TarballError);
    expect(String((r.error as Error).message)).toMatch(/t\/escape\/x.*under the archive's link t\b/);
    expect(r.outside).toEqual([]);
  });

  it("refuses a link two levels up and a chain through a directory", async () => {
    for (const entries of [
      [
        { name: "s", type: "symlink", linkname: "." },
        { name: "t", type: "symlink", linkname: "s/.." },
        { name: "u", type: "symlink", linkname: "t/.." },
        { name: "u/escape", type: "symlink", linkname: "a" },
      ],
      [
        { name: "d", type: "directory" },
        { name: "d/l", type: "symlink", linkname: ".." },
        { name: "d/l/d/m", type: "symlink", linkname: "../.." },
        { name: "d/l/d/m/escape", type: "symlink", linkname: "x" },
      ],
    ] as Entry[][]) {
      const r = await unpack(entries);
      expect(r.error).toBeInstanceOf(TarballError);
      expect(r.outside).toEqual([]);
    }
  });

  it("refuses a file or directory under a link, whichever comes first", async () => {
    for (const entries of [
      [{ name: "l", type: "symlink", linkname: "d" }, { name: "l/f.txt" }],
      [{ name: "l/f.txt" }, { name: "l", type: "symlink", linkname: "d" }],
      [
        { name: "l", type: "symlink", linkname: "d" },
        { name: "l/sub", type: "directory" },
      ],
    ] as Entry[][]) {
      const r = await unpack(entries);
      expect(r.error).toBeInstanceOf(TarballError);
      expect(r.outside).toEqual([]);
    }
  });

  it("still unpacks links beside directories, and a link to a link", async () => {
    const r = await unpack([
      { name: "src/a.js" },
      { name: "lib", type: "symlink", linkname: "src" },
      { name: "lib2", type: "symlink", linkname: "lib" },
      { name: "src/b.js", type: "symlink", linkname: "a.js" },
    ]);
    expect(r.error).toBeNull();
    expect(r.outside).toEqual([]);
  });
});
