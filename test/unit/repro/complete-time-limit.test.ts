/**
 * Completing the program from a report's code runs under a time limit (RETRACE_HOST_LIMITS parseTimeMs unless the
 * caller passes its own), like the parse and the reading of expectations: the eighth red team found a shell line
 * whose args cost 4.85 s of host CPU after the bounded parse. The real completion runs here on a long report
 * (one block of 60,000 characters), once with a limit it cannot meet and once with the default, so the test shows the
 * limit itself (whatever is slow), and that nothing is installed or run past it.
 */
import { describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { readExpectations, readReport } from "../../../src/repro/context.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

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

/** A long report: one JavaScript block of 60,000 characters, cheap to parse (a fence's body is not read as
 * markdown), whose completion reads every line (names used and bound, requires, annotations). */
function longReport(): string {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < 60_000; i++) {
    const line = `const total${i} = items${i % 7}.reduce((a, b) => a + b.size * ${i}, offset${i % 5}); console.log("step ${i}", total${i}); // => ${i * 3}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `# totals are off\n\nThe running totals below are wrong.\n\n\`\`\`js\n${lines.join("\n")}\n\`\`\`\n`;
}

describe("completing a report's program", () => {
  const markdown = longReport();

  it("completes the long report when the time allows", () => {
    const read = readReport(markdown);
    expect(read.unreadable).toBeNull();
    const program = completeProgram(read.report, readExpectations(read.report).expectations.invocation);
    expect(program?.language).toBe("javascript");
  });

  it("stops at the time limit with a reason that says so, and installs and runs nothing", async () => {
    const t = Date.now();
    const { result, events } = await runRepro(
      ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 1 }),
      ports,
      { completeTimeMs: 1 },
    );
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(result.reasons.join(" ")).toMatch(
      /could not be completed into a program: it took longer than 1 ms/,
    );
    expect(events.map((e) => e.step)).toEqual(["parse", "expectations", "complete"]);
  }, 20_000);
});
