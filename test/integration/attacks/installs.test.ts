/**
 * Attack suite for installs (issue 14, items 1–3 and 5): hostile lockfiles, published packages, registries
 * and wheels against the real install container, a local npm registry, a local git server (dumb HTTP, serving
 * a hostile repository) and a local package index — every server on loopback. Each case is asserted refused
 * with a reason naming the entry and the setting, or contained: nothing runs on the host, the marker file
 * outside Retrace's directories never appears, host files keep their content and mode, and nothing of the
 * host's reaches the install's output.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InstallCache } from "../../../src/install/cache.ts";
import { DEFAULT_INSTALL_LIMITS } from "../../../src/install/container.ts";
import { checkJsDependencies } from "../../../src/fix/dependencies.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { ContainerDependencyInstaller } from "../../../src/install/installer.ts";
import { REGISTRY_ONLY, type SourcePolicy } from "../../../src/install/lockfile-policy.ts";
import { InstallFailedError, installNpmLockfile, SourcePolicyError } from "../../../src/install/npm.ts";
import { VIRTUAL_NPM_HOST } from "../../../src/install/proxy.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { installRepoDependencies } from "../../../src/install/repo-deps.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { type LocalRegistry, startLocalRegistry, tarball } from "../install/local-registry.ts";

const docker = connectDocker();
const MARKER = path.join("/var/tmp", `retrace-install-attack-marker-${process.pid}`);
const SECRET = `retrace-host-secret-${process.pid}`;
let hostile = 0;

/** A static file server (the git "dumb HTTP" protocol needs nothing more), logging every request. */
async function staticServer(
  root: string,
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const file = path.join(root, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile())
      return void res.writeHead(404).end();
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    {
      cwd,
      encoding: "utf8",
    },
  ).trim();
}

/** A bare repository served over dumb HTTP; returns its head commit. */
async function hostileRepo(root: string, name: string, files: Record<string, string>): Promise<string> {
  const work = path.join(root, `${name}-work`);
  await mkdir(work, { recursive: true });
  for (const [f, c] of Object.entries(files)) await writeFile(path.join(work, f), c, { mode: 0o755 });
  git(work, "init", "-q");
  git(work, "add", ".");
  git(work, "commit", "-q", "-m", "x");
  git(root, "clone", "-q", "--bare", work, `${name}.git`);
  git(path.join(root, `${name}.git`), "update-server-info");
  return git(work, "rev-parse", "HEAD");
}

function grepTree(dir: string, needle: string): boolean {
  if (!existsSync(dir)) return false;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    if (readFileSync(path.join(e.parentPath, e.name)).includes(needle)) return true;
  }
  return false;
}

