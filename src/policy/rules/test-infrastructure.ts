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
  foldChangedLines,
  jsonFold,
  jsonKeyText,
  jsonSiteAt,
  MAX_SITE_DEPTH,
  jsonStringValue,
  looksLikeVersionSpec,
  tomlFold,
  tomlSiteAt,
} from "../sections.ts";
import { RUNNER_MODULES, STDLIB_MODULES } from "../python-module-names.ts";
import { checkDirectories, JS_RUNNER_CONFIG_FILES, RUNNER_CONFIG_FILES } from "../runner-configs.ts";
import type { DiffLine, FileChange, Rule, Violation } from "../types.ts";

/** pytest ini keys: when a setup.cfg/pyproject.toml hunk does not show its section, these still name the runner. */
const PYTEST_KEY =
  /^\s*(addopts|testpaths|python_files|python_functions|python_classes|norecursedirs|confcutdir|usefixtures|xfail_strict|required_plugins|pythonpath|markers|filterwarnings|minversion|collect_ignore\w*|doctest_\w+|fail_under)\s*=/;

const HINT = "(set policy.allowTestEdits to allow test edits)";

function sectionMatches(table: string, wanted: readonly string[]): boolean {
  const t = table.toLowerCase();
  return wanted.some((w) => {
    const x = w.toLowerCase();
    // `tool.pytest` covers `[tool.pytest.ini_options]` and plugin tables like `[tool.pytest_env]`; `testenv` covers
    // tox's `[testenv:lint]` (setup.cfg, red team 29).
    return t === x || t.startsWith(`${x}.`) || t.startsWith(`${x}_`) || t.startsWith(`${x}:`);
  });
}

/**
 * Cargo.toml keys that decide whether and how a target's tests run, in any table (`[lib] test = false`,
 * `[[test]] harness = false` makes the test a plain `main` that exits 0): red team 25. A workspace's `members`,
 * `default-members` and `exclude` decide which crates' tests `cargo test` runs (red team 27).
 */
