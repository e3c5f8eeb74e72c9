/**
 * The sixteenth red team's inputs (issue 14, host-side steps; `redteam16-cases.json`, first try and after in
 * `redteam16-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam16-step.ts`) — the real Anthropic adapter against a fake Messages API on loopback (usage counts that are
 * not counts, answers of the wrong shape, of 300 MiB, a body that never ends) with the job's budget meter charged as
 * the loop charges it; `retrace replay` and `replayTrace` on traces a real run wrote, then edited (nested 100,000
 * deep, terminal escapes, 100 MiB, a budget of 1e300); the test reports a run writes as `verify` reads them (jest
 * JSON and JUnit: quadratic id twins, deep titles, entities, huge numbers); the gate on the braille blank and
 * variation selectors — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories.
 * Each case must be contained or refused with a reason (host-wave-suite.ts). The case added after the first try
 * (`replay-cli-deep-trace-text`) is in the cases file with its first try on the branch point.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title: "sixteenth red team: hostile model answers, edited traces, run reports",
  n: 16,
});
