/**
 * The fifteenth red team's inputs (issue 14, host-side steps; `redteam15-cases.json`, first try and after in
 * `redteam15-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam15-step.ts`) — the real App server collecting a dispatched job's artifact from runs of another workflow,
 * another branch or directory, a second time, or saying FIXED with no patch; the real Action's step summary,
 * annotations and progress lines through @actions/core; the operator's registry configuration read beside a
 * planted `/tmp/.npmrc`; the install cache under a flood of entries within its protection window and two jobs
 * committing one key; who may trigger a command; the report and log parsers on shapes no wave tried — with a
 * marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or
 * refused with a reason (host-wave-suite.ts); the three left open are listed as to-dos.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title: "fifteenth red team: hostile inputs to the host-side steps",
  n: 15,
  open: [
    "collect-result-pr-body-acts-on-github",
    "collect-result-summary-acts-in-comment",
    "cache-killed-installs-leave-temporaries",
  ],
});
