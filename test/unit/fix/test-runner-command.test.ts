import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  andSteps,
  describeCommand,
  detectTestCommand,
  frameworkOf,
} from "../../../src/fix/test-runner/detect.ts";
import { filterCommand, splitGoId } from "../../../src/fix/test-runner/filter.ts";
import {
  buildInvocation,
  pytestEnvScrub,
  setupFailedMarker,
} from "../../../src/fix/test-runner/invocation.ts";
import { readResults } from "../../../src/fix/test-runner/results.ts";
import { createFsWorkspace } from "../../../src/git/fs-workspace.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";
import { cpuMs } from "../../support/cpu-time.ts";

describe("frameworkOf", () => {
  it.each([
    ["pytest -q", "pytest"],
    ["python3 -m pytest tests/", "pytest"],
    ["node --test", "node-test"],
    ["node --experimental-vm-modules --test test/", "node-test"],
    ["jest --coverage", "jest"],
    ["npx vitest run", "vitest"],
    ["./node_modules/.bin/mocha 'test/**/*.js'", "mocha"],
    ["go test ./...", "go"],
    ["cargo test --all", "cargo"],
    ["make check", "unknown"],
  ])("%s → %s", (command, framework) => {
    expect(frameworkOf(command)).toBe(framework);
  });
});

describe("detectTestCommand", () => {
  it("prefers package.json scripts.test and names the framework", async () => {
    const ws = memoryWorkspace({
      "package.json": JSON.stringify({ scripts: { test: "vitest run" } }),
      "test_x.py": "",
    });
    expect(await detectTestCommand(ws)).toEqual({
      framework: "vitest",
      command: "vitest run",
      detectedBy: "package.json scripts.test (vitest)",
    });
  });

  it("ignores npm's placeholder script and finds pytest from configuration or test files", async () => {
    const placeholder = JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } });
    expect(
      await detectTestCommand(memoryWorkspace({ "package.json": placeholder, "pytest.ini": "[pytest]\n" })),
    ).toEqual({ framework: "pytest", command: "python3 -m pytest", detectedBy: "pytest.ini" });
    expect(
      (
        await detectTestCommand(
          memoryWorkspace({ "pyproject.toml": "[tool.pytest.ini_options]\n", "a.py": "" }),
        )
      ).detectedBy,
    ).toBe("pyproject.toml");
    expect(
      (
        await detectTestCommand(
          memoryWorkspace({ "pyproject.toml": "[project]\n", "pkg/tests/test_a.py": "" }),
        )
      ).detectedBy,
    ).toBe("Python test files (pkg/tests/test_a.py)");
  });

  it("finds go, cargo and bare node:test files", async () => {
    expect((await detectTestCommand(memoryWorkspace({ "go.mod": "module x\n" }))).command).toBe(
      "go test ./...",
    );
    expect((await detectTestCommand(memoryWorkspace({ "Cargo.toml": "[package]\n" }))).command).toBe(
      "cargo test",
    );
    expect(await detectTestCommand(memoryWorkspace({ "lib/a.js": "", "lib/a.test.js": "" }))).toMatchObject({
      framework: "node-test",
      command: "node --test",
    });
  });

  it("explains what to do when nothing is found or package.json is broken", async () => {
    await expect(detectTestCommand(memoryWorkspace({ "README.md": "" }))).rejects.toThrow(
      /could not detect how this repository runs its tests/,
    );
    await expect(detectTestCommand(memoryWorkspace({ "package.json": "{nope" }))).rejects.toThrow(
      /package.json is not valid JSON/,
    );
  });

  it("detects the fixture repositories", async () => {
    const py = await createFsWorkspace(path.resolve("test/fixtures/repos/py-stats"));
    expect(await detectTestCommand(py)).toMatchObject({ framework: "pytest", detectedBy: "pytest.ini" });
    const js = await createFsWorkspace(path.resolve("test/fixtures/repos/js-duration"));
    expect(await detectTestCommand(js)).toMatchObject({ framework: "node-test", command: "node --test" });
  });
});

