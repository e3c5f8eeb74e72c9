/**
 * Bounded host work (issue 14 item 5): a report over GitHub's 65,536-character limit is not read, and a report
 * inside it whose markdown is pathological (quadratic emphasis/bracket runs, nesting deeper than the stack)
 * ends in a NEEDS_INFO verdict that says why — never a crash, a hang or a stack overflow. Timing is measured by
 * `npm run bench -- repro-real`, not asserted here.
 */
import { describe, expect, it } from "vitest";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import { MAX_REPORT_CHARS, withinTimeLimit } from "../../../src/repro/bounded.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

/** Nothing may run for an unreadable report: no run is scripted. */
const noSandbox = fakeSandbox([]);
const ports: ReproPorts = {
  sandbox: noSandbox,
  installer: {
    install: async () => {
      throw new Error("nothing may be installed for an unreadable report");
    },
  },
  model: null,
  clock: new ManualClock(),
  registry: { latestVersion: async () => null },
  transpile: async (c) => c,
};
const spec = (markdown: string) => ReproJobSpec.parse({ kind: "repro", id: "t", markdown, runs: 1 });
const fill = (unit: string) => `# hostile\n\n${unit.repeat(MAX_REPORT_CHARS)}`.slice(0, MAX_REPORT_CHARS);

describe("withinTimeLimit", () => {
  it("returns the value of a quick call", () => {
    expect(withinTimeLimit(() => 41 + 1, 1000)).toEqual({ ok: true, value: 42 });
  });
  it("stops an endless call and says so", () => {
    const r = withinTimeLimit(() => {
      for (;;) {}
    }, 50);
    expect(r).toMatchObject({ ok: false, reason: "timeout" });
  });
  it("turns a stack overflow into a value", () => {
    const deep = (n: number): number => (n === 0 ? 0 : 1 + deep(n - 1));
    expect(withinTimeLimit(() => deep(1e7), 1000)).toMatchObject({ ok: false, reason: "stack" });
  });
  it("lets other errors through", () => {
    expect(() =>
      withinTimeLimit(() => {
        throw new TypeError("boom");
      }, 1000),
    ).toThrow("boom");
  });
});

describe("pathological reports", () => {
  it("refuses a report over 65,536 characters without reading it", async () => {
    const md = `# big\n\n\`\`\`python\nprint(1)\n\`\`\`\n\n${"a".repeat(MAX_REPORT_CHARS)}`;
    const { result, events } = await runRepro(spec(md), ports);
    expect(result.verdict).toBe("NEEDS_INFO");
    expect(result.reasons.join(" ")).toMatch(/over GitHub's 65536-character limit/);
    expect(events.find((e) => e.step === "parse")?.summary).toMatch(/^not read:/);
  });

  for (const [name, unit] of [
    ["`[*` repeated", "[*"],
    ["`*a_` repeated", "*a_"],
    ["`>` repeated", ">"],
    ["`> - ` nesting", "> - "],
    ["`[a](` repeated", "[a]("],
  ] as const) {
    it(`ends ${name} at 65,536 characters with a verdict that says why`, async () => {
      const { result } = await runRepro(spec(fill(unit)), ports);
      expect(result.verdict).toBe("NEEDS_INFO");
      expect(result.script).toBeNull();
      // Either it was read (and holds no code), or the reason names the parse limit or the pre-scan's refusal.
      const text = result.reasons.join(" ");
      expect(text).toMatch(
        /could not be read: it (took longer than|nests deeper)|no code that can be run|prose holds \d+ emphasis or link delimiters/,
      );
      expect(result.questions.length).toBeGreaterThan(0);
    }, 20_000);
  }

  it("still reads a long ordinary report", async () => {
    // 8 KB, a long real report: the time limit is wall-clock, and this suite shares a loaded 2-core machine.
    const para = "This paragraph explains the problem in plain words, without any markup at all.\n\n";
    const md = `# ok\n\n\`\`\`python\nprint(1)\n\`\`\`\n\n${para.repeat(Math.floor(8192 / para.length))}`;
    const sandbox = fakeSandbox(() => ({ exitCode: 0, stdout: "1\n", durationMs: 5 }));
    const { result, events } = await runRepro(spec(md), { ...ports, sandbox });
    expect(events.find((e) => e.step === "parse")?.summary).toMatch(/1 block\(s\): code\/python/);
    expect(result.script?.code).toContain("print(1)");
  });
});
