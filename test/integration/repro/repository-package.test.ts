/**
 * A report filed on a package's own repository that calls the package without importing it, through the real
 * pipeline: the real install container (npm from a registry on loopback serving packages written here), the
 * real Docker sandbox, offline runs. `size-fmt` 2.0.0 is an ES-module-only release with the reported bug, 1.0.0 a
 * CommonJS release without it; `jsonish` 3.1.0 a CommonJS module whose `default` export is an object used under
 * an alias (`js.serialize`). With the repository's package known (ReproJobSpec.package) the binding is made and
 * the release named bare in the prose ("I'm on 2.0.0") is installed; without it the name stays undefined and the
 * verdict asks for the import.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { createContainerInstaller } from "../../../src/install/installer.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { createRegistryLookup } from "../../../src/install/registry-lookup.ts";
import { createLocalReproPorts } from "../../../src/jobs/local-repro.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";
import { type LocalRegistry, startLocalRegistry } from "../install/local-registry.ts";

const f = "```";
const SIZE_FMT_2 = {
  name: "size-fmt",
  version: "2.0.0",
  extra: { type: "module", exports: "./index.js" },
  // The bug: thousands are not divided out.
  files: { "index.js": 'export default function sizeFmt(bytes) {\n  return String(bytes) + " kB";\n}\n' },
};
const SIZE_FMT_1 = {
  name: "size-fmt",
  version: "1.0.0",
  files: {
    "index.js": 'module.exports = function sizeFmt(bytes) {\n  return String(bytes / 1000) + " kB";\n};\n',
  },
};
const JSONISH = {
  name: "jsonish",
  version: "3.1.0",
  files: {
    "index.js": [
      '"use strict";',
      'Object.defineProperty(exports, "__esModule", { value: true });',
      "// Drops undefined values: the reported bug.",
      "exports.default = {",
      "  serialize: (v) => ({ json: JSON.parse(JSON.stringify(v)) }),",
      "  deserialize: (s) => s.json,",
      "};",
      "",
    ].join("\n"),
  },
};

const SIZE_REPORT = [
  "# sizes come out a thousand times too big",
  "",
  "I'm on 2.0.0, and this:",
  "",
  f,
  "console.log(sizeFmt(1000))",
  f,
  "",
  "prints `1000 kB` where it should print `1 kB`.",
  "",
].join("\n");

const ALIAS_REPORT = [
  "# undefined values disappear",
  "",
  f,
  "> js.serialize({ a: undefined, b: 1 })",
  "{ json: { b: 1 } }",
  f,
  "",
  "The key `a` is gone.",
  "",
].join("\n");

describeDocker("the repository's package used without an import (real install and sandbox)", () => {
  let registry: LocalRegistry;
  let cacheDir: string;
  let ports: ReproPorts;
  beforeAll(async () => {
    registry = await startLocalRegistry([SIZE_FMT_2, SIZE_FMT_1, JSONISH]);
    cacheDir = await mkdtemp(path.join(os.tmpdir(), "retrace-repo-pkg-it-"));
    const registryConfig: RegistryConfig = {
      npm: registry.url,
      npmScopes: {},
      pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
      caFile: null,
    };
    const lookup = createRegistryLookup({ registryConfig, cacheDir: null });
    ports = {
      ...createLocalReproPorts({ runTimeoutMs: 20_000, cacheDir, compareLatest: false }),
      installer: createContainerInstaller({
        registry: lookup,
        registryConfig,
        cacheDir,
        image: sandboxImage,
      }),
      registry: lookup,
    };
  });
  afterAll(async () => {
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });
  const run = (id: string, markdown: string, pkg?: string) =>
    runRepro(
      ReproJobSpec.parse({ kind: "repro", id, markdown, runs: 1, ...(pkg ? { package: pkg } : {}) }),
      ports,
    ).then((r) => r.result);

  it("an ES-module-only release bound by its own name, at the release the prose names: REPRODUCED", {
    timeout: 240_000,
  }, async () => {
    const result = await run("it-repo-pkg-size", SIZE_REPORT, "size-fmt");
    expect(result.verdict, result.summary).toBe("REPRODUCED");
    expect(result.versions).toEqual([
      expect.objectContaining({ name: "size-fmt", version: "2.0.0", source: "reported" }),
    ]);
    expect(result.script?.filename).toBe("reproduction.mjs");
    expect(result.script?.code).toContain('import * as _repositoryPackage from "size-fmt";');
  });

  it("without the repository's package the name is undefined: NEEDS_INFO naming it", {
    timeout: 240_000,
  }, async () => {
    const result = await run("it-repo-pkg-none", SIZE_REPORT);
    expect(result.verdict, result.summary).toBe("NEEDS_INFO");
    expect(result.summary).toMatch(/`sizeFmt`, which it never defines or imports/);
  });

  it("an alias whose members the default export has (`js.serialize`) is bound to it: REPRODUCED", {
    timeout: 240_000,
  }, async () => {
    const result = await run("it-repo-pkg-alias", ALIAS_REPORT, "jsonish");
    expect(result.verdict, result.summary).toBe("REPRODUCED");
    expect(result.versions).toEqual([expect.objectContaining({ name: "jsonish", version: "3.1.0" })]);
  });

  it("an alias the package does not have stays undefined, never bound to something else", {
    timeout: 240_000,
  }, async () => {
    const other = ALIAS_REPORT.replaceAll("js.serialize", "js.stringifyAll");
    const result = await run("it-repo-pkg-alias-wrong", other, "jsonish");
    expect(result.verdict, result.summary).toBe("NEEDS_INFO");
    expect(result.summary).toMatch(/`js`, which it never defines or imports/);
  });
});
