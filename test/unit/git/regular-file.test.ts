/** The one opener of a checkout's files (src/git/regular-file.ts): what it refuses, and why. */
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RegularFileError, readRegularFile, readRegularFileSync } from "../../../src/git/regular-file.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "retrace-regular-file-"));
const file = (name: string, text = "text\n") => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

async function why(p: string, o: Parameters<typeof readRegularFile>[1] = {}): Promise<string> {
  const async = await readRegularFile(p, o).then(
    () => "read",
    (e: unknown) => (e instanceof RegularFileError ? e.why : `other: ${e}`),
  );
  let sync: string;
  try {
    readRegularFileSync(p, o);
    sync = "read";
  } catch (e) {
    sync = e instanceof RegularFileError ? e.why : `other: ${e}`;
  }
  expect(sync).toBe(async);
  return async;
}

describe("readRegularFile / readRegularFileSync", () => {
  it("reads a regular file with one name (control)", async () => {
    expect((await readRegularFile(file("a.txt"))).toString()).toBe("text\n");
    expect(readRegularFileSync(file("b.txt")).toString()).toBe("text\n");
  });

  it("refuses a link, a hard link, a FIFO (never opened), a directory, a missing file and one past the cap", async () => {
    const target = file("target.txt");
    symlinkSync(target, path.join(dir, "link"));
    linkSync(target, path.join(dir, "hard"));
    execFileSync("mkfifo", [path.join(dir, "fifo")]);
    mkdirSync(path.join(dir, "sub"));
    expect(await why(path.join(dir, "link"))).toBe("link");
    expect(await why(path.join(dir, "hard"))).toBe("hard-link");
    expect(await why(path.join(dir, "fifo"))).toBe("not-regular");
    expect(await why(path.join(dir, "sub"))).toBe("directory");
    expect(await why(path.join(dir, "none"))).toBe("missing");
    expect(await why(file("big.txt", "x".repeat(100)), { maxBytes: 99 })).toBe("too-large");
  });

  it("reads files of every size up to the cap whole (the buffer is sized to the file, grown if it grows)", async () => {
    for (const n of [0, 1, 4095, 4096, 70_000]) {
      const text = "y".repeat(n);
      const p = file(`sized-${n}.txt`, text);
      expect((await readRegularFile(p, { maxBytes: 8 * 1024 * 1024 })).toString()).toBe(text);
      expect(readRegularFileSync(p, { maxBytes: 8 * 1024 * 1024 }).toString()).toBe(text);
      expect((await readRegularFile(p, { maxBytes: n })).length).toBe(n);
      expect(readRegularFileSync(p).length).toBe(n);
    }
  });

  it("with follow, a link and a second name are read (a path the operator gave)", async () => {
    const target = file("t2.txt");
    symlinkSync(target, path.join(dir, "link2"));
    linkSync(target, path.join(dir, "hard2"));
    expect(await why(path.join(dir, "link2"), { follow: true })).toBe("read");
    expect(await why(path.join(dir, "hard2"), { follow: true })).toBe("read");
  });

  it("names a link ELOOP and a missing file ENOENT, the codes callers already test", async () => {
    const e = await readRegularFile(path.join(dir, "link")).catch((x: RegularFileError) => x);
    expect((e as RegularFileError).code).toBe("ELOOP");
    const m = await readRegularFile(path.join(dir, "nothing")).catch((x: RegularFileError) => x);
    expect((m as RegularFileError).code).toBe("ENOENT");
  });
});
