/**
 * The vitest neutral run's other fingerprints (f13m, hold20): the code under test sees Node's own console and an
 * `execArgv` without vitest's `--conditions development`, and a non-Vite project's patched files read
 * `import.meta.env` as plain Node does (undefined).
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { plainImportMetaPlugin, VITEST_PLAIN } from "../../../src/fix/tripwire.ts";

describe("VITEST_PLAIN", () => {
  it("puts back node's console and drops --conditions pairs from execArgv, keeping the other flags", () => {
    const code = [
      "const { Console } = require('node:console');",
      "const plain = console.constructor.name;",
      "globalThis.console = new Console(process.stdout);",
      "const replaced = console.constructor.name;",
      VITEST_PLAIN,
      "process.stdout.write(JSON.stringify({ plain, replaced, now: console.constructor.name, execArgv: process.execArgv }));",
    ].join("\n");
    const out = execFileSync(
      process.execPath,
      ["--conditions", "development", "--conditions=x", "--unhandled-rejections=throw", "-e", code],
      { encoding: "utf8" },
    );
    const r = JSON.parse(out) as { plain: string; replaced: string; now: string; execArgv: string[] };
    expect(r.replaced).toBe("Console");
    expect(r.now).toBe(r.plain);
    expect(r.now).not.toBe("Console");
    expect(r.execArgv.slice(0, 2)).toEqual(["--unhandled-rejections=throw", "-e"]);
    expect(r.execArgv).toHaveLength(3);
  });
});

describe("plainImportMetaPlugin", () => {
  const plugin = new Function("process", `return ${plainImportMetaPlugin(["src/index.ts"])};`)({
    cwd: () => "/w/p",
  }) as { transform(code: string, id: string): { code: string } | null; enforce: string };

  it("reads a patched file's import.meta.env as undefined", () => {
    const r = plugin.transform(
      "const d = import.meta.env?.DEV;\nconst m = import.meta.url;",
      "/w/p/src/index.ts",
    );
    expect(r?.code).toBe("const d = (void 0)?.DEV;\nconst m = import.meta.url;");
    expect(plugin.enforce).toBe("pre");
  });

  it("takes away vitest's own rewrite of the read (its pre plugin runs first), fallback and all", () => {
    const vitestForm =
      "const e = Object.assign(/* istanbul ignore next */ globalThis.__vitest_worker__?.metaEnv ?? import.meta.env);";
    expect(plugin.transform(vitestForm, "/w/p/src/index.ts")?.code).toBe("const e = (void 0);");
  });

  it("takes away vite's SSR form of the read (vitest 2 rewrites it before the plugin runs)", () => {
    expect(plugin.transform("const d = __vite_ssr_import_meta__.env.DEV;", "/w/p/src/index.ts")?.code).toBe(
      "const d = (void 0).DEV;",
    );
  });

  it("leaves files the patch did not change, and files without import.meta.env, alone", () => {
    expect(plugin.transform("import.meta.env.DEV", "/w/p/src/other.ts")).toBeNull();
    expect(plugin.transform("import.meta.env.DEV", "/w/p/test/index.test.ts")).toBeNull();
    expect(plugin.transform("export const a = 1;", "/w/p/src/index.ts?v=1")).toBeNull();
  });
});
