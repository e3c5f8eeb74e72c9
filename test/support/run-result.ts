/**
 * A complete test run's result as verify reads it (a JUnit report found, nothing stopped), built from test ids and
 * their outcomes; `only` marks a run narrowed to those tests. For unit tests of the comparison's pure parts.
 */
type Outcome = "passed" | "failed";

export function runResult(tests: Record<string, Outcome> | [string, Outcome][], only?: string[]) {
  const entries = Array.isArray(tests) ? tests : Object.entries(tests);
  return {
    script: "s",
    tests: entries.map(([id, outcome]) => ({ id, outcome })),
    exitCode: entries.some(([, o]) => o === "failed") ? 1 : 0,
    stoppedBy: null,
    durationMs: 1,
    reportSource: "file" as const,
    reportFormat: "junit",
    reportFound: true,
    counts: { passed: 0, failed: 0, skipped: 0 },
    problems: [],
    complete: true,
    outputTail: "",
    ...(only ? { only } : {}),
  };
}
