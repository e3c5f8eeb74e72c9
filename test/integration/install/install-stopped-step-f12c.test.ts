/**
 * Issue 12 (f12c): an install that stalls under load. Whatever notices the stop after the install's limit killed
 * the container (a step that read back nothing, a copy-out cut short) reports the limit, naming the step that was
 * under way, so the repro ends as an infrastructure outcome instead of an error exit or a question about the
 * package. Real install container, a 1 s limit a 20 s step cannot meet; the same steps under the ordinary limit
 * (60 s) keep their own failure (the counter-example).
 */
import { expect, it } from "vitest";
import { InstallFailedError } from "../../../src/install/install-errors.ts";
import { DEFAULT_INSTALL_LIMITS } from "../../../src/install/container.ts";
import type { RegistryConfig } from "../../../src/install/registry-config.ts";
import { withSession } from "../../../src/install/session.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const registry: RegistryConfig = {
  npm: "http://127.0.0.1:9/",
  npmScopes: {},
  pip: { indexUrl: "http://127.0.0.1:9/simple", extraIndexUrls: [], findLinks: [] },
  caFile: null,
};

/** A step, then a read-back that fails on what the step left (as the lockfile read after a resolution does). */
const steps = (seconds: number, limitMs: number) =>
  withSession(
    {
      docker: connectDocker(),
      image: sandboxImage,
      limits: {
        ...DEFAULT_INSTALL_LIMITS,
        timeoutMs: limitMs,
        timeoutSetting: "repro.installTimeoutMs in .github/retrace.yml",
      },
      allowHosts: [],
      registry,
      jobId: "it-install-stopped-step",
    },
    async (s) => {
      await s.container.exec(["sleep", String(seconds)]);
      const back = await s.container.exec(["cat", "/out/package-lock.json"]);
      if (back.exitCode !== 0 || !back.stdout.trim())
        throw new InstallFailedError(
          "npm did not write a readable lockfile",
          "npm install --package-lock-only",
        );
      return back.stdout;
    },
  );

describeDocker("an install step the limit stopped (real install container)", () => {
  it("names the limit and the step under way, not the read-back that failed after it", async () => {
    const error = await steps(20, 1_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InstallFailedError);
    expect((error as InstallFailedError).reason).toBe(
      "timed out after 1 s, the limit of one install (repro.installTimeoutMs in .github/retrace.yml)",
    );
    expect((error as InstallFailedError).command).toBe("sleep 20");
  }, 120_000);

  it("counter-example: steps that end within the limit (60 s) keep the read-back's own failure", async () => {
    const error = await steps(0, 60_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InstallFailedError);
    expect((error as InstallFailedError).reason).toBe("npm did not write a readable lockfile");
  }, 120_000);
});
