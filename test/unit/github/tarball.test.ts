/** Safe unpacking of repository tarballs (src/github/tarball.ts), with hostile archives built by tar-stream. */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { strippedPath, TarballError, unpackTarball } from "../../../src/github/tarball.ts";
import { tarGz } from "../../e2e/support/tarball.ts";

const dirs: string[] = [];
function freshDir(): string {
  const parent = mkdtempSync(path.join(tmpdir(), "retrace-tar-test-"));
  dirs.push(parent);
  const dir = path.join(parent, "checkout");
  mkdirSync(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TOP = "octo-app-abc1234";

describe("strippedPath", () => {
  it("strips the top-level directory and normalises", () => {
    expect(strippedPath(`${TOP}/src/a.py`)).toBe("src/a.py");
    expect(strippedPath(`${TOP}/./src//a.py`)).toBe("src/a.py");
    expect(strippedPath(`${TOP}/`)).toBeNull();
  });
  it("refuses absolute paths, .. and .git", () => {
    expect(() => strippedPath("/etc/passwd")).toThrow(/absolute path/);
    expect(() => strippedPath("C:/x")).toThrow(/absolute path/);
    expect(() => strippedPath(`${TOP}/../x`)).toThrow(/"\.\."/);
    expect(() => strippedPath(`${TOP}/a/../../x`)).toThrow(TarballError);
    expect(() => strippedPath(`${TOP}/.git/hooks/pre-commit`)).toThrow(/\.git path/);
  });
});

describe("unpackTarball", () => {
  it("unpacks a GitHub-shaped archive: files, modes, safe links", async () => {
    const dir = freshDir();
    const archive = await tarGz(
      [
        { name: `${TOP}/`, type: "directory" },
        { name: `${TOP}/README.md`, content: "# app\n" },
        { name: `${TOP}/bin/run.sh`, content: "#!/bin/sh\necho hi\n", mode: 0o4755 },
        { name: `${TOP}/docs/readme`, type: "symlink", linkname: "../README.md" },
      ],
      "abc1234",
    );
    const report = await unpackTarball(archive, dir);
    expect(report).toEqual({ files: 2, bytes: 6 + 18, links: 1, droppedLinks: [] });
    expect(readFileSync(path.join(dir, "README.md"), "utf8")).toBe("# app\n");
    expect(statSync(path.join(dir, "bin/run.sh")).mode & 0o7777).toBe(0o755); // setuid dropped
    expect(statSync(path.join(dir, "README.md")).mode & 0o777).toBe(0o644);
    expect(readlinkSync(path.join(dir, "docs/readme"))).toBe("../README.md");
    expect(readdirSync(dir).sort()).toEqual(["README.md", "bin", "docs"]);
  });

  it("refuses paths that escape, absolute link targets, links pointing outside and hard links", async () => {
    const cases: Array<[Parameters<typeof tarGz>[0], RegExp]> = [
      [[{ name: `${TOP}/../evil`, content: "x" }], /"\.\."/],
      [[{ name: "/tmp/evil", content: "x" }], /absolute path/],
      [[{ name: `${TOP}/l`, type: "symlink", linkname: "/etc/passwd" }], /absolute path/],
      [[{ name: `${TOP}/a/l`, type: "symlink", linkname: "../../outside" }], /points outside/],
      [[{ name: `${TOP}/h`, type: "link", linkname: `${TOP}/README.md` }], /hard link/],
      [[{ name: `${TOP}/p`, type: "fifo" }], /fifo entry/],
      [[{ name: `${TOP}/.git/config`, content: "[core]" }], /\.git path/],
    ];
    for (const [entries, message] of cases) {
      const dir = freshDir();
      await expect(unpackTarball(await tarGz(entries), dir), String(message)).rejects.toThrow(message);
    }
  });

  it("drops link chains that look inside but resolve outside, and dangling links", async () => {
    const dir = freshDir();
    const archive = await tarGz([
      { name: `${TOP}/s`, type: "symlink", linkname: "." },
      { name: `${TOP}/m`, type: "symlink", linkname: "s/.." },
      { name: `${TOP}/dangling`, type: "symlink", linkname: "nowhere" },
      { name: `${TOP}/f.txt`, content: "ok" },
    ]);
    const report = await unpackTarball(archive, dir);
    expect(report.droppedLinks.sort()).toEqual(["dangling", "m"]);
    expect(report.links).toBe(1);
    expect(lstatSync(path.join(dir, "s")).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["f.txt", "s"]);
  });

  it("a file cannot be written through a link, and a link cannot replace a file", async () => {
    const dir = freshDir();
    const archive = await tarGz([
      { name: `${TOP}/f.txt`, content: "ok" },
      { name: `${TOP}/f.txt`, type: "symlink", linkname: "other" },
    ]);
    await expect(unpackTarball(archive, dir)).rejects.toThrow(/replaces an existing entry/);
  });

  it("caps the number of entries and the unpacked bytes", async () => {
    const many = await tarGz(Array.from({ length: 12 }, (_, i) => ({ name: `${TOP}/f${i}`, content: "x" })));
    await expect(unpackTarball(many, freshDir(), { maxEntries: 10, maxBytes: 1000 })).rejects.toThrow(
      /more than 10 entries/,
    );
    const big = await tarGz([{ name: `${TOP}/big`, content: "y".repeat(5000) }]);
    await expect(unpackTarball(big, freshDir(), { maxEntries: 10, maxBytes: 1000 })).rejects.toThrow(
      /larger than 1000 bytes/,
    );
  });

  it("a gzip bomb stops at the gunzip cap, and a non-archive is a clear error", async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    await expect(unpackTarball(bomb, freshDir(), { maxEntries: 10, maxBytes: 1000 })).rejects.toThrow(
      /unpacks to more than/,
    );
    await expect(
      unpackTarball(new TextEncoder().encode("<html>not found</html>"), freshDir()),
    ).rejects.toThrow(/could not be unpacked: incorrect header check/);
  });
});
