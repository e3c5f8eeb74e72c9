/**
 * `retrace parse-log --json` writes its result in bounded pieces and waits for a slow reader: the output
 * never piles up in memory, and it is the same JSON as one JSON.stringify of the whole result.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { jsonPieces, writeJson } from "../../../src/cli/commands/parse-log.ts";
import { ParsedLog } from "../../../src/logs/failure.ts";
import { parseLog } from "../../../src/logs/index.ts";

function bigLog(tests: number): string {
  const lines = ["============================= test session starts =============================="];
  for (let i = 0; i < tests; i++) lines.push(`tests/test_m${i % 50}.py::test_case_${i} PASSED`);
  lines.push(
    "tests/test_x.py::test_bad FAILED",
    "=================== 1 failed, 0 passed in 0.10s ===================",
  );
  return lines.join("\n");
}

describe("parse-log JSON output", () => {
  const parsed = parseLog(bigLog(20_000));

  it("is valid JSON equal to the parsed result, in pieces of bounded size", () => {
    const pieces = [...jsonPieces(parsed)];
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(70_000);
    expect(pieces.length).toBeGreaterThan(10);
    const back = ParsedLog.parse(JSON.parse(pieces.join("")));
    expect(back).toEqual(parsed);
    expect(back.tests).toHaveLength(20_001);
  });

  it("waits for a slow reader: what is buffered stays under two pieces", async () => {
    let maxBuffered = 0;
    const received: string[] = [];
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk, _enc, done) {
        received.push(String(chunk));
        setImmediate(done);
      },
    });
    const origWrite = slow.write.bind(slow);
    slow.write = ((chunk: string, ...rest: never[]) => {
      const ok = origWrite(chunk, ...rest);
      maxBuffered = Math.max(maxBuffered, slow.writableLength);
      return ok;
    }) as typeof slow.write;
    await writeJson(parsed, slow);
    await new Promise<void>((resolve) => slow.end(resolve));
    expect(JSON.parse(received.join(""))).toEqual(JSON.parse([...jsonPieces(parsed)].join("")));
    // Without back-pressure the whole result (over 1 MB here) would be queued at once.
    const total = received.join("").length;
    expect(total).toBeGreaterThan(1_000_000);
    expect(maxBuffered).toBeLessThan(2 * 70_000);
  });

  it("keeps pieces bounded when large failures and small tests alternate, every item once", () => {
    const blocks: string[] = [];
    for (let i = 0; i < 300; i++)
      blocks.push(
        `FAIL: test_${i} (pkg.test_m.T)`,
        "Traceback (most recent call last):",
        `  File "pkg/test_m.py", line ${i + 1}, in test_${i}`,
        `AssertionError: ${"x".repeat(1_500)}`,
      );
    const text = [
      ...blocks.flatMap((l) =>
        l.startsWith("FAIL:")
          ? [
              "======================================================================",
              l,
              "----------------------------------------------------------------------",
            ]
          : [l],
      ),
      "----------------------------------------------------------------------",
      "Ran 300 tests in 0.1s",
      "FAILED (failures=300)",
    ].join("\n");
    const big = parseLog(text);
    expect(big.failures).toHaveLength(300);
    const pieces = [...jsonPieces(big)];
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(70_000);
    expect(ParsedLog.parse(JSON.parse(pieces.join("")))).toEqual(big);
  });
});
