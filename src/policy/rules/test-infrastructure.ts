/**
 * test-infrastructure: test-runner configuration decides which tests run and how their outcome is read
 * (`python_functions = check_*`, `exclude: [...]`, a `setupFiles` that patches `expect`, a `*.pth` that runs on
 * every interpreter start). A fix may not change it unless `allowTestEdits`. Whole files by glob; inside shared
 * files only the runner's section, read from the hunk like the manifest rules do: setup.cfg `[tool:pytest]`,
 * pyproject.toml `[tool.pytest…]`, package.json `jest`/`mocha`/…, tsconfig `paths`.
 */
import { baseName, matchesAny, touchedPaths, truncate } from "../lines.ts";
import {
  changedLineSites,
  jsonEnclosingKeys,
  jsonStringValue,
  looksLikeVersionSpec,
  tomlSite,
} from "../sections.ts";
import type { FileChange, Rule, Violation } from "../types.ts";

/** pytest ini keys: when a setup.cfg/pyproject.toml hunk does not show its section, these still name the runner. */
const PYTEST_KEY =
  /^\s*(addopts|testpaths|python_files|python_functions|python_classes|norecursedirs|confcutdir|usefixtures|xfail_strict|required_plugins|pythonpath|markers|filterwarnings|minversion|collect_ignore\w*|doctest_\w+|fail_under)\s*=/;

const HINT = "(set policy.allowTestEdits to allow test edits)";

function sectionMatches(table: string, wanted: readonly string[]): boolean {
  const t = table.toLowerCase();
  return wanted.some((w) => {
    const x = w.toLowerCase();
    // `tool.pytest` covers `[tool.pytest.ini_options]` and plugin tables like `[tool.pytest_env]`.
    return t === x || t.startsWith(`${x}.`) || t.startsWith(`${x}_`);
  });
}

/**
 * Cargo.toml keys that decide whether and how a target's tests run, in any table (`[lib] test = false`,
 * `[[test]] harness = false` makes the test a plain `main` that exits 0): red team 25.
 */
const CARGO_TEST_KEY = /^\s*(harness|test|doctest|bench)\s*=/;
/** Cargo.toml tables that are test targets or the test profile. */
const CARGO_TEST_TABLES = ["test", "bench", "profile.test"];

