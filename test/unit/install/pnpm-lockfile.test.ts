import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REGISTRY_ONLY } from "../../../src/install/lockfile-policy.ts";
import {
  checkPnpmLockfile,
  checkPnpmWorkspace,
  pnpmImporterDirs,
  readPackageManager,
} from "../../../src/install/pnpm-lockfile.ts";

const REG = "https://registry.example.test/npm/";

/** A pnpm 9 lockfile of a two-package workspace, with `extra` appended under `packages:`. */
function lock(extra = "", importerExtra = ""): unknown {
  return parse(`lockfileVersion: '9.0'
importers:
  .:
    devDependencies:
      '@ws/a':
        specifier: workspace:*
        version: link:packages/a
  packages/a:
    dependencies:
      '@ws/b':
        specifier: workspace:*
        version: link:../b
      leaf:
        specifier: ^1.0.0
        version: 1.0.0
${importerExtra}  packages/b: {}
packages:
  leaf@1.0.0:
    resolution: {integrity: sha512-AAAA}
${extra}
snapshots:
  leaf@1.0.0: {}
`);
}

describe("pnpm-lock.yaml sources", () => {
  it("accepts registry packages with integrity and links between the workspace's own packages", () => {
    expect(checkPnpmLockfile(lock(), REG, REGISTRY_ONLY)).toEqual([]);
    expect(pnpmImporterDirs(lock())).toEqual(["packages/a", "packages/b"]);
  });

  it("refuses a tarball URL off the registry, naming the package and install.allowRemote", () => {
    const l = lock("  evil@1.0.0:\n    resolution: {tarball: 'http://127.0.0.2:8080/evil-1.0.0.tgz'}\n");
    expect(checkPnpmLockfile(l, REG, REGISTRY_ONLY)).toEqual([
      {
        entry: "pnpm-lock.yaml packages.evil@1.0.0",
        reason: 'tarball from outside the configured registry "http://127.0.0.2:8080/evil-1.0.0.tgz"',
        field: "install.allowRemote",
      },
    ]);
    expect(checkPnpmLockfile(l, REG, { ...REGISTRY_ONLY, allowRemote: true })).toEqual([]);
    // A tarball on the configured registry is a registry package, but only with its integrity hash.
    const onReg = lock(`  ok@1.0.0:\n    resolution: {tarball: '${REG}ok/-/ok-1.0.0.tgz'}\n`);
    expect(checkPnpmLockfile(onReg, REG, REGISTRY_ONLY).map((p) => p.reason)).toEqual([
      "a registry package without an integrity hash",
    ]);
  });

  it("refuses git sources and directories unless allowed, and paths out of the repository always", () => {
    const git = lock(
      "  gitdep@https://codeload.github.com/o/r/tar.gz/abc:\n    resolution: {type: git, repo: 'https://github.com/o/r.git', commit: abc}\n",
    );
    expect(checkPnpmLockfile(git, REG, REGISTRY_ONLY).map((p) => p.field)).toEqual(["install.allowGit"]);
    expect(checkPnpmLockfile(git, REG, { ...REGISTRY_ONLY, allowGit: true })).toEqual([]);
    const out = lock(
      "",
      "      up:\n        specifier: link:../../../etc\n        version: link:../../../etc\n",
    );
    expect(checkPnpmLockfile(out, REG, { allowGit: true, allowRemote: true, allowFile: true })).toEqual([
      {
        entry: "pnpm-lock.yaml importers.packages/a.dependencies.up",
        reason: 'path outside the repository "link:../../../etc"',
        field: null,
      },
    ]);
    const dir = lock(
      "  local@file:vendor/local:\n    resolution: {type: directory, directory: vendor/local}\n",
    );
    expect(checkPnpmLockfile(dir, REG, REGISTRY_ONLY).map((p) => p.field)).toEqual(["install.allowFile"]);
    const odd = lock("  node@runtime:22:\n    resolution: {type: variations, variants: []}\n");
    expect(checkPnpmLockfile(odd, REG, REGISTRY_ONLY)[0]?.reason).toMatch(/type "variations"/);
  });

  it("refuses a registry package without integrity, an importer out of the tree and a glob out of it", () => {
    expect(checkPnpmLockfile(lock("  bare@1.0.0:\n    resolution: {}\n"), REG, REGISTRY_ONLY)).toHaveLength(
      1,
    );
    const escaping = parse("lockfileVersion: '9.0'\nimporters:\n  .: {}\n  ../outside: {}\n");
    expect(checkPnpmLockfile(escaping, REG, REGISTRY_ONLY)[0]?.reason).toMatch(/outside the repository/);
    expect(pnpmImporterDirs(escaping)).toEqual([]);
    expect(checkPnpmWorkspace(parse("packages:\n  - packages/*\n  - ../*\n"))).toHaveLength(1);
    expect(checkPnpmLockfile("not a mapping", REG, REGISTRY_ONLY)).toHaveLength(1);
  });
});

describe("packageManager", () => {
  it("reads an exact release and its sha512", () => {
    const hex = "ab".repeat(64);
    expect(readPackageManager({ packageManager: `pnpm@11.5.2+sha512.${hex}` })).toEqual({
      name: "pnpm",
      version: "11.5.2",
      sha512: hex,
    });
    expect(readPackageManager({ packageManager: "pnpm@9.1.0" })).toEqual({
      name: "pnpm",
      version: "9.1.0",
      sha512: null,
    });
    expect(readPackageManager({})).toBeNull();
  });

  it("refuses a range, a URL or an unreadable hash", () => {
    for (const v of ["pnpm@^9", "pnpm@https://example.test/pnpm.tgz", "pnpm@9.1.0+md5.x", 9])
      expect(readPackageManager({ packageManager: v })).toHaveProperty("problem");
  });
});
