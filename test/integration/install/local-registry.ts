/**
 * A tiny npm registry on loopback for the install tests: packuments and gzipped tarballs generated here from
 * package descriptions (integrity = sha512 of the tarball, as npm computes it), so nothing comes from the
 * network. It counts requests and the most in flight at once, can answer slowly, and can serve raw tarballs
 * at other paths (the "remote tarball URL" cases).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import tarStream from "tar-stream";

export interface FakePackage {
  name: string;
  version: string;
  /** Files besides package.json (paths inside the package). */
  files?: Record<string, string | Buffer>;
  dependencies?: Record<string, string>;
  /** Extra package.json fields (bin, scripts, …). */
  extra?: Record<string, unknown>;
  /** A tarball served as it is instead of one made from `files` (a real release packed from the npm registry). */
  tgz?: Buffer;
}

export interface LocalRegistry {
  /** Base URL with a trailing slash. */
  url: string;
  /** `127.0.0.1:<port>`. */
  host: string;
  requests: string[];
  /** The headers of every request, in order. */
  headers: http.IncomingHttpHeaders[];
  maxInFlight: number;
  integrity(name: string, version: string): string;
  tarballUrl(name: string, version: string): string;
  close(): Promise<void>;
}

export async function tarball(pkg: FakePackage): Promise<Buffer> {
  const pack = tarStream.pack();
  const manifest = {
    name: pkg.name,
    version: pkg.version,
    dependencies: pkg.dependencies ?? {},
    ...pkg.extra,
  };
  const entries: [string, string | Buffer][] = [
    ["package.json", JSON.stringify(manifest, null, 2)],
    ...Object.entries(
      pkg.files ?? { "index.js": `module.exports = ${JSON.stringify(`${pkg.name}@${pkg.version}`)};\n` },
    ),
  ];
  for (const [name, content] of entries) pack.entry({ name: `package/${name}`, mode: 0o644 }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack as unknown as AsyncIterable<Buffer>) chunks.push(c);
  return gzipSync(Buffer.concat(chunks));
}

export async function startLocalRegistry(
  packages: FakePackage[],
  options: {
    delayMs?: number;
    raw?: Record<string, Buffer>;
    /** Every request must carry exactly this Authorization header, or gets 401 (a private registry). */
    requireAuthorization?: string;
    /** Path → how many of its first requests have their connection dropped unanswered (a flaky network). */
    dropFirst?: Record<string, number>;
  } = {},
): Promise<LocalRegistry> {
  const tgz = new Map<string, Buffer>();
  for (const p of packages) tgz.set(`${p.name}@${p.version}`, p.tgz ?? (await tarball(p)));
  const requests: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let base = "";
  const integrity = (name: string, version: string) =>
    `sha512-${createHash("sha512")
      .update(tgz.get(`${name}@${version}`)!)
      .digest("base64")}`;
  const tarballUrl = (name: string, version: string) =>
    `${base}${name}/-/${name.replace(/^@[^/]+\//, "")}-${version}.tgz`;
  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    requests.push(req.url ?? "");
    headers.push(req.headers);
    const done = () => {
      inFlight--;
    };
    res.on("close", done);
    setTimeout(() => {
      if (options.requireAuthorization && req.headers.authorization !== options.requireAuthorization) {
        res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
        res.end('{"error":"authentication required"}');
        return;
      }
      const url = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      const drops = options.dropFirst?.[url] ?? 0;
      if (drops > 0) {
        options.dropFirst![url] = drops - 1;
        req.socket.destroy();
        return;
      }
      const raw = options.raw?.[url];
      if (raw) {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(raw);
        return;
      }
      const t = /^\/((?:@[^/]+\/)?[^/]+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(url);
      if (t) {
        const body = tgz.get(`${t[1]}@${t[2]}`);
        if (!body) return void res.writeHead(404).end();
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(body);
        return;
      }
      const name = url.slice(1);
      const versions = packages.filter((p) => p.name === name);
      if (versions.length === 0) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end('{"error":"not found"}');
        return;
      }
      const packument = {
        name,
        "dist-tags": { latest: versions[versions.length - 1]!.version },
        versions: Object.fromEntries(
          versions.map((p) => [
            p.version,
            {
              name,
              version: p.version,
              dependencies: p.dependencies ?? {},
              ...p.extra,
              dist: {
                tarball: tarballUrl(name, p.version),
                integrity: integrity(name, p.version),
                shasum: createHash("sha1")
                  .update(tgz.get(`${name}@${p.version}`)!)
                  .digest("hex"),
              },
            },
          ]),
        ),
      };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(packument));
    }, options.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}/`;
  return {
    url: base,
    host: `127.0.0.1:${port}`,
    requests,
    headers,
    get maxInFlight() {
      return maxInFlight;
    },
    integrity,
    tarballUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
