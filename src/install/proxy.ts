/**
 * The install container's only way out: a forwarding HTTP proxy of Retrace's, on a unix socket in a private
 * directory that is mounted (read-only) into the container, which itself has no network. Inside, a tiny
 * forwarder (`FORWARDER_SCRIPT`, run by the image's node) listens on the container's own loopback and relays each
 * connection to the socket, so npm and pip use an ordinary `http://127.0.0.1:<port>` proxy.
 *
 * The proxy lets through CONNECT tunnels and plain-HTTP requests to an allow-list of `host:port` (the configured
 * registries) and refuses everything else with 403, remembering what it refused so an install failure can name
 * the host. Why a socket rather than a TCP port: this engine runs without bridge networking, so the only other
 * way to reach a host port is the host's network namespace, which would expose every service on the host's
 * loopback to the container.
 */
import { lookup } from "node:dns/promises";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { hostPort } from "./registry-config.ts";
import { isPublicAddress } from "./public-address.ts";

export { isPublicAddress };

/** Where the socket directory is mounted in the install container. */
/** Connections the proxy holds at once; past it a new one is closed on accept. */
export const MAX_PROXY_CONNECTIONS = 256;

export const CONTAINER_PROXY_DIR = "/run/retrace-proxy";
/** The in-container forwarder's port on the container's loopback. */
export const CONTAINER_PROXY_PORT = 3128;
export const CONTAINER_PROXY_URL = `http://127.0.0.1:${CONTAINER_PROXY_PORT}`;
/**
 * The npm registry as the install container sees it: a name that exists nowhere, which the proxy maps to the
 * configured registry (plain HTTP inside, TLS with kept-alive connections from the host). The image's npm 9
 * opens a fresh CONNECT tunnel and TLS handshake per request; through this machine's gateway a mid-size
 * install then took 50–170 s with a third of the handshakes reset, against 10 s for kept-alive connections.
 */
export const VIRTUAL_NPM_HOST = "npm.registry.retrace.invalid";
export const VIRTUAL_NPM_REGISTRY = `http://${VIRTUAL_NPM_HOST}/`;

/**
 * Runs as the install container's main process (node is in the image): accept on loopback, relay to the
 * mounted socket. It also keeps the container alive between the install's steps. Once it listens it writes
 * `FORWARDER_READY`: the container is not handed out before that (a first request raced node's start-up and was
 * refused; npm then waited out its retry back-off).
 */
export const FORWARDER_READY = "/tmp/.retrace-forwarder-listening";
export const FORWARDER_SCRIPT = `const net=require("net");net.createServer(c=>{const u=net.connect(${JSON.stringify(`${CONTAINER_PROXY_DIR}/proxy.sock`)});c.on("error",()=>u.destroy());u.on("error",()=>c.destroy());c.pipe(u);u.pipe(c)}).listen(${CONTAINER_PROXY_PORT},"127.0.0.1",()=>require("fs").writeFileSync(${JSON.stringify(FORWARDER_READY)},""));`;

export interface EgressProxy {
  /** Host directory holding `proxy.sock`, to mount at CONTAINER_PROXY_DIR. */
  socketDir: string;
  /** `host:port`s refused so far (in order, without repeats). */
  refused(): string[];
  /** `host:port`s let through so far. */
  allowed(): string[];
  /** Tunnels and plain requests let through, refusals, and upstream errors so far. */
  stats(): { tunnels: number; requests: number; refusals: number; upstreamErrors: number };
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  /** `host:port` entries that may be reached. */
  allow: readonly string[];
  /** Idle limit of one tunnel, in ms (default 60 s). */
  idleMs?: number;
  /** Virtual host → the registry base URL it stands for (plain-HTTP requests to it are forwarded there). */
  routes?: Record<string, string>;
  /** Extra CA bundle for the routed registries (the operator's), besides Node's roots. */
  caFile?: string | null;
  /**
   * The Authorization header for a routed request's upstream URL (the operator's registry credentials): added
   * here, on the host, so no credential ever enters the container. A client's own Authorization is dropped.
   */
  authorization?: (upstreamUrl: string) => string | null;
  /**
   * Real registry base URL → virtual one, replaced in the JSON documents (packuments) routed requests return, so
   * the tarballs they name are fetched through the same route (with its credentials) rather than from the real
   * host. Used for the operator's scoped registries, whose tarball URLs npm would not send back through them.
   */
  rewriteJson?: Record<string, string>;
  /**
   * `host:port` entries of `allow` that the repository named (git hosts, tarball URLs its lockfile or package.json
   * names, allowed by its own `install.allowGit`/`allowRemote`), not the operator: the repository is the party
   * Retrace guards against, so these are reached only at public addresses. A name that resolves to loopback, a
   * private, link-local or otherwise internal address is refused: the proxy runs on the host, and would
   * otherwise send the repository's requests to the host's own services or its network.
   */
  repositoryHosts?: readonly string[];
  /** Hosts (`host` or `host:port`) the operator lets repository-named sources reach at internal addresses. */
  privateHosts?: readonly string[];
}

