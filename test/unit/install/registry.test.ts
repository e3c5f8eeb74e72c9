/**
 * The configured registry everywhere: reading the operator's npm/pip configuration, the latest-version look-up
 * against it (a local registry on loopback here) with bounded concurrency, and the egress proxy's allow-list.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEgressProxy } from "../../../src/install/proxy.ts";
import {
  hostPort,
  parsePipConfigList,
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
