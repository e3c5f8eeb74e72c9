/**
 * Completing the program from a report's code runs under a time limit (RETRACE_HOST_LIMITS parseTimeMs unless the
 * caller passes its own), like the parse and the reading of expectations: the eighth red team found a shell line
 * whose args cost 4.85 s of host CPU after the bounded parse. The real completion runs here on a long report
 * (one block of 60,000 characters), once with a limit it cannot meet and once with the default, so the test shows the
 * limit itself (whatever is slow), and that nothing is installed or run past it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { measuredCpu } from "../../../src/core/time-limit.ts";
import { createContext, readExpectations, readReport } from "../../../src/repro/context.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { readBudget, runRepro } from "../../../src/repro/run-repro.ts";
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

describe("the report's parse, expectations and completion share one budget of host CPU", () => {
  const saved = process.env.RETRACE_HOST_LIMITS;
  afterEach(() => {
    if (saved === undefined) delete process.env.RETRACE_HOST_LIMITS;
    else process.env.RETRACE_HOST_LIMITS = saved;
  });

  it("each step gets what the ones before it left of parseTimeMs, and at least 1 ms", () => {
    process.env.RETRACE_HOST_LIMITS = "parseTimeMs=1800";
    expect(readBudget({ readCpuMs: 0 })).toBe(1800);
    expect(readBudget({ readCpuMs: 1700.4 })).toBe(99);
    expect(readBudget({ readCpuMs: 2500 })).toBe(1);
  });

  it("a job records the CPU its reading took, and the steps after the parse see it", async () => {
    const { result, events } = await runRepro(
      ReproJobSpec.parse({ kind: "repro", id: "t", markdown: longReport(), runs: 1 }),
      ports,
      { completeTimeMs: 1 },
    );
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(events.map((e) => e.step)).toEqual(["parse", "expectations", "complete"]);
    const [ctx, cpuMs] = measuredCpu(() =>
      createContext(ReproJobSpec.parse({ kind: "repro", id: "t", markdown: longReport(), runs: 1 }), ports),
    );
    expect(ctx.unreadable).toBeNull();
    expect(ctx.readCpuMs).toBeGreaterThan(0);
    expect(ctx.readCpuMs).toBeLessThanOrEqual(cpuMs + 1);
  }, 20_000);
});
