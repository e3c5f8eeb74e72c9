import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { EventEmitter } from "node:events";
import type Docker from "dockerode";
import { afterEach, describe, expect, it } from "vitest";
import { imageToolVersion } from "../../../src/install/node-runtime.ts";

/** A Docker double: one image, whose `<tool> --version` container prints `printed`; counts the containers made. */
function fakeDocker(id: string, printed: string, labels: Record<string, string> = {}) {
  const made: string[][] = [];
  const docker = {
    getImage: () => ({ inspect: async () => ({ Id: id, Config: { Labels: labels } }) }),
    createContainer: async (spec: { Cmd: string[] }) => {
      made.push(spec.Cmd);
      const stream = new EventEmitter();
      return {
        attach: async () => stream,
        start: async () => {
          stream.emit("data", Buffer.from(printed));
        },
        wait: async () => ({ StatusCode: 0 }),
        remove: async () => {},
      };
    },
  } as unknown as Docker;
  return { docker, made };
}

const ID_A = `sha256:${"a".repeat(64)}`;
const ID_B = `sha256:${"b".repeat(64)}`;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("imageToolVersion with a cache file", () => {
  it("asks the image once per id and tool, then reads the answer back", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tool-cache-"));
    const file = path.join(dir, "image-tools.json");
    const a = fakeDocker(ID_A, "v18.20.4\n");
    expect(await imageToolVersion(a.docker, "img", "node", file)).toBe("18.20.4");
    expect(await imageToolVersion(a.docker, "img", "node", file)).toBe("18.20.4");
    expect(a.made).toEqual([["node", "--version"]]);
    // another tool of the same image is asked, and kept beside the first
    const p = fakeDocker(ID_A, "Python 3.11.2\n");
    expect(await imageToolVersion(p.docker, "img", "python3", file)).toBe("3.11.2");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      [ID_A]: { node: "18.20.4", python3: "3.11.2" },
    });
    // a rebuilt image (another id) is asked again
    const b = fakeDocker(ID_B, "v20.1.0\n");
    expect(await imageToolVersion(b.docker, "img", "node", file)).toBe("20.1.0");
    expect(b.made).toHaveLength(1);
  });

  it("a version that could not be read is not kept; an unreadable or damaged file means asking", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tool-cache-"));
    const file = path.join(dir, "image-tools.json");
    const none = fakeDocker(ID_A, "sh: node: not found\n");
    expect(await imageToolVersion(none.docker, "img", "node", file)).toBeNull();
    expect(await imageToolVersion(none.docker, "img", "node", file)).toBeNull();
    expect(none.made).toHaveLength(2);
    writeFileSync(file, JSON.stringify({ [ID_A]: { node: "not a version" } }));
    const a = fakeDocker(ID_A, "v18.20.4\n");
    expect(await imageToolVersion(a.docker, "img", "node", file)).toBe("18.20.4");
    expect(a.made).toHaveLength(1);
    writeFileSync(file, "{half");
    expect(await imageToolVersion(a.docker, "img", "node", file)).toBe("18.20.4");
    expect(a.made).toHaveLength(2);
  });

  it("without a cache file every call asks; a label on the image answers without a container", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tool-cache-"));
    const a = fakeDocker(ID_A, "v18.20.4\n");
    await imageToolVersion(a.docker, "img", "node");
    await imageToolVersion(a.docker, "img", "node");
    expect(a.made).toHaveLength(2);
    const labelled = fakeDocker(ID_A, "", { "dev.retrace.node": "22.11.0" });
    expect(await imageToolVersion(labelled.docker, "img", "node", path.join(dir, "x.json"))).toBe("22.11.0");
    expect(labelled.made).toHaveLength(0);
  });
});

describe("imageToolVersion is bounded: the image's tool can be any program", () => {
  /** A double whose container never exits on its own (or prints `chunks`), recording what was asked of it. */
  function endless(chunks: Buffer[] = []) {
    const asked = { spec: null as unknown as { HostConfig: Record<string, unknown> }, removed: 0 };
    let end: (() => void) | null = null;
    const docker = {
      getImage: () => ({ inspect: async () => ({ Id: ID_A, Config: { Labels: {} } }) }),
      createContainer: async (spec: { HostConfig: Record<string, unknown> }) => {
        asked.spec = spec;
        const stream = new EventEmitter();
        return {
          attach: async () => stream,
          start: async () => {
            for (const c of chunks) stream.emit("data", c);
          },
          // As the engine: a wait on a container already removed answers at once.
          wait: () =>
            asked.removed > 0
              ? Promise.reject(new Error("no such container"))
              : new Promise((resolve) => {
                  end = () => resolve({ StatusCode: 137 });
                }),
          remove: async () => {
            asked.removed++;
            end?.();
          },
        };
      },
    } as unknown as Docker;
    return { docker, asked };
  }

  it("a tool that never exits: removed at the time limit, an infrastructure error naming the image", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "retrace-toolcache-"));
    const e = endless();
    const started = Date.now();
    await expect(
      imageToolVersion(e.docker, "evil:1", "node", path.join(dir, "t.json"), { timeoutMs: 200 }),
    ).rejects.toMatchObject({
      kind: "infrastructure",
      message: expect.stringMatching(
        /image evil:1 .*node --version.* did not finish in 0\.2 s; the container was removed/,
      ),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(e.asked.removed).toBeGreaterThan(0);
    expect(() => readFileSync(path.join(dir, "t.json"))).toThrow();
  });

  it("a tool that floods its output: removed at the cap, nothing cached", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "retrace-toolcache-"));
    const e = endless(Array.from({ length: 20 }, () => Buffer.alloc(8192, "v1.2.3 ")));
    await expect(
      imageToolVersion(e.docker, "evil:1", "node", path.join(dir, "t.json"), { maxOutputBytes: 65_536 }),
    ).rejects.toThrow(/wrote more than 65536 bytes; the container was removed/);
    expect(e.asked.removed).toBeGreaterThan(0);
  });

  it("the probe container has no capabilities, a read-only root, and memory and process limits", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "retrace-toolcache-"));
    const e = endless();
    await imageToolVersion(e.docker, "evil:1", "node", null, { timeoutMs: 50 }).catch(() => {});
    expect(e.asked.spec.HostConfig).toMatchObject({
      NetworkMode: "none",
      CapDrop: ["ALL"],
      ReadonlyRootfs: true,
      Memory: 256 * 1024 * 1024,
      PidsLimit: 64,
    });
  });
});
