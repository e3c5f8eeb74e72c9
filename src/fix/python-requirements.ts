/**
 * What a Python repository's tests need installed, read from its manifests the way its own CI would install
 * them: the project's runtime requirements plus its test requirements. Pure: text in, requirement lists out.
 *
 * Where requirements come from, in this order (each source named in `sources`, for progress lines and errors):
 * - `pyproject.toml`: `[project] dependencies`, `[project.optional-dependencies]` and `[dependency-groups]`
 *   (PEP 735, `{include-group = …}` followed) for a test group (`test`, `tests`, `testing`), else a dev group;
 * - `setup.cfg`: `[options] install_requires`, `tests_require`, `[options.extras_require]` test groups;
 * - `tox.ini`: `[testenv] deps` (plain requirements and `-r` files);
 * - requirements files: `requirements.txt`, and test ones (`requirements-test.txt`, `test-requirements.txt`,
 *   `requirements/test.txt`, `requirements-dev.txt`, …) with their `-r` includes; docs, lint and release files
 *   are left out (a docs toolchain that does not install must not stop a test run).
 * The project's own name (and `name[extra]` self-references) is left out: its source is the checkout.
 */
import { parse as parseToml } from "smol-toml";

const TEST_GROUPS = ["test", "tests", "testing"];
const DEV_GROUPS = ["dev", "develop", "development"];

export interface PythonManifestRequirements {
  /** Requirement specifiers as written, de-duplicated, in source order. */
  requirements: string[];
  /** Where they came from (`pyproject.toml [project.optional-dependencies] tests`). */
  sources: string[];
  /** The project's name from its manifest, or null. */
  project: string | null;
}

/** PEP 503 normalised name. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The distribution name a requirement names (`PyYAML>=6; python_version<"3.12"` → `PyYAML`), or null. */
export function requirementName(spec: string): string | null {
  return /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1] ?? null;
}

/** Requirement lines of a requirements file: no blanks, comments, pip options or includes. */
export function parseRequirements(text: string): string[] {
  return logicalLines(text).filter((l) => !l.startsWith("-"));
}

/** The `-r`/`--requirement` includes of a requirements file, as written. */
export function requirementIncludes(text: string): string[] {
  const out: string[] = [];
  for (const l of logicalLines(text)) {
    const m = /^(?:-r|--requirement)(?:\s*=\s*|\s+|(?=[^\s=]))(\S+)$/.exec(l);
    if (m?.[1]) out.push(m[1]);
  }
  return out;
}

function logicalLines(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) =>
      l
        .replace(/(^|\s)#.*$/, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((l) => l !== "");
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function table(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The first group name of `groups` present in `available` (test groups first, then dev groups). */
function pickGroup(available: string[]): string | null {
  const byNorm = new Map(available.map((k) => [normalizeName(k), k]));
  for (const g of [...TEST_GROUPS, ...DEV_GROUPS]) {
    const k = byNorm.get(g);
    if (k !== undefined) return k;
  }
  return null;
}

/**
 * A PEP 735 dependency group with its `{include-group = …}` entries expanded (cycles cut), depth first in
 * source order. Iterative: a chain of 20,000 includes overflowed the stack when this recursed.
 */
function expandGroup(groups: Record<string, unknown>, name: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const stack: { entries: unknown[]; next: number }[] = [];
  const enter = (group: string) => {
    if (seen.has(group)) return;
    seen.add(group);
    stack.push({ entries: Array.isArray(groups[group]) ? (groups[group] as unknown[]) : [], next: 0 });
  };
  enter(name);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= top.entries.length) {
      stack.pop();
      continue;
    }
    const e = top.entries[top.next++];
    if (typeof e === "string") out.push(e);
    else {
      const include = table(e)["include-group"];
      if (typeof include === "string") enter(include);
    }
  }
  return out;
}

/** `pyproject.toml`: the project's name, its requirements and those of its test group. Invalid TOML: nothing. */
export function pyprojectRequirements(text: string): PythonManifestRequirements {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch {
    return { requirements: [], sources: [], project: null };
  }
  const project = table(doc["project"]);
  const name = typeof project["name"] === "string" ? project["name"] : null;
  const requirements: string[] = [];
  const sources: string[] = [];
  const base = strings(project["dependencies"]);
  if (base.length > 0) {
    requirements.push(...base);
    sources.push("pyproject.toml [project] dependencies");
  }
  const optional = table(project["optional-dependencies"]);
  const extra = pickGroup(Object.keys(optional));
  if (extra !== null) {
    requirements.push(...strings(optional[extra]));
    sources.push(`pyproject.toml [project.optional-dependencies] ${extra}`);
  }
  const groups = table(doc["dependency-groups"]);
  const group = pickGroup(Object.keys(groups));
  if (group !== null) {
    requirements.push(...expandGroup(groups, group));
    sources.push(`pyproject.toml [dependency-groups] ${group}`);
  }
  return { requirements, sources, project: name };
}

/** The sections of an INI file (`setup.cfg`, `tox.ini`): key → value, continuation lines joined by "\n". */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | null = null;
  let key: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === "") continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header?.[1]) {
      section = new Map();
      sections.set(header[1].trim(), section);
      key = null;
      continue;
    }
    if (section === null) continue;
    if (/^\s/.test(raw) && key !== null) {
      section.set(key, `${section.get(key) ?? ""}\n${raw.trim()}`);
      continue;
    }
    // `key = value` / `key: value`, split at the first separator by hand: the pattern that did it was
    // quadratic in a run of spaces with no separator (a 1 MiB line held the host for hours).
    const sep = raw.search(/[=:]/);
    if (sep > 0 && !/^\s/.test(raw)) {
      key = raw.slice(0, sep).trim();
      section.set(key, raw.slice(sep + 1).trim());
    }
  }
  return sections;
}

