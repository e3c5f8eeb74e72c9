/**
 * undici's ProxyAgent (pnpm 11's fetch) tunnels plain-HTTP requests too: a CONNECT to the virtual registry host on
 * port 80 is answered by the proxy itself, and the requests inside that tunnel are routed to the configured
 * registry like the absolute-form ones npm sends. A tunnel to any other host stays refused, and a request inside
 * a virtual tunnel that names another host in absolute form is checked like any other (refused).
 */
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startEgressProxy, VIRTUAL_NPM_HOST } from "../../../src/install/proxy.ts";
import { type LocalRegistry, startLocalRegistry } from "../../integration/install/local-registry.ts";

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startLocalRegistry([{ name: "leaf", version: "1.0.0" }]);
});
afterAll(() => registry?.close());

/** Opens a CONNECT tunnel through the proxy's socket, then sends `request`; returns what came back after `ms`. */
async function throughTunnel(
  sock: string,
  target: string,
  request: string,
): Promise<{ connect: string; reply: string }> {
  const s = net.connect(sock);
  let buf = "";
  s.on("data", (d) => {
    buf += d.toString();
  });
  s.on("error", () => undefined);
  s.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  await new Promise((r) => setTimeout(r, 300));
  const connect = buf;
  buf = "";
  if (!s.destroyed) s.write(request);
  await new Promise((r) => setTimeout(r, 700));
  s.destroy();
  return { connect, reply: buf };
}

it("routes requests inside a tunnel to the virtual registry host, and nothing else", async () => {
  const proxy = await startEgressProxy({ allow: [], routes: { [VIRTUAL_NPM_HOST]: registry.url } });
  const sock = path.join(proxy.socketDir, "proxy.sock");
  try {
    const ok = await throughTunnel(
      sock,
      `${VIRTUAL_NPM_HOST}:80`,
      `GET /leaf HTTP/1.1\r\nHost: ${VIRTUAL_NPM_HOST}\r\n\r\n`,
    );
    expect(ok.connect).toMatch(/^HTTP\/1\.1 200/);
    expect(ok.reply).toMatch(/^HTTP\/1\.1 200/);
    expect(ok.reply).toContain('"name":"leaf"');
    expect(registry.requests).toContain("/leaf");
    // Inside the virtual tunnel, an absolute URL to another host is a proxied request like any other: refused.
    const other = await throughTunnel(
      sock,
      `${VIRTUAL_NPM_HOST}:80`,
      `GET http://${registry.host}/leaf HTTP/1.1\r\nHost: ${registry.host}\r\n\r\n`,
    );
    expect(other.reply).toMatch(/^HTTP\/1\.1 403/);
    // A tunnel to the virtual host on another port, or to the registry's real address, is refused.
    for (const target of [`${VIRTUAL_NPM_HOST}:443`, registry.host]) {
      const refused = await throughTunnel(sock, target, "GET /leaf HTTP/1.1\r\nHost: x\r\n\r\n");
      expect(refused.connect).toMatch(/^HTTP\/1\.1 403/);
    }
  } finally {
    await proxy.close();
  }
});
