/**
 * Installs in the real install container against a local npm registry on loopback (test/integration/install/
 * local-registry.ts) and the machine's configured pip mirror: the tree comes out checked and cached, the cache
 * keys on the registry and the resolved tree, the container sees no host secret, and a registry that never
 * answers or a cancel ends the install (and its container) in bounded time.
 */
import { hostname } from "node:os";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CancelledError } from "../../../src/core/errors.ts";
import { InstallCache } from "../../../src/install/cache.ts";
import { DEFAULT_INSTALL_LIMITS, InstallContainer } from "../../../src/install/container.ts";
import { ContainerDependencyInstaller } from "../../../src/install/installer.ts";
import { REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import { installNpmLockfile } from "../../../src/install/npm.ts";
import { startEgressProxy } from "../../../src/install/proxy.ts";
import { readRegistryConfig, type RegistryConfig } from "../../../src/install/registry-config.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const docker = connectDocker();
const cfg = (npm: string): RegistryConfig => ({
  npm,
  pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
  caFile: null,
});

/** This process's containers of `job` still there (another test run on the same engine has its own). */
async function leftoverContainers(job: string): Promise<number> {
  const list = await docker.listContainers({
    all: true,
    filters: { label: [`dev.retrace.job=${job}`, `dev.retrace.owner=${hostname()}:${process.pid}`] },
  });
  return list.length;
}

describeDocker("install container", () => {
  let registry: LocalRegistry;
  let mirror: LocalRegistry;
  let cacheDir: string;
  beforeAll(async () => {
    const pkgs = [
      { name: "leaf", version: "1.0.0" },
      { name: "leaf", version: "1.1.0" },
      { name: "top", version: "2.0.0", dependencies: { leaf: "^1.0.0" } },
    ];
    registry = await startLocalRegistry(pkgs);
    mirror = await startLocalRegistry(pkgs);
    cacheDir = await mkdtemp(path.join(os.tmpdir(), "retrace-install-it-"));
  });
  afterAll(async () => {
    await registry.close();
    await mirror.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("a report's exact package: resolved, installed, cached by the whole tree and the registry", async () => {
    const installer = (c: RegistryConfig) =>
      new ContainerDependencyInstaller({ registryConfig: c, cacheDir, image: sandboxImage });
    const first = await installer(cfg(registry.url)).install({
      ecosystem: "npm",
      packages: [{ name: "top", version: "2.0.0" }],
    });
    expect(first.failures).toEqual([]);
    expect(first.installed).toEqual([{ name: "top", version: "2.0.0" }]);
    expect(first.cached).toBe(false);
    const leaf = JSON.parse(
      await readFile(path.join(first.dir!, "node_modules", "leaf", "package.json"), "utf8"),
    );
    expect(leaf.version).toBe("1.1.0");
    const again = await installer(cfg(registry.url)).install({
      ecosystem: "npm",
      packages: [{ name: "top", version: "2.0.0" }],
    });
    expect(again).toMatchObject({ dir: first.dir, cached: true });
    // Another registry is another key, even for the same names and versions.
    const other = await installer(cfg(mirror.url)).install({
      ecosystem: "npm",
      packages: [{ name: "top", version: "2.0.0" }],
    });
    expect(other.cached).toBe(false);
    expect(other.dir).not.toBe(first.dir);
    expect(mirror.requests.some((r) => r.startsWith("/top"))).toBe(true);
  }, 120_000);

  it("a repository lockfile: npm ci in the container, then a cache hit without any container", async () => {
    const lock = {
      name: "app",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "app", dependencies: { leaf: "1.0.0" } },
        "node_modules/leaf": {
          version: "1.0.0",
          resolved: registry.tarballUrl("leaf", "1.0.0"),
          integrity: registry.integrity("leaf", "1.0.0"),
        },
      },
    };
    const ctx = {
      docker,
      image: sandboxImage,
      registry: cfg(registry.url),
      cache: new InstallCache({ root: cacheDir }),
      limits: { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 90_000 },
      jobId: "it-lockfile",
    };
    const input = {
      packageJson: JSON.stringify({ name: "app", dependencies: { leaf: "1.0.0" } }),
      lockfile: JSON.stringify(lock),
      lockfileName: "package-lock.json",
      policy: REGISTRY_ONLY,
    };
    const first = await installNpmLockfile(ctx, input);
    expect(first.cached).toBe(false);
    expect(existsSync(path.join(first.dir, "node_modules", "leaf", "index.js"))).toBe(true);
    const before = registry.requests.length;
    const second = await installNpmLockfile(ctx, input);
    expect(second).toMatchObject({ dir: first.dir, cached: true });
    expect(registry.requests.length).toBe(before);
  }, 120_000);

  it("a lockfile with nothing to install gives an empty node_modules, not an error", async () => {
    const r = await installNpmLockfile(
      {
        docker,
        image: sandboxImage,
        registry: cfg(registry.url),
        cache: new InstallCache({ root: cacheDir }),
        limits: { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 90_000 },
        jobId: "it-lockfile-empty",
      },
      {
        packageJson: JSON.stringify({ name: "empty-app", version: "1.0.0" }),
        lockfile: JSON.stringify({
          name: "empty-app",
          version: "1.0.0",
          lockfileVersion: 3,
          requires: true,
          packages: { "": { name: "empty-app", version: "1.0.0" } },
        }),
        lockfileName: "package-lock.json",
        policy: REGISTRY_ONLY,
      },
    );
    expect(r.paths).toEqual(["node_modules"]);
    expect(existsSync(path.join(r.dir, "node_modules"))).toBe(true);
  }, 120_000);

  it("the container sees none of the host's environment", async () => {
    process.env.RETRACE_PLANTED_SECRET = "planted-secret-value";
    const proxy = await startEgressProxy({ allow: [] });
    const c = await InstallContainer.open({
      docker,
      image: sandboxImage,
      limits: DEFAULT_INSTALL_LIMITS,
      proxy,
      jobId: "it-env",
    });
    try {
      const r = await c.exec(["sh", "-c", "env; cat /proc/1/environ | tr '\\0' '\\n'; id -u"]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toContain("planted-secret-value");
      expect(r.stdout).not.toMatch(/GITHUB_TOKEN|ANTHROPIC_API_KEY|RETRACE_PLANTED/);
      expect(r.stdout.trim().split("\n").pop()).toBe("10001");
    } finally {
      delete process.env.RETRACE_PLANTED_SECRET;
      await c.close();
      await proxy.close();
    }
  }, 60_000);

  it("the install's limit starts once the container is up: a 300 ms limit names the install's limit, not a start-up failure", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    try {
      // Starting the container and its forwarder alone takes longer than 300 ms: were the limit counted from
      // the container's creation, this would end as "the registry forwarder did not start listening".
      const r = await new ContainerDependencyInstaller({
        registryConfig: cfg(url),
        cacheDir,
        image: sandboxImage,
      }).install({ ecosystem: "npm", packages: [{ name: "top", version: "2.0.0" }], timeoutMs: 300 });
      expect(r.failures).toEqual([
        {
          name: "top",
          version: "2.0.0",
          reason:
            "timed out after 0.3 s, the limit of one install (repro.installTimeoutMs in .github/retrace.yml)",
          // The step the limit stopped (f12c): the copy-in or npm's, whichever 300 ms reached.
          step: expect.stringMatching(/^(copying files into the install container|npm )/),
        },
      ]);
      expect(await leftoverContainers("install-repro-npm")).toBe(0);
    } finally {
      silent.close();
    }
  }, 120_000);

  it("a registry that accepts and never answers: the install ends at its time limit, container removed", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    try {
      const t0 = Date.now();
      const r = await new ContainerDependencyInstaller({
        registryConfig: cfg(url),
        cacheDir,
        image: sandboxImage,
      }).install({ ecosystem: "npm", packages: [{ name: "top", version: "2.0.0" }], timeoutMs: 6_000 });
      expect(Date.now() - t0).toBeLessThan(25_000);
      expect(r.failures).toEqual([
        {
          name: "top",
          version: "2.0.0",
          reason:
            "timed out after 6 s, the limit of one install (repro.installTimeoutMs in .github/retrace.yml)",
          // The step the limit stopped (f12c): npm's resolution, waiting on the registry.
          step: "npm install --package-lock-only",
        },
      ]);
      expect(await leftoverContainers("install-repro-npm")).toBe(0);
    } finally {
      silent.close();
    }
  }, 60_000);

  it("cancel ends the install at once", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 2_000);
    const t0 = Date.now();
    try {
      const error = await new ContainerDependencyInstaller({
        registryConfig: cfg(url),
        cacheDir,
        image: sandboxImage,
      })
        .install({
          ecosystem: "npm",
          packages: [{ name: "top", version: "2.0.0" }],
          signal: controller.signal,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CancelledError);
      expect(Date.now() - t0).toBeLessThan(15_000);
    } finally {
      silent.close();
    }
  }, 60_000);

  it("pip: wheels from this machine's configured mirror, installed with --no-deps from the checked report", async () => {
    const registryConfig = await readRegistryConfig();
    const r = await new ContainerDependencyInstaller({
      registryConfig,
      cacheDir,
      image: sandboxImage,
    }).install({
      ecosystem: "pypi",
      packages: [{ name: "absl-py", version: "2.5.0" }],
    });
    expect(r.failures).toEqual([]);
    expect(r.pythonPath).toBe("python-packages");
    expect(existsSync(path.join(r.dir!, "python-packages", "absl", "__init__.py"))).toBe(true);
  }, 120_000);
});
