/**
 * Bypasses of the gate proven by an audit (each case was allowed before the fix): test files the globs missed,
 * test-runner configuration, weakened tests that still passed with allowTestEdits, bare pytest skips, code that
 * detects a test run, exit hooks, and a diff smuggled after a format-patch signature.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines, create, modify, rulesOf, violationsOf } from "../helpers.ts";

const tests = { allowTestEdits: true };
const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/patches/${name}`, import.meta.url), "utf8");

describe("test file globs", () => {
  it.each([
    "app/tests.py",
    "src/tests.rs",
    "pkg/parse_tests.py",
    "src/app.e2e-spec.ts",
    "cypress/login.cy.ts",
    "specs/parse.py",
    "e2e/login.ts",
    "src/main/java/TestParser.java",
    "src/x/ParserTestCase.java",
    "src/it/java/ParserIT.java",
  ])("%s is a test file (forbidden without allowTestEdits)", (path) => {
    const v = violationsOf(addLines(path, ["x = 1"]), "forbidden-paths");
    expect(v.map((x) => x.message)).toEqual([expect.stringMatching(/^test file may not be changed/)]);
  });

  it.each(["src/Commit.java", "docs/api-spec.yaml", "src/testing_utils_x.go", "src/main/java/Edit.java"])(
    "%s is not a test file",
    (path) => {
      expect(violationsOf(addLines(path, ["x = 1"]), "forbidden-paths")).toEqual([]);
    },
  );

  it("checks inline Rust tests in src/lib.rs (removed assertion)", () => {
    const patch = modify(
      "src/lib.rs",
      'pub fn parse() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {\n        assert_eq!(parse("x"), 3);\n    }\n}\n',
      "pub fn parse() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn parses() {\n    }\n}\n",
    );
    expect(violationsOf(patch, "weakened-tests")[0]!.message).toMatch(/removes 1 assertion/);
    expect(violationsOf(patch, "weakened-tests", { weakenedTests: { inlineTests: false } })).toEqual([]);
  });

  it("leaves Rust hunks without test context alone", () => {
    const patch = modify(
      "src/lib.rs",
      "fn check(x: u8) {\n    assert!(x > 1);\n}\n",
      "fn check(x: u8) {\n    let _ = x;\n}\n",
    );
    expect(violationsOf(patch, "weakened-tests")).toEqual([]);
  });
});

describe("test-infrastructure", () => {
  it.each([
    ["vitest.config.ts", 'export default { test: { exclude: ["**/parser.test.ts"] } };'],
    ["jest.config.js", 'module.exports = { testMatch: ["**/src/**/*.test.js"] };'],
    ["vite.config.ts", '    setupFiles: ["./src/setup.ts"],'],
    ["babel.config.js", 'module.exports = { plugins: ["./tools/strip-expect.js"] };'],
    ["pytest.ini", "python_functions = check_*"],
    ["tox.ini", "addopts = -p src.pkg.plugin"],
    ["tests/conftest.py", "import pytest"],
    ["sitecustomize.py", "unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None"],
    ["src/zz_hack.pth", "import builtins"],
    ["__mocks__/lodash.js", "module.exports = { get: () => 42 };"],
    [".mocharc.yml", "require: ./src/hack.js"],
    [".babelrc", '{ "plugins": [] }'],
    // Red team 24: other files that decide what a test command runs.
    [".pytest.ini", "addopts = --deselect tests/test_auth.py::test_denies"],
    ["pytest.toml", 'addopts = ["--deselect", "tests/test_auth.py::test_denies"]'],
    [".pnpmfile.cjs", "module.exports = { hooks: { readPackage: (p) => p } };"],
    ["bunfig.toml", 'preload = ["./src/pass.ts"]'],
    [".taprc", "exclude: [test/auth.test.js]"],
    ["deno.json", '{ "test": { "exclude": ["src/auth_test.ts"] } }'],
    [".cargo/config.toml", 'test = "check"'],
    ["phpunit.xml.dist", "<directory>src/none</directory>"],
    [".rspec", "--exclude-pattern spec/auth_spec.rb"],
    ["Makefile", "\ttrue"],
    ["pkg/justfile", "    true"],
    ["Taskfile.yml", "      - 'true'"],
  ])("blocks %s", (path, line) => {
    const v = violationsOf(addLines(path, [line]), "test-infrastructure");
    expect(v).toHaveLength(1);
    expect(v[0]!.message).toMatch(/test-runner configuration may not be changed.*allowTestEdits/);
    expect(violationsOf(addLines(path, [line]), "test-infrastructure", tests)).toEqual([]);
  });

  it("blocks [tool.pytest.ini_options] in pyproject.toml, not [project]", () => {
    const pytest = modify(
      "pyproject.toml",
      '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      '[tool.pytest.ini_options]\ntestpaths = ["tests"]\naddopts = "-k \'test_ok\'"\n',
    );
    expect(violationsOf(pytest, "test-infrastructure")[0]).toMatchObject({
      line: 3,
      message: expect.stringMatching(/\[tool\.pytest\.ini_options\] of pyproject\.toml/),
    });
    const project = modify("pyproject.toml", '[project]\nname = "x"\n', '[project]\nname = "y"\n');
    expect(violationsOf(project, "test-infrastructure")).toEqual([]);
  });

  it("blocks a pytest11 entry point in setup.cfg [options.entry_points], not [metadata] (red team 24)", () => {
    const plugin = modify(
      "setup.cfg",
      "[metadata]\nname = app\n",
      "[metadata]\nname = app\n\n[options.entry_points]\npytest11 =\n    quiet = app.quiet\n",
    );
    expect(violationsOf(plugin, "test-infrastructure")[0]!.message).toMatch(
      /\[options\.entry_points\] of setup\.cfg/,
    );
    expect(
      violationsOf(
        modify("setup.cfg", "[metadata]\nname = a\n", "[metadata]\nname = b\n"),
        "test-infrastructure",
      ),
    ).toEqual([]);
    expect(violationsOf(addLines("src/make.py", ["x = 1"]), "test-infrastructure")).toEqual([]);
  });

  it.each([
    ["pytest.py", "import sys; sys.exit(0)"],
    ["pytest/__main__.py", "raise SystemExit(0)"],
    ["unittest.py", "def main(): pass"],
    ["tox.toml", 'commands = [["true"]]'],
    ["hatch.toml", 'test = "true"'],
    ["mise.toml", 'run = "true"'],
    [".mvn/maven.config", "-DskipTests"],
    ["Directory.Build.props", "<VSTestTestCaseFilter>Name!~Auth</VSTestTestCaseFilter>"],
    ["test.runsettings", "<RunSettings/>"],
    [".bazelrc", "test --test_tag_filters=-auth"],
    ["Rakefile", "task :test do end"],
    ["jest-preset.js", "module.exports = {}"],
    [".swcrc", "{}"],
    [".coveragerc", "plugins = fake"],
    [".nvmrc", "16"],
    [".python-version", "3.8"],
    [".tool-versions", "nodejs 16.0.0"],
    ["rust-toolchain.toml", 'channel = "1.50"'],
  ])(
    "blocks %s (red team 25: runner shadows, runners' files, redirectors, runtime selectors)",
    (path, line) => {
      const v = violationsOf(addLines(path, [line]), "test-infrastructure");
      expect(v.map((x) => x.message)).toEqual([
        expect.stringMatching(/test-runner configuration may not be changed/),
      ]);
      expect(violationsOf(addLines(path, [line]), "test-infrastructure", tests)).toEqual([]);
    },
  );

  it("leaves a runner's own source alone: pytest's src/_pytest, a src/unittest_helpers.py (red team 25)", () => {
    for (const path of [
      "src/_pytest/python.py",
      "src/pytest/__init__.py",
      "src/unittest_helpers.py",
      "lib/rake.rb",
    ])
      expect(violationsOf(addLines(path, ["x = 1"]), "test-infrastructure")).toEqual([]);
  });

  it.each([
    ["node_modules/.bin/jest", "exit 0"],
    ["vendor/modules.txt", "# example.com/auth v1.0.0"],
    ["vendor/example.com/auth/auth.go", "package auth"],
    ["patches/auth-lib+1.0.0.patch", "+module.exports = () => true;"],
    [".yarn/patches/auth-lib-npm-1.0.0.patch", "+x"],
    ["pnpm-workspace.yaml", "  auth-lib: link:./fake"],
  ])("blocks %s as dependencies themselves (red team 25)", (path, line) => {
    expect(rulesOf(addLines(path, [line]))).toContain("dependency-changes");
  });

  it("blocks task runners' pyproject tables and setuptools' package-dir, not [project] (red team 25)", () => {
    for (const table of [
      "tool.poe.tasks",
      "tool.pdm.scripts",
      "tool.taskipy.tasks",
      "tool.tox",
      "tool.setuptools.package-dir",
    ]) {
      const p = modify(
        "pyproject.toml",
        '[project]\nname = "x"\n',
        `[project]\nname = "x"\n\n[${table}]\ntest = "true"\n`,
      );
      expect(violationsOf(p, "test-infrastructure")[0]!.message).toContain(`[${table}]`);
    }
  });

  it("blocks Cargo test targets and test keys, not [package] or [dependencies] lines (red team 25)", () => {
    const harness = modify(
      "Cargo.toml",
      '[package]\nname = "a"\n',
      '[package]\nname = "a"\n\n[[test]]\nname = "auth"\nharness = false\n',
    );
    expect(violationsOf(harness, "test-infrastructure").length).toBeGreaterThan(0);
    const libTest = modify(
      "Cargo.toml",
      '[lib]\npath = "src/lib.rs"\n',
      '[lib]\npath = "src/lib.rs"\ntest = false\n',
    );
    expect(violationsOf(libTest, "test-infrastructure")[0]!.message).toContain("test = false");
    const name = modify("Cargo.toml", '[package]\nname = "a"\n', '[package]\nname = "b"\n');
    expect(violationsOf(name, "test-infrastructure")).toEqual([]);
  });

  it("blocks Maven's skipTests and Gradle's test block, not a dependency version (red team 25)", () => {
    const pom = modify(
      "pom.xml",
      "<properties>\n</properties>\n",
      "<properties>\n  <skipTests>true</skipTests>\n</properties>\n",
    );
    expect(violationsOf(pom, "test-infrastructure")).toHaveLength(1);
    const gradle = modify(
      "build.gradle",
      "test {\n  useJUnitPlatform()\n}\n",
      "test {\n  useJUnitPlatform()\n  exclude '**/AuthTest*'\n}\n",
    );
    expect(violationsOf(gradle, "test-infrastructure")[0]!.message).toContain("exclude");
    const version = modify(
      "pom.xml",
      "<dependency>\n  <version>1.0</version>\n</dependency>\n",
      "<dependency>\n  <version>1.1</version>\n</dependency>\n",
    );
    expect(violationsOf(version, "test-infrastructure")).toEqual([]);
    const deps = modify(
      "build.gradle",
      "dependencies {\n  implementation 'a:b:1'\n}\n",
      "dependencies {\n  implementation 'a:b:2'\n}\n",
    );
    expect(violationsOf(deps, "test-infrastructure")).toEqual([]);
  });

  it("reads a build file's test block from its base text, and refuses lines whose block the hunk hides (red team 26)", () => {
    const gradleBase = `plugins { id 'java' }\n${"// filler\n".repeat(10)}tasks.withType(Test) {\n${"    // filler\n".repeat(5)}    maxParallelForks = 2\n}\n${"// filler\n".repeat(10)}dependencies {\n${"    // filler\n".repeat(5)}    implementation 'a:b:1'\n}\n`;
    // A line in the test task whose opener is more than three lines above: refused with or without the base text.
    const inTest = modify(
      "build.gradle",
      gradleBase,
      gradleBase.replace("    maxParallelForks = 2\n", "    maxParallelForks = 2\n    exclude '**/Auth*'\n"),
    );
    expect(violationsOf(inTest, "test-infrastructure")).toHaveLength(1);
    const blind = evaluatePatch(inTest);
    expect(blind.violations.find((v) => v.rule === "test-infrastructure")!.message).toContain("opener");
    const known = evaluatePatch(inTest, {}, { sourceFiles: { "build.gradle": gradleBase } });
    expect(known.violations.filter((v) => v.rule === "test-infrastructure")).toHaveLength(1);
    // A dependency line far from its opener: refused blind, allowed once the base text shows the block.
    const dep = modify("build.gradle", gradleBase, gradleBase.replace("'a:b:1'", "'a:b:2'"));
    expect(violationsOf(dep, "test-infrastructure")).toHaveLength(2);
    const depKnown = evaluatePatch(dep, {}, { sourceFiles: { "build.gradle": gradleBase } });
    expect(depKnown.violations.filter((v) => v.rule === "test-infrastructure")).toEqual([]);
    // Maven: any line of surefire's <configuration>, and an element line whose elements the hunk hides.
    const pomBase = `<project>\n  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-surefire-plugin</artifactId>\n        <configuration>\n${"          <!-- filler -->\n".repeat(6)}          <forkCount>1</forkCount>\n        </configuration>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n`;
    const argLine = modify(
      "pom.xml",
      pomBase,
      pomBase.replace(
        "          <forkCount>1</forkCount>\n",
        "          <forkCount>1</forkCount>\n          <argLine>-Dauth=off</argLine>\n",
      ),
    );
    expect(violationsOf(argLine, "test-infrastructure")).toHaveLength(1);
    const argKnown = evaluatePatch(argLine, {}, { sourceFiles: { "pom.xml": pomBase } });
    expect(argKnown.violations.filter((v) => v.rule === "test-infrastructure")[0]!.message).toContain(
      "test plugin",
    );
    const other = pomBase.replace("maven-surefire-plugin", "maven-jar-plugin");
    const jar = modify("pom.xml", other, other.replace("<forkCount>1</forkCount>", "<archive>x</archive>"));
    expect(
      evaluatePatch(jar, {}, { sourceFiles: { "pom.xml": other } }).violations.filter(
        (v) => v.rule === "test-infrastructure",
      ),
    ).toEqual([]);
  });

  it.each([
    ["json.py", "the standard library"],
    ["src/json.py", "the standard library"],
    ["typing/__init__.py", "the standard library"],
    ["pluggy/__init__.py", "the test runner imports"],
    ["src/pytest.py", "the test runner imports"],
    ["pytest_cov/__init__.py", "pytest plugin"],
  ])("blocks a new %s at an import root (red team 26)", (path, why) => {
    expect(violationsOf(create(path, "x = 1\n"), "test-infrastructure")[0]!.message).toContain(why);
  });

  it("leaves modules below a package, and changes to existing ones, alone (red team 26)", () => {
    expect(violationsOf(create("src/app/json.py", "x = 1\n"), "test-infrastructure")).toEqual([]);
    expect(violationsOf(create("app/typing.py", "x = 1\n"), "test-infrastructure")).toEqual([]);
    expect(violationsOf(create("jsonish.py", "x = 1\n"), "test-infrastructure")).toEqual([]);
    expect(violationsOf(modify("src/types.py", "x = 1\n", "x = 2\n"), "test-infrastructure")).toEqual([]);
  });

  it("leaves a new module in a project's own folder named like the standard library, and src/ that is a package (rv20)", () => {
    expect(violationsOf(create("code/utils.py", "x = 1\n"), "test-infrastructure")).toEqual([]);
    expect(violationsOf(create("src/email/sender.py", "x = 1\n"), "test-infrastructure")).toEqual([]);
    expect(violationsOf(create("code/__init__.py", "x = 1\n"), "test-infrastructure")[0]!.message).toContain(
      "the standard library",
    );
    const srcTypes = create("src/types.py", "x = 1\n");
    const inPackage = { treeFiles: ["src/__init__.py", "src/app.py"] };
    expect(
      evaluatePatch(srcTypes, {}, inPackage).violations.filter((v) => v.rule === "test-infrastructure"),
    ).toEqual([]);
    expect(
      evaluatePatch(srcTypes, {}, { treeFiles: ["src/app.py"] }).violations.filter(
        (v) => v.rule === "test-infrastructure",
      )[0]!.message,
    ).toContain("the standard library");
    expect(
      violationsOf(create("pytest_cov/plugin.py", "x = 1\n"), "test-infrastructure")[0]!.message,
    ).toContain("pytest plugin");
  });

  it.each([
    "gradlew",
    "sub/mvnw.cmd",
    "gradle/wrapper/gradle-wrapper.properties",
    ".yarn/releases/yarn-4.1.0.cjs",
    ".yarn/plugins/x.cjs",
    "src/setupTests.ts",
    ".pnp.cjs",
    ".pnp.loader.mjs",
    "src/main/resources/junit-platform.properties",
    "src/main/resources/META-INF/services/org.junit.platform.launcher.PostDiscoveryFilter",
  ])("blocks %s, a wrapper or a file a runner loads by convention (red team 26)", (path) => {
    expect(rulesOf(create(path, "x\n"))).toContain("test-infrastructure");
  });

  it("blocks a file the failing check runs, and only with that check (red team 26)", () => {
    const patch = modify("scripts/run-tests.sh", "pytest tests\n", "pytest tests/test_other.py\n");
    const ruleOf = (check?: string) =>
      evaluatePatch(patch, {}, check === undefined ? {} : { failingCheck: check }).violations.map(
        (v) => v.rule,
      );
    expect(ruleOf("bash scripts/run-tests.sh")).toContain("test-infrastructure");
    expect(ruleOf("./scripts/run-tests.sh --ci")).toContain("test-infrastructure");
    expect(ruleOf("pytest tests")).not.toContain("test-infrastructure");
    expect(ruleOf()).not.toContain("test-infrastructure");
  });

  it("leaves the program a check runs, whose bug a fix is in; still blocks scripts and runners it names (rv20)", () => {
    const ruleOf = (path: string, check: string) =>
      evaluatePatch(modify(path, "x = 1\n", "x = 2\n"), {}, { failingCheck: check }).violations.map(
        (v) => v.rule,
      );
    expect(ruleOf("main.py", "python main.py")).not.toContain("test-infrastructure");
    expect(ruleOf("src/cli.js", "node src/cli.js --help")).not.toContain("test-infrastructure");
    // A build step the check runs before the tests is the build-file rules' to judge (f13r).
    expect(ruleOf("setup.py", "python setup.py build_ext --inplace && pytest")).not.toContain(
      "test-infrastructure",
    );
    expect(ruleOf("build.js", "node build.js && npm test")).not.toContain("test-infrastructure");
    for (const [path, check] of [
      ["run_tests.py", "python run_tests.py"],
      ["tools/check.mjs", "node tools/check.mjs"],
      ["scripts/smoke.py", "python scripts/smoke.py"],
      ["ci/run", "./ci/run"],
      ["manage.py", "python manage.py test"],
    ])
      expect(ruleOf(path!, check!)).toContain("test-infrastructure");
  });

  it("blocks setup.cfg's package_dir and CODEOWNERS anywhere GitHub reads it (red team 26)", () => {
    const cfg = modify(
      "setup.cfg",
      "[options]\npackages = find:\n",
      "[options]\npackages = find:\npackage_dir =\n    = fake\n",
    );
    expect(violationsOf(cfg, "test-infrastructure").length).toBeGreaterThan(0);
    const deps = modify(
      "setup.cfg",
      "[options]\ninstall_requires =\n    a\n",
      "[options]\ninstall_requires =\n    a\n    b\n",
    );
    expect(violationsOf(deps, "test-infrastructure")).toEqual([]);
    for (const p of ["CODEOWNERS", "docs/CODEOWNERS", ".github/CODEOWNERS"])
      expect(rulesOf(modify(p, "* @a\n", "* @b\n"))).toContain("forbidden-paths");
  });

  it("blocks tsconfig extends, moduleSuffixes, customConditions and inline paths; package.json imports (red team 25)", () => {
    for (const line of [
      '  "extends": "./config/base.json",',
      '  "compilerOptions": { "moduleSuffixes": [".fake", ""] },',
      '  "compilerOptions": { "customConditions": ["fake"] },',
      '  "compilerOptions": { "paths": { "a": ["b"] } },',
    ])
      expect(
        violationsOf(modify("tsconfig.json", "{\n}\n", `{\n${line}\n}\n`), "test-infrastructure"),
        line,
      ).toHaveLength(1);
    expect(
      violationsOf(
        modify("tsconfig.json", "{\n}\n", '{\n  "compilerOptions": { "strict": true }\n}\n'),
        "test-infrastructure",
      ),
    ).toEqual([]);
    expect(
      violationsOf(
        modify(
          "package.json",
          '{\n  "name": "a"\n}\n',
          '{\n  "name": "a",\n  "imports": { "#auth": "./fake.js" }\n}\n',
        ),
        "test-infrastructure",
      ),
    ).toHaveLength(1);
  });

  it("blocks [tool:pytest] in setup.cfg, and a pytest key whose section is not visible", () => {
    const cfg = modify(
      "setup.cfg",
      "[tool:pytest]\ntestpaths = tests\n",
      "[tool:pytest]\ntestpaths = tests\nnorecursedirs = tests/unit\n",
    );
    expect(violationsOf(cfg, "test-infrastructure")[0]!.message).toMatch(/\[tool:pytest\] of setup\.cfg/);
    const other = modify("setup.cfg", "[metadata]\nname = x\n", "[metadata]\nname = y\n");
    expect(violationsOf(other, "test-infrastructure")).toEqual([]);
  });

  it("blocks a top-level `jest` key in package.json but not a jest dependency", () => {
    const key = modify(
      "package.json",
      '{\n  "name": "x",\n  "license": "MIT"\n}\n',
      '{\n  "name": "x",\n  "jest": {\n    "testMatch": ["**/nothing/**"]\n  },\n  "license": "MIT"\n}\n',
    );
    expect(violationsOf(key, "test-infrastructure").length).toBeGreaterThanOrEqual(2);
    const dep = modify(
      "package.json",
      '{\n  "devDependencies": {\n    "vitest": "^3.0.0"\n  }\n}\n',
      '{\n  "devDependencies": {\n    "jest": "^29.0.0",\n    "vitest": "^3.0.0"\n  }\n}\n',
    );
    expect(violationsOf(dep, "test-infrastructure")).toEqual([]);
  });

  it("blocks tsconfig `paths`, not other compiler options", () => {
    const paths = modify(
      "tsconfig.json",
      '{\n  "compilerOptions": {\n    "strict": true\n  }\n}\n',
      '{\n  "compilerOptions": {\n    "strict": true,\n    "paths": { "./parser": ["./fake-parser"] }\n  }\n}\n',
    );
    expect(violationsOf(paths, "test-infrastructure").map((v) => v.message)).toEqual([
      expect.stringMatching(/`paths` \(module resolution/),
    ]);
    const target = modify(
      "tsconfig.json",
      '{\n  "compilerOptions": {\n    "target": "es2020"\n  }\n}\n',
      '{\n  "compilerOptions": {\n    "target": "es2022"\n  }\n}\n',
    );
    expect(violationsOf(target, "test-infrastructure")).toEqual([]);
  });

  it("is configurable: files, allow and enabled", () => {
    const patch = addLines("karma.conf.js", ["module.exports = {};"]);
    expect(rulesOf(patch)).toContain("test-infrastructure");
    expect(violationsOf(patch, "test-infrastructure", { testInfrastructure: { files: [] } })).toEqual([]);
    expect(
      violationsOf(patch, "test-infrastructure", { forbiddenPaths: { allow: ["karma.conf.js"] } }),
    ).toEqual([]);
    expect(violationsOf(patch, "test-infrastructure", { testInfrastructure: { enabled: false } })).toEqual(
      [],
    );
  });
});

