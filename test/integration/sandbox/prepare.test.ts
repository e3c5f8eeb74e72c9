/**
 * Runs made ready ahead of time (`prepare`): a container created, started and given the input tree while other
 * work goes on, taken by a later run of the same shape, which copies in only its own files and removals. Real
 * Docker engine: the run sees exactly the tree a run made from scratch sees, each run still has a container of
 * its own, a run of another shape never takes one, and `release` leaves no container of the job behind.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SandboxRunRequest } from "../../../src/core/ports/sandbox.ts";
import { createDockerSandbox, type DockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker } from "../../support/docker.ts";

const JOB = `prepare-${process.pid}`;
const PATH_ENV = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp" };
let sandbox: DockerSandbox;
let tmp: string;
let repo: string;
let deps: string;

async function containersOf(jobId: string): Promise<string[]> {
  const list = await sandbox.docker.listContainers({
    all: true,
    filters: { label: [`dev.retrace.job=${jobId}`] },
  });
  return list.map((c) => c.Id);
}

const LIST =
  "find . -path ./node_modules/.cache -prune -o -print | sort; cat a.txt; cat node_modules/dep/index.js";

function request(command: string, extra: Partial<SandboxRunRequest> = {}): SandboxRunRequest {
  return {
    jobId: JOB,
    command: ["sh", "-c", command],
    env: PATH_ENV,
    input: {
      dir: repo,
      extraDirs: [{ hostDir: deps, paths: ["node_modules"] }],
      files: { "a.txt": "patched\n", "new/c.txt": "new\n" },
      remove: ["sub/b.txt"],
    },
    ...extra,
  };
}

describeDocker("runs made ready ahead of time (real Docker)", () => {
  beforeAll(async () => {
    sandbox = createDockerSandbox();
    tmp = await mkdtemp(path.join(os.tmpdir(), "retrace-prepare-"));
    repo = path.join(tmp, "repo");
    deps = path.join(tmp, "deps");
    await mkdir(path.join(repo, "sub"), { recursive: true });
    await writeFile(path.join(repo, "a.txt"), "base\n");
    await writeFile(path.join(repo, "sub", "b.txt"), "b\n");
    await mkdir(path.join(deps, "node_modules", "dep"), { recursive: true });
    await writeFile(path.join(deps, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
  });

  afterAll(async () => {
    await sandbox.release(JOB);
    expect(await containersOf(JOB)).toEqual([]);
    await rm(tmp, { recursive: true, force: true });
  });

  it("a run that takes a ready container sees the tree a run from scratch sees, in a container of its own", async () => {
    const fresh = await sandbox.run(request(LIST));
    sandbox.prepare({ jobId: JOB, input: request("").input! }, 2);
    // Both are made (one after the other) before any run asks: two containers of the job, nothing run in them.
    await expect.poll(() => containersOf(JOB), { timeout: 60_000, interval: 500 }).toHaveLength(2);
    const ready = (await containersOf(JOB)).map((id) => id.slice(0, 12)).sort();
    // The hostname of a container is its id: each run names the ready container it took.
    const first = await sandbox.run(request(`${LIST}; touch written; hostname >&2`));
    const second = await sandbox.run(request(`${LIST}; ls written 2>&1 || true; hostname >&2`));
    expect([first.stderr.trim(), second.stderr.trim()].sort()).toEqual(ready);
    expect(fresh.exitCode).toBe(0);
    expect(first.stdout).toBe(fresh.stdout);
    expect(fresh.stdout).toMatch(/\.\/new\/c\.txt\n/);
    expect(fresh.stdout).not.toMatch(/sub\/b\.txt/);
    expect(fresh.stdout).toMatch(/patched\nmodule\.exports = 1;\n$/);
    // Each run had a container of its own: the first run's file is not in the second's.
    expect(second.stdout).toBe(`${fresh.stdout}ls: cannot access 'written': No such file or directory\n`);
    // Their containers are removed off the run's path; release waits for that.
    await sandbox.release(JOB);
    expect(await containersOf(JOB)).toEqual([]);
  }, 180_000);

  it("a run of another shape (other limits, no extra directory) is made as usual; release removes what is unused", async () => {
    sandbox.prepare({ jobId: JOB, input: request("").input! }, 2);
    const other = await sandbox.run(
      request("ls node_modules 2>&1; cat a.txt", {
        input: { dir: repo, files: { "a.txt": "other\n" } },
      }),
    );
    expect(other.stdout).toMatch(/^ls: cannot access 'node_modules'/);
    expect(other.stdout).toMatch(/other\n$/);
    const limited = await sandbox.run(request("cat a.txt", { limits: { memoryMb: 300 } }));
    expect(limited.stdout).toBe("patched\n");
    await expect.poll(() => containersOf(JOB), { timeout: 60_000, interval: 500 }).toHaveLength(2);
    await sandbox.release(JOB);
    expect(await containersOf(JOB)).toEqual([]);
  }, 180_000);
});
