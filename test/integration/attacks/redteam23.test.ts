/**
 * The twenty-third red team's inputs (issue 14, host-side steps; `redteam23-cases.json`, first try and after in
 * `redteam23-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam23-step.ts`) — the App's final gate before a PR given the base tree's names along the patch's paths
 * (wave 22's open class), text a maintainer reads in the tracking comment, the check run and the PR body (a refused
 * file's name, a run's summary, a failure), the App's job database across a crash (a torn journal line, a stale
 * journal, a live lock holder, a lock that is a link), one comment delivered twice, renames onto committed links,
 * onto existing files and swaps, logs with terminal hyperlinks and 200,000 failures, and a sandbox run that floods
 * its output and forks (real engine) — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's
 * directories. Each case must be contained or refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-third red team: the App's gate with the tree, text a maintainer reads, job state across a crash, renames onto names, floods",
  n: 23,
  added: ["publish-app-new-file-beside-tree-opens-pr"],
  // `patch-twin-past-the-gate-tree-cap` runs again: verify's gate is given every name beside the patch's paths
  // (src/fix/gate-tree.ts, red team 24).
  // The comment's and the check run's summary is the run's rendered report (Retrace's markdown, with what a model or a
  // report wrote fenced by its renderers): raw text put straight into JobResult.summary stays raw (redteam23-results.md).
  open: ["comment-done-summary-bidi-mention-image", "check-run-summary-of-failed-outcome"],
});
