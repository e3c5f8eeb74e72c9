/**
 * Lockfile values npm cannot check or reads as another type (red team 32): any string passed as an integrity hash
 * (`""`, `md5-…`, `sha512-not base64!`, a 3-byte digest — npm ignores a hash it cannot parse and installs what the
 * registry served unchecked), and a `resolved` that is an array or an object (its String() is the URL inside).
 */
import { describe, expect, it } from "vitest";
import {
  checkNpmLockfile,
  isCheckableIntegrity,
  REGISTRY_ONLY,
} from "../../../src/install/lockfile-policy.ts";

const REG = "https://registry.npmjs.org/";
const SHA512 = `sha512-${Buffer.alloc(64, 7).toString("base64")}`;
const SHA1 = `sha1-${Buffer.alloc(20, 7).toString("base64")}`;
const lock = (entry: Record<string, unknown>, legacy = false) =>
  legacy
    ? {
        lockfileVersion: 1,
        dependencies: { leaf: { version: "1.0.0", resolved: `${REG}leaf/-/leaf-1.0.0.tgz`, ...entry } },
      }
    : {
        lockfileVersion: 3,
        packages: {
          "": { name: "app", version: "1.0.0", dependencies: { leaf: "1.0.0" } },
          "node_modules/leaf": { version: "1.0.0", resolved: `${REG}leaf/-/leaf-1.0.0.tgz`, ...entry },
        },
      };

describe("integrity values npm cannot check", () => {
  it.each([
    "",
    "  ",
    "md5-AAAAAAAAAAAAAAAAAAAAAA==",
    "sha512-not base64!",
    "sha512-AAAA",
    "hello world",
    `${SHA512} md5-AAAA`,
  ])("%j is refused naming the entry", (integrity) => {
    for (const legacy of [false, true]) {
      const problems = checkNpmLockfile(lock({ integrity }, legacy), REG, REGISTRY_ONLY);
      expect(problems.map((p) => p.reason).join("; ")).toMatch(/integrity value npm cannot check/);
      expect(problems[0]!.entry).toMatch(/leaf/);
    }
  });

  it("counter-examples: the hashes npm writes (sha512, sha1, several, with options) pass", () => {
    for (const integrity of [
      SHA512,
      SHA1,
      `${SHA1} ${SHA512}`,
      `sha256-${Buffer.alloc(32).toString("base64")}`,
      `${SHA512}?foo`,
    ]) {
      expect(isCheckableIntegrity(integrity), integrity).toBe(true);
      expect(checkNpmLockfile(lock({ integrity }), REG, REGISTRY_ONLY)).toEqual([]);
      expect(checkNpmLockfile(lock({ integrity }, true), REG, REGISTRY_ONLY)).toEqual([]);
    }
  });
});

describe("lockfile fields of another JSON type", () => {
  it.each([
    ["resolved", ["git+file:///var/tmp/host-repo#0000"]],
    ["resolved", { url: "git+file:///var/tmp/host-repo" }],
    ["version", 1],
    ["link", "true"],
    ["integrity", [SHA512]],
  ])("%s as %j is refused", (field, value) => {
    for (const legacy of [false, true]) {
      const problems = checkNpmLockfile(
        lock({ integrity: SHA512, [field]: value }, legacy),
        REG,
        REGISTRY_ONLY,
      );
      expect(problems.length, JSON.stringify(problems)).toBeGreaterThan(0);
      expect(problems[0]!.entry).toMatch(/leaf/);
    }
  });

  it("counter-example: an entry of the types npm writes passes (link true, inBundle true under a parent)", () => {
    expect(checkNpmLockfile(lock({ integrity: SHA512 }), REG, REGISTRY_ONLY)).toEqual([]);
    const bundled = {
      lockfileVersion: 3,
      packages: {
        "": { name: "app", version: "1.0.0", dependencies: { leaf: "1.0.0" } },
        "node_modules/leaf": { version: "1.0.0", resolved: `${REG}leaf/-/leaf-1.0.0.tgz`, integrity: SHA512 },
        "node_modules/leaf/node_modules/inner": { version: "2.0.0", inBundle: true },
      },
    };
    expect(checkNpmLockfile(bundled, REG, REGISTRY_ONLY)).toEqual([]);
  });
});
