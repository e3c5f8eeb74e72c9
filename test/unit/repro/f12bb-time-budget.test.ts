/**
 * The job's wall-time budget spent before the report's own runs are done (a loaded host): an infrastructure error
 * that says what to do, never an ERROR exit of its own kind or a verdict (issue 12, fixer f12bb, hold23's
 * strip-json-comments-64 at load 56). Reports written for these tests.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { ReproJobSpec } from "../../../src/core/job.ts";
import { ManualClock } from "../../../src/core/loop-clock.ts";
import type { SandboxRunResult } from "../../../src/core/ports/sandbox.ts";
import type { ReproPorts } from "../../../src/repro/ports.ts";
import { runRepro } from "../../../src/repro/run-repro.ts";
import { fakeSandbox } from "../../support/fake-sandbox.ts";

const f = "```";
const report = `# crash\n\n${f}python\nd = {}\nprint(d["k"])\n${f}\n\n${f}\nTraceback (most recent call last):\n  File "/home/u/x.py", line 2, in <module>\nKeyError: 'k'\n${f}\n`;
const keyErrorRun: SandboxRunResult = {
  exitCode: 1,
  signal: null,
  stdout: "",
  stderr: `@@retrace-runtime 3.11.2\nTraceback (most recent call last):\n  File "/workspace/reproduction.py", line 2, in <module>\nKeyError: 'k'\n`,
  stdoutTruncated: false,
  stderrTruncated: false,
  durationMs: 120,
  files: {},
  stoppedBy: null,
};

function portsWith(clock: ManualClock, slowMs: number): ReproPorts {
  return {
    sandbox: fakeSandbox(() => {
      clock.advance(slowMs);
      return keyErrorRun;
    }),
    installer: {
      install: async (req) => ({
        dir: "/cache/x",
        pythonPath: req.ecosystem === "pypi" ? "python-packages" : null,
        installed: [],
        failures: [],
        cached: false,
        durationMs: 5,
      }),
    },
    model: null,
    clock,
    registry: { latestVersion: async () => "1.0.0" },
    transpile: async (code) => code,
  };
}

const spec = ReproJobSpec.parse({
  kind: "repro",
  id: "t",
  markdown: report,
  runs: 2,
  budget: { maxWallMs: 5_000 },
});

describe("the time budget spent by the report's own runs", () => {
  it("ends as an infrastructure error naming the loaded host and what to do", async () => {
    const err = await runRepro(spec, portsWith(new ManualClock(), 6_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfrastructureError);
    expect((err as InfrastructureError).message).toMatch(/time budget ran out before the report's own code/);
    expect((err as InfrastructureError).hint).toMatch(/less loaded/);
  });

  it("does not fire when the runs fit in the budget: the verdict stands", async () => {
    const { result } = await runRepro(spec, portsWith(new ManualClock(), 100));
    expect(result.verdict).toBe("REPRODUCED");
  });
});
