/**
 * A JS repository whose tests `require("ms")`, checked out without node_modules: the dependency is installed
 * from the repository's package-lock.json (`npm ci --ignore-scripts`) in the throwaway install container, into
 * a temporary cache, and copied into each sandbox run; the checkout itself is never written to.
 * npm reaches the configured registry through Retrace's egress proxy (the container itself has no network).
 */
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { MissingDependenciesError } from "../../../src/fix/dependencies.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { SourcePolicyError } from "../../../src/install/npm.ts";
import { createRepoDependencyProvider } from "../../../src/install/repo-deps.ts";
import { ENTRY_MARKER } from "../../../src/install/cache.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const root = path.resolve("test/fixtures/repos/js-with-dep");
const policy = policyForFix(defaultConfig());

async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(e.parentPath, e.name);
    out.push(`${path.relative(dir, full)} ${e.isFile() ? (await stat(full)).size : "dir"}`);
  }
  return out.sort();
}

describeDocker("verify: JS repository with a dependency from its lockfile", () => {
  let cacheDir = "";
  let before: string[] = [];
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), "retrace-repo-deps-"));
    before = await snapshot(root);
  });
  afterAll(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("without an installer, missing dependencies are an error with a hint, not a rejected patch", async () => {
    const error = await verifyPatch({
      workspace: await createFsWorkspace(root),
      sandbox: createDockerSandbox({ image: sandboxImage }),
      patch: await readFile(path.join(root, "patches", "correct.diff"), "utf8"),
      policy,
      jobId: "test-repo-deps-missing",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingDependenciesError);
    expect((error as MissingDependenciesError).message).toMatch(/^dependencies not installed: ms /);
    expect((error as MissingDependenciesError).hint).toBe(
      "run `npm ci --ignore-scripts` in the repository before Retrace",
    );
  });

  it("VERIFIED with ms installed in the install container and copied in; cached the second time; the checkout is unchanged", async () => {
    const log: string[] = [];
    const dependencies = createRepoDependencyProvider({
      cacheDir,
      log: (line) => log.push(line),
    });
    const verify = async () =>
      verifyPatch({
        workspace: await createFsWorkspace(root),
        sandbox: createDockerSandbox({ image: sandboxImage }),
        patch: await readFile(path.join(root, "patches", "correct.diff"), "utf8"),
        policy,
        runs: 1,
        jobId: "test-repo-deps",
        dependencies,
      });
    const r = await verify();
    expect(r.reasons).toEqual([
      "1 test(s) went from failing to passing (keeps sub-second timeouts), no test regressed, and 1 patched run(s) agree",
      // Verification now runs the anti-gaming layers on every patch and says which passed (issue 13).
      "anti-gaming checks passed: tripwire canary, tripwire mutated twins, neutral-run run the code cannot recognise, runner-free run outside the test runner, cold-start run as a fresh program calls the code",
    ]);
    expect(r.verdict).toBe("VERIFIED");
    expect(r.passToFail).toEqual([]);
    expect(r.runs.map((x) => [x.phase, x.exitCode, x.counts])).toEqual([
      ["base", 1, { passed: 2, failed: 1, skipped: 0 }],
      ["patched", 0, { passed: 3, failed: 0, skipped: 0 }],
    ]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/npm ci --ignore-scripts from package-lock.json \(1 missing/);
    const [hashDir] = await readdir(path.join(cacheDir, "repo-deps"));
    const pkg = JSON.parse(
      await readFile(
        path.join(cacheDir, "repo-deps", hashDir!, "node_modules", "ms", "package.json"),
        "utf8",
      ),
    ) as { version: string };
    expect(pkg.version).toBe("2.1.3");

    const again = await verify();
    expect(again.verdict).toBe("VERIFIED");
    expect(log[1]).toMatch(/cached install/);
    expect(await readdir(path.join(cacheDir, "repo-deps"))).toEqual([hashDir]);
    expect(await snapshot(root)).toEqual(before);
    expect(before.some((l) => l.startsWith("node_modules"))).toBe(false);
  }, 180_000);
});

describeDocker("verify: JS repository without an npm lockfile", () => {
  let tmp = "";
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "retrace-no-lockfile-"));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  /** The js-with-dep repository with `ms` declared as a range and its package-lock.json replaced. */
  async function repo(name: string, files: Record<string, string>, deps: Record<string, string> = {}) {
    const dir = path.join(tmp, name);
    await cp(root, dir, { recursive: true });
    await rm(path.join(dir, "package-lock.json"));
    const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"));
    pkg.dependencies = { ms: "^2.1.0", ...deps };
    await writeFile(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    for (const [f, text] of Object.entries(files)) await writeFile(path.join(dir, f), text);
    return dir;
  }

  async function verifyIn(dir: string, cacheDir: string, log: string[]) {
    return verifyPatch({
      workspace: await createFsWorkspace(dir),
      sandbox: createDockerSandbox({ image: sandboxImage }),
      patch: await readFile(path.join(root, "patches", "correct.diff"), "utf8"),
      policy,
      runs: 1,
      jobId: "test-no-lockfile",
      dependencies: createRepoDependencyProvider({ cacheDir, log: (l) => log.push(l) }),
    });
  }

  async function installedMs(cacheDir: string): Promise<string> {
    const [entry] = await readdir(path.join(cacheDir, "repo-deps"));
    const text = await readFile(
      path.join(cacheDir, "repo-deps", entry!, "node_modules", "ms", "package.json"),
      "utf8",
    );
    return (JSON.parse(text) as { version: string }).version;
  }

  it("no lockfile: package.json resolved as `npm install` would, in the install container: VERIFIED", async () => {
    const cacheDir = path.join(tmp, "cache-none");
    const log: string[] = [];
    const r = await verifyIn(await repo("none", {}), cacheDir, log);
    expect(r.verdict, r.reasons.join("\n")).toBe("VERIFIED");
    expect(log[0]).toMatch(/no lockfile: versions resolved from package\.json/);
    expect(await installedMs(cacheDir)).toMatch(/^2\.\d+\.\d+$/);
  }, 180_000);

  it("no lockfile, again: the tree package.json resolved to is reused without resolving it again, checked by its stat signature; a tree edited in the cache is installed afresh", async () => {
    const cacheDir = path.join(tmp, "cache-again");
    const dir = await repo("again", {});
    const first: string[] = [];
    expect((await verifyIn(dir, cacheDir, first)).verdict).toBe("VERIFIED");
    expect(first[1]).toMatch(/^dependencies: installed/);
    const [entry] = await readdir(path.join(cacheDir, "repo-deps"));
    const entryDir = path.join(cacheDir, "repo-deps", entry!);
    const marker = JSON.parse(await readFile(path.join(entryDir, ENTRY_MARKER), "utf8")) as { stat?: string };
    expect(marker.stat).toMatch(/^[0-9a-f]{64}$/);

    const second: string[] = [];
    const again = await verifyIn(dir, cacheDir, second);
    expect(again.verdict).toBe("VERIFIED");
    expect(second[1]).toMatch(
      /^dependencies: cached install of the tree this package\.json resolved to at \d{4}-\d\d-\d\dT.*\(not resolved again within a day\)$/,
    );

    // A file of the cached tree edited (same size): the signature differs, the content digest too, so the entry
    // is dropped and the tree installed again; the run gets npm's file, not the edited one.
    const file = path.join(entryDir, "node_modules", "ms", "index.js");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace("1000", "1001"));
    const third: string[] = [];
    expect((await verifyIn(dir, cacheDir, third)).verdict).toBe("VERIFIED");
    expect(third[1]).toMatch(/^dependencies: installed/);
    expect(await readFile(file, "utf8")).toBe(text);
  }, 300_000);

  it("a yarn.lock (classic): the direct dependency pinned to its version, not the newest in range", async () => {
    const cacheDir = path.join(tmp, "cache-yarn");
    const log: string[] = [];
    const yarnLock = `# yarn lockfile v1\n\n\nms@^2.1.0:\n  version "2.1.2"\n  resolved "https://registry.yarnpkg.com/ms/-/ms-2.1.2.tgz"\n`;
    const r = await verifyIn(await repo("yarn", { "yarn.lock": yarnLock }), cacheDir, log);
    expect(r.verdict, r.reasons.join("\n")).toBe("VERIFIED");
    expect(log[0]).toMatch(/yarn\.lock \(yarn-classic\): 1 of 1 declared dependencies pinned/);
    expect(await installedMs(cacheDir)).toBe("2.1.2");
  }, 180_000);

  it("a yarn/pnpm workspace (`workspace:` protocol) is an infrastructure error saying npm cannot link it", async () => {
    const error = await verifyIn(
      await repo("ws", {}, { "@acme/util": "workspace:*" }),
      path.join(tmp, "cache-ws"),
      [],
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect(String((error as Error).message)).toMatch(
      /yarn\/pnpm workspace \(package\.json: "@acme\/util": "workspace:\*"\).*does not link/,
    );
    // The action is one that works: dependencies in the checkout are used as they are (no image holds them).
    expect((error as InfrastructureError).hint).toBe(
      "install the dependencies in the checkout before Retrace (with the workspace's own package manager, scripts off): Retrace then uses the checkout's node_modules and installs nothing",
    );
  }, 60_000);

  it("a git dependency in package.json is refused before npm runs, naming it and the setting", async () => {
    const error = await verifyIn(
      await repo("git", {}, { tool: "github:someone/tool" }),
      path.join(tmp, "cache-git"),
      [],
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourcePolicyError);
    expect(String((error as Error).message)).toMatch(/tool.*git dependency.*github:someone\/tool/);
    expect(String((error as Error).message)).toMatch(/install\.allowGit/);
  }, 60_000);
});

