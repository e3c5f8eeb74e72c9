import Docker from "dockerode";
import { expect, it } from "vitest";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker } from "../../support/docker.ts";

describeDocker("sandbox errors say what to do", () => {
  it("an unreachable engine names the address and the fix, without hanging", async () => {
    const sb = createDockerSandbox({
      docker: new Docker({ socketPath: "/nonexistent/retrace-docker.sock" }),
    });
    const t0 = Date.now();
    await expect(sb.run({ jobId: "err-engine", command: ["true"] })).rejects.toThrow(
      /Docker engine not reachable at \/nonexistent\/retrace-docker\.sock/,
    );
    await expect(sb.run({ jobId: "err-engine", command: ["true"] })).rejects.toMatchObject({
      kind: "infrastructure",
      hint: expect.stringMatching(/set DOCKER_HOST/),
    });
    await expect(sb.reap()).rejects.toMatchObject({ kind: "infrastructure" });
    expect(Date.now() - t0).toBeLessThan(18_000);
  });

  it("a missing image names the command that builds it", async () => {
    const sb = createDockerSandbox({ image: "retrace-sandbox:does-not-exist" });
    await expect(sb.run({ jobId: "err-image", command: ["true"] })).rejects.toMatchObject({
      message: expect.stringMatching(/sandbox image retrace-sandbox:does-not-exist not found/),
      hint: expect.stringMatching(/npm run setup|build-offline\.sh/),
    });
  });

  it("invalid limits and requests are refused before any container exists", async () => {
    const sb = createDockerSandbox();
    await expect(sb.run({ jobId: "err-limits", command: ["true"], limits: { memoryMb: 0 } })).rejects.toThrow(
      /invalid sandbox limits: memoryMb/,
    );
    await expect(sb.run({ jobId: "err-env", command: ["true"], env: { "BAD-NAME": "x" } })).rejects.toThrow(
      /environment variable name/,
    );
    await expect(sb.run({ jobId: "err-cmd", command: [] })).rejects.toThrow(/command is empty/);
    await expect(sb.run({ jobId: "err-wd", command: ["true"], workdir: "../.." })).rejects.toThrow(
      /unsafe path/,
    );
    expect(() => createDockerSandbox({ defaults: { timeoutMs: -1 } })).toThrow(/timeoutMs/);
  });
});
