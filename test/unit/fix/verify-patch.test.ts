import { describe, expect, it } from "vitest";
import type { TestCommand } from "../../../src/fix/test-runner/types.ts";
import { CancelledError, UsageError } from "../../../src/core/errors.ts";
import { readResults } from "../../../src/fix/test-runner/results.ts";
import { compareRuns, verifyPatch } from "../../../src/fix/verify.ts";
import { fakeSandbox, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

import { command, files, fix, policy } from "../../support/calc-repo.ts";
import { runResult } from "../../support/run-result.ts";
const base = { exitCode: 1, report: tapReport({ adds: "failed", subtracts: "passed" }) };
const fixed = { exitCode: 0, report: tapReport({ adds: "passed", subtracts: "passed" }) };

describe("verifyPatch", () => {
  it("VERIFIED: fail→pass, nothing regressed, repeated runs agree; base runs get no overlay, patched runs do", async () => {
    const { sandbox, requests } = fakeSandbox([base, base, fixed, fixed]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("VERIFIED");
    expect(result.failToPass).toEqual(["adds"]);
    expect(result.passToFail).toEqual([]);
    expect(result.stillFailing).toEqual([]);
    expect(result.runs.map((r) => `${r.phase}${r.index}`)).toEqual([
      "base1",
      "base2",
      "patched1",
      "patched2",
    ]);
    expect(result.changedFiles).toEqual(["src/calc.js"]);
    expect(result.testCommand).toBe("node --test");
    expect(result.tests).toEqual([
      { id: "adds", before: "failed", after: "passed" },
      { id: "subtracts", before: "passed", after: "passed" },
    ]);
    expect(requests[0]!.input).toEqual({ dir: "/repo" });
    expect(requests[2]!.input?.files?.["src/calc.js"]).toContain("a + b");
    expect(result.baseline).toHaveLength(2);
  });

  it("makes the runs' containers ready before the first base run (the tree only, never the patch) and releases them at the end", async () => {
    const { sandbox, requests } = fakeSandbox([base, base, fixed, fixed]);
    const events: string[] = [];
    const prepared: unknown[] = [];
    const run = sandbox.run.bind(sandbox);
    const withPrepare = {
      run: (r: Parameters<typeof run>[0]) => {
        events.push("run");
        return run(r);
      },
      prepare: (r: unknown, count: number) => {
        events.push(`prepare ${count}`);
        prepared.push(r);
      },
      release: async (jobId: string) => {
        events.push(`release ${jobId}`);
      },
    };
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: withPrepare,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
      antiGaming: false,
    });
    expect(result.verdict).toBe("VERIFIED");
    // Two base runs and two patched runs, made ready before the first run; released after the last.
    expect(events.slice(0, 3)).toEqual(["prepare 2", "prepare 2", "run"]);
    expect(events.at(-1)).toBe("release j");
    expect(prepared).toEqual([
      { jobId: "j", input: { dir: "/repo" } },
      { jobId: "j", input: { dir: "/repo" } },
    ]);
    expect(requests).toHaveLength(4);
    // A blocked patch releases what was made ready, too (nothing of the patch was ever copied).
    const blocked = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: withPrepare,
      patch:
        "--- a/test/calc.test.js\n+++ b/test/calc.test.js\n@@ -1 +1,2 @@\n // tests\n+test.skip('adds', () => {});\n",
      policy,
      testCommand: command,
      jobId: "k",
    });
    expect(blocked.verdict).toBe("BLOCKED");
    expect(events.at(-1)).toBe("release k");
  });

  it("BLOCKED: the gate stops the patch before any sandbox run", async () => {
    const { sandbox, requests } = fakeSandbox([]);
    const patch =
      "--- a/test/calc.test.js\n+++ b/test/calc.test.js\n@@ -1 +1,2 @@\n // tests\n+test.skip('adds', () => {});\n";
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("BLOCKED");
    expect(requests).toHaveLength(0);
    expect(result.violations.map((v) => v.rule)).toContain("forbidden-paths");
    expect(result.reasons.some((r) => r.startsWith("policy forbidden-paths: test/calc.test.js"))).toBe(true);
  });

  it("REJECTED: a patch that does not apply is never run", async () => {
    const { sandbox, requests } = fakeSandbox([]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix.replace("-exports.add = (a, b) => a - b;", "-exports.add = (a, b) => a * b;"),
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(result.reasons[0]).toMatch(/^the patch does not apply: hunk 1 of 1 .* src\/calc.js/);
    expect(requests).toHaveLength(0);
  });

  it("REJECTED: a test that passed before fails after", async () => {
    const broken = { exitCode: 1, report: tapReport({ adds: "passed", subtracts: "failed" }) };
    const { sandbox } = fakeSandbox([base, base, broken, broken]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(result.failToPass).toEqual(["adds"]);
    expect(result.passToFail).toEqual(["subtracts"]);
    expect(result.reasons).toContain(
      "1 test(s) passing on the base no longer pass after the patch: subtracts (failed)",
    );
  });

  it("REJECTED as unstable when the repeated patched runs disagree, with counts", async () => {
    const { sandbox } = fakeSandbox([base, base, fixed, base]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(result.unstable).toEqual([{ id: "adds", phase: "patched", counts: { passed: 1, failed: 1 } }]);
    expect(result.stillFailing).toEqual(["adds"]);
    expect(result.reasons[0]).toBe(
      "unstable: 1 test(s) gave different outcomes on repeated runs of the same code: adds (patched: failed 1/2, passed 1/2)",
    );
  });

  it("REJECTED when the patched run exits early without a report (the narrowed run, then the full run in its place); later runs are skipped", async () => {
    const early = { exitCode: 0, stdout: "# pass 2\n" };
    // base full, base narrowed repeat, patched narrowed, the full patched run beside it, the full run in the
    // narrowed run's place.
    const { sandbox, requests } = fakeSandbox([base, base, early, early, early]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(requests).toHaveLength(5);
    // The full run made beside the narrowed one was cancelled and is no evidence: one patched run counted.
    expect(requests[3]!.signal?.aborted).toBe(true);
    expect(result.runs.map((r) => `${r.phase}${r.index}`)).toEqual(["base1", "base2", "patched1"]);
    expect(result.reasons[0]).toMatch(
      /^patched run 1 did not complete: the test command wrote no tap report/,
    );
    expect(result.stillFailing).toEqual(["adds"]);
  });

  it("the failing tests first: a patch that does not fix them is REJECTED on the narrowed run; the full run beside it is cancelled and left out", async () => {
    // The full patched run finishes (passing everything) before the narrowed one is judged: still left out.
    const { sandbox, requests } = fakeSandbox([base, base, base, fixed]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("REJECTED");
    expect(requests).toHaveLength(4);
    // The patched run was narrowed to the failing test; the passing one was not compared (its run was moot).
    expect(requests[2]!.command.join(" ")).toMatch(/--test-name-pattern/);
    expect(requests[3]!.command.join(" ")).not.toMatch(/--test-name-pattern/);
    expect(requests[3]!.signal?.aborted).toBe(true);
    expect(result.runs.map((r) => `${r.phase}${r.index}`)).toEqual(["base1", "base2", "patched1"]);
    expect(result.stillFailing).toEqual(["adds"]);
    expect(result.passToFail).toEqual([]);
    expect(result.reasons).toContain(
      "the patched suite was not run in full (only the tests failing on the base)",
    );
  });

  it("a narrowed run that reports its tests as skipped did not run them: the whole suite runs in its place", async () => {
    // vitest 1 (hold3 scule): the `-t` pattern missed the test, which the report then listed as skipped; the
    // repeat was counted, and the skip read as "unstable" and "no test fails on the base". Here every narrowed
    // run of the base skips its tests; the runs are told apart by their code (the patched copy adds).
    const skipped = { exitCode: 0, report: tapReport({ adds: "skipped", subtracts: "skipped" }) };
    const { sandbox, requests } = fakeSandbox((request) => {
      const patchedRun = JSON.stringify(request.input ?? {}).includes("a + b");
      const narrowedRun = request.command.join(" ").includes("--test-name-pattern");
      return patchedRun ? fixed : narrowedRun ? skipped : base;
    });
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict, result.reasons.join("\n")).toBe("VERIFIED");
    expect(result.unstable).toEqual([]);
    // The base's narrowed repeat was made, and a full base run in its place.
    const baseRuns = requests.filter((r) => !JSON.stringify(r.input ?? {}).includes("a + b"));
    expect(baseRuns.map((r) => r.command.join(" ").includes("--test-name-pattern"))).toEqual([
      false,
      true,
      false,
    ]);
  });

  it("VERIFIED needs a full patched run: the narrowed run first, then the whole suite", async () => {
    const { sandbox, requests } = fakeSandbox([base, base, fixed, fixed]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(result.verdict).toBe("VERIFIED");
    expect(requests[2]!.command.join(" ")).toMatch(/--test-name-pattern/);
    expect(requests[3]!.command.join(" ")).not.toMatch(/--test-name-pattern/);
  });

  it("no verdict when nothing fails on the base: a usage error after the one base run, the patch never run", async () => {
    const { sandbox, requests } = fakeSandbox([fixed, fixed]);
    const verifying = verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    await expect(verifying).rejects.toBeInstanceOf(UsageError);
    await expect(verifying).rejects.toThrow(
      /no test fails on the unchanged base .*there is no failure for the patch to fix/,
    );
    expect(requests).toHaveLength(1);
  });

  it("reuses a baseline instead of running the base again", async () => {
    const first = fakeSandbox([base, base, fixed, fixed]);
    const earlier = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: first.sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    const second = fakeSandbox([fixed, fixed]);
    const again = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: second.sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
      baseline: earlier.baseline,
    });
    expect(second.requests).toHaveLength(2);
    expect(again.verdict).toBe("VERIFIED");
    expect(again.runs.map((r) => r.phase)).toEqual(["base", "base", "patched", "patched"]);
  });

  it("detects the command when none is given, and resolves a string through package.json", async () => {
    const { sandbox, requests } = fakeSandbox([base, fixed]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      runs: 1,
      jobId: "j",
    });
    expect(result.detectedBy).toBe("package.json scripts.test (node-test)");
    expect(result.verdict).toBe("VERIFIED");
    expect(requests[0]!.command[2]).toMatch(/^node --test --test-reporter=tap/);
    const viaNpm = fakeSandbox([base, fixed]);
    const r2 = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox: viaNpm.sandbox,
      patch: fix,
      policy,
      runs: 1,
      testCommand: "npm test",
      jobId: "j",
    });
    expect(r2.detectedBy).toBe("--test → package.json scripts.test");
  });

  it("reads an unrecognised command's output best-effort and says so", async () => {
    const make: TestCommand = { framework: "unknown", command: "make test", detectedBy: "--test" };
    const { sandbox, requests } = fakeSandbox([
      { exitCode: 2, stdout: tapReport({ adds: "failed", subtracts: "passed" }) },
      { exitCode: 0, stdout: tapReport({ adds: "passed", subtracts: "passed" }) },
    ]);
    const result = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: make,
      runs: 1,
      jobId: "j",
    });
    expect(requests[0]!.command).toEqual(["sh", "-c", "make test"]);
    expect(requests[0]!.collect).toBeUndefined();
    expect(result.verdict).toBe("VERIFIED");
    expect(result.reasons[result.reasons.length - 1]).toMatch(
      /^results were read from the output of `make test`/,
    );
  });

  it("throws CancelledError when the signal is aborted, and rejects bad run counts", async () => {
    const controller = new AbortController();
    const { sandbox } = fakeSandbox(() => {
      controller.abort();
      return base;
    });
    await expect(
      verifyPatch({
        workspace: memoryWorkspace(files),
        sandbox,
        patch: fix,
        policy,
        testCommand: command,
        jobId: "j",
        signal: controller.signal,
      }),
    ).rejects.toBeInstanceOf(CancelledError);
    await expect(
      verifyPatch({
        workspace: memoryWorkspace(files),
        sandbox,
        patch: fix,
        policy,
        testCommand: command,
        jobId: "j",
        runs: 0,
      }),
    ).rejects.toThrow(/runs must be an integer from 1 to 10/);
  });
});

