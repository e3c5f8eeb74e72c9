/**
 * The configured registry everywhere: reading the operator's npm/pip configuration, the latest-version look-up
 * against it (a local registry on loopback here) with bounded concurrency, and the egress proxy's allow-list.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isPublicAddress, routedPath, startEgressProxy } from "../../../src/install/proxy.ts";
import { npmView } from "../../../src/install/npm.ts";
import {
  hostPort,
  npmAllowedHosts,
  npmRegistryFor,
  parseNpmrcCredentials,
  parsePipConfigList,
  RegistryCredentials,
  pipAllowedHosts,
  pipLocalDirs,
  type RegistryConfig,
  registryKey,
} from "../../../src/install/registry-config.ts";
import {
  createRegistryLookup,
  limiter,
  newestVersion,
  wheelVersions,
} from "../../../src/install/registry-lookup.ts";
import { startLocalRegistry } from "../../integration/install/local-registry.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "retrace-registry-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const config = (npm: string, pip: Partial<RegistryConfig["pip"]> = {}): RegistryConfig => ({
  npm,
  pip: { indexUrl: "https://pypi.org/simple", extraIndexUrls: [], findLinks: [], ...pip },
  caFile: null,
});

describe("registry configuration", () => {
  it("reads `pip config list` (this machine's shape), the environment winning", () => {
    const out = [
      ":env:.cert='/etc/ssl/certs/ca-certificates.crt'",
      ":env:.find-links='/opt/wheels'",
      "global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'",
      "global.find-links='/opt/other'",
      "global.index-url='https://mirror.internal/simple'",
    ].join("\n");
    expect(parsePipConfigList(out)).toEqual({
      indexUrl: "https://mirror.internal/simple",
      extraIndexUrls: ["file:///opt/pypi/simple", "file:///opt/pypi-more/simple"],
      findLinks: ["/opt/wheels"],
    });
    expect(parsePipConfigList(out, { PIP_INDEX_URL: "http://127.0.0.1:3141/simple" }).indexUrl).toBe(
      "http://127.0.0.1:3141/simple",
    );
    expect(parsePipConfigList("").indexUrl).toBe("https://pypi.org/simple");
  });

  it("allowed hosts, local mirror directories and cache keys follow the configuration", async () => {
    expect(hostPort("https://registry.npmjs.org/")).toBe("registry.npmjs.org:443");
    expect(hostPort("http://[::1]:4873/")).toBe("::1:4873");
    expect(hostPort("file:///opt/pypi/simple")).toBeNull();
    await mkdir(path.join(dir, "pypi", "simple"), { recursive: true });
    const c = config("http://127.0.0.1:4873/", {
      extraIndexUrls: [`file://${dir}/pypi/simple`],
      findLinks: [dir, "/nonexistent/wheels"],
    });
    expect(pipAllowedHosts(c)).toEqual(["pypi.org:443", "files.pythonhosted.org:443"]);
    expect(pipLocalDirs(c)).toEqual([path.join(dir, "pypi"), dir]);
    expect(registryKey(c, "npm")).not.toBe(registryKey(config("https://registry.npmjs.org/"), "npm"));
  });
});

describe("latest-version look-up", () => {
  it("asks the configured registry, at most `concurrency` at a time, for 150 names", async () => {
    const names = Array.from({ length: 150 }, (_, i) => `pkg${i}`);
    const registry = await startLocalRegistry(
      names.map((name) => ({ name, version: "1.0.0" })),
      { delayMs: 20 },
    );
    try {
      const lookup = createRegistryLookup({
        registryConfig: config(registry.url),
        cacheDir: null,
        concurrency: 4,
      });
      const versions = await Promise.all(names.map((n) => lookup.latestVersion("npm", n)));
      expect(versions.every((v) => v === "1.0.0")).toBe(true);
      expect(registry.requests).toHaveLength(150);
      expect(registry.maxInFlight).toBeLessThanOrEqual(4);
      expect(await lookup.latestVersion("npm", "no-such-package")).toBeNull();
      expect(await lookup.latestVersion("npm", "--registry=http://evil")).toBeNull();
    } finally {
      await registry.close();
    }
  });

  it("writes the cache once at a time and loses no answer: every answer is on disk when its look-up returns", async () => {
    const names = Array.from({ length: 150 }, (_, i) => `pkg${i}`);
    const registry = await startLocalRegistry(
      names.map((name) => ({ name, version: "1.0.0" })),
      { delayMs: 5 },
    );
    const onDisk = async () =>
      Object.keys(JSON.parse(await readFile(path.join(dir, "latest-versions.json"), "utf8")) as object);
    try {
      const lookup = createRegistryLookup({
        registryConfig: config(registry.url),
        cacheDir: dir,
        concurrency: 4,
      });
      const seen = await Promise.all(
        names.map(async (n) => {
          expect(await lookup.latestVersion("npm", n)).toBe("1.0.0");
          return (await onDisk()).some((k) => k.endsWith(`:${n}`));
        }),
      );
      expect(seen.every(Boolean)).toBe(true);
      expect(await onDisk()).toHaveLength(150);
      // A later job answers every name from the file, asking the registry nothing.
      const before = registry.requests.length;
      const later = createRegistryLookup({
        registryConfig: config(registry.url),
        cacheDir: dir,
        concurrency: 4,
      });
      expect(await Promise.all(names.map((n) => later.latestVersion("npm", n)))).toEqual(
        names.map(() => "1.0.0"),
      );
      expect(registry.requests.length).toBe(before);
    } finally {
      await registry.close();
    }
  });

  it("Python: the newest stable wheel on a file:// index and find-links directory", async () => {
    await mkdir(path.join(dir, "simple", "absl-py"), { recursive: true });
    await writeFile(
      path.join(dir, "simple", "absl-py", "index.html"),
      '<a href="../../files/absl_py-2.4.0-py3-none-any.whl#sha256=00">x</a><a href="../../files/absl_py-2.10.0-py3-none-any.whl">y</a><a href="../../files/absl_py-3.0.0rc1-py3-none-any.whl">z</a><a href="../../files/absl-py-9.0.0.tar.gz">s</a>',
    );
    await mkdir(path.join(dir, "wheels"));
    await writeFile(path.join(dir, "wheels", "absl_py-2.11.0-py3-none-any.whl"), "");
    const lookup = createRegistryLookup({
      registryConfig: config("http://127.0.0.1:9/", {
        indexUrl: "http://127.0.0.1:9/simple",
        extraIndexUrls: [`file://${dir}/simple`],
        findLinks: [path.join(dir, "wheels")],
      }),
      cacheDir: null,
      timeoutMs: 1_000,
    });
    expect(await lookup.latestVersion("pypi", "absl_py")).toBe("2.11.0");
    expect(wheelVersions(["numpy-1.26.4-cp311-cp311-manylinux_2_17_x86_64.whl"], "NumPy")).toEqual([
      "1.26.4",
    ]);
    expect(newestVersion(["1.9.0", "1.10.0", "1.2.0"])).toBe("1.10.0");
  });

  it("a post-release is a final release: python-dateutil's only wheel on a mirror, 2.9.0.post0, is its latest", () => {
    const links = [
      "../../files/python_dateutil-2.9.0.post0-py2.py3-none-any.whl#sha256=00",
      "../../files/python_dateutil-2.9.1rc1-py2.py3-none-any.whl#sha256=00",
      "../../files/python_dateutil-3.0.0.dev1-py2.py3-none-any.whl#sha256=00",
    ];
    expect(wheelVersions(links, "python-dateutil")).toEqual(["2.9.0.post0"]);
    expect(newestVersion(["2.9.0", "2.9.0.post0", "2.8.2"])).toBe("2.9.0.post0");
    expect(newestVersion(["2.9.0.post1", "2.9.1", "2.9.0.post0"])).toBe("2.9.1");
    expect(newestVersion(["1.2", "1.2.0.post1"])).toBe("1.2.0.post1");
  });

  it("limiter never runs more than its maximum at once", async () => {
    const slot = limiter(2);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        slot(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 5));
          active--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });
});

describe("egress proxy", () => {
  it("lets through allowed hosts only (plain HTTP and CONNECT) and remembers what it refused", async () => {
    const mk = () =>
      new Promise<http.Server>((resolve) => {
        const s = http.createServer((_req, res) => res.end("hello"));
        s.listen(0, "127.0.0.1", () => resolve(s));
      });
    const allowed = await mk();
    const other = await mk();
    const port = (s: http.Server) => (s.address() as AddressInfo).port;
    const proxy = await startEgressProxy({ allow: [`127.0.0.1:${port(allowed)}`] });
    const sock = path.join(proxy.socketDir, "proxy.sock");
    const get = (target: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ socketPath: sock, path: target, headers: { host: "x" } }, (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
    const connect = (target: string) =>
      new Promise<string>((resolve) => {
        const c = net.connect(sock, () => c.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`));
        c.once("data", (d) => {
          resolve(String(d).split("\r\n")[0]!);
          c.destroy();
        });
      });
    try {
      expect(await get(`http://127.0.0.1:${port(allowed)}/x`)).toEqual({ status: 200, body: "hello" });
      expect((await get(`http://127.0.0.1:${port(other)}/x`)).status).toBe(403);
      expect(await connect(`127.0.0.1:${port(allowed)}`)).toBe("HTTP/1.1 200 Connection Established");
      expect(await connect(`127.0.0.1:${port(other)}`)).toBe("HTTP/1.1 403 Forbidden");
      expect(await connect("169.254.169.254:80")).toBe("HTTP/1.1 403 Forbidden");
      expect(proxy.refused()).toEqual([`127.0.0.1:${port(other)}`, "169.254.169.254:80"]);
    } finally {
      await proxy.close();
      allowed.close();
      other.close();
    }
  });
});

describe("egress proxy: hosts the repository names", () => {
  it("public unicast only: loopback, private, link-local, shared, mapped and unspecified addresses are internal", () => {
    for (const a of ["8.8.8.8", "104.16.0.1", "2606:4700::1111"]) expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      "127.0.0.1",
      "127.9.9.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "not-an-address",
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });

  it("a repository-named host that resolves inside is refused (plain HTTP and CONNECT); the operator may allow it", async () => {
    let hits = 0;
    const server = await new Promise<http.Server>((resolve) => {
      const s = http.createServer((_req, res) => {
        hits++;
        res.end("internal");
      });
      s.listen(0, "127.0.0.1", () => resolve(s));
    });
    const target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ask = async (privateHosts: string[]) => {
      const proxy = await startEgressProxy({ allow: [target], repositoryHosts: [target], privateHosts });
      const sock = path.join(proxy.socketDir, "proxy.sock");
      try {
        const plain = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            { socketPath: sock, path: `http://${target}/admin`, headers: { host: target } },
            (res) => {
              let body = "";
              res.on("data", (d) => (body += d));
              res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
            },
          );
          req.on("error", reject);
          req.end();
        });
        const tunnel = await new Promise<string>((resolve) => {
          const c = net.connect(sock, () => c.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`));
          c.once("data", (d) => {
            resolve(String(d).split("\r\n")[0]!);
            c.destroy();
          });
        });
        return { plain, tunnel, refused: proxy.refused() };
      } finally {
        await proxy.close();
      }
    };
    try {
      const refused = await ask([]);
      expect(refused.plain.status).toBe(403);
      expect(refused.plain.body).toMatch(
        /the repository names it; it resolves to 127\.0\.0\.1, an internal address/,
      );
      expect(refused.tunnel).toBe("HTTP/1.1 403 Forbidden");
      expect(refused.refused.join("\n")).toContain(`${target} (the repository names it`);
      expect(hits).toBe(0);
      const allowed = await ask(["127.0.0.1"]);
      expect(allowed.plain).toEqual({ status: 200, body: "internal" });
      expect(allowed.tunnel).toBe("HTTP/1.1 200 Connection Established");
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe("the operator's scoped registries and credentials", () => {
  const base: RegistryConfig = {
    npm: "https://registry.npmjs.org/",
    npmScopes: { "@acme": "https://npm.acme.example/repo/npm/", "@zed": "http://127.0.0.1:4873/" },
    pip: { indexUrl: "https://pypi.org/simple", extraIndexUrls: [], findLinks: [] },
    caFile: null,
  };

  it("reads every credential form npm reads, expanding $VAR references, and picks the longest matching key", () => {
    const creds = parseNpmrcCredentials(
      [
        "; comment",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: npm's own ${VAR} syntax, not a template
        "//npm.acme.example/repo/npm/:_authToken=${ACME}",
        "//npm.acme.example/:_auth=dXNlcjpwYXNz",
        '//127.0.0.1:4873/:username="bob"',
        "//127.0.0.1:4873/:_password=aHVudGVyMg==",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: npm's own ${VAR} syntax, not a template
        "//empty.example/:_authToken=${UNSET}",
        "registry=https://registry.npmjs.org/",
      ].join("\n"),
      { ACME: "tok-1" },
    );
    expect(creds).toEqual([
      ["//npm.acme.example/repo/npm/", "Bearer tok-1"],
      ["//npm.acme.example/", "Basic dXNlcjpwYXNz"],
      ["//127.0.0.1:4873/", `Basic ${Buffer.from("bob:hunter2").toString("base64")}`],
    ]);
    const c = new RegistryCredentials(creds);
    expect(c.authorizationFor("https://npm.acme.example/repo/npm/@acme%2fx")).toBe("Bearer tok-1");
    expect(c.authorizationFor("https://npm.acme.example/other/x")).toBe("Basic dXNlcjpwYXNz");
    expect(c.authorizationFor("http://127.0.0.1:4873/@zed%2fy")).toMatch(/^Basic /);
    expect(c.authorizationFor("https://registry.npmjs.org/left-pad")).toBeNull();
    // A token never shows in JSON or util.inspect.
    expect(JSON.stringify({ c })).not.toMatch(/tok-1|dXNlcjpwYXNz/);
    expect(require("node:util").inspect(c)).not.toMatch(/tok-1/);
  });

  it("scopes choose the registry, are allowed hosts and part of the cache key", () => {
    expect(npmRegistryFor(base, "@acme/widget")).toBe("https://npm.acme.example/repo/npm/");
    expect(npmRegistryFor(base, "@other/x")).toBe("https://registry.npmjs.org/");
    expect(npmRegistryFor(base, "left-pad")).toBe("https://registry.npmjs.org/");
    expect(npmAllowedHosts(base).sort()).toEqual([
      "127.0.0.1:4873",
      "npm.acme.example:443",
      "registry.npmjs.org:443",
    ]);
    expect(registryKey(base, "npm")).not.toBe(registryKey({ ...base, npmScopes: {} }, "npm"));
    expect(registryKey(base, "npm")).not.toContain("tok");
  });

  it("the install container's view: one virtual registry per scope, lockfile URLs made virtual and back", () => {
    const v = npmView(base);
    expect(v.npmrc).toBe(
      "@acme:registry=http://s0.npm.registry.retrace.invalid/\n@zed:registry=http://s1.npm.registry.retrace.invalid/\n",
    );
    expect(v.routes["s0.npm.registry.retrace.invalid"]).toBe("https://npm.acme.example/repo/npm/");
    expect(v.virtualFor("@acme/widget")).toBe("http://s0.npm.registry.retrace.invalid/");
    expect(v.virtualFor("left-pad")).toBe("http://npm.registry.retrace.invalid/");
    const lock =
      '"https://npm.acme.example/repo/npm/@acme/widget/-/widget-1.0.0.tgz" "https://registry.npmjs.org/leaf/-/leaf-1.0.0.tgz"';
    const virtual = v.toVirtual(lock);
    expect(virtual).toBe(
      '"http://s0.npm.registry.retrace.invalid/@acme/widget/-/widget-1.0.0.tgz" "http://npm.registry.retrace.invalid/leaf/-/leaf-1.0.0.tgz"',
    );
    expect(v.toReal(virtual)).toBe(lock);
    expect(v.replaceHost).toBe("registry.npmjs.org");
    // Without scopes nothing changes from before: npm replaces every tarball host itself.
    const plain = npmView({ ...base, npmScopes: {} });
    expect(plain.replaceHost).toBe("always");
    expect(plain.toVirtual(lock)).toBe(lock);
    expect(plain.npmrc).toBe("");
  });

  it("the proxy adds the credentials to routed requests only and makes scoped tarball URLs virtual", async () => {
    const seen: { url: string; auth: string | undefined; encoding: string | undefined }[] = [];
    const upstream = http.createServer((req, res) => {
      seen.push({
        url: req.url ?? "",
        auth: req.headers.authorization,
        encoding: req.headers["accept-encoding"],
      });
      if (req.url?.endsWith(".tgz")) return void res.end("TARBALL");
      const port = (upstream.address() as AddressInfo).port;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ dist: { tarball: `http://127.0.0.1:${port}/@acme/w/-/w-1.0.0.tgz` } }));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const real = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
    const proxy = await startEgressProxy({
      allow: [],
      routes: { "s0.npm.registry.retrace.invalid": real },
      rewriteJson: { [real]: "http://s0.npm.registry.retrace.invalid/" },
      authorization: (url) => (url.startsWith(real) ? "Bearer T" : null),
    });
    const get = (target: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            socketPath: path.join(proxy.socketDir, "proxy.sock"),
            path: target,
            headers: { host: "x", ...headers },
          },
          (res) => {
            let body = "";
            res.on("data", (d) => (body += d));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on("error", reject);
        req.end();
      });
    try {
      const doc = await get("http://s0.npm.registry.retrace.invalid/@acme%2fw", {
        "accept-encoding": "gzip",
        authorization: "Bearer from-the-container",
      });
      expect(JSON.parse(doc.body).dist.tarball).toBe(
        "http://s0.npm.registry.retrace.invalid/@acme/w/-/w-1.0.0.tgz",
      );
      expect((await get("http://s0.npm.registry.retrace.invalid/@acme/w/-/w-1.0.0.tgz")).body).toBe(
        "TARBALL",
      );
      // The container's own Authorization never reaches the registry; the operator's does. The document was
      // asked for uncompressed (to be rewritten).
      expect(seen.map((s) => s.auth)).toEqual(["Bearer T", "Bearer T"]);
      expect(seen[0]!.encoding).toBeUndefined();
    } finally {
      await proxy.close();
      upstream.close();
    }
  });
});

describe("routedPath: a credentialed route stays under its registry's path", () => {
  it.each([
    "/..%2fadmin",
    "/..%2Fadmin",
    "/%2e%2e%2fadmin",
    "/%2E./admin",
    "/..%5cadmin",
    "/..\\admin",
    "/%252e%252e%252fadmin",
    "/..;/admin",
    "/.;x/admin",
    "/a%00b",
    "/a%0d%0aX: y",
    "/api/npm/private/..%2fpublic",
    "/@acme%2f..%2f..%2fadmin",
  ])("refuses %s", (p) => {
    expect(routedPath("/api/npm/private/", p)).toHaveProperty("refused");
  });
  it("keeps npm's own paths, verbatim, under the prefix", () => {
    expect(routedPath("/api/npm/private", "/@acme%2fwidget")).toEqual({
      path: "/api/npm/private/@acme%2fwidget",
    });
    expect(routedPath("/api/npm/private/", "/api/npm/private/leaf")).toEqual({
      path: "/api/npm/private/leaf",
    });
    expect(routedPath("/", "/@a/b/-/b-1.0.0.tgz")).toEqual({ path: "/@a/b/-/b-1.0.0.tgz" });
    expect(routedPath("/", "/lodash.get")).toEqual({ path: "/lodash.get" });
  });
});
