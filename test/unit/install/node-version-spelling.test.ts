import { describe, expect, it } from "vitest";
import { isCanonicalVersion } from "../../../src/install/node-runtime.ts";

describe("isCanonicalVersion (Node versions a registry lists)", () => {
  it("keeps versions as semver writes them", () => {
    for (const v of ["18.19.0", "21.0.0-rc.1", "0.10.48"]) expect(isCanonicalVersion(v)).toBe(true);
  });
  it("refuses what semver accepts around a version (they name an image tag, a label line, a directory)", () => {
    for (const v of ["v18.0.0", " 18.0.0", "18.0.0\n", "18.0.0+evil.1", "=18.0.0", "18.0", 18, null])
      expect(isCanonicalVersion(v)).toBe(false);
  });
});
