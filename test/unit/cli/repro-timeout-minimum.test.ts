/**
 * Issue 12 (f12c): `retrace repro --timeout 1` ended in a failed copy of the program into the container, an error
 * exit. A run's limit also covers that copy and the runtime's start, so a limit below MIN_RUN_TIMEOUT_MS is refused
 * up front (exit 2) naming the minimum; the same floor holds for `repro.runTimeoutMs` in the config. Counter-
 * examples: the minimum itself, the default and the maximum pass, and a value in milliseconds keeps its own hint.
 */
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/core/errors.ts";
import { runTimeoutOption } from "../../../src/cli/commands/repro.ts";
import { RetraceConfig } from "../../../src/config/schema.ts";
import { MIN_RUN_TIMEOUT_MS } from "../../../src/sandbox/limits.ts";

const refusal = (raw: string): UsageError => {
  try {
    runTimeoutOption(raw);
  } catch (error) {
    return error as UsageError;
  }
  throw new Error(`--timeout ${raw} was accepted`);
};

describe("repro --timeout minimum", () => {
  it("refuses a limit below the minimum, naming it and why (exit 2)", () => {
    for (const raw of ["1", "2", "4"]) {
      const e = refusal(raw);
      expect(e).toBeInstanceOf(UsageError);
      expect(e.exitCode).toBe(2);
      expect(e.message).toMatch(
        new RegExp(
          `^--timeout ${raw} is below the minimum of 5 seconds: .*copying the program into the sandbox`,
        ),
      );
      expect(e.hint).toBe("pass --timeout 5 or more (default 10)");
    }
    expect(refusal("0").message).toMatch(/below the minimum of 5 seconds/);
  });

  it("counter-examples: the minimum, the default and the maximum pass; milliseconds keep their hint", () => {
    expect(MIN_RUN_TIMEOUT_MS).toBe(5_000);
    expect(runTimeoutOption("5")).toBe(5_000);
    expect(runTimeoutOption("10")).toBe(10_000);
    expect(runTimeoutOption("600")).toBe(600_000);
    expect(refusal("601").message).toMatch(/must be an integer from 5 to 600/);
    expect(refusal("10000").hint).toMatch(/looks like milliseconds .*pass --timeout 10$/);
  });

  it("repro.runTimeoutMs has the same floor in .github/retrace.yml", () => {
    expect(RetraceConfig.safeParse({ repro: { runTimeoutMs: 1_000 } }).success).toBe(false);
    expect(RetraceConfig.safeParse({ repro: { runTimeoutMs: 5_000 } }).success).toBe(true);
  });
});
