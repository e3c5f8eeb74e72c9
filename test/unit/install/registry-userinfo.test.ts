/**
 * Credentials an operator writes into a registry or index URL (`PIP_INDEX_URL=https://user:token@host/simple`, npm's
 * `registry=https://user:token@host/`): red team 32 found the password in pip's argument list inside the install
 * container (every local user of the host reads it in the process table), in the JSON of the registry configuration
 * and in the look-up's cache keys. They are taken out of every URL into credentials; pip gets them back only in its
 * environment.
 */
import { describe, expect, it } from "vitest";
import { pipIndexSettings } from "../../../src/install/pip.ts";
import {
  type RegistryConfig,
  RegistryCredentials,
  registryKey,
  splitUserinfo,
  withoutUserinfo,
} from "../../../src/install/registry-config.ts";

const PASSWORD = "s3cr%40t-token";
const config = (over: Partial<RegistryConfig> = {}): RegistryConfig => ({
  npm: `https://ci:${PASSWORD}@npm.corp.example/api/npm/`,
  npmScopes: { "@acme": `https://acme:${PASSWORD}@acme.example/npm/` },
  pip: {
    indexUrl: `https://ci:${PASSWORD}@pypi.corp.example/simple`,
    extraIndexUrls: [`https://x:${PASSWORD}@extra.example/simple/`],
    findLinks: ["/srv/wheels"],
  },
  caFile: null,
  ...over,
});

describe("credentials inside registry URLs", () => {
  it("splits userinfo into an npm-style credential key and a Basic header", () => {
    const r = splitUserinfo(`https://ci:${PASSWORD}@pypi.corp.example/simple`);
    expect(r.url).toBe("https://pypi.corp.example/simple");
    expect(r.credential?.[0]).toBe("//pypi.corp.example/simple/");
    expect(Buffer.from(r.credential![1].slice(6), "base64").toString()).toBe("ci:s3cr@t-token");
  });

  it("leaves no password in any URL, key or JSON of the configuration", () => {
    const c = withoutUserinfo(config());
    const text = [
      JSON.stringify(c),
      registryKey(c, "npm"),
      registryKey(c, "pypi"),
      String(c.npmAuth),
      String(c.pipAuth),
    ];
    for (const t of text) {
      expect(t).not.toContain(PASSWORD);
      expect(t).not.toContain("s3cr@t");
    }
    expect(c.npm).toBe("https://npm.corp.example/api/npm/");
    expect(c.npmScopes).toEqual({ "@acme": "https://acme.example/npm/" });
    expect(c.pip.indexUrl).toBe("https://pypi.corp.example/simple");
    // The credentials still go to their hosts, as headers.
    expect(c.npmAuth?.authorizationFor("https://npm.corp.example/api/npm/left-pad")).toMatch(/^Basic /);
    expect(c.npmAuth?.authorizationFor("https://acme.example/npm/@acme%2fx")).toMatch(/^Basic /);
    expect(c.pipAuth?.authorizationFor("https://pypi.corp.example/simple/requests/")).toMatch(/^Basic /);
    expect(c.pipAuth?.authorizationFor("https://other.example/simple/requests/")).toBeNull();
  });

  it("gives pip its credentials in the environment only, never as arguments", () => {
    const s = pipIndexSettings(withoutUserinfo(config()));
    expect(s.args.join(" ")).not.toContain("s3cr");
    expect(s.env.PIP_INDEX_URL).toBe(`https://ci:s3cr%40t-token@pypi.corp.example/simple`);
    expect(s.env.PIP_EXTRA_INDEX_URL).toBe(`https://x:s3cr%40t-token@extra.example/simple/`);
    expect(s.env.PIP_FIND_LINKS).toBe("/srv/wheels");
  });

  it("counter-examples: URLs without userinfo, operator .npmrc credentials and local mirrors are kept as they were", () => {
    const plain: RegistryConfig = {
      npm: "https://registry.npmjs.org/",
      npmAuth: new RegistryCredentials([["//registry.npmjs.org/", "Bearer t"]]),
      pip: { indexUrl: "https://pypi.org/simple", extraIndexUrls: [], findLinks: ["file:///srv/wheels"] },
      caFile: null,
    };
    const c = withoutUserinfo(plain);
    expect(c.npm).toBe(plain.npm);
    expect(c.pip).toEqual(plain.pip);
    expect(c.pipAuth).toBeUndefined();
    expect(c.npmAuth?.authorizationFor("https://registry.npmjs.org/x")).toBe("Bearer t");
    expect(pipIndexSettings(c)).toEqual({
      args: ["--index-url", "https://pypi.org/simple", "--find-links", "file:///srv/wheels"],
      env: {},
    });
    // npm's own credential and one from a URL are merged, the longest key winning as before.
    const both = withoutUserinfo({ ...plain, npm: `https://u:${PASSWORD}@registry.npmjs.org/private/` });
    expect(both.npmAuth?.authorizationFor("https://registry.npmjs.org/private/x")).toMatch(/^Basic /);
    expect(both.npmAuth?.authorizationFor("https://registry.npmjs.org/x")).toBe("Bearer t");
  });
});
