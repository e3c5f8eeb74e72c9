import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.ts";
import { readInputs } from "../../../src/action/inputs.ts";

const base: Record<string, string> = { "github-token": "ghs_x" };
const read = (extra: Record<string, string>) => readInputs((n) => ({ ...base, ...extra })[n] ?? "");

describe("the Action's sandbox inputs", () => {
  it("are empty by default (the published image, the tool cache)", () => {
    expect(read({})).toMatchObject({
      sandboxImage: null,
      sandboxRegistryMirror: null,
      sandboxCacheDir: null,
    });
  });

  it("take a pinned reference, a mirror host and a cache directory", () => {
    const digest = `sha256:${"c".repeat(64)}`;
    expect(
      read({
        "sandbox-image": `ghcr.io/acme/sandbox@${digest}`,
        "sandbox-registry-mirror": "mirror.acme.internal:5000",
        "sandbox-cache-dir": "/opt/cache",
      }),
    ).toMatchObject({
      sandboxImage: `ghcr.io/acme/sandbox@${digest}`,
      sandboxRegistryMirror: "mirror.acme.internal:5000",
      sandboxCacheDir: "/opt/cache",
    });
  });

  it("refuse a reference that could be an option or hold a space, naming the input", () => {
    for (const bad of ["--privileged", "img name", "img;rm"]) {
      expect(() => read({ "sandbox-image": bad })).toThrow(ConfigError);
      expect(() => read({ "sandbox-image": bad })).toThrow(/input sandbox-image must be an image reference/);
    }
  });

  it("refuse a mirror that is not a registry host", () => {
    expect(() => read({ "sandbox-registry-mirror": "mirror/with/path" })).toThrow(
      /input sandbox-registry-mirror/,
    );
  });
});
