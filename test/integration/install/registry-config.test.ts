import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRegistryConfig } from "../../../src/install/registry-config.ts";

// The operator's npm configuration read through one `npm config list --json` (the registry, its CA file, the
// scoped registries, and credentials from the user .npmrc npm names): the values npm itself reports.
describe("readRegistryConfig from npm's own configuration", () => {
  it("takes the registry, cafile, scopes and the user .npmrc's credentials that npm reports", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "retrace-npmrc-"));
    try {
      const rc = path.join(home, ".npmrc");
      const ca = path.join(home, "ca.pem");
      await writeFile(ca, "-----BEGIN CERTIFICATE-----\n");
      await writeFile(
        rc,
        [
          "registry=http://mirror.example:4873",
          `cafile=${ca}`,
          "@acme:registry=https://npm.acme.example/",
          `//npm.acme.example/:_authToken=\${ACME_TOKEN}`,
          "",
        ].join("\n"),
      );
      const read = await readRegistryConfig({
        PATH: process.env.PATH,
        HOME: home,
        npm_config_userconfig: rc,
        ACME_TOKEN: "tok-123",
      });
      expect(read.npm).toBe("http://mirror.example:4873/");
      expect(read.caFile).toBe(ca);
      expect(read.npmScopes).toEqual({ "@acme": "https://npm.acme.example/" });
      expect(read.npmAuth?.authorizationFor("https://npm.acme.example/@acme%2fwidget")).toBe(
        "Bearer tok-123",
      );
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("npm's default registry when the operator set none, and no CA file that does not exist", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "retrace-npmrc-"));
    try {
      const rc = path.join(home, ".npmrc");
      await writeFile(rc, "cafile=/nonexistent/ca.pem\n");
      const read = await readRegistryConfig({
        PATH: process.env.PATH,
        HOME: home,
        npm_config_userconfig: rc,
      });
      expect(read.npm).toBe("https://registry.npmjs.org/");
      expect(read.caFile).toBeNull();
      expect(read.npmScopes).toBeUndefined();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
