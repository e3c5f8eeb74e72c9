/**
 * The twentieth red team's inputs (issue 14, host-side steps; `redteam20-cases.json`, first try and after in
 * `redteam20-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam20-step.ts`) — patch file names spelled in octal bytes that are not UTF-8 and in stacked combining
 * marks, patches of thousands of files and of git metadata, XML reports shaped to be slow or large per byte (the
 * streaming parser and the report a run leaves for the host), what a sandboxed run leaves where the host collects
 * (a link, a sparse file, a directory of 100,000 files, a FIFO, hard links, an output flood; real engine), many
 * signed deliveries of one event at once, interpreter and installer options in a report's commands — with a marker
 * secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or refused
 * with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twentieth red team: non-UTF-8 and stacked-mark names, thousands of files, slow XML reports, what a run leaves to collect, deliveries at once",
  n: 20,
});
