/**
 * The `policy:` section of `.github/retrace.yml`: one sub-section per rule, each with `enabled` and its own
 * globs/limits. Every field has a default, so `policy: {}` (or no section at all) is the strict default gate.
 */
import { z } from "zod";

const globs = (description: string, defaults: string[]) =>
  z.array(z.string().min(1, "a glob must not be empty")).default(defaults).describe(description);

const enabled = (what: string) => z.boolean().default(true).describe(`Run the ${what} rule.`);

/** CI configuration of every mainstream CI service: a fix must never change how it is checked. */
export const DEFAULT_CI_GLOBS = [
  ".github/**",
  // Who must review a change (GitHub reads CODEOWNERS at the root, in .github/ and in docs/): red team 26.
  "CODEOWNERS",
  "docs/CODEOWNERS",
  ".gitlab-ci.yml",
  ".gitlab/**",
  ".circleci/**",
  "**/Jenkinsfile",
  "Jenkinsfile*",
  "azure-pipelines.yml",
  "azure-pipelines.yaml",
  ".azure-pipelines/**",
  ".travis.yml",
  "appveyor.yml",
  ".appveyor.yml",
  "bitbucket-pipelines.yml",
  ".buildkite/**",
  ".drone.yml",
  ".woodpecker.yml",
  ".woodpecker/**",
  "cloudbuild.yaml",
  "cloudbuild.yml",
  ".pre-commit-config.yaml",
  ".husky/**",
  "codecov.yml",
  ".codecov.yml",
  "renovate.json",
  ".retrace.yml",
];

/** Lockfiles of npm, yarn, pnpm, bun, pip tools, poetry, uv, cargo, go, bundler, composer, nuget, gradle, nix... */
export const DEFAULT_LOCKFILE_GLOBS = [
  "**/package-lock.json",
  "**/npm-shrinkwrap.json",
  "**/yarn.lock",
  "**/pnpm-lock.yaml",
  "**/bun.lock",
  "**/bun.lockb",
  "**/poetry.lock",
  "**/Pipfile.lock",
  "**/uv.lock",
  "**/pdm.lock",
  "**/Cargo.lock",
  "**/go.sum",
  "**/go.work.sum",
  "**/Gemfile.lock",
  "**/composer.lock",
  "**/packages.lock.json",
  "**/gradle.lockfile",
  "**/flake.lock",
  "**/mix.lock",
  "**/pubspec.lock",
  "**/Podfile.lock",
];

/** Environment, credential and key files. */
export const DEFAULT_SECRET_GLOBS = [
  "**/.env",
  "**/.env.*",
  "**/*.env",
  "**/.envrc",
  "**/*.pem",
  "**/*.key",
  "**/*.p12",
  "**/*.pfx",
  "**/*.jks",
  "**/*.keystore",
  "**/id_rsa*",
  "**/id_dsa*",
  "**/id_ecdsa*",
  "**/id_ed25519*",
  "**/.ssh/**",
  "**/.aws/**",
  "**/.npmrc",
  "**/.yarnrc",
  "**/.yarnrc.yml",
  "**/.pypirc",
  "**/.netrc",
  "**/.git-credentials",
  "**/.docker/config.json",
  "**/secrets.*",
  "**/*secret*.{json,yml,yaml,toml,txt}",
  "**/credentials*",
];

/** Files that change how git itself behaves on checkout (filters, hooks, submodules). */
export const DEFAULT_VCS_GLOBS = [".gitmodules", "**/.gitattributes", ".gitconfig", "**/.git/**"];

