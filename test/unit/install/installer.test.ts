/**
 * The container installer's checks that run before any container exists: names and versions from untrusted
 * reports (registry names and exact versions only), the per-report package cap, and "latest" resolved through
 * the configured registry's look-up. None of these cases reaches Docker: the installer is given an engine
 * address that answers nothing, so a test that got that far would fail with an engine error.
 */
import Docker from "dockerode";
import { describe, expect, it } from "vitest";
import { ContainerDependencyInstaller, exactVersionProblem } from "../../../src/install/installer.ts";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { WriteReproductionInput } from "../../../src/repro/model-tool.ts";
import { packageNameProblem, versionProblem } from "../../../src/repro/package-name.ts";

/** An engine that does not exist: any Docker call fails (ECONNREFUSED / ENOENT). */
const noEngine = new Docker({ socketPath: "/nonexistent/retrace-test-docker.sock" });
const registryConfig = {
  npm: "http://127.0.0.1:9/",
  pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
  caFile: null,
};

describe("container installer: refused before any container", () => {
  it("refuses option-like names and non-exact versions before npm or pip runs", async () => {
    const installer = new ContainerDependencyInstaller({
      docker: noEngine,
      registryConfig,
      cacheDir: "/nonexistent",
    });
    const pip = await installer.install({
      ecosystem: "pypi",
      packages: [
        { name: "--extra-index-url=http://evil.test/simple", version: null },
        { name: "requests", version: "2.31.0" },
      ],
    });
    expect(pip.dir).toBeNull();
    expect(pip.failures).toEqual([
      {
        name: "--extra-index-url=http://evil.test/simple",
        version: null,
        reason: expect.stringMatching(/not a valid PyPI project name/),
      },
    ]);
    const npm = await installer.install({
      ecosystem: "npm",
      packages: [
        { name: "-g", version: null },
        { name: "left-pad", version: "file:../../etc" },
        { name: "semver", version: "next" },
        { name: "chalk", version: "^4.0.0" },
      ],
    });
    expect(npm.failures.map((f) => [f.name, f.reason.split(" (")[0]])).toEqual([
      ["-g", "not a valid npm package name"],
      ["chalk", expect.stringMatching(/not an exact version/)],
      ["left-pad", expect.stringMatching(/not an exact version/)],
      ["semver", '"next" is not an exact version'],
    ]);
  });

  it("installs at most maxPackages per report and names the rest with the setting", async () => {
    const installer = new ContainerDependencyInstaller({
      docker: noEngine,
      registryConfig,
      cacheDir: "/nonexistent",
      maxPackages: 3,
    });
    const names = Array.from({ length: 150 }, (_, i) => `pkg${String(i).padStart(3, "0")}`);
    const r = await installer.install({
      ecosystem: "npm",
      packages: names.map((name) => ({ name, version: "1.0.0" })),
    });
    expect(r.dir).toBeNull();
    expect(r.failures).toHaveLength(147);
    expect(r.failures[0]).toEqual({
      name: "pkg003",
      version: "1.0.0",
      reason: "more than 3 packages named in one report (install.maxPackages)",
    });
  });

  it("an unpinned name whose latest release cannot be looked up is an infrastructure error that says what to do, never an install of 'latest' nor a question to the reporter", async () => {
    const asked: string[] = [];
    const installer = new ContainerDependencyInstaller({
      docker: noEngine,
      registryConfig,
      cacheDir: "/nonexistent",
      registry: {
        latestVersion: async (_e, name) => {
          asked.push(name);
          return null;
        },
      },
    });
    const error = await installer
      .install({ ecosystem: "npm", packages: [{ name: "ms", version: "latest" }] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(asked).toEqual(["ms"]);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as InfrastructureError).kind).toBe("infrastructure");
    expect((error as InfrastructureError).message).toMatch(
      /^could not install ms: its latest version is unknown — the npm registry \(npm_config_registry\) could not be reached/,
    );
    expect((error as InfrastructureError).hint).toMatch(/reach a registry that has ms/);
  });

  it("a registry's latest that is not an exact version is a failure naming the answer, never installed", async () => {
    const installer = new ContainerDependencyInstaller({
      docker: noEngine,
      registryConfig,
      cacheDir: "/nonexistent",
      registry: { latestVersion: async () => "1.2.3 || file:../../../tmp" },
    });
    const r = await installer.install({ ecosystem: "npm", packages: [{ name: "ms", version: "latest" }] });
    expect(r.dir).toBeNull();
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]!.reason).toMatch(
      /registry answered "1\.2\.3 \|\| file:\.\.\/\.\.\/\.\.\/tmp" as the latest version: .*not an exact version/,
    );
  });

  it("exact versions per ecosystem", () => {
    for (const ok of ["1.2.3", "v1.2.3", "2.0.0-rc.1+build.5"])
      expect(exactVersionProblem("npm", ok)).toBeNull();
    for (const bad of ["1.2", "latest", "1.x", ">=1.0.0", "1.2.3 || 2"])
      expect(exactVersionProblem("npm", bad)).not.toBeNull();
    for (const ok of ["2.31.0", "1!2.0.post1", "1.0rc1", "0.9.dev3", "3"])
      expect(exactVersionProblem("pypi", ok)).toBeNull();
    for (const bad of ["latest", "~=1.0", "1.*"]) expect(exactVersionProblem("pypi", bad)).not.toBeNull();
  });
});

