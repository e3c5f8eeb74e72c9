import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  NODE_VERSIONS_TTL_MS,
  nodeVersionsKey,
  npmRegistryNodeSource,
} from "../../../src/install/node-runtime.ts";

// The registry is made unreachable by a PATH whose only npm fails (an empty PATH no longer does: the host's spawn
// PATH falls back to /usr/local/bin:/usr/bin:/bin, where a real npm reaches the registry): a call that asks the
// registry fails, one answered from the kept list does not.
let dir: string;
let savedPath: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "node-versions-"));
  savedPath = process.env.PATH;
  const bin = path.join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(
    path.join(bin, "npm"),
    "#!/bin/sh\necho 'npm: the registry is unreachable in this test' >&2\nexit 1\n",
  );
  chmodSync(path.join(bin, "npm"), 0o755);
  process.env.PATH = bin;
});
afterEach(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});
const keep = (at: number, key = nodeVersionsKey(), versions = ["18.20.4", "20.20.2", "not-a-version"]) =>
  writeFileSync(path.join(dir, "node-versions.json"), JSON.stringify({ key, at, versions }));

describe("npmRegistryNodeSource's list of Node releases", () => {
  it("a list fetched within the day answers without asking the registry (only valid versions)", async () => {
    keep(Date.now() - 60_000);
    expect(await npmRegistryNodeSource(dir).versions()).toEqual(["18.20.4", "20.20.2"]);
  });

  it("asks the registry for a list older than a day, one kept for other npm settings, a damaged file, or fresh", async () => {
    const source = npmRegistryNodeSource(dir);
    keep(Date.now() - NODE_VERSIONS_TTL_MS - 1);
    await expect(source.versions()).rejects.toThrow();
    keep(Date.now(), JSON.stringify({ npm_config_registry: "https://elsewhere.example/" }));
    await expect(source.versions()).rejects.toThrow();
    keep(Date.now());
    await expect(source.versions({ fresh: true })).rejects.toThrow();
    writeFileSync(path.join(dir, "node-versions.json"), "{half");
    await expect(source.versions()).rejects.toThrow();
    keep(Date.now() + 3_600_000); // stamped in the future: not trusted
    await expect(source.versions()).rejects.toThrow();
    // nothing was written by the failed requests
    expect(readFileSync(path.join(dir, "node-versions.json"), "utf8")).toContain("18.20.4");
  });
});
