/**
 * A pnpm workspace (two packages, `workspace:*`) installed by the pnpm release its package.json's
 * `packageManager` names, in the real install container, from a local npm registry on loopback that serves
 * that pnpm release (packed once from the public npm registry: a package registry, as CI reaches) and the
 * workspace's one dependency. What comes back runs in the sandbox image: the workspace packages import each
 * other and the registry dependency through pnpm's links, and `pnpm` is on the runs' PATH. A lockfile entry
 * whose tarball is on another host is refused before anything runs, naming the package and the setting.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, readlink, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeError } from "../../../src/core/errors.ts";
import { checkJsDependencies } from "../../../src/fix/dependencies.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { installRepoDependencies } from "../../../src/install/repo-deps.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const run = promisify(execFile);
/** A pnpm release that runs on the sandbox image's Node 18 (pnpm 10+ needs newer) and writes lockfile v9. */
const PNPM = "9.15.9";

const cfg = (npm: string): RegistryConfig => ({
  npm,
  pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
  caFile: null,
});

/** The pnpm release's tarball, from the public npm registry once per machine (kept in the OS temp dir). */
async function pnpmTarball(): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `retrace-test-pnpm-${PNPM}.tgz`);
  const kept = await readFile(file).catch(() => null);
  if (kept) return kept;
  const res = await fetch(`https://registry.npmjs.org/pnpm/-/pnpm-${PNPM}.tgz`);
  if (!res.ok) throw new Error(`could not fetch pnpm ${PNPM}: ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  await writeFile(file, body);
  return body;
}

function lockfile(leafIntegrity: string, extraDeps = "", extraPackages = ""): string {
  return `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    devDependencies:
      '@ws/a':
        specifier: workspace:*
        version: link:packages/a

  packages/a:
    dependencies:
      '@ws/b':
        specifier: workspace:*
        version: link:../b
      leaf:
        specifier: ^1.0.0
        version: 1.0.0
${extraDeps}
  packages/b: {}

packages:

  leaf@1.0.0:
    resolution: {integrity: ${leafIntegrity}}
${extraPackages}
snapshots:

  leaf@1.0.0: {}
${extraPackages ? "\n  evil@1.0.0: {}\n" : ""}`;
}

describeDocker("a pnpm workspace installed by its own pnpm", () => {
  let registry: LocalRegistry;
  let tmp = "";
  let sha512 = "";
  beforeAll(async () => {
    const tgz = await pnpmTarball();
    sha512 = createHash("sha512").update(tgz).digest("hex");
    registry = await startLocalRegistry([
      { name: "leaf", version: "1.0.0", files: { "index.js": "module.exports = 'leaf 1.0.0';\n" } },
      { name: "pnpm", version: PNPM, tgz },
    ]);
    tmp = await mkdtemp(path.join(os.tmpdir(), "retrace-pnpm-ws-"));
  }, 120_000);
  afterAll(async () => {
    await registry?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  async function repo(
    name: string,
    opts: { packageManager?: string; lock?: string; aDeps?: Record<string, string> } = {},
  ) {
    const dir = path.join(tmp, name);
    await mkdir(path.join(dir, "packages/a"), { recursive: true });
    await mkdir(path.join(dir, "packages/b"), { recursive: true });
    await writeFile(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "root",
        private: true,
        ...(opts.packageManager === ""
          ? {}
          : { packageManager: opts.packageManager ?? `pnpm@${PNPM}+sha512.${sha512}` }),
        devDependencies: { "@ws/a": "workspace:*" },
        scripts: {
          build: "node -e \"require('fs').writeFileSync('built.txt', 'built')\"",
          test: "node test.js",
        },
      }),
    );
    await writeFile(path.join(dir, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n");
    await writeFile(
      path.join(dir, "packages/a/package.json"),
      JSON.stringify({
        name: "@ws/a",
        version: "1.0.0",
        dependencies: { "@ws/b": "workspace:*", leaf: "^1.0.0", ...opts.aDeps },
      }),
    );
    await writeFile(
      path.join(dir, "packages/a/index.js"),
      "module.exports = require('@ws/b') + ' + ' + require('leaf');\n",
    );
    await writeFile(
      path.join(dir, "packages/b/package.json"),
      JSON.stringify({ name: "@ws/b", version: "1.0.0" }),
    );
    await writeFile(path.join(dir, "packages/b/index.js"), "module.exports = 'b';\n");
    await writeFile(
      path.join(dir, "pnpm-lock.yaml"),
      opts.lock ?? lockfile(registry.integrity("leaf", "1.0.0")),
    );
    const workspace = await createFsWorkspace(dir);
    const js = await checkJsDependencies(workspace);
    if (js === null) throw new Error("no package.json");
    return { dir, workspace, js };
  }

  const options = () => ({
    docker: connectDocker(),
    image: sandboxImage,
    registryConfig: cfg(registry.url),
    cacheDir: path.join(tmp, "cache"),
  });

  it("installs with pnpm --frozen-lockfile, links the workspace packages, and puts pnpm on the runs' PATH", async () => {
    const { dir, workspace, js } = await repo("ok");
    const lines: string[] = [];
    const [out] = await installRepoDependencies(workspace, js, { ...options(), log: (l) => lines.push(l) });
    expect(lines.join("\n")).toMatch(
      `pnpm@${PNPM} install --frozen-lockfile --ignore-scripts from pnpm-lock.yaml`,
    );
    expect(out!.paths.sort()).toEqual(["node_modules", "packages/a/node_modules"]);
    // pnpm's links: the root's to the workspace package, a's to its sibling and into the root's virtual store.
    expect(await readlink(path.join(out!.hostDir, "node_modules/@ws/a"))).toBe("../../packages/a");
    expect(await readlink(path.join(out!.hostDir, "packages/a/node_modules/@ws/b"))).toBe("../../../b");
    expect(await readlink(path.join(out!.hostDir, "packages/a/node_modules/leaf"))).toMatch(
      /^\.\.\/\.\.\/\.\.\/node_modules\/\.pnpm\/leaf@1\.0\.0\/node_modules\/leaf$/,
    );
    expect((await stat(path.join(out!.hostDir, "node_modules/.bin/pnpm"))).mode & 0o111).not.toBe(0);
    // pnpm itself was fetched from the configured registry, nowhere else.
    expect(registry.requests).toContain(`/pnpm/-/pnpm-${PNPM}.tgz`);

    // In the sandbox image, offline, as a run has it: the checkout with the installed directories copied in.
    const work = path.join(tmp, "run");
    await cp(dir, work, { recursive: true });
    for (const p of out!.paths)
      await cp(path.join(out!.hostDir, p), path.join(work, p), { recursive: true, verbatimSymlinks: true });
    const r = await run("docker", [
      "run",
      "--rm",
      "--user",
      "0:0",
      "--network",
      "none",
      "-v",
      `${work}:/workspace`,
      "-w",
      "/workspace",
      "-e",
      "PATH=/workspace/node_modules/.bin:/usr/local/bin:/usr/bin:/bin",
      "-e",
      "HOME=/tmp",
      sandboxImage,
      "sh",
      "-c",
      "pnpm --version && pnpm build >/dev/null && cat built.txt && echo && node -e \"console.log(require('@ws/a'))\"",
    ]);
    expect(r.stdout.trim().split("\n")).toEqual([PNPM, "built", "b + leaf 1.0.0"]);

    // The same files again: the cached tree, no install container.
    const again: string[] = [];
    const [cached] = await installRepoDependencies(workspace, js, {
      ...options(),
      log: (l) => again.push(l),
    });
    expect(cached!.hostDir).toBe(out!.hostDir);
    expect(again.join("\n")).toMatch(/cached install/);
  }, 600_000);

  it("refuses a lockfile entry whose tarball is on another host, before anything runs", async () => {
    const before = registry.requests.length;
    const { workspace, js } = await repo("hostile", {
      aDeps: { evil: "1.0.0" },
      lock: lockfile(
        registry.integrity("leaf", "1.0.0"),
        "      evil:\n        specifier: 1.0.0\n        version: 1.0.0\n",
        "\n  evil@1.0.0:\n    resolution: {tarball: 'http://localhost:8/evil-1.0.0.tgz'}\n",
      ),
    });
    const error = await installRepoDependencies(workspace, js, options()).catch((e: unknown) => e);
    expect(describeError(error)).toMatch(
      'installing pnpm-lock.yaml refused: pnpm-lock.yaml packages.evil@1.0.0: tarball from outside the configured registry "http://localhost:8/evil-1.0.0.tgz" (allowed only with install.allowRemote: true)',
    );
    expect(registry.requests.length).toBe(before);
  });

  it("names packageManager when it names no exact pnpm release, and the command when pnpm cannot be had", async () => {
    const none = await repo("no-pm", { packageManager: "" });
    const e1 = await installRepoDependencies(none.workspace, none.js, options()).catch((e: unknown) => e);
    expect(describeError(e1)).toMatch(/pnpm workspace .* package\.json has no `packageManager`/);
    expect(describeError(e1)).toMatch(/"packageManager": "pnpm@<x\.y\.z>"/);
    const missing = await repo("no-release", { packageManager: "pnpm@9.0.1" });
    const e2 = await installRepoDependencies(missing.workspace, missing.js, options()).catch(
      (e: unknown) => e,
    );
    expect(describeError(e2)).toMatch(
      /npm pack pnpm@9\.0\.1 \(package\.json packageManager\) failed in the install container/,
    );
    const wrongHash = await repo("bad-hash", { packageManager: `pnpm@${PNPM}+sha512.${"0".repeat(128)}` });
    const e3 = await installRepoDependencies(wrongHash.workspace, wrongHash.js, options()).catch(
      (e: unknown) => e,
    );
    expect(describeError(e3)).toMatch(/does not match the sha512 package\.json's packageManager names/);
  }, 300_000);
});