describe("weakened tests stay blocked with allowTestEdits", () => {
  const py = "tests/test_p.py";
  const weak = (patch: string) => violationsOf(patch, "weakened-tests", tests).map((v) => v.message);

  it.each([
    ['    assert parse("x") >= 0', /loosens/],
    ['    assert isinstance(parse("x"), int)', /loosens/],
    ['    assert parse("x") is not None', /loosens/],
    ['    assert tokens("x") == [3]', /replaces an assertion/],
  ])('`assert parse("x") == 3` → `%s`', (line, re) => {
    const patch = modify(
      py,
      'def test_parse():\n    assert parse("x") == 3\n',
      `def test_parse():\n${line}\n`,
    );
    expect(weak(patch)).toEqual([expect.stringMatching(re)]);
  });

  it("lets a replaced assertion through only when allowed explicitly (loosened stays blocked)", () => {
    const replaced = modify(
      py,
      'def test_parse():\n    assert parse("x") == 3\n',
      'def test_parse():\n    assert tokens("x") == [3]\n',
    );
    const cfg = { ...tests, weakenedTests: { allowReplacedAssertions: true } };
    expect(violationsOf(replaced, "weakened-tests", cfg)).toEqual([]);
    const loosened = modify(
      py,
      'def test_parse():\n    assert parse("x") == 3\n',
      'def test_parse():\n    assert parse("x") >= 0\n',
    );
    expect(violationsOf(loosened, "weakened-tests", cfg)[0]!.message).toMatch(/loosens/);
  });

  it.each([
    [
      "expect(x).toBe(3) → toBeGreaterThan(-1)",
      "src/p.test.ts",
      'it("parses", () => {\n  expect(parse("x")).toBe(3);\n});\n',
      'it("parses", () => {\n  expect(parse("x")).toBeGreaterThan(-1);\n});\n',
      /loosens/,
    ],
    [
      "wrapping an assertion in try/except AssertionError: pass",
      py,
      'def test_parse():\n    assert parse("x") == 3\n',
      'def test_parse():\n    try:\n        assert parse("x") == 3\n    except AssertionError:\n        pass\n',
      /makes a failing assertion pass/,
    ],
    [
      "pytest.raises(Exception) around an assertion",
      py,
      'def test_parse():\n    assert parse("x") == 3\n',
      'def test_parse():\n    with pytest.raises(Exception):\n        assert parse("x") == 3\n',
      /catches any error/,
    ],
    [
      "a test body replaced by `pass`",
      py,
      'def test_parse():\n    assert parse("x") == 3\n',
      "def test_parse():\n    pass\n",
      /removes 1 assertion/,
    ],
    [
      "removing an assertion in one test and adding an unrelated one in another",
      py,
      'def test_parse():\n    assert parse("x") == 3\n\n\n\n\n\n\n\ndef test_other():\n    y = 1\n    z = 2\n',
      "def test_parse():\n    pass\n\n\n\n\n\n\n\ndef test_other():\n    y = 1\n    assert y\n    z = 2\n",
      /removes 1 assertion\(s\) without a replacement in the same test/,
    ],
  ])("blocks %s", (_, path, before, after, message) => {
    expect(weak(modify(path, before, after))).toEqual([expect.stringMatching(message)]);
  });

  it("blocks a bare except / JS catch around an assertion, not around setup", () => {
    const bare = modify(
      py,
      'def test_parse():\n    assert parse("x") == 3\n',
      'def test_parse():\n    try:\n        assert parse("x") == 3\n    except Exception:\n        pass\n',
    );
    expect(weak(bare)).toEqual([expect.stringMatching(/catches the failure of the assertion/)]);
    const js = modify(
      "src/p.test.ts",
      'it("p", () => {\n  expect(parse("x")).toBe(3);\n});\n',
      'it("p", () => {\n  try {\n    expect(parse("x")).toBe(3);\n  } catch {}\n});\n',
    );
    expect(weak(js)).toEqual([expect.stringMatching(/catches the failure/)]);
    const setup = modify(
      py,
      "def test_parse():\n    x = load()\n    assert x == 3\n",
      "def test_parse():\n    try:\n        x = load()\n    except Exception:\n        x = None\n    assert x == 3\n",
    );
    expect(weak(setup)).toEqual([]);
  });

  it.each([
    [
      "tests/test_p.py",
      'def test_parse():\n    assert parse("x") == 3\n',
      'def test_parse():\n    return\n    assert parse("x") == 3\n',
    ],
    [
      "src/p.test.ts",
      'it("p", () => {\n  expect(parse("x")).toBe(3);\n});\n',
      'it("p", () => {\n  return;\n  expect(parse("x")).toBe(3);\n});\n',
    ],
    [
      "p_test.go",
      'func TestParse(t *testing.T) {\n\tif Parse("x") != 3 { t.Fatal("bad") }\n}\n',
      'func TestParse(t *testing.T) {\n\tif true { return }\n\tif Parse("x") != 3 { t.Fatal("bad") }\n}\n',
    ],
  ])("blocks an early return at the top of a test (%s)", (path, before, after) => {
    expect(weak(modify(path, before, after))).toEqual([
      expect.stringMatching(/returns before the rest of the test runs/),
    ]);
  });

  it.each([
    [
      "a return that ends a helper or sits in a branch",
      "def helper(x):\n    y = x\n",
      "def helper(x):\n    if x is None:\n        return 0\n    y = x\n    return y\n",
    ],
    [
      "moving an assertion unchanged and adding new ones",
      "def test_a():\n    x = f()\n    assert x == 2\n",
      "def test_a():\n    assert f() is not None\n    x = f()\n    assert x == 2\n",
    ],
  ])("allows %s", (_, before, after) => {
    expect(weak(modify(py, before, after))).toEqual([]);
  });

  it("blocks conftest hooks that force outcomes, even with allowTestEdits", () => {
    const patch = modify(
      "tests/conftest.py",
      "import pytest\n",
      'import pytest\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    out = yield\n    out.get_result().outcome = "passed"\n',
    );
    const ids = violationsOf(patch, "test-bypass", tests).map((v) => v.message.match(/\[([\w-]+)\]/)?.[1]);
    expect(ids).toEqual(["pytest-hook", "pytest-hook"]);
    const modify_items = addLines("tests/conftest.py", ["def pytest_collection_modifyitems(config, items):"]);
    expect(violationsOf(modify_items, "test-bypass", tests)).toHaveLength(1);
  });
});

