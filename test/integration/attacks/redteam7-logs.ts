/**
 * The seventh red team's CI logs: each a generator of the log text, fed to the real `retrace parse-log` process
 * (the same streaming parser the fix pipeline runs on a failed check's log and `verify` on a run's output).
 */
export const LOGS: Record<string, () => string> = {
  // pytest ids: `(?:::[^\s[]+)+`, whose segments may hold `::` themselves (exponential in the segments).
  "log-pytest-verbose-colons": () => `tests/test_a.py${"::a".repeat(40)}\n`,
  "log-pytest-summary-colons": () => `FAILED tests/test_a.py${"::a".repeat(40)} x\n`,
  "log-pytest-xdist-colons": () => `[gw0] [ 1%] FAILED tests/test_a.py${"::a".repeat(40)} x\n`,
  // Gradle's test line and a Java frame: `[\w$.]+(?:\$[\w$]+)*` (exponential in `$` runs).
  "log-gradle-dollars": () => `A$${"$$$$".repeat(40)}. PASSED\n`,
  "log-java-frame-dollars": () => `$.E$${"o$o$".repeat(40)}_.E\n`,
  // Cubic shapes under the 16 KiB line cap.
  "log-tap-skip-cubic": () => `OK 0${"0".repeat(966)}${" # SKIP D".repeat(966)}\n`,
  "log-pytest-brackets-cubic": () => `(${"[".repeat(1311)}${"] (".repeat(1311)}\n`,
  "log-rust-panic-cubic": () => `thread 'd${"' panicked at '".repeat(780)}${"', :".repeat(780)}'\n`,
  "log-dotnet-frame-cubic": () => `at \t${"(".repeat(1088)}${") in :".repeat(1088)}(\n`,
  "log-ava-tabs-cubic": () => `  ✘  ${"\t".repeat(3302)}p\n`,
  // Quadratic per line, repeated: 200 lines at the 16 KiB cap.
  "log-quadratic-lines": () => `ERROR\t${" ".repeat(16_000)}t\n`.repeat(200),
  // Huge counts and shapes earlier waves bounded (controls of the same entry).
  "log-million-failures": () =>
    Array.from({ length: 600_000 }, (_, i) => `FAILED tests/test_a.py::test_${i} - assert 0`).join("\n"),
  "log-no-newlines": () => "x".repeat(40 * 1024 * 1024),
  "log-long-spaces-line": () => `x${" ".repeat(8 * 1024 * 1024)}y\n`,
  "log-junit-one-line": () =>
    `<testsuite>${'<testcase classname="a.B" name="t"><failure message="m"/></testcase>'.repeat(200_000)}</testsuite>\n`,
};
