/**
 * The names the host's tar packs (fifth red team): our own walk, never tar's `--exclude`, whose cost grew with
 * the square of an entry's depth (a 1,000-deep chain never finished; 5,000 files 60 deep took 5 s).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { treeNames } from "../../../src/sandbox/tree.ts";

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const n of treeNames(dir)) out.push(n.subarray(0, -1).toString("latin1"));
  return out;
}

describe("treeNames", () => {
  it("lists every entry once, each directory before its content, VCS metadata skipped at any depth", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "retrace-names-"));
    mkdirSync(path.join(dir, ".git/objects"), { recursive: true });
    mkdirSync(path.join(dir, "sub/.git"), { recursive: true });
    mkdirSync(path.join(dir, "sub/.hg"));
    writeFileSync(path.join(dir, "sub/.svn"), "");
    writeFileSync(path.join(dir, "sub/a"), "");
    writeFileSync(path.join(dir, "-rf"), "");
    writeFileSync(path.join(dir, "new\nline"), "");
    symlinkSync("/etc", path.join(dir, "link"));
    // A name that is not UTF-8 comes back as its bytes, not as U+FFFD.
    execFileSync("bash", ["-c", "touch $'\\xff'"], { cwd: dir });
    const got = await names(dir);
    expect(got.sort()).toEqual([".", "./-rf", "./link", "./new\nline", "./sub", "./sub/a", "./\xff"].sort());
    expect(got.indexOf("./sub")).toBeLessThan(got.indexOf("./sub/a"));
  });

  it("walks a 1,000-deep chain, and the host's tar packs it from the list in well under a second", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "retrace-deep-"));
    const rel = Array.from({ length: 1_000 }, () => "d").join("/");
    mkdirSync(path.join(dir, rel), { recursive: true });
    writeFileSync(path.join(dir, rel, "f"), "x");
    const list = (await names(dir)).map((n) => `${n}\0`).join("");
    // (names are ASCII here: latin1 round-trips them)
    expect(list.split("\0").filter(Boolean)).toHaveLength(1_002);
    const t0 = performance.now();
    const tarball = execFileSync("tar", ["-c", "-f", "-", "-C", dir, "--no-recursion", "--null", "-T", "-"], {
      input: list,
      maxBuffer: 64 << 20,
    });
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(tarball.length).toBeGreaterThan(1_000 * 512);
  });
});
