/**
 * The ninth red team's first-try runner (how `redteam9-results.md` was measured): every case of
 * `redteam9-step.ts`, or the ids given, through the shared recorder (`wave-recorder.ts`): each in its own process
 * under `timeout -s KILL 150 prlimit --cpu=10 /usr/bin/time` (300 s and 60 s for a run case, whose CLI child is
 * bounded by the case), with a marker secret in GITHUB_TOKEN and a marker file path outside Retrace's
 * directories. One JSON line per case on stdout. `RT9_ROOT` names the checkout to attack (default: this one).
 *   npx tsx test/integration/attacks/redteam9-run.ts [id…]
 */
import path from "node:path";
import { recordWave } from "./wave-recorder.ts";

/** Host CPU a report's host steps may take: the parse's and the expectations' limits (1 s each) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other step (a run case's CLI is bounded by its own check: 20 s of CPU within 240 s). */
const OTHER_CPU_MS = 8_000;

recordWave({
  root: process.env.RT9_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../.."),
  step: "test/integration/attacks/redteam9-step.ts",
  marker: { path: "/var/tmp/retrace-rt9-marker", env: "RETRACE_RT9_MARKER" },
  secret: "ghs_rt9secretTOKEN0123456789abcdefABCDEF",
  // The operator's limits, lowered as the eighth wave's test lowers them, so heavy cases stop early.
  env: { RETRACE_HOST_LIMITS: "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000" },
  tmpPrefix: "rt9-",
  wallS: (id) => (id.startsWith("run-") ? 300 : 150),
  cpuS: (id) => (id.startsWith("run-") ? 60 : 10),
  boundMs: (id) =>
    id.startsWith("report-")
      ? REPORT_CPU_MS
      : id.startsWith("run-")
        ? Number.POSITIVE_INFINITY
        : OTHER_CPU_MS,
  only: process.argv.slice(2),
});
