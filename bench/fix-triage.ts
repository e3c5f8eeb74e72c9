/**
 * Flaky-triage cost: on a fixture repository whose suite takes >= 10x its failing test (40 slow tests and one
 * fast failing one), compare a full-suite sandbox run with the triage (3 reruns of only the failing test,
 * each in a fresh sandbox). Needs the Docker engine and the sandbox image. Prints one JSON line per
 * measurement; the last line has the headline figures: both times and the ratio (target <= 0.3).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFixPorts } from "../src/fix/build-ports.ts";
import { triageFlaky } from "../src/fix/flaky-triage.ts";
import { createFsWorkspace } from "../src/git/index.ts";
import { createDockerSandbox } from "../src/sandbox/docker.ts";

const fixture = path.resolve(import.meta.dirname, "../test/fixtures/fix-repos/py-slow-suite");
const dir = mkdtempSync(path.join(tmpdir(), "retrace-bench-triage-"));
try {
  cpSync(fixture, dir, { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: dir });
  const ports = await createFixPorts({
    workspace: await createFsWorkspace(dir),
    sandbox: createDockerSandbox(),
    jobId: "bench-fix-triage",
    model: null,
    limits: { timeoutMs: 120_000 },
  });
  const signal = new AbortController().signal;
  // Warm-up: the first container start pays for image layers being read.
  await ports.tests.runOnly(["tests/test_calc.py::test_mean_of_two"], signal);

  const t0 = performance.now();
  const full = await ports.tests.runAll(signal);
  const fullMs = performance.now() - t0;
  const failing = full.failures.map((f) => f.testId);
  // The fixture's suite has one failing test among 41: anything else means the run did not do the work.
  if (failing.length !== 1 || full.outcomes.size < 40) {
    process.stderr.write(
      `fix-triage bench: the full suite reported ${full.outcomes.size} tests and ${failing.length} failing (want 41 and 1): ${full.problem ?? ""}\n`,
    );
    process.exit(1);
  }
  console.log(
    JSON.stringify({
      bench: "fix-triage",
      step: "full-suite",
      wallMs: Math.round(fullMs),
      tests: full.outcomes.size,
      failing,
    }),
  );

  const t1 = performance.now();
  const triage = await triageFlaky({
    failing,
    runs: 3,
    command: ports.tests.filterCommand(failing),
    fullSuite: !ports.tests.canFilter,
    rerun: async () => {
      const r = await ports.tests.runOnly(failing, signal);
      return { outcomes: r.outcomes, durationMs: r.durationMs, stoppedBy: r.stoppedBy };
    },
    onRun: (i, r) =>
      console.log(
        JSON.stringify({
          bench: "fix-triage",
          step: `rerun-${i + 1}`,
          sandboxMs: r.durationMs,
          tests: r.outcomes.size,
        }),
      ),
  });
  const triageMs = performance.now() - t1;
  if (triage.report.runs !== 3 || triage.report.failures !== 3) {
    process.stderr.write(
      `fix-triage bench: ${triage.report.runs} reruns ran the failing test, ${triage.report.failures} failed it (want 3 and 3)\n`,
    );
    process.exit(1);
  }
  console.log(
    JSON.stringify({
      bench: "fix-triage",
      fullSuiteMs: Math.round(fullMs),
      triageMs: Math.round(triageMs),
      triageRuns: triage.report.runs,
      perRerunMs: Math.round(triageMs / triage.report.runs),
      ratio: Number((triageMs / fullMs).toFixed(3)),
      target: 0.3,
      flaky: triage.flaky,
      command: triage.report.command,
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