/** What counts as a test file (tests, specs, fixtures of tests, snapshots, test configuration). */
export const DEFAULT_TEST_GLOBS = [
  "**/test/**",
  "**/tests/**",
  "**/__tests__/**",
  "**/spec/**",
  "**/__snapshots__/**",
  "**/*.snap",
  "**/*.test.*",
  "**/*.spec.*",
  "**/*_test.*",
  "**/*_spec.*",
  "**/test_*.py",
  // Django's `app/tests.py`, Rust's `tests.rs` module files, `foo_tests.py`/`foo_tests.rs`.
  "**/tests.py",
  "**/tests.rs",
  "**/*_tests.*",
  // NestJS `app.e2e-spec.ts` (only code extensions: `api-spec.yaml` is an OpenAPI document, not a test).
  "**/*-spec.{js,jsx,mjs,cjs,ts,tsx,mts,cts}",
  "**/*.cy.*",
  "**/specs/**",
  "**/e2e/**",
  "**/conftest.py",
  // Surefire's and failsafe's defaults. `*IT.java` is not listed: globs match case-insensitively, so it would
  // take in `Commit.java`, `Edit.java`, ...; Maven/Gradle keep integration tests under src/test (matched above),
  // src/it or src/integrationTest.
  "**/Test*.java",
  "**/*TestCase.java",
  "**/*ITCase.java",
  "**/src/it/**",
  "**/src/integrationTest/**",
  "**/*Test.java",
  "**/*Tests.java",
  "**/*Test.kt",
  "**/*Tests.kt",
  "**/*Tests.cs",
  "**/testdata/**",
  // What a test compares with, kept as data outside the test directories (red team 30): rewriting it to the buggy
  // output makes the test pass. ApprovalTests' approved and received files beside the code, golden files,
  // fixture directories (a root `fixtures/`, jest's `__fixtures__`), jest-image-snapshot's directory.
  "**/*.approved.*",
  "**/*.received.*",
  "**/*.golden",
  "**/{golden,goldens}/**",
  "**/{fixtures,__fixtures__}/**",
  "**/{test-data,test_data}/**",
  "**/__image_snapshots__/**",
];

/**
 * Test-runner configuration and files every test run loads: changing them changes which tests run and how their
 * outcome is read, so a fix may not touch them unless allowTestEdits.
 */
export const DEFAULT_TEST_INFRASTRUCTURE_GLOBS = [
  "**/pytest.ini",
  "**/tox.ini",
  "**/noxfile.py",
  "**/conftest.py",
  "**/sitecustomize.py",
  "**/usercustomize.py",
  "**/*.pth",
  "**/{jest,vitest,vite,karma,mocha,ava,babel,playwright,cypress,nyc,c8}.config.*",
  "**/vitest.workspace.*",
  "**/karma.conf.*",
  "**/{jest,vitest}.setup.*",
  "**/.mocharc*",
  "**/.babelrc*",
  "**/.nycrc*",
  "**/.c8rc*",
  "**/__mocks__/**",
  // Other runners' and tools' files that decide what a test command runs (red team 24): pytest also reads
  // `.pytest.ini` and `pytest.toml`/`.pytest.toml`; pnpm runs `.pnpmfile.cjs` hooks at install; bun preloads from
  // `bunfig.toml`; node-tap reads `.taprc`; deno's `test.exclude`; cargo aliases (`test = "check"`); PHPUnit's and
  // RSpec's configurations; the Makefile/justfile/Taskfile recipe a CI step's `make test` runs.
  "**/.pytest.ini",
  "**/pytest.toml",
  "**/.pytest.toml",
  "**/.pnpmfile.{cjs,mjs,js}",
  "**/bunfig.toml",
  "**/.taprc",
  "**/deno.{json,jsonc}",
  "**/.cargo/config{,.toml}",
  "**/phpunit{,.dist}.xml{,.dist}",
  "**/.rspec{,-local}",
  "**/{Makefile,makefile,GNUmakefile}",
  "**/{justfile,Justfile,.justfile}",
  "**/Taskfile.{yml,yaml}",
  // Red team 25: modules named like the test runner (`python -m pytest` imports the working directory first, so a
  // root `pytest.py` or `pytest/__main__.py` is the runner), other runners' and task runners' files (tox.toml,
  // hatch.toml, mise tasks, Maven's `.mvn/` options, MSBuild's Directory.Build files, .NET run settings, .bazelrc,
  // Rakefiles), files that redirect what the code under test is (jest presets, SWC's config and plugins, coverage
  // plugins), and the files that choose the runtime a run uses (.nvmrc, .python-version, .tool-versions, …).
  // At the root only, the directory a run starts in (pytest's own `src/_pytest` is its source, not a shadow).
  "{pytest,_pytest,unittest,nose,nose2}.py",
  "{pytest,_pytest,unittest,nose,nose2}/**",
  "**/tox.toml",
  "**/hatch.toml",
  "**/{mise,.mise}.toml",
  "**/{mise,.mise}.*.toml",
  "**/.mise/**",
  "**/.mvn/**",
  "**/Directory.Build.{props,targets}",
  "**/*.runsettings",
  "**/.bazelrc",
  "**/{Rakefile,rakefile,Rakefile.rb}",
  "**/jest-preset.{js,cjs,mjs,json}",
  "**/.swcrc",
  "**/.coveragerc",
  "**/{.nvmrc,.node-version,.python-version,.tool-versions,.ruby-version,.sdkmanrc,runtime.txt}",
  "**/rust-toolchain{,.toml}",
  "**/global.json",
  // Red team 26: the wrappers and vendored tools a test command executes (`./gradlew test` runs the `gradlew`
  // script and the distribution its properties name; `./mvnw`; yarn runs the `.yarn/releases` file `yarnPath`
  // names and its plugins), and files runners or resolvers load by convention: create-react-app's
  // `src/setupTests.*`, Yarn Plug'n'Play's resolver (`.pnp.cjs`, `.pnp.loader.mjs`), JUnit's
  // `junit-platform.properties` and service files (a `PostDiscoveryFilter` or an auto-detected extension in main
  // resources is on the test classpath too).
  "**/{gradlew,gradlew.bat,mvnw,mvnw.cmd}",
  "**/gradle/wrapper/**",
  "**/.yarn/{releases,plugins}/**",
  "**/setupTests.{js,jsx,ts,tsx,mjs,cjs,mts,cts}",
  "**/.pnp.{cjs,js,mjs,loader.mjs,data.json}",
  "**/junit-platform.properties",
  "**/META-INF/services/org.{junit,testng}.*",
  // Red team 27: the build's own plugins (Gradle's `buildSrc` and an included `build-logic` build) configure the
  // test task of every project that applies them.
  "**/buildSrc/**",
  "**/build-logic/**",
];

