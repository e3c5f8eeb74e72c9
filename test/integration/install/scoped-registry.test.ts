/**
 * The operator's scoped registry (`@acme:registry=` with a token in their .npmrc) in the real install container:
 * packages of the scope come from it, with the token added by the proxy on the host, and everything else from
 * the default registry; the token is never sent to the default registry, never enters the container, the
 * installed tree or the lockfile; look-ups of the scope's latest release use it too. Without the token the
 * install fails naming the refusal, as an install failure (never a verdict).
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InstallCache } from "../../../src/install/cache.ts";
import { DEFAULT_INSTALL_LIMITS } from "../../../src/install/container.ts";
import { ContainerDependencyInstaller } from "../../../src/install/installer.ts";
import { REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import { installNpmLockfile } from "../../../src/install/npm.ts";
import { CONTAINER_PROXY_URL, VIRTUAL_NPM_HOST } from "../../../src/install/proxy.ts";
import { withSession } from "../../../src/install/session.ts";
import {
  type RegistryConfig,
  RegistryCredentials,
  readRegistryConfig,
} from "../../../src/install/registry-config.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { type LocalRegistry, startLocalRegistry } from "./local-registry.ts";

const TOKEN = "s3cret-scoped-token-7f2c";
const docker = connectDocker();

/** Files under `dir` that contain the token (grep exits 1 when none does). */
function filesWithToken(dir: string): string[] {
  const r = spawnSync("grep", ["-rl", "--", TOKEN, dir], { encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1) throw new Error(`grep failed: ${r.stderr}`);
  return r.stdout.split("\n").filter(Boolean);
}

describeDocker("operator's scoped registry", () => {
  let publicRegistry: LocalRegistry;
  let privateRegistry: LocalRegistry;
  let cacheDir: string;
  let config: RegistryConfig;
  beforeAll(async () => {
    publicRegistry = await startLocalRegistry([
      { name: "leaf", version: "1.0.0" },
      // A public package of the same scope name must never be taken from the public registry.
      { name: "@acme/widget", version: "9.9.9", files: { "index.js": "module.exports = 'impostor';\n" } },
    ]);
    privateRegistry = await startLocalRegistry(
      [{ name: "@acme/widget", version: "1.2.0", dependencies: { leaf: "^1.0.0" } }],
      { requireAuthorization: `Bearer ${TOKEN}` },
    );
    cacheDir = await mkdtemp(path.join(os.tmpdir(), "retrace-scoped-it-"));
    config = {
      npm: publicRegistry.url,
      npmScopes: { "@acme": privateRegistry.url },
      npmAuth: new RegistryCredentials([[`//${privateRegistry.host}/`, `Bearer ${TOKEN}`]]),
      pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
      caFile: null,
    };
  });
  afterAll(async () => {
    await publicRegistry.close();
    await privateRegistry.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("a report's scoped package: from the scope's registry with the token added on the host", async () => {
    const installer = new ContainerDependencyInstaller({
      registryConfig: config,
      cacheDir,
      image: sandboxImage,
    });
    const r = await installer.install({
      ecosystem: "npm",
      packages: [{ name: "@acme/widget", version: "1.2.0" }],
    });
    expect(r.failures).toEqual([]);
    expect(r.installed).toEqual([{ name: "@acme/widget", version: "1.2.0" }]);
    // The scope's package came from the private registry, its public dependency from the default one.
    expect(privateRegistry.requests.some((u) => u.includes("widget"))).toBe(true);
    expect(publicRegistry.requests.some((u) => u.includes("widget"))).toBe(false);
    expect(publicRegistry.requests.some((u) => u.startsWith("/leaf"))).toBe(true);
    // The token went to the private registry only, and nowhere into the installed tree.
    expect(privateRegistry.headers.every((h) => h.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(publicRegistry.headers.some((h) => h.authorization !== undefined)).toBe(false);
    expect(filesWithToken(r.dir!)).toEqual([]);
  }, 180_000);

  it("a repository lockfile with a scoped entry resolved to the operator's scoped registry passes the policy", async () => {
    const lock = {
      name: "app",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "app", dependencies: { "@acme/widget": "1.2.0" } },
        "node_modules/@acme/widget": {
          version: "1.2.0",
          resolved: privateRegistry.tarballUrl("@acme/widget", "1.2.0"),
          integrity: privateRegistry.integrity("@acme/widget", "1.2.0"),
          dependencies: { leaf: "^1.0.0" },
        },
        "node_modules/leaf": {
          version: "1.0.0",
          resolved: publicRegistry.tarballUrl("leaf", "1.0.0"),
          integrity: publicRegistry.integrity("leaf", "1.0.0"),
        },
      },
    };
    const r = await installNpmLockfile(
      {
        docker,
        image: sandboxImage,
        registry: config,
        cache: new InstallCache({ root: cacheDir }),
        limits: { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 120_000 },
        jobId: "it-scoped-lockfile",
      },
      {
        packageJson: JSON.stringify({ name: "app", dependencies: { "@acme/widget": "1.2.0" } }),
        lockfile: JSON.stringify(lock),
        lockfileName: "package-lock.json",
        policy: REGISTRY_ONLY,
      },
    );
    expect(r.cached).toBe(false);
    expect(filesWithToken(r.dir)).toEqual([]);
  }, 180_000);

  it("the latest release of a scoped package is looked up on the scope's registry, with the token", async () => {
    const lookup = createRegistryLookup({ registryConfig: config, cacheDir: null });
    expect(await lookup.latestVersion("npm", "@acme/widget")).toBe("1.2.0");
    expect(await lookup.latestVersion("npm", "leaf")).toBe("1.0.0");
  });

  it("without the operator's token: an install failure that names the refusal, nothing cached", async () => {
    const installer = new ContainerDependencyInstaller({
      registryConfig: { ...config, npmAuth: new RegistryCredentials() },
      cacheDir: path.join(cacheDir, "no-token"),
      image: sandboxImage,
    });
    const r = await installer.install({
      ecosystem: "npm",
      packages: [{ name: "@acme/widget", version: "1.2.0" }],
    });
    expect(r.dir).toBeNull();
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]!.reason).toMatch(/401|E401|auth/i);
  }, 180_000);

  it("the operator's .npmrc is read as npm reads it: scopes from npm, credentials from the files, never printed", async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), "retrace-npmrc-"));
    try {
      const rc = path.join(home, ".npmrc");
      await writeFile(
        rc,
        `@acme:registry=${privateRegistry.url}\n//${privateRegistry.host}/:_authToken=\${ACME_TOKEN}\n`,
      );
      const read = await readRegistryConfig({
        PATH: process.env.PATH,
        HOME: home,
        npm_config_userconfig: rc,
        ACME_TOKEN: TOKEN,
      });
      expect(read.npmScopes).toEqual({ "@acme": privateRegistry.url });
      expect(read.npmAuth?.authorizationFor(`${privateRegistry.url}@acme%2fwidget`)).toBe(`Bearer ${TOKEN}`);
      expect(read.npmAuth?.authorizationFor(`${publicRegistry.url}leaf`)).toBeNull();
      expect(JSON.stringify(read)).not.toContain(TOKEN);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("encoded separators and dot segments on the credentialed route never leave the registry's path", async () => {
    // A registry under a path prefix (as Artifactory or Nexus serve one), whose token is for that path only;
    // it records every request and the Authorization it came with.
    const seen: { url: string; auth: string | undefined }[] = [];
    const server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? "", auth: req.headers.authorization });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const prefix = "/api/npm/private/";
    const base = `http://127.0.0.1:${port}${prefix}`;
    const virtual = `s0.${VIRTUAL_NPM_HOST}`;
    const hostile = [
      "/..%2f..%2fadmin",
      "/..%2F..%2Fadmin",
      "/%2e%2e%2f%2e%2e%2fadmin",
      "/..%5c..%5cadmin",
      "/%252e%252e%252fadmin",
      "/..;/..;/admin",
      "/@acme%2f..%2f..%2f..%2fadmin",
      "/api/npm/private/..%2f..%2fpublic%2fsecret",
      "/@acme%2fwidget%2f..%2f..%2f..%2f..%2fadmin",
    ];
    const control = ["/@acme%2fwidget", "/@acme/widget/-/widget-1.2.0.tgz", "/leaf"];
    try {
      const statuses = await withSession(
        {
          docker,
          image: sandboxImage,
          limits: { ...DEFAULT_INSTALL_LIMITS, timeoutMs: 60_000 },
          allowHosts: [],
          routes: { [virtual]: base },
          registry: {
            ...config,
            npmAuth: new RegistryCredentials([[`//127.0.0.1:${port}${prefix}`, `Bearer ${TOKEN}`]]),
          },
          jobId: "it-route-paths",
        },
        async (s) => {
          // From inside the install container, through its proxy, the request line exactly as written.
          const script = `const http=require("http");const u=new URL(${JSON.stringify(CONTAINER_PROXY_URL)});(async()=>{for(const p of JSON.parse(process.argv[1])){const code=await new Promise(r=>{const q=http.request({host:u.hostname,port:u.port,path:"http://${virtual}"+p,headers:{host:"${virtual}"}},x=>{x.resume();x.on("end",()=>r(x.statusCode))});q.on("error",e=>r(String(e)));q.end()});console.log(p+" "+code)}})()`;
          const r = await s.container.exec(["node", "-e", script, JSON.stringify([...hostile, ...control])]);
          expect(r.exitCode, r.stderr).toBe(0);
          return Object.fromEntries(
            r.stdout
              .trim()
              .split("\n")
              .map((l) => l.split(" ") as [string, string]),
          );
        },
      );
      for (const p of hostile) expect(statuses[p], p).toBe("400");
      for (const p of control) expect(statuses[p], p).toBe("200");
      // The registry saw the control requests only, each under its path with the token; nothing that a decoding
      // server would route elsewhere.
      expect(seen.map((r) => r.url)).toEqual([
        `${prefix}@acme%2fwidget`,
        `${prefix}@acme/widget/-/widget-1.2.0.tgz`,
        `${prefix}leaf`,
      ]);
      expect(seen.every((r) => r.auth === `Bearer ${TOKEN}`)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }, 120_000);
});
