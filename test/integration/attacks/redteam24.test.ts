/**
 * The twenty-fourth red team's inputs (issue 14, host-side steps; `redteam24-cases.json`, first try and after in
 * `redteam24-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam24-step.ts`) — the files beside the App's job database planted as links or FIFOs and six Apps taking
 * over one stale lock at once, files a returned patch adds that decide what a test command runs (`.pytest.ini`,
 * `pytest.toml`, `.pnpmfile.cjs`, `bunfig.toml`, pytest11 entry points, `.taprc`, Makefile/justfile recipes,
 * `deno.json`, cargo aliases, `phpunit.xml`, `.rspec`), a case twin past the gate's tree cap, an issue title and
 * command floods in what the App writes, a repository's `.env`/`.npmrc` beside a CLI run, an 8 MiB test name, and a
 * sandbox run that fork-bombs, balloons, fills its disk, opens every descriptor and leaves a daemon (real engine) —
 * with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained
 * or refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-fourth red team: files beside the job database, files that decide what a test runs, twins past the tree cap, exhaustion",
  n: 24,
});
