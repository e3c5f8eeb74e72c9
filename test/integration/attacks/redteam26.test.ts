/**
 * The twenty-sixth red team's inputs (issue 14, host-side steps; `redteam26-cases.json`, first try and after in
 * `redteam26-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam26-step.ts`) — build-file lines whose test block the hunk does not show (Gradle, Maven surefire), new
 * modules at an import root named like the stdlib, pytest's start-up imports or a plugin, wrappers and vendored tools
 * a test command executes (`gradlew`, `mvnw`, the wrapper's distribution, `.yarn/releases`, the script the failing
 * check names), files runners load by convention (`setupTests`, `.pnp.cjs`, JUnit properties and service files),
 * CODEOWNERS, path spellings and a symlinked test directory, large and deep reports through `readReport`, terminal
 * escapes in the comment, the App's review-comment event, and two `retrace verify` jobs at once on one repository
 * (real engine) — with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case
 * must be contained or refused with a reason (host-wave-suite.ts).
 */
import { describeHostWave } from "./host-wave-suite.ts";

describeHostWave({
  title:
    "twenty-sixth red team: hidden build-file blocks, import-root shadows, wrappers, runner conventions, CODEOWNERS, concurrent verify",
  n: 26,
  added: [
    "report-version-mentions-at-size-limit",
    "report-nested-blockquotes-through-entry",
    "patch-new-root-plugin-shadow-plain",
    "patch-yarn-releases-cjs-plain",
    "patch-script-named-by-failing-check-plain",
    "patch-root-codeowners-removes-owner",
  ],
});