export const TestInfrastructureConfig = z
  .strictObject({
    enabled: enabled("test-infrastructure"),
    files: globs(
      "Globs of test-runner configuration files and files every test run loads (conftest.py, sitecustomize.py, *.pth, jest/vitest/mocha/babel configs, __mocks__).",
      DEFAULT_TEST_INFRASTRUCTURE_GLOBS,
    ),
    iniSections: z
      .array(z.string().min(1))
      .default([
        "tool:pytest",
        "pytest",
        "coverage:run",
        "coverage:report",
        "options.entry_points",
        "tox:tox",
        "testenv",
      ])
      .describe(
        "Sections of setup.cfg that configure the test runner (read from the hunk); `options.entry_points` registers pytest plugins (`pytest11`); tox reads `[tox:tox]` and `[testenv]`/`[testenv:<name>]` there.",
      ),
    tomlTables: z
      .array(z.string().min(1))
      .default([
        "tool.pytest",
        "tool.coverage",
        "tool.hatch.envs",
        "project.entry-points.pytest11",
        // Red team 25: task runners' test tasks, tox's pyproject form, and where setuptools finds the packages.
        "tool.poe",
        "tool.pdm.scripts",
        "tool.taskipy",
        "tool.rye.scripts",
        "tool.pixi.tasks",
        "tool.tox",
        "tool.setuptools.package-dir",
        "tool.setuptools.packages",
      ])
      .describe(
        "pyproject.toml tables that configure the test runner; a table and every table below it (`tool.pytest` covers `[tool.pytest.ini_options]`).",
      ),
    packageJsonKeys: z
      .array(z.string().min(1))
      .default(["jest", "mocha", "ava", "c8", "nyc", "babel", "vitest", "imports"])
      .describe("Top-level package.json keys that configure the test runner."),
    tsconfigKeys: z
      .array(z.string().min(1))
      .default(["paths", "baseUrl", "rootDirs", "moduleSuffixes", "customConditions", "extends"])
      .describe(
        "tsconfig*.json compilerOptions keys that redirect module resolution (a test could import a fake).",
      ),
  })
  .describe(
    "Blocks changes to test-runner configuration unless allowTestEdits: pytest.ini, tox.ini, conftest.py, setup.cfg [tool:pytest], pyproject.toml [tool.pytest*], jest/vitest/mocha/babel configs, __mocks__, sitecustomize.py, *.pth, tsconfig `paths`, package.json `jest`/`mocha`/... keys.",
  );

