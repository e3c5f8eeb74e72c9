/**
 * Wave 18's classes as unit rules: IPv6 spellings that carry an internal IPv4 address (NAT64, 6to4, IPv4-compatible
 * and -translated) or name an internal range (site-local, local-use NAT64) are not public; times dated ahead of
 * now (written while the host clock was wrong) are not fresh.
 */
import { describe, expect, it } from "vitest";
import { isPublicAddress } from "../../../src/install/public-address.ts";
import { freshEntries, isFresh } from "../../../src/install/registry-lookup.ts";

describe("isPublicAddress: internal IPv4 inside IPv6", () => {
  it.each([
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "64:ff9b:1::a9fe:a9fe",
    "2002:7f00:1::1",
    "2002:c0a8:101::",
    "::7f00:1",
    "::127.0.0.1",
    "::ffff:0:7f00:1",
    "::ffff:7f00:1",
    "fec0::1",
  ])("%s is internal", (a) => expect(isPublicAddress(a)).toBe(false));
  it.each(["2606:4700::1111", "64:ff9b::808:808", "2002:808:808::1", "::ffff:8.8.8.8", "2a00:1450::1"])(
    "%s is public",
    (a) => expect(isPublicAddress(a)).toBe(true),
  );
});

describe("look-up answers dated ahead", () => {
  const now = 1_800_000_000_000;
  it("are not fresh, and are dropped from the disk cache", () => {
    expect(isFresh(now + 365 * 86_400_000, now, 3_600_000)).toBe(false);
    expect(isFresh(now - 1_000, now, 3_600_000)).toBe(true);
    const kept = freshEntries(
      { a: { version: "1.0.0", at: now - 1_000 }, b: { version: "0.0.1", at: now + 86_400_000 } },
      3_600_000,
      now,
    );
    expect(Object.keys(kept)).toEqual(["a"]);
  });
});