function checkSections(
  file: FileChange,
  wanted: readonly string[],
  what: string,
  /** Keys that name the runner whether or not the hunk shows their section. */
  anywhere?: RegExp,
): Violation[] {
  const out: Violation[] = [];
  for (const { line, before } of changedLineSites(file)) {
    if (line.text.trim() === "" || /^\s*[#;]/.test(line.text)) continue;
    const { table } = tomlSite(before);
    const hit =
      anywhere?.test(line.text) ||
      (table !== null ? sectionMatches(table, wanted) : !anywhere && PYTEST_KEY.test(line.text));
    if (!hit) continue;
    const where =
      table !== null ? `[${table}]` : "a test-runner setting (its section is not visible in the hunk)";
    out.push({
      rule: "test-infrastructure",
      file: file.path,
      line: line.kind === "add" ? line.newLine : line.oldLine,
      message: `${line.kind === "add" ? "adds" : "removes"} a line in ${where} of ${what}: \`${truncate(line.text)}\` ${HINT}`,
    });
  }
  return out;
}

function checkPackageJson(file: FileChange, wanted: readonly string[]): Violation[] {
  const out: Violation[] = [];
  for (const { line, before } of changedLineSites(file)) {
    if (line.text.trim() === "") continue;
    const { keys, rootSeen } = jsonEnclosingKeys(before);
    const at = keys.findIndex((k) => wanted.includes(k));
    // Top level only: `"jest": "^29"` inside devDependencies is a dependency (dependency-changes' business).
    if (at === -1 || at !== keys.length - 1) continue;
    const value = jsonStringValue(line.text);
    if (!rootSeen && at === 0 && value !== null && looksLikeVersionSpec(value)) continue;
    out.push({
      rule: "test-infrastructure",
      file: file.path,
      line: line.kind === "add" ? line.newLine : line.oldLine,
      message: `${line.kind === "add" ? "adds" : "removes"} a line in the \`${keys[at]}\` test-runner configuration: \`${truncate(line.text)}\` ${HINT}`,
    });
  }
  return out;
}

function checkTsconfig(file: FileChange, wanted: readonly string[]): Violation[] {
  const out: Violation[] = [];
  for (const { line, before } of changedLineSites(file)) {
    if (line.text.trim() === "") continue;
    const { keys } = jsonEnclosingKeys(before);
    // Keys written inline on the line too (`"compilerOptions": { "paths": { … } }` on one line): red team 25.
    const inline = [...line.text.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((m) => m[1]!);
    const key = [...keys, ...inline].find((k) => wanted.includes(k));
    if (key === undefined) continue;
    out.push({
      rule: "test-infrastructure",
      file: file.path,
      line: line.kind === "add" ? line.newLine : line.oldLine,
      message: `${line.kind === "add" ? "adds" : "removes"} a line in \`${key}\` (module resolution: a test could import a stand-in): \`${truncate(line.text)}\` ${HINT}`,
    });
  }
  return out;
}

/** Maven's and Gradle's build files (red team 25: `<skipTests>`, a `test { exclude … }` block). */
const BUILD_FILE = /^(pom\.xml|build\.gradle(\.kts)?)$/;
/** Lines of a build file that skip, filter or excuse tests (Maven surefire/failsafe properties and elements,
 * Gradle's test task and its filters). */
const BUILD_TEST_LINE =
  /skipTests|skipITs|maven\.test\.(skip|failure\.ignore)|testFailureIgnore|<(excludes?|includes?|excludedGroups|groups|test|skip|testSourceDirectory|failIfNoTests|surefire\.\w+)>|ignoreFailures|excludeTestsMatching|includeTestsMatching|failOnNoMatchingTests|withType\s*[(<]\s*Test\b|tasks\.(test|named\s*\(\s*["']test["'])|\btest\s*\{|testClassesDirs|useJUnitPlatform|useTestNG|useJUnit\b/;

/** Whether the innermost block `before` leaves open is Gradle's test task (or a block inside it). */
function inTestBlock(before: readonly string[]): boolean {
  let depth = 0;
  for (let j = before.length - 2; j >= 0; j--) {
    const l = before[j]!;
    depth += (l.match(/\}/g) ?? []).length - (l.match(/\{/g) ?? []).length;
    if (depth < 0) {
      if (BUILD_TEST_LINE.test(l)) return true;
      depth = 0;
    }
  }
  return false;
}

function checkBuildFile(file: FileChange): Violation[] {
  const out: Violation[] = [];
  for (const { line, before } of changedLineSites(file)) {
    if (line.text.trim() === "") continue;
    if (!BUILD_TEST_LINE.test(line.text) && !(file.path.includes("gradle") && inTestBlock(before))) continue;
    out.push({
      rule: "test-infrastructure",
      file: file.path,
      line: line.kind === "add" ? line.newLine : line.oldLine,
      message: `${line.kind === "add" ? "adds" : "removes"} a line that decides which tests the build runs or whether their failures count: \`${truncate(line.text)}\` ${HINT}`,
    });
  }
  return out;
}

export const testInfrastructure: Rule = {
  id: "test-infrastructure",
  enabled: (c) => c.testInfrastructure.enabled && !c.allowTestEdits,
  check({ patch, config }) {
    const cfg = config.testInfrastructure;
    const out: Violation[] = [];
    for (const file of patch.files) {
      const paths = touchedPaths(file).filter((p) => !matchesAny(config.forbiddenPaths.allow, p));
      const whole = paths.find((p) => matchesAny(cfg.files, p));
      if (whole !== undefined) {
        const how = file.status === "renamed" || file.status === "copied" ? ` (${file.status})` : "";
        out.push({
          rule: "test-infrastructure",
          file: whole,
          line: null,
          message: `test-runner configuration may not be changed${how}: it decides which tests run and how they pass ${HINT}`,
        });
        continue;
      }
      const names = new Set(paths.map((p) => baseName(p).toLowerCase()));
      if (names.has("setup.cfg")) out.push(...checkSections(file, cfg.iniSections, "setup.cfg"));
      else if (names.has("pyproject.toml"))
        out.push(...checkSections(file, cfg.tomlTables, "pyproject.toml"));
      else if (names.has("package.json")) out.push(...checkPackageJson(file, cfg.packageJsonKeys));
      else if ([...names].some((n) => /^[tj]sconfig.*\.json$/.test(n)))
        out.push(...checkTsconfig(file, cfg.tsconfigKeys));
      else if (names.has("cargo.toml"))
        out.push(...checkSections(file, CARGO_TEST_TABLES, "Cargo.toml", CARGO_TEST_KEY));
      else if ([...names].some((n) => BUILD_FILE.test(n))) out.push(...checkBuildFile(file));
    }
    return out;
  },
};
