/**
 * Helpers for tests of the sandbox's input packing: temporary directories removed after each test, and the
 * extraction the container performs (`tar -x -i`, which reads concatenated archives) done on the host.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterEach, expect } from "vitest";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A fresh temporary directory, removed after the current test. */
export async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), "retrace-tree-"));
  dirs.push(d);
  return d;
}

/** Extract a packed input the way the container does (`tar -x -i`), into a fresh directory. */
export async function extractLikeTheSandbox(stream: Readable): Promise<string> {
  const dest = await tmp();
  const child = spawn("tar", ["-x", "-i", "-f", "-", "-C", dest], { stdio: ["pipe", "ignore", "pipe"] });
  stream.pipe(child.stdin);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(code).toBe(0);
  return dest;
}
