/**
 * A reported output that only Windows prints (issue 12, hold22 upath-35): a drive-letter path as the value a call
 * gave, where the Linux run prints none, is another platform's output. Values written for these tests.
 */
import { describe, expect, it } from "vitest";
import { windowsOnlyOutput } from "../../../src/repro/platform-claim.ts";

describe("a Windows path as the reported output", () => {
  it("is found when the run printed no such path", () => {
    expect(windowsOnlyOutput(['"C:\\Code\\app\\reports"'], "/workspace/reports\n")).toBe(
      '"C:\\Code\\app\\reports"',
    );
    expect(windowsOnlyOutput(["x", "'D:\\\\Users\\\\me'"], "x\n")).toBe("'D:\\\\Users\\\\me'");
  });

  it("must not fire: POSIX paths, URLs, a run that prints a Windows path itself, a colon and a backslash apart", () => {
    expect(windowsOnlyOutput(["/home/me/reports"], "")).toBeNull();
    expect(windowsOnlyOutput(["http://a.b/c"], "")).toBeNull();
    expect(windowsOnlyOutput(["C:\\x\\y"], "C:\\x\\z\n")).toBeNull();
    expect(windowsOnlyOutput(["a: \\n"], "")).toBeNull();
    expect(windowsOnlyOutput(["ratio 3:\\1"], "")).toBeNull();
  });
});