export const ForbiddenPathsConfig = z
  .strictObject({
    enabled: enabled("forbidden-paths"),
    ci: globs("CI configuration globs (a fix may not change how it is checked).", DEFAULT_CI_GLOBS),
    lockfiles: globs("Lockfile globs (dependency resolution is not a fix).", DEFAULT_LOCKFILE_GLOBS),
    secrets: globs("Environment, credential and key file globs.", DEFAULT_SECRET_GLOBS),
    vcs: globs(
      "Globs of files that configure git itself (attributes, submodules, hooks).",
      DEFAULT_VCS_GLOBS,
    ),
    extra: globs("More forbidden globs, added to the lists above.", []),
    allow: globs("Exceptions: paths matching one of these globs are never forbidden by this rule.", []),
  })
  .describe(
    "Paths a patch may not touch: CI config, lockfiles, secrets, git config, and test files unless allowTestEdits. Renames and copies are checked on both sides.",
  );

export const DependencyChangesConfig = z
  .strictObject({
    enabled: enabled("dependency-changes"),
    allowRegistryRanges: z
      .boolean()
      .default(true)
      .describe(
        "Allow a patch to add a registry dependency to package.json `dependencies`/`devDependencies`/`optionalDependencies`/`peerDependencies`, or change the version range of one, when the value is a plain semver range (`^3.0.0`, `~1.2.3`, `1.4.0`): verification then installs the patched manifest in the install container before the patched runs. Git, URL, file, link, alias (`npm:`) and tag specs, removals, and every other dependency section stay blocked. Set false to block every dependency change.",
      ),
    wholeFiles: globs("Files that are nothing but dependency lists: any change to them is blocked.", [
      "**/requirements*.txt",
      "**/requirements/*.txt",
      "**/requirements*.in",
      "**/constraints*.txt",
      "**/Pipfile",
      "**/go.mod",
      "**/go.work",
      "**/Gemfile",
      "**/*.gemspec",
      // Red team 25: trees and files that are the dependencies themselves or rewrite them at install: installed
      // or vendored packages (`node_modules/.bin/jest` is the runner `npx jest` runs; Go builds from `vendor/`
      // when `vendor/modules.txt` exists), patch-package/yarn/pnpm dependency patches, pnpm's workspace file
      // (its `overrides`, `patchedDependencies` and catalogs).
      "**/node_modules/**",
      "**/vendor/**",
      "**/patches/*.{patch,diff}",
      "**/.yarn/patches/**",
      "**/pnpm-workspace.yaml",
    ]),
  })
  .describe(
    "Blocks changes to dependency sections of manifests: package.json/composer.json dependency maps (except, with allowRegistryRanges, a package.json registry dependency added or given a new semver range), pyproject.toml and Cargo.toml dependency tables, and whole dependency files (requirements, go.mod, Gemfile).",
  );

export const TestBypassConfig = z
  .strictObject({
    enabled: enabled("test-bypass"),
    allow: z
      .array(z.string())
      .default([])
      .describe(
        "Ids of bypass patterns to allow (e.g. `pytest-xfail`); `retrace policy --json` names the id.",
      ),
  })
  .describe(
    "Blocks added skips, focus and expected failures (pytest skip/xfail, it.skip/.only/xit, @Disabled, t.Skip, #[ignore]), --passWithNoTests, deselection, exit-code masking in scripts, pytest hooks that rewrite outcomes, code outside tests that detects a test run (PYTEST_CURRENT_TEST, process.env.VITEST, ...), and exit hooks (atexit.register, os._exit, process.on(`exit`), process.exit) that could rewrite a report after the tests ran.",
  );

