/**
 * Detects the test command of a repository and the framework behind a command string.
 * Pure: reads the repository through the Workspace port.
 */
import { UsageError } from "../../core/errors.ts";
import type { Workspace } from "../../core/ports/workspace.ts";
import type { TestCommand, TestFramework } from "./types.ts";

/** The placeholder `npm init` writes: it is not a test command. */
const NPM_PLACEHOLDER = /no test specified/;

/** Which framework a shell command (or an npm script) runs. */
export function frameworkOf(command: string): TestFramework {
  if (/(^|[\s;&|(/])vitest(\s|$)/.test(command)) return "vitest";
  if (/(^|[\s;&|(/])jest(\s|$)/.test(command)) return "jest";
  if (/(^|[\s;&|(/])mocha(\s|$)/.test(command)) return "mocha";
  if (runsNodeTest(command)) return "node-test";
  if (/(^|[\s;&|(/])(py\.test|pytest)(\s|$)/.test(command) || /python3?\s+-m\s+pytest/.test(command))
    return "pytest";
  if (/(^|[\s;&|(])go\s+test(\s|$)/.test(command)) return "go";
  if (/(^|[\s;&|(])cargo\s+(test|nextest)(\s|$)/.test(command)) return "cargo";
  return "unknown";
}

/**
 * `node … --test`: a `node` word, then a `--test` word after it (`node --test`, `node --import x --test=…`).
 * Two linear searches: the one pattern that said this (`node(\s+\S+)*?\s+--test`) was quadratic in the
 * number of `node` words (a 1 MiB scripts.test held the host for hours).
 */
function runsNodeTest(command: string): boolean {
  const node = /(^|[\s;&|(/])node(?=\s)/.exec(command);
  return node !== null && /\s--test(\s|=|$)/.test(command.slice(node.index + node[0].length));
}

const NPM_TEST = /^\s*(npm\s+(run\s+)?test|npm\s+t|yarn\s+(run\s+)?test|pnpm\s+(run\s+)?test)\s*$/;

/** package.json's declared dependency names (dependencies and devDependencies), or null without one. */
async function declaredPackages(workspace: Workspace): Promise<Set<string> | null> {
  if (!(await workspace.exists("package.json"))) return null;
  try {
    const pkg = JSON.parse(await workspace.readFile("package.json")) as Record<string, unknown>;
    const names = new Set<string>();
    for (const key of ["dependencies", "devDependencies"]) {
      const deps = pkg[key];
      if (typeof deps === "object" && deps !== null) for (const n of Object.keys(deps)) names.add(n);
    }
    return names;
  } catch {
    return null;
  }
}

/** The runners Retrace can run directly in place of a wrapper, with the command each is run with. */
const WRAPPED_RUNNERS: { framework: TestFramework; pkg: string; command: string }[] = [
  { framework: "vitest", pkg: "vitest", command: "npx vitest run" },
  { framework: "jest", pkg: "jest", command: "npx jest" },
];

/**
 * A JS wrapper around the test runner (`ts-scripts specs`, `npx kcd-scripts test`, `npm run test:unit` whose
 * script is a build tool): the reporter flags Retrace needs cannot reach the runner through it, and its plain
 * output does not list passing tests. When package.json declares exactly one runner Retrace can run directly
 * (vitest or jest, both find their tests from their own config), that runner is the test command, and where it
 * came from says so. Anything else (`make test`, a shell script) stays as given.
 */
async function runnerBehindWrapper(
  workspace: Workspace,
  command: string,
  source: string,
): Promise<TestCommand | null> {
  const words = command.trim().split(/\s+/);
  const launcher = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  // `npx <wrapper>`, or a package.json script; `npm run <script>` is the user's own choice of script: kept.
  if (launcher === undefined || (launcher !== "npx" && !source.includes("package.json"))) return null;
  const declared = await declaredPackages(workspace);
  if (declared === null) return null;
  const runners = WRAPPED_RUNNERS.filter((r) => declared.has(r.pkg));
  if (runners.length !== 1) return null;
  const runner = runners[0]!;
  return {
    framework: runner.framework,
    command: runner.command,
    detectedBy: `${source}: \`${command.trim()}\` wraps the test runner, so Retrace runs the one package.json declares (${runner.pkg}) directly`,
  };
}

async function packageScripts(workspace: Workspace): Promise<Record<string, string> | null> {
  if (!(await workspace.exists("package.json"))) return null;
  let pkg: unknown;
  try {
    pkg = JSON.parse(await workspace.readFile("package.json"));
  } catch (error) {
    throw new UsageError(
      `package.json is not valid JSON: ${(error as Error).message}`,
      "fix package.json or pass the test command with --test",
    );
  }
  const scripts = (pkg as { scripts?: unknown }).scripts;
  if (typeof scripts !== "object" || scripts === null) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(scripts)) if (typeof v === "string" && v.trim()) out[k] = v.trim();
  return out;
}

async function packageTestScript(workspace: Workspace): Promise<string | null> {
  const test = (await packageScripts(workspace))?.["test"];
  if (test === undefined || NPM_PLACEHOLDER.test(test)) return null;
  return test;
}

/**
 * A package-manager invocation of a package script or binary: `npm test`, `npm run x -- args`, `yarn x args`,
 * `yarn run x`, `pnpm x`, `pnpm run x`, `pnpm exec x`, `yarn jest` (a binary, not a script).
 */
const RUN_SCRIPT =
  /^(npm|yarn|pnpm)\s+(?:(run(?:-script)?|exec)\s+)?(?!(?:install|i|ci|add|remove|dlx|create|init|publish|pack)\b)([\w:@./-]+)(?:\s+(.*))?$/s;

/**
 * The command a package-manager invocation runs, with the package scripts it names expanded (and the scripts
 * those name, a few levels deep) and its extra arguments appended: `yarn testonly --ci` with
 * `"testonly": "jest"` is `jest --ci`. Retrace installs with npm and the sandbox runs the tests without yarn or
 * pnpm, so the scripts run as the package manager would run them. Null when `command` is not such an
 * invocation (or names no script and is npm's).
 */
export function expandPackageScripts(
  command: string,
  scripts: Record<string, string>,
): { command: string; scripts: string[] } | null {
  let current = command.trim();
  let changed = false;
  const used: string[] = [];
  for (let depth = 0; depth < 5; depth++) {
    const m = RUN_SCRIPT.exec(current);
    if (!m) break;
    const [, manager, verb, nameRaw, restRaw] = m;
    const name = nameRaw === "t" && manager === "npm" && verb === undefined ? "test" : (nameRaw as string);
    const rest = (restRaw ?? "").replace(/^--(\s+|$)/, "").trim();
    const script = verb === "exec" ? undefined : scripts[name];
    if (script !== undefined) {
      used.push(name);
      current = rest ? `${script} ${rest}` : script;
    } else if (manager !== "npm" || verb === "exec") {
      // `yarn jest --ci`, `pnpm exec vitest run`: the binary, found on PATH in node_modules/.bin.
      current = rest ? `${name} ${rest}` : name;
    } else {
      break;
    }
    changed = true;
    if (/[;&|]/.test(current)) break; // a compound script is run as it is
  }
  return changed ? { command: current, scripts: used } : null;
}

/**
 * Turns a command the user gave into a TestCommand. `npm test` (and yarn/pnpm) is resolved to the
 * package's `scripts.test`, so that the reporter flags reach the framework itself.
 */
export async function describeCommand(
  workspace: Workspace,
  command: string,
  source: string,
): Promise<TestCommand> {
  if (!command.trim())
    throw new UsageError("the test command is empty", "pass --test with a command, e.g. --test 'pytest -q'");
  // `PYTHONPATH=src npm test`: the environment prefix stays in front of the script it resolves to.
  const prefix = /^(?:\s*[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+)*/.exec(command)?.[0] ?? "";
  const invocation = command.slice(prefix.length).trim();
  if (NPM_TEST.test(invocation)) {
    const script = await packageTestScript(workspace);
    if (script === null) {
      throw new UsageError(
        `${source} is "${command.trim()}" but package.json has no scripts.test`,
        "add a test script to package.json or pass the framework's command with --test",
      );
    }
  }
  const scripts = RUN_SCRIPT.test(invocation) ? await packageScripts(workspace) : null;
  const expanded = scripts ? expandPackageScripts(invocation, scripts) : null;
  if (expanded !== null) {
    const resolved: TestCommand = {
      framework: frameworkOf(expanded.command),
      command: `${prefix.trimStart()}${expanded.command}`,
      detectedBy:
        expanded.scripts.length > 0
          ? `${source} → package.json ${expanded.scripts.map((n) => `scripts.${n}`).join(" → ")}`
          : `${source} → the package's own binary (node_modules/.bin)`,
    };
    if (resolved.framework !== "unknown") return resolved;
    return (await runnerBehindWrapper(workspace, expanded.command, resolved.detectedBy)) ?? resolved;
  }
  const framework = frameworkOf(command);
  if (framework === "unknown") {
    const behind = await runnerBehindWrapper(workspace, command, source);
    if (behind) return behind;
  }
  return { framework, command: command.trim(), detectedBy: source };
}

const PYTEST_CONFIG: { file: string; marker: RegExp | null }[] = [
  { file: "pytest.ini", marker: null },
  { file: "pyproject.toml", marker: /^\[tool\.pytest/m },
  { file: "setup.cfg", marker: /^\[tool:pytest\]/m },
  { file: "tox.ini", marker: /^\[pytest\]/m },
  { file: "conftest.py", marker: null },
];

/**
 * Detects how a repository runs its tests, in this order: package.json `scripts.test`; pytest
 * (configuration, conftest.py, or test_*.py / *_test.py files); go.mod; Cargo.toml; JS test files
 * without a script (node --test). Throws a UsageError when nothing is found.
 */
export async function detectTestCommand(workspace: Workspace): Promise<TestCommand> {
  const script = await packageTestScript(workspace);
  if (script !== null) {
    const framework = frameworkOf(script);
    if (framework === "unknown") {
      const behind = await runnerBehindWrapper(workspace, script, "package.json scripts.test");
      if (behind) return behind;
    }
    return { framework, command: script, detectedBy: `package.json scripts.test (${framework})` };
  }
  for (const { file, marker } of PYTEST_CONFIG) {
    if (!(await workspace.exists(file))) continue;
    if (marker === null || marker.test(await workspace.readFile(file))) {
      return { framework: "pytest", command: "python3 -m pytest", detectedBy: file };
    }
  }
  const files = await workspace.listFiles({ max: 20_000 });
  const pyTest = files.find((f) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(f));
  if (pyTest !== undefined) {
    return { framework: "pytest", command: "python3 -m pytest", detectedBy: `Python test files (${pyTest})` };
  }
  if (files.includes("go.mod")) return { framework: "go", command: "go test ./...", detectedBy: "go.mod" };
  if (files.includes("Cargo.toml"))
    return { framework: "cargo", command: "cargo test", detectedBy: "Cargo.toml" };
  const jsTest = files.find((f) => /(^|\/)([^/]*[._-])?test\.[cm]?js$|(^|\/)test\/[^/]+\.[cm]?js$/.test(f));
  if (jsTest !== undefined) {
    return {
      framework: "node-test",
      command: "node --test",
      detectedBy: `JS test files without scripts.test (${jsTest})`,
    };
  }
  throw new UsageError(
    "could not detect how this repository runs its tests",
    "pass the command with --test (e.g. --test 'python3 -m pytest' or --test 'node --test'), or set fix.testCommand in .github/retrace.yml",
  );
}
