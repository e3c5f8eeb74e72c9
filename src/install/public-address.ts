/**
 * Which addresses are the public internet. Used wherever the host connects somewhere a repository named (the
 * install proxy's repository hosts, the checkout's origin): an internal answer would send the repository's request
 * to the host's own services or its network.
 */
import net from "node:net";

/** Addresses that are not the public internet: loopback, private, link-local, shared, unspecified, multicast. */
const INTERNAL = (() => {
  const list = new net.BlockList();
  for (const [net4, bits] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.0.0.0", 24],
    ["192.168.0.0", 16],
    ["198.18.0.0", 15],
    ["224.0.0.0", 3],
  ] as const)
    list.addSubnet(net4, bits, "ipv4");
  for (const [net6, bits] of [
    ["::", 128],
    ["::1", 128],
    ["fc00::", 7],
    ["fe80::", 10],
    // Site-local (deprecated, still routed inside some networks) and local-use NAT64 (RFC 8215).
    ["fec0::", 10],
    ["64:ff9b:1::", 48],
    ["ff00::", 8],
  ] as const)
    list.addSubnet(net6, bits, "ipv6");
  return list;
})();

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail read as two groups). */
function groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const mid = tail === null ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...mid, ...t].map((g) => Number.parseInt(g, 16));
}
const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries, where a network may deliver it to that IPv4 host: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64's well-known prefix
 * (`64:ff9b::a.b.c.d`) and 6to4 (`2002:aabb:ccdd::`). A NAT64 or 6to4 gateway turns them into a connection to
 * that IPv4 host (wave 18: `64:ff9b::a9fe:a9fe` is the cloud metadata address).
 */
function embeddedIpv4(address: string): string | null {
  const g = groups(address);
  if (g.length !== 8 || g.some((n) => Number.isNaN(n))) return null;
  const zero = (from: number, to: number) => g.slice(from, to).every((n) => n === 0);
  if (zero(0, 5) && g[5] === 0xffff) return dotted(g[6]!, g[7]!);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return dotted(g[6]!, g[7]!);
  if (zero(0, 6) && (g[6]! !== 0 || g[7]! > 1)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x2002) return dotted(g[1]!, g[2]!);
  return null;
}

/** A public unicast address (IPv4, or IPv6 judged also by any IPv4 address it carries). */
export function isPublicAddress(address: string): boolean {
  if (net.isIPv4(address)) return !INTERNAL.check(address, "ipv4");
  if (!net.isIPv6(address)) return false;
  if (INTERNAL.check(address, "ipv6")) return false;
  const v4 = embeddedIpv4(address);
  return v4 === null || !INTERNAL.check(v4, "ipv4");
}
