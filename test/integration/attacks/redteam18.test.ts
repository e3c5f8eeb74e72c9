/**
 * The eighteenth red team's inputs (issue 14, host-side steps; `redteam18-cases.json`, first try and after in
 * `redteam18-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam18-step.ts`) — unassigned default-ignorable code points in the gate, the commit message and the PR title;
 * IPv6 spellings of internal addresses as a repository's host in the install proxy and as a checkout's origin;
 * times dated ahead (a host clock set ahead, then corrected) in the look-up cache and the install cache; comment
 * commands GitHub renders as code — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's
 * directories. Each case must be contained or refused with a reason (host-wave-suite.ts). The killed installs'
 * temporaries past the cache quota (left by wave 15) stay open.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "eighteenth red team: unassigned ignorables, IPv6-embedded internal addresses, clocks set ahead, code-block commands",
  n: 18,
  open: ["cache-killed-install-temporaries-past-quota"],
});