describeDocker("verify: npm workspaces repository", () => {
  const wsRoot = path.resolve("test/fixtures/repos/js-workspaces");
  let cacheDir = "";
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), "retrace-workspaces-"));
  });
  afterAll(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("workspace packages linked into node_modules and a package's own node_modules come through: VERIFIED, checkout unchanged", async () => {
    const before = await snapshot(wsRoot);
    const log: string[] = [];
    const r = await verifyPatch({
      workspace: await createFsWorkspace(wsRoot),
      sandbox: createDockerSandbox({ image: sandboxImage }),
      patch: await readFile(path.join(wsRoot, "patches", "correct.diff"), "utf8"),
      policy,
      runs: 1,
      jobId: "test-workspaces",
      dependencies: createRepoDependencyProvider({ cacheDir, log: (l) => log.push(l) }),
    });
    // The workspace packages themselves count as missing until installed (no node_modules in the checkout).
    expect(log[0]).toMatch(/npm ci --ignore-scripts from package-lock.json \(2 missing/);
    expect(r.verdict).toBe("VERIFIED");
    expect(r.failToPass).toEqual(["an empty list is no time at all"]);
    // The anti-gaming run (the project moved to a neutral directory) still finds the workspace packages.
    expect(r.reasons).toContain(
      "anti-gaming checks passed: tripwire canary, tripwire mutated twins, neutral-run run the code cannot recognise, runner-free run outside the test runner, cold-start run as a fresh program calls the code",
    );
    // Every test passes on the patched tree, the one that needs report's own ms 2.0.0 included.
    const patched = r.runs.filter((x) => x.phase === "patched").pop()!;
    expect(patched.counts).toEqual({ passed: 4, failed: 0, skipped: 0 });
    const [hashDir] = await readdir(path.join(cacheDir, "repo-deps"));
    const entry = path.join(cacheDir, "repo-deps", hashDir!);
    const own = JSON.parse(
      await readFile(path.join(entry, "packages", "report", "node_modules", "ms", "package.json"), "utf8"),
    ) as { version: string };
    expect(own.version).toBe("2.0.0");
    expect(await snapshot(wsRoot)).toEqual(before);
  }, 240_000);
});

describeDocker("verify: a test file that cannot load a package nobody declared", () => {
  it("node:test (its stderr only in the TAP report): an infrastructure error naming the package, not REJECTED", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "retrace-undeclared-"));
    try {
      await writeFile(path.join(dir, "package.json"), JSON.stringify({ name: "u", version: "1.0.0" }));
      await writeFile(path.join(dir, "index.js"), "module.exports = 1;\n");
      await writeFile(
        path.join(dir, "a.test.js"),
        [
          'const assert = require("node:assert");',
          'const { test } = require("node:test");',
          'const pad = require("zzz-not-a-package");',
          'test("pads", () => assert.strictEqual(pad("1", 2), " 1"));',
          "",
        ].join("\n"),
      );
      const error = await verifyPatch({
        workspace: await createFsWorkspace(dir),
        sandbox: createDockerSandbox({ image: sandboxImage }),
        patch: "--- a/index.js\n+++ b/index.js\n@@ -1 +1 @@\n-module.exports = 1;\n+module.exports = 2;\n",
        policy,
        runs: 1,
        testCommand: "node --test a.test.js",
        jobId: "test-undeclared",
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InfrastructureError);
      expect((error as Error).message).toMatch(/the sandbox has no package 'zzz-not-a-package'/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
