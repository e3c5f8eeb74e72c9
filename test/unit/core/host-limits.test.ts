/**
 * The host's maxima are the operator's (`RETRACE_HOST_LIMITS`, issue 14's leftover): defaults unchanged, every
 * malformed value a configuration error naming the variable (exit code 2), and each consumer honouring the value
 * in force — read from Retrace's environment, never from a repository's config, which can only ask for less.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRepoConfigFile } from "../../../src/config/load.ts";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { ConfigError } from "../../../src/core/errors.ts";
import {
  DEFAULT_HOST_LIMITS,
  HOST_LIMIT_RANGES,
  HOST_LIMITS_ENV,
  hostLimits,
  parseHostLimits,
} from "../../../src/core/host-limits.ts";
import { MAX_COLLECT_BYTES, maxCollectMib } from "../../../src/core/ports/sandbox.ts";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { operatorTarballLimits } from "../../../src/github/tarball.ts";
import { checkPackageJson, REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import { resolveJobSettings } from "../../../src/jobs/settings.ts";
import { readReport } from "../../../src/repro/context.ts";
import { startLocalRegistry } from "../../integration/install/local-registry.ts";

let saved: string | undefined;
let dir: string;
beforeEach(() => {
  saved = process.env[HOST_LIMITS_ENV];
  delete process.env[HOST_LIMITS_ENV];
  dir = mkdtempSync(path.join(os.tmpdir(), "retrace-host-limits-"));
});
afterEach(() => {
  if (saved === undefined) delete process.env[HOST_LIMITS_ENV];
  else process.env[HOST_LIMITS_ENV] = saved;
  rmSync(dir, { recursive: true, force: true });
});
const set = (text: string) => {
  process.env[HOST_LIMITS_ENV] = text;
};

describe("RETRACE_HOST_LIMITS", () => {
  it("unset or empty: the defaults, which are the old constants", () => {
    expect(parseHostLimits(undefined)).toEqual(DEFAULT_HOST_LIMITS);
    expect(parseHostLimits("  ")).toEqual(DEFAULT_HOST_LIMITS);
    expect(DEFAULT_HOST_LIMITS).toMatchObject({
      workspaceGlobs: 100,
      workspaceDirs: 1_000,
      collectMb: 64,
      lookupConcurrency: 4,
      configKb: 64,
      reportChars: 65_536,
      parseTimeMs: 1_800,
    });
    expect(MAX_COLLECT_BYTES).toBe(64 * 1024 * 1024);
    for (const [name, [min, max]] of Object.entries(HOST_LIMIT_RANGES)) {
      const d = DEFAULT_HOST_LIMITS[name as keyof typeof DEFAULT_HOST_LIMITS];
      expect(d >= min && d <= max, name).toBe(true);
    }
  });

  it("name=value pairs override their names only", () => {
    expect(parseHostLimits("workspaceGlobs=500, collectMb=256,lookupConcurrency=8")).toEqual({
      ...DEFAULT_HOST_LIMITS,
      workspaceGlobs: 500,
      collectMb: 256,
      lookupConcurrency: 8,
    });
    expect(parseHostLimits("reportChars=1_000_000").reportChars).toBe(1_000_000);
  });

  it.each([
    ["workspaceGlob=5", /invalid item "workspaceGlob=5"/],
    ["workspaceGlobs", /invalid item/],
    ["workspaceGlobs=-1", /invalid item/],
    ["workspaceGlobs=1.5", /invalid item/],
    ["workspaceGlobs=0", /workspaceGlobs=0 is out of range \(an integer from 1 to 100000\)/],
    ["lookupConcurrency=1000", /out of range/],
    ["collectMb=99999999999999999999", /out of range/],
    ["collectMb=8,collectMb=9", /sets collectMb twice/],
    ["toString=1", /invalid item/],
  ])("%s is a configuration error naming the variable (exit code 2)", (text, message) => {
    let error: unknown;
    try {
      parseHostLimits(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(HOST_LIMITS_ENV);
    expect((error as ConfigError).message).toMatch(message);
    expect((error as ConfigError).exitCode).toBe(2);
  });

  it("a job's settings fail on a malformed value before any work", () => {
    const spec = ReproJobSpec.parse({ kind: "repro", id: "x", markdown: "# t", budget: {} });
    expect(() => resolveJobSettings(spec, { env: { [HOST_LIMITS_ENV]: "nope=1" } })).toThrow(
      /RETRACE_HOST_LIMITS has an invalid item/,
    );
  });
});

describe("each maximum is the operator's", () => {
  it("maxPackages: a repository's install.maxPackages is lowered to it, never raised by it", () => {
    const spec = ReproJobSpec.parse({ kind: "repro", id: "x", markdown: "# t", budget: {} });
    const config = RetraceConfig.parse({ install: { maxPackages: 500 } });
    expect(resolveJobSettings(spec, { config, env: {} }).repro.maxPackages).toBe(100);
    expect(
      resolveJobSettings(spec, { config, env: { [HOST_LIMITS_ENV]: "maxPackages=300" } }).repro.maxPackages,
    ).toBe(300);
    expect(
      resolveJobSettings(spec, {
        config: RetraceConfig.parse({}),
        env: { [HOST_LIMITS_ENV]: "maxPackages=5" },
      }).repro.maxPackages,
    ).toBe(5);
    // The default a repository gets is unchanged.
    expect(resolveJobSettings(spec, { env: {} }).repro.maxPackages).toBe(20);
    // A repository's config cannot name a host limit at all.
    expect(() => parseRepoConfig("install:\n  workspaceGlobs: 100000\n")).toThrow(/workspaceGlobs/);
  });

  it("workspaceGlobs: the lockfile policy refuses past it, naming the variable", () => {
    const pkg = { name: "x", workspaces: ["a/*", "b/*", "c/*"] };
    expect(checkPackageJson(pkg, "https://registry.npmjs.org/", REGISTRY_ONLY)).toEqual([]);
    set("workspaceGlobs=2");
    expect(checkPackageJson(pkg, "https://registry.npmjs.org/", REGISTRY_ONLY)[0]?.reason).toMatch(
      /3 workspace globs, more than the 2 Retrace matches \(the operator's RETRACE_HOST_LIMITS workspaceGlobs/,
    );
  });

  it("configKb: the config file cap", async () => {
    mkdirSync(path.join(dir, ".github"));
    writeFileSync(path.join(dir, ".github", "retrace.yml"), `# ${"x".repeat(3000)}\nmodel:\n  default: m\n`);
    expect((await loadRepoConfigFile(dir)).model.default).toBe("m");
    set("configKb=2");
    await expect(loadRepoConfigFile(dir)).rejects.toThrow(
      /over the 2048-byte limit .*RETRACE_HOST_LIMITS configKb/,
    );
  });

  it("reportChars and parseTimeMs: the report the host reads", () => {
    const report = `# t\n\n${"word ".repeat(400)}`;
    expect(readReport(report).unreadable).toBeNull();
    // 7,000 link reference definitions (56,000 characters) cost the markdown parser about 1 s of CPU: 100 ms is
    // not enough. (`[*` repeated, used here before, is now refused by the pre-scan before any parse.)
    set("parseTimeMs=100");
    expect(readReport(`# t\n\n${"[a]: <b\n".repeat(7_000)}`).unreadable).toMatch(/took longer than 100 ms/);
    set("reportChars=1024");
    expect(readReport(report).unreadable).toMatch(
      /over the operator's \(RETRACE_HOST_LIMITS reportChars\) 1024/,
    );
  });

  it("readMb: the workspace port's largest file", async () => {
    writeFileSync(path.join(dir, "big.txt"), "x".repeat(1024 * 1024 + 1));
    const ws = await createFsWorkspace(dir);
    expect((await ws.readFile("big.txt")).length).toBe(1024 * 1024 + 1);
    set("readMb=1");
    await expect(ws.readFile("big.txt")).rejects.toThrow(/RETRACE_HOST_LIMITS readMb/);
  });

  it("collectMb and the App's archive limits follow the value in force", () => {
    expect(maxCollectMib()).toBe(64);
    expect(operatorTarballLimits()).toEqual({ maxEntries: 20_000, maxBytes: 200 * 1024 * 1024 });
    set("collectMb=1,tarballEntries=500,tarballMb=3");
    expect(maxCollectMib()).toBe(1);
    expect(operatorTarballLimits()).toEqual({ maxEntries: 500, maxBytes: 3 * 1024 * 1024 });
    expect(hostLimits().collectMb).toBe(1);
  });

  it("lookupConcurrency: registry look-ups in flight at once", async () => {
    const names = Array.from({ length: 40 }, (_, i) => `pkg${i}`);
    const registry = await startLocalRegistry(
      names.map((name) => ({ name, version: "1.0.0" })),
      { delayMs: 30 },
    );
    try {
      set("lookupConcurrency=2");
      const lookup = createRegistryLookup({
        registryConfig: {
          npm: registry.url,
          pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
          caFile: null,
        },
        cacheDir: null,
      });
      await Promise.all(names.map((n) => lookup.latestVersion("npm", n)));
      expect(registry.maxInFlight).toBe(2);
    } finally {
      await registry.close();
    }
  });
});
