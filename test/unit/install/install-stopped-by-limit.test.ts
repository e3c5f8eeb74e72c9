/**
 * An install the time limit stopped fails for the limit, whatever step noticed it (issue 12, f12c: an install that
 * stalled under load ended the repro as an error exit, not an infrastructure outcome). `asTimeout` turns a failure
 * seen after the limit stopped the container into the limit's error naming the step; a failure of a container the
 * limit never stopped keeps its own reason (the counter-examples). The repro then ends on it with exit 3 saying
 * what to do (`throwIfHostFailure`), and a package failure that is not the host's stays the report's question.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { stepName } from "../../../src/install/container.ts";
import { InstallFailedError, installTimedOut } from "../../../src/install/install-errors.ts";
import { asTimeout } from "../../../src/install/session.ts";
import { throwIfHostFailure } from "../../../src/repro/attempt.ts";

const limits = { timeoutMs: 300_000, timeoutSetting: "repro.installTimeoutMs in .github/retrace.yml" };
const stopped = (during: string | null) => ({ stoppedBy: "timeout" as const, stoppedDuring: during });

describe("asTimeout: a failure after the install's limit stopped the container", () => {
  it("is the limit's error, naming the step that was under way and the limit", () => {
    // What a stopped `npm install --package-lock-only` leaves: an empty lockfile read back.
    const seen = new InstallFailedError(
      "npm did not write a readable lockfile",
      "npm install --package-lock-only",
    );
    const e = asTimeout(seen, stopped("npm install --package-lock-only --ignore-scripts"), limits);
    expect(e).toBeInstanceOf(InstallFailedError);
    expect((e as InstallFailedError).reason).toBe(
      "timed out after 300 s, the limit of one install (repro.installTimeoutMs in .github/retrace.yml)",
    );
    expect((e as InstallFailedError).command).toBe("npm install --package-lock-only --ignore-scripts");
  });

  it("a copy-out cut short by the limit (a plain infrastructure error) is the limit's error too", () => {
    const seen = new InfrastructureError("could not copy node_modules out of the install container: timeout");
    const e = asTimeout(seen, stopped("copying node_modules out of the install container"), limits);
    expect((e as InstallFailedError).reason).toMatch(/^timed out after 300 s/);
    expect((e as InstallFailedError).command).toBe("copying node_modules out of the install container");
  });

  it("the limit reached between steps names the install as a whole", () => {
    const e = asTimeout(new Error("boom"), stopped(null), limits);
    expect((e as InstallFailedError).command).toBe("the install");
  });

  it("keeps the error that already names the limit", () => {
    const own = installTimedOut("npm ci", limits);
    expect(asTimeout(own, stopped("npm ci"), limits)).toBe(own);
  });

  it("counter-examples: a container the limit never stopped keeps its failure (a missing version, a cancel)", () => {
    const missing = new InstallFailedError(
      "no matching version of left-pad@9.9.9",
      "npm install --package-lock-only",
    );
    expect(asTimeout(missing, { stoppedBy: null, stoppedDuring: null }, limits)).toBe(missing);
    const cancelled = new Error("cancelled");
    expect(asTimeout(cancelled, { stoppedBy: "cancelled", stoppedDuring: "npm ci" }, limits)).toBe(cancelled);
  });
});

describe("stepName", () => {
  it("names the program and its flags, not an inline script", () => {
    expect(stepName(["npm", "ci", "--ignore-scripts"])).toBe("npm ci --ignore-scripts");
    expect(stepName(["sh", "-c", "i=0; while true; do sleep 1; done"])).toBe("sh -c …");
    expect(stepName(["pip", "download", ...Array.from({ length: 50 }, (_, i) => `pkg${i}`)])).toBe(
      "pip download pkg0 pkg1 pkg2 pkg3",
    );
  });
});

describe("throwIfHostFailure: the repro's outcome of an install stopped at its limit", () => {
  const reason = installTimedOut("npm ci", limits).reason;

  it("is an infrastructure error (exit 3) naming the packages, the limit, the step and what to do", () => {
    let error: unknown = null;
    try {
      throwIfHostFailure({
        ecosystem: "npm",
        failures: [{ name: "es-pkg", version: "1.2.3", reason, step: "npm ci" }],
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InfrastructureError);
    const e = error as InfrastructureError;
    expect(e.exitCode).toBe(3);
    expect(e.message).toBe(
      "could not install es-pkg@1.2.3: timed out after 300 s, the limit of one install (repro.installTimeoutMs in .github/retrace.yml), in the step `npm ci` — the host's doing, not the report's; no verdict was reached",
    );
    expect(e.hint).toMatch(/run again when the machine is less loaded/);
    expect(e.hint).toMatch(/`--install-timeout SECONDS` for the CLI, repro\.installTimeoutMs/);
  });

  it("counter-example: a release the registry lacks is the report's question, not the host's", () => {
    expect(() =>
      throwIfHostFailure({
        ecosystem: "npm",
        failures: [
          { name: "es-pkg", version: "9.9.9", reason: "no such version: es-pkg@9.9.9", step: "npm install" },
        ],
      }),
    ).not.toThrow();
  });
});
