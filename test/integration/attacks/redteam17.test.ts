/**
 * The seventeenth red team's inputs (issue 14, host-side steps; `redteam17-cases.json`, first try and after in
 * `redteam17-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam17-step.ts`) — the gate, the commit message and the PR title on format (Cf), private-use and
 * noncharacters; the registry look-up's shared disk cache under many reports; compressed answers from a fake
 * Messages API on loopback through the real Anthropic adapter; jest JSON reports built of millions of containers;
 * the real CLI on a device as its input; comment, check-run and workflow-run events of new shapes — with a marker
 * secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or refused
 * with a reason (host-wave-suite.ts). Three CLI cases whose own check was wrong (a FIFO or a character device is
 * read as a stream to its end, as `cat` reads it: the operator's own path) are listed as left open.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title: "seventeenth red team: hidden format characters, shared caches, compressed answers, CLI devices",
  n: 17,
  open: ["cli-parse-log-from-fifo", "cli-policy-patch-from-fifo", "cli-parse-log-dev-zero"],
});
