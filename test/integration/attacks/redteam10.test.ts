/**
 * The tenth red team's inputs (issue 14, host-side steps; `redteam10-cases.json`, first try and after in
 * `redteam10-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam10-step.ts`) — the real `retrace` CLI (repro on the real engine, parse-log, policy) for what a terminal
 * is shown, the Action runner's checkout step on a checkout whose git configuration points elsewhere, the Docker
 * driver with a read-only dependency mount and a checkout holding special files, the runtime and Python manifest
 * readers, the report reader at its cap, the webhook intake and tracking comment, the artifact unzipper — with a
 * marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or
 * refused with a reason: its own check passes, its host CPU stays within a bound, the marker never appears and
 * the secret never reaches an output.
 * (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({ title: "tenth red team: hostile inputs to the host-side steps", n: 10 });
