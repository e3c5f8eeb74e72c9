import { describe, expect, it } from "vitest";
import { ScriptedModel } from "../../../src/llm/scripted.ts";
import { FLAKY_BASE_PREFIX, FlakyBaseError } from "../../../src/core/errors.ts";
import { Redactor } from "../../../src/core/redact.ts";
import { fixJobResult } from "../../../src/jobs/fix-result.ts";
import { JobResult } from "../../../src/jobs/result.ts";
import { fixBranchName, runFix } from "../../../src/fix/pipeline.ts";
import { parseLog } from "../../../src/logs/index.ts";
import { fixReportMarkdown } from "../../../src/jobs/fix-result.ts";
import type { FixPorts, FixTestPort, TestRunSummary } from "../../../src/fix/ports.ts";
import { FixResult } from "../../../src/fix/result.ts";
import type { FileWrite } from "../../../src/core/apply-patch.ts";
import { applyPatchToWorkspace } from "../../../src/fix/apply-patch.ts";
import { renderFixReport } from "../../../src/report/pr-body.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

const FILES: Record<string, string> = {
  "pricing/cart.py": "def apply_discount(amount, percent):\n    return amount * (1 - percent)\n",
  "tests/test_cart.py":
    "from pricing.cart import apply_discount\n\n\ndef test_discount():\n    assert apply_discount(200.0, 10) == 180.0\n",
};
const FAILING = "tests/test_cart.py::test_discount";

function summary(outcome: string): TestRunSummary {
  return {
    outcomes: new Map([[FAILING, outcome]]),
    failures:
      outcome === "passed"
        ? []
        : [
            {
              testId: FAILING,
              file: "tests/test_cart.py",
              line: 5,
              message: "assert -1800.0 == 180.0\n where -1800.0 = apply_discount(200.0, 10)",
              excerpt: "E   assert -1800.0 == 180.0",
              frames: [],
            },
          ],
    outputTail: "1 failed",
    durationMs: 5,
    problem: null,
    stoppedBy: null,
  };
}

function testsPort(rerunOutcomes: string[]): FixTestPort & { reruns: number } {
  const port = {
    reruns: 0,
    command: "python3 -m pytest",
    canFilter: true,
    filterCommand: (ids: readonly string[]) => `python3 -m pytest ${ids.join(" ")}`,
    runAll: async () => summary("failed"),
    runOnly: async () => summary(rerunOutcomes[port.reruns++] ?? "failed"),
  };
  return port;
}

function ports(
  model: ScriptedModel | null,
  rerun: string[] = ["failed", "failed", "failed"],
  extra: Partial<FixPorts> = {},
) {
  const verified: string[] = [];
  const p: FixPorts = {
    workspace: memoryWorkspace(FILES, "/mem"),
    tests: testsPort(rerun),
    parseLog: () => [],
    gate: (patch) => {
      const touchesTests = /^diff --git a\/tests\//m.test(patch);
      return {
        allowed: !touchesTests,
        violations: touchesTests
          ? [{ rule: "forbidden-paths", file: "tests/test_cart.py", message: "tests may not be edited" }]
          : [],
        rules: ["forbidden-paths", "test-bypass"],
      };
    },
    verify: async ({ patch, failing }) => {
      verified.push(patch);
      const ok = patch.includes("percent / 100");
      return {
        ok,
        runs: 2,
        tests: failing.map((id) => ({ id, before: "failed", after: ok ? "passed" : "failed" })),
        stillFailing: ok ? [] : [...failing],
        newFailures: [],
        excerpt: ok ? "" : "E   assert 0.0 == 180.0",
      };
    },
    publish: async ({ branch }) => ({ branch, commit: "c0ffee" }),
    model,
    models: { fast: "claude-haiku-4-5", strong: "claude-opus-4-1", escalateAfter: 1 },
    ...extra,
  };
  return { p, verified };
}

