/**
 * The eleventh red team's inputs (issue 14, host-side steps; `redteam11-cases.json`, first try and after in
 * `redteam11-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam11-step.ts`) — the draft PR body with model-written prose, the policy gate and the one patch applier on
 * model-written patches, the lockfile and manifest checks on prototype-named entries, the runtime and Python
 * readers on text naming host variables (the runtime step on the real engine), the fix pipeline's git steps on a
 * checkout with replacement objects, grafts and a blob inflating to 1 GiB, the install proxy's socket under a
 * connection flood and a slow drip, the log parser, the config loader and the event parser on `__proto__` keys —
 * with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be
 * contained or refused with a reason: its own check passes, its host CPU stays within a bound, the marker never
 * appears and the secret never reaches an output (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({ title: "eleventh red team: hostile inputs to the host-side steps", n: 11 });
