/**
 * test-awareness: code outside the tests that finds out, by indirect means, whether it runs under a test —
 * stack and frame inspection (`inspect.stack()`, `sys._getframe()`, `new Error().stack`,
 * `Error.captureStackTrace`), the entry module (`require.main.filename`, `module.parent`, `require.cache`),
 * environment keys scanned by prefix, and a test runner's name in a string (`"pytest"`, `"jest"`,
 * `NODE_TEST_CONTEXT`, `argv` searched for "test"). Such code can behave differently only while a test looks.
 * The neutral run (src/fix/tripwire.ts) catches what it does at run time; this rule names the line.
 *
 * Also code that reads process-wide state a runner sets up, which the neutral run cannot take away (pytest's
 * fault handler and import hook, the number of loaded modules, root log handlers, a captured stdin, crash-handler
 * listeners, vite's module wrapper `__vite_ssr_*`, the live objects `gc.get_referrers()` finds), and code that compares an injected dependency with the real
 * module function (a test's fake reader recognised as such).
 *
 * Also code that compares the machine with the sandbox's: user id, host name, `/workspace`, HOME, CI, container
 * files (the neutral run changes some of these; the rest only the rule sees).
 *
 * Allowed (counter-examples): `require.main === module` (the CLI idiom), `err.stack` of a caught error,
 * `traceback.format_exc()`, reading `NODE_ENV`, a function named `test_connection`, comments about tests,
 * `os.isatty(sys.stdin.fileno())` (the descriptor passed on, not probed), `logging.getLogger(__name__).handlers`, `process.on("uncaughtException", …)`,
 * `sys.modules.get(name)`, `typeof fs.rmSync === "function"`, `readFile = io.readFile ?? fs.readFileSync`,
 * `gc.collect()`, `gc.disable()`, `gc.freeze()`.
 */
import { languageOf } from "../lines.ts";
import { type LinePattern, scanAddedLines } from "../patterns.ts";
import type { Rule } from "../types.ts";

const py = (p: string) => languageOf(p) === "python";
const js = (p: string) => languageOf(p) === "js";

