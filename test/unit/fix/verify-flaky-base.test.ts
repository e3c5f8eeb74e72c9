/**
 * A test the verdict rests on that gives different outcomes on the UNPATCHED base is not the patch's doing: the
 * base and the patched tree are re-run BASE_RERUNS times each to decide, and still undecided it is no verdict
 * (FlakyBaseError, exit 4), never REJECTED. Flakiness only after the patch, over a stable base, stays REJECTED.
 */
import { describe, expect, it } from "vitest";
import { FlakyBaseError, InfrastructureError } from "../../../src/core/errors.ts";
import {
  BASE_RERUNS,
  baseFlakesToSettle,
  compareRuns,
  settleBaseFlakes,
  verifyPatch,
} from "../../../src/fix/verify.ts";
import { command, files, fix, policy } from "../../support/calc-repo.ts";
import { fakeSandbox, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";
import { runResult } from "../../support/run-result.ts";

const broken = { exitCode: 1, report: tapReport({ adds: "failed", subtracts: "passed" }) };
const lucky = { exitCode: 0, report: tapReport({ adds: "passed", subtracts: "passed" }) };
const fixed = lucky;
const regressed = { exitCode: 1, report: tapReport({ adds: "passed", subtracts: "failed" }) };

const verify = (script: Parameters<typeof fakeSandbox>[0]) => {
  const fake = fakeSandbox(script);
  return {
    fake,
    result: verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: fake.sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
      antiGaming: false,
    }),
  };
};

describe("verifyPatch on a base whose deciding test is flaky", () => {
  it("base passed the failing test once: re-runs of base (all fail) and patched tree (all pass) decide — VERIFIED, saying why", async () => {
    // base 1, base 2 (the lucky pass), patched 1 and 2, then 3 base re-runs and 3 patched re-runs.
    const { fake, result } = verify([
      broken,
      lucky,
      fixed,
      fixed,
      broken,
      broken,
      broken,
      fixed,
      fixed,
      fixed,
    ]);
    const r = await result;
    expect(r.verdict).toBe("VERIFIED");
    expect(r.failToPass).toEqual(["adds"]);
    expect(r.unstable).toEqual([]);
    expect(fake.requests).toHaveLength(4 + 2 * BASE_RERUNS);
    expect(r.runs.filter((x) => x.phase === "base")).toHaveLength(2 + BASE_RERUNS);
    expect(r.reasons.join("\n")).toMatch(
      /gave different outcomes on the unpatched base, and 3 re-runs .* agreed/,
    );
  });

  it("base still flaky in its re-runs: no verdict — FlakyBaseError (an infrastructure error, exit 4) with the test and its counts", async () => {
    const { fake, result } = verify([broken, lucky, fixed, fixed, broken, lucky, broken]);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlakyBaseError);
    const e = error as FlakyBaseError;
    expect(e.kind).toBe("infrastructure");
    expect(e.exitCode).toBe(4);
    expect(e.flaky).toEqual([{ id: "adds", counts: { failed: 3, passed: 2 } }]);
    expect(e.message).toMatch(
      /UNPATCHED base.*adds \(base: failed 3\/5, passed 2\/5\).*neither VERIFIED nor REJECTED/,
    );
    expect(e.hint).toMatch(/quarantine or fix the flaky test.*quieter host/);
    // no patched re-runs once the base's own re-runs disagree
    expect(fake.requests).toHaveLength(4 + BASE_RERUNS);
  });

  it("base re-runs agree but the patched tree then disagrees with itself on the same test: no verdict either", async () => {
    const { result } = verify([broken, lucky, fixed, fixed, broken, broken, broken, fixed, broken, fixed]);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlakyBaseError);
  });

  it("base re-runs all fail and the patched tree fails it every time: REJECTED (the patch does not fix it)", async () => {
    // patched 1 (narrowed) fails: the loop stops; its full run beside it is dropped.
    const { result } = verify((_req, i) => (i === 1 ? lucky : broken));
    const r = await result;
    expect(r.verdict).toBe("REJECTED");
    expect(r.stillFailing).toEqual(["adds"]);
  });

  it("a stable test regressed beside the flaky one: REJECTED at once, no re-runs", async () => {
    const { fake, result } = verify([broken, lucky, regressed, regressed]);
    const r = await result;
    expect(r.verdict).toBe("REJECTED");
    expect(r.passToFail).toEqual(["subtracts"]);
    expect(fake.requests).toHaveLength(4);
  });

  it("base stably failing, patched flaky: the patch's behaviour — REJECTED, saying so, no re-runs", async () => {
    const { fake, result } = verify([broken, broken, fixed, broken]);
    const r = await result;
    expect(r.verdict).toBe("REJECTED");
    expect(fake.requests).toHaveLength(4);
    expect(r.reasons).toContain(
      "the patch makes 1 test(s) flaky that give one outcome in every run of the unpatched base: adds (failed in every base run); a fix must make them pass every time",
    );
  });

  it("a base run stopped at the time limit in the re-runs, and again with twice the time, is an infrastructure error, not a verdict", async () => {
    const timeout = { exitCode: null, stoppedBy: "timeout" as const, durationMs: 600_000 };
    // (f13f: a base run stopped at the limit is run once more with twice the time before it is an error.)
    const { result } = verify([
      broken,
      lucky,
      fixed,
      fixed,
      broken,
      timeout,
      { ...timeout, durationMs: 1_200_000 },
    ]);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /did not finish on the unchanged base.*again after 1200 s with twice the time/,
    );
  });
});