describeDocker("attacks: installs", () => {
  let tmp: string;
  let cacheDir: string;
  let registry: LocalRegistry;
  let gitServer: Awaited<ReturnType<typeof staticServer>>;
  let other: Awaited<ReturnType<typeof staticServer>>;
  let evilSha: string;
  let hostRepo: string;
  let hostRepoSha: string;
  const cfg = (): RegistryConfig => ({
    npm: registry.url,
    pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
    caFile: null,
  });
  const ctx = (limits: Partial<typeof DEFAULT_INSTALL_LIMITS> = {}) => ({
    docker,
    image: sandboxImage,
    registry: cfg(),
    cache: new InstallCache({ root: cacheDir }),
    limits: { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 60_000, ...limits },
    jobId: "attack",
  });
  const lockfileInstall = (
    packages: Record<string, unknown>,
    policy: SourcePolicy = REGISTRY_ONLY,
    deps = {},
  ) =>
    installNpmLockfile(ctx(), {
      packageJson: JSON.stringify({ name: "victim", version: "1.0.0", dependencies: deps }),
      lockfile: JSON.stringify({
        name: "victim",
        lockfileVersion: 3,
        requires: true,
        packages: { "": {}, ...packages },
      }),
      lockfileName: "package-lock.json",
      policy,
    });

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "retrace-attack-installs-"));
    cacheDir = path.join(tmp, "cache");
    const gitRoot = path.join(tmp, "git");
    await mkdir(gitRoot);
    gitServer = await staticServer(gitRoot);
    // The issue's critical case: a build script, an .npmrc pointing npm's git at a script of the clone, and a
    // git dependency of its own (so npm prepares it with an inner install that reads that .npmrc).
    const pwn = `#!/bin/sh\necho pwned > ${MARKER}\ncat /proc/*/environ >> ${MARKER} 2>/dev/null\nexit 0\n`;
    await hostileRepo(gitRoot, "inner", {
      "package.json": JSON.stringify({ name: "inner", version: "1.0.0" }),
    });
    evilSha = await hostileRepo(gitRoot, "evil", {
      "package.json": JSON.stringify({
        name: "evil",
        version: "1.0.0",
        scripts: { prepare: "sh ./pwn.sh", install: "sh ./pwn.sh" },
        dependencies: { inner: `git+${gitServer.url}/inner.git` },
      }),
      ".npmrc": "git=./pwn.sh\n",
      "pwn.sh": pwn,
    });
    // A host repository holding a secret (the git+file:// host-file-read case).
    hostRepo = path.join(tmp, "host-repo");
    await mkdir(hostRepo);
    await writeFile(
      path.join(hostRepo, "package.json"),
      JSON.stringify({ name: "hostrepo", version: "1.0.0" }),
    );
    await writeFile(path.join(hostRepo, "secret.txt"), SECRET);
    git(hostRepo, "init", "-q");
    git(hostRepo, "add", ".");
    git(hostRepo, "commit", "-q", "-m", "x");
    hostRepoSha = git(hostRepo, "rev-parse", "HEAD");
    // Another loopback host: remote tarballs live here.
    const otherRoot = path.join(tmp, "other");
    await mkdir(otherRoot);
    await writeFile(path.join(otherRoot, "bomb.tgz"), await tarball({ name: "bomb", version: "1.0.0" }));
    other = await staticServer(otherRoot);
    registry = await startLocalRegistry([
      { name: "leaf", version: "1.0.0" },
      { name: "@evil/leaf", version: "1.0.0" },
      {
        name: "gitdep",
        version: "1.0.0",
        dependencies: { evil: `git+${gitServer.url}/evil.git#${evilSha}` },
      },
      { name: "urldep", version: "1.0.0", dependencies: { bomb: `${other.url}/bomb.tgz` } },
      // ~64 MiB of zeros: about 64 KiB compressed.
      { name: "zipbomb", version: "1.0.0", files: { "zero.bin": Buffer.alloc(64 * 1024 * 1024) } },
    ]);
  }, 120_000);

  afterAll(async () => {
    expect(existsSync(MARKER)).toBe(false);
    process.stdout.write(`[attacks: installs] ${hostile} hostile inputs, all refused or contained\n`);
    await registry?.close();
    await gitServer?.close();
    await other?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it("a lockfile git dependency (hostile repo, .npmrc git=, build scripts) is refused before npm runs", async () => {
    hostile++;
    const e = await lockfileInstall(
      { "node_modules/evil": { version: "1.0.0", resolved: `git+${gitServer.url}/evil.git#${evilSha}` } },
      REGISTRY_ONLY,
      { evil: `git+${gitServer.url}/evil.git` },
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SourcePolicyError);
    expect((e as Error).message).toContain('packages["node_modules/evil"]: git dependency');
    expect((e as Error).message).toContain("install.allowGit: true");
    expect(gitServer.requests).toEqual([]);
    expect(existsSync(MARKER)).toBe(false);
  });

  it("…and with install.allowGit on, it runs in the install container only: no host effect", async () => {
    hostile++;
    const before = gitServer.requests.length;
    process.env.RETRACE_ATTACK_PLANTED = SECRET;
    try {
      await lockfileInstall(
        { "node_modules/evil": { version: "1.0.0", resolved: `git+${gitServer.url}/evil.git#${evilSha}` } },
        { ...REGISTRY_ONLY, allowGit: true },
        { evil: `git+${gitServer.url}/evil.git` },
      ).catch((x: unknown) => x);
    } finally {
      delete process.env.RETRACE_ATTACK_PLANTED;
    }
    expect(existsSync(MARKER)).toBe(false);
    expect(grepTree(cacheDir, SECRET)).toBe(false);
    // The git server is on the host's loopback: a host the repository names is reached at public addresses only
    // (the repository's own allowGit cannot open the host's services to its requests).
    expect(gitServer.requests.slice(before)).toEqual([]);
  }, 120_000);

  it("git+file:// to a host repository: refused; allowed, the host path does not exist in the container", async () => {
    hostile += 2;
    const entry = {
      "node_modules/hostrepo": { version: "1.0.0", resolved: `git+file://${hostRepo}#${hostRepoSha}` },
    };
    const refused = await lockfileInstall(entry).catch((x: unknown) => x);
    expect(refused).toBeInstanceOf(SourcePolicyError);
    expect((refused as Error).message).toContain("install.allowGit");
    const allowed = await lockfileInstall(entry, { ...REGISTRY_ONLY, allowGit: true }).catch(
      (x: unknown) => x,
    );
    expect(allowed).toBeInstanceOf(InstallFailedError);
    expect(grepTree(cacheDir, SECRET)).toBe(false);
  }, 120_000);

  it("a link entry climbing to / with a bin naming a host file: refused whatever the settings; the file is untouched", async () => {
    hostile++;
    const key = path.join(tmp, "id_rsa");
    await writeFile(key, "-----BEGIN PRIVATE KEY-----\nplanted\n", { mode: 0o600 });
    await chmod(key, 0o600);
    const up = path.relative("/", key);
    const e = await lockfileInstall(
      {
        "node_modules/pwn": { resolved: "../../../../../../../../..", link: true },
        "../../../../../../../../..": { name: "pwn", version: "1.0.0", bin: { pwn: up } },
      },
      { allowGit: true, allowRemote: true, allowFile: true },
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SourcePolicyError);
    expect((e as Error).message).toContain("no setting allows this");
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(await readFile(key, "utf8")).toBe("-----BEGIN PRIVATE KEY-----\nplanted\n");
  });

  it("a lockfile tarball URL on another host: refused naming install.allowRemote; nothing fetched", async () => {
    hostile++;
    const e = await lockfileInstall({
      "node_modules/bomb": { version: "1.0.0", resolved: `${other.url}/bomb.tgz`, integrity: "sha512-AAAA" },
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SourcePolicyError);
    expect((e as Error).message).toContain("install.allowRemote");
    expect(other.requests).toEqual([]);
  });

  it("workspace globs and file: specs outside the repository are refused", async () => {
    hostile += 2;
    const e = await installNpmLockfile(ctx(), {
      packageJson: JSON.stringify({
        name: "victim",
        workspaces: ["../../../../../**"],
        dependencies: { up: "file:../../../../../etc" },
      }),
      lockfile: JSON.stringify({ lockfileVersion: 3, packages: { "": {} } }),
      lockfileName: "package-lock.json",
      policy: { allowGit: true, allowRemote: true, allowFile: true },
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SourcePolicyError);
    expect((e as Error).message).toContain('workspaces "../../../../../**"');
    expect((e as Error).message).toContain("package.json dependencies.up");
  });

  it("a tarball that expands ~1000× stops at the install's disk and output caps; nothing is cached", async () => {
    hostile++;
    const e = await installNpmLockfile(
      { ...ctx({ outMb: 32, maxOutputMb: 32 }) },
      {
        packageJson: JSON.stringify({ name: "victim", dependencies: { zipbomb: "1.0.0" } }),
        lockfile: JSON.stringify({
          lockfileVersion: 3,
          packages: {
            "": { dependencies: { zipbomb: "1.0.0" } },
            "node_modules/zipbomb": {
              version: "1.0.0",
              resolved: registry.tarballUrl("zipbomb", "1.0.0"),
              integrity: registry.integrity("zipbomb", "1.0.0"),
            },
          },
        }),
        lockfileName: "package-lock.json",
        policy: REGISTRY_ONLY,
      },
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InstallFailedError);
    expect((e as InstallFailedError).reason).toMatch(/filled its 32 MiB disk/);
    expect(
      existsSync(path.join(cacheDir, "repo-deps"))
        ? readdirSync(path.join(cacheDir, "repo-deps")).filter((d) => !d.includes(".tmp-"))
        : [],
    ).toEqual([]);
  }, 120_000);

  it("a report-named package depending on a git repository or a remote tarball: failed by name, nothing fetched", async () => {
    hostile += 2;
    const installer = new ContainerDependencyInstaller({
      registryConfig: cfg(),
      cacheDir,
      image: sandboxImage,
    });
    const gitRequestsBefore = gitServer.requests.length;
    const git = await installer.install({
      ecosystem: "npm",
      packages: [{ name: "gitdep", version: "1.0.0" }],
    });
    expect(git.dir).toBeNull();
    expect(git.failures.map((f) => f.name)).toEqual(["gitdep"]);
    const url = await installer.install({
      ecosystem: "npm",
      packages: [{ name: "urldep", version: "1.0.0" }],
    });
    expect(url.dir).toBeNull();
    expect(url.failures.map((f) => f.name)).toEqual(["urldep"]);
    // The URL is refused by the policy, the proxy, or rewritten to the configured registry (which has no such
    // tarball): whichever comes first, the other host is never asked.
    expect(url.failures[0]!.reason).toMatch(/install.allowRemote|not an allowed registry|no such package/);
    expect(gitServer.requests.length).toBe(gitRequestsBefore);
    expect(other.requests).toEqual([]);
    expect(existsSync(MARKER)).toBe(false);
  }, 180_000);

  it("150 unknown require()s: 20 installed at most, at most 4 registry look-ups in flight", async () => {
    hostile++;
    const names = Array.from({ length: 150 }, (_, i) => `unknown-module-${i}`);
    const slow = await startLocalRegistry(
      names.map((name) => ({ name, version: "1.0.0" })),
      { delayMs: 50 },
    );
    try {
      const registryConfig = { ...cfg(), npm: slow.url };
      const installer = new ContainerDependencyInstaller({
        registryConfig,
        cacheDir,
        image: sandboxImage,
        registry: createRegistryLookup({ registryConfig, cacheDir: null }),
      });
      const r = await installer.install({
        ecosystem: "npm",
        packages: names.map((name) => ({ name, version: null })),
      });
      expect(r.failures).toHaveLength(130);
      expect(r.failures.every((f) => f.reason.includes("install.maxPackages"))).toBe(true);
      expect(slow.requests.length).toBe(0);
      // The look-up port itself, asked for all 150 at once, keeps 4 in flight.
      const lookup = createRegistryLookup({ registryConfig, cacheDir: null });
      await Promise.all(names.map((n) => lookup.latestVersion("npm", n)));
      expect(slow.maxInFlight).toBeLessThanOrEqual(4);
    } finally {
      await slow.close();
    }
  });

  it("a git server that never answers (install.allowGit on): the install ends at its limit, no container left", async () => {
    hostile++;
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as AddressInfo).port;
    try {
      const t0 = Date.now();
      // The silent server is on loopback: the operator allows it as an internal source host (a repository alone
      // cannot reach internal addresses), so the install really waits on it.
      const e = await installNpmLockfile(
        { ...ctx({ timeoutMs: 8_000 }), registry: { ...cfg(), privateSourceHosts: ["127.0.0.1"] } },
        {
          packageJson: JSON.stringify({
            name: "victim",
            dependencies: { slow: `git+http://127.0.0.1:${port}/slow.git` },
          }),
          lockfile: JSON.stringify({
            lockfileVersion: 3,
            packages: {
              "": { dependencies: { slow: `git+http://127.0.0.1:${port}/slow.git` } },
              "node_modules/slow": {
                version: "1.0.0",
                resolved: `git+http://127.0.0.1:${port}/slow.git#${"a".repeat(40)}`,
              },
            },
          }),
          lockfileName: "package-lock.json",
          policy: { ...REGISTRY_ONLY, allowGit: true },
        },
      ).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InstallFailedError);
      expect((e as InstallFailedError).reason).toMatch(/^timed out after 8 s, the limit of one install/);
      expect(Date.now() - t0).toBeLessThan(30_000);
      const left = await docker.listContainers({
        all: true,
        filters: { label: ["dev.retrace.job=install-attack"] },
      });
      expect(left).toEqual([]);
    } finally {
      silent.close();
    }
  }, 60_000);

  it("a packument whose tarball lives on another host: the resolved tree is refused before npm ci", async () => {
    hostile++;
    const sha = createHash("sha512")
      .update(readFileSync(path.join(tmp, "other", "bomb.tgz")))
      .digest("base64");
    const redirect = http.createServer((req, res) => {
      if (req.url === "/moved") {
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            name: "moved",
            "dist-tags": { latest: "1.0.0" },
            versions: {
              "1.0.0": {
                name: "moved",
                version: "1.0.0",
                dist: { tarball: `${other.url}/bomb.tgz`, integrity: `sha512-${sha}` },
              },
            },
          }),
        );
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => redirect.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(redirect.address() as AddressInfo).port}/`;
      const r = await new ContainerDependencyInstaller({
        registryConfig: { ...cfg(), npm: url },
        cacheDir,
        image: sandboxImage,
      }).install({ ecosystem: "npm", packages: [{ name: "moved", version: "1.0.0" }] });
      expect(r.dir).toBeNull();
      expect(r.failures[0]!.reason).toMatch(
        /tarball from outside the configured registry.*install.allowRemote/,
      );
      expect(other.requests).toEqual([]);
    } finally {
      redirect.closeAllConnections();
      redirect.close();
    }
  }, 120_000);

  it("a repository's .npmrc (scoped registry, auth tokens, registry=) never reaches the install container", async () => {
    hostile++;
    const TOKEN = `npm_repoToken${process.pid}`;
    const repo = path.join(tmp, "npmrc-repo");
    await mkdir(repo, { recursive: true });
    const otherHost = new URL(other.url).host;
    const npmrc = [
      `registry=${other.url}/`,
      `@evil:registry=${other.url}/`,
      `//${otherHost}/:_authToken=${TOKEN}`,
      `//${registry.host}/:_authToken=${TOKEN}`,
      // The name the install container's npm gives the registry (so a leaked token would be sent).
      `//${VIRTUAL_NPM_HOST}/:_authToken=${TOKEN}`,
      `_auth=${Buffer.from(`u:${TOKEN}`).toString("base64")}`,
      "always-auth=true",
      "",
    ].join("\n");
    await writeFile(path.join(repo, ".npmrc"), npmrc);
    const deps = { "@evil/leaf": "1.0.0", leaf: "1.0.0" };
    await writeFile(
      path.join(repo, "package.json"),
      JSON.stringify({ name: "victim", version: "1.0.0", dependencies: deps }),
    );
    await writeFile(
      path.join(repo, "package-lock.json"),
      JSON.stringify({
        name: "victim",
        lockfileVersion: 3,
        requires: true,
        packages: {
          "": { name: "victim", version: "1.0.0", dependencies: deps },
          "node_modules/@evil/leaf": {
            version: "1.0.0",
            resolved: registry.tarballUrl("@evil/leaf", "1.0.0"),
            integrity: registry.integrity("@evil/leaf", "1.0.0"),
          },
          "node_modules/leaf": { version: "1.0.0", integrity: registry.integrity("leaf", "1.0.0") },
        },
      }),
    );
    const workspace = await createFsWorkspace(repo);
    const js = await checkJsDependencies(workspace);
    expect(js?.lockfile).toBe("package-lock.json");
    const before = { requests: registry.requests.length, headers: registry.headers.length };
    const dirs = await installRepoDependencies(workspace, js!, {
      cacheDir,
      registryConfig: cfg(),
      image: sandboxImage,
      timeoutMs: 60_000,
    });
    const out = path.join(dirs[0]!.hostDir, "node_modules");
    expect(readFileSync(path.join(out, "@evil", "leaf", "index.js"), "utf8")).toContain("@evil/leaf@1.0.0");
    // Both packages came from the operator's registry (the repository's registry= and @evil:registry= ignored),
    // without any credential of the repository's .npmrc.
    const asked = registry.requests.slice(before.requests);
    expect(asked.some((u) => u.includes("leaf-1.0.0.tgz"))).toBe(true);
    expect(asked.some((u) => u.startsWith("/@evil/leaf/-/"))).toBe(true);
    expect(other.requests).toEqual([]);
    const sent = registry.headers.slice(before.headers);
    expect(sent.length).toBeGreaterThan(0);
    for (const h of sent) {
      expect(h.authorization).toBeUndefined();
      expect(JSON.stringify(h)).not.toContain(TOKEN);
    }
    expect(grepTree(cacheDir, TOKEN)).toBe(false);
  }, 120_000);

  it("a wheel whose metadata requires a direct URL (an sdist with a build backend): refused, nothing built on the host", async () => {
    hostile++;
    const root = path.join(tmp, "pypi");
    await mkdir(path.join(root, "files"), { recursive: true });
    const payload = await staticServer(path.join(tmp, "other"));
    const wheel = path.join(root, "files", "evilwheel-1.0-py3-none-any.whl");
    execFileSync("python3", [
      "-c",
      `import zipfile,sys
z=zipfile.ZipFile(sys.argv[1],"w")
z.writestr("evilwheel/__init__.py","")
z.writestr("evilwheel-1.0.dist-info/METADATA","Metadata-Version: 2.1\\nName: evilwheel\\nVersion: 1.0\\nRequires-Dist: payload @ ${payload.url}/payload-1.0.tar.gz\\n")
z.writestr("evilwheel-1.0.dist-info/WHEEL","Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
z.writestr("evilwheel-1.0.dist-info/RECORD","")
z.close()`,
      wheel,
    ]);
    const sha = createHash("sha256").update(readFileSync(wheel)).digest("hex");
    await mkdir(path.join(root, "simple", "evilwheel"), { recursive: true });
    await writeFile(
      path.join(root, "simple", "evilwheel", "index.html"),
      `<a href="/files/evilwheel-1.0-py3-none-any.whl#sha256=${sha}">evilwheel-1.0-py3-none-any.whl</a>`,
    );
    const index = http.createServer((req, res) => {
      const p = new URL(req.url ?? "/", "http://x").pathname.replace(/\/$/, "/index.html");
      const file = path.join(root, p);
      if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
      res.end(readFileSync(file));
    });
    await new Promise<void>((r) => index.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(index.address() as AddressInfo).port}/simple`;
      const r = await new ContainerDependencyInstaller({
        registryConfig: { ...cfg(), pip: { indexUrl: url, extraIndexUrls: [], findLinks: [] } },
        cacheDir,
        image: sandboxImage,
      }).install({ ecosystem: "pypi", packages: [{ name: "evilwheel", version: "1.0" }] });
      expect(r.dir).toBeNull();
      expect(r.failures.map((f) => f.name)).toEqual(["evilwheel"]);
      expect(payload.requests).toEqual([]);
      expect(existsSync(MARKER)).toBe(false);
    } finally {
      index.closeAllConnections();
      index.close();
      await payload.close();
    }
  }, 120_000);
});
