/**
 * The twenty-eighth red team's first-try runner (how `redteam28-results.md` was measured): every case of
 * `redteam28-step.ts`, or the ids given, through the shared recorder (`wave-recorder.ts`): each in its own process
 * under `timeout -s KILL 150 prlimit --cpu=20`, with a marker secret in GITHUB_TOKEN and a marker file outside
 * Retrace's directories. `RT28_ROOT` names the checkout to attack (default: this one).
 *   npx tsx test/integration/attacks/redteam28-run.ts [id…]
 */
import path from "node:path";
import { recordWave } from "./wave-recorder.ts";

/** Host CPU any case's step may take. */
const CPU_MS = 8_000;

recordWave({
  root: process.env.RT28_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../.."),
  step: "test/integration/attacks/redteam28-step.ts",
  marker: { path: "/var/tmp/retrace-rt28-marker", env: "RETRACE_RT28_MARKER" },
  secret: "ghs_rt28secretTOKEN0128456789abcdefABCDEF",
  env: { RETRACE_HOST_LIMITS: "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000" },
  tmpPrefix: "rt28-",
  wallS: (id) => (id.startsWith("run-") ? 600 : 150),
  cpuS: () => 20,
  boundMs: () => CPU_MS,
  only: process.argv.slice(2),
});
