import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractLikeTheSandbox, tmp } from "../../support/sandbox-tar.ts";
import { isEmptyInput, packInput, prepareInput } from "../../../src/sandbox/tree.ts";

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
