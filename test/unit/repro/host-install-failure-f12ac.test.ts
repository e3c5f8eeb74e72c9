/**
 * An install failure the host caused (its time limit, an unreachable registry) is an infrastructure error, never
 * a question about the reporter's version (issue 12, fixer f12ac); the reasons are the installer's own wording,
 * built from the same constants. Failures of the package itself keep their question.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { installTimedOut } from "../../../src/install/install-errors.ts";
import { installFailureReason } from "../../../src/install/reasons.ts";
import { throwIfHostFailure } from "../../../src/repro/attempt.ts";
import { hostInstallFailure, NO_SUCH_PACKAGE } from "../../../src/repro/ports.ts";

const failed = (reason: string, ecosystem: "npm" | "pypi" = "npm") => ({
  failures: [{ name: "left-pad", version: "1.3.0", reason }],
  ecosystem,
});

describe("an install failure the host caused", () => {
  it("the installer's time-limit reason is a timeout, with what to do", () => {
    const reason = installTimedOut("npm install", { timeoutMs: 300, timeoutSetting: "x.y" }).reason;
    expect(hostInstallFailure(reason)).toBe("timeout");
    expect(() => throwIfHostFailure(failed(reason))).toThrow(InfrastructureError);
    try {
      throwIfHostFailure(failed(reason));
    } catch (e) {
      expect((e as InfrastructureError).message).toMatch(
        /^could not install left-pad@1\.3\.0: timed out after 0\.3 s/,
      );
      expect((e as InfrastructureError).hint).toMatch(/less loaded/);
    }
  });
  it("an unreachable npm registry or pip index is one too", () => {
    const npm = installFailureReason("npm error network ETIMEDOUT", "npm");
    const pip = installFailureReason(
      "WARNING: Retrying ... Read timed out.\nERROR: Could not fetch URL x",
      "pypi",
    );
    expect(hostInstallFailure(npm)).toBe("unreachable");
    expect(hostInstallFailure(pip)).toBe("unreachable");
    expect(() => throwIfHostFailure(failed(pip, "pypi"))).toThrow(/could not install left-pad==1\.3\.0/);
  });
  it("never fires on a failure of the package itself (a missing version or name, conflicting peers)", () => {
    for (const reason of [
      `${NO_SUCH_PACKAGE}: the npm registry has no package of that name`,
      "left-pad==1.3.0 is not in the package index here (it offers 1.1.0, 1.2.0)",
      "conflicting peer dependencies",
      "no such version: 1.3.0 (the package is on the registry; it took longer than expected to answer)",
    ]) {
      expect(hostInstallFailure(reason)).toBeNull();
      expect(() => throwIfHostFailure(failed(reason))).not.toThrow();
    }
  });
});
