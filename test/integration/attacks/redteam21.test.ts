/**
 * The twenty-first red team's inputs (issue 14, host-side steps; `redteam21-cases.json`, first try and after in
 * `redteam21-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam21-step.ts`) — a patch's file names and added lines that read as another (confusable letters, case and
 * normalization twins, a trailing dot, a full-width solidus, characters Unicode declares the same as another); what
 * the host unpacks from an install container, GitHub's tarball and an artifact zip (hard links, devices, setuid
 * bits, over-long and repeated names, one file named two ways); package names in a report spelled with look-alike
 * letters or as paths; comment commands from a bot, an edit, a deletion and a reader's flood; a JUnit tag left open
 * over many short lines; a directory left where a report is collected (real engine) — with a marker secret in
 * GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or refused with a
 * reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-first red team: look-alike names, what the host unpacks, artifact names, report package names, comment floods, open tags, collected directories",
  n: 21,
  added: [
    "patch-path-kelvin-sign",
    "patch-line-accented-and-cjk-punctuation-allowed",
    "artifact-plain-result-and-trace-read",
    "junit-tag-over-lines-then-failure-read",
    "app-writer-commands-on-two-issues-both-taken",
  ],
});
