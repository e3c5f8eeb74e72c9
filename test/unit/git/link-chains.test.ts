/**
 * Host reads of a checkout against chains of links whose every hop looks inside (issue 14's leftover): the
 * workspace port and the config loader refuse any link on the way, so a chain is refused at its first link.
 * The control follows the same chain with the kernel and really reads the secret outside the checkout.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadRepoConfigFile } from "../../../src/config/load.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";

let dir: string;
let repo: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "retrace-ws-chains-"));
  repo = path.join(dir, "repo");
  mkdirSync(path.join(repo, "sub"), { recursive: true });
  writeFileSync(path.join(dir, "secret.txt"), "host secret\n");
  mkdirSync(path.join(dir, ".github"));
  writeFileSync(path.join(dir, ".github", "retrace.yml"), "host: secret\n");
  // sub/up -> .. (the checkout), then out -> sub/up/.. (its parent): each text stays inside on paper.
  symlinkSync("..", path.join(repo, "sub", "up"));
  symlinkSync("sub/up/..", path.join(repo, "out"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("control: the kernel follows the chain out of the checkout", () => {
  expect(readFileSync(path.join(repo, "out", "secret.txt"), "utf8")).toBe("host secret\n");
});

it("the workspace port refuses every read, existence and mode check through the chain", async () => {
  const ws = await createFsWorkspace(repo);
  await expect(ws.readFile("out/secret.txt")).rejects.toThrow(/symlink|outside/);
  await expect(ws.readFile("sub/up/out/secret.txt")).rejects.toThrow(/symlink|outside/);
  expect(await ws.exists("out/secret.txt")).toBe(false);
  expect(await ws.fileMode?.("out/secret.txt")).toBeNull();
  expect(await ws.listFiles()).toEqual([]);
});

it("the config loader refuses a .github reached through the chain", async () => {
  symlinkSync("out/.github", path.join(repo, ".github"));
  await expect(loadRepoConfigFile(repo)).rejects.toThrow(/\.github .*is a symbolic link/);
});