function iniList(value: string | undefined): string[] {
  return (value ?? "")
    .split("\n")
    .map((l) => l.replace(/(^|\s)#.*$/, "").trim())
    .filter((l) => l !== "");
}

/** `setup.cfg`: name, `install_requires`, `tests_require` and the test extra. */
export function setupCfgRequirements(text: string): PythonManifestRequirements {
  const ini = parseIni(text);
  const metadata = ini.get("metadata");
  const options = ini.get("options");
  const requirements: string[] = [];
  const sources: string[] = [];
  for (const k of ["install_requires", "tests_require"]) {
    const list = iniList(options?.get(k));
    if (list.length > 0) {
      requirements.push(...list);
      sources.push(`setup.cfg [options] ${k}`);
    }
  }
  const extras = ini.get("options.extras_require");
  const extra = extras ? pickGroup([...extras.keys()]) : null;
  if (extras && extra !== null) {
    requirements.push(...iniList(extras.get(extra)));
    sources.push(`setup.cfg [options.extras_require] ${extra}`);
  }
  return { requirements, sources, project: metadata?.get("name") ?? null };
}

/** `tox.ini` `[testenv] deps`: plain requirements, and the `-r` files it names (relative to the root). */
export function toxRequirements(text: string): { requirements: string[]; includes: string[] } {
  const deps = iniList(parseIni(text).get("testenv")?.get("deps"));
  const requirements: string[] = [];
  const includes: string[] = [];
  for (const d of deps) {
    const include = /^-r\s*(?:\{toxinidir\}\/)?(\S+)$/.exec(d);
    if (include?.[1]) includes.push(include[1]);
    else if (!d.startsWith("-") && !d.includes("{")) requirements.push(d);
  }
  return { requirements, includes };
}

/** Names of requirements files a test run needs: tests, development, CI, or the base set. */
const TEST_FILE = /(^|[-_.])(tests?|testing|dev|develop|development|ci)([-_.]|$)/;
const BASE_FILE = /^(requirements|base|common|main|core|install|runtime|prod|production|default)$/;
const NOT_FOR_TESTS =
  /(doc|lint|typing|typecheck|mypy|release|publish|deploy|packaging|build|dist|bench|style|format|pre-commit|constraint)/;

/**
 * Requirements files a test run needs, by name: the base `requirements.txt` and test/dev/CI ones at the root
 * (`requirements-test.txt`, `test-requirements.txt`, `dev-requirements.txt`), in `requirements/` (`tests.txt`,
 * `base.txt`, `ci.txt`) or under `tests/`. Docs, lint, typing, packaging and release sets are not (a release
 * toolchain the index lacks must not stop a test run).
 */
export function isTestRequirementsFile(path: string): boolean {
  const lower = path.toLowerCase();
  if (!lower.endsWith(".txt")) return false;
  const parts = lower.split("/");
  const stem = (parts.at(-1) ?? "").slice(0, -4);
  if (NOT_FOR_TESTS.test(stem)) return false;
  if (parts.length === 1)
    return stem === "requirements" || (stem.includes("requirements") && TEST_FILE.test(stem));
  if (parts.length === 2 && parts[0] === "requirements") return TEST_FILE.test(stem) || BASE_FILE.test(stem);
  if (parts.length === 2 && /^tests?$/.test(parts[0] ?? "")) return stem.includes("requirements");
  return false;
}

/**
 * The requirements files to install, of those a repository has (`isTestRequirementsFile`): the base ones, and
 * the test ones when there are any, else the development/CI ones (which often include docs and release sets).
 */
export function chooseRequirementsFiles(files: string[]): string[] {
  const candidates = files.filter(isTestRequirementsFile);
  const stem = (f: string) => (f.toLowerCase().split("/").at(-1) ?? "").slice(0, -4);
  const tests = candidates.filter(
    (f) => /(^|[-_.])(tests?|testing)([-_.]|$)/.test(stem(f)) || /^tests?\//.test(f),
  );
  const base = candidates.filter((f) => BASE_FILE.test(stem(f)));
  const rest = candidates.filter((f) => !tests.includes(f) && !base.includes(f));
  return [...base, ...(tests.length > 0 ? tests : rest)];
}

/** Whether a requirements file a `-r` line includes is for tests (not docs, lint, typing, packaging or release). */
export function isIncludeForTests(path: string): boolean {
  return !path
    .toLowerCase()
    .split("/")
    .some((part) => NOT_FOR_TESTS.test(part.replace(/\.txt$/, "")));
}

/**
 * The requirements of a manifest list with the project itself left out (`name`, `name[extra]`), and exact
 * duplicates dropped.
 */
export function withoutProject(requirements: string[], project: string | null): string[] {
  const self = project === null ? null : normalizeName(project);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of requirements.map((x) => x.trim())) {
    const name = requirementName(r);
    if (name !== null && self !== null && normalizeName(name) === self) continue;
    if (seen.has(r)) continue;
    seen.add(r);
    out.push(r);
  }
  return out;
}
