/**
 * The thirtieth red team's inputs (issue 14, host-side steps; `redteam30-cases.json`, first try and after in
 * `redteam30-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam30-step.ts`) — the model's exploration tools over oversize, binary and 20,000 small files and with inputs
 * at their extremes, test oracles kept as data outside the test directories, checker configuration that silences the
 * failing check, tests embedded in source files, pattern files git evaluates per path, tree entries git refuses to
 * write, webhook event names that are Object.prototype members, paths a CI log names read as a test's source,
 * contents-API answers other than a file's bytes read as the configuration, and package-spec chains in one token of
 * a report — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be
 * contained or refused with a reason, its step's host CPU bounded (host-wave-suite.ts). None needs the sandbox image.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "thirtieth red team: exploration tools' uncounted work, test oracles, checker configuration, embedded tests, git pattern files, prototype event names, config API answers",
  n: 30,
});
