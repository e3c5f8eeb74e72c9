/**
 * Third red team (`redteam3-cases.json`): the classes that got through, replayed against the real engine.
 * - A test's TAP comment line (or any output line) that is a long run of path characters naming a
 *   `.retrace-` file: the internal-name scrub was quadratic in it (80 KB held the host 51 s).
 * - package.json with 20,000 workspace globs: matched against every package directory on the host (62 s
 *   before the install, minutes more after); now refused before anything is read.
 * - A lockfile listing 120,000 repository directories: each tried as a workspace package on the host (69 s);
 *   now refused before anything is read.
 * The repositories are written here; the registry is a port nobody answers on, so each refusal comes first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { checkJsDependencies } from "../../../src/fix/dependencies.ts";
import { runTests } from "../../../src/fix/test-runner/index.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { installRepoDependencies } from "../../../src/install/repo-deps.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const base = mkdtempSync(path.join(os.tmpdir(), "retrace-redteam3-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function repo(name: string, files: Record<string, string>): string {
  const dir = path.join(base, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

// A registry nobody answers on: every refusal below must come before any install starts.
const registryConfig: RegistryConfig = {
  npm: "http://127.0.0.1:9/",
  pip: { indexUrl: "https://pypi.org/simple", extraIndexUrls: [], findLinks: [] },
  caFile: null,
};

describeDocker("third red team: classes that got through, contained", () => {
  it("a TAP diagnostic of 200,000 path segments naming a .retrace- file is scrubbed in linear time", async () => {
    const line = `${"a/".repeat(200_000)}.retrace-report-x.tap and ${"b/".repeat(200_000)} .retrace-y`;
    const dir = repo("tap", {
      "package.json": JSON.stringify({ name: "tap", version: "1.0.0", scripts: { test: "node --test" } }),
      "test/a.test.js": `const test = require("node:test");\ntest("a", (t) => { t.diagnostic(${JSON.stringify(line)}); });\n`,
    });
    const started = Date.now();
    const r = await runTests({
      sandbox: createDockerSandbox({ image: sandboxImage }),
      workspace: await createFsWorkspace(dir),
      command: { framework: "node-test", command: "node --test", detectedBy: "redteam3" },
      jobId: "redteam3-tap",
    });
    const elapsed = Date.now() - started;
    expect(r.reportFound).toBe(true);
    expect(r.counts.passed).toBe(1);
    expect(r.outputTail).toContain("<retrace file>");
    expect(r.outputTail).not.toContain(".retrace-");
    // The quadratic scrub took 51 s for 40,000 segments; 400,000 would be well over an hour.
    expect(elapsed).toBeLessThan(60_000);
  }, 120_000);

  it("package.json with 20,000 workspace globs is refused before the checkout's packages are matched", async () => {
    const files: Record<string, string> = {
      "package.json": JSON.stringify({
        name: "root",
        version: "1.0.0",
        workspaces: Array.from({ length: 20_000 }, (_, i) => `packages/g${i}*`),
      }),
    };
    for (let i = 0; i < 3000; i++) files[`packages/d${i}/package.json`] = JSON.stringify({ name: `d${i}` });
    const ws = await createFsWorkspace(repo("globs", files));
    const started = Date.now();
    const js = await checkJsDependencies(ws);
    expect(js).not.toBeNull();
    await expect(
      installRepoDependencies(ws, js!, { cacheDir: path.join(base, "cache-globs"), registryConfig }),
    ).rejects.toThrow(/package\.json lists 20000 workspace globs, more than the 100 Retrace reads/);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it("a lockfile listing 120,000 repository directories is refused before any is read", async () => {
    const packages: Record<string, unknown> = { "": { name: "root", workspaces: ["packages/*"] } };
    for (let i = 0; i < 120_000; i++) packages[`packages/p${i}`] = { name: `p${i}`, version: "1.0.0" };
    const ws = await createFsWorkspace(
      repo("keys", {
        "package.json": JSON.stringify({ name: "root", version: "1.0.0", workspaces: ["packages/*"] }),
        "package-lock.json": JSON.stringify({ name: "root", lockfileVersion: 3, packages }),
      }),
    );
    const js = await checkJsDependencies(ws);
    const started = Date.now();
    await expect(
      installRepoDependencies(ws, js!, { cacheDir: path.join(base, "cache-keys"), registryConfig }),
    ).rejects.toThrow(
      /the lockfile lists 120000 directories of the repository \(workspace packages\), more than/,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);
});
