/**
 * The twenty-seventh red team's inputs (issue 14, host-side steps; `redteam27-cases.json`, first try and after in
 * `redteam27-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam27-step.ts`) — import roots named by configuration (`pythonpath = lib`, `PYTHONPATH=`), Gradle's test task
 * by other spellings, build logic outside build.gradle/pom.xml, which sub-projects a build includes, build files
 * deleted, re-added or renamed away, hunks whose line numbers lie, JSON key escapes and TOML spellings, the rules'
 * cost on a large base text, the Action's event file (as a process: a dispatched spec naming another repository, a
 * link to the process's environment), `retrace replay` with a linked configuration and an edited report, and a
 * workspace member's `.npmrc` through the real install container — with a marker secret in GITHUB_TOKEN and a marker
 * file outside Retrace's directories. Each case must be contained or refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-seventh red team: configured import roots, test-task spellings, build logic and sub-projects, lying hunks, the Action's event file",
  n: 27,
  added: [
    "patch-new-lib-plugin-tox-setenv-pythonpath-plain",
    "patch-package-json-jest-key-unicode-escape-plain",
    "patch-pyproject-root-dotted-key-plain",
  ],
});