describe("bare pytest skips", () => {
  it.each([
    ["from pytest import mark", "@mark.skip"],
    ["from pytest import mark", "@mark.xfail(reason='x')"],
    ["import pytest as pt", "@pt.mark.skipif(True, reason='x')"],
    ["from pytest import skip", '    skip("later")'],
    ["from pytest import xfail", '    xfail("later")'],
  ])("`%s` + `%s` is blocked", (imp, line) => {
    const patch = modify(
      "tests/test_p.py",
      'def test_parse():\n    assert parse("x") == 3\n',
      `${imp}\n${line}\ndef test_parse():\n    assert parse("x") == 3\n`,
    );
    expect(violationsOf(patch, "test-bypass", tests).map((v) => v.message)).toEqual([
      expect.stringMatching(/\[pytest-(skip|xfail)\]/),
    ]);
  });

  it("does not flag an ordinary skip() outside tests without a pytest import", () => {
    expect(
      violationsOf(addLines("src/reader.py", ["    reader.skip(3)", "    skip(n)"]), "test-bypass"),
    ).toEqual([]);
    expect(
      violationsOf(addLines("src/reader.py", ["from pytest import skip", "skip(n)"]), "test-bypass").map(
        (v) => v.line,
      ),
    ).toEqual([3]);
  });
});

