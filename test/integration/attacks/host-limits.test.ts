/**
 * The operator's host maxima on the real engine (issue 14's leftover): the cap on what a run returns to the
 * host follows RETRACE_HOST_LIMITS collectMb, lowered and raised, with its default (64 MiB) unchanged.
 */
import { afterEach, expect, it } from "vitest";
import { HOST_LIMITS_ENV } from "../../../src/core/host-limits.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const saved = process.env[HOST_LIMITS_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[HOST_LIMITS_ENV];
  else process.env[HOST_LIMITS_ENV] = saved;
});

describeDocker("operator's host maxima: what a run returns", () => {
  const run = () =>
    createDockerSandbox({ image: sandboxImage }).run({
      jobId: "host-limits-collect",
      command: ["sh", "-c", "echo small > a.txt; head -c 3145728 /dev/zero > report.xml; true"],
      env: { PATH: "/usr/bin:/bin" },
      collect: ["a.txt", "report.xml"],
    });

  it("by default a 3 MiB report comes back; with collectMb=1 it does not, and is named", async () => {
    delete process.env[HOST_LIMITS_ENV];
    const full = await run();
    expect(full.exitCode, full.stderr).toBe(0);
    expect(full.files["report.xml"]?.length).toBe(3 * 1024 * 1024);
    process.env[HOST_LIMITS_ENV] = "collectMb=1";
    const capped = await run();
    expect(Object.keys(capped.files)).toEqual(["a.txt"]);
    expect(capped.collectTooLarge).toEqual(["report.xml"]);
  }, 120_000);
});
