/**
 * The twenty-eighth red team's inputs (issue 14, host-side steps; `redteam28-cases.json`, first try and after in
 * `redteam28-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam28-step.ts`) — a repository's own money, time and token budgets against the operator's maxima, a
 * checkout's program found through an empty or relative PATH entry, a partial clone's promisor remote at a host
 * repository, config includes that never end, binary hunks, a no-newline marker inside a hunk, GNU and combined
 * diff spellings, copy headers and type changes onto tests, lockfile source spellings, webhook framing (a gzip
 * body, repeated and legacy signature headers, a form payload), the newest log parsers' per-line patterns and pax
 * headers in the repository archive — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's
 * directories. Each case must be contained or refused with a reason (host-wave-suite.ts). None needs the sandbox
 * image; the slowest group (webhooks) takes about 20 s of wall time.
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-eighth red team: repository budgets, PATH lookups, promisor remotes, binary and GNU diff spellings, webhook framing, pax headers",
  n: 28,
});