export const SuppressionsConfig = z
  .strictObject({
    enabled: enabled("suppressions"),
    allow: z
      .array(z.string())
      .default([])
      .describe("Ids of suppression comments to allow (e.g. `noqa`, `eslint-disable`)."),
  })
  .describe(
    "Blocks added checker suppressions (@ts-ignore, eslint-disable, # noqa, # type: ignore, //nolint, ...) and changes to a checker's own configuration (.eslintrc*, eslint.config.*, tsconfig strictness and include/exclude keys, ruff/mypy/flake8/pylint/pyright files and sections, .golangci.*, .rubocop.yml, ...; ids `<tool>-config`) when the failing check runs the tool they silence (the test command and the package scripts it names: tsc, eslint, flake8, mypy, c8, ...) or when what it runs is unknown; otherwise each is a warning in the verdict's reasons and the PR body.",
  );

export const WeakenedTestsConfig = z
  .strictObject({
    enabled: enabled("weakened-tests"),
    maxRemovedAssertions: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe(
        "How many assertions a patch may remove from test functions without putting one back in the same function.",
      ),
    allowReplacedAssertions: z
      .boolean()
      .default(false)
      .describe(
        "Whether an assertion may be replaced by a different one in the same test (edited expectations). Expected values edited to match, loosened matchers and tautologies stay blocked either way.",
      ),
    inlineTests: z
      .boolean()
      .default(true)
      .describe(
        "Also check tests kept in source files: hunks of Rust/Go files whose context shows inline tests (`#[cfg(test)]`, `#[test]`, `mod tests`, `func Test…`), JS/TS in-source tests (`import.meta.vitest`, `Deno.test`), and doctest examples (`>>>` lines and their expected output) in Python files and text documents.",
      ),
  })
  .describe(
    "Blocks weakened tests: assertions or test cases removed, tautologies (assert True, expect(x).toBe(x)), expected values edited to match, strict matchers replaced by loose ones (== → >=, isinstance, toBeGreaterThan), assertions swallowed (try/except AssertionError, pytest.raises(Exception)), and early returns before a test's assertions.",
  );

export const SizeCapsConfig = z
  .strictObject({
    enabled: enabled("size-caps"),
    maxFiles: z.number().int().min(1).default(10).describe("Most files one patch may change."),
    maxChangedLines: z
      .number()
      .int()
      .min(1)
      .default(400)
      .describe(
        "Most changed lines (added + removed) in one patch. Whatever it says, the gate refuses a patch past 100,000 changed lines.",
      ),
    maxLineLength: z
      .number()
      .int()
      .min(1)
      .default(1000)
      .describe(
        "Longest added line, in characters (minified or encoded payloads are not reviewable). Whatever it says, the gate refuses a line past 10,000 characters.",
      ),
  })
  .describe("Caps the size of a patch so a human can review it.");

export const DeletionsConfig = z
  .strictObject({
    enabled: enabled("deletions"),
    allowFileDeletion: z.boolean().default(false).describe("Whether a patch may delete whole files."),
    maxDeletedBlock: z
      .number()
      .int()
      .min(1)
      .default(30)
      .describe("Longest run of consecutive removed lines with nothing added in their place."),
  })
  .describe("Blocks file deletions and large deleted blocks.");

const onOff = (rule: string, description: string) =>
  z.strictObject({ enabled: enabled(rule) }).describe(description);

export const ModeChangesConfig = z
  .strictObject({
    enabled: enabled("mode-changes"),
    allowExecutable: z
      .boolean()
      .default(false)
      .describe("Whether a patch may create executable files or make files executable."),
  })
  .describe("Blocks file mode changes (e.g. 100644 → 100755) and new executable files.");

export const DangerousCallsConfig = z
  .strictObject({
    enabled: enabled("dangerous-calls"),
    allowNetwork: z.boolean().default(false).describe("Whether added code may make network calls."),
    allow: z
      .array(z.string())
      .default([])
      .describe("Ids of dangerous-call patterns to allow (e.g. `python-subprocess-shell`)."),
  })
  .describe(
    "Blocks added eval/exec/new Function, child_process, os.system, subprocess with shell=True, and new network calls (fetch, http.request, requests, urllib, socket, curl ...).",
  );

/** A rule whose only settings are `enabled` and the pattern ids to allow. */
const withAllow = (rule: string, example: string, description: string) =>
  z
    .strictObject({
      enabled: enabled(rule),
      allow: z
        .array(z.string())
        .default([])
        .describe(
          `Ids of ${rule} patterns to allow (e.g. \`${example}\`); \`retrace policy --json\` names the id.`,
        ),
    })
    .describe(description);