/** Packuments above this size are passed through unrewritten (npm then fails on the real host, visibly). */
const MAX_REWRITE_BYTES = 64 * 1024 * 1024;

/**
 * Name look-ups, remembered for a minute per proxy: a mid-size install opens hundreds of tunnels to one host,
 * and a fresh getaddrinfo for each (four at a time in libuv's pool, some taking a resolver retry of 5 s) was
 * most of a cold install's time.
 */
function cachedLookup(): (host: string) => Promise<string> {
  const memo = new Map<string, { at: number; address: Promise<string> }>();
  return (host) => {
    if (net.isIP(host)) return Promise.resolve(host);
    const hit = memo.get(host);
    if (hit && Date.now() - hit.at < 60_000) return hit.address;
    const address = lookup(host).then((r) => r.address);
    address.catch(() => memo.delete(host));
    memo.set(host, { at: Date.now(), address });
    return address;
  };
}

/**
 * The path a request to a routed (virtual) registry is forwarded with: under the registry's configured path
 * (`prefix`, e.g. `/api/npm/private/`), where the operator's credentials for that path apply. The URL parser
 * has already resolved literal `.`/`..` segments and `\`, but not their percent-encoded forms: `..%2f..%2fadmin`
 * stays one segment here, and a registry (or a server in front of it) that decodes `%2f`, `%5c` or `%2e`
 * before routing would serve `/api/admin` with the operator's token. So the path is decoded once as such a
 * server would, and refused when it then holds a `.` or `..` segment (also with a `;parameter`, as some servers
 * read `..;`), a NUL, a separator or dot still encoded (double encoding), or leaves `prefix`. The path that is
 * forwarded is the original one: npm's own `@scope%2fname` packument paths pass unchanged.
 */
