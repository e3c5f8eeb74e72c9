import type { RunObservation } from "../../../src/repro/match.ts";

/** A run that exited 0 in 5 ms and printed nothing, with `partial` over it. */
export const run = (partial: Partial<RunObservation>): RunObservation => ({
  exitCode: 0,
  stoppedBy: null,
  stdout: "",
  stderr: "",
  exception: null,
  durationMs: 5,
  ...partial,
});
