/**
 * The source policy over lockfiles and package.json. Cases are the shapes of the hostile inputs of issue 14
 * (a git dependency, git+file:// to a host repository, a link entry climbing to `/`, a tarball URL on another
 * host, a workspace glob outside the root) and ordinary lockfiles written by npm 9–11 (with and without
 * `resolved`, a registry mirror, bundled dependencies, workspaces), each with the answer decided by reading it.
 */
import { describe, expect, it } from "vitest";
import {
  checkNpmLockfile,
  checkPackageJson,
  describeProblem,
  escapes,
  REGISTRY_ONLY,
  sourceKind,
} from "../../../src/install/lockfile-policy.ts";

const REG = "https://registry.npmjs.org/";
const MIRROR = "http://127.0.0.1:4873/";
const integrity =
  "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==";
const lock = (packages: Record<string, unknown>) => ({
  lockfileVersion: 3,
  packages: { "": {}, ...packages },
});

describe("sourceKind", () => {
  it.each([
    ["1.2.3", "registry"],
    ["https://registry.npmjs.org/ms/-/ms-2.1.3.tgz", "registry"],
    [`${MIRROR}ms/-/ms-2.1.3.tgz`, "registry"],
    ["https://registry.npmjs.org/../evil/x.tgz", "remote"],
    ["https://evil.example/ms-2.1.3.tgz", "remote"],
    ["http://127.0.0.1:9999/x.tgz", "remote"],
    ["git+https://github.com/a/b.git#abc", "git"],
    ["git+file:///root/secret-repo#abc", "git"],
    ["git+ssh://git@github.com/a/b.git", "git"],
    ["github:a/b", "git"],
    ["a/b#main", "git"],
    ["https://github.com/a/b.git", "git"],
    ["file:vendor/x-1.0.0.tgz", "file"],
    ["file:../../../../../", "escape"],
    ["link:/etc", "escape"],
    ["../sibling", "escape"],
    ["ftp://x/y.tgz", "remote"],
  ])("%s → %s", (spec, kind) => {
    expect(sourceKind(spec, MIRROR)).toBe(kind);
  });

  it("escapes: climbing above the root, absolute and home paths", () => {
    expect(escapes("packages/a")).toBe(false);
    expect(escapes("packages/../a")).toBe(false);
    expect(escapes("packages/../../a")).toBe(true);
    expect(escapes("/etc")).toBe(true);
    expect(escapes("~/x")).toBe(true);
    expect(escapes("../../../../../**")).toBe(true);
  });
});

describe("checkNpmLockfile", () => {
  it("accepts registry entries with integrity, with or without `resolved`, and bundled entries without", () => {
    const l = lock({
      "node_modules/ms": { version: "2.1.3", integrity },
      "node_modules/debug": { version: "4.3.4", resolved: `${REG}debug/-/debug-4.3.4.tgz`, integrity },
      "node_modules/debug/node_modules/x": { version: "1.0.0", inBundle: true },
    });
    expect(checkNpmLockfile(l, MIRROR, REGISTRY_ONLY)).toEqual([]);
  });

  it("refuses a git dependency naming the entry and install.allowGit; allows it when set", () => {
    const l = lock({
      "node_modules/evil": { version: "1.0.0", resolved: "git+http://127.0.0.1:9418/evil.git#0123abcd" },
    });
    const problems = checkNpmLockfile(l, REG, REGISTRY_ONLY);
    expect(problems.map(describeProblem)).toEqual([
      'lockfile packages["node_modules/evil"]: git dependency "git+http://127.0.0.1:9418/evil.git#0123abcd" (allowed only with install.allowGit: true)',
    ]);
    expect(checkNpmLockfile(l, REG, { ...REGISTRY_ONLY, allowGit: true })).toEqual([]);
  });

  it("refuses git+file:// to a host repository (the host-file-read case)", () => {
    const l = lock({
      "node_modules/x": { version: "1.0.0", resolved: "git+file:///any/host/repo#deadbeef" },
    });
    expect(checkNpmLockfile(l, REG, REGISTRY_ONLY)[0]?.field).toBe("install.allowGit");
  });

  it("refuses a link entry climbing to / whatever the configuration (the host-file-modified case)", () => {
    const l = lock({
      "node_modules/pwn": { resolved: "../../../../..", link: true },
      "../../../../..": { name: "pwn", bin: { pwn: "root/.ssh/id_rsa" } },
    });
    const all = { allowGit: true, allowRemote: true, allowFile: true };
    const problems = checkNpmLockfile(l, REG, all);
    expect(problems.map((p) => [p.entry, p.field])).toEqual([
      ['lockfile packages["node_modules/pwn"]', null],
      ['lockfile packages["../../../../.."]', null],
    ]);
    expect(describeProblem(problems[0]!)).toMatch(/no setting allows this/);
  });

  it("allows links to the repository's own workspace packages; other links need install.allowFile", () => {
    const l = lock({
      "packages/a": { name: "a", version: "1.0.0" },
      "node_modules/a": { resolved: "packages/a", link: true },
      "node_modules/b": { resolved: "vendor/b", link: true },
    });
    expect(checkNpmLockfile(l, REG, REGISTRY_ONLY).map((p) => [p.entry, p.field])).toEqual([
      ['lockfile packages["node_modules/b"]', "install.allowFile"],
    ]);
  });

  it("refuses remote tarballs (install.allowRemote) and registry entries without integrity", () => {
    const l = lock({
      "node_modules/bomb": { version: "1.0.0", resolved: "http://127.0.0.1:8080/bomb.tgz", integrity },
      "node_modules/nohash": { version: "1.0.0", resolved: `${REG}nohash/-/nohash-1.0.0.tgz` },
    });
    expect(checkNpmLockfile(l, REG, REGISTRY_ONLY).map((p) => [p.entry, p.field])).toEqual([
      ['lockfile packages["node_modules/bomb"]', "install.allowRemote"],
      ['lockfile packages["node_modules/nohash"]', null],
    ]);
  });

  it("reads lockfileVersion 1 (nested dependencies, git in `version`)", () => {
    const l = {
      lockfileVersion: 1,
      dependencies: {
        ms: { version: "2.1.3", resolved: `${REG}ms/-/ms-2.1.3.tgz`, integrity },
        evil: { version: "github:a/evil#abc", from: "github:a/evil" },
        outer: {
          version: "1.0.0",
          integrity,
          dependencies: { inner: { version: "file:../../../x" } },
        },
      },
    };
    expect(checkNpmLockfile(l, REG, REGISTRY_ONLY).map((p) => [p.entry, p.field])).toEqual([
      ["lockfile dependencies evil", "install.allowGit"],
      ["lockfile dependencies outer > inner", null],
    ]);
  });
});

describe("checkPackageJson", () => {
  it("checks every dependency section and refuses workspace globs outside the root", () => {
    const problems = checkPackageJson(
      {
        dependencies: { ms: "^2.1.3", x: "git+https://github.com/a/x.git" },
        devDependencies: { y: "file:../../../../y", z: "https://evil.example/z.tgz" },
        workspaces: ["packages/*", "../../../../../**"],
      },
      REG,
      REGISTRY_ONLY,
    );
    expect(problems.map((p) => [p.entry, p.field])).toEqual([
      ["package.json dependencies.x", "install.allowGit"],
      ["package.json devDependencies.y", null],
      ["package.json devDependencies.z", "install.allowRemote"],
      ['package.json workspaces "../../../../../**"', null],
    ]);
  });
});
