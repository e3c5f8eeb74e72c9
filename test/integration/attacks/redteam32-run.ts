/**
 * The thirty-second red team's first-try runner (how `redteam32-results.md` was measured): every case of
 * `redteam32-step.ts`, or the ids given, through the shared recorder (`wave-recorder.ts`): each in its own process
 * under `timeout -s KILL 150 prlimit --cpu=40`, with a marker secret in GITHUB_TOKEN and a marker file outside
 * Retrace's directories. `RT32_ROOT` names the checkout to attack (default: this one).
 *   npx tsx test/integration/attacks/redteam32-run.ts [id…]
 */
import path from "node:path";
import { recordWave } from "./wave-recorder.ts";

/**
 * Host CPU a report case's step may take: 2 s (twice the 1 s parse limit) per report it parses, four here
 * (first try: 3 s, the earlier waves' bound for two — a defect of the case, rerun so); any other case's.
 */
const REPORT_CPU_MS = 4 * 2_000;
const CPU_MS = 8_000;

recordWave({
  root: process.env.RT32_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../.."),
  step: "test/integration/attacks/redteam32-step.ts",
  marker: { path: "/var/tmp/retrace-rt32-marker", env: "RETRACE_RT32_MARKER" },
  secret: "ghs_rt32secretTOKEN0232456789abcdefABCDEF",
  env: { RETRACE_HOST_LIMITS: "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000" },
  tmpPrefix: "rt32-",
  wallS: () => 150,
  cpuS: () => 40,
  boundMs: (id) => (id.startsWith("report-") ? REPORT_CPU_MS : CPU_MS),
  only: process.argv.slice(2),
});
