/**
 * The twelfth red team's inputs (issue 14, host-side steps; `redteam12-cases.json`, first try and after in
 * `redteam12-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam12-step.ts`) — the reproduction comment on a run's output and a report's text, the draft PR body on
 * hidden characters, the policy gate and the patch applier on Trojan-Source patches and confusable paths, the
 * install proxy's socket flooded from another process, the event parser on look-alike commands, the App's job
 * journal, the Action's inputs — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's
 * directories. Each case must be contained or refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({ title: "twelfth red team: hostile inputs to the host-side steps", n: 12 });
