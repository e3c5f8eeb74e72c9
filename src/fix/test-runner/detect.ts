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
 * pnpm, so the scripts run as the package manager would run them. `pre`/`post`: the `pre<name>`/`post<name>`
 * scripts npm runs around each script it runs (`npm test` runs `pretest` first), in order. Null when `command`
 * is not such an invocation (or names no script and is npm's).
 */
export function expandPackageScripts(
  command: string,
  scripts: Record<string, string>,
): { command: string; scripts: string[]; pre: string[]; post: string[] } | null {
  let current = command.trim();
  let changed = false;
  const used: string[] = [];
  const pre: string[] = [];
  const post: string[] = [];
  for (let depth = 0; depth < 5; depth++) {
    const m = RUN_SCRIPT.exec(current);
    if (!m) break;
    const [, manager, verb, nameRaw, restRaw] = m;
    const name = nameRaw === "t" && manager === "npm" && verb === undefined ? "test" : (nameRaw as string);
    const rest = (restRaw ?? "").replace(/^--(\s+|$)/, "").trim();
    const script = verb === "exec" ? undefined : scripts[name];
    if (script !== undefined) {
      used.push(name);
      if (manager === "npm") {
        const before = scripts[`pre${name}`];
        const after = scripts[`post${name}`];
        if (before !== undefined) pre.push(before);
        if (after !== undefined) post.unshift(after);
      }
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
  return changed ? { command: current, scripts: used, pre, post } : null;
}

/**
 * `command` split at its top-level `&&` (outside quotes, parentheses and braces): the steps a shell runs one
 * after the other, each only when the one before succeeded.
 */
export function andSteps(command: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"') i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "\\") i++;
    else if (c === "(" || c === "{") depth++;
    else if (c === ")" || c === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === "&" && command[i + 1] === "&") {
      out.push(command.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  out.push(command.slice(start).trim());
  return out.filter((x) => x !== "");
}

/** One step of a command: a simple command, or a `post` script npm runs after the one it follows. */
interface Step {
  text: string;
  post: boolean;
}

/** A command as its steps, package scripts expanded (with npm's pre/post scripts), compound scripts split. */
function flattenSteps(
  command: string,
  scripts: Record<string, string> | null,
  used: string[],
  depth = 0,
): Step[] {
  const parts = andSteps(command);
  const out: Step[] = [];
  for (const part of parts) {
    const expanded = scripts && RUN_SCRIPT.test(part) ? expandPackageScripts(part, scripts) : null;
    if (expanded === null) {
      out.push({ text: part, post: false });
      continue;
    }
    used.push(...expanded.scripts);
    for (const p of expanded.pre) out.push(...flattenSteps(p, scripts, used, depth + 1));
    if (depth < 4 && andSteps(expanded.command).length > 1)
      out.push(...flattenSteps(expanded.command, scripts, used, depth + 1));
    else out.push({ text: expanded.command, post: false });
    for (const p of expanded.post)
      out.push(...flattenSteps(p, scripts, used, depth + 1).map((x) => ({ ...x, post: true })));
  }
  return out;
}

/**
 * A command that builds before it tests (`npm run build && npm run test-node`, `npm test` with a `pretest`
 * script, `tsc && node --test dist/`): the test step (the last step that runs a runner Retrace knows, else the
 * last step) and the steps before it, which become the setup every run makes first. `post` scripts after the
 * test step are left out (they do not decide which tests pass). Null when the command is a single step, or
 * when a step other than a `post` script follows the test step (`mocha && npm run lint`): such a command runs
 * as it is.
 */
function splitSetup(
  prefix: string,
  invocation: string,
  scripts: Record<string, string> | null,
): { setup: string; test: string; used: string[] } | null {
  const used: string[] = [];
  const parts = andSteps(invocation);
  const steps: Step[] = [];
  parts.forEach((part, i) => {
    const flat = flattenSteps(part, scripts, used);
    // An environment prefix applies to the first part, and to every step npm runs for it.
    steps.push(...(i === 0 && prefix ? flat.map((s) => ({ ...s, text: `${prefix}${s.text}` })) : flat));
  });
  if (steps.length < 2) return null;
  const known = steps
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => !s.post && frameworkOf(s.text) !== "unknown");
  const main = steps.map((s, i) => ({ s, i })).filter(({ s }) => !s.post);
  const testIndex = (known.at(-1) ?? main.at(-1))?.i;
  if (testIndex === undefined || testIndex === 0) return null;
  if (steps.slice(testIndex + 1).some((s) => !s.post)) return null;
  return {
    setup: steps
      .slice(0, testIndex)
      .map((s) => s.text)
      .join(" && "),
    test: steps[testIndex]!.text,
    used,
  };
}

/**
 * Turns a command the user gave into a TestCommand. `npm test` (and yarn/pnpm) is resolved to the
 * package's `scripts.test`, so that the reporter flags reach the framework itself. A command that builds
 * first is split into its setup and its test step (see splitSetup).
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
  const hasScripts = andSteps(invocation).some((p) => RUN_SCRIPT.test(p));
  const scripts = hasScripts ? await packageScripts(workspace) : null;
  const split = splitSetup(prefix.trimStart(), invocation, scripts);
  if (split !== null) {
    const via =
      split.used.length > 0
        ? `${source} → package.json ${split.used.map((n) => `scripts.${n}`).join(" → ")}`
        : source;
    const detectedBy = `${via}; the tests run after \`${split.setup}\``;
    const test: TestCommand = {
      framework: frameworkOf(split.test),
      command: split.test,
      detectedBy,
      setup: split.setup,
    };
    if (test.framework !== "unknown") return test;
    const behind = await runnerBehindWrapper(
      workspace,
      split.test,
      via.includes("package.json") ? via : source,
    );
    return behind ? { ...behind, setup: split.setup } : test;
  }
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
    // A test script that builds first (or an npm `pretest`): the build becomes the setup of every run.
    const split = await describeCommand(workspace, "npm test", "package.json scripts.test");
    if (split.setup !== undefined) return split;
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