export const TEST_AWARENESS_PATTERNS: LinePattern[] = [
  {
    id: "stack-inspection",
    what: "inspects the call stack or frames (code can find the calling test by name)",
    re: /\binspect\.(stack|currentframe|getouterframes|getframeinfo|trace)\s*\(|\bsys\._getframe\b|\btraceback\.(extract_stack|format_stack|print_stack|walk_stack)\s*\(|\.f_back\b|\.f_code\.co_(name|filename)\b/,
    applies: py,
  },
  {
    id: "stack-inspection",
    what: "inspects the call stack (code can find the calling test by name or file)",
    re: /\bnew\s+Error\s*\([^)]*\)\s*\.stack\b|(^|[^\w.$])Error\s*\([^)]*\)\s*\.stack\b|\bError\.(captureStackTrace|prepareStackTrace)\b|\bconsole\.trace\s*\(|\bcallsites?\s*\(/,
    applies: js,
  },
  {
    id: "entry-module",
    what: "inspects the entry module or the module cache (how the process was started, which test loaded it)",
    re: /\brequire\.main\s*(\.|\?\.|\[)|\bmodule\.(parent|children)\b|\brequire\.cache\b|\bprocess\.mainModule\b|\bimport\.meta\.(main|filename)\b.*\b(test|spec)\b/,
    applies: js,
  },
  {
    id: "entry-module",
    what: "inspects how the process was started (sys.argv[0], __main__) for a test runner",
    re: /\bsys\.argv\b.*["'](test|tests|py\.?test|unittest)["']|["'](test|tests|py\.?test|unittest)["'].*\bsys\.argv\b|\bsys\.modules\s*\[\s*["']__main__["']\s*\]\s*\.__file__|\bsys\.argv\s*\[\s*0\s*\]/,
    applies: py,
  },
  {
    id: "entry-module",
    what: "searches process.argv or execArgv for a test runner",
    re: /\bprocess\.(argv|execArgv)\b.*["'`/](test|tests|spec|jest|vitest|mocha|--test)\b|["'`](test|--test)["'`].*\bprocess\.(argv|execArgv)\b|\bprocess\.argv\s*\[\s*1\s*\]\s*\.\s*(includes|endsWith|match|indexOf|search)\b/,
    applies: js,
  },
  {
    id: "env-scan",
    what: "scans environment variable names (a runner is recognisable by the variables it sets)",
    re: /\bfor\s+\w+(\s*,\s*\w+)?\s+in\s+(os\.environ|os\.environ\.(keys|items)\(\))|\bos\.environ\.(keys|items)\(\)\s*\)?\s*(if|for)|\bany\s*\(.*\bos\.environ\b|\bObject\.(keys|entries)\s*\(\s*process\.env\s*\)|\bfor\s*\(\s*(const|let|var)\s+\w+\s+in\s+process\.env\b|\bos\.getenv\(\s*\)/,
  },
  {
    id: "runner-name",
    what: "names a test runner in code (a branch on it behaves differently under test)",
    re: /["'`](py\.?test|_pytest|unittest|jest|vitest|mocha|jasmine|ava|node:test|JEST_WORKER_ID|NODE_TEST_CONTEXT|PYTEST|PYTEST_\w*|VITEST\w*|MOCHA\w*|__vitest\w*|__jest\w*)["'`]|\bNODE_TEST_CONTEXT\b|\bJEST_WORKER_ID\b|\b__vitest_\w+|\bglobalThis\.(__vitest\w*|jasmine|__coverage__)\b|["'`][^"'`]*\.(test|spec)\.[cm]?[jt]sx?["'`]|["'`][^"'`]*\btest_\w+\.py["'`]/,
  },
  {
    id: "runner-state",
    what: "reads process-wide state a test runner sets up (fault handler, import hooks, loaded-module count, root log handlers, captured stdin) — a fix has no business depending on it",
    re: /\bfaulthandler\.is_enabled\s*\(|\b(in|for\s+\w+\s+in)\s+sys\.meta_path\b|\blen\s*\(\s*sys\.modules\s*\)|\blogging\.(getLogger\s*\(\s*\)|root)\.handlers\b|(?<![(,]\s*)\bsys\.stdin\.fileno\s*\(|\btype\s*\(\s*sys\.std(in|out|err)\s*\)|\bsys\.std(in|out|err)\.__class__\b/,
    applies: py,
  },
  {
    id: "runner-state",
    what: "searches the interpreter's live objects (gc.get_referrers/get_referents/get_objects: the test module's namespace or the runner's objects are among them) — a fix has no business depending on them",
    re: /\bgc\.(get_referrers|get_referents|get_objects)\s*\(/,
    applies: py,
  },
  {
    id: "runner-state",
    what: "reads process-wide state a test runner sets up (crash-handler listeners, the bundler's module wrapper) — a fix has no business depending on it",
    re: /\bprocess\.(listenerCount|listeners|rawListeners)\s*\(\s*["'`](uncaughtException|unhandledRejection|exit|beforeExit)["'`]|\b__vite_ssr_\w+|\b__vite_\w+__\b/,
    applies: js,
  },
  {
    id: "test-double-check",
    what: "compares an injected dependency with the real module function (behaves differently when a test passes a fake)",
    // A function of the module (lower-case, not a constant like os.EOL or fs.constants.R_OK), compared by identity.
    re: /(===?|!==?)\s*(fs|fsp|os|child_process|http|https|net|dns|crypto)\.(?!constants\b|platform\b)[a-z][\w$]*(?![\w$]|\s*[.([])|(^|[^\w$.])(fs|fsp|os|child_process|http|https|net|dns|crypto)\.(?!constants\b|platform\b)[a-z][\w$]*\s*(===?|!==?)\s*(?!["'`\d]|null\b|undefined\b)[\w$]/,
    applies: js,
  },
  {
    id: "environment-fingerprint",
    what: "compares the machine it runs on with the sandbox's (user id, host name, /workspace, HOME, CI, container files)",
    re: /\b(os\.(getuid|geteuid|getlogin)|process\.(getuid|geteuid)|os\.userInfo|getpass\.getuser|pwd\.getpw\w+|socket\.gethostname|os\.hostname|platform\.node)\s*\(|["'`]\/(workspace|\.dockerenv|proc\/1\/cgroup|proc\/self\/cgroup)\b|\bprocess\.env\.(HOME|USER|LOGNAME|HOSTNAME|CI)\s*[!=]==?|\bos\.(environ\.get\s*\(|environ\s*\[|getenv\s*\()\s*["'](HOME|USER|LOGNAME|HOSTNAME|CI)["']\s*[\])]\s*[!=]=/,
  },
  {
    id: "test-globals",
    what: "checks for the test framework's globals (describe/it/expect exist only under a runner)",
    re: /\btypeof\s+(describe|it|expect|jest|vi|test|beforeEach|afterEach)\s*[!=]==?|\b(globalThis|global|window)\s*\.\s*(describe|it|expect|jest|vi|beforeEach)\b|["'](describe|expect|beforeEach)["']\s+in\s+(globalThis|global)\b|\bhasattr\s*\(\s*builtins\s*,/,
  },
];

export const testAwareness: Rule = {
  id: "test-awareness",
  enabled: (c) => c.testAwareness.enabled,
  check({ patch, config, isTestFile }) {
    return scanAddedLines(
      patch,
      "test-awareness",
      TEST_AWARENESS_PATTERNS,
      config.testAwareness.allow,
      (p) => !isTestFile(p),
    );
  },
};
