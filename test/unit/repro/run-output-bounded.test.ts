/**
 * A run's output read on the host (ninth red team): the report's code prints what it likes, up to the run's
 * output cap, and the repro matcher reads all of it. Its patterns are linear (an unterminated OSC escape, the
 * ENOENT rule), the whole reading has a budget of host CPU linear in the output, and a call's time limit counts
 * CPU, not the wall clock of a busy host (`withinCpuTime`).
 */
import { afterEach, describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { withinCpuTime } from "../../../src/core/time-limit.ts";
import { matchRun, matchRunWithinBudget, quotedAfterNotFound } from "../../../src/repro/match.ts";
import { normalizeText } from "../../../src/repro/normalize.ts";
import type { ReportedBehaviour } from "../../../src/repro/result.ts";

const saved = process.env.RETRACE_HOST_LIMITS;
afterEach(() => {
  if (saved === undefined) delete process.env.RETRACE_HOST_LIMITS;
  else process.env.RETRACE_HOST_LIMITS = saved;
});

const cpuMs = (start: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
};

const printed: ReportedBehaviour = {
  kind: "output",
  exceptionType: null,
  exceptionMessage: null,
  output: ["done"],
  source: "Actual section",
};
const run = (stdout: string, stderr = "") => ({
  exitCode: 1,
  stoppedBy: null,
  stdout,
  stderr,
  exception: null,
  durationMs: 5,
});

describe("the ENOENT rule", () => {
  const REFERENCE = /(?:FileNotFoundError|ENOENT)[^\n]*?['"]([^'"\n]+)['"]/;
  it("finds what the expression found, on random texts", () => {
    const tokens = ["ENOENT", "FileNotFoundError", "'", '"', "x", " ", "\n", "\r", "a.txt", "ENOEN"];
    let s = 9;
    const r = () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
    for (let i = 0; i < 100_000; i++) {
      let t = "";
      for (let k = Math.floor(r() * 12); k > 0; k--) t += tokens[Math.floor(r() * tokens.length)];
      const a = REFERENCE.exec(t);
      const b = quotedAfterNotFound(t);
      expect(b ? [b[0], b[1], b.index] : null, JSON.stringify(t)).toEqual(a ? [a[0], a[1], a.index] : null);
    }
  });
  it("reads 16 MiB of ENOENT without a quote in linear time", () => {
    const start = process.cpuUsage();
    expect(quotedAfterNotFound("ENOENT".repeat(2_800_000))).toBeNull();
    expect(quotedAfterNotFound(`${"ENOENT ".repeat(1_000)}\nENOENT: open 'a.txt'`)?.[1]).toBe("a.txt");
    expect(cpuMs(start)).toBeLessThan(2_000);
  });
});

describe("escape sequences in a run's output", () => {
  it("strips terminated OSC and CSI sequences as before", () => {
    expect(normalizeText("a\u001b]0;title\u0007b\u001b[31mc\u001b[0m")).toBe("abc");
  });
  it("costs linear time on a run of unterminated OSC sequences (the expression rescanned the rest from each)", () => {
    const start = process.cpuUsage();
    normalizeText("\u001b]".repeat(4_000_000));
    expect(cpuMs(start)).toBeLessThan(3_000);
  });
});

describe("the matcher's budget", () => {
  it("reads output shaped against it, 1 MiB a stream (the default output cap), in little CPU", () => {
    const start = process.cpuUsage();
    for (const out of [
      "\u001b]".repeat(500_000),
      "ENOENT".repeat(175_000),
      `${"line of output\n".repeat(70_000)}`,
    ]) {
      const m = matchRunWithinBudget(printed, run(out, out));
      expect(m.kind).not.toBe("match");
    }
    expect(cpuMs(start)).toBeLessThan(4_000);
  });
  it("past its budget, ends in an infrastructure error naming the output, never a verdict", () => {
    process.env.RETRACE_HOST_LIMITS = "logTimeMs=100,logMsPerMb=10";
    const out = `${"line of output\n".repeat(280_000)}done\n`;
    // Unbounded, the same output is a match: the budget refuses it, it never turns into another verdict.
    expect(matchRun(printed, run(out)).kind).toBe("match");
    expect(() => matchRunWithinBudget(printed, run(out))).toThrow(InfrastructureError);
    expect(() => matchRunWithinBudget(printed, run(out))).toThrow(
      /the run's output \(4\.0 MiB\) could not be read/,
    );
  });
});

describe("withinCpuTime", () => {
  const wait = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  it("stops a call that spends its CPU limit, as a timeout", () => {
    const r = withinCpuTime(() => {
      for (;;);
    }, 300);
    expect(r).toMatchObject({ ok: false, reason: "timeout" });
  });
  it("calls a call starved of CPU (the wall clock passing without it) the host's, not the call's", () => {
    // Waiting stands for a busy host: the wall clock runs, the call gets no CPU.
    const r = withinCpuTime(() => wait(400), 100);
    expect(r).toMatchObject({ ok: false, reason: "busy" });
  });
  it("gives a starved call a second, longer chance", () => {
    let calls = 0;
    const r = withinCpuTime(() => {
      calls++;
      if (calls === 1) wait(300);
      return "read";
    }, 100);
    expect(r).toEqual({ ok: true, value: "read" });
    expect(calls).toBe(2);
  });
});
