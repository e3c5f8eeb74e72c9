/**
 * Link chains (issue 14's leftover): links that each look inside on paper but leave the tree when followed in
 * sequence. Every case is first shown to pass the per-link text check (`symlinkInside`/`symlinkIntoRoots`),
 * then refused by the extraction and the cache's verification. The chains built on the host's real file
 * system are also followed by the kernel, as a control: a file outside the tree really is reached through them.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import tarStream from "tar-stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheKey, InstallCache } from "../../../src/install/cache.ts";
import { extractChecked, symlinkInside, symlinkIntoRoots, treeDigest } from "../../../src/install/extract.ts";
import { LinkGraph, MAX_LINK_DEPTH } from "../../../src/install/link-chains.ts";
import { cpuMs } from "../../support/cpu-time.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "retrace-link-chains-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type L = [name: string, target: string];
function links(entries: L[], files: string[] = []): Readable {
  const pack = tarStream.pack();
  for (const f of files) pack.entry({ name: f, type: "file", mode: 0o644 }, "x");
  for (const [name, linkname] of entries) pack.entry({ name, type: "symlink", linkname });
  pack.finalize();
  return pack as unknown as Readable;
}
const limits = { maxFiles: 1000, maxBytes: 1024 * 1024 };
const ws = { at: "node_modules", roots: ["packages/a", "packages/b"] };

/** Chains whose every hop passes the text check of its own link. */
const CHAINS: [label: string, entries: L[], scope: typeof ws | undefined][] = [
  [
    "a -> ., b -> a/..",
    [
      ["a", "."],
      ["b", "a/.."],
    ],
    undefined,
  ],
  [
    "the same, the later link first",
    [
      ["b", "a/.."],
      ["a", "."],
    ],
    undefined,
  ],
  [
    "a directory link composing with .. below it",
    [
      ["d/up", ".."],
      ["d/e/up2", "../.."],
      ["x", "d/e/up2/.."],
    ],
    undefined,
  ],
  [
    "a three-hop climb",
    [
      ["a", "."],
      ["b", "a/.."],
      ["c", "b/node_modules/b/.."],
    ],
    ws,
  ],
  [
    "at node_modules: b -> a/.. is the project root (not the tree)",
    [
      ["a", "."],
      ["b", "a/.."],
    ],
    ws,
  ],
  [
    "through a workspace link: w -> @ws/a/../..",
    [
      ["@ws/a", "../../packages/a"],
      ["w", "@ws/a/../.."],
    ],
    ws,
  ],
  [
    "a loop",
    [
      ["p", "q"],
      ["q", "p"],
    ],
    undefined,
  ],
];

describe("link chains", () => {
  it.each(CHAINS)(
    "%s: each hop looks inside, the extraction refuses the chain",
    async (_l, entries, scope) => {
      for (const [name, target] of entries) {
        expect(symlinkInside(name, target) || symlinkIntoRoots(name, target, scope)).toBe(true);
      }
      const dest = path.join(dir, "sub", "node_modules");
      await mkdir(path.dirname(dest));
      await expect(
        extractChecked(links(entries), dest, { ...limits, ...(scope ? { links: scope } : {}) }),
      ).rejects.toThrow(/points outside the install \(followed link by link/);
    },
  );

  it("chains that stay inside are kept: npm's .bin links, workspace links, a link to a link", async () => {
    const dest = path.join(dir, "node_modules");
    await extractChecked(
      links(
        [
          [".bin/ms", "../ms/bin.js"],
          ["@ws/a", "../../packages/a"],
          ["@ws/b", "../../packages/b/lib"],
          ["alias", "ms"],
          ["alias2", "alias/../ms/bin.js"],
          ["top", "."],
          ["deep", "top/top/ms"],
        ],
        ["ms/bin.js"],
      ),
      dest,
      { ...limits, links: ws },
    );
    expect(await readFile(path.join(dest, "alias2"), "utf8")).toBe("x");
  });

  it("links nested deeper than 40 unresolved hops are refused; a long chain costs linear time", () => {
    const deep = new LinkGraph();
    for (let i = 0; i < MAX_LINK_DEPTH + 5; i++) deep.add(`l${i}`, `l${i + 1}`);
    deep.add(`l${MAX_LINK_DEPTH + 5}`, ".");
    expect(deep.firstEscape()?.link).toBe("l0");
    // 100,000 links each naming the one before, in a directory of its own: each is resolved once (memo). A
    // resolution that re-walked the chain would take ~5·10⁹ steps; the bound is loose for a loaded machine.
    const long = new LinkGraph();
    long.add("d0/n0", "..");
    for (let i = 1; i < 100_000; i++) long.add(`d${i}/n${i}`, `../d${i - 1}/n${i - 1}`);
    const { ms } = cpuMs(() => {
      expect(long.firstEscape()).toBeNull();
      long.add("d100000/n100000", "../d99999/n99999/..");
      expect(long.firstEscape()?.link).toBe("d100000/n100000");
    });
    expect(ms).toBeLessThan(10_000);
  }, 30_000);

  it("on the host, the kernel really reaches a file outside through such a chain (control), and treeDigest and the cache refuse the tree", async () => {
    const cache = new InstallCache({ root: path.join(dir, "cache") });
    const key = cacheKey({ chain: 1 });
    const tmp = await cache.tempDir("npm", key);
    await mkdir(path.join(tmp, "node_modules"), { recursive: true });
    // Outside the entry: its parent directory (the cache's `npm/`) gets a secret.
    await writeFile(path.join(path.dirname(tmp), "SECRET"), "host secret");
    await symlink(".", path.join(tmp, "node_modules", "a"));
    await symlink("a/..", path.join(tmp, "node_modules", "b"));
    await symlink("b/..", path.join(tmp, "node_modules", "c"));
    for (const [at, target] of [
      ["node_modules/a", "."],
      ["node_modules/b", "a/.."],
      ["node_modules/c", "b/.."],
    ])
      expect(symlinkInside(at!, target!)).toBe(true);
    // Control: the kernel follows c to the entry's parent.
    expect(await readFile(path.join(tmp, "node_modules", "c", "SECRET"), "utf8")).toBe("host secret");
    await expect(treeDigest(tmp)).rejects.toThrow(/node_modules\/c -> b\/\.\. points outside/);
    await expect(cache.commit("npm", key, tmp, {})).rejects.toThrow(/points outside/);
    expect(await cache.lookup("npm", key)).toBeNull();

    // Planted into an entry after it was written: the read refuses and removes it.
    const key2 = cacheKey({ chain: 2 });
    const tmp2 = await cache.tempDir("npm", key2);
    await mkdir(path.join(tmp2, "node_modules", "x"), { recursive: true });
    await writeFile(path.join(tmp2, "node_modules", "x", "index.js"), "1");
    const { dir: entry } = await cache.commit("npm", key2, tmp2, {});
    await symlink(".", path.join(entry, "node_modules", "a"));
    await symlink("a/..", path.join(entry, "node_modules", "b"));
    await symlink("b/..", path.join(entry, "node_modules", "c"));
    expect(await cache.lookup("npm", key2)).toBeNull();
    expect(existsSync(entry)).toBe(false);
  });
});
