/**
 * src/core/host-path.ts: the PATH of the programs Retrace starts on the host keeps only absolute entries outside the
 * checkout (twenty-eighth red team: `PATH=:$PATH` or `.` ran a checkout's own `git`), and keeps every legitimate
 * entry as it was, in order.
 */
import { describe, expect, it } from "vitest";
import { FALLBACK_PATH, hostPath } from "../../../src/core/host-path.ts";

describe("hostPath", () => {
  it.each([
    [":/usr/local/bin:/usr/bin", "/usr/local/bin:/usr/bin"],
    ["/usr/bin::/bin", "/usr/bin:/bin"],
    ["/usr/bin:", "/usr/bin"],
    [".:/usr/bin", "/usr/bin"],
    ["node_modules/.bin:./bin:../tools:/usr/bin", "/usr/bin"],
    ["~/bin:/usr/bin", "/usr/bin"],
  ])("drops empty and relative entries of %j", (value, want) => {
    expect(hostPath(value)).toBe(want);
  });

  it("drops entries at or under a directory it is told to exclude (the checkout)", () => {
    expect(
      hostPath("/work/repo/node_modules/.bin:/work/repo:/work/repo/./bin/../bin:/usr/bin", ["/work/repo"]),
    ).toBe("/usr/bin");
  });

  it("keeps legitimate entries, in order: siblings named like the checkout, the toolchains a runner adds", () => {
    const value =
      "/opt/hostedtoolcache/node/20.11.0/x64/bin:/work/repo-tools/bin:/usr/local/bin:/usr/bin:/bin";
    expect(hostPath(value, ["/work/repo"])).toBe(value);
  });

  it("keeps the first of repeated entries and never empties to nothing", () => {
    expect(hostPath("/usr/bin:/bin:/usr/bin")).toBe("/usr/bin:/bin");
    expect(hostPath("")).toBe(FALLBACK_PATH);
    expect(hostPath(undefined)).toBe(FALLBACK_PATH);
    expect(hostPath(".:bin")).toBe(FALLBACK_PATH);
  });

  it("a checkout at the file system's root excludes nothing (every entry would be under it)", () => {
    expect(hostPath("/usr/bin:/bin", ["/"])).toBe("/usr/bin:/bin");
  });
});