describe("package names (per ecosystem)", () => {
  it("accepts registry names and refuses what could be read as an option, a path or a URL", () => {
    for (const ok of ["semver", "@types/node", "JSONStream", "lodash.merge", "left-pad"])
      expect(packageNameProblem("npm", ok)).toBeNull();
    for (const bad of [
      "-g",
      "--registry=http://x",
      ".hidden",
      "_priv",
      "@/x",
      "a b",
      "../x",
      "git+https://x",
    ])
      expect(packageNameProblem("npm", bad)).not.toBeNull();
    for (const ok of ["requests", "zope.interface", "Django", "typing_extensions", "a"])
      expect(packageNameProblem("pypi", ok)).toBeNull();
    for (const bad of ["--extra-index-url", "-r", "pkg-", "@scope/x", "pkg==1", "./local", "x @ file:///etc"])
      expect(packageNameProblem("pypi", bad)).not.toBeNull();
    for (const ok of ["1.2.3", "v2.0.0-rc.1+build.5", "1!2.0.post1", "latest"])
      expect(versionProblem(ok)).toBeNull();
    for (const bad of ["^1.2.3", "file:../x", "git+https://x", "-1", "1.0 --index-url x", "npm:evil@1"])
      expect(versionProblem(bad)).not.toBeNull();
  });

  it("the model's tool refuses an option-like dependency, and applies the language's naming rule", () => {
    const base = {
      language: "python",
      files: [{ path: "reproduction.py", content: "import requests\n" }],
      entry: "reproduction.py",
      expected: {},
      notes: "",
    };
    const leading = WriteReproductionInput.safeParse({ ...base, dependencies: ["--extra-index-url"] });
    expect(leading.success).toBe(false);
    expect(leading.error?.issues[0]?.path).toEqual(["dependencies", 0]);
    const scoped = WriteReproductionInput.safeParse({ ...base, dependencies: ["@scope/pkg"] });
    expect(scoped.success).toBe(false);
    expect(scoped.error?.issues.map((i) => i.message).join(" ")).toMatch(/not a valid PyPI project name/);
    expect(WriteReproductionInput.safeParse({ ...base, dependencies: ["requests"] }).success).toBe(true);
    const js = WriteReproductionInput.safeParse({
      ...base,
      language: "javascript",
      files: [{ path: "r.mjs", content: "import x from '@scope/pkg';\n" }],
      entry: "r.mjs",
      dependencies: ["@scope/pkg"],
    });
    expect(js.success).toBe(true);
  });
});

