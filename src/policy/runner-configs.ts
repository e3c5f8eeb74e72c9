/**
 * The test runners' configuration files at a repository's root that name import roots (pytest's `pythonpath`, a
 * `PYTHONPATH` tox's `setenv` sets): the fixer reads them into GateContext.runnerConfigs, and the test-infrastructure
 * rule reads import roots from these names only.
 */
export const RUNNER_CONFIG_FILES: readonly string[] = [
  "pytest.ini",
  ".pytest.ini",
  "tox.ini",
  "setup.cfg",
  "pyproject.toml",
];
