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
import { chmod, mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import { hostPort } from "./registry-config.ts";

/** Where the socket directory is mounted in the install container. */
export const CONTAINER_PROXY_DIR = "/run/retrace-proxy";
/** The in-container forwarder's port on the container's loopback. */
export const CONTAINER_PROXY_PORT = 3128;
export const CONTAINER_PROXY_URL = `http://127.0.0.1:${CONTAINER_PROXY_PORT}`;

/**
 * Runs as the install container's main process (node is in the image): accept on loopback, relay to the
 * mounted socket. It also keeps the container alive between the install's steps.
 */
export const FORWARDER_SCRIPT = `const net=require("net");net.createServer(c=>{const u=net.connect(${JSON.stringify(`${CONTAINER_PROXY_DIR}/proxy.sock`)});c.on("error",()=>u.destroy());u.on("error",()=>c.destroy());c.pipe(u);u.pipe(c)}).listen(${CONTAINER_PROXY_PORT},"127.0.0.1");`;

export interface EgressProxy {
  /** Host directory holding `proxy.sock`, to mount at CONTAINER_PROXY_DIR. */
  socketDir: string;
  /** `host:port`s refused so far (in order, without repeats). */
  refused(): string[];
  /** `host:port`s let through so far. */
  allowed(): string[];
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  /** `host:port` entries that may be reached. */
  allow: readonly string[];
  /** Idle limit of one tunnel, in ms (default 60 s). */
  idleMs?: number;
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const allow = new Set(options.allow.map((h) => h.toLowerCase()));
  const idleMs = options.idleMs ?? 60_000;
  const refused: string[] = [];
  const passed: string[] = [];
  const sockets = new Set<Duplex>();
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
    if (!refused.includes(t)) refused.push(t);
    return false;
  };

  const server = http.createServer((req, res) => {
    const target = req.url && /^http:\/\//i.test(req.url) ? hostPort(req.url) : null;
    if (!target || !permit(target)) {
      res.writeHead(403, { "content-type": "text/plain", connection: "close" });
      res.end(`retrace install proxy: ${target ?? "this request"} is not an allowed registry\n`);
      return;
    }
    const url = new URL(req.url!);
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = http.request(
      {
        host: url.hostname,
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
    upstream.on("timeout", () => upstream.destroy(new Error("upstream timed out")));
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end();
    });
    req.pipe(upstream);
  });
  server.on("connection", (s) => {
    track(s);
    s.setTimeout(idleMs, () => s.destroy());
  });
  server.on("connect", (req, client: Duplex, head) => {
    const target = hostPort(`https://${req.url ?? ""}`);
    // CONNECT names host:port; a port-less or malformed target is refused like a disallowed one.
    if (!target || !/:\d+$/.test(req.url ?? "") || !permit(target)) {
      client.end("HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n");
      return;
    }
    const [host, port] = [target.slice(0, target.lastIndexOf(":")), Number(target.split(":").pop())];
    const upstream = net.connect({ host, port });
    track(upstream);
    upstream.setTimeout(idleMs, () => upstream.destroy());
    upstream.on("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (client.writable) client.end("HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n");
    });
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
  });

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
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}
