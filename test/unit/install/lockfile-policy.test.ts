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
    // npm's own reading of ranges and tags (a tilde range is not a home path).
    ["~1.2.3", "registry"],
    ["^2 || ~3.1", "registry"],
    ["latest", "registry"],
    ["*", "registry"],
    ["~/x", "escape"],
    // Shapes a prefix list missed (red team): scp-style git, an npm: alias of a URL or a git spec.
    ["git@127.0.0.1:evil.git", "git"],
    ["deploy@git.example.com:team/repo#v1", "git"],
    ["npm:leaf@http://127.0.0.1:8080/bomb.tgz", "remote"],
    ["npm:leaf@github:a/b", "git"],
    ["npm:@scope/leaf@^1.0.0", "registry"],
    ["npm:leaf", "registry"],
    ["npm:a@npm:b@1.0.0", "unknown"],
    // yarn/pnpm protocols: workspace packages are the repository's; a patch file and a portal are paths.
    ["workspace:*", "workspace"],
    ["workspace:^1.2.0", "workspace"],
    ["workspace:../../x", "unknown"],
    ["portal:../../../../etc", "escape"],
    ["patch:leaf@npm%3A1.0.0#./patches/leaf.patch", "file"],
    ["patch:leaf@npm%3A1.0.0#../../../../etc/passwd", "escape"],
    // Anything npm does not read as a registry version, range or tag is not guessed to be one.
    ["exec:./build.js", "unknown"],
    ["$leaf", "unknown"],
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
      "": { workspaces: ["packages/*"] },
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

  // The red team's five shapes that passed this check before (each stopped only by the install container).
  it("refuses a top-level inBundle entry resolved on another host (the root's bundle is fetched like any entry)", () => {
    const l = lock({
      "node_modules/bomb": {
        version: "1.0.0",
        inBundle: true,
        resolved: "http://127.0.0.1:8080/bomb.tgz",
        integrity,
      },
    });
    expect(checkNpmLockfile(l, REG, REGISTRY_ONLY).map(describeProblem)).toEqual([
      'lockfile packages["node_modules/bomb"]: tarball from outside the configured registry "http://127.0.0.1:8080/bomb.tgz" (allowed only with install.allowRemote: true)',
    ]);
    // Without a parent entry a nested `inBundle` is not inside any bundle either.
    const orphan = lock({
      "node_modules/ghost/node_modules/bomb": {
        version: "1.0.0",
        inBundle: true,
        resolved: "http://127.0.0.1:8080/bomb.tgz",
      },
    });
    expect(checkNpmLockfile(orphan, REG, REGISTRY_ONLY).map((p) => p.field)).toEqual(["install.allowRemote"]);
  });

  it("accepts the root's own bundleDependencies as npm 11 writes them (inBundle, integrity, no resolved)", () => {
    // `npm install --package-lock-only` (npm 11.19.1) of {"dependencies":{"debug":"4.3.4"},
    // "bundleDependencies":["debug"]}, abridged to the fields the check reads.
    const l = lock({
      "": { name: "t", version: "1.0.0", bundleDependencies: ["debug"], dependencies: { debug: "4.3.4" } },
      "node_modules/debug": { version: "4.3.4", integrity, inBundle: true, dependencies: { ms: "2.1.2" } },
      "node_modules/ms": { version: "2.1.2", integrity, inBundle: true },
    });
    expect(checkNpmLockfile(l, REG, REGISTRY_ONLY)).toEqual([]);
    const noHash = lock({ "node_modules/ms": { version: "2.1.2", inBundle: true } });
    expect(checkNpmLockfile(noHash, REG, REGISTRY_ONLY)[0]?.reason).toMatch(/without an integrity hash/);
  });

  it("refuses a `version` that is a URL or a git spec (no `resolved`: npm would fetch it)", () => {
    const l = lock({
      "node_modules/bomb": { version: "http://127.0.0.1:8080/bomb.tgz", integrity },
      "node_modules/evil": { version: "git@127.0.0.1:evil.git", integrity },
      "node_modules/loose": { version: "^1.0.0", integrity },
    });
    expect(checkNpmLockfile(l, REG, REGISTRY_ONLY).map((p) => [p.entry, p.field])).toEqual([
      ['lockfile packages["node_modules/bomb"]', "install.allowRemote"],
      ['lockfile packages["node_modules/evil"]', "install.allowGit"],
      ['lockfile packages["node_modules/loose"]', null],
    ]);
    expect(describeProblem(checkNpmLockfile(l, REG, REGISTRY_ONLY)[2]!)).toMatch(
      /`version` is not an exact version "\^1\.0\.0"/,
    );
  });

  it("refuses a made-up workspace: a directory entry that package.json's workspaces do not list, or that has a source", () => {
    const fake = lock({
      evil: { version: "1.0.0", resolved: "http://127.0.0.1:8080/bomb.tgz" },
      "node_modules/evil": { link: true, resolved: "evil" },
    });
    const problems = checkNpmLockfile(fake, REG, REGISTRY_ONLY, { workspaces: ["packages/*"] });
    expect(problems.map((p) => [p.entry, p.field])).toEqual([
      ['lockfile packages["evil"]', null],
      ['lockfile packages["node_modules/evil"]', "install.allowFile"],
    ]);
    expect(problems[0]!.reason).toMatch(/a directory of the repository with a source to fetch/);
    // Listed as a workspace, a directory entry with a source is still refused, whatever the settings.
    const all = { allowGit: true, allowRemote: true, allowFile: true };
    expect(checkNpmLockfile(fake, REG, all, { workspaces: ["evil"] }).map((p) => p.field)).toEqual([null]);
    // Not listed and without a source: a local package, allowed only with install.allowFile.
    const local = lock({
      "vendor/x": { version: "1.0.0" },
      "node_modules/x": { link: true, resolved: "vendor/x" },
    });
    expect(checkNpmLockfile(local, REG, REGISTRY_ONLY).map((p) => p.field)).toEqual([
      "install.allowFile",
      "install.allowFile",
    ]);
    expect(checkNpmLockfile(local, REG, { ...REGISTRY_ONLY, allowFile: true })).toEqual([]);
    // The workspaces the lockfile's root entry records are used when none are passed.
    const ws = lock({
      "": { workspaces: ["./packages/*"] },
      "packages/a": { version: "1.0.0" },
      "node_modules/a": { link: true, resolved: "packages/a" },
    });
    expect(checkNpmLockfile(ws, REG, REGISTRY_ONLY)).toEqual([]);
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
  it("refuses an npm: alias to a URL and an scp-style git spec (the red team's package.json shapes)", () => {
    const problems = checkPackageJson(
      {
        dependencies: {
          bomb: "npm:leaf@http://127.0.0.1:8080/bomb.tgz",
          evil: "git@127.0.0.1:evil.git",
          ok: "npm:leaf@^1.0.0",
          tilde: "~4.17.21",
        },
      },
      REG,
      REGISTRY_ONLY,
    );
    expect(problems.map(describeProblem)).toEqual([
      'package.json dependencies.bomb: tarball from outside the configured registry "npm:leaf@http://127.0.0.1:8080/bomb.tgz" (allowed only with install.allowRemote: true)',
      'package.json dependencies.evil: git dependency "git@127.0.0.1:evil.git" (allowed only with install.allowGit: true)',
    ]);
  });

  it("checks npm overrides (nested, `$` references), yarn resolutions and pnpm.overrides like dependencies", () => {
    const pkg = {
      dependencies: { leaf: "^1.0.0" },
      overrides: {
        leaf: "$leaf",
        foo: { ".": "1.0.0", bar: "git+ssh://git@127.0.0.1/evil.git" },
        "baz@1": "http://127.0.0.1:8080/bomb.tgz",
      },
      resolutions: { "**/qux": "file:../../../../etc", quux: "2.0.0" },
      pnpm: { overrides: { corge: "github:a/evil", grault: "exec:./x.js", ok: "npm:leaf@1.0.0" } },
    };
    expect(checkPackageJson(pkg, REG, REGISTRY_ONLY).map((p) => [p.entry, p.field])).toEqual([
      ["package.json overrides.foo.bar", "install.allowGit"],
      ["package.json overrides.baz@1", "install.allowRemote"],
      ["package.json resolutions.**/qux", null],
      ["package.json pnpm.overrides.corge", "install.allowGit"],
      ["package.json pnpm.overrides.grault", null],
    ]);
    const all = { allowGit: true, allowRemote: true, allowFile: true };
    expect(checkPackageJson(pkg, REG, all).map((p) => p.entry)).toEqual([
      "package.json resolutions.**/qux",
      "package.json pnpm.overrides.grault",
    ]);
  });

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
  it("refuses more than 100 workspace globs (each is matched against every package directory on the host)", () => {
    const globs = Array.from({ length: 101 }, (_, i) => `packages/g${i}`);
    const problems = checkPackageJson({ name: "r", workspaces: globs }, REG, REGISTRY_ONLY);
    expect(problems.map((p) => p.reason)).toEqual([
      "101 workspace globs, more than the 100 Retrace matches (the operator's RETRACE_HOST_LIMITS workspaceGlobs; no repository setting allows more)",
    ]);
    expect(checkPackageJson({ name: "r", workspaces: globs.slice(0, 100) }, REG, REGISTRY_ONLY)).toEqual([]);
  });
});
