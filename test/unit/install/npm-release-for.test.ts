/**
 * The release a report without a version runs on: the registry's latest, unless the sandbox's Node is outside
 * its `engines.node`; then the newest stable, non-deprecated release that declares support for that Node.
 */
import { describe, expect, it } from "vitest";
import { npmReleaseFor } from "../../../src/install/registry-lookup.ts";
import { parseNodeVersion } from "../../../src/jobs/sandbox-runtime.ts";

const packument = {
  "dist-tags": { latest: "15.1.0" },
  versions: {
    "13.1.0": { engines: { node: ">=18" } },
    "14.0.0": { engines: { node: ">=20" } },
    "14.0.3": { engines: { node: ">=20" } },
    "12.0.0": {},
    "13.2.0-beta.1": { engines: { node: ">=18" } },
    "13.1.1": { engines: { node: ">=18" }, deprecated: "broken publish" },
    "15.1.0": { engines: { node: ">=22.12.0" } },
  },
};

describe("npmReleaseFor", () => {
  it("keeps the latest when the runtime is unknown or inside its engines", () => {
    expect(npmReleaseFor(packument, null)).toBe("15.1.0");
    expect(npmReleaseFor(packument, "22.12.0")).toBe("15.1.0");
    expect(npmReleaseFor({ "dist-tags": { latest: "5.6.2" }, versions: {} }, "18.20.4")).toBe("5.6.2");
  });

  it("takes the newest stable, non-deprecated release that declares support for an older Node", () => {
    expect(npmReleaseFor(packument, "18.20.4")).toBe("13.1.0");
    expect(npmReleaseFor(packument, "20.11.1")).toBe("14.0.3");
    // No engines at all counts as support (npm installs it on any Node).
    expect(npmReleaseFor(packument, "16.0.0")).toBe("12.0.0");
  });

  it("never goes above the latest, reads `||` ranges, and falls back to the latest when nothing fits", () => {
    const chalk = {
      "dist-tags": { latest: "5.6.2" },
      versions: {
        "5.6.2": { engines: { node: "^12.17.0 || ^14.13 || >=16.0.0" } },
        "6.0.0": { engines: { node: ">=18" } },
      },
    };
    expect(npmReleaseFor(chalk, "18.20.4")).toBe("5.6.2");
    expect(npmReleaseFor(packument, "10.0.0")).toBe("12.0.0");
    expect(
      npmReleaseFor(
        { "dist-tags": { latest: "2.0.0" }, versions: { "2.0.0": { engines: { node: ">=99" } } } },
        "18.20.4",
      ),
    ).toBe("2.0.0");
    expect(npmReleaseFor({ "dist-tags": {} }, "18.20.4")).toBeNull();
  });
});

describe("parseNodeVersion", () => {
  it("reads `node --version`", () => {
    expect(parseNodeVersion("v18.20.4\n")).toBe("18.20.4");
    expect(parseNodeVersion("command not found")).toBeNull();
  });
});