describe("compareRuns", () => {
  const run = (tests: Record<string, "passed" | "failed" | "skipped" | "error">) => ({
    script: "s",
    tests: Object.entries(tests).map(([id, outcome]) => ({ id, outcome })),
    exitCode: Object.values(tests).some((o) => o === "failed" || o === "error") ? 1 : 0,
    stoppedBy: null,
    durationMs: 1,
    reportSource: "file" as const,
    reportFormat: "junit",
    reportFound: true,
    counts: { passed: 0, failed: 0, skipped: 0 },
    problems: [],
    complete: true,
    outputTail: "",
  });

  it("counts a test skipped or missing after the patch as not passing", () => {
    const c = compareRuns(
      [run({ a: "failed", b: "passed", c: "passed" })],
      [run({ a: "skipped", b: "skipped" })],
    );
    expect(c.verified).toBe(false);
    expect(c.stillFailing).toEqual(["a"]);
    expect(c.passToFail).toEqual(["b", "c"]);
    expect(c.tests.find((t) => t.id === "c")).toEqual({ id: "c", before: "passed", after: "missing" });
  });

  it("a test only a narrowed run listed, beside the ones it was narrowed to, is neither unstable nor compared", () => {
    // jest -t lists the other tests of the file as skipped; the run counts only for the ids it was narrowed to.
    const narrowed = { ...run({ a: "failed", b: "skipped", c: "skipped" }), only: ["a"] };
    const c = compareRuns([run({ a: "failed", b: "passed", c: "passed" })], [narrowed]);
    expect(c.unstable).toEqual([]);
    expect(c.stillFailing).toEqual(["a"]);
    expect(c.passToFail).toEqual([]);
    expect(c.reasons.join("\n")).not.toMatch(/unstable/);
  });

  it("treats error as failing, and a new test that passes as harmless", () => {
    const c = compareRuns([run({ a: "error" })], [run({ a: "passed", added: "passed" })]);
    expect(c.verified).toBe(true);
    expect(c.failToPass).toEqual(["a"]);
  });

  const fromReport = (format: string, text: string) => {
    const tests = readResults(format, text);
    return {
      ...run({}),
      reportFormat: format,
      tests,
      exitCode: tests.some((t) => t.outcome === "failed" || t.outcome === "error") ? 1 : 0,
    };
  };
  const jestReport = (file: { assertions?: [string, string][]; loadError?: string }) =>
    JSON.stringify({
      testResults: [
        {
          name: "/workspace/a.test.js",
          status: file.loadError ? "failed" : "passed",
          ...(file.loadError ? { message: file.loadError } : {}),
          assertionResults: (file.assertions ?? []).map(([title, status]) => ({
            ancestorTitles: ["parse"],
            title,
            status,
          })),
        },
      ],
    });

  it("compares every occurrence of a repeated jest title: a regression in the second is not hidden", () => {
    const base = fromReport(
      "jest-json",
      jestReport({
        assertions: [
          ["fixme", "failed"],
          ["works", "passed"],
          ["works", "passed"],
        ],
      }),
    );
    const after = fromReport(
      "jest-json",
      jestReport({
        assertions: [
          ["fixme", "passed"],
          ["works", "passed"],
          ["works", "failed"],
        ],
      }),
    );
    const c = compareRuns([base, base], [after, after]);
    expect(c.verified).toBe(false);
    expect(c.failToPass).toEqual(["a.test.js > parse > fixme"]);
    expect(c.passToFail).toEqual(["a.test.js > parse > works#2"]);
  });

  it("compares every occurrence even when a run's tests still carry a repeated id", () => {
    const dup = (second: "passed" | "failed") => ({
      ...run({ fixme: second === "passed" ? "failed" : "passed" }),
      tests: [
        { id: "fixme", outcome: second === "passed" ? ("failed" as const) : ("passed" as const) },
        { id: "works", outcome: "passed" as const },
        { id: "works", outcome: second },
      ],
    });
    const c = compareRuns([dup("passed")], [dup("failed")]);
    expect(c.verified).toBe(false);
    expect(c.passToFail).toEqual(["works#2"]);
  });

  it("a repeated JUnit name that fails after the patch is a regression", () => {
    const F = '<failure message="x">x</failure>';
    const junit = (fixme: string, works: string) =>
      `<testsuite><testcase classname="t" name="fixme">${fixme}</testcase><testcase classname="t" name="works">${works}</testcase><testcase classname="t" name="works"/></testsuite>`;
    const c = compareRuns([fromReport("junit", junit(F, ""))], [fromReport("junit", junit("", F))]);
    expect(c.verified).toBe(false);
    expect(c.passToFail).toEqual(["t.works"]);
  });

  it("a jest file that failed to load and now loads with passing tests counts as fail→pass, and says so", () => {
    const base = fromReport(
      "jest-json",
      jestReport({ loadError: "● Test suite failed to run\n\nCannot find module './parse'" }),
    );
    const after = fromReport(
      "jest-json",
      jestReport({
        assertions: [
          ["parses", "passed"],
          ["rejects", "passed"],
        ],
      }),
    );
    const c = compareRuns([base, base], [after, after]);
    expect(c.verified).toBe(true);
    expect(c.failToPass).toEqual(["a.test.js"]);
    expect(c.stillFailing).toEqual([]);
    expect(c.reasons.join("\n")).toContain(
      "1 test file(s) failed to load on the base and, after the patch, load and pass: a.test.js (2 test(s) pass)",
    );
  });

  it("a file that now loads but has a failing test, or still reports nothing, is still failing", () => {
    const base = fromReport("jest-json", jestReport({ loadError: "● Test suite failed to run" }));
    const failing = fromReport(
      "jest-json",
      jestReport({
        assertions: [
          ["parses", "passed"],
          ["rejects", "failed"],
        ],
      }),
    );
    const c = compareRuns([base], [failing]);
    expect(c.verified).toBe(false);
    expect(c.stillFailing).toEqual(["a.test.js"]);
    // Loading in one run and not in the other is not evidence either.
    const passing = fromReport("jest-json", jestReport({ assertions: [["parses", "passed"]] }));
    const empty = fromReport("jest-json", JSON.stringify({ testResults: [] }));
    expect(compareRuns([base], [passing, empty]).stillFailing).toEqual(["a.test.js"]);
    // A test that failed (not a load error) and disappeared is still failing.
    expect(compareRuns([run({ "a.test.js": "failed" })], [run({ other: "passed" })]).stillFailing).toEqual([
      "a.test.js",
    ]);
  });

  it("a pytest collection error fixed by the patch counts as fail→pass", () => {
    const suite = (body: string) =>
      `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="1">${body}</testsuite></testsuites>`;
    const base = fromReport(
      "junit",
      suite(
        '<testcase classname="" name="tests.test_stats" file="tests/test_stats.py" time="0"><error message="collection failure">E   ModuleNotFoundError: No module named \'statz\'</error></testcase>',
      ),
    );
    const after = fromReport(
      "junit",
      suite(
        '<testcase classname="tests.test_stats" name="test_mean" file="tests/test_stats.py" line="3" time="0"/><testcase classname="tests.test_stats" name="test_median" file="tests/test_stats.py" line="7" time="0"/>',
      ),
    );
    const c = compareRuns([base, base], [after, after]);
    expect(c.failToPass).toEqual(["tests/test_stats.py"]);
    expect(c.verified).toBe(true);
  });
});

