/** The Action's event file read as untrusted input (fifth red team): type, size and nesting before parsing. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_EVENT_BYTES, readEventFile } from "../../../src/action/event-file.ts";

const dir = mkdtempSync(path.join(tmpdir(), "retrace-event-"));

describe("readEventFile", () => {
  it("reads an event file, also through a link; a missing one is an empty event", () => {
    const file = path.join(dir, "event.json");
    writeFileSync(file, '{"action":"labeled","issue":{"number":1}}');
    expect(readEventFile(file)).toEqual({ action: "labeled", issue: { number: 1 } });
    symlinkSync(file, path.join(dir, "link.json"));
    expect(readEventFile(path.join(dir, "link.json"))).toEqual({ action: "labeled", issue: { number: 1 } });
    expect(readEventFile(path.join(dir, "none.json"))).toEqual({});
    expect(readEventFile(undefined)).toEqual({});
  });

  it("refuses a FIFO and a device at once, without opening them for a blocking read", () => {
    const fifo = path.join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(() => readEventFile(fifo)).toThrow(/not a regular file/);
    expect(() => readEventFile("/dev/zero")).toThrow(/not a regular file/);
  });

  it("refuses a file larger than a GitHub event, and one nested deeper than any", () => {
    const big = path.join(dir, "big.json");
    writeFileSync(big, "");
    truncateSync(big, MAX_EVENT_BYTES + 1);
    expect(() => readEventFile(big)).toThrow(/more than a GitHub event holds/);
    const deep = path.join(dir, "deep.json");
    writeFileSync(deep, `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`);
    expect(() => readEventFile(deep)).toThrow(/nests deeper than 100 levels/);
  });
});
