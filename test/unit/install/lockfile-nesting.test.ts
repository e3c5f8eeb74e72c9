/**
 * Nesting in manifests (fifth red team): a lockfileVersion 1 `dependencies` tree 20,000 deep overflowed the
 * host's stack; `overrides` past 32 levels were skipped unchecked. Both are refused past MAX_NESTING now.
 */
import { describe, expect, it } from "vitest";
import {
  checkNpmLockfile,
  checkPackageJson,
  MAX_NESTING,
  REGISTRY_ONLY,
} from "../../../src/install/lockfile-policy.ts";

const REG = "https://registry.npmjs.org/";
const INTEGRITY = `sha512-${"A".repeat(86)}==`;

function v1(depth: number): unknown {
  let deps: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++)
    deps = {
      a: { version: "1.0.0", resolved: `${REG}a/-/a-1.0.0.tgz`, integrity: INTEGRITY, dependencies: deps },
    };
  return { name: "x", lockfileVersion: 1, dependencies: deps };
}

describe("nesting bounds", () => {
  it("refuses a v1 lockfile nested deeper than the bound, without a stack overflow", () => {
    const problems = checkNpmLockfile(v1(20_000), REG, REGISTRY_ONLY);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(`nests deeper than ${MAX_NESTING} levels`);
  });

  it("accepts a v1 lockfile of ordinary depth", () => {
    expect(checkNpmLockfile(v1(12), REG, REGISTRY_ONLY)).toEqual([]);
  });

  it("refuses overrides nested past the bound instead of skipping what is below", () => {
    let o: unknown = "git+https://example.com/x.git";
    for (let i = 0; i < 150; i++) o = { [`p${i}`]: o };
    const problems = checkPackageJson({ name: "x", overrides: o }, REG, REGISTRY_ONLY);
    expect(problems.map((p) => p.reason).join("\n")).toMatch(`nests deeper than ${MAX_NESTING} levels`);
    // 40 levels (past the old bound of 32): the git spec at the bottom is read and refused.
    let shallow: unknown = "git+https://example.com/x.git";
    for (let i = 0; i < 40; i++) shallow = { [`p${i}`]: shallow };
    const named = checkPackageJson({ name: "x", overrides: shallow }, REG, REGISTRY_ONLY);
    expect(named).toHaveLength(1);
    expect(named[0]!.field).toBe("install.allowGit");
  });
});
