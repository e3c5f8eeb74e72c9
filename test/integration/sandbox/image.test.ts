/**
 * Sandbox image provisioning against the real engine: the build path (a real Dockerfile through the engine's
 * build API), the saved copy loaded on the next run, and the error that lists every attempt. The pull path
 * runs end to end in test/e2e/action-image.test.ts (a local registry and a fresh engine).
 */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { connectDocker } from "../../../src/sandbox/engine.ts";
import { provisionSandboxImage, readPublishedImage, throughMirror } from "../../../src/sandbox/image.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const docker = connectDocker();
const BUILT = "retrace-sandbox:action-build";
// Nothing listens on port 1: a pull from it fails at once, as on a runner that cannot reach the registry.
const UNREACHABLE = `127.0.0.1:1/retrace/sandbox@sha256:${"1".repeat(64)}`;
let context: string;
let cacheDir: string;

async function removeBuilt(): Promise<void> {
  await docker
    .getImage(BUILT)
    .remove({ force: true })
    .catch(() => {});
}

describeDocker("provisionSandboxImage (real Docker)", () => {
  beforeAll(async () => {
    await removeBuilt();
    context = mkdtempSync(join(tmpdir(), "retrace-image-ctx-"));
    // A real Dockerfile on a base the engine has: the same build path as the Action's shipped sandbox/.
    writeFileSync(join(context, "Dockerfile"), `FROM ${sandboxImage}\nLABEL dev.retrace.provision-test=1\n`);
    cacheDir = mkdtempSync(join(tmpdir(), "retrace-image-cache-"));
  });
  afterAll(removeBuilt);

  it("falls back to building from the Dockerfile when the pull fails, and saves the result", async () => {
    const log: string[] = [];
    const r = await provisionSandboxImage(docker, {
      image: UNREACHABLE,
      buildContext: context,
      cacheDir,
      log: (l) => log.push(l),
    });
    expect(r).toMatchObject({ image: BUILT, how: "built" });
    expect(log.join("\n")).toContain(`pulling the sandbox image ${UNREACHABLE}`);
    expect(log.join("\n")).toContain("pull failed");
    const info = await docker.getImage(BUILT).inspect();
    expect(info.Config.Labels?.["dev.retrace.provision-test"]).toBe("1");
    expect(readdirSync(cacheDir)).toEqual(["retrace-sandbox_action-build.tar"]);
  }, 240_000);

  it("uses the built image while it is there, and loads the saved copy once it is gone", async () => {
    expect(
      (await provisionSandboxImage(docker, { image: UNREACHABLE, buildContext: context, cacheDir })).how,
    ).toBe("present");
    await removeBuilt();
    const r = await provisionSandboxImage(docker, { image: UNREACHABLE, buildContext: context, cacheDir });
    expect(r).toMatchObject({ image: BUILT, how: "loaded" });
  }, 240_000);

  it("an image already on the engine is used as it is", async () => {
    expect(await provisionSandboxImage(docker, { image: sandboxImage })).toMatchObject({
      image: sandboxImage,
      how: "present",
    });
  });

  it("when nothing works, the error names every attempt and what to set", async () => {
    await removeBuilt();
    const empty = mkdtempSync(join(tmpdir(), "retrace-image-empty-"));
    const err = await provisionSandboxImage(docker, { image: UNREACHABLE, buildContext: empty }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(InfrastructureError);
    expect(err.message).toContain(`pulling ${UNREACHABLE}`);
    expect(err.message).toContain(`no Dockerfile in ${empty}`);
    expect(err.hint).toContain("sandbox-image");
    const none = await provisionSandboxImage(docker, {}).catch((e) => e);
    expect(none.message).toContain("names no published image");
  }, 60_000);
});

it("routes a reference through a registry mirror", () => {
  expect(throughMirror("ghcr.io/retrace/sandbox@sha256:ab", "mirror.local:5000")).toBe(
    "mirror.local:5000/retrace/sandbox@sha256:ab",
  );
  expect(throughMirror("127.0.0.1:5000/x/y:1", "https://m.example/")).toBe("m.example/x/y:1");
  expect(throughMirror("debian:bookworm", "m.example")).toBe("m.example/library/debian:bookworm");
  expect(throughMirror("owner/name:1", "m.example")).toBe("m.example/owner/name:1");
});

it("reads the published image only when it names a digest", () => {
  const dir = mkdtempSync(join(tmpdir(), "retrace-published-"));
  const file = join(dir, "published.json");
  expect(readPublishedImage(file)).toBeNull();
  writeFileSync(file, JSON.stringify({ repository: "ghcr.io/retrace/sandbox", digest: "" }));
  expect(readPublishedImage(file)).toBeNull();
  const digest = `sha256:${"a".repeat(64)}`;
  writeFileSync(file, JSON.stringify({ repository: "ghcr.io/retrace/sandbox", digest }));
  expect(readPublishedImage(file)).toEqual({ repository: "ghcr.io/retrace/sandbox", digest });
});
