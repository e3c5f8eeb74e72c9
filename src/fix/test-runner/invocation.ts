/**
 * Builds the script that runs a test command in the sandbox with a machine-readable reporter, and says
 * where and in which format the results will be.
 */
import { escapeRegExp } from "../../core/regexp.ts";
import { jestLauncher, mochaArgvRestore, mochaLauncher, unittestLauncher } from "./launchers.ts";
import type { TestCommand } from "./types.ts";

export interface Invocation {
  /** Shell script run as `sh -c <script>` in the workspace root. */
  script: string;
  /** Extra environment for the run (on top of the base environment). */
  env: Record<string, string>;
  /** Workspace-relative report file to collect, or null when results come from stdout. */
  reportFile: string | null;
  /** Format passed to the log parser. */
  format: string;
  /** Retrace's own files placed in the workspace for the run (a runner's launcher), by workspace-relative path. */
  files: Record<string, string>;
}

/** Where the workspace is inside the sandbox (absolute paths for a launcher, whatever directory the command cd's to). */
const WORKSPACE = "/workspace";

/** A value of a shell word: quoted or bare. */
const SHELL_VALUE = String.raw`(?:'[^']*'|"[^"]*"|[^\s;&|()'"]+)`;

/**
 * `command` without the options named (each `--name=value` or `--name value`): a user's own report option
 * that would take the place of Retrace's (pytest's `--junitxml`, vitest's `--outputFile`, node's
 * `--test-reporter` pairs). Their report is for CI; the sandbox run needs Retrace's.
 */
export function dropOptions(command: string, names: readonly string[]): string {
  let out = command;
  for (const name of names) {
    const re = new RegExp(
      String.raw`\s+${escapeRegExp(name)}(?:=${SHELL_VALUE}|\s+(?!-)${SHELL_VALUE})?(?=\s|$|[;&|)])`,
      "g",
    );
    out = out.replace(re, "");
  }
  return out;
}

/** Commands that start a package's bin by name (`npx jest`, `yarn jest`, `pnpm exec mocha`). */
const BIN_PREFIX = String.raw`(?:(?:npx|pnpx|bunx)\s+(?:(?:--yes|-y|--no-install|--no|--quiet|-q)\s+)*|(?:yarn|pnpm)\s+(?:exec\s+)?|npm\s+exec\s+(?:--\s+)?)?`;

/**
 * `command` with the runner's command word (`jest`, `npx jest`, `node_modules/.bin/mocha`, the script after
 * `node --flags`) replaced by `node <launcher>` (or the launcher alone after `node`), the arguments kept.
 */
