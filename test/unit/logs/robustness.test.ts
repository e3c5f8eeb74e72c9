/** Hostile or mangled input: the parser never throws, and its result is always valid and in bounds. */
import fc from "fast-check";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ParsedLog } from "../../../src/logs/failure.ts";
import { excerpt, parseChunks, parseLog, stripAnsi } from "../../../src/logs/index.ts";

const ROOT = path.join(import.meta.dirname, "../../fixtures/logs");
const allLines: string[] = [];
for (const dir of readdirSync(ROOT)) {
  const d = path.join(ROOT, dir);
  if (!statSync(d).isDirectory()) continue;
  for (const f of readdirSync(d))
    if (/\.(log|xml)$/.test(f)) allLines.push(...readFileSync(path.join(d, f), "utf8").split("\n"));
}

function checkInvariants(text: string): void {
  const r = ParsedLog.parse(parseLog(text));
  for (const f of r.failures) {
    expect(f.span.start).toBeGreaterThanOrEqual(1);
    expect(f.span.end).toBeLessThanOrEqual(Math.max(1, r.lines));
    expect(f.span.start).toBeLessThanOrEqual(f.span.end);
  }
  const ids = r.tests.map((t) => `${t.format} ${t.id}`);
  expect(new Set(ids).size).toBe(ids.length);
}

describe("robustness", () => {
  it("lines of every real fixture, shuffled and interleaved, never break the parser", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: allLines.length - 1 }), { maxLength: 300 }), (picks) => {
        checkInvariants(picks.map((i) => allLines[i]).join("\n"));
      }),
      { numRuns: 150 },
    );
  });

  it("arbitrary text (control characters, unbalanced XML, half escapes) never breaks the parser", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.constantFrom(
              '<testsuite name="x">',
              '<testcase name="a"><failure>',
              "</testsuites>",
              "\u001b[",
              "\u001b]8;;",
              "##[error]",
              "=== RUN   TestX",
              "--- FAIL: TestX (0.00s)",
              "  ● a › b",
              " FAIL  a.test.ts > x",
              "Traceback (most recent call last):",
              "not ok 1 - x",
              "  ---",
              "npm ERR! code E404",
            ),
          ),
          { maxLength: 60 },
        ),
        (parts) => {
          checkInvariants(parts.join("\n"));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("excerpt stays within its budget (plus the omission markers) for any mix of lines", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: allLines.length - 1 }), { maxLength: 400 }),
        fc.integer({ min: 200, max: 5_000 }),
        (picks, maxChars) => {
          const out = excerpt(picks.map((i) => allLines[i]).join("\n"), { maxChars });
          const markers = out.split("\n").filter((l) => /^… \d+ lines omitted …$/.test(l));
          const content = out.length - markers.reduce((n, m) => n + m.length + 1, 0);
          expect(content).toBeLessThanOrEqual(maxChars);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("stripAnsi handles sequences cut at the end of a line", () => {
    expect(stripAnsi("ok\u001b[3")).toBe("ok");
    expect(stripAnsi("a\u001b]8;;http://x")).toBe("a");
    expect(stripAnsi("\u001b")).toBe("");
    expect(stripAnsi("\u001b[1;31mred\u001b[0m \u001bMx")).toBe("red x");
  });

  it("parseChunks reads an async stream of chunks split anywhere", async () => {
    const text = readFileSync(path.join(ROOT, "vitest/run.log"), "utf8");
    async function* chunks() {
      for (let i = 0; i < text.length; i += 7) yield text.slice(i, i + 7);
    }
    expect(await parseChunks(chunks())).toEqual(parseLog(text));
  });
});
