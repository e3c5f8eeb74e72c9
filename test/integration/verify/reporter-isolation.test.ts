/**
 * Retrace's reporter options are Retrace's business (issue 15, commander-excess-args-message and
 * cookie-serialize-rfc6265-validation of the real-repos benchmark):
 * - the code under test never sees them in `process.argv` / `sys.argv` (commander's tests parse
 *   `process.argv`; jest in band and mocha run the tests in the runner's own process);
 * - a reporter option of the user's (on the command line, in .mocharc) never keeps Retrace from its report.
 * Each runner runs a test file added for the purpose that writes the arguments it sees; the test file and its
 * assertions are ours, on the small repositories of test/fixtures/repos (jest-clamp, mocha-range, vitest-words
 * with node_modules from their lockfiles through the install container, cached; js-units and py-prices have
 * no dependencies). Real Docker engine, real runners.
 */
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import type { ExtraDir } from "../../../src/core/ports/sandbox.ts";
import { checkJsDependencies } from "../../../src/fix/dependencies.ts";
import { runTests } from "../../../src/fix/test-runner/index.ts";
import type { TestFramework, TestRunResult } from "../../../src/fix/test-runner/types.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { installRepoDependencies } from "../../../src/install/repo-deps.ts";
import { createDockerSandbox } from "../../../src/sandbox/docker.ts";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const FIXTURES = path.resolve("test/fixtures/repos");
const sandbox = createDockerSandbox({ image: sandboxImage });

/** Runs `command` on `repo` with `files` added; returns the run. */
async function run(
  repo: string,
  framework: TestFramework,
  command: string,
  files: Record<string, string>,
  extraDirs: ExtraDir[] = [],
): Promise<TestRunResult> {
  return runTests({
    sandbox,
    workspace: await createFsWorkspace(path.join(FIXTURES, repo)),
    command: { framework, command, detectedBy: "test" },
    files,
    ...(extraDirs.length > 0 ? { extraDirs } : {}),
    jobId: `test-reporter-isolation-${repo}`,
    // A loaded machine starts vitest slowly (60 s at load 28 on 2 cores): what is tested is the arguments.
    limits: { timeoutMs: 170_000 },
  });
}

async function nodeModules(repo: string): Promise<ExtraDir[]> {
  const workspace = await createFsWorkspace(path.join(FIXTURES, repo));
  const js = await checkJsDependencies(workspace);
  return installRepoDependencies(workspace, js!, { image: sandboxImage });
}

/** The outcome of the one test whose id contains `name`. */
function outcomeOf(r: TestRunResult, name: string): string | undefined {
  return r.tests.find((t) => t.id.includes(name))?.outcome;
}

/** What a test's assertion failure said (the argv it saw), for a readable failure of this test file. */
const why = (r: TestRunResult) => `${r.problems.join("; ")}\n${r.outputTail}`;

// A test that passes only when the arguments after the script are exactly what the command gave the runner.
const ARGV_TEST = (expected: string[]) => `
const seen = JSON.stringify(process.argv.slice(2));
const want = ${JSON.stringify(JSON.stringify(expected))};
const leaked = process.argv.concat(process.execArgv).some((a) => /retrace|^--json$|^--ci$|xunit|junit/.test(a));
`;

