/**
 * The Action's step summary of a failed job (red team 32, action-command-files-forged-lines-and-size): a 4 MiB error
 * message made a 4,194,420-byte summary, past the runner's 1 MiB limit, so the runner dropped the whole summary.
 */
import { describe, expect, it } from "vitest";
import { errorSummary, MAX_SUMMARY_MESSAGE } from "../../../src/action/run.ts";

describe("the step summary of a failed job", () => {
  it("caps a huge message well below the runner's 1 MiB", () => {
    const s = errorSummary("fix", `failed\n${"e".repeat(4 * 1024 * 1024)}`);
    expect(Buffer.byteLength(s)).toBeLessThan(MAX_SUMMARY_MESSAGE + 1_000);
    expect(s).toContain("(truncated by Retrace)");
  });

  it("counter-example: an ordinary message is shown whole, as a text block", () => {
    const s = errorSummary("repro", "the sandbox image is missing");
    expect(s).toBe("## Retrace repro: error\n\n```text\nthe sandbox image is missing\n```\n");
  });
});
