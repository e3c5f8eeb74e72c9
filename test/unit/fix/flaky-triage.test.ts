import { describe, expect, it } from "vitest";
import { type RerunResult, TriageInconclusiveError, triageFlaky } from "../../../src/fix/flaky-triage.ts";

const run = (outcomes: Record<string, string>, extra: Partial<RerunResult> = {}): RerunResult => ({
  outcomes: new Map(Object.entries(outcomes)),
  durationMs: 10,
  stoppedBy: null,
  ...extra,
});

describe("flaky triage", () => {
  it("a failure that fails on every rerun is not flaky", async () => {
    const { flaky, report } = await triageFlaky({
      failing: ["tests/test_a.py::test_x"],
      command: "pytest tests/test_a.py::test_x",
      fullSuite: false,
      rerun: async () => run({ "tests/test_a.py::test_x": "failed" }),
    });
    expect(flaky).toBe(false);
    expect(report).toMatchObject({ runs: 3, passes: 0, failures: 3 });
  });

  it("passing once on the unchanged base is flaky", async () => {
    let i = 0;
    const { flaky } = await triageFlaky({
      failing: ["a"],
      command: "x",
      fullSuite: false,
      rerun: async () => run({ a: i++ === 1 ? "passed" : "failed" }),
    });
    expect(flaky).toBe(true);
  });

  it("reruns that never ran the failing tests (an import error) are not evidence: the job stops and says why", async () => {
    const error = await triageFlaky({
      failing: ["tests/test_a.py::test_x"],
      command: "python3 -m pytest tests/test_a.py::test_x",
      fullSuite: false,
      rerun: async () =>
        run(
          { "tests/test_a.py": "failed" },
          { problem: "tests/test_a.py: ModuleNotFoundError: No module named 'yaml'" },
        ),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TriageInconclusiveError);
    expect((error as Error).message).toBe(
      "the failing tests did not run when rerun on the unchanged base (python3 -m pytest tests/test_a.py::test_x): tests/test_a.py: ModuleNotFoundError: No module named 'yaml'",
    );
    expect((error as TriageInconclusiveError).kind).toBe("infrastructure");
  });

  it("a rerun that did not run them is left out of the counts, the others decide", async () => {
    let i = 0;
    const { flaky, report } = await triageFlaky({
      failing: ["a"],
      command: "x",
      fullSuite: false,
      rerun: async () => (i++ === 0 ? run({}, { problem: "no report" }) : run({ a: "failed" })),
    });
    expect(flaky).toBe(false);
    expect(report).toMatchObject({ runs: 2, failures: 2 });
  });

  it("a run the sandbox stopped still counts as not passing", async () => {
    const { report } = await triageFlaky({
      failing: ["a"],
      command: "x",
      fullSuite: false,
      rerun: async () => run({}, { stoppedBy: "timeout" }),
    });
    expect(report).toMatchObject({ runs: 3, failures: 3 });
  });
});
