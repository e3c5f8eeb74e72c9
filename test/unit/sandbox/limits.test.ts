import { describe, expect, it } from "vitest";
import { imageVolumes } from "../../../src/sandbox/docker.ts";
import {
  clampLimits,
  DEFAULT_LIMITS,
  hostMemoryMb,
  MAX_LIMITS,
  maxMemoryMb,
  operatorMaxLimits,
  resolveLimits,
  TEST_RUN_LIMITS,
  testRunMemoryMb,
} from "../../../src/sandbox/limits.ts";

const GiB = 1024 * 1024 * 1024;

describe("sandbox limits", () => {
  it("a test run's memory is a runner's: half the host's, 2-8 GiB, within the host's default maximum", () => {
    // GitHub's hosted runners: 7 GB (private), 16 GB (public); a small VM; a large build host.
    expect(testRunMemoryMb(7 * 1024)).toBe(3_584);
    expect(testRunMemoryMb(16 * 1024)).toBe(8_192);
    expect(testRunMemoryMb(2 * 1024)).toBe(2_048);
    expect(testRunMemoryMb(256 * 1024)).toBe(8_192);
    expect(maxMemoryMb(7 * 1024)).toBe(5_376);
    expect(maxMemoryMb(16 * 1024)).toBe(12_288);
    expect(maxMemoryMb(2 * 1024)).toBe(4_096);
    expect(maxMemoryMb(1024 * 1024)).toBe(65_536);
    for (const host of [1_024, 4_096, 7_168, 16_384, 24_105, 262_144])
      expect(testRunMemoryMb(host)).toBeLessThanOrEqual(maxMemoryMb(host));
    // A cgroup limit smaller than the machine is the host's memory; "unlimited" (a huge value or 0) is not.
    expect(hostMemoryMb(16 * GiB, 4 * GiB)).toBe(4_096);
    expect(hostMemoryMb(16 * GiB, 0)).toBe(16_384);
    expect(hostMemoryMb(16 * GiB, 2 ** 63)).toBe(16_384);
    expect(TEST_RUN_LIMITS.memoryMb).toBe(testRunMemoryMb());
    expect(MAX_LIMITS.memoryMb).toBe(maxMemoryMb());
  });

  it("merges overrides over defaults", () => {
    expect(resolveLimits(DEFAULT_LIMITS, { timeoutMs: 5_000, memoryMb: undefined })).toMatchObject({
      timeoutMs: 5_000,
      memoryMb: DEFAULT_LIMITS.memoryMb,
    });
  });
  it.each([
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ memoryMb: 1 }, /memoryMb/],
    [{ pids: 1.5 }, /pids/],
    [{ cpus: -1 }, /cpus/],
    [{ workspaceMb: 60_000, memoryMb: 64 }, /charged to the memory limit/],
  ])("rejects %j with a message naming the limit", (overrides, message) => {
    expect(() => resolveLimits(DEFAULT_LIMITS, overrides)).toThrow(message);
  });
});

describe("the host's maxima over a repository's limits", () => {
  it("lowers each limit above its maximum and names it; others pass unchanged", () => {
    const r = clampLimits({ memoryMb: 65_536, pids: 64, timeoutMs: 3_600_000 }, MAX_LIMITS);
    expect(r.limits).toEqual({ memoryMb: MAX_LIMITS.memoryMb, pids: 64, timeoutMs: MAX_LIMITS.timeoutMs });
    expect(r.clamped).toEqual([
      `memoryMb 65536 → ${MAX_LIMITS.memoryMb}`,
      `timeoutMs 3600000 → ${MAX_LIMITS.timeoutMs}`,
    ]);
  });

  it("resolveLimits with maxima clamps before validating (a too-large value is lowered, a nonsense one still refused)", () => {
    expect(resolveLimits(DEFAULT_LIMITS, { memoryMb: 1_000_000 }, MAX_LIMITS).memoryMb).toBe(
      MAX_LIMITS.memoryMb,
    );
    expect(() => resolveLimits(DEFAULT_LIMITS, { memoryMb: 0 }, MAX_LIMITS)).toThrow(/memoryMb/);
  });

  it("reads RETRACE_SANDBOX_MAX_LIMITS and refuses malformed or out-of-range items", () => {
    expect(operatorMaxLimits({ RETRACE_SANDBOX_MAX_LIMITS: "memoryMb=8192, pids=2048" })).toMatchObject({
      memoryMb: 8_192,
      pids: 2_048,
      timeoutMs: MAX_LIMITS.timeoutMs,
    });
    expect(() => operatorMaxLimits({ RETRACE_SANDBOX_MAX_LIMITS: "memory=8192" })).toThrow(/invalid item/);
    expect(() => operatorMaxLimits({ RETRACE_SANDBOX_MAX_LIMITS: "pids=1" })).toThrow(/pids/);
  });

  it("a VOLUME path becomes a tmpfs; a path a tmpfs cannot take is refused", () => {
    expect(
      imageVolumes("i", { Config: { Volumes: { "/data": {}, "/var/lib/x/": {}, "/tmp": {} } } }),
    ).toEqual(["/data", "/var/lib/x"]);
    expect(imageVolumes("i", { Config: { Volumes: null } })).toEqual([]);
    for (const bad of ["/", "relative", "/a,b", "/a:b", "/a/../etc"])
      expect(() => imageVolumes("i", { Config: { Volumes: { [bad]: {} } } })).toThrow(/declares a VOLUME/);
  });
});
