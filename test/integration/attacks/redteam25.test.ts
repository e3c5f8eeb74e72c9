/**
 * The twenty-fifth red team's inputs (issue 14, host-side steps; `redteam25-cases.json`, first try and after in
 * `redteam25-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam25-step.ts`) — modules that shadow the test runner (`pytest.py`, `unittest.py`, `node_modules/.bin/jest`,
 * a Go `vendor/` tree), other runners' and task runners' files and keys (`tox.toml`, `hatch.toml`, poe/pdm tasks,
 * `mise.toml`, `.mvn/maven.config`, `pom.xml` `skipTests`, Gradle `test { exclude }`, `Directory.Build.props`,
 * `.bazelrc`, `Rakefile`, Cargo `harness = false`), files and keys that redirect what the code under test is
 * (`jest-preset.js`, `.swcrc`, tsconfig `extends`/`moduleSuffixes`/`customConditions`, package.json `imports`,
 * setuptools `package-dir`, `.coveragerc` plugins, pnpm-workspace overrides, dependency `patches/`), runtime
 * selectors (`.nvmrc`, `.python-version`), overlapping hunks, a log claiming billions of tests, and `retrace verify`
 * on a patch that changes a failing test's parametrize id (real engine) — with a marker secret in GITHUB_TOKEN and
 * a marker file outside Retrace's directories. Each case must be contained or refused with a reason
 * (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-fifth red team: runner shadows, other runners' files, module-resolution redirects, runtime selectors, overlapping hunks",
  n: 25,
});