describe("repeats narrowed to the tests the verdict rests on", () => {
  const result = runResult;

  it("counts a narrowed repeat only for the ids it ran; a full run still sees every test", () => {
    const base = [
      result([
        ["t/a", "failed"],
        ["t/b", "passed"],
      ]),
      result([["t/a", "failed"]], ["t/a"]),
    ];
    const patched = [
      result([
        ["t/a", "passed"],
        ["t/b", "passed"],
      ]),
      result([["t/a", "passed"]], ["t/a"]),
    ];
    const c = compareRuns(base, patched);
    expect(c.verified).toBe(true);
    expect(c.failToPass).toEqual(["t/a"]);
    expect(c.unstable).toEqual([]);
  });

  it("still sees a narrowed repeat that disagrees, and a regression in the full run", () => {
    const base = [
      result([
        ["t/a", "failed"],
        ["t/b", "passed"],
      ]),
      result([["t/a", "failed"]], ["t/a"]),
    ];
    const flaky = compareRuns(base, [
      result([
        ["t/a", "passed"],
        ["t/b", "passed"],
      ]),
      result([["t/a", "failed"]], ["t/a"]),
    ]);
    expect(flaky.verified).toBe(false);
    expect(flaky.unstable.map((u) => u.id)).toEqual(["t/a"]);
    const regressed = compareRuns(base, [
      result([
        ["t/a", "passed"],
        ["t/b", "failed"],
      ]),
      result([["t/a", "passed"]], ["t/a"]),
    ]);
    expect(regressed.verified).toBe(false);
    expect(regressed.passToFail).toEqual(["t/b"]);
    // A narrowed run missing a test it was narrowed to is "missing" for that test, never a pass.
    const lost = compareRuns(base, [
      result([
        ["t/a", "passed"],
        ["t/b", "passed"],
      ]),
      result([], ["t/a"]),
    ]);
    expect(lost.verified).toBe(false);
  });
});

