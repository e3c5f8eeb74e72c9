/**
 * An install that reaches its time limit (a loaded machine, issue 12 class "an environment problem is never a
 * verdict", fixer f12ac) ends the repro as an infrastructure error saying what to do, never NEEDS_INFO asking
 * the reporter about the version. Real pipeline: the real install container (npm from a registry on loopback),
 * a 300 ms install limit the container cannot meet; the same report with the ordinary limit gets its verdict.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
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
const PAD = {
  name: "pad-left-x",
  version: "1.2.0",
  // The bug: pads on the right.
  files: { "index.js": "module.exports = (s, n) => String(s).padEnd(n, '0');\n" },
};
const REPORT = [
  "# pads on the wrong side",
  "",
  "With pad-left-x 1.2.0:",
  "",
  f,
  "const pad = require('pad-left-x');",
  "console.log(pad(7, 3));",
  f,
  "",
  "prints `700` but should print `007`.",
  "",
].join("\n");

describeDocker("an install stopped at its time limit (real install container)", () => {
  let registry: LocalRegistry;
  let cacheDir: string;
  const ports = (installTimeoutMs: number): ReproPorts => {
    const registryConfig: RegistryConfig = {
      npm: registry.url,
      npmScopes: {},
      pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
      caFile: null,
    };
    const lookup = createRegistryLookup({ registryConfig, cacheDir: null });
    return {
      ...createLocalReproPorts({ runTimeoutMs: 20_000, cacheDir, compareLatest: false }),
      installer: createContainerInstaller({
        registry: lookup,
        registryConfig,
        cacheDir,
        image: sandboxImage,
        timeoutMs: installTimeoutMs,
      }),
      registry: lookup,
    };
  };
  beforeAll(async () => {
    registry = await startLocalRegistry([PAD]);
    cacheDir = await mkdtemp(path.join(os.tmpdir(), "retrace-install-timeout-it-"));
  });
  afterAll(async () => {
    await registry?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });
  const spec = (id: string) => ReproJobSpec.parse({ kind: "repro", id, markdown: REPORT, runs: 1 });

  it("is an infrastructure error naming the limit and what to do, not a question to the reporter", {
    timeout: 240_000,
  }, async () => {
    const error = await runRepro(spec("it-install-timeout"), ports(300)).then(
      (r) => r.result,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InfrastructureError);
    const e = error as InfrastructureError;
    expect(e.message).toMatch(
      /^could not install pad-left-x@1\.2\.0: timed out after 0\.3 s, the limit of one install .*the host's doing/,
    );
    expect(e.hint).toMatch(/less loaded|repro\.installTimeoutMs/);
  });

  it("with the ordinary limit the same report gets its verdict (the limit, not the report, stopped it)", {
    timeout: 240_000,
  }, async () => {
    const { result } = await runRepro(spec("it-install-ok"), ports(120_000));
    expect(result.verdict, result.summary).toBe("REPRODUCED");
  });
});
