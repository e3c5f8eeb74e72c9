import { describe, expect, it } from "vitest";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { FixJobSpec, ReproJobSpec } from "../../../src/core/job.ts";
import { DEFAULT_FAST_MODEL, DEFAULT_STRONG_MODEL } from "../../../src/llm/pricing.ts";
import { DockerSandbox } from "../../../src/sandbox/docker.ts";
import { createJobSandbox, fixSettings, resolveJobSettings } from "../../../src/jobs/settings.ts";
import { testRunMemoryMb } from "../../../src/sandbox/limits.ts";

const repro = (over: Record<string, unknown> = {}) =>
  ReproJobSpec.parse({ kind: "repro", id: "r1", markdown: "# x", budget: {}, ...over });
const fix = (over: Record<string, unknown> = {}) =>
  FixJobSpec.parse({ kind: "fix", id: "f1", budget: {}, ...over });
const config = (yaml: Record<string, unknown>) => RetraceConfig.parse(yaml);

describe("resolveJobSettings: one place, spec > overrides > repository config > environment > defaults", () => {
  it("gives both kinds the built-in defaults without a config (escalation: 2 for fixes, 1 for reproductions)", () => {
    expect(resolveJobSettings(fix(), { env: {} }).models).toEqual({
      fast: DEFAULT_FAST_MODEL,
      strong: DEFAULT_STRONG_MODEL,
      escalateAfter: 2,
    });
    expect(resolveJobSettings(repro(), { env: {} }).models).toEqual({
      fast: DEFAULT_FAST_MODEL,
      strong: DEFAULT_STRONG_MODEL,
      escalateAfter: 1,
    });
  });

  it("applies model.default, model.strong, model.escalateAfter and model.maxOutputTokens to reproductions too", () => {
    const c = config({
      model: { default: "m-fast", strong: "m-strong", escalateAfter: 3, maxOutputTokens: 1024 },
    });
    for (const spec of [repro({ model: "default" }), fix()]) {
      const s = resolveJobSettings(spec, { config: c, env: {} });
      expect(s.models).toEqual({ fast: "m-fast", strong: "m-strong", escalateAfter: 3 });
      expect(s.maxOutputTokens).toBe(1024);
    }
  });

  it("lets a spec's model win over the flags, and the flags over the config", () => {
    const c = config({ model: { default: "cfg-fast", strong: "cfg-strong" } });
    const overrides = { model: "flag-fast", strongModel: "flag-strong" };
    expect(resolveJobSettings(fix(), { config: c, env: {}, overrides }).models).toMatchObject({
      fast: "flag-fast",
      strong: "flag-strong",
    });
    expect(
      resolveJobSettings(fix({ model: "spec-fast", strongModel: "spec-strong" }), {
        config: c,
        env: {},
        overrides,
      }).models,
    ).toMatchObject({ fast: "spec-fast", strong: "spec-strong" });
  });

  it("chooses a fix's test command: --test, then fix.testCommand, then the failing workflow step, else detection", () => {
    const log = [
      "2026-01-01T00:00:00.0000000Z ##[group]Run npm ci",
      "2026-01-01T00:00:00.0000000Z npm ci",
      "2026-01-01T00:00:00.0000000Z ##[endgroup]",
      "2026-01-01T00:00:01.0000000Z ##[group]Run npx vitest run",
      "2026-01-01T00:00:01.0000000Z npx vitest run",
      "2026-01-01T00:00:01.0000000Z ##[endgroup]",
      "2026-01-01T00:00:02.0000000Z  FAIL  test/a.test.ts > adds",
      "2026-01-01T00:00:03.0000000Z ##[error]Process completed with exit code 1.",
    ].join("\n");
    const configured = config({ fix: { testCommand: "make check" } });
    expect(
      resolveJobSettings(fix({ log }), {
        config: configured,
        env: {},
        overrides: { testCommand: "pytest -x" },
      }).testCommand,
    ).toEqual({ command: "pytest -x", source: "--test" });
    expect(resolveJobSettings(fix({ log }), { config: configured, env: {} }).testCommand).toEqual({
      command: "make check",
      source: "fix.testCommand",
    });
    expect(resolveJobSettings(fix({ log }), { env: {} }).testCommand?.source).toBe(
      "the failing workflow step",
    );
    expect(resolveJobSettings(fix(), { env: {} }).testCommand).toBeNull();
    expect(resolveJobSettings(repro(), { config: configured, env: {} }).testCommand).toBeNull();
  });

  it("takes the sandbox image from the repository only when the operator allows it, and lowers its limits", () => {
    const c = config({ sandbox: { image: "acme/box:2", limits: { memoryMb: 8_000, timeoutMs: 60_000 } } });
    const max = { RETRACE_SANDBOX_MAX_LIMITS: "memoryMb=4096" };
    expect(() => resolveJobSettings(fix(), { config: c, env: {} })).toThrow(/not an image this host allows/);
    const s = resolveJobSettings(fix(), {
      config: c,
      env: { RETRACE_SANDBOX_IMAGES: "acme/box:2", RETRACE_SANDBOX_IMAGE: "host/box:1", ...max },
    });
    expect(s.sandbox.image).toBe("acme/box:2");
    expect(s.sandbox.limits.timeoutMs).toBe(60_000);
    expect(s.sandbox.limits.memoryMb).toBe(4_096);
    expect(s.sandbox.maxLimits.memoryMb).toBe(4_096);
    expect(s.sandbox.notes.join(" ")).toMatch(/lowered: memoryMb/);
    expect(resolveJobSettings(fix(), { env: { RETRACE_SANDBOX_IMAGE: "host/box:1" } }).sandbox.image).toBe(
      "host/box:1",
    );
  });

  it("a fix job's runs are test-suite runs: TEST_RUN_LIMITS under the repository's limits, within the host's maxima", () => {
    const s = resolveJobSettings(fix(), { env: {} });
    expect(s.sandbox.limits).toMatchObject({ timeoutMs: 600_000, memoryMb: testRunMemoryMb(), pids: 512 });
    // A runner's memory: half the host's, 2-8 GiB, never above the host's maximum.
    expect(s.sandbox.limits.memoryMb).toBeGreaterThanOrEqual(2_048);
    expect(s.sandbox.limits.memoryMb).toBeLessThanOrEqual(Math.min(8_192, s.sandbox.maxLimits.memoryMb));
    expect(s.sandbox.limits.cpus).toBe(Math.min(2, s.sandbox.maxLimits.cpus));
    expect(fixSettings(config({}), { env: {} }).sandbox.limits.timeoutMs).toBe(600_000);
    // The repository's own limits win over the test-run defaults.
    const own = resolveJobSettings(fix(), {
      config: config({ sandbox: { limits: { timeoutMs: 90_000 } } }),
      env: {},
    });
    expect(own.sandbox.limits).toMatchObject({ timeoutMs: 90_000, memoryMb: testRunMemoryMb() });
    const ownMemory = resolveJobSettings(fix(), {
      config: config({ sandbox: { limits: { memoryMb: 1_536 } } }),
      env: {},
    });
    expect(ownMemory.sandbox.limits.memoryMb).toBe(1_536);
    // The operator's maxima lower the defaults too.
    const capped = resolveJobSettings(fix(), {
      env: { RETRACE_SANDBOX_MAX_LIMITS: "timeoutMs=120000,memoryMb=1024" },
    });
    expect(capped.sandbox.limits).toMatchObject({ timeoutMs: 120_000, memoryMb: 1_024 });
    // A reproduction runs a snippet: the driver's defaults, no test-run defaults.
    expect(resolveJobSettings(repro(), { env: {} }).sandbox.limits).toEqual({});
  });

  it("builds the one Docker sandbox with the settings' image, limits and the host's maxima", () => {
    const s = resolveJobSettings(fix(), {
      config: config({ sandbox: { limits: { pids: 64, timeoutMs: 45_000 } } }),
      env: { RETRACE_SANDBOX_IMAGE: "host/box:1" },
    });
    const box = createJobSandbox(s.sandbox) as DockerSandbox;
    expect(box).toBeInstanceOf(DockerSandbox);
    expect(box.image).toBe("host/box:1");
    expect(box.defaults).toMatchObject({ pids: 64, timeoutMs: 45_000 });
    expect(box.maxLimits).toEqual(s.sandbox.maxLimits);
  });

  it("repro settings: the CLI's --timeout over repro.runTimeoutMs, the rest from the config", () => {
    const c = config({ repro: { runTimeoutMs: 20_000, installTimeoutMs: 90_000, compareLatest: false } });
    expect(resolveJobSettings(repro(), { config: c, env: {} }).repro).toMatchObject({
      runTimeoutMs: 20_000,
      installTimeoutMs: 90_000,
      compareLatest: false,
    });
    expect(
      resolveJobSettings(repro(), { config: c, env: {}, overrides: { runTimeoutMs: 5_000 } }).repro
        .runTimeoutMs,
    ).toBe(5_000);
    // The CLI's --install-timeout over repro.installTimeoutMs (an install stopped at its limit says to raise it).
    const raised = resolveJobSettings(repro(), {
      config: c,
      env: {},
      overrides: { installTimeoutMs: 600_000 },
    }).repro;
    expect(raised).toMatchObject({ installTimeoutMs: 600_000, runTimeoutMs: 20_000 });
  });

  it("fixSettings: verify's settings without a job spec", () => {
    const s = fixSettings(config({ fix: { testCommand: "npm test" } }), { env: {} });
    expect(s.testCommand).toEqual({ command: "npm test", source: "fix.testCommand" });
    expect(fixSettings(config({}), { testCommand: "pytest", env: {} }).testCommand).toEqual({
      command: "pytest",
      source: "--test",
    });
  });
});