describe("settleBaseFlakes / baseFlakesToSettle (pure)", () => {
  const run = runResult;
  const flakyBase = [run({ t: "failed", s: "passed" }), run({ t: "passed" }, ["t"])];

  it("only a base-phase disagreement, with nothing else rejecting the patch, is settled", () => {
    const c = compareRuns(flakyBase, [run({ t: "passed", s: "passed" })]);
    expect(baseFlakesToSettle(c, flakyBase).map((u) => u.id)).toEqual(["t"]);
    const regressed = compareRuns(flakyBase, [run({ t: "passed", s: "failed" })]);
    expect(baseFlakesToSettle(regressed, flakyBase)).toEqual([]);
    const patchedOnly = compareRuns(
      [run({ t: "failed" }), run({ t: "failed" })],
      [run({ t: "passed" }), run({ t: "failed" })],
    );
    expect(baseFlakesToSettle(patchedOnly, [])).toEqual([]);
  });

  it("unanimous base re-runs and a stable patched outcome settle; anything else stays flaky with all counts", () => {
    const c = compareRuns(flakyBase, [run({ t: "passed", s: "passed" })]);
    const flaky = c.unstable;
    const agree = settleBaseFlakes(
      flaky,
      [run({ t: "failed" }, ["t"]), run({ t: "failed" }, ["t"])],
      [run({ t: "passed" })],
    );
    expect([...agree.settled]).toEqual([["t", "failed"]]);
    expect(agree.still).toEqual([]);
    const settledComparison = compareRuns(flakyBase, [run({ t: "passed", s: "passed" })], agree.settled);
    expect(settledComparison.failToPass).toEqual(["t"]);
    expect(settledComparison.verified).toBe(true);
    const mixed = settleBaseFlakes(
      flaky,
      [run({ t: "failed" }, ["t"]), run({ t: "passed" }, ["t"])],
      [run({ t: "passed" })],
    );
    expect(mixed.settled.size).toBe(0);
    expect(mixed.still).toEqual([{ id: "t", phase: "base", counts: { failed: 2, passed: 2 } }]);
    const patchedMixed = settleBaseFlakes(
      flaky,
      [run({ t: "failed" }, ["t"])],
      [run({ t: "passed" }), run({ t: "failed" }, ["t"])],
    );
    expect(patchedMixed.settled.size).toBe(0);
  });
});
