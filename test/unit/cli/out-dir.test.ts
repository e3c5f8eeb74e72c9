/**
 * `--out DIR` (red team 22): a directory reached through a symbolic link a checkout could hold is refused, never
 * written through; a plain directory, and one whose link lies above the current directory, are written.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { checkOutDir, writeOutDir } from "../../../src/cli/out-dir.ts";

const start = process.cwd();
afterEach(() => process.chdir(start));

function layout() {
  const root = mkdtempSync(path.join(tmpdir(), "retrace-out-dir-"));
  const outside = path.join(root, "outside");
  const checkout = path.join(root, "checkout");
  mkdirSync(outside);
  mkdirSync(checkout);
  return { root, outside, checkout };
}

it("refuses an --out that is a link, before and at writing, and writes nothing through it", async () => {
  const { outside, checkout } = layout();
  symlinkSync(outside, path.join(checkout, "retrace-out"));
  process.chdir(checkout);
  await expect(checkOutDir("--out", "retrace-out")).rejects.toThrow(
    /retrace-out: it is a symbolic link \(to /,
  );
  await expect(writeOutDir("--out", "retrace-out", [["result.json", "{}"]])).rejects.toThrow(/symbolic link/);
  expect(readdirSync(outside)).toEqual([]);
});

it("refuses an --out under a linked directory of the current one", async () => {
  const { outside, checkout } = layout();
  symlinkSync(outside, path.join(checkout, "build"));
  process.chdir(checkout);
  await expect(writeOutDir("--out", "build/retrace", [["result.json", "{}"]])).rejects.toThrow(
    /build is a symbolic link/,
  );
  expect(readdirSync(outside)).toEqual([]);
});

it("writes a plain directory, and one reached through a link above the current directory", async () => {
  const { root, checkout } = layout();
  process.chdir(checkout);
  await writeOutDir("--out", "out/a", [["result.json", "{}"]]);
  expect(readFileSync(path.join(checkout, "out/a/result.json"), "utf8")).toBe("{}");
  symlinkSync(checkout, path.join(root, "via-link"));
  process.chdir(path.join(root, "outside"));
  await writeOutDir("--out", path.join(root, "via-link", "out", "b"), [["result.json", "{}"]]);
  expect(existsSync(path.join(checkout, "out/b/result.json"))).toBe(true);
});
