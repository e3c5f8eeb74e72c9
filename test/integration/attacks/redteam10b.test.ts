/**
 * The tenth red team's follow-up (10b)'s inputs (issue 14, the gaps the tenth wave left open; `redteam10b-cases.json`, results in
 * `redteam10b-results.md`): the Action runner's fetch of the failed commit from an origin whose name answers
 * Retrace's check publicly and git with loopback (DNS rebinding), whose check look-up fails, or which has a second
 * URL; the real `retrace sandbox run` on the real engine writing escape sequences to a terminal and to a pipe; the
 * probe of an image's tool version on real images whose `node` never exits or floods its output; reports at the
 * cap through the pipeline's reading steps and their shared budget. A marker secret is in GITHUB_TOKEN and a
 * marker file outside Retrace's directories (the hostile images' `node` tries to write it). Each case must be
 * contained or refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title: "the tenth red team's follow-up (10b): the host-side gaps the tenth left open",
  n: "10b",
});
