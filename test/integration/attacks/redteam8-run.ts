/**
 * The eighth red team's first-try runner (how `redteam8-results.md` was measured): every case of
 * `redteam8-step.ts`, or the ids given, through the shared recorder (`wave-recorder.ts`): each in its own process
 * under `timeout -s KILL 150 prlimit --cpu=10 /usr/bin/time`, with a marker secret in GITHUB_TOKEN and a marker
 * file path outside Retrace's directories. One JSON line per case on stdout. `RT8_ROOT` names the checkout to
 * attack (default: this one).
 *   npx tsx test/integration/attacks/redteam8-run.ts [id…]
 */
import path from "node:path";
import { recordWave } from "./wave-recorder.ts";

/** Host CPU a report's host steps may take: the parse's and the expectations' limits (1.8 s each) and a margin. */
const REPORT_CPU_MS = 4_000;

recordWave({
  root: process.env.RT8_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../.."),
  step: "test/integration/attacks/redteam8-step.ts",
  marker: { path: "/var/tmp/retrace-rt8-marker", env: "RETRACE_RT8_MARKER" },
  secret: "ghs_rt8secretTOKEN0123456789abcdefABCDEF",
  tmpPrefix: "rt8-",
  wallS: () => 150,
  cpuS: () => 10,
  // Only a report's host steps had a bound in the eighth wave.
  boundMs: (id) => (id.startsWith("report-") ? REPORT_CPU_MS : Number.POSITIVE_INFINITY),
  only: process.argv.slice(2),
});