describeDocker("Retrace's reporter options never reach the code under test", () => {
  let jestDirs: ExtraDir[] = [];
  let mochaDirs: ExtraDir[] = [];
  let vitestDirs: ExtraDir[] = [];
  beforeAll(async () => {
    jestDirs = await nodeModules("jest-clamp");
    mochaDirs = await nodeModules("mocha-range");
    vitestDirs = await nodeModules("vitest-words");
  }, 600_000);

  it("jest in band: process.argv is the command's; the command's own --json/--outputFile give way to Retrace's report", async () => {
    const args = ["--runInBand", "--outputFile=mine.json", "test/argv.test.js"];
    const r = await run(
      "jest-clamp",
      "jest",
      `npx jest ${args.join(" ")}`,
      {
        "test/argv.test.js": `${ARGV_TEST(args)}
test('argv is the command line', () => {
  expect(leaked).toBe(false);
  expect(seen).toBe(want);
  expect(process.argv[1]).toMatch(/jest/);
});
test('no colour setting of Retrace in the environment', () => {
  // commander's tests set FORCE_COLOR=1 and expect colour: a NO_COLOR of Retrace's denied it.
  expect([process.env.NO_COLOR, process.env.FORCE_COLOR]).toEqual([undefined, undefined]);
});
`,
      },
      jestDirs,
    );
    expect(r.reportFound, why(r)).toBe(true);
    expect(outcomeOf(r, "argv is the command line"), why(r)).toBe("passed");
    expect(outcomeOf(r, "no colour setting"), why(r)).toBe("passed");
    expect(r.complete, why(r)).toBe(true);
  }, 400_000);

  it("mocha: process.argv is the command's, and neither --reporter spec nor a .mocharc reporter stops the report", async () => {
    const args = ["--reporter", "spec", "--check-leaks", "test/argv.test.js"];
    const r = await run(
      "mocha-range",
      "mocha",
      `npx mocha ${args.join(" ")}`,
      {
        ".mocharc.json": JSON.stringify({ reporter: "dot", "reporter-option": ["output=elsewhere.xml"] }),
        "test/argv.test.js": `${ARGV_TEST(args)}
const assert = require('node:assert');
it('argv is the command line', () => {
  assert.strictEqual(leaked, false, seen);
  assert.strictEqual(seen, want);
});
`,
      },
      mochaDirs,
    );
    expect(r.reportFound, why(r)).toBe(true);
    expect(outcomeOf(r, "argv is the command line"), why(r)).toBe("passed");
    expect(r.complete, why(r)).toBe(true);
  }, 400_000);

  it("mocha with a node flag (a child mocha process): the tests still see no Retrace option", async () => {
    const r = await run(
      "mocha-range",
      "mocha",
      "npx mocha --no-warnings test/argv.test.js",
      {
        "test/argv.test.js": `${ARGV_TEST([])}
const assert = require('node:assert');
it('no retrace option in argv', () => {
  assert.strictEqual(leaked, false, JSON.stringify(process.argv));
});
`,
      },
      mochaDirs,
    );
    expect(r.reportFound, why(r)).toBe(true);
    expect(outcomeOf(r, "no retrace option in argv"), why(r)).toBe("passed");
  }, 400_000);

  it("vitest: the tests' process sees no Retrace option; the command's --reporter and --outputFile do not stop the report", async () => {
    const r = await run(
      "vitest-words",
      "vitest",
      "npx vitest run --reporter=verbose --outputFile=mine.json test/argv.test.js",
      {
        "test/argv.test.js": `${ARGV_TEST([])}
import { expect, test } from 'vitest';
test('no retrace option in argv', () => {
  expect(leaked, JSON.stringify(process.argv)).toBe(false);
});
`,
      },
      vitestDirs,
    );
    expect(r.reportFound, why(r)).toBe(true);
    expect(outcomeOf(r, "no retrace option in argv"), why(r)).toBe("passed");
  }, 400_000);

  it("node --test: the test files' processes get none of Retrace's options; the command's own reporter does not break the run", async () => {
    const r = await run("js-units", "node-test", "node --test --test-reporter=spec test/argv.test.js", {
      "test/argv.test.js": `${ARGV_TEST([])}
const test = require('node:test');
const assert = require('node:assert');
test('no retrace option in argv', () => {
  assert.strictEqual(leaked, false, JSON.stringify(process.argv.concat(process.execArgv)));
});
`,
    });
    expect(r.reportFound, why(r)).toBe(true);
    expect(outcomeOf(r, "no retrace option in argv"), why(r)).toBe("passed");
  }, 400_000);

  it("pytest: sys.argv holds nothing of Retrace's; the command's own --junitxml does not take the report", async () => {
    const r = await run("py-prices", "pytest", "python3 -m pytest --junitxml=mine.xml tests/test_argv.py", {
      "tests/test_argv.py": `import sys


def test_argv_is_the_command_line():
    # The command's own --junitxml is dropped (Retrace's report takes its place); nothing of Retrace's is added.
    assert sys.argv[1:] == ["tests/test_argv.py"], sys.argv
`,
    });
    expect(r.reportFound, why(r)).toBe(true);
    expect(outcomeOf(r, "test_argv_is_the_command_line"), why(r)).toBe("passed");
    expect(r.complete, why(r)).toBe(true);
  }, 400_000);

  it("pytest: os.environ holds nothing of Retrace's either (conftest, tests, a process a test starts), and the report is written", async () => {
    const r = await run("py-prices", "pytest", "python3 -m pytest tests/test_env.py", {
      "tests/conftest.py": `import os

SEEN_AT_CONFTEST = os.environ.get("PYTEST_ADDOPTS")
`,
      "tests/test_env.py": `import os
import subprocess
import sys

from conftest import SEEN_AT_CONFTEST


def settings():
    # Code that reads its settings from the environment behaves as in CI only if Retrace adds nothing there
    # (PYTEST_CURRENT_TEST is pytest's own, set in CI too).
    return {k: v for k, v in os.environ.items() if k.startswith("PYTEST") and k != "PYTEST_CURRENT_TEST"}


def test_environment_is_the_commands():
    assert SEEN_AT_CONFTEST is None, SEEN_AT_CONFTEST
    assert settings() == {}, settings()


def test_child_process_environment():
    out = subprocess.run(
        [sys.executable, "-c", "import os; print(os.environ.get('PYTEST_ADDOPTS'))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    assert out == "None", out
`,
    });
    expect(r.reportFound, why(r)).toBe(true);
    expect(outcomeOf(r, "test_environment_is_the_commands"), why(r)).toBe("passed");
    expect(outcomeOf(r, "test_child_process_environment"), why(r)).toBe("passed");
    expect(r.complete, why(r)).toBe(true);
  }, 400_000);
});