describe("code outside tests that detects a test run, and exit hooks", () => {
  it.each([
    ["src/pkg/__init__.py", 'if os.environ.get("PYTEST_CURRENT_TEST"):', "test-detection"],
    ["src/pkg/core.py", 'if "pytest" in sys.modules:', "test-detection"],
    ["src/core.ts", "if (process.env.VITEST) return 42;", "test-detection"],
    ["src/core.ts", "if (process.env.JEST_WORKER_ID !== undefined) return 42;", "test-detection"],
    ["src/core.js", 'if (process.env.NODE_ENV === "test") return 42;', "test-detection"],
    ["src/pkg/core.py", "atexit.register(rewrite_report)", "exit-hook"],
    ["src/pkg/core.py", "os._exit(0)", "exit-hook"],
    ["src/core.ts", 'process.on("exit", () => writeReport());', "exit-hook"],
    ["src/core.ts", "process.exit(0);", "exit-hook"],
  ])("%s: `%s` is %s", (path, line, id) => {
    const v = violationsOf(addLines(path, [line]), "test-bypass");
    expect(v.map((x) => x.message.match(/\[([\w-]+)\]/)?.[1])).toEqual([id]);
    expect(violationsOf(addLines(path, [line]), "test-bypass", { testBypass: { allow: [id] } })).toEqual([]);
  });

  it("does not flag ordinary environment reads or exits in test files", () => {
    expect(
      violationsOf(
        addLines("src/core.ts", ["const env = process.env.NODE_ENV ?? 'production';"]),
        "test-bypass",
      ),
    ).toEqual([]);
    expect(violationsOf(addLines("src/app.py", ["sys.exit(1)"]), "test-bypass")).toEqual([]);
    expect(
      violationsOf(
        addLines("tests/helpers.py", ['if os.environ.get("PYTEST_CURRENT_TEST"):']),
        "test-bypass",
        tests,
      ),
    ).toEqual([]);
  });
});

