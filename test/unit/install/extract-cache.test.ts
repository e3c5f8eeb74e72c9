/**
 * What comes out of an install container is unpacked under checks, and what the cache holds is verified on
 * every read. The hostile archives are built here with tar-stream, entry by entry, in the shapes a compromised
 * install could produce: `..` paths, absolute paths, symlinks out of the tree, a file written through a symlink,
 * hard links, devices, too many files, too many bytes.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import tarStream from "tar-stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  cacheKey,
  ENTRY_MARKER,
  InstallCache,
  lookupByManifest,
  recordManifest,
} from "../../../src/install/cache.ts";
import {
  extractChecked,
  safeEntryPath,
  symlinkInside,
  symlinkIntoRoots,
  treeDigest,
  treeStatSignature,
} from "../../../src/install/extract.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "retrace-extract-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type E = {
  name: string;
  type?: tarStream.Header["type"];
  content?: string;
  linkname?: string;
  mode?: number;
};
function archive(entries: E[]): Readable {
  const pack = tarStream.pack();
  for (const e of entries) {
    const header = {
      name: e.name,
      type: e.type ?? "file",
      mode: e.mode ?? 0o644,
      ...(e.linkname !== undefined ? { linkname: e.linkname } : {}),
    };
    if (e.type === undefined || e.type === "file") pack.entry(header, e.content ?? "");
    else pack.entry(header);
  }
  pack.finalize();
  return pack as unknown as Readable;
}
const limits = { maxFiles: 100, maxBytes: 1024 * 1024 };

describe("extractChecked", () => {
  it("unpacks files, directories and symlinks inside the tree; drops setuid bits", async () => {
    const dest = path.join(dir, "out");
    const r = await extractChecked(
      archive([
        { name: "./", type: "directory" },
        { name: "./ms/", type: "directory" },
        { name: "./ms/index.js", content: "module.exports = 1;\n", mode: 0o4755 },
        { name: "./.bin/ms", type: "symlink", linkname: "../ms/index.js" },
      ]),
      dest,
      limits,
    );
    expect(r).toEqual({ files: 4, bytes: 20 });
    expect(await readFile(path.join(dest, ".bin", "ms"), "utf8")).toBe("module.exports = 1;\n");
    expect((await stat(path.join(dest, "ms", "index.js"))).mode & 0o7777).toBe(0o755);
  });

  it.each<[string, E[], RegExp]>([
    ["a path climbing out", [{ name: "../../escaped", content: "x" }], /climbs out/],
    ["an absolute path", [{ name: "/etc/retrace-planted", content: "x" }], /absolute path/],
    [
      "a symlink to an absolute path",
      [{ name: "l", type: "symlink", linkname: "/etc/shadow" }],
      /points outside/,
    ],
    ["a symlink climbing out", [{ name: "a/l", type: "symlink", linkname: "../../.." }], /points outside/],
    [
      "a file written through an inside symlink",
      [
        { name: "d/", type: "directory" },
        { name: "l", type: "symlink", linkname: "d" },
        { name: "l/x", content: "x" },
      ],
      /through a symlink/,
    ],
    ["a hard link", [{ name: "h", type: "link", linkname: "etc/passwd" }], /is a link/],
    ["a character device", [{ name: "c", type: "character-device" }], /character-device/],
  ])("refuses %s and leaves nothing outside", async (_label, entries, message) => {
    const dest = path.join(dir, "sub", "out");
    await mkdir(path.dirname(dest));
    await expect(extractChecked(archive(entries), dest, limits)).rejects.toThrow(message);
    expect(existsSync(path.join(dir, "escaped"))).toBe(false);
    expect(existsSync("/etc/retrace-planted")).toBe(false);
  });

  it("stops at the file-count and byte caps", async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, content: "x" }));
    await expect(extractChecked(archive(many), path.join(dir, "a"), limits)).rejects.toThrow(
      /more than 100 files \(install.maxFiles\)/,
    );
    const big = [{ name: "big", content: "x".repeat(2 * 1024 * 1024) }];
    await expect(extractChecked(archive(big), path.join(dir, "b"), limits)).rejects.toThrow(
      /larger than 1048576 bytes/,
    );
  });

  it("path and link rules", () => {
    expect(safeEntryPath("./a/./b/")).toBe("a/b");
    expect(safeEntryPath("a/../../b")).toEqual({ problem: expect.stringMatching(/climbs out/) });
    expect(symlinkInside("node_modules/.bin/x", "../x/cli.js")).toBe(true);
    expect(symlinkInside("x", "..")).toBe(false);
  });

  it("npm workspace links: into a declared workspace package only", () => {
    const links = { at: "node_modules", roots: ["packages/a", "packages/b"] };
    expect(symlinkIntoRoots("@ws/a", "../../packages/a", links)).toBe(true);
    expect(symlinkIntoRoots("b", "../packages/b", links)).toBe(true);
    expect(symlinkIntoRoots("b", "../packages/b/lib/index.js", links)).toBe(true);
    // Not a workspace package, out of the project, absolute, a prefix that is not the directory, no roots.
    expect(symlinkIntoRoots("c", "../packages/c", links)).toBe(false);
    expect(symlinkIntoRoots("a", "../../../etc/passwd", links)).toBe(false);
    expect(symlinkIntoRoots("a", "/workspace/packages/a", links)).toBe(false);
    expect(symlinkIntoRoots("a", "../packages/ab", links)).toBe(false);
    expect(symlinkIntoRoots("a", "../packages/a", undefined)).toBe(false);
    expect(symlinkIntoRoots("a", "../x", { at: "node_modules", roots: ["../x"] })).toBe(false);
  });

  it("an extraction allows links into the workspace packages and still refuses every other way out", async () => {
    const entries = (target: string) => {
      const pack = tarStream.pack();
      pack.entry({ name: "@ws/a", type: "symlink", linkname: target });
      pack.finalize();
      return pack as unknown as Readable;
    };
    const links = { at: "node_modules", roots: ["packages/a"] };
    await extractChecked(entries("../../packages/a"), path.join(dir, "ok"), { ...limits, links });
    await expect(
      extractChecked(entries("../../../secret"), path.join(dir, "bad"), { ...limits, links }),
    ).rejects.toThrow(/points outside the install/);
  });
});

describe("InstallCache", () => {
  async function tree(root: string, files: Record<string, string>) {
    for (const [name, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true });
      await writeFile(path.join(root, name), content);
    }
  }

  it("writes an entry once, verifies it on read, and drops a tampered one", async () => {
    const cache = new InstallCache({ root: dir });
    const key = cacheKey({ tree: "a" });
    expect(await cache.lookup("npm", key)).toBeNull();
    const tmp = await cache.tempDir("npm", key);
    await tree(tmp, { "node_modules/a/index.js": "1" });
    const { dir: entry } = await cache.commit("npm", key, tmp, { installed: [] });
    expect(entry).toBe(path.join(dir, "npm", key));
    const hit = await cache.lookup<{ installed: unknown[] }>("npm", key);
    expect(hit?.marker.files).toBe(3);
    expect(hit?.marker.meta).toEqual({ installed: [] });

    // A second commit of the same key keeps the first entry.
    const tmp2 = await cache.tempDir("npm", key);
    await tree(tmp2, { "node_modules/a/index.js": "2" });
    await cache.commit("npm", key, tmp2, { installed: [] });
    expect(await readFile(path.join(entry, "node_modules/a/index.js"), "utf8")).toBe("1");
    expect(existsSync(tmp2)).toBe(false);

    // Same size, other content: the digest covers content.
    await writeFile(path.join(entry, "node_modules/a/index.js"), "9");
    expect(await cache.lookup("npm", key)).toBeNull();
    expect(existsSync(entry)).toBe(false);
  });

  it("refuses an entry in which a symlink to outside was planted after it was written", async () => {
    const cache = new InstallCache({ root: dir });
    const key = cacheKey({ tree: "b" });
    const tmp = await cache.tempDir("npm", key);
    await tree(tmp, { "node_modules/b/index.js": "1" });
    const { dir: entry } = await cache.commit("npm", key, tmp, {});
    await symlink("/etc", path.join(entry, "node_modules", "etc"));
    expect(await cache.lookup("npm", key)).toBeNull();
  });

  it("evicts least-recently-used entries past the quota, never one used in the protection window", async () => {
    const cache = new InstallCache({ root: dir });
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const key = cacheKey({ i });
      keys.push(key);
      const tmp = await cache.tempDir("npm", key);
      await tree(tmp, { "f.bin": "x".repeat(1000) });
      await cache.commit("npm", key, tmp, {});
      // Make the first two look old (last used two hours ago, one hour ago).
      if (i < 2) {
        const t = new Date(Date.now() - (2 - i) * 3_600_000);
        await utimes(path.join(dir, "npm", key, ENTRY_MARKER), t, t);
      }
    }
    const removed = await new InstallCache({ root: dir, quotaBytes: 2500, protectMs: 60_000 }).evict();
    expect(removed).toEqual([path.join(dir, "npm", keys[0]!)]);
    expect(existsSync(path.join(dir, "npm", keys[1]!))).toBe(true);
    expect(existsSync(path.join(dir, "npm", keys[2]!))).toBe(true);
    // Everything recent: over quota, but nothing is removed from under a run that may be copying it.
    const tight = new InstallCache({ root: dir, quotaBytes: 10, protectMs: 60_000 });
    const t = new Date();
    await utimes(path.join(dir, "npm", keys[1]!, ENTRY_MARKER), t, t);
    expect(await tight.evict()).toEqual([]);
  });

  it("refuses an entry the protected ones leave no room for, naming the quota (the cache never grows past it)", async () => {
    const cache = new InstallCache({ root: dir, quotaBytes: 2500 });
    for (let i = 0; i < 2; i++) {
      const tmp = await cache.tempDir("npm", cacheKey({ i }));
      await tree(tmp, { "f.bin": "x".repeat(1000) });
      await cache.commit("npm", cacheKey({ i }), tmp, {});
    }
    const key = cacheKey({ i: 2 });
    const tmp = await cache.tempDir("npm", key);
    await tree(tmp, { "f.bin": "x".repeat(1000) });
    await expect(cache.commit("npm", key, tmp, {})).rejects.toThrow(/install cache is full.*quota/);
    expect(existsSync(tmp)).toBe(false);
    expect(existsSync(path.join(dir, "npm", key))).toBe(false);
    // An entry past the protection window makes room: it is evicted and the new one kept.
    const old = new Date(Date.now() - 3 * 3_600_000);
    await utimes(path.join(dir, "npm", cacheKey({ i: 0 }), ENTRY_MARKER), old, old);
    const again = await cache.tempDir("npm", key);
    await tree(again, { "f.bin": "x".repeat(1000) });
    await cache.commit("npm", key, again, {});
    expect(existsSync(path.join(dir, "npm", cacheKey({ i: 0 })))).toBe(false);
    expect(await cache.lookup("npm", key)).not.toBeNull();
  });

  it("a read trusts the stat signature recorded with the verified content, and hashes again when it differs", async () => {
    const cache = new InstallCache({ root: dir });
    const key = cacheKey({ tree: "stat" });
    const tmp = await cache.tempDir("npm", key);
    await tree(tmp, { "node_modules/a/index.js": "1", "node_modules/a/package.json": "{}" });
    const { dir: entry } = await cache.commit("npm", key, tmp, {});
    const markerPath = path.join(entry, ENTRY_MARKER);
    const marker = JSON.parse(await readFile(markerPath, "utf8")) as { digest: string; stat?: string | null };
    expect(marker.stat).toMatch(/^[0-9a-f]{64}$/);
    expect(await treeStatSignature(entry, [ENTRY_MARKER])).toBe(marker.stat);

    // The signature matches: the content is not hashed again (a wrong digest in the marker goes unread).
    await writeFile(markerPath, JSON.stringify({ ...marker, digest: "0".repeat(64) }));
    expect(await cache.lookup("npm", key)).not.toBeNull();

    // No signature (an entry written before there were any): hashed, found right, and its signature recorded.
    await writeFile(markerPath, JSON.stringify({ ...marker, stat: undefined }));
    expect(await cache.lookup("npm", key)).not.toBeNull();
    expect((JSON.parse(await readFile(markerPath, "utf8")) as { stat?: string }).stat).toBe(marker.stat);

    // A signature that does not match and a digest that does not either: removed.
    await writeFile(markerPath, JSON.stringify({ ...marker, stat: "f".repeat(64), digest: "0".repeat(64) }));
    expect(await cache.lookup("npm", key)).toBeNull();
    expect(existsSync(entry)).toBe(false);
  });

  it("an edit that keeps the size and puts the old mtime back is still seen (its ctime moved)", async () => {
    const cache = new InstallCache({ root: dir });
    const key = cacheKey({ tree: "ctime" });
    const tmp = await cache.tempDir("npm", key);
    await tree(tmp, { "node_modules/a/index.js": "module.exports = 1;\n" });
    const t = new Date("2020-01-01T00:00:00Z");
    await utimes(path.join(tmp, "node_modules/a/index.js"), t, t);
    const { dir: entry } = await cache.commit("npm", key, tmp, {});
    const file = path.join(entry, "node_modules/a/index.js");
    await writeFile(file, "module.exports = 2;\n");
    await utimes(file, t, t);
    expect((await stat(file)).mtimeMs).toBe(t.getTime());
    expect(await cache.lookup("npm", key)).toBeNull();
    expect(existsSync(entry)).toBe(false);
  });

  it("a file added inside the tree, or a mode changed, is seen without hashing", async () => {
    const cache = new InstallCache({ root: dir });
    for (const [i, change] of [
      async (e: string) => writeFile(path.join(e, "node_modules/a/extra.js"), ""),
      async (e: string) => chmod(path.join(e, "node_modules/a/index.js"), 0o755),
    ].entries()) {
      const key = cacheKey({ tree: "change", i });
      const tmp = await cache.tempDir("npm", key);
      await tree(tmp, { "node_modules/a/index.js": "1" });
      const { dir: entry } = await cache.commit("npm", key, tmp, {});
      await change(entry);
      const marker = JSON.parse(await readFile(path.join(entry, ENTRY_MARKER), "utf8")) as { stat: string };
      expect(await treeStatSignature(entry, [ENTRY_MARKER])).not.toBe(marker.stat);
      expect(await cache.lookup("npm", key)).toBeNull();
    }
  });

  it("treeDigest refuses setuid files and special files", async () => {
    await tree(dir, { a: "1" });
    await chmod(path.join(dir, "a"), 0o4755);
    await expect(treeDigest(dir)).rejects.toThrow(/setuid/);
  });
});

describe("manifest index", () => {
  it("points a manifest at its resolved tree for a day; a changed or dropped tree entry is a miss", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "retrace-manifest-"));
    try {
      const cache = new InstallCache({ root });
      const tmp = await cache.tempDir("pypi", "tree1");
      await mkdir(path.join(tmp, "pkg"), { recursive: true });
      await writeFile(path.join(tmp, "pkg", "a.py"), "x = 1\n");
      const { dir } = await cache.commit("pypi", "tree1", tmp, { installed: [{ name: "a", version: "1" }] });
      expect(await lookupByManifest(cache, "pypi", "m1")).toBeNull();
      await recordManifest(cache, "pypi", "m1", "tree1");
      const hit = await lookupByManifest<{ installed: unknown[] }>(cache, "pypi", "m1");
      expect(hit?.dir).toBe(dir);
      expect(hit?.marker.meta.installed).toEqual([{ name: "a", version: "1" }]);
      // When the manifest was resolved: the index entry's time, not the tree's.
      expect(Date.parse(hit?.resolvedAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
      // Past its TTL the manifest is resolved again.
      expect(await lookupByManifest(cache, "pypi", "m1", -1)).toBeNull();
      // The tree entry is verified on read as always: tampered, it is dropped and the manifest misses.
      await writeFile(path.join(dir, "pkg", "a.py"), "x = 2\n");
      expect(await lookupByManifest(cache, "pypi", "m1")).toBeNull();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
