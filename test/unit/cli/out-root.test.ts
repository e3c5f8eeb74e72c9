/**
 * `retrace fix`'s default output directory `<repo>/.retrace/fix-<id>`: written only through real directories.
 * A committed `.retrace` link was closed by the second red team; a real `.retrace` holding a link (or a chain of
 * links that each look inside) at the run's own directory is refused the same way.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { checkOutRoot } from "../../../src/cli/worktree.ts";

let dir: string;
let repo: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "retrace-out-root-"));
  repo = path.join(dir, "repo");
  mkdirSync(repo);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("a missing .retrace, or a real one without the run's directory: fine", async () => {
  expect(await checkOutRoot(repo, "fix-1")).toBe(false);
  mkdirSync(path.join(repo, ".retrace"));
  expect(await checkOutRoot(repo, "fix-1")).toBe(true);
  mkdirSync(path.join(repo, ".retrace", "fix-1"));
  expect(await checkOutRoot(repo, "fix-1")).toBe(true);
});

it("a link at the run's directory inside a real .retrace is refused, chains included", async () => {
  const marker = path.join(dir, "marker-dir");
  mkdirSync(marker);
  mkdirSync(path.join(repo, ".retrace"));
  symlinkSync(marker, path.join(repo, ".retrace", "fix-1"));
  await expect(checkOutRoot(repo, "fix-1")).rejects.toThrow(/fix-1 is a symbolic link/);
  // Each hop looks inside the repository: `a -> .`, `fix-2 -> a/../..` (the repository itself, then out).
  symlinkSync(".", path.join(repo, ".retrace", "a"));
  symlinkSync("a/../../..", path.join(repo, ".retrace", "fix-2"));
  await expect(checkOutRoot(repo, "fix-2")).rejects.toThrow(/fix-2 is a symbolic link/);
  expect(existsSync(path.join(marker, "result.json"))).toBe(false);
});
