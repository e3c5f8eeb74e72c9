/**
 * A repository's own install (no lockfile: resolved in the install container) that cannot finish says which
 * package, which command and which setting: a git dependency of a registry dependency (npm itself names none)
 * is named with the package that wants it and `install.allowGit`; an install that reaches its time limit names
 * `install.timeoutMs`, whose value the `install` section of .github/retrace.yml sets without entering the cache
 * key. Against a local npm registry on loopback, in the real install container.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeError } from "../../../src/core/errors.ts";
import { defaultConfig, InstallConfig } from "../../../src/config/schema.ts";
import { checkJsDependencies } from "../../../src/fix/dependencies.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { InstallCache } from "../../../src/install/cache.ts";
import { DEFAULT_INSTALL_LIMITS } from "../../../src/install/container.ts";
import { REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import { InstallFailedError, installNpmLockfile } from "../../../src/install/npm.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import {
  installRepoDependencies,
  REPO_INSTALL_TIMEOUT_MS,
  repoInstallOptions,
} from "../../../src/install/repo-deps.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const cfg = (npm: string): RegistryConfig => ({
  npm,
  pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
  caFile: null,
  // The git server here is on loopback, an internal address: the operator lets repository-named sources reach it.
  privateSourceHosts: ["127.0.0.1"],
});

async function repoWith(dir: string, devDependencies: Record<string, string>) {
  await writeFile(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "app", version: "1.0.0", devDependencies, scripts: { test: "node test.js" } }),
  );
  const workspace = await createFsWorkspace(dir);
  const js = await checkJsDependencies(workspace);
  if (js === null) throw new Error("no package.json");
  return { workspace, js };
}

it("the install section's time limit is an option of the install, not part of its source policy", () => {
  const install = InstallConfig.parse({ allowGit: true, timeoutMs: 1_200_000 });
  expect(repoInstallOptions(install)).toEqual({
    policy: { allowGit: true, allowRemote: false, allowFile: false, maxPackages: 20 },
    timeoutMs: 1_200_000,
  });
  // Unset: the default (15 min), and the policy object is what it was before the field existed.
  expect(repoInstallOptions(defaultConfig().install)).toEqual({
    policy: { allowGit: false, allowRemote: false, allowFile: false, maxPackages: 20 },
  });
  expect(REPO_INSTALL_TIMEOUT_MS).toBe(900_000);
  expect(() => InstallConfig.parse({ timeoutMs: 500 })).toThrow();
});

describeDocker(
  "a repository's install that cannot finish names the package, the command and the setting",
  () => {
    let registry: LocalRegistry;
    let tmp = "";
    // A git server that refuses at once: reaching it means the proxy let the install through, and git failed.
    let gitServer: net.Server;
    let gitPort = 0;
    beforeAll(async () => {
      gitServer = net.createServer((socket) => socket.destroy());
      await new Promise<void>((r) => gitServer.listen(0, "127.0.0.1", r));
      gitPort = (gitServer.address() as AddressInfo).port;
      registry = await startLocalRegistry([
        { name: "leaf", version: "1.0.0" },
        // Registry packages whose own dependency is from git, as a published package may have.
        {
          name: "docs-tool",
          version: "0.3.1",
          dependencies: { "fs-helper": "someone/fs-helper#enhanced", leaf: "^1.0.0" },
        },
        {
          name: "docs-tool",
          version: "0.4.0",
          dependencies: { "fs-helper": `git+http://127.0.0.1:${gitPort}/fs-helper.git` },
        },
      ]);
      tmp = await mkdtemp(path.join(os.tmpdir(), "retrace-repo-install-errors-"));
    });
    afterAll(async () => {
      gitServer.close();
      await registry.close();
      await rm(tmp, { recursive: true, force: true });
    });

    it("a git dependency of a registry dependency: named with the package that wants it and install.allowGit", async () => {
      const dir = await mkdtemp(path.join(tmp, "git-"));
      const { workspace, js } = await repoWith(dir, { "docs-tool": "~0.3.0", leaf: "^1.0.0" });
      const error = await installRepoDependencies(workspace, js, {
        registryConfig: cfg(registry.url),
        cacheDir: path.join(tmp, "cache-git"),
        image: sandboxImage,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InstallFailedError);
      const text = describeError(error);
      expect(text).toMatch(
        /^npm install --package-lock-only failed in the install container: the dependency tree needs git: fs-helper \(someone\/fs-helper#enhanced, wanted by docs-tool@0\.3\.1\); Retrace installs registry packages only unless install\.allowGit is true in \.github\/retrace\.yml/,
      );
      expect(text).toMatch(/→ set `install: \{ allowGit: true \}` in \.github\/retrace\.yml/);
    }, 180_000);

    it("install.allowGit on: a git host package.json names is reachable for the install; one deeper in the tree is named as refused", async () => {
      const port = gitPort;
      const allowGit = { allowGit: true, allowRemote: false, allowFile: false };
      {
        const direct = await mkdtemp(path.join(tmp, "git-direct-"));
        const a = await repoWith(direct, { tool: `git+http://127.0.0.1:${port}/tool.git` });
        const e1 = await installRepoDependencies(a.workspace, a.js, {
          registryConfig: cfg(registry.url),
          cacheDir: path.join(tmp, "cache-git-direct"),
          image: sandboxImage,
          policy: allowGit,
        }).catch((e: unknown) => e);
        expect(e1).toBeInstanceOf(InstallFailedError);
        expect((e1 as InstallFailedError).reason).toBe(
          `the dependency tree needs git: tool (git+http://127.0.0.1:${port}/tool.git, wanted by app@1.0.0); install.allowGit is on, and git could not fetch it (the git host did not answer from the install container)`,
        );
        const deep = await mkdtemp(path.join(tmp, "git-deep-"));
        const b = await repoWith(deep, { "docs-tool": "^0.4.0" });
        const e2 = await installRepoDependencies(b.workspace, b.js, {
          registryConfig: cfg(registry.url),
          cacheDir: path.join(tmp, "cache-git-deep"),
          image: sandboxImage,
          policy: allowGit,
        }).catch((e: unknown) => e);
        expect(e2).toBeInstanceOf(InstallFailedError);
        expect((e2 as InstallFailedError).reason).toMatch(
          new RegExp(
            `^the dependency tree needs git: fs-helper \\(git\\+http://127\\.0\\.0\\.1:${port}/fs-helper\\.git, wanted by docs-tool@0\\.4\\.0\\); install\\.allowGit is on, and git could not fetch it \\(it tried to reach 127\\.0\\.0\\.1:${port}, `,
          ),
        );
      }
    }, 240_000);

    it("a download that fails through npm's own retries (a flaky network) is retried once from npm's cache: installed", async () => {
      const path0 = "/leaf/-/leaf-1.0.0.tgz";
      // npm tries a request 4 times (fetch-retries 3); the 5th, in the second `npm ci`, is answered.
      const flaky = await startLocalRegistry([{ name: "leaf", version: "1.0.0" }], {
        dropFirst: { [path0]: 4 },
      });
      try {
        const t0 = Date.now();
        const r = await installNpmLockfile(
          {
            docker: connectDocker(),
            image: sandboxImage,
            registry: cfg(flaky.url),
            cache: new InstallCache({ root: path.join(tmp, "cache-flaky") }),
            limits: { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 180_000 },
            jobId: "repo-deps-flaky",
          },
          {
            packageJson: JSON.stringify({ name: "app", version: "1.0.0", dependencies: { leaf: "1.0.0" } }),
            lockfile: JSON.stringify({
              name: "app",
              version: "1.0.0",
              lockfileVersion: 3,
              requires: true,
              packages: {
                "": { name: "app", version: "1.0.0", dependencies: { leaf: "1.0.0" } },
                "node_modules/leaf": {
                  version: "1.0.0",
                  resolved: flaky.tarballUrl("leaf", "1.0.0"),
                  integrity: flaky.integrity("leaf", "1.0.0"),
                },
              },
            }),
            lockfileName: "package-lock.json",
            policy: REGISTRY_ONLY,
          },
        );
        expect(r.cached).toBe(false);
        expect(flaky.requests.filter((u) => u === path0)).toHaveLength(5);
        expect(Date.now() - t0).toBeLessThan(150_000);
      } finally {
        await flaky.close();
      }
    }, 200_000);

    it("an install that reaches its time limit names install.timeoutMs, not the lockfile", async () => {
      const silent = net.createServer(() => undefined);
      await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
      try {
        const dir = await mkdtemp(path.join(tmp, "slow-"));
        const { workspace, js } = await repoWith(dir, { leaf: "^1.0.0" });
        const t0 = Date.now();
        const error = await installRepoDependencies(workspace, js, {
          registryConfig: cfg(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`),
          cacheDir: path.join(tmp, "cache-slow"),
          image: sandboxImage,
          timeoutMs: 8_000,
        }).catch((e: unknown) => e);
        expect(Date.now() - t0).toBeLessThan(40_000);
        expect(error).toBeInstanceOf(InstallFailedError);
        expect(describeError(error)).toBe(
          "npm install --package-lock-only failed in the install container: timed out after 8 s, the limit of one install (install.timeoutMs in .github/retrace.yml)\n" +
            "  → raise install.timeoutMs in .github/retrace.yml (a first install of a large dependency tree on a loaded machine can take several minutes), or run when the machine is less loaded",
        );
      } finally {
        silent.close();
      }
    }, 120_000);
  },
);
