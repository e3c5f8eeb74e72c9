/**
 * src/core/host-path.ts: the PATH of the programs Retrace starts on the host keeps only absolute entries outside the
 * checkout (twenty-eighth red team: `PATH=:$PATH` or `.` ran a checkout's own `git`), and keeps every legitimate
 * entry as it was, in order.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { FALLBACK_PATH, hostPath, hostPathExclusions, hostSpawnPath } from "../../../src/core/host-path.ts";
import { gitEnv } from "../../../src/git/git-env.ts";

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

describe("hostPathExclusions / hostSpawnPath: the checkout, the working directory and GITHUB_WORKSPACE", () => {
  it("lists the named directories, the working directory and the workspace, absolute ones only, each once", () => {
    expect(hostPathExclusions(["/tmp/npm-x"], "/work/repo", "/home/runner/work/r/r")).toEqual([
      "/tmp/npm-x",
      "/work/repo",
      "/home/runner/work/r/r",
    ]);
    expect(hostPathExclusions(["/work/repo"], "/work/repo", undefined)).toEqual(["/work/repo"]);
    expect(hostPathExclusions([], null, "")).toEqual([]);
    expect(hostPathExclusions(["rel"], "also-rel", "ws")).toEqual([]);
  });

  it("a step's `$GITHUB_WORKSPACE/node_modules/.bin` is dropped although npm runs in its own temporary directory", () => {
    const env = {
      PATH: "/home/runner/work/r/r/node_modules/.bin:/opt/hostedtoolcache/node/20.11.0/x64/bin:/usr/bin",
      GITHUB_WORKSPACE: "/home/runner/work/r/r",
    };
    expect(hostSpawnPath(["/tmp/retrace-npm-1"], env, "/")).toBe(
      "/opt/hostedtoolcache/node/20.11.0/x64/bin:/usr/bin",
    );
  });

  it("the process's working directory is excluded when no GITHUB_WORKSPACE is set (the CLI in a checkout)", () => {
    const env = { PATH: "/work/repo/node_modules/.bin:/usr/local/bin:/usr/bin" };
    expect(hostSpawnPath([], env, "/work/repo")).toBe("/usr/local/bin:/usr/bin");
  });

  it("counter-example: the CLI started from the home directory (or above it) keeps a toolchain installed below it", () => {
    const value = "/home/dev/.nvm/versions/node/v20.11.0/bin:/home/dev/.cargo/bin:/usr/bin";
    expect(hostSpawnPath([], { PATH: value, HOME: "/home/dev" }, "/home/dev")).toBe(value);
    expect(hostSpawnPath([], { PATH: value, HOME: "/home/dev" }, "/home")).toBe(value);
    // A checkout below the home directory is still excluded.
    expect(
      hostSpawnPath(
        [],
        { PATH: `/home/dev/repo/node_modules/.bin:${value}`, HOME: "/home/dev" },
        "/home/dev/repo",
      ),
    ).toBe(value);
  });

  it("counter-examples: the runner's tool cache, a sibling of the workspace and a working directory at / stay", () => {
    const value =
      "/home/runner/work/_tool/go/1.22/x64/bin:/home/runner/work/r/r-tools/bin:/usr/local/bin:/usr/bin";
    expect(hostSpawnPath([], { PATH: value, GITHUB_WORKSPACE: "/home/runner/work/r/r" }, "/")).toBe(value);
    expect(hostSpawnPath(["/tmp/pack"], { PATH: value }, null)).toBe(value);
  });
});

describe("a host spawn's PATH (gitEnv) excludes GITHUB_WORKSPACE and the process's working directory", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  it("drops both although git runs in another directory", () => {
    vi.stubEnv("GITHUB_WORKSPACE", "/home/runner/work/r/r");
    vi.stubEnv("PATH", `/home/runner/work/r/r/node_modules/.bin:${process.cwd()}/node_modules/.bin:/usr/bin`);
    expect(gitEnv({}, "/tmp/retrace-clone-1").PATH).toBe("/usr/bin");
  });
});
