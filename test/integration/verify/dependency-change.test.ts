/**
 * A fix that is a dependency change (issue 15, mdast-to-markdown-phrasing-root of the real-repos benchmark):
 * js-dep-range (written for this test) parses timeouts with `ms`, pinned to 2.0.0 in package.json and its
 * package-lock.json; ms understands weeks only from 2.1.0 on, so "parses weeks" fails on the base. The fix is
 * package.json alone: `"ms": "^2.1.3"`. The gate allows a registry range change; verification installs the
 * *patched* manifest for the patched runs (the lockfile, now out of step, keeps only what still matches) and
 * the base's for the base runs. A git spec for the same dependency stays BLOCKED. Real Docker engine, real npm
 * through Retrace's proxy, into a temporary cache.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { createFixPorts } from "../../../src/fix/build-ports.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createRepoDependencyProvider } from "../../../src/install/repo-deps.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const root = path.resolve("test/fixtures/repos/js-dep-range");
const policy = policyForFix(defaultConfig());

describeDocker("verify: a fix that changes a dependency's range in package.json", () => {
  let cacheDir = "";
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), "retrace-dep-range-"));
  });
  afterAll(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });
  const verify = async (name: string, p = policy) =>
    verifyPatch({
      workspace: await createFsWorkspace(root),
      sandbox: createDockerSandbox({ image: sandboxImage }),
      patch: await readFile(path.join(root, "patches", `${name}.diff`), "utf8"),
      policy: p,
      runs: 1,
      jobId: "test-dependency-change",
      dependencies: createRepoDependencyProvider({ cacheDir, image: sandboxImage }),
    });

  it("VERIFIED: the base runs on ms 2.0.0 from the lockfile, the patched runs on an install of the patched manifest", async () => {
    const r = await verify("upgrade");
    expect(r.verdict, r.reasons.join("\n")).toBe("VERIFIED");
    expect(r.failToPass).toEqual(["parses weeks"]);
    expect(r.runs.map((x) => [x.phase, x.exitCode, x.counts])).toEqual([
      ["base", 1, { passed: 2, failed: 1, skipped: 0 }],
      ["patched", 0, { passed: 3, failed: 0, skipped: 0 }],
    ]);
    expect(r.reasons).toContain(
      "the patch changes package.json's dependencies (ms@^2.1.3): the patched runs used an install of the patched manifest, the base runs the base's",
    );
    // Two installs in the cache: the lockfile's (ms 2.0.0) and the patched manifest's (the newest 2.x).
    const versions: string[] = [];
    for (const dir of await readdir(path.join(cacheDir, "repo-deps"))) {
      const pkg = await readFile(
        path.join(cacheDir, "repo-deps", dir, "node_modules", "ms", "package.json"),
        "utf8",
      ).catch(() => null);
      if (pkg !== null) versions.push((JSON.parse(pkg) as { version: string }).version);
    }
    expect(versions.sort()).toEqual(["2.0.0", expect.stringMatching(/^2\.1\.\d+$/)]);
  }, 300_000);

  it("BLOCKED: the same dependency taken from git, and any range change when allowRegistryRanges is off", async () => {
    const git = await verify("git-dep");
    expect(git.verdict).toBe("BLOCKED");
    expect(git.reasons.join("\n")).toMatch(
      /policy dependency-changes: package\.json:10: adds a line in `dependencies`/,
    );
    const strict = await verify("upgrade", {
      ...policy,
      dependencyChanges: { ...policy.dependencyChanges, allowRegistryRanges: false },
    });
    expect(strict.verdict).toBe("BLOCKED");
  }, 60_000);

  // The fix pipeline verifies a model's patch through the same provider (before, its verification had none, and
  // mdast's upstream change, adding a dependency, ended "this run has no way to install them" under `fix`).
  it("fix: a model's patch that changes a dependency verifies on an install of the patched manifest", async () => {
    const ports = await createFixPorts({
      workspace: await createFsWorkspace(root),
      sandbox: createDockerSandbox({ image: sandboxImage }),
      jobId: "test-dependency-change-fix",
      verifyRuns: 1,
      dependencies: createRepoDependencyProvider({ cacheDir, image: sandboxImage }),
      model: null,
    });
    const patch = await readFile(path.join(root, "patches", "upgrade.diff"), "utf8");
    const v = await ports.verify({
      patch,
      changes: [],
      failing: ["parses weeks"],
      signal: new AbortController().signal,
    });
    expect(v.ok, JSON.stringify(v)).toBe(true);
    expect(v.tests.find((t) => t.id === "parses weeks")).toMatchObject({ before: "failed", after: "passed" });
  }, 300_000);
});
