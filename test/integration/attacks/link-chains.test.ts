/**
 * Link chains out of a real install container (issue 14's leftover, item 1). The install container is not
 * trusted: here its output is planted by hand (what a compromised npm could leave in `/out`) with chains of
 * links whose every hop looks inside on paper — `a -> .`, `b -> a/..`, `c -> b/node_modules/b/..`, a chain
 * through a workspace link — and brought out by Retrace's own copy-out (`copyOutInstall`, the step before the
 * cache and the run container). Each is refused; nothing is cached; a secret beside the cache is never read
 * into it. A control with the same container shows npm-shaped links (bins, workspace packages) still pass.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InstallCache } from "../../../src/install/cache.ts";
import { DEFAULT_INSTALL_LIMITS } from "../../../src/install/container.ts";
import { symlinkInside, symlinkIntoRoots } from "../../../src/install/extract.ts";
import { copyOutInstall } from "../../../src/install/npm.ts";
import { withSession } from "../../../src/install/session.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const docker = connectDocker();
const SECRET = `retrace-link-chain-secret-${process.pid}`;
const limits = { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 60_000 };

/** Every file under `dir` (links not followed) that holds `needle`. */
function holding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && readFileSync(path.join(e.parentPath, e.name)).includes(needle))
    .map((e) => path.join(e.parentPath, e.name));
}

describeDocker("attacks: link chains in an install's output", () => {
  let tmp: string;
  let cache: InstallCache;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "retrace-attack-chains-"));
    cache = new InstallCache({ root: path.join(tmp, "cache") });
    await mkdir(path.join(cache.root, "repo-deps"), { recursive: true });
    // What a chain escaping the entry would reach on the host: the entry's parent and grandparent.
    await writeFile(path.join(cache.root, "repo-deps", "SECRET"), SECRET);
    await writeFile(path.join(cache.root, "SECRET"), SECRET);
  }, 60_000);
  afterAll(async () => {
    expect(holding(path.join(cache.root, "repo-deps"), SECRET)).toEqual([
      path.join(cache.root, "repo-deps", "SECRET"),
    ]);
    await rm(tmp, { recursive: true, force: true });
  });

  /** Plants `links` (path under /out → target) and `files` in a real install container, then copies out. */
  async function copyOut(plant: [string, string][], files: string[] = []): Promise<string[]> {
    return withSession(
      {
        docker,
        image: sandboxImage,
        limits,
        allowHosts: [],
        registry: {
          npm: "http://127.0.0.1:9/",
          pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
          caFile: null,
        },
        jobId: "attack-chains",
      },
      async (s) => {
        const script = [
          ...files.map((f) => `mkdir -p "$(dirname '${f}')" && echo x > '${f}'`),
          ...plant.map(([at, target]) => `mkdir -p "$(dirname '${at}')" && ln -s '${target}' '${at}'`),
        ].join(" && ");
        const r = await s.container.exec(["sh", "-c", script]);
        expect(r.exitCode, r.stderr).toBe(0);
        const out = await cache.tempDir("repo-deps", "chain");
        await mkdir(out);
        try {
          const paths = await copyOutInstall(s, out, ["packages/a"], limits);
          await cache.commit("repo-deps", `chain-${paths.length}-${Date.now()}`, out, { paths });
          return paths;
        } catch (error) {
          await rm(out, { recursive: true, force: true });
          throw error;
        }
      },
    );
  }

  it.each<[string, [string, string][]]>([
    [
      "a -> ., b -> a/..",
      [
        ["node_modules/a", "."],
        ["node_modules/b", "a/.."],
      ],
    ],
    [
      "a three-hop climb to the entry's parent",
      [
        ["node_modules/a", "."],
        ["node_modules/b", "a/.."],
        ["node_modules/c", "b/node_modules/b/.."],
      ],
    ],
    [
      "through a workspace link",
      [
        ["node_modules/@ws/a", "../../packages/a"],
        ["node_modules/w", "@ws/a/../.."],
      ],
    ],
    [
      "in a workspace package's own node_modules",
      [
        ["packages/a/node_modules/up", ".."],
        ["packages/a/node_modules/up2", "up/../.."],
      ],
    ],
    [
      "a loop",
      [
        ["node_modules/p", "q"],
        ["node_modules/q", "p"],
      ],
    ],
  ])(
    "%s: every hop looks inside, the copy-out refuses it, nothing is cached",
    async (_label, plant) => {
      for (const [at, target] of plant) {
        const tree = at.startsWith("packages/a/") ? "packages/a/node_modules" : "node_modules";
        const rel = at.slice(tree.length + 1);
        expect(
          symlinkInside(rel, target) || symlinkIntoRoots(rel, target, { at: tree, roots: ["packages/a"] }),
        ).toBe(true);
      }
      await expect(copyOut(plant, ["packages/a/node_modules/x/index.js"])).rejects.toThrow(
        /points outside the install \(followed link by link/,
      );
      expect(readdirSync(path.join(cache.root, "repo-deps")).filter((n) => n !== "SECRET")).toEqual([]);
    },
    120_000,
  );

  it("control: npm-shaped links (a bin, a workspace package, a link to a link) pass and are cached", async () => {
    const paths = await copyOut(
      [
        ["node_modules/.bin/ms", "../ms/bin.js"],
        ["node_modules/@ws/a", "../../packages/a"],
        ["node_modules/alias", "ms"],
      ],
      ["node_modules/ms/bin.js", "packages/a/node_modules/x/index.js"],
    );
    expect(paths).toEqual(["node_modules", "packages/a/node_modules"]);
    const entries = readdirSync(path.join(cache.root, "repo-deps")).filter((n) => n !== "SECRET");
    expect(entries).toHaveLength(1);
    await rm(path.join(cache.root, "repo-deps", entries[0]!), { recursive: true, force: true });
  }, 120_000);
});
