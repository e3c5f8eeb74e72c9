/**
 * Where the host's git may fetch a checkout's origin from, and the address it connects to. A checkout's
 * `remote.origin.url` is the checkout's own file: it can name a repository on this host, or a server whose name
 * resolves to loopback or a private address, which only the host reaches. And a name checked once and looked up
 * again by git is a DNS-rebinding window: a name server of the attacker's answers a public address to the check
 * and `127.0.0.1` to git a moment later. So the name is resolved once, here, the answer judged, and git is pinned
 * to that answer (`http.curloptResolve` for https, ssh's `HostName` for ssh): git never resolves it again.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPublicAddress } from "../install/public-address.ts";
import { gitAtLeast } from "./git-env.ts";

/** Resolves a host name to its addresses (the system resolver by default; a test passes its own). */
export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/** What a fetch from an origin may do: refused with the reason, or run with this configuration (the pin). */
export type OriginAccess = { refused: string } | { config: [string, string][] };

/** Whether an origin URL names a repository on this host (a path or `file://`) rather than an https/ssh server. */
export function isLocalOrigin(url: string): boolean {
  if (/^file:/i.test(url)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return false;
  // scp-like `host:path` (a colon before any slash), but not a Windows drive.
  return !(/^[^/]*:/.test(url) && !/^[A-Za-z]:[\\/]/.test(url));
}

/**
 * Whether the host's git may fetch from `url`, and pinned to which address. An https or ssh origin whose host is
 * loopback, private, link-local or `localhost` (by its literal address or by what its name resolves to) is
 * refused: the operator names internal git hosts in `RETRACE_PRIVATE_SOURCE_HOSTS` (`host` or `host:port`). A name
 * that does not resolve is refused too (a rebinding server can fail the check's look-up and answer git's). A
 * local path is the operator's own checkout outside Actions and is not judged here (`isLocalOrigin`; in the
 * Action the fetch names the job's repository instead).
 */
export async function originAccess(
  url: string,
  privateHosts: readonly string[],
  resolve: Resolve = systemResolve,
): Promise<OriginAccess> {
  let host: string;
  let port = "";
  let scheme: "https" | "ssh";
  const scp = /^(?:[^@/:]+@)?(\[[^\]]+\]|[^:/]+):(?!\/\/)/.exec(url);
  if (/^(https|ssh):\/\//i.test(url)) {
    try {
      const u = new URL(url);
      host = u.hostname;
      port = u.port;
      scheme = u.protocol === "https:" ? "https" : "ssh";
    } catch {
      return { refused: `the checkout's origin ${JSON.stringify(url)} is not a URL` };
    }
  } else if (scp && !/^[A-Za-z]:/.test(url)) {
    host = scp[1]!;
    scheme = "ssh";
  } else return { config: [] };
  host = host.replace(/^\[|\]$/g, "").toLowerCase();
  const allowed = privateHosts.includes(host) || (port !== "" && privateHosts.includes(`${host}:${port}`));
  const why = `the checkout's origin ${JSON.stringify(url)} is on a loopback or private address; Retrace's git does not connect there (list the host in RETRACE_PRIVATE_SOURCE_HOSTS to allow it)`;
  if (isIP(host)) return allowed || isPublicAddress(host) ? { config: [] } : { refused: why };
  // A name goes into ssh's command line and curl's resolve list: letters, digits, dots and hyphens only.
  if (!/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/.test(host))
    return { refused: `the checkout's origin ${JSON.stringify(url)} names a host that is not a DNS name` };
  if (!allowed && (host === "localhost" || host.endsWith(".localhost"))) return { refused: why };
  const addresses = await resolve(host).catch(() => [] as string[]);
  // The operator's own internal host: its name is the operator's, git may resolve it.
  if (allowed && addresses.length === 0) return { config: [] };
  if (addresses.length === 0)
    return {
      refused: `the checkout's origin ${JSON.stringify(url)} names ${host}, which does not resolve; Retrace's git fetches only from an address it has checked`,
    };
  const internal = addresses.find((a) => !isPublicAddress(a));
  if (internal && !allowed) return { refused: `${why} (${host} resolves to ${internal})` };
  const address = addresses[0]!;
  if (scheme === "ssh")
    // HostName beats ssh's own look-up and the user's ssh config; HostKeyAlias keeps the known_hosts check on the
    // name, as before.
    return {
      config: [["core.sshCommand", `ssh -o BatchMode=yes -o HostName=${address} -o HostKeyAlias=${host}`]],
    };
  // git 2.37 added http.curloptResolve; an older git ignores the key, so the pin would silently not hold.
  if (!(await gitAtLeast(2, 37)))
    return {
      refused: `the checkout's origin ${JSON.stringify(url)} names ${host}: pinning git's connection to the address Retrace checked needs git 2.37 or newer (http.curloptResolve); upgrade git on the host that runs Retrace`,
    };
  const pinned = address.includes(":") ? `[${address}]` : address;
  return { config: [["http.curloptResolve", `${host}:${port || "443"}:${pinned}`]] };
}
