/**
 * Issue 12 (f12c): a run stopped at the time limit is the program's own doing only when it spent nearly all of the
 * wall time on the CPU (CPU ≈ wall: an endless loop), read from the container's cgroup at the stop. Then it
 * reaches the verdict logic as a hang: as reported where the report describes one, otherwise a failure that is
 * not the reported one (PARTIAL). CPU far below wall (a loaded host, a program waiting) and no reading at all stay
 * the timeout the host caused (NEEDS_INFO with `timedOut`, which the attempt turns into the infrastructure error).
 */
import { describe, expect, it } from "vitest";
import { cpuBound, foldRuns, matchRun, type RunObservation } from "../../../src/repro/match.ts";
import type { ReportedBehaviour } from "../../../src/repro/result.ts";

const printed: ReportedBehaviour = {
  kind: "output",
  exceptionType: null,
  exceptionMessage: null,
  output: ["42"],
  source: "the output in the report",
};
const hang: ReportedBehaviour = {
  kind: "hang",
  exceptionType: null,
  exceptionMessage: null,
  output: [],
  source: "the report's prose",
};
const stopped = (cpuMs?: number): RunObservation => ({
  exitCode: null,
  stoppedBy: "timeout",
  stdout: "",
  stderr: "",
  exception: null,
  durationMs: 20_000,
  ...(cpuMs === undefined ? {} : { cpuMs }),
});

describe("a timed-out run's CPU time decides whose doing it was", () => {
  it("CPU ≈ wall where no hang is reported: the program loops, a failure not as reported (PARTIAL)", () => {
    const m = matchRun(printed, stopped(19_500));
    expect(m.kind).toBe("different-failure");
    expect(m.detail).toMatch(/busy on the CPU .*19\.5 s of CPU in 20\.0 s/);
    const fold = foldRuns([m, m, m]);
    expect(fold.verdict).toBe("PARTIAL");
    expect(fold.timedOut).toBeFalsy();
  });

  it("CPU ≈ wall where the report describes a hang: the hang, as reported", () => {
    expect(matchRun(hang, stopped(19_500)).kind).toBe("match");
  });

  it("counter-examples: CPU far below wall (a loaded host) and no reading stay the host's timeout", () => {
    for (const run of [stopped(2_000), stopped(undefined), stopped(0)]) {
      const m = matchRun(printed, run);
      expect(m.kind).toBe("needs");
      expect(foldRuns([m]).timedOut).toBe(true);
    }
  });

  it("cpuBound: the share is of the wall time", () => {
    expect(cpuBound({ cpuMs: 16_000, durationMs: 20_000 })).toBe(true);
    expect(cpuBound({ cpuMs: 15_000, durationMs: 20_000 })).toBe(false);
    expect(cpuBound({ durationMs: 20_000 })).toBe(false);
  });
});
