/**
 * The twenty-ninth red team's inputs (issue 14, host-side steps; `redteam29-cases.json`, first try and after in
 * `redteam29-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam29-step.ts`) — links deeper in `.git` than the top-level files (a reflog, ref and object directories
 * written through, fan-out directories and pack files of another host repository read through, a loose ref, a lock
 * file), YAML streams and compact nesting in the config, build files of ecosystems the gate had no model of and
 * test-runner config embedded in another tool's file, HTTP framing below the webhook reader, cross-repository
 * references in what the App writes, lockfile URL and key spellings, pnpm resolutions naming host paths, line
 * terminators other than LF in a log and a report, and an event field given to git — with a marker secret in
 * GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or refused with a
 * reason, its step's host CPU bounded (host-wave-suite.ts). None needs the sandbox image.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-ninth red team: links deep in .git, YAML streams, unmodelled build files, HTTP framing, cross-references, lockfile spellings, line separators",
  n: 29,
});