describe("describeCommand", () => {
  it("resolves npm test to scripts.test so reporter flags reach the framework", async () => {
    const ws = memoryWorkspace({ "package.json": JSON.stringify({ scripts: { test: "jest --runInBand" } }) });
    expect(await describeCommand(ws, "npm test", "--test")).toEqual({
      framework: "jest",
      command: "jest --runInBand",
      detectedBy: "--test → package.json scripts.test",
    });
    await expect(describeCommand(memoryWorkspace({}), "npm test", "--test")).rejects.toThrow(
      /no scripts.test/,
    );
    await expect(describeCommand(memoryWorkspace({}), "  ", "--test")).rejects.toThrow(/empty/);
  });
});

describe("buildInvocation", () => {
  const cmd = (framework: Parameters<typeof filterCommand>[0]["framework"], command: string) => ({
    framework,
    command,
    detectedBy: "test",
  });

  it("adds a report file with an unguessable name for file reporters", () => {
    expect(buildInvocation(cmd("pytest", "python3 -m pytest -q"), "n1")).toEqual({
      script: "python3 -m pytest -q",
      env: { PYTEST_ADDOPTS: "-p no:cacheprovider --junitxml=.retrace-report-n1.xml -o junit_family=xunit1" },
      reportFile: ".retrace-report-n1.xml",
      format: "junit",
      files: pytestEnvScrub("n1"),
    });
    // The plug-in that takes PYTEST_ADDOPTS out of os.environ once pytest read it, in each Python's user site.
    const scrub = pytestEnvScrub("n1");
    expect(scrub[".retrace-python/lib/python3.11/site-packages/retrace_env_n1.py"]).toContain(
      'del os.environ["PYTEST_ADDOPTS"]',
    );
    expect(
      scrub[".retrace-python/lib/python3.11/site-packages/retrace_env_n1-0.dist-info/entry_points.txt"],
    ).toBe("[pytest11]\nretrace_env_n1 = retrace_env_n1\n");
    expect(buildInvocation(cmd("node-test", "node --test test/"), "n2")).toMatchObject({
      script: "node --test --test-reporter=tap --test-reporter-destination=.retrace-report-n2.tap test/",
      reportFile: ".retrace-report-n2.tap",
      format: "tap",
    });
    expect(buildInvocation(cmd("vitest", "vitest"), "n4").script).toBe(
      "vitest run --reporter=junit --outputFile=.retrace-report-n4.xml",
    );
  });

  it("starts jest and mocha through a launcher, so that the reporter flags never reach process.argv", () => {
    const jest = buildInvocation(cmd("jest", "jest --runInBand"), "n3");
    expect(jest.script).toBe("node /workspace/.retrace-run-n3.cjs --runInBand");
    expect(jest.reportFile).toBe(".retrace-report-n3.json");
    expect(Object.keys(jest.files)).toEqual([".retrace-run-n3.cjs"]);
    expect(jest.files[".retrace-run-n3.cjs"]).toContain('"/workspace/.retrace-report-n3.json"');
    const mocha = buildInvocation(cmd("mocha", "mocha test/"), "n5");
    expect(mocha.script).toBe("node /workspace/.retrace-run-n5.cjs test/");
    expect(Object.keys(mocha.files).sort()).toEqual([".retrace-argv-n5.cjs", ".retrace-run-n5.cjs"]);
    expect(mocha.files[".retrace-run-n5.cjs"]).toContain('"/workspace/.retrace-argv-n5.cjs"');
    // Every way a command names the runner: the bin word and what starts it are replaced, the rest kept.
    const script = (framework: "jest" | "mocha", c: string) => buildInvocation(cmd(framework, c), "n").script;
    expect(script("jest", "npx jest -t 'a b' test/x.test.js")).toBe(
      "node /workspace/.retrace-run-n.cjs -t 'a b' test/x.test.js",
    );
    expect(script("jest", "npx --no-install jest")).toBe("node /workspace/.retrace-run-n.cjs");
    expect(script("jest", "yarn jest --ci")).toBe("node /workspace/.retrace-run-n.cjs --ci");
    expect(script("jest", "cd pkg && TZ=UTC ./node_modules/.bin/jest")).toBe(
      "cd pkg && TZ=UTC node /workspace/.retrace-run-n.cjs",
    );
    expect(script("jest", "node --experimental-vm-modules node_modules/.bin/jest")).toBe(
      "node --experimental-vm-modules /workspace/.retrace-run-n.cjs",
    );
    expect(script("mocha", "npx mocha --reporter spec --bail --check-leaks test/")).toBe(
      "node /workspace/.retrace-run-n.cjs --reporter spec --bail --check-leaks test/",
    );
    expect(script("mocha", "pnpm exec mocha")).toBe("node /workspace/.retrace-run-n.cjs");
  });

  it("drops a user's own report option that would take the place of Retrace's", () => {
    expect(buildInvocation(cmd("pytest", "pytest --junitxml=out/junit.xml -q tests/"), "n").script).toBe(
      "pytest -q tests/",
    );
    expect(buildInvocation(cmd("pytest", "python -m pytest --junit-xml 'a b.xml' tests/"), "n").script).toBe(
      "python -m pytest tests/",
    );
    expect(
      buildInvocation(cmd("node-test", "node --test --test-reporter=spec --test-reporter dot test/"), "n")
        .script,
    ).toBe("node --test --test-reporter=tap --test-reporter-destination=.retrace-report-n.tap test/");
    expect(
      buildInvocation(cmd("vitest", "vitest run --reporter=verbose --outputFile=x.json"), "n").script,
    ).toBe("vitest run --reporter=junit --outputFile=.retrace-report-n.xml --reporter=verbose");
  });

  it("reads go and cargo from stdout, and anything else best-effort", () => {
    expect(buildInvocation(cmd("go", "go test ./..."), "n")).toMatchObject({
      script: "go test -json ./...",
      reportFile: null,
    });
    expect(buildInvocation(cmd("cargo", "cargo test"), "n")).toMatchObject({
      format: "cargo",
      reportFile: null,
    });
    expect(buildInvocation(cmd("unknown", "make check"), "n")).toMatchObject({
      script: "make check",
      format: "auto",
    });
  });
});

