/**
 * The host installer of a repository's dependencies, with a stand-in `npm` executable (a shell script that
 * records its argv and environment and writes node_modules like `npm ci` would): no registry is involved.
 */
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { installRepoDependencies, repoDepsHash } from "../../../src/sandbox/repo-deps.ts";
import { memoryWorkspace } from "../verify/memory-workspace.ts";

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), "retrace-repo-deps-unit-"));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function fakeNpm(dir: string, body: string): Promise<string> {
  const file = path.join(dir, "npm");
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

const pkg = JSON.stringify({ devDependencies: { jest: "29.0.0" } });
const js = { declared: ["jest"], missing: ["jest"], lockfile: "package-lock.json" };

describe("installRepoDependencies", () => {
  it("runs `npm ci --ignore-scripts` on a copy of package.json + lockfile in the cache, with the allow-listed env, once", async () => {
    const bin = await tmp();
    const cacheDir = await tmp();
    const record = path.join(bin, "calls");
    const npm = await fakeNpm(
      bin,
      `echo "$*|$SECRET_TOKEN|$npm_config_ignore_scripts|$(cat package-lock.json)" >> ${record}\nmkdir -p node_modules/jest && echo '{}' > node_modules/jest/package.json`,
    );
    const ws = memoryWorkspace({ "package.json": pkg, "package-lock.json": '{"v":1}' });
    const env = { PATH: process.env.PATH, SECRET_TOKEN: "s3cret" };
    const first = await installRepoDependencies(ws, js, { cacheDir, npm, env });
    const hash = repoDepsHash(pkg, '{"v":1}', "package-lock.json");
    expect(first).toEqual([{ hostDir: path.join(cacheDir, "repo-deps", hash), paths: ["node_modules"] }]);
    expect(await readdir(path.join(cacheDir, "repo-deps", hash, "node_modules"))).toEqual(["jest"]);
    const second = await installRepoDependencies(ws, js, { cacheDir, npm, env });
    expect(second).toEqual(first);
    expect((await readFile(record, "utf8")).trim().split("\n")).toEqual([
      'ci --ignore-scripts --no-audit --no-fund --loglevel=error||true|{"v":1}',
    ]);
    // A changed lockfile is another install.
    const changed = memoryWorkspace({ "package.json": pkg, "package-lock.json": '{"v":2}' });
    const third = await installRepoDependencies(changed, js, { cacheDir, npm, env });
    expect(third[0]?.hostDir).not.toBe(first[0]?.hostDir);
  });

  it("says why npm failed and leaves nothing half-installed in the cache", async () => {
    const bin = await tmp();
    const cacheDir = await tmp();
    const npm = await fakeNpm(
      bin,
      "echo 'npm error `npm ci` can only install packages when your package.json and package-lock.json are in sync' >&2\nexit 1",
    );
    const ws = memoryWorkspace({ "package.json": pkg, "package-lock.json": "{}" });
    const error = await installRepoDependencies(ws, js, { cacheDir, npm }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: "infrastructure",
      message: expect.stringMatching(
        /^npm ci --ignore-scripts from package-lock.json failed: npm error `npm ci` can only install/,
      ),
      hint: expect.stringMatching(/in sync/),
    });
    expect(await readdir(path.join(cacheDir, "repo-deps"))).toEqual([]);
  });

  it("refuses without an npm lockfile, and names a missing npm", async () => {
    const ws = memoryWorkspace({ "package.json": pkg });
    await expect(installRepoDependencies(ws, { ...js, lockfile: null })).rejects.toThrow(/no lockfile/);
    await expect(installRepoDependencies(ws, { ...js, lockfile: "yarn.lock" })).rejects.toThrow(
      /yarn.lock is not npm's/,
    );
    const cacheDir = await tmp();
    const withLock = memoryWorkspace({ "package.json": pkg, "package-lock.json": "{}" });
    await expect(
      installRepoDependencies(withLock, js, { cacheDir, npm: path.join(cacheDir, "no-npm") }),
    ).rejects.toThrow(/was not found on this host/);
  });
});