describe("pip failure reasons (issue 12)", () => {
  it("a version missing from the index is not blamed on wheels", async () => {
    const { installFailureReason } = await import("../../../src/install/reasons.ts");
    const missing =
      "ERROR: Could not find a version that satisfies the requirement attrs==0.0.1 (from versions: 21.4.0, 22.1.0, 23.2.0)\nERROR: No matching distribution found for attrs==0.0.1";
    expect(installFailureReason(missing, "pypi")).toBe(
      "attrs==0.0.1 is not in the package index here (it offers 21.4.0, 22.1.0, 23.2.0)",
    );
    const none =
      "ERROR: Could not find a version that satisfies the requirement tkinter (from versions: none)\nERROR: No matching distribution found for tkinter";
    expect(installFailureReason(none, "pypi")).toMatch(/offers no installable release of tkinter /);
  });
});

describe("npm failure reasons", () => {
  it("a git dependency deep in the tree is named as such, with its URL when npm printed it", async () => {
    const { installFailureReason } = await import("../../../src/install/reasons.ts");
    expect(installFailureReason("npm ERR! enoent An unknown git error occurred", "npm")).toMatch(
      /^a dependency in the tree is fetched from git — .*install\.allowGit/,
    );
    expect(
      installFailureReason(
        "npm ERR! command git --no-replace-objects ls-remote ssh://git@github.com/someone/fs-extra.git\nnpm ERR! enoent An unknown git error occurred",
        "npm",
      ),
    ).toMatch(/fetched from git \(ssh:\/\/git@github\.com\/someone\/fs-extra\.git\)/);
  });

  it("a registry that could not be reached: npm's code and the request it gave up on", async () => {
    const { installFailureReason } = await import("../../../src/install/reasons.ts");
    expect(
      installFailureReason(
        "npm ERR! code ECONNRESET\nnpm ERR! network aborted\nnpm ERR! network request to http://npm.registry.retrace.invalid/lodash/-/lodash-4.17.21.tgz failed, reason: socket hang up",
        "npm",
      ),
    ).toBe("the npm registry could not be reached (ECONNRESET on /lodash/-/lodash-4.17.21.tgz)");
    expect(installFailureReason("npm error network ETIMEDOUT", "npm")).toBe(
      "the npm registry could not be reached",
    );
  });

  it("npm's debug log names the git dependencies it was resolving and who wants them (npm prints none)", async () => {
    const { gitDependenciesInNpmLog } = await import("../../../src/install/reasons.ts");
    const log = [
      "46 silly fetch manifest leaf@^1.0.0",
      "47 silly fetch manifest fs-helper@someone/fs-helper#enhanced",
      "48 silly fetch manifest @acme/md@git+ssh://git@example.com/acme/md.git#255d62d",
      "49 silly placeDep node_modules/docs-tool leaf@1.0.0 OK for: docs-tool@0.3.1 want: ^1.0.0",
      "50 silly placeDep node_modules/docs-tool fs-helper@ OK for: docs-tool@0.3.1 want: someone/fs-helper#enhanced",
      "51 silly placeDep ROOT @acme/md@ OK for: app@1.0.0 want: git+ssh://git@example.com/acme/md.git#255d62d",
      "52 silly fetch manifest tool@github:someone/tool",
      "53 silly fetch manifest @types/node@20.1.0",
    ].join("\n");
    expect(gitDependenciesInNpmLog(log)).toEqual([
      { name: "fs-helper", spec: "someone/fs-helper#enhanced", by: "docs-tool@0.3.1" },
      { name: "@acme/md", spec: "git+ssh://git@example.com/acme/md.git#255d62d", by: "app@1.0.0" },
      { name: "tool", spec: "github:someone/tool", by: null },
    ]);
    expect(gitDependenciesInNpmLog("12 silly fetch manifest leaf@^1.0.0\n13 verbose stack Error")).toEqual(
      [],
    );
  });
});
