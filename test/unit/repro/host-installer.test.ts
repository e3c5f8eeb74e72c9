/**
 * The host installer runs npm and pip on package names taken from untrusted issues. These tests put fake `npm`
 * and `pip` executables in its place (small node scripts that record their argv and environment, then do what
 * the real tool would do to the directory), so they check exactly what the real tools would be given.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WriteReproductionInput } from "../../../src/repro/model-tool.ts";
import { packageNameProblem, versionProblem } from "../../../src/repro/package-name.ts";
import { HostDependencyInstaller, installerEnv, installFailureReason } from "../../../src/sandbox/install.ts";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "retrace-installer-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fake npm/pip: records `{argv, env, cwd}` to `<dir>/<name>.json`, then installs like the real tool would. */
async function fakeTool(name: "npm" | "pip", opts: { sleepMs?: number } = {}): Promise<string> {
  const file = path.join(dir, name);
  const record = path.join(dir, `${name}.json`);
  await writeFile(
    file,
    `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd() }));
setTimeout(() => {
  if (${JSON.stringify(name)} === "npm") {
    const deps = JSON.parse(fs.readFileSync("package.json", "utf8")).dependencies;
    for (const [n, v] of Object.entries(deps)) {
      fs.mkdirSync(path.join("node_modules", n), { recursive: true });
      fs.writeFileSync(path.join("node_modules", n, "package.json"), JSON.stringify({ name: n, version: v }));
    }
  } else {
    const argv = process.argv.slice(2);
    const target = argv[argv.indexOf("--target") + 1];
    for (const spec of argv.slice(argv.indexOf("--") + 1)) {
      const [n, v] = spec.split("==");
      fs.mkdirSync(path.join(target, n + "-" + v + ".dist-info"), { recursive: true });
    }
  }
}, ${opts.sleepMs ?? 0});
`,
  );
  await chmod(file, 0o755);
  return file;
}

async function recorded(name: "npm" | "pip"): Promise<{ argv: string[]; env: Record<string, string> }> {
  return JSON.parse(await readFile(path.join(dir, `${name}.json`), "utf8"));
}

const hostEnv = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: "/home/retrace",
  LANG: "C.UTF-8",
  HTTPS_PROXY: "http://proxy.internal:3128",
  npm_config_registry: "https://registry.internal/",
  PIP_INDEX_URL: "https://pypi.internal/simple",
  PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----planted",
  WEBHOOK_SECRET: "planted-webhook-secret",
  ANTHROPIC_API_KEY: "sk-ant-planted",
  GITHUB_TOKEN: "ghp_planted",
  RETRACE_PLANTED_SECRET: "planted",
  NODE_OPTIONS: "--require /tmp/evil.js",
  npm_config__authToken: "planted-npm-token",
};

describe("host installer: what npm and pip are given", () => {
  it("npm sees only the allow-listed environment: no planted secret reaches it", async () => {
    const installer = new HostDependencyInstaller({
      cacheDir: path.join(dir, "cache"),
      npm: await fakeTool("npm"),
      env: hostEnv,
    });
    const res = await installer.install({
      ecosystem: "npm",
      packages: [{ name: "semver", version: "5.0.0" }],
    });
    expect(res.failures).toEqual([]);
    expect(res.installed).toEqual([{ name: "semver", version: "5.0.0" }]);
    const { env, argv } = await recorded("npm");
    // Exactly the allow-listed variables, plus Retrace's own settings (and nothing the child adds itself).
    const { PWD: _pwd, SHLVL: _shlvl, _: _underscore, ...seen } = env;
    expect(seen).toEqual({
      PATH: hostEnv.PATH,
      HOME: "/home/retrace",
      LANG: "C.UTF-8",
      HTTPS_PROXY: "http://proxy.internal:3128",
      npm_config_registry: "https://registry.internal/",
      PIP_INDEX_URL: "https://pypi.internal/simple",
      npm_config_ignore_scripts: "true",
      npm_config_update_notifier: "false",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      PIP_NO_INPUT: "1",
    });
    expect(JSON.stringify(env)).not.toContain("planted");
    expect(argv).toContain("--ignore-scripts");
    expect(argv.at(-1)).toBe("--");
  });

  it("pip gets `--` before the specs, and the same allow-listed environment", async () => {
    const installer = new HostDependencyInstaller({
      cacheDir: path.join(dir, "cache"),
      pip: await fakeTool("pip"),
      env: hostEnv,
    });
    const res = await installer.install({
      ecosystem: "pypi",
      packages: [{ name: "six", version: "1.16.0" }],
    });
    expect(res.failures).toEqual([]);
    expect(res.installed).toEqual([{ name: "six", version: "1.16.0" }]);
    const { argv, env } = await recorded("pip");
    expect(argv.slice(-2)).toEqual(["--", "six==1.16.0"]);
    expect(argv.indexOf("--")).toBe(argv.length - 2);
    expect(JSON.stringify(env)).not.toContain("planted");
    expect(env.PIP_INDEX_URL).toBe("https://pypi.internal/simple");
  });

  it("refuses option-like names and non-exact versions before npm or pip runs", async () => {
    const installer = new HostDependencyInstaller({
      cacheDir: path.join(dir, "cache"),
      npm: await fakeTool("npm"),
      pip: await fakeTool("pip"),
      env: hostEnv,
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
      ],
    });
    expect(npm.failures.map((f) => [f.name, f.reason.split(" (")[0]])).toEqual([
      ["-g", "not a valid npm package name"],
      ["left-pad", "not an exact version"],
    ]);
    expect(existsSync(path.join(dir, "pip.json"))).toBe(false);
    expect(existsSync(path.join(dir, "npm.json"))).toBe(false);
  });

  it("honours the request's install timeout (repro.installTimeoutMs)", async () => {
    const installer = new HostDependencyInstaller({
      cacheDir: path.join(dir, "cache"),
      npm: await fakeTool("npm", { sleepMs: 20_000 }),
      env: hostEnv,
    });
    const t0 = Date.now();
    const res = await installer.install({
      ecosystem: "npm",
      packages: [{ name: "semver", version: "5.0.0" }],
      timeoutMs: 500,
    });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(res.failures).toEqual([
      { name: "semver", version: "5.0.0", reason: "npm install timed out after 500 ms" },
    ]);
  });

  it("passes extra variables only when the deployment names them", () => {
    expect(
      installerEnv({ PATH: "/bin", MY_MIRROR_TOKEN: "t", GITHUB_TOKEN: "g" }, ["MY_MIRROR_TOKEN"]),
    ).toEqual({
      PATH: "/bin",
      MY_MIRROR_TOKEN: "t",
      npm_config_ignore_scripts: "true",
      npm_config_update_notifier: "false",
      PIP_DISABLE_PIP_VERSION_CHECK: "1",
      PIP_NO_INPUT: "1",
    });
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
  it("a version missing from the index is not blamed on wheels", () => {
    const missing =
      "ERROR: Could not find a version that satisfies the requirement attrs==0.0.1 (from versions: 21.4.0, 22.1.0, 23.2.0)\nERROR: No matching distribution found for attrs==0.0.1";
    expect(installFailureReason(missing, "pypi")).toBe(
      "that version is not in the package index here (it offers 21.4.0, 22.1.0, 23.2.0)",
    );
    const none =
      "ERROR: Could not find a version that satisfies the requirement tkinter (from versions: none)\nERROR: No matching distribution found for tkinter";
    expect(installFailureReason(none, "pypi")).toMatch(/offers no installable release of it/);
  });
});
