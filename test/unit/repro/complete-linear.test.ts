/**
 * Completing a program costs time linear in the report, on real inputs (no time limit involved): two shapes the
 * eighth red team's cases met after the repro rules of the same session were merged — many inline codes after a long
 * run of spaces (a sentence search restarted at every position before each code: minutes) and thousands of
 * one-line sessions (every pair compared, each comparison parsing both: 17 s).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readExpectations, readReport } from "../../../src/repro/context.ts";
import { completeProgram } from "../../../src/repro/complete.ts";
import { cpuMs } from "../../support/cpu-time.ts";

function completeTimed(markdown: string): { ms: number; program: ReturnType<typeof completeProgram> } {
  const read = readReport(markdown);
  expect(read.unreadable).toBeNull();
  const e = readExpectations(read.report);
  const { value: program, ms } = cpuMs(() => completeProgram(read.report, e.expectations.invocation));
  return { ms, program };
}

describe("completing a program stays linear", () => {
  // Reading the report's markdown (the setup, before the timed step) runs under the host's parse limit, 1,800 ms,
  // which a loaded machine can pass on these large inputs (about 1.2 s of CPU for the 2,400 sessions, the same before
  // and after this file's rules): out of reach here, so the step measured is the only one that can fail on time.
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.RETRACE_HOST_LIMITS;
    process.env.RETRACE_HOST_LIMITS = "parseTimeMs=600000";
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.RETRACE_HOST_LIMITS;
    else process.env.RETRACE_HOST_LIMITS = saved;
  });

  it("1,500 inline codes after 20,000 spaces", () => {
    const codes = Array.from({ length: 1500 }, (_, i) => `\`k${i}\``).join(" ");
    const { ms, program } = completeTimed(
      `### Bug\n\nIt fails.\n\n\`\`\`js\nconsole.log(1)\n\`\`\`\n\nSee a.${" ".repeat(20_000)}b. ${codes}\n`,
    );
    expect(program?.language).toBe("javascript");
    expect(ms).toBeLessThan(3_000);
  });

  it("2,400 one-line Python sessions, each run once", () => {
    const md = `### Bug\n\n${Array.from({ length: 2_400 }, (_, i) => `\`\`\`pycon\n>>> x${i}\n\`\`\`\n`).join("\n")}`;
    const { ms, program } = completeTimed(md);
    expect(program?.language).toBe("python");
    expect(ms).toBeLessThan(3_000);
  });

  it("a session pasted twice still runs once", () => {
    const block = "```pycon\n>>> print(6 * 7)\n42\n```\n";
    const { program } = completeTimed(`### Bug\n\n${block}\nAgain:\n\n${block}`);
    expect(program?.files[program.entry]?.match(/print\(6 \* 7\)/g)).toHaveLength(1);
  });
});
