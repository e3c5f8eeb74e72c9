import { describe, expect, it } from "vitest";
import { scanCode } from "../../../src/repro/code-scan.ts";

describe("scanCode (the one scanner of report code)", () => {
  it("never visits characters inside strings, escapes included", () => {
    const seen: string[] = [];
    scanCode(`a('#', "x\\"#", \`#\`) # c`, (ch) => {
      if (ch === "#") seen.push(ch);
      return undefined;
    });
    expect(seen).toEqual(["#"]);
  });

  it("stops with what the visitor returns, at the depth reached", () => {
    const end = scanCode("f(a=1) = 2", (ch, i, depth) => (ch === "=" && depth === 0 ? i : undefined));
    expect(end.stopped).toBe(7);
  });

  it("says whether brackets balance and strings close", () => {
    expect(scanCode("f([1, ')'])")).toMatchObject({ depth: 0, lowest: 0, inString: false });
    expect(scanCode(")(")).toMatchObject({ depth: 0, lowest: -1 });
    expect(scanCode("print('open")).toMatchObject({ inString: true });
  });
});
