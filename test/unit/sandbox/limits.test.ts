import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, resolveLimits } from "../../../src/sandbox/limits.ts";

describe("sandbox limits", () => {
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
