/**
 * A JS repository whose tests `require("ms")`, checked out without node_modules: the dependency is installed
 * from the repository's package-lock.json (`npm ci --ignore-scripts`) in the throwaway install container, into
 * a temporary cache, and copied into each sandbox run; the checkout itself is never written to.
 * npm reaches the configured registry through Retrace's egress proxy (the container itself has no network).
 */
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { MissingDependenciesError } from "../../../src/fix/dependencies.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { createRepoDependencyProvider } from "../../../src/install/repo-deps.ts";
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
      "anti-gaming checks passed: tripwire canary, tripwire mutated twins, neutral-run run the code cannot recognise",
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
