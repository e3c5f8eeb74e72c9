/**
 * The twenty-second red team's inputs (issue 14, host-side steps; `redteam22-cases.json`, first try and after in
 * `redteam22-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam22-step.ts`) — a patch's new files that fold onto a file or directory of the tree (the gate given the
 * tree's names), names that reach git's own directory, CI and review; logs with NUL bytes, invalid UTF-8, line
 * separators and one gigantic test name; YAML configs and Action event files that pollute prototypes or multiply;
 * a signed webhook nested 100,000 deep; a writer's retry after a refusal; a gzip stream that inflates without end
 * and an install stream that stalls; a wheel with scripts, data, RECORD escapes, a `.pth` and sitecustomize (real
 * pip); the Action's saved sandbox image naming another image (real engine); two jobs on one install-cache key;
 * `retrace replay` of a 300 MiB trace; an `--out` that is a committed link — with a marker secret in GITHUB_TOKEN
 * and a marker file outside Retrace's directories. Each case must be contained or refused with a reason
 * (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-second red team: tree twins, git and CI names, log names, YAML and events, stalls, wheels, the saved image, cache races, --out links",
  n: 22,
  added: [
    "log-pytest-summary-nul-and-line-separator-names",
    "patch-new-file-beside-tree-allowed",
    "patch-case-only-rename-allowed",
    "image-cache-tar-of-its-own-image-loads",
    "install-stream-whole-tar-read",
  ],
  // One gigantic test name came back at the line cap (16,377 characters), past the case's 4,096: ids are now cut
  // where they are made (src/logs/engine.ts boundTestId, red team 24), so the case runs again.
});