export function routedPath(basePath: string, pathname: string): { path: string } | { refused: string } {
  const prefix = basePath.endsWith("/") ? basePath : `${basePath}/`;
  const full = pathname.startsWith(prefix) ? pathname : `${prefix}${pathname.replace(/^\/+/, "")}`;
  const decoded = full.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  if (/[\0-\x1f\x7f]/.test(decoded)) return { refused: "a control character or NUL in the path" };
  if (/%(?:2f|5c|2e|25|00)/i.test(decoded)) return { refused: "a separator, dot or % encoded twice" };
  const normal = decoded.replace(/\\/g, "/");
  if (normal.split("/").some((seg) => /^\.\.?(?:;.*)?$/.test(seg)))
    return { refused: "a . or .. segment, encoded (%2e, %2f, %5c)" };
  const decodedPrefix = prefix.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
  if (!normal.startsWith(decodedPrefix.replace(/\\/g, "/")))
    return { refused: `outside the registry's path ${prefix}` };
  return { path: full };
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const resolve = cachedLookup();
  // net's lookup signature: with `all` (Node 20's family auto-selection) the answer is a list.
  const cachedLookupFn = ((hostname: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (address) => {
        const family = net.isIPv6(address) ? 6 : 4;
        if (opts?.all) cb(null, [{ address, family }]);
        else cb(null, address, family);
      },
      (error: unknown) => cb(error),
    );
  }) as unknown as net.LookupFunction;
  const allow = new Set(options.allow.map((h) => h.toLowerCase()));
  const idleMs = options.idleMs ?? 60_000;
  const refused: string[] = [];
  const passed: string[] = [];
  const sockets = new Set<Duplex>();
  const counts = { tunnels: 0, requests: 0, refusals: 0, upstreamErrors: 0 };
  const track = (s: Duplex) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  };
  const permit = (target: string): boolean => {
    const t = target.toLowerCase();
    if (allow.has(t)) {
      if (!passed.includes(t)) passed.push(t);
      return true;
    }
    counts.refusals++;
    if (!refused.includes(t)) refused.push(t);
    return false;
  };
  const repositoryHosts = new Set((options.repositoryHosts ?? []).map((h) => h.toLowerCase()));
  const privateHosts = new Set((options.privateHosts ?? []).map((h) => h.toLowerCase()));
  /**
   * The address to connect to for an allowed target: resolved once here (so the check and the connection use
   * the same answer), and refused when the repository named the host and it resolves inside.
   */
  const addressFor = async (target: string): Promise<string> => {
    const t = target.toLowerCase();
    const host = t.slice(0, t.lastIndexOf(":")).replace(/^\[|\]$/g, "");
    const address = await resolve(host);
    if (
      repositoryHosts.has(t) &&
      !privateHosts.has(t) &&
      !privateHosts.has(host) &&
      !isPublicAddress(address)
    ) {
      counts.refusals++;
      const what = `${t} (the repository names it; it resolves to ${address}, an internal address)`;
      if (!refused.includes(what)) refused.push(what);
      throw Object.assign(new Error(`refused: ${what}`), { code: "EINTERNAL" });
    }
    return address;
  };

  const routes = new Map(Object.entries(options.routes ?? {}).map(([k, v]) => [k.toLowerCase(), new URL(v)]));
  // Longest first, so a base that is a prefix of another never rewrites part of it.
  const rewrites = Object.entries(options.rewriteJson ?? {}).sort(([a], [b]) => b.length - a.length);
  const extraCa = options.caFile ? readFileSync(options.caFile, "utf8") : null;
  const httpsAgent = new https.Agent({
    keepAlive: true,
    maxSockets: 16,
    ...(extraCa ? { ca: [...tls.rootCertificates, extraCa] } : {}),
  });
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  /** An upstream request that stalls is dropped; one that fails is a 502 to the client (counted). */
  const answerFailures = (upstream: http.ClientRequest, res: http.ServerResponse) => {
    upstream.on("timeout", () => upstream.destroy(new Error("upstream timed out")));
    upstream.on("error", () => {
      counts.upstreamErrors++;
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end();
    });
  };

  /**
   * A request to a virtual registry host: forwarded to the registry it stands for, under its configured path,
   * nowhere else (`routedPath` refuses what could climb out of that path once the registry decodes it).
   */
  const route = (req: http.IncomingMessage, res: http.ServerResponse, base: URL, url: URL) => {
    const routed = routedPath(base.pathname, url.pathname);
    if ("refused" in routed) {
      counts.refusals++;
      const what = `${url.hostname}${url.pathname} (${routed.refused})`;
      if (!refused.includes(what)) refused.push(what);
      res.writeHead(400, { "content-type": "text/plain", connection: "close" });
      res.end(`retrace install proxy: refused ${url.pathname}: ${routed.refused}\n`);
      return;
    }
    counts.requests++;
    const pathname = routed.path;
    const headers = { ...req.headers };
    for (const h of [
      "host",
      "proxy-connection",
      "proxy-authorization",
      "authorization",
      "connection",
      "keep-alive",
    ])
      delete headers[h];
    const secure = base.protocol === "https:";
    const credentials = options.authorization?.(`${base.protocol}//${base.host}${pathname}`) ?? null;
    if (credentials) headers.authorization = credentials;
    // A document to rewrite is asked for uncompressed; tarballs pass through untouched.
    const rewrite = rewrites.length > 0 && !/\.tgz$/i.test(pathname);
    if (rewrite) delete headers["accept-encoding"];
    const upstream = (secure ? https : http).request(
      {
        host: base.hostname,
        port: base.port || (secure ? 443 : 80),
        method: req.method === "HEAD" ? "HEAD" : "GET",
        path: `${pathname}${url.search}`,
        headers,
        agent: secure ? httpsAgent : httpAgent,
        timeout: idleMs,
        lookup: cachedLookupFn,
      },
      (up) => {
        const out = { ...up.headers };
        delete out.connection;
        delete out["keep-alive"];
        const json = /json/i.test(String(up.headers["content-type"] ?? ""));
        const encoded = up.headers["content-encoding"] && up.headers["content-encoding"] !== "identity";
        if (!rewrite || !json || encoded || Number(up.headers["content-length"] ?? 0) > MAX_REWRITE_BYTES) {
          res.writeHead(up.statusCode ?? 502, out);
          up.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        up.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_REWRITE_BYTES) up.destroy(new Error("packument too large to rewrite"));
          else chunks.push(c);
        });
        up.on("error", () => res.destroy());
        up.on("end", () => {
          let body = Buffer.concat(chunks).toString("utf8");
          for (const [from, to] of rewrites) body = body.split(from).join(to);
          const bytes = Buffer.from(body, "utf8");
          delete out["content-length"];
          delete out["transfer-encoding"];
          delete out.etag;
          res.writeHead(up.statusCode ?? 502, { ...out, "content-length": String(bytes.length) });
          res.end(bytes);
        });
      },
    );
    answerFailures(upstream, res);
    upstream.end();
  };

  // A request's head must arrive whole within the idle limit, and the request within twice it: the socket's idle
  // timer restarts on every byte, so a client trickling one header byte at a time held a host socket forever.
  const server = http.createServer(
    {
      headersTimeout: idleMs,
      requestTimeout: 2 * idleMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(idleMs / 4))),
    },
    (req, res) => {
      // A request inside a tunnel to a virtual registry host (below) names only its path: its host is the tunnel's.
      const tunnelled = (req.socket as { retraceVirtualHost?: string }).retraceVirtualHost;
      const absolute =
        tunnelled && req.url?.startsWith("/") ? `http://${tunnelled}${req.url}` : (req.url ?? "");
      const virtual = /^http:\/\//i.test(absolute) ? new URL(absolute) : null;
      const base = virtual ? routes.get(virtual.hostname.toLowerCase()) : undefined;
      if (virtual && base) {
        if (!passed.includes(virtual.hostname)) passed.push(virtual.hostname);
        route(req, res, base, virtual);
        return;
      }
      const target = req.url && /^http:\/\//i.test(req.url) ? hostPort(req.url) : null;
      if (!target || !permit(target)) {
        res.writeHead(403, { "content-type": "text/plain", connection: "close" });
        res.end(`retrace install proxy: ${target ?? "this request"} is not an allowed registry\n`);
        return;
      }
      counts.requests++;
      const url = new URL(req.url!);
      const headers = { ...req.headers };
      delete headers["proxy-connection"];
      delete headers["proxy-authorization"];
      addressFor(target).then(
        (address) => {
          const upstream = http.request(
            {
              host: address,
              port: url.port || 80,
              method: req.method,
              path: `${url.pathname}${url.search}`,
              headers,
              timeout: idleMs,
            },
            (up) => {
              res.writeHead(up.statusCode ?? 502, up.headers);
              up.pipe(res);
            },
          );
          answerFailures(upstream, res);
          req.pipe(upstream);
        },
        (e: NodeJS.ErrnoException) => {
          if (e.code !== "EINTERNAL") counts.upstreamErrors++;
          res.writeHead(e.code === "EINTERNAL" ? 403 : 502, {
            "content-type": "text/plain",
            connection: "close",
          });
          res.end(e.code === "EINTERNAL" ? `retrace install proxy: ${e.message}\n` : "");
        },
      );
    },
  );
  server.on("connection", (s) => {
    track(s);
    s.setTimeout(idleMs, () => s.destroy());
  });
  server.on("connect", (req, client: Duplex, head) => {
    // A client that tunnels plain HTTP too (undici's ProxyAgent: pnpm 11's fetch) to a virtual registry host on
    // port 80: the tunnel is answered here, and the requests inside it are served as routed requests (their
    // host is the tunnel's; nothing is relayed as bytes).
    const tunnelHost = /^([^:/\s]+):80$/.exec(req.url ?? "")?.[1]?.toLowerCase();
    if (tunnelHost && routes.has(tunnelHost)) {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      (client as { retraceVirtualHost?: string }).retraceVirtualHost = tunnelHost;
      if (head.length > 0) client.unshift(head);
      server.emit("connection", client);
      return;
    }
    const target = hostPort(`https://${req.url ?? ""}`);
    // CONNECT names host:port; a port-less or malformed target is refused like a disallowed one.
    if (!target || !/:\d+$/.test(req.url ?? "") || !permit(target)) {
      client.end("HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n");
      return;
    }
    const port = Number(target.split(":").pop());
    counts.tunnels++;
    const upstream = new net.Socket();
    addressFor(target).then(
      (address) => upstream.connect({ host: address, port }),
      (error: Error) => upstream.destroy(error),
    );
    track(upstream);
    upstream.setTimeout(idleMs, () => upstream.destroy());
    let open = false;
    upstream.on("connect", () => {
      open = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EINTERNAL") {
        if (client.writable) client.end("HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n");
        return;
      }
      counts.upstreamErrors++;
      if (process.env.RETRACE_PROXY_DEBUG)
        process.stderr.write(`proxy: ${target} ${open ? "open" : "connecting"} ${e.code ?? e.message}\n`);
      // Once the tunnel is open its bytes are the client's TLS stream: never write a status line into it.
      if (!open && client.writable) client.end("HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n");
      else client.destroy();
    });
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
  });

  // Each open connection holds a host file descriptor in Retrace's process: a compromised npm or pip in the
  // install container opened 2,299 idle ones (twelfth red team). npm keeps at most 15 sockets per host.
  server.maxConnections = MAX_PROXY_CONNECTIONS;
  const socketDir = await mkdtemp(path.join(os.tmpdir(), "retrace-proxy-"));
  const socketPath = path.join(socketDir, "proxy.sock");
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  // The container's unprivileged user must traverse the directory and write to the socket; nothing else is in it.
  await chmod(socketDir, 0o755);
  await chmod(socketPath, 0o666);
  return {
    socketDir,
    refused: () => [...refused],
    allowed: () => [...passed],
    stats: () => ({ ...counts }),
    async close() {
      for (const s of sockets) s.destroy();
      httpsAgent.destroy();
      httpAgent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}
