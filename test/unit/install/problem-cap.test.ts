/**
 * A lockfile check lists at most MAX_PROBLEMS problems and then stops (CI on a slower machine took 8.7 s of host
 * CPU on a 300,000-entry lockfile of git sources, most of it listing 300,000 problems nobody reads). The list
 * ends with a note that says the check stopped; a lockfile with exactly MAX_PROBLEMS problems gets no note.
 */
import { describe, expect, it } from "vitest";
import {
  checkNpmLockfile,
  describeProblem,
  isStopNote,
  MAX_PROBLEMS,
  REGISTRY_ONLY,
} from "../../../src/install/lockfile-policy.ts";
import { SourcePolicyError } from "../../../src/install/npm.ts";
import { checkPnpmLockfile } from "../../../src/install/pnpm-lockfile.ts";
import { checkYarnBerryLockfile } from "../../../src/install/yarn-lockfile.ts";

const REG = "https://registry.npmjs.org/";

function npmLock(n: number): unknown {
  const packages: Record<string, unknown> = { "": { name: "x", version: "1.0.0" } };
  for (let i = 0; i < n; i++)
    packages[`node_modules/p${i}`] = {
      version: "1.0.0",
      resolved: `git+ssh://git@example.invalid/p${i}.git`,
    };
  return { lockfileVersion: 3, packages };
}

function v1Lock(n: number): unknown {
  const dependencies: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) dependencies[`p${i}`] = { version: "github:o/p" };
  return { lockfileVersion: 1, dependencies };
}

describe("the problem cap", () => {
  it("lists every problem up to the cap, with no note", () => {
    const problems = checkNpmLockfile(npmLock(MAX_PROBLEMS), REG, REGISTRY_ONLY);
    expect(problems).toHaveLength(MAX_PROBLEMS);
    expect(problems.some(isStopNote)).toBe(false);
    expect(problems.at(-1)!.entry).toBe(`lockfile packages["node_modules/p${MAX_PROBLEMS - 1}"]`);
  });

  it("stops past the cap and says so, for the v2/v3 packages and the v1 dependencies", () => {
    for (const lock of [npmLock(50_000), v1Lock(5_000)]) {
      const problems = checkNpmLockfile(lock, REG, REGISTRY_ONLY);
      expect(problems).toHaveLength(MAX_PROBLEMS + 1);
      expect(problems.slice(0, -1).every((p) => !isStopNote(p) && p.field === "install.allowGit")).toBe(true);
      expect(isStopNote(problems.at(-1)!)).toBe(true);
      expect(describeProblem(problems.at(-1)!)).toBe(
        `lockfile: has more than ${MAX_PROBLEMS} problems; the check stopped listing them there (regenerate the lockfile from the configured registry)`,
      );
    }
  });

  it("stops pnpm and yarn berry lockfiles the same way", () => {
    const pnpm: Record<string, unknown> = {};
    const berry: Record<string, unknown> = { __metadata: { version: 6 } };
    for (let i = 0; i < 3_000; i++) {
      pnpm[`/p${i}@1.0.0`] = {
        resolution: { repo: "https://example.invalid/p.git", commit: "0".repeat(40) },
      };
      berry[`p${i}@npm:1.0.0`] = { resolution: `p${i}@npm:1.0.0` };
    }
    for (const problems of [
      checkPnpmLockfile({ lockfileVersion: "6.0", packages: pnpm }, REG, REGISTRY_ONLY),
      checkYarnBerryLockfile(berry, REG, REGISTRY_ONLY),
    ]) {
      expect(problems).toHaveLength(MAX_PROBLEMS + 1);
      expect(problems.filter(isStopNote)).toHaveLength(1);
      expect(isStopNote(problems.at(-1)!)).toBe(true);
    }
  });

  it("the refusal names five problems, counts the rest and says the check stopped", () => {
    const problems = checkNpmLockfile(npmLock(2_000), REG, REGISTRY_ONLY);
    const message = new SourcePolicyError(problems, "installing package-lock.json").message;
    expect(message).toMatch(
      /^installing package-lock\.json refused: lockfile packages\["node_modules\/p0"\]: git dependency/,
    );
    expect(message.endsWith(`; and ${MAX_PROBLEMS - 5} more (the check stops after ${MAX_PROBLEMS})`)).toBe(
      true,
    );
    const few = new SourcePolicyError(checkNpmLockfile(npmLock(7), REG, REGISTRY_ONLY), "installing x")
      .message;
    expect(few.endsWith("; and 2 more")).toBe(true);
  });
});
