/**
 * The thirteenth red team's inputs (issue 14, host-side steps; `redteam13-cases.json`, first try and after in
 * `redteam13-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam13-step.ts`) — the policy gate and the one patch applier on look-alike names written wholly in another
 * script, mixed-script words in lines, NFC/NFD, case, NFKC and Windows twins of a path, and patches of
 * legitimate-looking size; the commit message and PR title from a model's summary and a log's test ids; the event
 * parser on dispatched specs whose id, repository or branch reads as a path or an option; the real App server on a
 * replayed signed body; a second App process on one job store — with a marker secret in GITHUB_TOKEN and a marker
 * file outside Retrace's directories. Each case must be contained or refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title: "thirteenth red team: hostile inputs to the host-side steps",
  n: 13,
});
