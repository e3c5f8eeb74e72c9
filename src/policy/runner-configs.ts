/**
 * The test runners' configuration files that name import roots (pytest's `pythonpath`, a `PYTHONPATH` tox's `setenv`
 * sets; jest's `modulePaths`/`roots`/`moduleDirectories` in package.json's `jest` key or a `jest.config.*` written as
 * plain data): the fixer reads them at the root and in every directory the failing check `cd`s into
 * (`checkDirectories`) into GateContext.runnerConfigs, and the test-infrastructure rule reads import roots from these
 * names only.
 */
export const RUNNER_CONFIG_FILES: readonly string[] = [
  "pytest.ini",
  ".pytest.ini",
  "tox.ini",
  "setup.cfg",
  "pyproject.toml",
];

/** Jest's configuration files (and package.json, for its `jest` key and the dependencies a module could shadow). */
export const JS_RUNNER_CONFIG_FILES: readonly string[] = [
  "package.json",
  "jest.config.js",
  "jest.config.cjs",
  "jest.config.mjs",
  "jest.config.json",
];

/** A repository-relative directory as a check names it, or null when it is outside or not a plain path. */
function plainDir(raw: string): string | null {
  const p = raw
    .replace(/^["']|["']$/g, "")
    .replace(/^(\$\{?PWD\}?|\$\{?GITHUB_WORKSPACE\}?)\/?/, "")
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  if (p === "" || p === "." || p.startsWith("/") || p.startsWith("-") || p.startsWith("~")) return null;
  if (/[$`{}*?]/.test(p) || p.split("/").includes("..")) return null;
  return p.replace(/\/\.(?=\/|$)/g, "");
}

/**
 * The directories the failing check `cd`s or `pushd`es into, relative to the repository's root, in order; a `cd`
 * after another is read from the one before it and from the root (`cd a && cd b` gives `a`, `a/b` and `b`). A target outside the
 * repository, or not a plain path (`cd $DIR`, `cd ..`), is not listed.
 */
export function checkDirectories(check: string | undefined): string[] {
  if (check === undefined) return [];
  const out: string[] = [];
  let here = "";
  for (const m of check.matchAll(/(?:^|[\s;&|(])(?:cd|pushd)\s+("[^"]*"|'[^']*'|[^\s;&|)]+)/g)) {
    const dir = plainDir(m[1]!);
    if (dir === null) continue;
    // A subshell (`(cd a && x) && cd b`) may have left `a` again: both readings are listed.
    for (const d of here === "" ? [dir] : [`${here}/${dir}`, dir]) if (!out.includes(d)) out.push(d);
    here = here === "" ? dir : `${here}/${dir}`;
  }
  return out;
}