describe("format-patch signature", () => {
  it("blocks a diff smuggled after the `-- ` signature (git apply would apply it)", () => {
    const r = evaluatePatch(fixture("signature-smuggle.patch"));
    expect(r.allowed).toBe(false);
    expect(r.violations).toEqual([
      expect.objectContaining({
        rule: "unparseable",
        message: expect.stringMatching(/follow the `-- ` signature/),
      }),
    ]);
  });

  it("still reads an ordinary format-patch with its trailer", () => {
    expect(evaluatePatch(fixture("format-patch.patch")).allowed).toBe(true);
  });
});

describe("new files", () => {
  it("a new jest.config.js is test infrastructure", () => {
    expect(rulesOf(create("jest.config.js", "module.exports = {};\n"))).toContain("test-infrastructure");
  });
});

describe("test-infrastructure (red team 27)", () => {
  const newFile = (name: string, text: string) => {
    const lines = text.replace(/\n$/, "").split("\n");
    return `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join("\n")}\n`;
  };
  const infra = (patch: string, context = {}, config = {}) =>
    evaluatePatch(patch, config, context).violations.filter((v) => v.rule === "test-infrastructure");
  const gradle =
    "plugins { id 'java' }\n\ntest {\n    useJUnitPlatform()\n}\n\ndependencies {\n    implementation 'a:b:1.0'\n}\n";

  it("reads the import roots the configuration and the failing check name, and leaves other modules there alone", () => {
    const json = newFile("lib/json.py", "def loads(s):\n    return {}\n");
    expect(infra(json)).toEqual([]);
    expect(infra(json, { runnerConfigs: { "pytest.ini": "[pytest]\npythonpath = lib\n" } })).toHaveLength(1);
    expect(infra(json, { failingCheck: "PYTHONPATH=lib python -m pytest" })).toHaveLength(1);
    expect(
      infra(newFile("lib/pytest_timeout.py", "x = 1\n"), {
        runnerConfigs: { "tox.ini": "[testenv]\nsetenv =\n    PYTHONPATH = {toxinidir}/lib\n" },
      }),
    ).toHaveLength(1);
    expect(
      infra(newFile("lib/billing.py", "x = 1\n"), {
        runnerConfigs: { "pytest.ini": "[pytest]\npythonpath = lib\n" },
      }),
    ).toEqual([]);
  });

  it("reads the import roots of a sub-directory the check `cd`s into: the directory itself and its pytest configuration (f14c item 1)", () => {
    const check = "cd backend && python -m pytest -q";
    const sub = { "backend/pytest.ini": "[pytest]\npythonpath = lib\n" };
    // The directory a run starts in, as the root is.
    expect(infra(newFile("backend/json.py", "x = 1\n"), { failingCheck: check })).toHaveLength(1);
    expect(
      infra(newFile("backend/pytest_x.py", "x = 1\n"), { failingCheck: "pushd backend; pytest" }),
    ).toHaveLength(1);
    // Its pytest.ini's, setup.cfg's and pyproject's `pythonpath`, read from that directory.
    expect(
      infra(newFile("backend/lib/json.py", "x = 1\n"), { failingCheck: check, runnerConfigs: sub }),
    ).toHaveLength(1);
    expect(
      infra(newFile("backend/src2/typing.py", "x = 1\n"), {
        failingCheck: check,
        runnerConfigs: { "backend/pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["src2"]\n' },
      }),
    ).toHaveLength(1);
    expect(
      infra(newFile("backend/lib/json.py", "x = 1\n"), {
        failingCheck: check,
        runnerConfigs: { "backend/setup.cfg": "[tool:pytest]\npythonpath = lib\n" },
      }),
    ).toHaveLength(1);
    // A PYTHONPATH the check sets after its `cd`.
    expect(
      infra(newFile("backend/vendor/json.py", "x = 1\n"), {
        failingCheck: "cd backend && PYTHONPATH=vendor pytest",
      }),
    ).toHaveLength(1);
    // Counter-examples: honest new modules there, and the same names in a directory no configuration names.
    expect(
      infra(newFile("backend/billing.py", "x = 1\n"), { failingCheck: check, runnerConfigs: sub }),
    ).toEqual([]);
    expect(
      infra(newFile("backend/lib/invoices.py", "x = 1\n"), { failingCheck: check, runnerConfigs: sub }),
    ).toEqual([]);
    expect(
      infra(newFile("backend/app/json.py", "x = 1\n"), { failingCheck: check, runnerConfigs: sub }),
    ).toEqual([]);
    expect(
      infra(newFile("frontend/json.py", "x = 1\n"), { failingCheck: check, runnerConfigs: sub }),
    ).toEqual([]);
    // A `cd` outside the repository or through a variable names no root.
    expect(
      infra(newFile("tmp/json.py", "x = 1\n"), { failingCheck: "cd /tmp && cd $DIR && pytest" }),
    ).toEqual([]);
  });

  it("reads jest's modulePaths/moduleDirectories and NODE_PATH as JavaScript import roots (f14c item 1)", () => {
    const pkg = (jest: unknown) =>
      JSON.stringify({
        name: "app",
        dependencies: { lodash: "^4.17.21" },
        devDependencies: { "@acme/ui": "1.0.0" },
        jest,
      });
    const paths = { "package.json": pkg({ modulePaths: ["<rootDir>/src"] }) };
    for (const f of [
      "src/lodash.js",
      "src/lodash/index.ts",
      "src/lodash/fp.js",
      "src/@acme/ui.tsx",
      "src/jest.js",
    ])
      expect(infra(newFile(f, "module.exports = {};\n"), { runnerConfigs: paths }), f).toHaveLength(1);
    const dirs = { "package.json": pkg({ moduleDirectories: ["node_modules", "shared"] }) };
    expect(infra(newFile("web/shared/lodash.js", "x\n"), { runnerConfigs: dirs })).toHaveLength(1);
    const config = {
      "package.json": pkg(undefined),
      "jest.config.js":
        'module.exports = {\n  modulePaths: [\'<rootDir>/app/lib\'],\n  moduleDirectories: ["node_modules", "<rootDir>/vendor"],\n};\n',
    };
    expect(infra(newFile("app/lib/lodash.js", "x\n"), { runnerConfigs: config })).toHaveLength(1);
    expect(infra(newFile("vendor/lodash.js", "x\n"), { runnerConfigs: config })).toHaveLength(1);
    expect(
      infra(newFile("app/lib/lodash.js", "x\n"), {
        runnerConfigs: {
          "package.json": pkg(undefined),
          "jest.config.json": JSON.stringify({ modulePaths: ["app/lib"] }),
        },
      }),
    ).toHaveLength(1);
    // A sub-directory's package.json the check `cd`s into, and NODE_PATH.
    expect(
      infra(newFile("web/src/lodash.js", "x\n"), {
        failingCheck: "cd web && npx jest",
        runnerConfigs: { "web/package.json": pkg({ modulePaths: ["<rootDir>/src"] }) },
      }),
    ).toHaveLength(1);
    expect(
      infra(newFile("lib/lodash.js", "x\n"), {
        failingCheck: "NODE_PATH=./lib:other npx jest",
        runnerConfigs: paths,
      }),
    ).toHaveLength(1);
    expect(
      infra(newFile("web/lib/mocha.js", "x\n"), { failingCheck: "cd web && NODE_PATH=lib mocha" }),
    ).toHaveLength(1);
    // Counter-examples: honest modules under those roots, a library's name where no root is, jest's `roots`.
    for (const f of [
      "src/billing.js",
      "src/utils/index.ts",
      "src/lodash-helpers.js",
      "src/events.js",
      "src/lodash.css",
    ])
      expect(infra(newFile(f, "x\n"), { runnerConfigs: paths }), f).toEqual([]);
    expect(infra(newFile("lib/lodash.js", "x\n"), { runnerConfigs: paths })).toEqual([]);
    expect(infra(newFile("lodash.js", "x\n"), { runnerConfigs: paths })).toEqual([]);
    expect(
      infra(newFile("src/lodash.js", "x\n"), {
        runnerConfigs: { "package.json": pkg({ roots: ["<rootDir>/src"] }) },
      }),
    ).toEqual([]);
    expect(infra(newFile("web/shared/billing.js", "x\n"), { runnerConfigs: dirs })).toEqual([]);
  });

  it("reads Gradle's test task by any spelling and every Gradle script, not a dependency line", () => {
    const add = (name: string, line: string, ctx: string) =>
      `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1,1 +1,2 @@\n ${ctx}\n+${line}\n`;
    for (const line of [
      "tasks.getByName('test').exclude '**/A*'",
      'tasks.named<Test>("test") { exclude("**/A*") }',
    ])
      expect(
        infra(add("build.gradle", line, "plugins { id 'java' }"), {
          sourceFiles: { "build.gradle": gradle },
        }),
      ).toHaveLength(1);
    expect(infra(add("settings.gradle", "include 'auth'", "rootProject.name = 'app'"))).toHaveLength(1);
    expect(infra(newFile("buildSrc/src/main/groovy/P.groovy", "class P {}\n"))).toHaveLength(1);
    const dep = `diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n@@ -7,3 +7,4 @@\n dependencies {\n     implementation 'a:b:1.0'\n+    implementation 'c:d:2.0'\n }\n`;
    expect(infra(dep, { sourceFiles: { "build.gradle": gradle } })).toEqual([]);
  });

  it("reads a hunk whose line numbers do not match the base text from the hunk alone", () => {
    const lying = `diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n@@ -1,1 +1,2 @@\n     useJUnitPlatform()\n+    exclude '**/AuthTest*'\n`;
    expect(infra(lying, { sourceFiles: { "build.gradle": gradle } })).toHaveLength(1);
  });

  it("refuses a build file renamed away, Maven modules and Cargo members, and too large a build-file change", () => {
    const rename =
      "diff --git a/auth/build.gradle b/auth/build.gradle.off\nsimilarity index 100%\nrename from auth/build.gradle\nrename to auth/build.gradle.off\n";
    expect(infra(rename)).toHaveLength(1);
    const pom = `diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -1,3 +1,2 @@\n   <modules>\n     <module>core</module>\n-    <module>auth</module>\n`;
    expect(infra(pom)).toHaveLength(1);
    const cargo = `diff --git a/Cargo.toml b/Cargo.toml\n--- a/Cargo.toml\n+++ b/Cargo.toml\n@@ -1,2 +1,2 @@\n [workspace]\n-members = ["core", "auth"]\n+members = ["core"]\n`;
    expect(infra(cargo)).not.toEqual([]);
    const base = Array.from({ length: 20_000 }, (_, i) => `    implementation 'o:l${i}:1.0'`);
    let big = "diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n";
    for (let h = 0; h < 2_000; h++) {
      const at = h * 10 + 2;
      big += `@@ -${at - 1},2 +${at - 1},2 @@\n ${base[at - 2]}\n-${base[at - 1]}\n+${base[at - 1]!.replace("1.0", "2.0")}\n`;
    }
    // CPU time, not a wall clock: the machine's load is no part of the gate's cost (4.5 s of wall time at load 35).
    // With the default size caps the patch (4,000 changed lines) is refused by them before any rule reads it; with
    // size caps off, the rule's own cap refuses it.
    const sourceFiles = { "build.gradle": `${base.join("\n")}\n` };
    expect(evaluatePatch(big, {}, { sourceFiles }).violations.map((x) => x.rule)).toEqual(["size-caps"]);
    const c0 = process.cpuUsage();
    const v = infra(big, { sourceFiles }, { sizeCaps: { enabled: false } });
    expect(v.map((x) => x.message).join()).toMatch(/too much to judge/);
    const used = process.cpuUsage(c0);
    expect((used.user + used.system) / 1000).toBeLessThan(3_000);
  });

  it("decodes JSON key escapes and reads a root dotted TOML key in its table", () => {
    const json = (name: string, line: string, ctx: string[]) =>
      `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1,${ctx.length} +1,${ctx.length + 1} @@\n${ctx.map((c) => ` ${c}`).join("\n")}\n+${line}\n`;
    expect(
      infra(json("package.json", '  "\\u006aest": { "roots": ["src"] },', ["{", '  "name": "app",'])),
    ).toHaveLength(1);
    expect(
      infra(json("tsconfig.json", '    "p\\u0061ths": { "a": ["b"] },', ["{", '  "compilerOptions": {'])),
    ).toHaveLength(1);
    expect(
      infra(json("pyproject.toml", 'tool.pytest.ini_options.testpaths = ["tests/core"]', ['name = "x"'])),
    ).toHaveLength(1);
  });
});
