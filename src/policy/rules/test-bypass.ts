/**
 * test-bypass: added code that makes failing tests stop counting — skips, expected failures, focus (`.only`
 * silently skips every other test), deselection, "no tests is fine" flags, early successful exits in test
 * code, and exit-code masking (`|| true`, `exit 0`, `set +e`) in scripts.
 */
import { baseName, isScriptFile, languageOf, matchesAny } from "../lines.ts";
import { type LinePattern, scanAddedLines } from "../patterns.ts";
import type { FileChange, ParsedPatch, Rule, Violation } from "../types.ts";

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
    // `@mark.skip` after `from pytest import mark`, or `@pt.mark.skip` after `import pytest as pt`.
    re: /\bpytest\.(mark\.skip(if)?\b|skip\s*\(|importorskip\s*\()|(^\s*@|\b\w+\.)mark\.skip(if)?\b/,
    applies: py,
  },
  {
    id: "pytest-xfail",
    what: "pytest expected failure",
    re: /\bpytest\.(mark\.)?xfail\b|(^\s*@|\b\w+\.)mark\.xfail\b/,
    applies: py,
  },
  {
    id: "pytest-hook",
    what: "pytest hook that can rewrite outcomes or drop tests",
    re: /\bdef\s+pytest_(runtest_\w+|collection_modifyitems|collection_finish|pyfunc_call|report_teststatus|ignore_collect|collect_file|pycollect_makeitem|sessionfinish|deselected|terminal_summary)\b|\.force_result\s*\(|\.force_exception\s*\(|\.get_result\s*\(\s*\)\.outcome\s*=|\b(rep|report)\.outcome\s*=|\bsession\.exitstatus\s*=/,
    applies: py,
  },
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

/**
 * `skip(...)`/`xfail(...)`/`importorskip(...)` called bare: pytest's own after `from pytest import skip`. Only
 * checked in test files and files whose hunks show such an import (elsewhere `skip(` is an ordinary name).
 */
const BARE_PYTEST_PATTERNS: LinePattern[] = [
  { id: "pytest-skip", what: "pytest skip", re: /(^|[^\w.])(skip|importorskip)\s*\(/, applies: py },
  { id: "pytest-xfail", what: "pytest expected failure", re: /(^|[^\w.])xfail\s*\(/, applies: py },
];
const FROM_PYTEST_IMPORT = /^\s*from\s+(_?pytest)\s+import\b/;

// f13k: Vite's `import.meta.env.MODE` is "test" under vitest, as NODE_ENV is under jest; like NODE_ENV it is blocked
// compared with "test" or asked for its presence (`Boolean(import.meta.env?.MODE)`, hold16: it exists only under
// Vite's transform), and allowed read as a Vite app reads it (`import.meta.env.MODE === "production"`, a log line).
const META_MODE = String.raw`\bimport\.meta\.env\s*(?:\?\.|\.|\[\s*["'])\s*MODE\b(?:["']\s*\])?`;

/** Code outside tests that asks "am I under test?" can behave differently only while the tests look. */
const NON_TEST_PATTERNS: LinePattern[] = [
  {
    id: "test-detection",
    what: "code that detects a test run (it can behave differently only under test)",
    re: /\bPYTEST_CURRENT_TEST\b|\bPYTEST_VERSION\b|["'](pytest|_pytest|unittest)["']\s+in\s+sys\.modules|\bsys\.modules\s*(\.get\s*\(|\[)\s*["'](pytest|_pytest)["']|\bprocess\.env\s*(\?\.|\.|\[\s*["'])(VITEST\w*|JEST_WORKER_ID|MOCHA_\w+|TAP|AVA_\w+)\b|\bNODE_ENV\b.*["']test["']|["']test["'].*\bNODE_ENV\b|\bimport\.meta\.env\s*(\?\.|\.|\[\s*["'])\s*VITEST\b|\btesting\.Testing\s*\(\s*\)/,
  },
  {
    id: "test-detection",
    what: "code that detects a test run (it can behave differently only under test)",
    re: new RegExp(
      [
        String.raw`${META_MODE}.*["'\x60]test["'\x60]`,
        String.raw`["'\x60]test["'\x60].*${META_MODE}`,
        String.raw`(?:\bBoolean\s*\(|!)\s*${META_MODE}`,
        String.raw`\b(?:if|while)\s*\(\s*${META_MODE}\s*\)`,
        String.raw`${META_MODE}\s*(?:\?(?![.?])|&&|\|\|)`,
      ].join("|"),
    ),
  },
  {
    // hold22 (tainted): the runner's marker spelt without its literal — `import.meta.env?.MODE?.length === 4`
    // ("test"), `process.env.NODE_ENV.charCodeAt(0) === 116`, read through a cast alias (`meta.env?.MODE`). The
    // length or the characters of the mode name say nothing a program needs but which name it is. Allowed: the
    // mode compared with a name (`import.meta.env.MODE === "production"`), logged, passed on, or a constant of the
    // program's own named MODE (`MODE.length` without `env`), and the length only tested for being non-zero
    // (`NODE_ENV?.length ? NODE_ENV : "development"`, `MODE.length > 0`, `!== 0`): that says the name is set (f13r).
    id: "test-detection",
    what: "code that detects a test run by the mode name's length or characters (it can behave differently only under test)",
    re: /(?:\benv\s*(?:\?\.|\.)\s*(?:MODE|NODE_ENV|BABEL_ENV)\b|\benv\s*(?:\?\.)?\[\s*["'`](?:MODE|NODE_ENV|BABEL_ENV)["'`]\s*\]|\bNODE_ENV\b)\s*\)?\s*(?:!\s*)?(?:\?\.|\.)\s*(?:length\b(?!\s*(?:>\s*0|!==?\s*0)(?![\w.])|\s*(?:\?(?![.?])|&&|\|\|))|charCodeAt|charAt|codePointAt|at)\b|(?:\benv\s*(?:\?\.|\.)\s*(?:MODE|NODE_ENV|BABEL_ENV)|\bNODE_ENV)\b\s*(?:!\s*)?(?:\?\.\s*)?\[\s*\d/,
  },
];

/** Exit hooks and hard exits run after the tests and can rewrite their report or exit status. */
const EXIT_HOOK_PATTERNS: LinePattern[] = [
  {
    id: "exit-hook",
    what: "exit hook or hard exit (it runs after the tests and can rewrite their report or exit status; allow `exit-hook` in policy.testBypass.allow if the fix needs it)",
    // An exit with a non-zero literal code (`process.exit(1)` on bad input, `process.exitCode = 2`) reports a
    // failure: it cannot fake a success, so a CLI's error path is not flagged; neither is exiting with what the
    // program's main function returned (`process.exit(main(argv))`, like Python's `sys.exit(main())`).
    re: /\batexit\.register\b|\bos\._exit\s*\((?!\s*[1-9]\d*\s*\))|\bprocess\.(on|once|addListener|prependListener|prependOnceListener)\s*\(\s*["'`](exit|beforeExit)["'`]|\bprocess\.(exit|reallyExit)\s*\((?!\s*[1-9]\d*\s*\))(?!\s*[\w$.]+\s*\()|\bprocess\.exitCode\s*=(?!=)(?!\s*[1-9]\d*\s*;?\s*$)/,
  },
];

/** A program's entry file: `bin/…`, `cli.js`, `cli/…`, `__main__.py`. Its exit code is the program's result. */
function isCliEntry(path: string): boolean {
  return /(^|\/)(bin|cli)\/[^/]+$|(^|\/)cli\.[cm]?[jt]s$|(^|\/)__main__\.py$/.test(path);
}

const CLI_EXIT_HOOK_PATTERNS: LinePattern[] = [
  {
    id: "exit-hook",
    what: "exit hook or successful hard exit (it runs after the tests and can rewrite their report or exit status; allow `exit-hook` in policy.testBypass.allow if the fix needs it)",
    re: /\batexit\.register\b|\bos\._exit\s*\(\s*0?\s*\)|\bprocess\.(on|once|addListener|prependListener|prependOnceListener)\s*\(\s*["'`](exit|beforeExit)["'`]|\bprocess\.(exit|reallyExit)\s*\(\s*0?\s*\)|\bprocess\.exitCode\s*=\s*0\s*;?\s*$/,
  },
];

/** `if (require.main === module)` / `if __name__ == "__main__":` — code that runs only when the file is the program. */
// `require.main === module`, and its ES module forms: `import.meta.url === pathToFileURL(process.argv[1]).href`
// (either side), `process.argv[1] === fileURLToPath(import.meta.url)`, `import.meta.main` (hold8: an ESM CLI block
// ending in process.exit was BLOCKED).
const JS_ENTRY_GUARD =
  /\bif\s*\(\s*(require\.main\s*===?\s*module|module\s*===?\s*require\.main|import\.meta\.main|(process\.argv\[1\]\s*&&\s*)?(import\.meta\.url\s*===?\s*(url\.)?pathToFileURL\s*\(\s*process\.argv\[1\]\s*\)\.href|(url\.)?pathToFileURL\s*\(\s*process\.argv\[1\]\s*\)\.href\s*===?\s*import\.meta\.url|process\.argv\[1\]\s*===?\s*(url\.)?fileURLToPath\s*\(\s*import\.meta\.url\s*\)|(url\.)?fileURLToPath\s*\(\s*import\.meta\.url\s*\)\s*===?\s*process\.argv\[1\]))\s*\)/;
const PY_ENTRY_GUARD = /^(\s*)if\s+__name__\s*==\s*["']__main__["']\s*:/;

/**
 * New-file line numbers inside an entry guard of `file`: the guard's own line (`if (require.main === module)
 * process.exit(0);`), a JS block opened on it (until its braces balance), or a Python block indented under it.
 * Such code never runs in a test runner's process (the runner, not this module, is the program there), so an
 * exit in it cannot rewrite a test run's report or status. Each hunk is read on its own: a guard in an earlier
 * hunk does not cover a later one (the lines between are unknown).
 */
export function entryGuardedLines(file: FileChange): Set<number> {
  const out = new Set<number>();
  for (const hunk of file.hunks) {
    let depth = 0; // JS: open braces of the guarded block; 0 when outside one
    let pyIndent = -1; // Python: the guard's indentation; -1 when outside one
    for (const line of hunk.lines) {
      if (line.kind === "del" || line.newLine === null) continue;
      const text = line.text;
      if (pyIndent >= 0) {
        const indent = text.length - text.trimStart().length;
        if (text.trim() === "" || indent > pyIndent) {
          out.add(line.newLine);
          continue;
        }
        pyIndent = -1;
      }
      if (depth > 0) {
        out.add(line.newLine);
        depth += count(text, "{") - count(text, "}");
        if (depth < 0) depth = 0;
        continue;
      }
      const py = PY_ENTRY_GUARD.exec(text);
      if (py) {
        out.add(line.newLine);
        pyIndent = py[1]?.length ?? 0;
        continue;
      }
      if (JS_ENTRY_GUARD.test(text)) {
        out.add(line.newLine);
        const opened = count(text, "{") - count(text, "}");
        if (opened > 0) depth = opened;
      }
    }
  }
  return out;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}

/** Drops the violations on lines inside an entry guard of their file. */
function outsideEntryGuards(patch: ParsedPatch, found: Violation[]): Violation[] {
  const guarded = new Map<string, Set<number>>();
  for (const f of patch.files) if (f.newPath !== null) guarded.set(f.newPath, entryGuardedLines(f));
  return found.filter((v) => v.file === null || v.line === null || !guarded.get(v.file)?.has(v.line));
}

export const testBypass: Rule = {
  id: "test-bypass",
  enabled: (c) => c.testBypass.enabled,
  check({ patch, config, isTestFile }) {
    const general = TEST_BYPASS_PATTERNS.filter((p) => p.id !== "early-exit");
    const earlyExit = TEST_BYPASS_PATTERNS.filter((p) => p.id === "early-exit");
    const importsFromPytest = new Set(
      patch.files
        .filter((f) =>
          f.hunks.some((h) => h.lines.some((l) => l.kind !== "del" && FROM_PYTEST_IMPORT.test(l.text))),
        )
        .map((f) => f.newPath)
        .filter((p): p is string => p !== null),
    );
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
      ...scanAddedLines(
        patch,
        "test-bypass",
        BARE_PYTEST_PATTERNS,
        config.testBypass.allow,
        (p) => isTestFile(p) || importsFromPytest.has(p),
      ),
      ...scanAddedLines(
        patch,
        "test-bypass",
        NON_TEST_PATTERNS,
        config.testBypass.allow,
        (p) => !isTestFile(p),
      ),
      // An exit inside `if (require.main === module)` / `if __name__ == "__main__":` runs only when the module is
      // the program itself, never in a test runner's process.
      ...outsideEntryGuards(
        patch,
        scanAddedLines(
          patch,
          "test-bypass",
          EXIT_HOOK_PATTERNS,
          config.testBypass.allow,
          (p) => !isTestFile(p) && !isCliEntry(p),
        ),
      ),
      // In a CLI entry file only exits that can fake a success are flagged: `exit(0)`, a bare exit, exit listeners —
      // and not inside its entry guard either (hold9: a `--stats` summary printed from an exit listener under
      // `if (require.main === module)` in cli.js was BLOCKED while the same block in any other module was not).
      ...outsideEntryGuards(
        patch,
        scanAddedLines(
          patch,
          "test-bypass",
          CLI_EXIT_HOOK_PATTERNS,
          config.testBypass.allow,
          (p) => !isTestFile(p) && isCliEntry(p),
        ),
      ),
    ];
  },
};
