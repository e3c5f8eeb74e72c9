/**
 * The host's `tar` gets PATH, HOME and a fixed locale, nothing else of the process's environment (issue 14):
 * `TAR_OPTIONS` would be read as options by GNU tar, and a token has no business there.
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { packInput, prepareInput, tarEnv } from "../../../src/sandbox/tree.ts";
import { extractLikeTheSandbox, tmp } from "../../support/sandbox-tar.ts";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the host tar's environment", () => {
  it("keeps TAR_OPTIONS and a token out of tar, and the copy whole", async () => {
    const realTar = execFileSync("sh", ["-c", "command -v tar"], { encoding: "utf8" }).trim();
    // A `tar` first on PATH that writes down the environment it was given, then runs the real one.
    const bin = await tmp();
    const seen = path.join(await tmp(), "env.txt");
    await writeFile(path.join(bin, "tar"), `#!/bin/sh\nenv > '${seen}'\nexec '${realTar}' "$@"\n`);
    await chmod(path.join(bin, "tar"), 0o755);
    const dir = await tmp();
    await mkdir(path.join(dir, "src"));
    await writeFile(path.join(dir, "src", "a.py"), "print(1)");
    await writeFile(path.join(dir, "keep.txt"), "kept");
    vi.stubEnv("PATH", `${bin}:${process.env.PATH ?? ""}`);
    vi.stubEnv("TAR_OPTIONS", "--exclude=keep.txt");
    vi.stubEnv("RETRACE_FX5_MARKER_TOKEN", "ghp_marker0123456789");

    const packed: Buffer[] = [];
    for await (const c of packInput(await prepareInput({ dir }))) packed.push(c as Buffer);
    // Extracted with the test's own environment back (TAR_OPTIONS would act on the extracting tar too).
    vi.unstubAllEnvs();
    const out = await extractLikeTheSandbox(Readable.from([Buffer.concat(packed)]));

    const env = await readFile(seen, "utf8");
    expect(env).not.toMatch(/TAR_OPTIONS/);
    expect(env).not.toMatch(/RETRACE_FX5_MARKER_TOKEN|ghp_marker0123456789/);
    expect(env).toMatch(/^PATH=/m);
    expect(await readFile(path.join(out, "keep.txt"), "utf8")).toBe("kept");
    expect(await readFile(path.join(out, "src", "a.py"), "utf8")).toBe("print(1)");
  });

  it("is PATH, HOME and the C locale only", () => {
    vi.stubEnv("TAR_OPTIONS", "--exclude=*");
    vi.stubEnv("GITHUB_TOKEN", "ghs_marker");
    expect(Object.keys(tarEnv("/tmp/x")).sort()).toEqual(["HOME", "LANG", "LC_ALL", "PATH"]);
  });
});