const CARGO_TEST_KEY = /^\s*(harness|test|doctest|bench|members|default-members|exclude)\s*=/;
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
  for (const { line, state } of foldChangedLines(file, tomlFold)) {
    if (line.text.trim() === "" || /^\s*[#;]/.test(line.text)) continue;
    const site = tomlSiteAt(state, line.text);
    // A dotted key names its table too: `tool.pytest.ini_options.testpaths = […]` at the top level is a line of
    // `[tool.pytest.ini_options]` (red team 27).
    const dotted = site.key?.includes(".") ? site.key.slice(0, site.key.lastIndexOf(".")) : null;
    const table = dotted === null ? site.table : site.table === null ? dotted : `${site.table}.${dotted}`;
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

/** A JSON file nested deeper than the walkers keep is refused whole rather than read for seconds. */
function tooDeep(file: FileChange, line: DiffLine): Violation {
  return {
    rule: "test-infrastructure",
    file: file.path,
    line: line.kind === "add" ? line.newLine : line.oldLine,
    message: `nests more than ${MAX_SITE_DEPTH} levels deep: too deep to judge line by line ${HINT}`,
  };
}

function checkPackageJson(
  file: FileChange,
  wanted: readonly string[],
  dependenciesGated: boolean,
): Violation[] {
  const out: Violation[] = [];
  for (const { line, state } of foldChangedLines(file, jsonFold)) {
    if (line.text.trim() === "") continue;
    const { keys, rootSeen, tooDeep: deep } = jsonSiteAt(state, line.text);
    if (deep) return [...out, tooDeep(file, line)];
    const at = keys.findIndex((k) => wanted.includes(k));
    // Top level only: `"jest": "^29"` inside devDependencies is a dependency (dependency-changes' business).
    if (at === -1 || at !== keys.length - 1) continue;
    const value = jsonStringValue(line.text);
    // With no root in sight a version-like value may be a dependency entry (`"jest": "^29"` in devDependencies), which
    // dependency-changes reports: left to it when it runs, never guessed away when it does not.
    if (dependenciesGated && !rootSeen && at === 0 && value !== null && looksLikeVersionSpec(value)) continue;
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
  for (const { line, state } of foldChangedLines(file, jsonFold)) {
    if (line.text.trim() === "") continue;
    const { keys, tooDeep: deep } = jsonSiteAt(state, line.text);
    if (deep) return [...out, tooDeep(file, line)];
    // Keys written inline on the line too (`"compilerOptions": { "paths": { … } }` on one line): red team 25.
    const inline = [...line.text.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((m) => jsonKeyText(m[1]!));
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
/**
 * Maven's pom.xml and every Gradle script: `build.gradle`, but also `settings.gradle` (which projects the build has),
 * a script `apply from:` loads and a convention plugin written as a script (red team 27).
 */
const BUILD_FILE = /^(pom\.xml|[\w.-]+\.gradle(\.kts)?)$/;
/** Lines of a build file that skip, filter or excuse tests (Maven surefire/failsafe properties and elements,
 * Gradle's test task and its filters, by any spelling that names the task or its type: `tasks.getByName('test')`,
 * `named<Test>("test")`, a qualified `withType(…Test)` — and the lines that decide which sub-projects the build has,
 * whose tests then run or not: Maven `<modules>`, Gradle `include`/`includeBuild`/`projectDir` (red team 27)). */
const BUILD_TEST_LINE =
  /skipTests|skipITs|maven\.test\.(skip|failure\.ignore)|testFailureIgnore|<(excludes?|includes?|excludedGroups|groups|test|skip|testSourceDirectory|failIfNoTests|surefire\.\w+)>|ignoreFailures|excludeTestsMatching|includeTestsMatching|failOnNoMatchingTests|withType\s*[(<]\s*Test\b|tasks\.(test|named\s*\(\s*["']test["'])|\btest\s*\{|testClassesDirs|useJUnitPlatform|useTestNG|useJUnit\b|["']test["']|withType\s*[(<]\s*(?:[\w.]+\.)?(?:Abstract)?Test\b|\bTest\s*::\s*class|<\/?modules?\b|^\s*include(?:Build|Flat)?\b|\bprojectDir\b/;

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

/**
 * Build files of ecosystems the gate has no model of (red team 29: sbt's `Test / testOptions += Tests.Filter(_ =>
 * false)`, mix's `test_paths: []`, CMake losing an `add_test`, SwiftPM's `testTarget(exclude:)` each turned the
 * failing test off and were allowed): sbt (and its `project/*.scala`), mix, CMake, SwiftPM, Meson, Zig, Leiningen,
 * tools.deps, Cabal, dune. Their changed lines are read like a Gradle file's: a line that names tests, or sits in a
 * block whose opener (a line above with an unclosed `(`, `[` or `{`) does, is refused; any other line (a
 * dependency, a source file, a flag) is the fix's.
 */
const OTHER_BUILD_FILE =
  /^([\w.-]+\.sbt|mix\.exs|cmakelists\.txt|[\w.-]+\.cmake|package(@swift-[\d.]+)?\.swift|meson\.build|meson_options\.txt|build\.zig|project\.clj|deps\.edn|[\w.-]+\.cabal|dune|dune-project)$/i;
const SBT_PROJECT_FILE = /(^|\/)project\/[^/]+\.(scala|sbt)$/;
/** A word about tests: `test`/`Test` at a word's start or a camelCase part (`FailingTests`), `TEST`, `ctest`; not
 * `latest` or `contest`. */
const OTHER_TEST_WORD = /(?<![A-Za-z])[Tt]est|(?<=[a-z])Test|TEST|ctest/;

export function isOtherBuildFile(p: string): boolean {
  return OTHER_BUILD_FILE.test(baseName(p)) || SBT_PROJECT_FILE.test(p);
}

/** Whether a block `before` leaves open (by `(`, `[` or `{`, innermost outwards) was opened on a line naming tests. */
function inTestOpener(before: readonly string[]): boolean {
  let depth = 0;
  for (let j = before.length - 2; j >= 0; j--) {
    const l = before[j]!;
    depth += (l.match(/[)\]}]/g) ?? []).length - (l.match(/[([{]/g) ?? []).length;
    if (depth < 0) {
      if (OTHER_TEST_WORD.test(l)) return true;
      depth = 0;
    }
  }
  return false;
}

function checkOtherBuildFile(file: FileChange, rawBase: string | undefined): Violation[] {
  const baseText = matchingBase(file, rawBase);
  let work = 0;
  for (const h of file.hunks)
    work +=
      h.lines.filter((l) => l.kind !== "ctx").length *
      ((baseText === undefined ? 0 : h.oldStart) + h.lines.length);
  if (work > MAX_BUILD_SITE_LINES)
    return [
      {
        rule: "test-infrastructure",
        file: file.path,
        line: null,
        message: `changes a build file too much to judge line by line (${work} lines read around its changed lines, more than ${MAX_BUILD_SITE_LINES}) ${HINT}`,
      },
    ];
  const out: Violation[] = [];
  for (const { line, before } of changedLineSites(file, baseText)) {
    if (line.text.trim() === "") continue;
    const why = OTHER_TEST_WORD.test(line.text)
      ? "names tests"
      : inTestOpener(before)
        ? "is inside a block that names tests"
        : null;
    if (why === null) continue;
    out.push({
      rule: "test-infrastructure",
      file: file.path,
      line: line.kind === "add" ? line.newLine : line.oldLine,
      message: `${line.kind === "add" ? "adds" : "removes"} a line of a build file that ${why}: \`${truncate(line.text)}\` ${HINT}`,
    });
  }
  return out;
}

/** Maven plugins that run the tests: any line of their `<configuration>` decides what runs or how it counts. */
const TEST_PLUGIN = /surefire|failsafe/;

/** The elements open at the last line of `before` (innermost first), from the lines above it. */
function openElements(before: readonly string[]): { tags: string[]; lines: string[][] } {
  const tags: string[] = [];
  const lines: string[][] = [];
  let pending: string[] = [];
  const closed: string[] = [];
  for (let j = before.length - 2; j >= 0; j--) {
    const l = before[j]!;
    pending.unshift(l);
    const found = [...l.matchAll(/<(\/?)([\w.-]+)[^>]*?(\/?)>/g)].reverse();
    for (const m of found) {
      if (m[3] === "/") continue;
      if (m[1] === "/") closed.push(m[2]!);
      else if (closed.at(-1) === m[2]) closed.pop();
      else {
        tags.push(m[2]!);
        lines.push(pending);
        pending = [];
      }
    }
  }
  return { tags, lines };
}

/**
 * Why a changed pom.xml line is a test line beyond the listed elements (red team 26): any line inside a surefire or
 * failsafe plugin's `<configuration>` (`<argLine>`, `<systemPropertyVariables>`, `<reportsDirectory>`,
 * `<testClassesDirectory>` all change what runs or what is read), or an element line whose enclosing elements the
 * hunk does not show (no base text to read them from). Null when neither.
 */
function pomTestLine(text: string, before: readonly string[], baseKnown: boolean): string | null {
  const { tags, lines } = openElements(before);
  const at = tags.indexOf("configuration");
  if (at !== -1) {
    const plugin = tags.indexOf("plugin", at);
    if (plugin === -1)
      return baseKnown ? null : "inside a <configuration> whose plugin the hunk does not show";
    const inPlugin = lines
      .slice(at + 1, plugin + 1)
      .flat()
      .join("\n");
    if (TEST_PLUGIN.test(inPlugin)) return "inside the test plugin's <configuration>";
    return null;
  }
  if (!baseKnown && tags.length === 0 && /^\s*</.test(text) && !/^\s*<\/?project\b/.test(text))
    return "an element whose enclosing elements the hunk does not show";
  return null;
}

/** Whether the changed line (last of `before`) sits in a block whose opener the visible lines do not show. */
function openerUnseen(before: readonly string[]): boolean {
  let depth = 0;
  for (let j = before.length - 2; j >= 0; j--) {
    const l = before[j]!;
    depth += (l.match(/\}/g) ?? []).length - (l.match(/\{/g) ?? []).length;
    if (depth < 0) return false;
  }
  const line = before.at(-1) ?? "";
  return depth > 0 || /^[ \t]+\S/.test(line);
}

/**
 * Lines read around a build file's changed lines, at most (each changed line is read with every line above it): a
 * change larger than this is refused as too large to judge rather than read for seconds (red team 27: 2,000 hunks
 * in a 20,000-line pom.xml took over 20 s of host CPU).
 */
export const MAX_BUILD_SITE_LINES = 2_000_000;

/**
 * The base text the hunks of `file` may be read against: only if every hunk's old side is the base's text at the line
 * the hunk names. A hunk header that lies (the applier finds its context by searching, the rule would read the base
 * at the stated line) makes the base unknown, so the file is read from its hunks alone, the stricter way (red team 27).
 */
export function matchingBase(file: FileChange, baseText: string | undefined): string | undefined {
  if (baseText === undefined) return undefined;
  const base = baseText.split("\n");
  for (const h of file.hunks) {
    let at = Math.max(0, h.oldStart - 1);
    for (const l of h.lines) {
      if (l.kind === "add") continue;
      if (base[at] !== l.text) return undefined;
      at++;
    }
  }
  return baseText;
}

function checkBuildFile(file: FileChange, rawBase: string | undefined): Violation[] {
  const out: Violation[] = [];
  const gradle = file.path.includes("gradle");
  const baseText = matchingBase(file, rawBase);
  let work = 0;
  for (const h of file.hunks) {
    const changedLines = h.lines.filter((l) => l.kind !== "ctx").length;
    work += changedLines * ((baseText === undefined ? 0 : h.oldStart) + h.lines.length);
  }
  if (work > MAX_BUILD_SITE_LINES)
    return [
      {
        rule: "test-infrastructure",
        file: file.path,
        line: null,
        message: `changes a build file too much to judge line by line (${work} lines read around its changed lines, more than ${MAX_BUILD_SITE_LINES}) ${HINT}`,
      },
    ];
  for (const { line, before } of changedLineSites(file, baseText)) {
    if (line.text.trim() === "") continue;
    let why: string | null = null;
    if (BUILD_TEST_LINE.test(line.text))
      why = "decides which tests the build runs or whether their failures count";
    else if (gradle && inTestBlock(before)) why = "is inside the test task";
    else if (gradle && baseText === undefined && openerUnseen(before))
      why = "is inside a block whose opener the hunk does not show (it may be the test task)";
    else if (!gradle) {
      const pom = pomTestLine(line.text, before, baseText !== undefined);
      if (pom) why = `is ${pom}`;
    }
    if (why === null) continue;
    out.push({
      rule: "test-infrastructure",
      file: file.path,
      line: line.kind === "add" ? line.newLine : line.oldLine,
      message: `${line.kind === "add" ? "adds" : "removes"} a line that ${why}: \`${truncate(line.text)}\` ${HINT}`,
    });
  }
  return out;
}

/**
 * A file the patch creates (or renames into place) at an import root — the repository's root or `src/` — named
 * like a standard-library module, a module pytest imports while it starts, or a pytest plugin (`pytest_*`): it is
 * imported in place of the real one (red team 26). Null when the path is none of those. A folder named like an
 * installed module shadows it only through its `__init__` (without one it is a namespace package, which the
 * installed module wins over), so a new `code/utils.py` in a project's `code/` folder is its own (rv20); and `src/`
 * holding an `__init__.py` in `treeFiles` is a package (`src.types`), not an import root.
 */
export function pythonShadow(
  file: FileChange,
  roots: readonly string[] = [],
  treeFiles?: readonly string[],
): string | null {
  if (file.status !== "added" && file.status !== "renamed" && file.status !== "copied") return null;
  const p = file.newPath;
  if (p === null || !/\.(py|pyc|pyi|so|pyd)$/.test(p)) return null;
  const segs = p.split("/");
  // `src/` holding an `__init__.py` is a package (`src.types`), not an import root (rv20).
  const srcIsPackage = treeFiles?.some((f) => /^src\/__init__\.pyi?$/.test(f)) ?? false;
  // The longest import root the path is under: `src/`, or one the configuration names (`pythonpath = lib`).
  const root = [...(srcIsPackage ? [] : ["src"]), ...roots]
    .map((r) => r.split("/").filter((x) => x !== "" && x !== "."))
    .filter((r) => r.length > 0 && r.length < segs.length && r.every((x, i) => segs[i] === x))
    .sort((a, b) => b.length - a.length)[0];
  if (!root && srcIsPackage && segs[0] === "src") return null;
  const rest = root ? segs.slice(root.length) : segs;
  const name = (rest.length === 1 ? rest[0]!.split(".")[0] : rest[0])!;
  const shadows = rest.length === 1 || (rest.length === 2 && /^__init__\./.test(rest[1]!));
  if (shadows && STDLIB_MODULES.has(name)) return `the standard library's \`${name}\``;
  if (shadows && RUNNER_MODULES.has(name)) return `\`${name}\`, which the test runner imports`;
  if (/^pytest_/.test(name)) return `a pytest plugin's name (\`${name}\`)`;
  return null;
}

/** The directory of a repository-relative path ("" at the root). */
function dirOf(name: string): string {
  const at = name.lastIndexOf("/");
  return at === -1 ? "" : name.slice(0, at);
}

/** `p` under `dir`, with `<rootDir>`, `{toxinidir}`, `$PWD` and `./` prefixes read as `dir`; null when outside. */
function rootUnder(raw: string, dir: string): string | null {
  const p = raw
    .trim()
    .replace(/^["'[]+|["'\],]+$/g, "")
    .replace(/^(<rootDir>|\{toxinidir\}|\$\{?PWD\}?|\$\{?GITHUB_WORKSPACE\}?)\/?/, "")
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  if (
    p.startsWith("/") ||
    p.includes("$") ||
    p.includes("{") ||
    p.includes("<") ||
    p.split("/").includes("..")
  )
    return null;
  if (p === "" || p === ".") return dir === "" ? null : dir;
  return dir === "" ? p : `${dir}/${p}`;
}

/**
 * Import roots besides the root and `src/` (red team 27; f14c item 1): pytest's `pythonpath` (pytest.ini, tox.ini
 * `[pytest]`, setup.cfg `[tool:pytest]`, pyproject `pythonpath = [...]`) and a `PYTHONPATH` tox's `setenv` sets, read
 * relative to the directory of the file that says it (a `backend/pytest.ini`'s `lib` is `backend/lib`); every
 * directory the failing check `cd`s into (the directory a run starts in is on `sys.path` as the root is: `cd backend
 * && python -m pytest` imports `backend/json.py` first); a `PYTHONPATH` the check sets, from the root and from each of
 * those directories. Absolute paths are ignored (outside the repository).
 */
export function importRoots(
  files: Readonly<Record<string, string>> | undefined,
  failingCheck?: string,
): string[] {
  const out = new Set<string>();
  const add = (raw: string, dir: string) => {
    for (const part of raw.split(/[\s:;,]+/)) {
      const p = rootUnder(part, dir);
      if (p !== null) out.add(p);
    }
  };
  const dirs = checkDirectories(failingCheck);
  for (const d of dirs) out.add(d);
  for (const [name, text] of Object.entries(files ?? {})) {
    if (!RUNNER_CONFIG_FILES.includes(baseName(name))) continue;
    for (const m of text.matchAll(/^[ \t]*pythonpath[ \t]*=\s*(.*)$/gim)) add(m[1]!, dirOf(name));
    for (const m of text.matchAll(/\bPYTHONPATH\s*=\s*([^\n]*)/g)) add(m[1]!, dirOf(name));
  }
  if (failingCheck !== undefined)
    for (const m of failingCheck.matchAll(/\bPYTHONPATH=(\S+)/g))
      for (const d of ["", ...dirs]) add(m[1]!, d);
  return [...out];
}

/** Where bare JavaScript imports resolve besides node_modules: directories, and directory names at any depth. */
export interface JsImportRoots {
  /** Repository-relative directories (jest `modulePaths`, a `moduleDirectories` entry that is a path, `NODE_PATH`). */
  paths: string[];
  /** Directory names searched at every level, like node_modules (jest `moduleDirectories: ["node_modules", "src"]`). */
  names: string[];
}

/** The string items of `key: [ … ]` in a jest.config.{js,cjs,mjs} written as plain data. */
function jsArrayOption(text: string, key: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(new RegExp(`\\b${key}["']?\\s*:\\s*\\[([^\\]]*)\\]`, "g")))
    for (const item of m[1]!.matchAll(/(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g)) out.push(item[2]!);
  return out;
}

/** jest's options that decide where bare imports resolve, from a config file's text (null when not readable). */
function jestOptions(name: string, text: string): Record<string, unknown> | null {
  const base = baseName(name);
  if (base === "package.json" || base === "jest.config.json") {
    try {
      const data = JSON.parse(text) as Record<string, unknown> | null;
      const jest = base === "package.json" ? data?.jest : data;
      return jest !== null && typeof jest === "object" && !Array.isArray(jest)
        ? (jest as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }
  const rootDir = /\brootDir["']?\s*:\s*(["'`])([^"'`]*)\1/.exec(text)?.[2];
  return {
    modulePaths: jsArrayOption(text, "modulePaths"),
    moduleDirectories: jsArrayOption(text, "moduleDirectories"),
    ...(rootDir === undefined ? {} : { rootDir }),
  };
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/**
 * JavaScript import roots (f14c item 1): jest's `modulePaths` and `moduleDirectories` (package.json's `jest` key,
 * `jest.config.{js,cjs,mjs,json}` written as plain data; relative to its `rootDir`, by default the file's directory)
 * and a `NODE_PATH` the failing check sets (from the root and from each directory it `cd`s into). `node_modules` is
 * not one (a file there is dependency-changes' business). jest's `roots` are where tests and `__mocks__` are looked
 * for, not where a bare import resolves; a `__mocks__` file anywhere is refused whole by the file globs.
 */
export function jsImportRoots(
  files: Readonly<Record<string, string>> | undefined,
  failingCheck?: string,
): JsImportRoots {
  const paths = new Set<string>();
  const names = new Set<string>();
  for (const [name, text] of Object.entries(files ?? {})) {
    if (!JS_RUNNER_CONFIG_FILES.includes(baseName(name))) continue;
    const options = jestOptions(name, text);
    if (options === null) continue;
    const rootDir =
      typeof options.rootDir === "string"
        ? (rootUnder(options.rootDir, dirOf(name)) ?? dirOf(name))
        : dirOf(name);
    for (const p of strings(options.modulePaths)) {
      const r = rootUnder(p, rootDir);
      if (r !== null) paths.add(r);
    }
    for (const p of strings(options.moduleDirectories)) {
      if (p === "node_modules") continue;
      if (!p.includes("/") && !p.includes("<")) {
        if (p !== "" && p !== "." && p !== "..") names.add(p);
        continue;
      }
      const r = rootUnder(p, rootDir);
      if (r !== null) paths.add(r);
    }
  }
  if (failingCheck !== undefined)
    for (const m of failingCheck.matchAll(/\bNODE_PATH=(\S+)/g))
      for (const d of ["", ...checkDirectories(failingCheck)])
        for (const part of m[1]!.split(/[:;]+/)) {
          const r = rootUnder(part, d);
          if (r !== null) paths.add(r);
        }
  return { paths: [...paths], names: [...names] };
}

/** The test runners' own JavaScript modules: a stand-in for one is the runner's code. */
const JS_RUNNER_MODULES = new Set([
  "jest",
  "expect",
  "@jest/globals",
  "@jest/expect",
  "jest-circus",
  "vitest",
  "mocha",
  "chai",
  "jasmine",
  "ava",
  "tap",
  "uvu",
  "sinon",
]);

/** The packages the repository's package.json files (root's, a `cd` directory's) declare, and the runners' modules. */
export function jsLibraries(files: Readonly<Record<string, string>> | undefined): Set<string> {
  const out = new Set(JS_RUNNER_MODULES);
  for (const [name, text] of Object.entries(files ?? {})) {
    if (baseName(name) !== "package.json") continue;
    let data: Record<string, unknown> | null;
    try {
      data = JSON.parse(text) as Record<string, unknown> | null;
    } catch {
      continue;
    }
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
      const deps = data?.[field];
      if (deps !== null && typeof deps === "object" && !Array.isArray(deps))
        for (const dep of Object.keys(deps)) out.add(dep);
    }
  }
  return out;
}

const JS_MODULE_FILE = /\.(js|cjs|mjs|jsx|ts|cts|mts|tsx|json|node)$/;

/**
 * A file the patch creates (or renames into place) under a JavaScript import root (jsImportRoots) that a bare import
 * of a library resolves to: `<root>/lodash.js`, `<root>/lodash/index.js`, `<root>/lodash/fp.js`, `<root>/@scope/pkg.js`
 * — with `lodash` a package the repository declares or a test runner's module. Null otherwise (an honest
 * `<root>/billing.js` shadows nothing).
 */
export function jsShadow(
  file: FileChange,
  roots: JsImportRoots,
  libraries: ReadonlySet<string>,
): string | null {
  if (file.status !== "added" && file.status !== "renamed" && file.status !== "copied") return null;
  const p = file.newPath;
  if (p === null) return null;
  const segs = p.split("/");
  const rests: string[][] = [];
  for (const r of roots.paths) {
    const rs = r.split("/");
    if (rs.length < segs.length && rs.every((x, i) => segs[i] === x)) rests.push(segs.slice(rs.length));
  }
  for (let i = 0; i < segs.length - 1; i++) if (roots.names.includes(segs[i]!)) rests.push(segs.slice(i + 1));
  for (const rest of rests) {
    const scoped = rest[0]!.startsWith("@") && rest.length >= 2;
    const head = scoped ? rest.slice(0, 2) : rest.slice(0, 1);
    const isFile = rest.length === head.length;
    if (isFile && !JS_MODULE_FILE.test(head.at(-1)!)) continue;
    const name = (isFile ? [...head.slice(0, -1), head.at(-1)!.replace(JS_MODULE_FILE, "")] : head).join("/");
    if (libraries.has(name))
      return `the package \`${name}\` (one the repository declares, or a test runner's own)`;
  }
  return null;
}

/** Paths the failing check's command runs as files (`bash scripts/test.sh`, `./run-tests`, `node tools/t.mjs`). */
export function commandFiles(check: string): Set<string> {
  const out = new Set<string>();
  for (const raw of check.split(/[\s;&|()<>`]+/)) {
    const w = raw.replace(/^["']|["']$/g, "").replace(/^\.\//, "");
    if (w === "" || w.startsWith("-") || w.includes("=") || w.includes("$") || w.startsWith("/")) continue;
    if (w.includes("/") || /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|rb|pl|ps1|bat|cmd)$/.test(w)) out.add(w);
  }
  return out;
}

/**
 * Whether a file the check runs is a script that runs checks, rather than the program under test: a shell or batch
 * script or a file without an extension (`scripts/test.sh`, `./run-tests`), a file in a scripts or CI folder, or
 * one named like a runner (`run_tests.py`, `tools/check.mjs`, `manage.py`). A check `python main.py` or `node
 * index.js` runs the program itself, and a fix of its bug is in that file (rv20); a build step the check runs first
 * (`python setup.py build_ext --inplace && pytest`, `node build.js && npm test`) is left to the build-file rules (f13r).
 */
export function runsChecks(path: string): boolean {
  const name = baseName(path);
  if (!/\.(py|js|mjs|cjs|ts|mts|cts|rb|pl|php)$/i.test(name)) return true;
  if (/(?:^|\/)(?:\.?ci|scripts?|\.github|\.circleci|\.buildkite)\//i.test(path)) return true;
  return /(?:^|[-_.])(?:tests?|specs?|checks?|ci|verify|run|runtests|runner|lint|manage|tox|nox|noxfile|conftest)(?:[-_.]|$)/i.test(
    name.replace(/\.[^.]+$/, ""),
  );
}

/** setup.cfg keys that say where the packages are (`[options] package_dir`, `packages`, `py_modules`). */
const SETUP_CFG_LAYOUT = /^(package_dir|packages|py_modules)\s*=/;

function checkSetupCfgLayout(file: FileChange, baseText: string | undefined): Violation[] {
  const out: Violation[] = [];
  for (const { line, state } of foldChangedLines(file, tomlFold, baseText)) {
    if (line.text.trim() === "" || /^\s*[#;]/.test(line.text)) continue;
    // The line's key: its own, or the nearest unindented key above a continuation line.
    const key = /^[ \t]/.test(line.text) ? (state.unindented ?? line.text) : line.text;
    const { table } = tomlSiteAt(state, line.text);
    if (
      !SETUP_CFG_LAYOUT.test(key.trim()) &&
      !(table !== null && /^options\.(package_dir|packages)/.test(table))
    )
      continue;
    out.push({
      rule: "test-infrastructure",
      file: file.path,
      line: line.kind === "add" ? line.newLine : line.oldLine,
      message: `${line.kind === "add" ? "adds" : "removes"} a line that says where the packages are (a test could import a stand-in): \`${truncate(line.text)}\` ${HINT}`,
    });
  }
  return out;
}

export const testInfrastructure: Rule = {
  id: "test-infrastructure",
  enabled: (c) => c.testInfrastructure.enabled && !c.allowTestEdits,
  check({ patch, config, sourceFiles, failingCheck, treeFiles, runnerConfigs }) {
    const cfg = config.testInfrastructure;
    const out: Violation[] = [];
    const runs = failingCheck === undefined ? new Set<string>() : commandFiles(failingCheck);
    const configs = { ...runnerConfigs, ...sourceFiles };
    const roots = importRoots(configs, failingCheck);
    const jsRoots = jsImportRoots(configs, failingCheck);
    const libraries = jsLibraries(configs);
    for (const file of patch.files) {
      const paths = touchedPaths(file).filter((p) => !matchesAny(config.forbiddenPaths.allow, p));
      const base = file.oldPath === null ? undefined : sourceFiles?.[file.oldPath];
      const run = paths.find((p) => runs.has(p) && runsChecks(p));
      if (run !== undefined) {
        out.push({
          rule: "test-infrastructure",
          file: run,
          line: null,
          message: `the failing check runs this file (\`${truncate(failingCheck ?? "")}\`): changing it changes what the check runs ${HINT}`,
        });
        continue;
      }
      const shadow = pythonShadow(file, roots, treeFiles) ?? jsShadow(file, jsRoots, libraries);
      if (shadow !== null) {
        out.push({
          rule: "test-infrastructure",
          file: file.path,
          line: null,
          message: `a new module at an import root named like ${shadow} is imported in its place ${HINT}`,
        });
        continue;
      }
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
      // A build file renamed away (`auth/build.gradle` → `auth/build.gradle.disabled`): its project's tests no
      // longer build or run (red team 27). A deletion is the deletions rule's.
      if (
        file.status === "renamed" &&
        file.oldPath !== null &&
        (BUILD_FILE.test(baseName(file.oldPath)) || isOtherBuildFile(file.oldPath)) &&
        (file.newPath === null || baseName(file.newPath) !== baseName(file.oldPath))
      ) {
        out.push({
          rule: "test-infrastructure",
          file: file.oldPath,
          line: null,
          message: `renames a build file away (${file.oldPath} → ${file.newPath}): the tests it builds would no longer run ${HINT}`,
        });
        continue;
      }
      const names = new Set(paths.map((p) => baseName(p).toLowerCase()));
      if (names.has("setup.cfg"))
        out.push(...checkSections(file, cfg.iniSections, "setup.cfg"), ...checkSetupCfgLayout(file, base));
      else if (names.has("pyproject.toml"))
        out.push(...checkSections(file, cfg.tomlTables, "pyproject.toml"));
      else if (names.has("package.json"))
        out.push(...checkPackageJson(file, cfg.packageJsonKeys, config.dependencyChanges.enabled));
      else if ([...names].some((n) => /^[tj]sconfig.*\.json$/.test(n)))
        out.push(...checkTsconfig(file, cfg.tsconfigKeys));
      else if (names.has("cargo.toml"))
        out.push(...checkSections(file, CARGO_TEST_TABLES, "Cargo.toml", CARGO_TEST_KEY));
      else if ([...names].some((n) => BUILD_FILE.test(n))) out.push(...checkBuildFile(file, base));
      else if (paths.some(isOtherBuildFile)) out.push(...checkOtherBuildFile(file, base));
    }
    return out;
  },
};
