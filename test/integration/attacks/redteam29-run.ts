/**
 * The twenty-ninth red team's first-try runner (how `redteam29-results.md` was measured): every case of
 * `redteam29-step.ts`, or the ids given, through the shared recorder (`wave-recorder.ts`): each in its own process
 * under `timeout -s KILL 150 prlimit --cpu=20`, with a marker secret in GITHUB_TOKEN and a marker file outside
 * Retrace's directories. `RT29_ROOT` names the checkout to attack (default: this one).
 *   npx tsx test/integration/attacks/redteam29-run.ts [id…]
 */
import path from "node:path";
import { recordWave } from "./wave-recorder.ts";

/** Host CPU any case's step may take. */
const CPU_MS = 8_000;

recordWave({
  root: process.env.RT29_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../.."),
  step: "test/integration/attacks/redteam29-step.ts",
  marker: { path: "/var/tmp/retrace-rt29-marker", env: "RETRACE_RT29_MARKER" },
  secret: "ghs_rt29secretTOKEN0129456789abcdefABCDEF",
  env: { RETRACE_HOST_LIMITS: "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000" },
  tmpPrefix: "rt29-",
  wallS: (id) => (id.startsWith("run-") ? 600 : 150),
  cpuS: () => 20,
  boundMs: () => CPU_MS,
  only: process.argv.slice(2),
});
