/**
 * Dependencies mounted read-only (real Docker engine): an extra directory marked `mountable` (Retrace's own
 * dependency cache) is bind-mounted read-only under /deps instead of copied into every container, and the
 * workspace gets links to it — a `node_modules` a real directory of links, so tools can still write their caches
 * into it. What a run sees is the tree a copy gives; what it cannot do is change the cache: a run that meets the
 * read-only mount is run again on a copy, and so is every later run of that directory.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ExtraDir, SandboxRunRequest } from "../../../src/core/ports/sandbox.ts";
import { createDockerSandbox, type DockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker } from "../../support/docker.ts";

const JOB = `mounts-${process.pid}`;
const PATH_ENV = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp" };
let tmp: string;
let repo: string;

/** A fresh dependency directory: node_modules/dep/index.js, node_modules/.bin, a Python user base. */
async function deps(name: string): Promise<string> {
  const dir = path.join(tmp, name);
  await mkdir(path.join(dir, "node_modules", "dep"), { recursive: true });
  await mkdir(path.join(dir, "node_modules", ".bin"), { recursive: true });
  await mkdir(path.join(dir, "node_modules", "@scope", "inner"), { recursive: true });
  await writeFile(path.join(dir, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
  await writeFile(path.join(dir, "node_modules", "@scope", "inner", "index.js"), "module.exports = 2;\n");
  await mkdir(path.join(dir, ".retrace-python", "lib"), { recursive: true });
  await writeFile(path.join(dir, ".retrace-python", "lib", "mod.py"), "X = 3\n");
  return dir;
}

function request(command: string, extraDirs: ExtraDir[]): SandboxRunRequest {
  return {
    jobId: JOB,
    command: ["sh", "-c", command],
    env: PATH_ENV,
    input: { dir: repo, extraDirs, files: { "a.txt": "patched\n" } },
  };
}

async function hostTree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

const SEE =
  "cat a.txt node_modules/dep/index.js node_modules/@scope/inner/index.js .retrace-python/lib/mod.py; readlink node_modules/dep";

describeDocker("dependencies mounted read-only (real Docker)", () => {
  let sandbox: DockerSandbox;

  beforeAll(async () => {
    sandbox = createDockerSandbox();
    tmp = await mkdtemp(path.join(os.tmpdir(), "retrace-mounts-"));
    repo = path.join(tmp, "repo");
    await mkdir(repo, { recursive: true });
    await writeFile(path.join(repo, "a.txt"), "base\n");
  });

  afterAll(async () => {
    await sandbox.release(JOB);
    await rm(tmp, { recursive: true, force: true });
  });

  it("a run sees the mounted tree through links, writes node_modules/.cache, and cannot touch the mount", async () => {
    const dir = await deps("d1");
    const before = await hostTree(dir);
    const dirs = [{ hostDir: dir, paths: ["node_modules", ".retrace-python"], mountable: true }];
    const run = await sandbox.run(
      request(
        `${SEE}; mkdir -p node_modules/.cache/tool && echo cached > node_modules/.cache/tool/x && cat node_modules/.cache/tool/x; ` +
          "(echo x > /deps/0/node_modules/dep/planted) 2>/dev/null && echo WROTE || echo refused",
        dirs,
      ),
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(
      "patched\nmodule.exports = 1;\nmodule.exports = 2;\nX = 3\n/deps/0/node_modules/dep\ncached\nrefused\n",
    );
    // Nothing of the run reached the host directory.
    expect(await hostTree(dir)).toEqual(before);
  }, 120_000);

  it("a run that writes into a mounted package is run again on a copy, and later runs copy too", async () => {
    const dir = await deps("d2");
    const before = await hostTree(dir);
    const dirs = [{ hostDir: dir, paths: ["node_modules"], mountable: true }];
    const run = await sandbox.run(
      request("echo x > node_modules/dep/written && cat node_modules/dep/written", dirs),
    );
    // On the copy the write succeeds: the read-only mount never decides a run's outcome.
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe("x\n");
    expect(await hostTree(dir)).toEqual(before);
    expect(await readFile(path.join(dir, "node_modules", "dep", "index.js"), "utf8")).toBe(
      "module.exports = 1;\n",
    );
    // The next run of the same directory is a copy: dep is a directory of the workspace, not a link.
    const next = await sandbox.run(request("readlink node_modules/dep || echo not-a-link", dirs));
    expect(next.stdout).toBe("not-a-link\n");
  }, 120_000);

  it("a directory not marked mountable, or a sandbox without mounts, is copied", async () => {
    const dir = await deps("d3");
    const copied = await sandbox.run(
      request(`${SEE} || echo not-a-link`, [{ hostDir: dir, paths: ["node_modules", ".retrace-python"] }]),
    );
    expect(copied.stdout).toBe("patched\nmodule.exports = 1;\nmodule.exports = 2;\nX = 3\nnot-a-link\n");
    const noMounts = createDockerSandbox({ mountExtraDirs: false });
    const run = await noMounts.run(
      request(`${SEE} || echo not-a-link`, [
        { hostDir: dir, paths: ["node_modules", ".retrace-python"], mountable: true },
      ]),
    );
    expect(run.stdout).toBe(copied.stdout);
  }, 120_000);

  it("a path that is a symlink on the host is not mounted through it", async () => {
    const real = await deps("d4-real");
    const dir = path.join(tmp, "d4");
    await mkdir(dir);
    await symlink(path.join(real, "node_modules"), path.join(dir, "node_modules"));
    // Copied as it stands (a link to a host path the container does not have), never mounted by following it.
    const run = await sandbox.run(
      request("readlink node_modules; ls /deps 2>&1 | head -1", [
        { hostDir: dir, paths: ["node_modules"], mountable: true },
      ]),
    );
    expect(run.stdout).toBe(
      `${path.join(real, "node_modules")}\nls: cannot access '/deps': No such file or directory\n`,
    );
  }, 120_000);

  it("links of the tree stay links (a scoped workspace package, pnpm's store); Retrace's own files land beside the mount", async () => {
    const dir = await deps("d6");
    const nm = path.join(dir, "node_modules");
    await mkdir(path.join(nm, "@ws"), { recursive: true });
    await symlink("../../packages/report", path.join(nm, "@ws", "report"));
    await mkdir(path.join(nm, ".pnpm", "lib@1.0.0", "node_modules", "lib"), { recursive: true });
    await writeFile(
      path.join(nm, ".pnpm", "lib@1.0.0", "node_modules", "lib", "index.js"),
      "module.exports = 4;\n",
    );
    await symlink(".pnpm/lib@1.0.0/node_modules/lib", path.join(nm, "lib"));
    const site = path.join(dir, ".retrace-python", "lib", "python3.11", "site-packages");
    await mkdir(path.join(site, "pkg"), { recursive: true });
    await writeFile(path.join(site, "pkg", "__init__.py"), "Y = 5\n");
    await mkdir(path.join(repo, "packages", "report"), { recursive: true });
    await writeFile(path.join(repo, "packages", "report", "index.js"), "module.exports = 6;\n");
    const dirs = [{ hostDir: dir, paths: ["node_modules", ".retrace-python"], mountable: true }];
    const run = await sandbox.run({
      ...request(
        "cat node_modules/@ws/report/index.js node_modules/lib/index.js .retrace-python/lib/python3.11/site-packages/pkg/__init__.py .retrace-python/lib/python3.11/site-packages/plugin.py; readlink node_modules/lib node_modules/@ws/report .retrace-python/lib/python3.11/site-packages/pkg",
        dirs,
      ),
      input: {
        dir: repo,
        extraDirs: dirs,
        files: { ".retrace-python/lib/python3.11/site-packages/plugin.py": "Z = 7\n" },
      },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "module.exports = 6;\nmodule.exports = 4;\nY = 5\nZ = 7\n" +
        ".pnpm/lib@1.0.0/node_modules/lib\n../../packages/report\n/deps/0/.retrace-python/lib/python3.11/site-packages/pkg\n",
    );
    expect(await hostTree(site)).toEqual(["pkg", "pkg/__init__.py"]);
    await rm(path.join(repo, "packages"), { recursive: true });
  }, 120_000);

  it("runs made ready ahead of time mount too", async () => {
    const dir = await deps("d5");
    const dirs = [{ hostDir: dir, paths: ["node_modules", ".retrace-python"], mountable: true }];
    sandbox.prepare({ jobId: JOB, input: { dir: repo, extraDirs: dirs } }, 1);
    const run = await sandbox.run(request(`${SEE}; hostname >&2`, dirs));
    expect(run.stdout).toBe(
      "patched\nmodule.exports = 1;\nmodule.exports = 2;\nX = 3\n/deps/0/node_modules/dep\n",
    );
    await sandbox.release(JOB);
  }, 120_000);
});
