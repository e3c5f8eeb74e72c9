import { describe, expect, it } from "vitest";
import { Redactor } from "../../../src/core/redact.ts";
import type { FixResult } from "../../../src/fix/result.ts";
import { renderFixReport } from "../../../src/report/pr-body.ts";

const base: FixResult = {
  id: "job1",
  outcome: "GAVE_UP",
  reason: "no verified fix after 2 attempt(s)",
  attempts: 2,
  tokens: 12_345,
  costUsd: 0.0421,
  branch: null,
  commit: null,
  failingTests: ["tests/test_a.py::test_x"],
  testCommand: "python3 -m pytest",
  flaky: null,
  verification: null,
  attemptLog: [
    {
      n: 1,
      model: "claude-haiku-4-5",
      rootCause: "off by one",
      summary: "use <=",
      files: ["a.py"],
      patch: "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n",
      verdict: "verify",
      reason: "the patch was applied in a fresh sandbox and rejected: still failing: tests/test_a.py::test_x",
      violations: [],
      tokens: 6000,
      costUsd: 0.02,
    },
    {
      n: 2,
      model: "claude-sonnet-4-5",
      files: ["tests/test_a.py"],
      verdict: "policy",
      reason: "the policy gate refused the patch (1 violation(s))",
      violations: ["[forbidden-paths] tests/test_a.py tests may not be edited"],
      tokens: 6345,
      costUsd: 0.0221,
    },
  ],
  durationMs: 61_000,
};

describe("renderFixReport", () => {
  it("gives every attempt and why it was rejected when there is no fix", () => {
    const md = renderFixReport({ result: base, excerpt: "E   assert 1 == 2" });
    expect(md).toContain("# Retrace could not find a verified fix");
    expect(md).toContain("| 1 | claude-haiku-4-5 | verify |");
    expect(md).toContain("| 2 | claude-sonnet-4-5 | policy |");
    expect(md).toContain("### Attempt 2 (claude-sonnet-4-5) — policy");
    expect(md).toContain("- [forbidden-paths] tests/test_a.py tests may not be edited");
    expect(md).toContain(
      "Why it was rejected:\n\n```text\nthe patch was applied in a fresh sandbox and rejected",
    );
    expect(md).toContain("Attempts: **2** · tokens: **12345** · cost: **$0.0421**");
    expect(md).toContain("No branch was created.");
  });

  it("redacts secrets and keeps hostile backticks from closing the fence", () => {
    const token = "ghp_" + "A".repeat(36);
    const md = renderFixReport({
      result: { ...base, outcome: "ERROR", reason: "boom" },
      excerpt: `token=${token}\n\`\`\`\n# Injected heading\n\`\`\``,
      redact: (s) => new Redactor().redact(s),
    });
    expect(md).not.toContain(token);
    expect(md).toContain("[REDACTED");
    // The excerpt's own ``` is inside a longer fence.
    expect(md).toContain("````\ntoken=");
  });

  it("writes the PR body with evidence, policy checks, risk notes and the review statement when fixed", () => {
    const patch =
      "diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/src/new.py b/src/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/new.py\n@@ -0,0 +1 @@\n+z\n";
    const md = renderFixReport({
      result: {
        ...base,
        outcome: "FIXED",
        reason: "verified",
        attempts: 1,
        branch: "retrace/fix-job1",
        commit: "abc",
        attemptLog: [{ ...base.attemptLog[0]!, verdict: "accepted", reason: "" }],
        verification: {
          runs: 2,
          tests: [
            { id: "tests/test_a.py::test_x", before: "failed", after: "passed" },
            { id: "tests/test_a.py::test_y", before: "passed", after: "passed" },
          ],
        },
        flaky: {
          runs: 3,
          passes: 0,
          failures: 3,
          failureRate: 1,
          interval: { low: 0.44, high: 1, confidence: 0.95 },
          perTest: [],
          command: "c",
          fullSuite: false,
          durationMs: 1,
        },
      },
      excerpt: "E   assert 1 == 2",
      rootCause: { hypothesis: "off by one", evidence: "x", files: ["src/a.py"] },
      summary: "use <=",
      patch,
      policyRules: ["forbidden-paths", "test-bypass"],
      stackFiles: ["src/a.py"],
    });
    expect(md).toContain("**A human must review it before merging.**");
    expect(md).toContain("## Root cause\n\n```text\noff by one\n```");
    expect(md).toContain("## What changed and why\n\n```text\nuse <=\n```");
    expect(md).toContain("| `tests/test_a.py::test_x` | failed | passed |");
    expect(md).toContain("applied in 2 fresh sandbox run(s)");
    expect(md).toContain("failed 3/3 — a real failure, not a flaky one");
    expect(md).toContain("- forbidden-paths\n- test-bypass");
    expect(md).toContain("The patch touches 2 file(s): +2 / -1 lines.");
    expect(md).toContain("It creates new file(s): `src/new.py`.");
    expect(md).toContain("not in the failure's stack trace: `src/new.py`");
    expect(md).toContain("1 of them previously passing");
  });
});

describe("model-written prose in the PR body (eleventh red team)", () => {
  it("is a text block: closing keywords, mentions, images and an unclosed comment are not rendered", () => {
    const hostile =
      "Fixes #1, closes rt11/other#3. cc @octocat ![x](http://127.0.0.1:9/b.png) <img src=x> <!-- hides the rest";
    const md = renderFixReport({
      result: {
        outcome: "FIXED",
        reason: "verified",
        failingTests: ["t"],
        testCommand: "pytest",
        attempts: 1,
        tokens: 1,
        costUsd: 0,
        durationMs: 1,
        attemptLog: [],
        flaky: null,
        verification: { runs: 2, tests: [{ id: "t", before: "failed", after: "passed" }], antiGaming: [] },
      } as never,
      rootCause: { hypothesis: hostile, evidence: hostile, files: [] },
      excerpt: "E",
      summary: hostile,
    });
    // Outside fenced blocks nothing of the hostile prose is left.
    const outside = md.replace(/^(`{3,})text\n[\s\S]*?^\1$/gm, "");
    for (const s of ["#1", "@octocat", "![x]", "<img", "<!--"]) expect(outside).not.toContain(s);
    expect(md.match(/^```text$/gm)?.length).toBe(3);
  });
});