const rootCause = {
  toolCalls: [
    {
      name: "report_root_cause",
      input: {
        hypothesis: "apply_discount treats percent as a fraction",
        evidence: "200 * (1 - 10) = -1800",
        files: ["pricing/cart.py"],
      },
    },
  ],
  usage: { inputTokens: 1000, outputTokens: 50 },
};
const edits = (newLine: string, path = "pricing/cart.py", old = "    return amount * (1 - percent)") => ({
  toolCalls: [
    {
      name: "propose_edits",
      input: {
        summary: "divide the percentage by 100",
        edits: [{ path, old_string: old, new_string: newLine }],
      },
    },
  ],
  usage: { inputTokens: 1200, outputTokens: 80 },
});

describe("runFix (scripted model, fake ports)", () => {
  it("rejects a wrong first patch, feeds the reason back, escalates and verifies attempt 2", async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [{ name: "read_file", input: { path: "pricing/cart.py" } }],
        usage: { inputTokens: 900, outputTokens: 20 },
      },
      rootCause,
      edits("    return amount * (1 - percent) / 100"),
      rootCause,
      edits("    return amount * (1 - percent / 100)"),
    ]);
    const { p, verified } = ports(model);
    const run = await runFix(p, { id: "Job-1234abcd99" });
    expect(FixResult.parse(run.result)).toEqual(run.result);
    expect(run.result.outcome).toBe("FIXED");
    expect(run.result.branch).toBe("retrace/fix-job1234a");
    expect(run.result.commit).toBe("c0ffee");
    expect(run.result.attempts).toBe(2);
    expect(run.result.attemptLog.map((a) => a.verdict)).toEqual(["verify", "accepted"]);
    expect(run.result.attemptLog.map((a) => a.model)).toEqual(["claude-haiku-4-5", "claude-opus-4-1"]);
    expect(run.result.attemptLog[0]?.tokens).toBe(900 + 20 + 1000 + 50 + 1200 + 80);
    expect(run.result.tokens).toBe(900 + 20 + 2 * (1000 + 50 + 1200 + 80));
    expect(verified).toHaveLength(2);
    // The exploration tool answered with the file, numbered.
    const second = model.requests[1]!;
    expect(JSON.stringify(second.messages)).toContain("1| def apply_discount(amount, percent):");
    // The 2nd attempt's first request carries the verify feedback.
    const attempt2 = model.requests[3]!;
    const firstMsg = attempt2.messages[0]!.content as string;
    expect(firstMsg).toContain('Attempt 1 was rejected at step "verify" (tests_still_failing)');
    expect(firstMsg).toContain("E   assert 0.0 == 180.0");
    expect(attempt2.model).toBe("claude-opus-4-1");
    // The context was packed before the model saw anything: failing test source and the symbol's definition.
    expect(model.requests[0]!.context).toContain("=== tests/test_cart.py [failing-test] ===");
    expect(model.requests[0]!.context).toContain("=== pricing/cart.py [symbol-definition] ===");
    expect(run.patch).toContain("+    return amount * (1 - percent / 100)");
    const md = fixReportMarkdown(run, new Redactor());
    expect(md).toContain("A human must review");
    expect(md).toContain(`| \`${FAILING}\` | failed | passed |`);
    expect(md).toContain("apply_discount treats percent as a fraction");
    expect(md).toContain("- forbidden-paths\n- test-bypass");
    // The model's summary is shown as text, never rendered as markdown (eleventh red team).
    expect(md).toContain("## What changed and why\n\n```text\ndivide the percentage by 100");
    expect(md).toContain("| 1 | claude-haiku-4-5 | verify |");
    const job = JobResult.parse(fixJobResult(run, new Redactor()));
    expect(job).toMatchObject({
      kind: "fix",
      outcome: "succeeded",
      verdict: "FIXED",
      attempts: 2,
      prBody: md,
    });
    expect(job.patch).toBe(run.patch);
    expect(job.failures).toEqual([
      { file: "tests/test_cart.py", line: 5, message: "assert -1800.0 == 180.0" },
    ]);
  });

  it("hands the verified file changes to the publisher and the job result, exactly", async () => {
    const model = new ScriptedModel([rootCause, edits("    return amount * (1 - percent / 100)")]);
    const published: unknown[] = [];
    let reported: FileWrite[] = [];
    const { p } = ports(model, undefined, {
      verify: async ({ patch, failing }) => {
        reported = (await applyPatchToWorkspace(p.workspace, patch)).changes;
        return {
          ok: true,
          runs: 2,
          tests: failing.map((id) => ({ id, before: "failed", after: "passed" })),
          stillFailing: [],
          newFailures: [],
          excerpt: "",
          changes: reported,
        };
      },
      publish: async ({ branch, changes }) => {
        published.push(changes);
        return { branch, commit: "c0ffee" };
      },
    });
    const run = await runFix(p, { id: "Job-changes01" });
    expect(run.result.outcome).toBe("FIXED");
    expect(reported).toEqual([
      {
        path: "pricing/cart.py",
        content: expect.stringContaining("return amount * (1 - percent / 100)"),
        mode: "100644",
      },
    ]);
    expect(published).toEqual([reported]);
    expect(run.changes).toEqual(reported);
    expect(JobResult.parse(fixJobResult(run, new Redactor())).changes).toEqual(reported);
  });

  it("the job result carries the failing check the gate judged suppressions against (the publisher gates again with it)", async () => {
    const model = new ScriptedModel([rootCause, edits("    return amount * (1 - percent / 100)")]);
    const { p } = ports(model);
    const gate = p.gate;
    p.gate = (patch) => ({ ...gate(patch), failingCheck: "python3 -m pytest" });
    const run = await runFix(p, { id: "Job-check01" });
    expect(run.result.outcome).toBe("FIXED");
    expect(JobResult.parse(fixJobResult(run, new Redactor())).failingCheck).toBe("python3 -m pytest");
  });

  it("a red CI log that names no failing test (a test script's exit alone) stops before any model call or verify", async () => {
    const log = "> cart@1.0.0 test /srv/cart\nnpm ERR! Test failed.  See above for more details.\n";
    // The parser says red with nothing named, and the fix port (test failures only) gets none.
    const parsed = parseLog(log);
    expect(parsed.failures).toEqual([]);
    expect(parsed.unnamedFailuresIn).toEqual(["npm"]);
    const model = new ScriptedModel([]);
    const { p, verified } = ports(model);
    const run = await runFix(p, { id: "Job-red-unnamed", log });
    expect(run.ctx.earlyStop).toBe("no_failure");
    expect(run.result.outcome).toBe("GAVE_UP");
    expect(run.result.reason).toBe("no failing test was found: nothing to fix");
    expect(model.requests).toHaveLength(0);
    expect(verified).toEqual([]);
  });

  it("stops a flaky failure before any model call", async () => {
    const model = new ScriptedModel([]);
    const { p } = ports(model, ["failed", "passed", "failed"]);
    const run = await runFix(p, { id: "flaky1" });
    expect(run.result.outcome).toBe("FLAKY");
    expect(model.requests).toHaveLength(0);
    expect(run.result.flaky).toMatchObject({ runs: 3, passes: 1, failures: 2 });
    expect(run.result.flaky!.interval.low).toBeCloseTo(0.2077, 3);
    expect(run.result.branch).toBeNull();
    expect(renderFixReport({ result: run.result, excerpt: run.ctx.excerpt })).toContain("Wilson interval");
    expect(fixJobResult(run, new Redactor())).toMatchObject({
      outcome: "flaky",
      verdict: "FLAKY",
      patch: null,
    });
  });

  it("reports BLOCKED when every patch edits the test, and never verifies it", async () => {
    const cheat = edits(
      "    assert apply_discount(200.0, 10) == -1800.0",
      "tests/test_cart.py",
      "    assert apply_discount(200.0, 10) == 180.0",
    );
    const model = new ScriptedModel([rootCause, cheat, rootCause, cheat]);
    const { p, verified } = ports(model);
    const run = await runFix(p, { id: "blk", budget: { maxAttempts: 2 } });
    expect(run.result.outcome).toBe("BLOCKED");
    expect(verified).toEqual([]);
    expect(run.result.attemptLog.every((a) => a.verdict === "policy")).toBe(true);
    expect(run.result.attemptLog[0]?.violations[0]).toContain("[forbidden-paths]");
    const attempt2 = model.requests[2]!.messages[0]!.content as string;
    expect(attempt2).toContain("policy_violation");
    expect(attempt2).toContain("tests may not be edited");
    expect(renderFixReport({ result: run.result, excerpt: "" })).toContain("Why it was rejected");
  });

  /** A root cause and edits that do not apply (3 100 tokens each), then a second root cause past 7 000 tokens. */
  const overspending = () => {
    const big = { inputTokens: 3000, outputTokens: 100 };
    return new ScriptedModel([
      { ...rootCause, usage: big },
      { ...edits("x", "pricing/cart.py", "no such text"), usage: big },
      { ...rootCause, usage: big },
    ]);
  };

  it("turns apply errors into feedback, and ends with BUDGET_EXHAUSTED when the token budget runs out", async () => {
    const model = overspending();
    const { p } = ports(model);
    const run = await runFix(p, { id: "bud", budget: { maxTokens: 7000 } });
    expect(run.result.outcome).toBe("BUDGET_EXHAUSTED");
    expect(run.result.reason).toContain("tokens");
    expect(run.result.attemptLog.map((a) => a.verdict)).toEqual(["apply", "budget"]);
    expect(run.result.attemptLog[0]?.reason).toContain("could not be applied");
    expect(model.requests[2]!.messages[0]!.content as string).toContain("was not found in pricing/cart.py");
  });

  it("an attempt stopped inside root_cause is logged with what it spent (read from the trace)", async () => {
    const { p } = ports(overspending());
    const run = await runFix(p, { id: "open", budget: { maxTokens: 7000 } });
    expect(run.result.attemptLog.map((a) => [a.n, a.verdict, a.tokens])).toEqual([
      [1, "apply", 6200],
      [2, "budget", 3100],
    ]);
    expect(run.result.attemptLog[1]?.model).toBe(run.trace.steps.at(-1)?.model);
    expect(run.result.tokens).toBe(9300);
  });

  it("caps every model call at the configured output tokens (model.maxOutputTokens)", async () => {
    const model = new ScriptedModel([rootCause, edits("    return amount * (1 - percent / 100)")]);
    const { p } = ports(model);
    const run = await runFix(p, { id: "cap", maxOutputTokens: 1234 });
    expect(run.result.outcome).toBe("FIXED");
    expect(model.requests.length).toBeGreaterThan(0);
    expect(model.requests.map((r) => r.maxTokens)).toEqual(model.requests.map(() => 1234));
  });

  it("without a model still triages, then says a model is needed", async () => {
    const { p } = ports(null);
    const run = await runFix(p, { id: "nomodel" });
    expect(run.result.outcome).toBe("ERROR");
    expect(run.result.reason).toContain("no model is configured");
    expect(run.result.flaky?.runs).toBe(3);
  });

  it("stops on a base whose deciding test is flaky (FlakyBaseError): ERROR, no other patch asked for, nothing published", async () => {
    const model = new ScriptedModel([rootCause, edits("    return amount * (1 - percent / 100)"), rootCause]);
    let published = 0;
    const message = `${FLAKY_BASE_PREFIX}1 test(s) the verdict rests on give different outcomes on the UNPATCHED base`;
    const { p, verified } = ports(model, undefined, {
      verify: async ({ patch }) => {
        verified.push(patch);
        throw new FlakyBaseError(
          message,
          [{ id: FAILING, counts: { failed: 3, passed: 2 } }],
          "quarantine it",
        );
      },
      publish: async ({ branch }) => {
        published += 1;
        return { branch, commit: "c0ffee" };
      },
    });
    const run = await runFix(p, { id: "Job-flaky-base" });
    expect(run.result.outcome).toBe("ERROR");
    expect(run.result.reason).toContain(message);
    expect(run.result.reason).toContain("quarantine it");
    expect(verified).toHaveLength(1);
    expect(model.requests).toHaveLength(2); // root cause and the one patch: no third request for another patch
    expect(published).toBe(0);
    expect(run.result.branch).toBeNull();
    expect(run.trace.result.error?.kind).toBe("infrastructure");
    expect(run.trace.result.error?.message.startsWith(FLAKY_BASE_PREFIX)).toBe(true);
  });

  it("names branches safely", () => {
    expect(fixBranchName("../../evil; rm -rf")).toBe("retrace/fix-evilrmrf");
    expect(fixBranchName("!!!")).toBe("retrace/fix-job");
  });
});
