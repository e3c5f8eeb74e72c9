/**
 * Runner outputs added on branch pl10f (issue 10, classes seen in real CI logs): Playwright's failure header without
 * its `─` rule, NUnit's console runner, unittest with warnings between results, hspec, RSpec pasted into markdown,
 * pytest's `FAILED [0.31s] …` and an empty-path node id. The logs are written here for a small kettle library of our
 * own, in the runners' byte layout; each rule has a green case where one exists.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const found = (text: string) => parseLog(text).failures.map((f) => [f.test, f.file, f.line]);

describe("playwright: a numbered header without its rule", () => {
  const block = [
    "[WebServer] GET /kettle/status 200 - - 12.400 ms",
    "·",
    "",
    "  1) [firefox] › e2e/pour.spec.ts:12:1 › pours half a cup when asked twice ",
    "",
    "    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)",
    "",
    "    Locator: getByRole('status')",
    '    Expected string: "half"',
    '    Received string: "full"',
    "    Call log:",
    "      - expect.toHaveText with timeout 5000ms",
    "",
    "      30 | \tawait page.click('#pour')",
    "    > 31 | \tawait expect(page.getByRole('status')).toHaveText('half')",
    "         | \t                                      ^",
    "      32 | })",
  ];
  it("reads the block with its code frame's line", () => {
    expect(found(block.join("\n"))).toEqual([
      ["e2e/pour.spec.ts > pours half a cup when asked twice", "e2e/pour.spec.ts", 31],
    ]);
  });
  it("reads a block cut inside its call log", () => {
    expect(found(block.slice(3, 12).join("\n"))).toEqual([
      ["e2e/pour.spec.ts > pours half a cup when asked twice", "e2e/pour.spec.ts", null],
    ]);
  });
  it("needs the project and an error line", () => {
    const noProject = block.slice(3).map((l) => l.replace("[firefox] › ", ""));
    expect(found(noProject.join("\n"))).toEqual([]);
    const noError = block.slice(3, 4).concat(["", "    kettle is warm"]);
    expect(found(noError.join("\n"))).toEqual([]);
  });
});
