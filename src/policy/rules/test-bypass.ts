/**
 * test-bypass: added code that makes failing tests stop counting — skips, expected failures, focus (`.only`
 * silently skips every other test), deselection, "no tests is fine" flags, early successful exits in test
 * code, and exit-code masking (`|| true`, `exit 0`, `set +e`) in scripts.
 */
import { baseName, isScriptFile, languageOf, matchesAny } from "../lines.ts";
import { type LinePattern, scanAddedLines } from "../patterns.ts";
import type { Rule } from "../types.ts";

const lang =
  (...langs: string[]) =>
  (path: string) =>
    langs.includes(languageOf(path));
const py = lang("python");
const js = lang("js");
const TEST_CONFIG_GLOBS = [
  "**/conftest.py",
  "**/{jest,vitest,vite,karma,playwright,cypress}.config.*",
  "**/.mocharc*",
  "**/{jest,vitest}.setup.*",
  "**/setup{Tests,Files}.*",
];

export const TEST_BYPASS_PATTERNS: LinePattern[] = [
  {
    id: "pytest-skip",
    what: "pytest skip",
    re: /\bpytest\.(mark\.skip(if)?\b|skip\s*\(|importorskip\s*\()/,
    applies: py,
  },
  { id: "pytest-xfail", what: "pytest expected failure", re: /\bpytest\.(mark\.)?xfail\b/, applies: py },
  {
    id: "unittest-skip",
    what: "unittest skip",
    re: /(@(unittest\.)?(skip|skipIf|skipUnless|expectedFailure)\b|\.skipTest\s*\(|\bSkipTest\b)/,
    applies: py,
  },
  {
    id: "js-skip",
    what: "skipped or pending test",
    re: /\b(it|test|describe|suite|context|specify|bench)(\.concurrent)?\.(skip|todo|skipIf|runIf|fails)\b|\bx(it|describe|test|context|specify)\s*\(|\bthis\.skip\s*\(|\bt\.(skip|todo)\s*\(|[{,]\s*(skip|todo)\s*:\s*(true|['"`])/,
    applies: js,
  },
  {
    id: "js-only",
    what: "focused test (.only skips every other test)",
    re: /\b(it|test|describe|suite|context|specify)(\.concurrent)?\.only\b|\bf(it|describe)\s*\(|[{,]\s*only\s*:\s*true/,
    applies: js,
  },
  {
    id: "junit-disabled",
    what: "disabled JUnit test",
    re: /@(Disabled|Ignore)\b|@DisabledIf\w*|@EnabledIf\w*/,
    applies: lang("java"),
  },
  { id: "go-skip", what: "Go test skip", re: /\b[tb]\.(Skip|Skipf|SkipNow)\s*\(/, applies: lang("go") },
  { id: "rust-ignore", what: "ignored Rust test", re: /#\[\s*ignore\b/, applies: lang("rust") },
  {
    id: "dotnet-skip",
    what: "skipped .NET test",
    re: /\[\s*Ignore\b|\bSkip\s*=\s*"/,
    applies: lang("csharp"),
  },
  {
    id: "ruby-skip",
    what: "skipped Ruby test",
    re: /^\s*(skip|pending)\b|\bx(it|describe|context|specify)\b/,
    applies: lang("ruby"),
  },
  {
    id: "pass-with-no-tests",
    what: "accepts running no tests",
    re: /--pass-?with-?no-?tests\b|passWithNoTests\s*[:=]\s*true|--no-tests[= ](pass|warn|ignore)|--allow-no-tests|--fail-on-empty[= ]false/i,
    inComments: false,
  },
  {
    id: "deselect-tests",
    what: "deselects or ignores tests",
    re: /--deselect\b|--ignore(-glob)?[= ]|-k\s+['"]?not\s|testPathIgnorePatterns|--testPathIgnorePatterns|--exclude[= ]|--skip[= ]|-run\s+['"]?\^\(\?!|collect_ignore/,
    applies: (p) => isScriptFile(p) || matchesAny(TEST_CONFIG_GLOBS, p),
  },
  {
    id: "exit-code-masking",
    what: "masks a failing exit code",
    re: /\|\|\s*(true\b|:(?=\s|$|;|")|exit\s+0\b)|(^\s*|[;&|]\s*|\bthen\s+)exit\s+0\b|\bset\s+\+e\b|ignore_errors\s*=\s*true|continue-on-error:\s*true|\|\|\s*echo\b/i,
    applies: (p) => isScriptFile(p) && languageOf(p) !== "python",
  },
  {
    id: "make-ignore-errors",
    what: "ignores a failing command in a Makefile (`-` prefix)",
    re: /^\t-\s*\S/,
    applies: (p) => /^(gnu)?makefile$|\.mk$/i.test(baseName(p)),
  },
  {
    id: "early-exit",
    what: "exits early with success from test code",
    re: /\b(sys\.exit|os\._exit|exit)\s*\(\s*(0|None|True)?\s*\)|\bprocess\.(exit\s*\(\s*0?\s*\)|exitCode\s*=\s*0)|\bos\.Exit\(\s*0\s*\)|\bstd::process::exit\(\s*0\s*\)/,
  },
];

export const testBypass: Rule = {
  id: "test-bypass",
  enabled: (c) => c.testBypass.enabled,
  check({ patch, config, isTestFile }) {
    const general = TEST_BYPASS_PATTERNS.filter((p) => p.id !== "early-exit");
    const earlyExit = TEST_BYPASS_PATTERNS.filter((p) => p.id === "early-exit");
    return [
      ...scanAddedLines(patch, "test-bypass", general, config.testBypass.allow),
      // An early `exit(0)` is normal in a program; in tests, conftest or runner configuration it fakes a pass.
      ...scanAddedLines(
        patch,
        "test-bypass",
        earlyExit,
        config.testBypass.allow,
        (p) => isTestFile(p) || matchesAny(TEST_CONFIG_GLOBS, p) || baseName(p) === "setup.py",
      ),
    ];
  },
};