describe("titles that change from run to run", () => {
  const run = (tests: Record<string, "passed" | "failed">, only?: string[]) => ({
    ...readResultsRun(tests),
    ...(only ? { only } : {}),
  });
  function readResultsRun(tests: Record<string, "passed" | "failed">) {
    return {
      tests: Object.entries(tests).map(([id, outcome]) => ({ id, name: id, outcome })),
      counts: { passed: 0, failed: 0, skipped: 0 },
      exitCode: 1,
      complete: true,
      problems: [],
      outputTail: "",
      durationMs: 1,
      stoppedBy: null,
      reportFormat: "tap",
    } as unknown as Parameters<typeof compareRuns>[0][number];
  }

  it("a title embedding a date is the same test in every run; distinct numbered tests stay distinct", () => {
    const base = run({
      "casts > should not cast 2026-11-26T14:55:01.840Z": "passed",
      "adds 1 and 2": "passed",
      "adds 2 and 2": "passed",
      "lazy > rejects": "failed",
    });
    const patched = run({
      "casts > should not cast 2026-11-26T14:56:24.113Z": "passed",
      "adds 1 and 2": "passed",
      "adds 2 and 2": "passed",
      "lazy > rejects": "passed",
    });
    const c = compareRuns([base], [patched]);
    expect(c.verified).toBe(true);
    expect(c.passToFail).toEqual([]);
    // A numbered test that really disappeared is still missing: two candidates of one shape are never guessed.
    const lost = run({ "adds 1 and 2": "passed", "adds 3 and 3": "passed", "lazy > rejects": "passed" });
    const before = run({
      "adds 1 and 2": "passed",
      "adds 2 and 2": "passed",
      "adds 5 and 5": "passed",
      "lazy > rejects": "failed",
    });
    expect(compareRuns([before], [lost]).passToFail).toEqual(["adds 2 and 2", "adds 5 and 5"]);
  });

  it("a failing test whose id the patch changed is not the same test (red team 25: a parametrize list in src/)", () => {
    const base = run({ "tests/test_calc.py::test_double[1]": "failed" });
    const patched = run({ "tests/test_calc.py::test_double[2]": "passed" });
    const c = compareRuns([base, base], [patched, patched]);
    expect(c.verified).toBe(false);
    expect(c.failToPass).toEqual([]);
    // Ids the patch makes change from run to run do not make the shape dynamic: only the base's own runs do.
    const p5 = run({ "tests/test_calc.py::test_double[5]": "passed" });
    const p7 = run({ "tests/test_calc.py::test_double[7]": "passed" });
    expect(compareRuns([base, base], [p5, p7]).failToPass).toEqual([]);
    // A failing title that changes between the base's own runs is still aligned.
    const b1 = run({ "casts at 2026-11-26T14:55:01.840Z": "failed" });
    const b2 = run({ "casts at 2026-11-26T14:55:03.112Z": "failed" });
    const a1 = run({ "casts at 2026-11-26T14:56:24.113Z": "passed" });
    const a2 = run({ "casts at 2026-11-26T14:56:26.500Z": "passed" });
    const d = compareRuns([b1, b2], [a1, a2]);
    expect(d.failToPass).toEqual(["casts at 2026-11-26T14:55:01.840Z"]);
    expect(d.verified).toBe(true);
  });
});
