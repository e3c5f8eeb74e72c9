/**
 * What the sandbox image offers to a repository's own test command: CI workflows write `python -m pytest` as
 * often as `python3 -m pytest`, so both names run the image's Python (Debian's python-is-python3).
 */
import { expect, it } from "vitest";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

describeDocker("the sandbox image's runtimes", () => {
  it("`python` and `python3` are the same Python 3.11; node and npm are there", async () => {
    const r = await createDockerSandbox({ image: sandboxImage }).run({
      jobId: "test-runtimes",
      command: ["sh", "-c", "python --version; python3 --version; node --version; npm --version"],
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const [python, python3, node] = r.stdout.trim().split("\n");
    expect(python).toMatch(/^Python 3\.11\.\d+$/);
    expect(python3).toBe(python);
    expect(node).toMatch(/^v18\./);
  });
});
