/**
 * Toolchain files read on the host (fifth red team): a hard-linked `.nvmrc` or `.python-version` (a second name
 * of a host file) was read and its content quoted in the error ("asks for Node v20.<secret>"). Never read now.
 */
import { linkSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRepoFileSafely } from "../../../src/install/repo-runtime.ts";

describe("readRepoFileSafely", () => {
  const root = mkdtempSync(path.join(tmpdir(), "retrace-toolchain-"));
  const host = mkdtempSync(path.join(tmpdir(), "retrace-host-"));
  writeFileSync(path.join(host, "secret"), "v20.SECRET\n");
  mkdirSync(path.join(root, "repo"));
  const repo = path.join(root, "repo");

  it("reads an ordinary file", () => {
    writeFileSync(path.join(repo, ".node-version"), "20\n");
    expect(readRepoFileSafely(repo, ".node-version")).toBe("20\n");
  });

  it("never reads a hard link or a symbolic link to a host file", () => {
    linkSync(path.join(host, "secret"), path.join(repo, ".nvmrc"));
    symlinkSync(path.join(host, "secret"), path.join(repo, ".python-version"));
    expect(readRepoFileSafely(repo, ".nvmrc")).toBeNull();
    expect(readRepoFileSafely(repo, ".python-version")).toBeNull();
  });
});
