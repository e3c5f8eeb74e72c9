import { spawn } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { isEmptyInput, packInput, prepareInput } from "../../../src/sandbox/tree.ts";

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), "retrace-extra-"));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function extractLikeTheSandbox(stream: Readable): Promise<string> {
  const dest = await tmp();
  const child = spawn("tar", ["-x", "-i", "-f", "-", "-C", dest], { stdio: ["pipe", "ignore", "pipe"] });
  stream.pipe(child.stdin);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(code).toBe(0);
  return dest;
}

describe("extra directories", () => {
  it("copies only the listed entries of each host directory after the repo, links kept as links, inline files last", async () => {
    const repo = await tmp();
    await writeFile(path.join(repo, "index.js"), "require('ms')");
    await writeFile(path.join(repo, "shared.txt"), "repo");
    const deps = await tmp();
    await mkdir(path.join(deps, "node_modules", "ms"), { recursive: true });
    await mkdir(path.join(deps, "node_modules", ".bin"));
    await writeFile(path.join(deps, "node_modules", "ms", "index.js"), "module.exports = 1");
    await symlink("../ms/index.js", path.join(deps, "node_modules", ".bin", "ms"));
    await writeFile(path.join(deps, "package-lock.json"), "{}");
    await writeFile(path.join(deps, "shared.txt"), "extra");
    const prepared = await prepareInput({
      dir: repo,
      extraDirs: [{ hostDir: deps, paths: ["node_modules/", "shared.txt"] }],
      files: { "shared.txt": "inline" },
    });
    expect(prepared.extraDirs).toEqual([{ hostDir: deps, paths: ["node_modules", "shared.txt"] }]);
    const out = await extractLikeTheSandbox(packInput(prepared));
    expect((await readdir(out)).sort()).toEqual(["index.js", "node_modules", "shared.txt"]);
    expect(await readFile(path.join(out, "node_modules", "ms", "index.js"), "utf8")).toBe(
      "module.exports = 1",
    );
    expect(await readlink(path.join(out, "node_modules", ".bin", "ms"))).toBe("../ms/index.js");
    expect(await readFile(path.join(out, "shared.txt"), "utf8")).toBe("inline");
    // Neither host directory was changed.
    expect((await readdir(repo)).sort()).toEqual(["index.js", "shared.txt"]);
  });

  it("an extra directory alone is input", async () => {
    const deps = await tmp();
    await writeFile(path.join(deps, "a.txt"), "a");
    const prepared = await prepareInput({ extraDirs: [{ hostDir: deps, paths: ["a.txt"] }] });
    expect(isEmptyInput(prepared)).toBe(false);
    const out = await extractLikeTheSandbox(packInput(prepared));
    expect(await readFile(path.join(out, "a.txt"), "utf8")).toBe("a");
  });

  it("rejects a missing or relative host directory and entries that escape it", async () => {
    const deps = await tmp();
    await expect(
      prepareInput({ extraDirs: [{ hostDir: path.join(deps, "nope"), paths: ["x"] }] }),
    ).rejects.toThrow(/sandbox extra directory not found/);
    await expect(prepareInput({ extraDirs: [{ hostDir: "relative", paths: ["x"] }] })).rejects.toThrow(
      /sandbox extra directory not found: relative/,
    );
    await expect(prepareInput({ extraDirs: [{ hostDir: deps, paths: ["../etc"] }] })).rejects.toThrow(
      /unsafe path/,
    );
  });

  it("fails the stream when an entry does not exist in the host directory", async () => {
    const deps = await tmp();
    const stream = packInput(await prepareInput({ extraDirs: [{ hostDir: deps, paths: ["node_modules"] }] }));
    await expect(
      new Promise((resolve, reject) => {
        stream.on("error", reject);
        stream.on("end", resolve);
        stream.resume();
      }),
    ).rejects.toThrow(/packing .* failed \(tar exit 2\)/);
    expect((await lstat(deps)).isDirectory()).toBe(true);
  });
});
