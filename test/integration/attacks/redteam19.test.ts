/**
 * The nineteenth red team's inputs (issue 14, host-side steps; `redteam19-cases.json`, first try and after in
 * `redteam19-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam19-step.ts`) — many partial and slow unsigned deliveries to the App's webhook server; temporaries of dead
 * and live processes in the install cache; the runtime layers' Node versions asked of a registry a shared temporary
 * directory chose, and spelled oddly; names with `..`, `%` and query characters in GitHub API paths; bidi and
 * CI-skip words in branch and check names; files a report names outside the work directory or in the runtime's
 * place — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be
 * contained or refused with a reason (host-wave-suite.ts); a person's `retrace/…` branch is not counted by the
 * lineage.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "nineteenth red team: webhook bytes and time before the signature, other processes' temporaries, runtime registry, report file names",
  n: 19,
});
