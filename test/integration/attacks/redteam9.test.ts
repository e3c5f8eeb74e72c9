/**
 * The ninth red team's inputs (issue 14, host-side steps; `redteam9-cases.json`, first try and after in
 * `redteam9-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam9-step.ts`) — the real `retrace repro` CLI on the real engine for a run's output, the App's tarball
 * unpacker, the fix pipeline's git steps, the install proxy on its socket, the config loader, the log parser, the
 * report reader, the registry look-up against a registry on loopback — with a marker secret in GITHUB_TOKEN and
 * a marker file outside Retrace's directories. Each case must be contained or refused with a reason: its own check
 * passes, its host CPU stays within a bound, the marker never appears and the secret never reaches an output
 * (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title: "ninth red team: hostile inputs to the host-side steps",
  n: 9,
  added: ["run-stderr-enoent-other-error"],
});