export const TestAwarenessConfig = withAllow(
  "test-awareness",
  "stack-inspection",
  "Blocks code outside tests that finds out whether it runs under a test by indirect means: stack or frame inspection, require.main/module.parent/require.cache, sys.argv or process.argv searched for a runner, environment keys scanned, a test runner named in a string, checks for describe/expect globals.",
);
export const TestFileAccessConfig = withAllow(
  "test-file-access",
  "reads-test-files",
  "Blocks code outside tests that opens, reads, lists or checks for test files (an expected value read out of the test, behaviour that depends on a test file being on disk).",
);
export const CheckTamperingConfig = withAllow(
  "check-tampering",
  "patches-module",
  "Blocks code outside tests that changes the checking: assignments to attributes of assertion, test-runner or standard-library modules (assert.strictEqual = …, unittest.TestCase.assertEqual = …, time.time = …, Date.now = …), built-in prototypes, the module loader, and catching assertion errors.",
);
export const ConstantEqualityConfig = withAllow(
  "constant-equality",
  "constant-dunder",
  "Blocks equality or conversions that ignore the value: __eq__ returning True, __ne__ False, comparison or numeric dunders returning a constant, valueOf/[Symbol.toPrimitive]/equals returning a constant.",
);
export const SpecialCasingConfig = withAllow(
  "special-casing",
  "test-literals",
  "Blocks new branches in code under test whose literals are the failing tests' own inputs or expected outputs (checked when verification passes the failing tests' source to the gate).",
);

export const PolicyConfig = z
  .strictObject({
    allowTestEdits: z
      .boolean()
      .default(false)
      .describe(
        "Whether a patch may edit test files at all. Bypasses and weakened tests stay blocked either way.",
      ),
    testFiles: globs(
      "Globs of test files (used by forbidden-paths, test-bypass and weakened-tests).",
      DEFAULT_TEST_GLOBS,
    ),
    forbiddenPaths: ForbiddenPathsConfig.prefault({}),
    testInfrastructure: TestInfrastructureConfig.prefault({}),
    dependencyChanges: DependencyChangesConfig.prefault({}),
    testBypass: TestBypassConfig.prefault({}),
    suppressions: SuppressionsConfig.prefault({}),
    weakenedTests: WeakenedTestsConfig.prefault({}),
    sizeCaps: SizeCapsConfig.prefault({}),
    deletions: DeletionsConfig.prefault({}),
    binaryFiles: onOff("binary-files", "Blocks binary files (their content cannot be inspected).").prefault(
      {},
    ),
    symlinks: onOff("symlinks", "Blocks creating or changing symbolic links.").prefault({}),
    modeChanges: ModeChangesConfig.prefault({}),
    submodules: onOff("submodules", "Blocks adding or moving git submodules.").prefault({}),
    pathEscape: onOff(
      "path-escape",
      "Blocks paths that leave the repository: `..`, absolute paths, NUL or control characters, backslashes, `.git/`.",
    ).prefault({}),
    ambiguousHeaders: onOff(
      "ambiguous-headers",
      "Blocks patches whose headers name different files (diff --git vs ---/+++ vs rename lines), so every tool applies them to the same file.",
    ).prefault({}),
    dangerousCalls: DangerousCallsConfig.prefault({}),
    testAwareness: TestAwarenessConfig.prefault({}),
    testFileAccess: TestFileAccessConfig.prefault({}),
    checkTampering: CheckTamperingConfig.prefault({}),
    constantEquality: ConstantEqualityConfig.prefault({}),
    specialCasing: SpecialCasingConfig.prefault({}),
    packageScripts: onOff(
      "package-scripts",
      "Blocks changes to package.json/composer.json `scripts` (they run on install and in CI).",
    ).prefault({}),
  })
  .describe(
    "The deterministic patch gate: every patch Retrace proposes passes it before it runs or is proposed.",
  );

/** The parsed policy section: every field present. */
export type PolicyConfig = z.infer<typeof PolicyConfig>;
/** What a user may write: every field optional. */
export type PolicyConfigInput = z.input<typeof PolicyConfig>;
