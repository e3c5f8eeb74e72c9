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
    ["ff00::", 8],
  ] as const)
    list.addSubnet(net6, bits, "ipv6");
  return list;
})();

/** A public unicast address (IPv4, IPv6, or IPv4-mapped IPv6 judged by its IPv4 form). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return !INTERNAL.check(mapped[1]!, "ipv4");
  if (net.isIPv4(address)) return !INTERNAL.check(address, "ipv4");
  if (net.isIPv6(address)) return !INTERNAL.check(address, "ipv6");
  return false;
}
