import { describe, expect, it } from "vitest";
import { heapExhaustedBySandbox } from "../../../src/fix/test-runner/heap.ts";

const NODE_20 = `<--- Last few GCs --->
[31:0x6a1c000]     9010 ms: Mark-Compact 1019.6 (1043.5) -> 1019.2 (1043.5) MB
FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb8d0a3 node::Abort() [node]
Aborted (core dumped)`;
const NODE_18 =
  "FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory";
const NODE_22 = "# Fatal JavaScript out of memory: Reached heap limit";

describe("heapExhaustedBySandbox", () => {
  it("reads V8's fatal heap messages of Node 18, 20 and 22 in a run with less than 8 GiB", () => {
    for (const output of [NODE_20, NODE_18, NODE_22])
      expect(heapExhaustedBySandbox(output, 2_048, "npm test")).toBe(true);
  });

  it("is not the sandbox's doing at 8 GiB or more, where Node's own default cap applies as on a runner", () => {
    expect(heapExhaustedBySandbox(NODE_20, 8_192, "npm test")).toBe(false);
    expect(heapExhaustedBySandbox(NODE_20, 16_384, "npm test")).toBe(false);
  });

  it("is not the sandbox's doing when the command sets the heap itself", () => {
    expect(heapExhaustedBySandbox(NODE_20, 2_048, "node --max-old-space-size=256 test.js")).toBe(false);
    expect(heapExhaustedBySandbox(NODE_20, 2_048, "NODE_OPTIONS=--max_old_space_size=512 npm test")).toBe(
      false,
    );
  });

  it("needs the fatal message itself: a test that names heap exhaustion, or an unknown limit, is not it", () => {
    expect(heapExhaustedBySandbox("RangeError: Array buffer allocation failed", 2_048, "npm test")).toBe(
      false,
    );
    expect(
      heapExhaustedBySandbox("✓ reports 'JavaScript heap out of memory' to the user", 2_048, "npm test"),
    ).toBe(false);
    expect(heapExhaustedBySandbox(NODE_20, undefined, "npm test")).toBe(false);
  });
});
