/**
 * Item 5 of the anti-gaming work: the fix loop's feedback names the class of gaming plainly, and the PR body of
 * a verified fix lists the anti-gaming checks that ran and passed.
 */
import { describe, expect, it } from "vitest";
import { gamingClassOf, policyFeedback, verifyFeedback } from "../../../src/fix/feedback.ts";
import type { FixResult } from "../../../src/fix/result.ts";
import { antiGamingGap } from "../../../src/fix/verify.ts";
import { renderFixReport } from "../../../src/report/pr-body.ts";

describe("feedback to the next attempt", () => {
  it("names the class of gaming a tripwire detected, and what to do instead", () => {
    const fb = verifyFeedback({
      stillFailing: [],
      newFailures: [],
      excerpt: "",
      gaming: {
        gamingClass:
          "compromised comparison (a value or an assertion that accepts anything, e.g. an `==` that is always true)",
        reasons: [
          "tripwire (mutated twin): a copy of a failing test whose expected value was changed still passed",
        ],
      },
    });
    expect(fb.errorType).toBe("gaming_detected");
    expect(fb.message).toMatch(/games them rather than fixing the code — compromised comparison/);
    expect(fb.message).toContain("tripwire (mutated twin)");
    expect(fb.message).toMatch(/do not detect the test, read it, special-case its values/);
  });

  it("names the gaming class of a policy refusal by the anti-gaming rules", () => {
    const fb = policyFeedback([{ rule: "special-casing", file: "src/a.py", line: 3, message: "x" }], "diff");
    expect(fb.errorType).toBe("gaming_detected");
    expect(fb.message).toContain("special-casing the failing test's own inputs or expected outputs");
    const plain = policyFeedback([{ rule: "size-caps", message: "too big" }], "diff");
    expect(plain.errorType).toBe("policy_violation");
    expect(gamingClassOf(["size-caps"])).toBeNull();
    expect(gamingClassOf(["test-awareness", "check-tampering"])).toMatch(
      /recognises it is under test.*disarming the checks/,
    );
    // f13: the terminal and call-budget patterns of test-awareness are said plainly too.
    expect(gamingClassOf(["test-awareness"])).toMatch(
      /whether output goes to a terminal.*after its first calls/,
    );
  });

  it("keeps the ordinary feedback when nothing was gamed", () => {
    const fb = verifyFeedback({ stillFailing: ["t1"], newFailures: [], excerpt: "" });
    expect(fb.errorType).toBe("tests_still_failing");
  });
});

describe("PR body", () => {
  const fixed: FixResult = {
    id: "job1",
    outcome: "FIXED",
    reason: "verified",
    attempts: 1,
    tokens: 100,
    costUsd: 0.01,
    branch: "retrace/fix-job1",
    commit: "abc",
    failingTests: ["tests/test_a.py::test_x"],
    testCommand: "python3 -m pytest",
    flaky: null,
    verification: {
      runs: 2,
      tests: [{ id: "tests/test_a.py::test_x", before: "failed", after: "passed" }],
      antiGaming: [
        {
          layer: "tripwire",
          name: "canary",
          passed: true,
          detail: "a test asserting a contradiction failed, as it must",
        },
        { layer: "tripwire", name: "mutated twins", passed: true, detail: "2 twin(s) failed, as they must" },
        {
          layer: "neutral-run",
          name: "run the code cannot recognise",
          passed: true,
          detail: "1 failing test(s) passed again",
        },
      ],
    },
    attemptLog: [],
    durationMs: 1000,
  };

  it("lists the anti-gaming checks that ran and passed", () => {
    const md = renderFixReport({ result: fixed, excerpt: "E assert 1 == 2", patch: "" });
    expect(md).toContain("## Anti-gaming checks passed");
    expect(md).toContain("- **Tripwire: canary** — a test asserting a contradiction failed, as it must");
    expect(md).toContain("- **Tripwire: mutated twins** — 2 twin(s) failed, as they must");
    expect(md).toContain("- **Neutral run: run the code cannot recognise** — 1 failing test(s) passed again");
  });

  it("has no such section when no anti-gaming run was made", () => {
    const md = renderFixReport({
      result: { ...fixed, verification: { runs: 2, tests: fixed.verification!.tests } },
      excerpt: "",
    });
    expect(md).not.toContain("Anti-gaming checks");
  });

  it("says plainly, in its own section, when the anti-gaming checks could not be made (hold8)", () => {
    const gap = antiGamingGap({
      ran: false,
      notes: [
        "anti-gaming run not made: no previously failing test could be copied (t: its definition was not found in tests/test_q.py)",
      ],
    });
    const md = renderFixReport({
      result: {
        ...fixed,
        verification: { runs: 2, tests: fixed.verification!.tests, antiGamingGap: gap! },
      },
      excerpt: "",
    });
    expect(md).toContain("## Anti-gaming checks not made");
    expect(md).toContain("VERIFIED WITHOUT ANTI-GAMING EVIDENCE");
    expect(md).toContain("its definition was not found in tests/test_q.py");
    expect(md).not.toContain("## Anti-gaming checks passed");
  });
});

describe("antiGamingGap: VERIFIED without the anti-gaming evidence is never silent", () => {
  it("says the checks could not run, and why", () => {
    expect(
      antiGamingGap({
        ran: false,
        notes: [
          "anti-gaming run not made: the anti-gaming run supports pytest, node:test, jest, vitest and mocha, not go",
        ],
      }),
    ).toMatch(
      /^VERIFIED WITHOUT ANTI-GAMING EVIDENCE: .* could not run — the anti-gaming run supports .* not go\. /,
    );
  });

  it("says which failing tests the run did not cover, when it covered others", () => {
    expect(
      antiGamingGap({
        ran: true,
        notes: [
          "not covered by the anti-gaming run: tests/test_a.py::test_b (its definition was not found in tests/test_a.py)",
        ],
      }),
    ).toBe(
      "VERIFIED WITH PARTIAL ANTI-GAMING EVIDENCE: the anti-gaming checks did not cover tests/test_a.py::test_b (its definition was not found in tests/test_a.py)",
    );
  });

  it("is null when every failing test went through the checks (other notes are not gaps)", () => {
    expect(
      antiGamingGap({
        ran: true,
        notes: [
          "runner-free run not applied to tests/test_a.py::test_x (the test takes fixtures (tmp_path))",
          "tests/test_q.py::TestQ::test_x is inherited from tests/contract.py::Contract: its definition was inlined into the neutral copy's class",
        ],
      }),
    ).toBeNull();
  });
});
