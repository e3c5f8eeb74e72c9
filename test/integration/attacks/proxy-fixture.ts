/**
 * The install proxy as the waves attack it: Retrace's egress proxy with one allowed registry on loopback, on its Unix
 * socket, torn down after `use`; and the host's open file descriptors, what a flood of its connections costs.
 */
import { readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startEgressProxy, VIRTUAL_NPM_HOST } from "../../../src/install/proxy.ts";

export async function withProxy<T>(use: (socket: string) => Promise<T>): Promise<T> {
  const registry = http.createServer((_req, res) => res.end("{}"));
  await new Promise<void>((r) => registry.listen(0, "127.0.0.1", r));
  const regPort = (registry.address() as AddressInfo).port;
  const proxy = await startEgressProxy({
    allow: [`127.0.0.1:${regPort}`],
    routes: { [VIRTUAL_NPM_HOST]: `http://127.0.0.1:${regPort}/` },
    repositoryHosts: [],
    idleMs: 5_000,
  });
  try {
    return await use(path.join(proxy.socketDir, "proxy.sock"));
  } finally {
    await proxy.close();
    registry.closeAllConnections();
    registry.close();
  }
}

export function openFds(): number {
  return readdirSync("/proc/self/fd").length;
}