export function launchThrough(command: string, word: string, launcher: string): string | null {
  const re = new RegExp(String.raw`(^|[\s;&|(])(${BIN_PREFIX})((?:[^\s;&|()]*/)?${word})(?=\s|$)`);
  const match = re.exec(command);
  if (!match) return null;
  const start = match.index + match[1]!.length;
  const before = command.slice(0, start);
  const afterNode = match[2] === "" && /(^|[\s;&|(])node(\s+-\S+)*\s+$/.test(before);
  return `${before}${afterNode ? launcher : `node ${launcher}`}${command.slice(match.index + match[0].length)}`;
}

/** Inserts `flags` right after the first match of `pattern` (the framework's own command word). */
function insertAfter(command: string, pattern: RegExp, flags: string): string | null {
  const match = pattern.exec(command);
  if (!match) return null;
  const end = match.index + match[0].length;
  return `${command.slice(0, end)} ${flags}${command.slice(end)}`;
}

/** Where the sandbox's Python user site is (TEST_ENV's PYTHONUSERBASE, relative to the workspace). */
const USER_BASE = ".retrace-python";
/** Python versions whose user site gets the scrub plug-in (the user site's path names the version). */
const PYTHON_MINORS = [8, 9, 10, 11, 12, 13, 14, 15];

/**
 * A pytest plug-in that takes Retrace's `PYTEST_ADDOPTS` out of `os.environ` as it loads: pytest has read the
 * variable by then (its first step), so the report is still written, but the code under test, the
 * repository's conftest files and any process a test starts never see it (a fix that reads the environment
 * then behaves as it does in CI). It is found through a `pytest11` entry point of a distribution in the
 * sandbox's Python user site (`.retrace-python`, where the repository's requirements are installed), one per
 * Python version: pytest loads entry-point plug-ins after reading `PYTEST_ADDOPTS` and before any conftest. Where
 * the user site is not used (a virtualenv) the plug-in is simply not found, and nothing else changes. Only a
 * variable that holds this run's nonce (Retrace's own value) is removed.
 */
export function pytestEnvScrub(nonce: string): Record<string, string> {
  const module = `retrace_env_${nonce}`;
  const code = [
    "import os",
    "",
    `if "${nonce}" in os.environ.get("PYTEST_ADDOPTS", ""):`,
    '    del os.environ["PYTEST_ADDOPTS"]',
    "",
  ].join("\n");
  const files: Record<string, string> = {};
  for (const minor of PYTHON_MINORS) {
    const site = `${USER_BASE}/lib/python3.${minor}/site-packages`;
    files[`${site}/${module}.py`] = code;
    files[`${site}/${module}-0.dist-info/METADATA`] =
      `Metadata-Version: 2.1\nName: ${module.replace(/_/g, "-")}\nVersion: 0\n`;
    files[`${site}/${module}-0.dist-info/entry_points.txt`] = `[pytest11]\n${module} = ${module}\n`;
  }
  return files;
}

/** Single-quotes a string for sh. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The reporter for each framework. Retrace's reporter options never reach the code under test through
 * `process.argv`, and a reporter option of the user's never takes the place of Retrace's:
 * - pytest: `--junitxml` through `PYTEST_ADDOPTS` (reaches pytest however it is launched; `sys.argv` stays the
 *   command's, and a plug-in takes the variable out of `os.environ` once pytest has read it: pytestEnvScrub), xunit1 for file attributes; the command's own `--junitxml` is dropped (on the command line it
 *   would win over the environment's);
 * - node --test: the TAP reporter written to a file (`--test-reporter-destination`; Node 18 has no JUnit
 *   reporter): node options, in `execArgv` and never in `process.argv` (the test files' processes get none of
 *   them); the command's own reporter pairs are dropped (node refuses reporters without a destination each);
 * - jest, mocha (tests in the runner's own process): a launcher, see launchers.ts;
 * - vitest: `--reporter=junit --outputFile=…` (tests run in worker threads or child processes, whose
 *   `process.argv` is vitest's worker entry); the command's `--outputFile` is dropped, its reporters kept;
 * - go: `go test -json` on stdout; cargo: libtest's plain output on stdout.
 * `nonce` makes Retrace's file names unguessable in advance, so a committed or pre-written file cannot stand in for them.
 */
/** `python3 -m unittest` in a command (group 1: what precedes it, group 2: the interpreter). */
const PYTHON_M_UNITTEST = /(^|[\s;&|(])((?:[^\s;&|()]*\/)?python(?:3(?:\.\d+)?)?)\s+-m\s+unittest(?=\s|$)/;

/** Whether a command runs `python -m unittest` (read from its verbose output: framework `unknown`). */
export function isPythonUnittestCommand(command: string): boolean {
  return PYTHON_M_UNITTEST.test(command);
}

export function buildInvocation(command: TestCommand, nonce: string): Invocation {
  const inv = testInvocation(command, nonce);
  return command.setup ? { ...inv, script: `${setupScript(command.setup, nonce)}\n${inv.script}` } : inv;
}

/** The line a failed setup writes to stderr (the run's nonce in it): `<marker> <exit code>`. */
export function setupFailedMarker(nonce: string): string {
  return `retrace-setup-failed-${nonce} exit`;
}

/**
 * The setup of a command (a build) as the first part of a run's script: run in the same shell (a `cd` in it
 * holds for the tests, as with `&&`), its output to a file outside the workspace, so that no parser reads a
 * build's output as test results. When it fails, the run ends with its exit code, after the marker line and
 * the end of its output on stderr.
 */
export function setupScript(setup: string, nonce: string): string {
  const log = `/tmp/.retrace-setup-${nonce}.log`;
  return [
    `{ ${setup}`,
    `} > ${log} 2>&1 || { rc=$?; echo "${setupFailedMarker(nonce)} $rc" >&2; tail -n 40 ${log} >&2; exit $rc; }`,
  ].join("\n");
}

function testInvocation(command: TestCommand, nonce: string): Invocation {
  const base = command.command;
  const report = (ext: string) => `.retrace-report-${nonce}.${ext}`;
  const launcher = `.retrace-run-${nonce}.cjs`;
  switch (command.framework) {
    case "pytest": {
      const file = report("xml");
      return {
        script: dropOptions(base, ["--junitxml", "--junit-xml"]),
        env: { PYTEST_ADDOPTS: `-p no:cacheprovider --junitxml=${file} -o junit_family=xunit1` },
        reportFile: file,
        format: "junit",
        files: pytestEnvScrub(nonce),
      };
    }
    case "node-test": {
      const file = report("tap");
      const script = insertAfter(
        dropOptions(base, ["--test-reporter", "--test-reporter-destination"]),
        /(^|[\s;&|(/])node(\s+\S+)*?\s+--test(?=\s|$)/,
        `--test-reporter=tap --test-reporter-destination=${file}`,
      );
      if (script !== null) return { script, env: {}, reportFile: file, format: "tap", files: {} };
      break;
    }
    case "jest": {
      const file = report("json");
      const script = launchThrough(base, "jest", `${WORKSPACE}/${launcher}`);
      if (script !== null)
        return {
          script,
          env: {},
          reportFile: file,
          format: "jest-json",
          files: { [launcher]: jestLauncher(`${WORKSPACE}/${file}`) },
        };
      break;
    }
    case "vitest": {
      const file = report("xml");
      const cleaned = dropOptions(base, ["--outputFile", "--outputFile.junit"]);
      const withRun = /(^|[\s;&|(/])vitest\s+run(?=\s|$)/.test(cleaned)
        ? cleaned
        : cleaned.replace(/(^|[\s;&|(/])vitest(?=\s|$)/, "$1vitest run");
      const script = insertAfter(
        withRun,
        /(^|[\s;&|(/])vitest\s+run(?=\s|$)/,
        `--reporter=junit --outputFile=${file}`,
      );
      if (script !== null) return { script, env: {}, reportFile: file, format: "junit", files: {} };
      break;
    }
    case "mocha": {
      const file = report("xml");
      const restore = `.retrace-argv-${nonce}.cjs`;
      const script = launchThrough(base, "mocha", `${WORKSPACE}/${launcher}`);
      if (script !== null)
        return {
          script,
          env: {},
          reportFile: file,
          format: "junit",
          files: {
            [launcher]: mochaLauncher(`${WORKSPACE}/${file}`, `${WORKSPACE}/${restore}`),
            [restore]: mochaArgvRestore(nonce, `${WORKSPACE}/${file}`),
          },
        };
      break;
    }
    case "go": {
      const script = insertAfter(base, /(^|[\s;&|(])go\s+test(?=\s|$)/, "-json");
      if (script !== null) return { script, env: {}, reportFile: null, format: "go-json", files: {} };
      break;
    }
    case "cargo":
      return { script: base, env: {}, reportFile: null, format: "cargo", files: {} };
    case "unknown": {
      // `python3 -m unittest …`: through a launcher that makes it verbose without touching sys.argv
      // (launchers.ts), so that a passing run names its tests; still read from the output.
      const py = `.retrace-run-${nonce}.py`;
      const m = PYTHON_M_UNITTEST.exec(base);
      if (m) {
        const start = m.index + m[1]!.length;
        const script = `${base.slice(0, start)}${m[2]} ${WORKSPACE}/${py}${base.slice(m.index + m[0].length)}`;
        return { script, env: {}, reportFile: null, format: "auto", files: { [py]: unittestLauncher() } };
      }
      break;
    }
  }
  return { script: base, env: {}, reportFile: null, format: "auto", files: {} };
}
