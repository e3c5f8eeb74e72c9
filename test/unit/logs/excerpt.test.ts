import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { excerpt, parseLog } from "../../../src/logs/index.ts";

const fixture = (rel: string) =>
  readFileSync(path.join(import.meta.dirname, "../../fixtures/logs", rel), "utf8");

/** The real GitHub Actions log buried in thousands of lines of install and build noise. */
function noisyLog(): string {
  const noise = Array.from(
    { length: 4000 },
    (_, i) => `2024-05-02T10:00:00.0000000Z npm warn deprecated pkg-${i}@1.0.0: no longer supported`,
  );
  return [...noise, fixture("github-actions/lint-then-jest.log"), ...noise].join("\n");
}

describe("excerpt", () => {
  it("keeps the failure blocks, drops the noise, and says what it dropped", () => {
    const text = noisyLog();
    const out = excerpt(text);
    expect(out.length).toBeLessThanOrEqual(12_000 + 500);
    expect(out).toContain("● calc › mean of three");
    expect(out).toContain("Expected: 2");
    expect(out).toContain("Received: 3");
    expect(out).toContain("'undefinedThing' is not defined");
    expect(out).toMatch(/… \d+ lines omitted …/);
    expect(out.split("\n").filter((l) => l.includes("npm warn deprecated")).length).toBeLessThan(20);
    expect(out).not.toMatch(/\u001b|\d{4}-\d\d-\d\dT\d\d/);
    expect(out).not.toContain("/home/runner/work");
  });

  it("stays within a small budget and still names every failure", () => {
    const text = noisyLog();
    const parsed = parseLog(text);
    const out = excerpt(text, { parsed, maxChars: 1_500 });
    expect(out.length).toBeLessThanOrEqual(1_500 + 400);
    expect(out).toContain("● calc › mean of three");
    expect(out).toContain("● calc › parse › reads value");
    expect(out).toContain("1:7   error");
  });

  it("without failures, keeps the head and the tail of the log", () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}`).join("\n");
    const out = excerpt(text);
    expect(out).toContain("line 0");
    expect(out).toContain("line 499");
    expect(out).not.toContain("line 250");
  });
});