const hasPython = (() => {
  try {
    execFileSync("python3", ["-c", "print(1)"]);
    return true;
  } catch {
    return false;
  }
})();

describe("python -m unittest through a launcher (hold5: a passing run named no test)", () => {
  const cmd = (framework: Parameters<typeof filterCommand>[0]["framework"], command: string) => ({
    framework,
    command,
    detectedBy: "--test",
  });
  it("replaces `python3 -m unittest` by the launcher, arguments kept; other commands unchanged", () => {
    const inv = buildInvocation(
      cmd("unknown", "cd app && python3 -m unittest tests.test_split -k remainder"),
      "n",
    );
    expect(inv).toMatchObject({
      script: "cd app && python3 /workspace/.retrace-run-n.py tests.test_split -k remainder",
      format: "auto",
      reportFile: null,
    });
    expect(Object.keys(inv.files)).toEqual([".retrace-run-n.py"]);
    expect(buildInvocation(cmd("unknown", "python -m unittest"), "n").script).toBe(
      "python /workspace/.retrace-run-n.py",
    );
    expect(buildInvocation(cmd("unknown", "python3 -m unittestx"), "n").files).toEqual({});
    expect(buildInvocation(cmd("unknown", "python3 -m pytest_unittest"), "n").files).toEqual({});
  });

  it.skipIf(!hasPython)(
    "a passing run lists every test by id; the code sees the argv of `-m unittest`",
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), "ut-"));
      try {
        mkdirSync(path.join(dir, "tests"));
        writeFileSync(path.join(dir, "tests", "__init__.py"), "");
        writeFileSync(
          path.join(dir, "tests", "test_a.py"),
          [
            "import os, sys, unittest",
            "class A(unittest.TestCase):",
            "    def test_argv(self):",
            "        self.assertEqual(sys.argv[1:], ['tests.test_a'])",
            "        self.assertTrue(sys.argv[0].endswith(' -m unittest'))",
            "        self.assertEqual(sys.path[0], os.getcwd())",
            "    def test_other(self):",
            "        self.assertEqual(1 + 1, 2)",
            "",
          ].join("\n"),
        );
        const inv = buildInvocation(cmd("unknown", "python3 -m unittest tests.test_a"), "n");
        for (const [f, text] of Object.entries(inv.files)) writeFileSync(path.join(dir, f), text);
        const script = inv.script.replace("/workspace/", `${dir}/`);
        let out = "";
        try {
          out = execFileSync("sh", ["-c", `${script} 2>&1`], { cwd: dir, encoding: "utf8" });
        } catch (e) {
          out = String((e as { stdout?: string }).stdout ?? e);
        }
        expect(readResults("auto", out)).toEqual([
          expect.objectContaining({ id: "tests.test_a.A.test_argv", outcome: "passed" }),
          expect.objectContaining({ id: "tests.test_a.A.test_other", outcome: "passed" }),
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("filterCommand", () => {
  const base = (framework: Parameters<typeof filterCommand>[0]["framework"], command: string) => ({
    framework,
    command,
    detectedBy: "pytest.ini",
  });

  it("reruns pytest node ids, quoted", () => {
    const out = filterCommand(base("pytest", "python3 -m pytest"), [
      "tests/test_a.py::test_x",
      "tests/test_a.py::test_p[1-2]",
      "tests/test_a.py::test_x",
    ]);
    expect(out.command).toBe("python3 -m pytest tests/test_a.py::test_x 'tests/test_a.py::test_p[1-2]'");
    expect(out.detectedBy).toBe("pytest.ini, filtered to 2 tests");
  });

  it("builds name patterns for JS runners", () => {
    expect(filterCommand(base("node-test", "node --test"), ["formatDuration > formats hours"]).command).toBe(
      "node --test --test-name-pattern='^(?:formatDuration|formats hours)$'",
    );
    expect(filterCommand(base("jest", "jest"), ["src/a.test.ts > math > adds (1+1)"]).command).toBe(
      "jest src/a.test.ts -t '^(?:math adds \\(1\\+1\\))$'",
    );
    expect(filterCommand(base("vitest", "vitest"), ["a.test.ts > x"]).command).toBe(
      "vitest run a.test.ts -t '^ ?(?:x)$'",
    );
    expect(filterCommand(base("mocha", "mocha"), ["suite > it's"]).command).toBe(
      `mocha --grep '^(?:suite it'\\''s)$'`,
    );
  });

  it("uses -run for go and exact names for cargo", () => {
    expect(splitGoId("example.com/m/pkg.TestAdd/sub")).toEqual({ pkg: "example.com/m/pkg", test: "TestAdd" });
    expect(
      filterCommand(base("go", "go test ./..."), ["example.com/m/pkg.TestAdd", "example.com/m/pkg.TestSub/x"])
        .command,
    ).toBe("go test -run '^(?:TestAdd|TestSub)$' example.com/m/pkg");
    expect(filterCommand(base("cargo", "cargo test"), ["tests::adds"]).command).toBe(
      "cargo test -- --exact tests::adds",
    );
  });

  it("refuses an empty list and unknown runners", () => {
    expect(() => filterCommand(base("pytest", "pytest"), [])).toThrow(/no test ids/);
    expect(() => filterCommand(base("unknown", "make check"), ["x"])).toThrow(/cannot rerun single tests/);
  });
});

describe("the runner behind a JS wrapper", () => {
  const pkg = (scripts: Record<string, string>, dev: Record<string, string>) =>
    memoryWorkspace({ "package.json": JSON.stringify({ scripts, devDependencies: dev }) });

  it("runs the one declared runner directly, saying where it came from (npx wrapper or scripts.test)", async () => {
    const ws = pkg({ test: "ts-scripts test" }, { "@borderless/ts-scripts": "^0.15", vitest: "^3" });
    const given = await describeCommand(ws, "npx ts-scripts specs", "--test");
    expect(given).toMatchObject({ framework: "vitest", command: "npx vitest run" });
    expect(given.detectedBy).toMatch(/`npx ts-scripts specs` wraps the test runner.*\(vitest\)/);
    const detected = await detectTestCommand(ws);
    expect(detected).toMatchObject({ framework: "vitest", command: "npx vitest run" });
    expect(detected.detectedBy).toMatch(/^package\.json scripts\.test: `ts-scripts test` wraps/);
    expect(
      await describeCommand(pkg({ test: "kcd-scripts test" }, { jest: "^29" }), "npm test", "--test"),
    ).toMatchObject({ framework: "jest", command: "npx jest" });
  });

  it("keeps the command as given when the runner is ambiguous, absent, or the command is not a JS launcher", async () => {
    const both = pkg({ test: "ts-scripts test" }, { vitest: "^3", jest: "^29" });
    expect((await describeCommand(both, "npx ts-scripts specs", "--test")).framework).toBe("unknown");
    const none = pkg({ test: "ts-scripts test" }, { typescript: "^5" });
    expect((await describeCommand(none, "npx ts-scripts specs", "--test")).framework).toBe("unknown");
    const vitest = pkg({ "test:unit": "vitest run --dir unit" }, { vitest: "^3" });
    expect(await describeCommand(vitest, "make test", "--test")).toMatchObject({
      framework: "unknown",
      command: "make test",
    });
  });
});

describe("package-manager invocations of scripts and binaries (no yarn or pnpm in the sandbox)", () => {
  const ws = memoryWorkspace({
    "package.json": JSON.stringify({
      scripts: {
        test: "yarn lint && yarn test-all --runInBand",
        testonly: "jest",
        "test-all": "yarn testonly --projects ./a.json",
        "test:unit": "vitest run --dir unit",
      },
    }),
  });

  it("expands yarn/pnpm/npm script invocations, nested, with their extra arguments", async () => {
    expect(await describeCommand(ws, "yarn testonly", "--test")).toEqual({
      framework: "jest",
      command: "jest",
      detectedBy: "--test → package.json scripts.testonly",
    });
    expect(await describeCommand(ws, "yarn test-all --ci", "--test")).toMatchObject({
      framework: "jest",
      command: "jest --projects ./a.json --ci",
      detectedBy: "--test → package.json scripts.test-all → scripts.testonly",
    });
    expect(await describeCommand(ws, "npm run test:unit -- --reporter dot", "--test")).toMatchObject({
      framework: "vitest",
      command: "vitest run --dir unit --reporter dot",
    });
    expect(await describeCommand(ws, "CI=1 pnpm run testonly", "--test")).toMatchObject({
      command: "CI=1 jest",
    });
  });

  it("runs a binary yarn or pnpm would run from node_modules/.bin; leaves installs and npm's own commands", async () => {
    expect(await describeCommand(ws, "pnpm exec vitest run", "--test")).toMatchObject({
      framework: "vitest",
      command: "vitest run",
      detectedBy: "--test → the package's own binary (node_modules/.bin)",
    });
    expect(await describeCommand(ws, "yarn mocha test/", "--test")).toMatchObject({ command: "mocha test/" });
    expect((await describeCommand(ws, "yarn install", "--test")).command).toBe("yarn install");
    expect((await describeCommand(ws, "npm ci", "--test")).command).toBe("npm ci");
    expect((await describeCommand(ws, "npm run nope", "--test")).command).toBe("npm run nope");
  });
});

describe("frameworkOf on hostile scripts (fourth red team)", () => {
  it("reads `node … --test` as before, in time linear in the command", () => {
    for (const [command, framework] of [
      ["node --test", "node-test"],
      ["node --import tsx --test=spec test/", "node-test"],
      ["cross-env X=1 node  a b\t--test", "node-test"],
      ["cd x && node --test", "node-test"],
      ["nodex --test", "unknown"],
      ["node --testing", "unknown"],
      ["node a.js; echo --testx", "unknown"],
    ] as const)
      expect(frameworkOf(command), command).toBe(framework);
    const { ms } = cpuMs(() => {
      expect(frameworkOf("node ".repeat(250_000))).toBe("unknown");
      expect(frameworkOf(`${"node ".repeat(250_000)}--test`)).toBe("node-test");
    });
    // The one pattern took hours on the first; both take milliseconds now.
    expect(ms).toBeLessThan(1_000);
  });
});

describe("a test command that builds first: the build is the setup of every run", () => {
  const ws = memoryWorkspace({
    "package.json": JSON.stringify({
      scripts: {
        build: "esbuild --bundle --outfile=index.js lib/index.js",
        prebuild: "npm run clean",
        clean: "rm -rf index.js coverage/",
        "test-node": "c8 --check-coverage mocha --require ./test/bootstrap.js test/*.js",
        test: "npm run test-node",
        pretest: "npm run build",
        posttest: "npm run lint",
        lint: "eslint lib/",
        "test:tape": "tape test/*.js",
      },
    }),
  });

  it("splits at the top-level && only (quotes, parentheses and braces hold theirs)", () => {
    expect(andSteps("npm run build && npm run test-node")).toEqual(["npm run build", "npm run test-node"]);
    expect(andSteps(`sh -c 'a && b' && (c && d) && { e && f; } && g "h && i"`)).toEqual([
      "sh -c 'a && b'",
      "(c && d)",
      "{ e && f; }",
      'g "h && i"',
    ]);
  });

  it("`npm run build && npm run test-node`: the build (with npm's prebuild) first, mocha is the test step", async () => {
    expect(await describeCommand(ws, "npm run build && npm run test-node", "--test")).toEqual({
      framework: "mocha",
      command: "c8 --check-coverage mocha --require ./test/bootstrap.js test/*.js",
      setup: "rm -rf index.js coverage/ && esbuild --bundle --outfile=index.js lib/index.js",
      detectedBy:
        "--test → package.json scripts.build → scripts.clean → scripts.test-node; the tests run after `rm -rf index.js coverage/ && esbuild --bundle --outfile=index.js lib/index.js`",
    });
  });

  it("`npm test` with a pretest script: the pretest is the setup, the posttest (after the tests) is left out", async () => {
    const r = await describeCommand(ws, "npm test", "--test");
    expect(r).toMatchObject({
      framework: "mocha",
      command: "c8 --check-coverage mocha --require ./test/bootstrap.js test/*.js",
      setup: "rm -rf index.js coverage/ && esbuild --bundle --outfile=index.js lib/index.js",
    });
    // Detection without --test reads the same.
    expect(await detectTestCommand(ws)).toMatchObject({ framework: "mocha", setup: r.setup });
  });

  it("an unknown runner after a build: the last step is the test step; a prefix stays with its own step", async () => {
    expect(await describeCommand(ws, "tsc -p . && node dist/run-tests.js", "--test")).toMatchObject({
      framework: "unknown",
      command: "node dist/run-tests.js",
      setup: "tsc -p .",
    });
    expect(
      await describeCommand(ws, "NODE_ENV=ci npm run build && npm run test:tape", "--test"),
    ).toMatchObject({
      command: "tape test/*.js",
      setup:
        "NODE_ENV=ci rm -rf index.js coverage/ && NODE_ENV=ci esbuild --bundle --outfile=index.js lib/index.js",
    });
  });

  it("stays one command when a step other than a post script follows the test step, or there is one step", async () => {
    expect(await describeCommand(ws, "mocha test/ && npm run lint", "--test")).toEqual({
      framework: "mocha",
      command: "mocha test/ && npm run lint",
      detectedBy: "--test",
    });
    expect((await describeCommand(ws, "npm run test:tape", "--test")).setup).toBeUndefined();
    expect((await describeCommand(memoryWorkspace({}), "pytest -q", "--test")).setup).toBeUndefined();
  });

  it("the run's script makes the setup first, its output kept out of the tests' output, its failure marked", () => {
    const inv = buildInvocation(
      { framework: "mocha", command: "mocha test/", setup: "npm run build", detectedBy: "t" },
      "n9",
    );
    const [first, second, ...rest] = inv.script.split("\n");
    expect(first).toBe("{ npm run build");
    expect(second).toBe(
      `} > /tmp/.retrace-setup-n9.log 2>&1 || { rc=$?; echo "${setupFailedMarker("n9")} $rc" >&2; tail -n 40 /tmp/.retrace-setup-n9.log >&2; exit $rc; }`,
    );
    expect(rest.join("\n")).toMatch(/^node \/workspace\/\.retrace-run-n9\.cjs test\/$/);
  });
});
