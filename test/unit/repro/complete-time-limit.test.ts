/**
 * Completing the program from a report's code runs under the parse's time limit (RETRACE_HOST_LIMITS
 * parseTimeMs), like the parse and the reading of expectations: the eighth red team found a shell line whose args
 * cost 4.85 s of host CPU after the bounded parse. Here `completeProgram` is made to spin, so the test shows the
 * limit itself (whatever pattern is slow), and that nothing is installed or run past it.
 */
import { describe, expect, it, vi } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

vi.mock("../../../src/repro/complete.ts", async (original) => ({
  ...(await original<typeof import("../../../src/repro/complete.ts")>()),
  completeProgram: () => {
    for (;;) {
      // a completion that never ends
    }
  },
}));

const ports: ReproPorts = {
  sandbox: fakeSandbox([]),
  installer: {
    install: async () => {
      throw new Error("nothing may be installed past the limit");
    },
  },
  model: null,
  clock: new ManualClock(),
  registry: { latestVersion: async () => null },
  transpile: async (c) => c,
};

describe("completing a report's program", () => {
  it("stops at the parse's time limit with a reason that says so", async () => {
    const markdown = "# bug\n\n```js\nconsole.log(1)\n```\n";
    const t = Date.now();
    const { result } = await runRepro(
      ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 1 }),
      ports,
    );
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(result.reasons.join(" ")).toMatch(
      /could not be completed into a program: it took longer than \d+ ms/,
    );
  }, 20_000);
});
