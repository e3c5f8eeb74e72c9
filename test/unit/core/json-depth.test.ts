/** jsonDepth: the nesting of a JSON text, in one pass, before anything parses it (fifth red team). */
import { describe, expect, it } from "vitest";
import { jsonDepth, MAX_PAYLOAD_DEPTH } from "../../../src/core/json-depth.ts";
import { cpuMs } from "../../support/cpu-time.ts";

describe("jsonDepth", () => {
  it("counts arrays and objects, not brackets inside strings or escaped quotes", () => {
    expect(jsonDepth("1")).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{","b":"\\"[[["}')).toBe(1);
  });

  it("stops at the first depth past the bound, on millions of levels, in linear time", () => {
    const deep = `${"[".repeat(3_000_000)}${"]".repeat(3_000_000)}`;
    const { ms } = cpuMs(() => {
      expect(jsonDepth(deep, MAX_PAYLOAD_DEPTH)).toBe(MAX_PAYLOAD_DEPTH + 1);
      expect(jsonDepth(deep)).toBe(3_000_000);
    });
    expect(ms).toBeLessThan(2_000);
  });

  it("passes a real webhook payload's depth", () => {
    const payload = { issue: { user: { login: "u" }, labels: [{ name: "x" }], reactions: { "+1": 0 } } };
    expect(jsonDepth(JSON.stringify(payload))).toBeLessThan(MAX_PAYLOAD_DEPTH);
  });
});
