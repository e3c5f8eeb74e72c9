/**
 * What a Python repository's tests need installed, read from its manifests the way its own CI would install
 * them: the project's runtime requirements plus its test requirements. Pure: text in, requirement lists out.
 *
 * Where requirements come from, in this order (each source named in `sources`, for progress lines and errors):
 * - `pyproject.toml`: `[project] dependencies`, `[project.optional-dependencies]` and `[dependency-groups]`
 *   (PEP 735, `{include-group = …}` followed) for a test group (`test`, `tests`, `testing`), else a dev group;
 * - `setup.cfg`: `[options] install_requires`, `tests_require`, `[options.extras_require]` test groups;
 * - `setup.py`, read statically (never executed): literal `install_requires`, `tests_require`, and of a literal
 *   `extras_require` the test extra and those tox.ini's `[testenv] extras` names;
 * - `tox.ini`: `[testenv] deps` (plain requirements and `-r` files);
 * - requirements files: `requirements.txt`, and test ones (`requirements-test.txt`, `test-requirements.txt`,
 *   `requirements/test.txt`, `requirements-dev.txt`, …) with their `-r` includes; docs, lint and release files
 *   are left out (a docs toolchain that does not install must not stop a test run).
 * The project's own name (and `name[extra]` self-references) is left out: its source is the checkout.
 */
import { parse as parseToml } from "smol-toml";

/**
 * Most characters of a `pyproject.toml` parsed as TOML on the host. The parse builds the whole document: 8 MiB of
 * `[[a]]` (within the workspace read cap) held 791 MiB of host memory (ninth red team). A real one is a few KiB.
 */
export const MAX_TOML_CHARS = 1024 * 1024;

/** A `pyproject.toml` as a table, or null when it is not valid TOML or longer than MAX_TOML_CHARS. */
export function parseTomlManifest(text: string): Record<string, unknown> | null {
  if (text.length > MAX_TOML_CHARS) return null;
  try {
    const doc = parseToml(text) as unknown;
    return doc !== null && typeof doc === "object" ? (doc as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

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

/**
 * `pyproject.toml`: the project's name, its requirements and those of its test group. Invalid TOML, or longer than
 * MAX_TOML_CHARS: nothing.
 */
export function pyprojectRequirements(text: string): PythonManifestRequirements {
  const doc = parseTomlManifest(text);
  if (doc === null) return { requirements: [], sources: [], project: null };
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

/** A token of Python source, as far as the static `setup.py` reader needs: strings, names and punctuation. */
interface PyToken {
  kind: "str" | "dyn" | "name" | "op";
  value: string;
}

const STRING_PREFIX = /^(r|u|b|br|rb)$/i;
const FORMAT_PREFIX = /^(f|fr|rf)$/i;

/**
 * Python source as tokens, in one pass (linear: every scan moves forward; triple-quoted strings are closed with
 * `indexOf`). Comments and whitespace are dropped; f-strings are `dyn` (their value is not known statically).
 */
function pyTokens(text: string): PyToken[] {
  const out: PyToken[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (c === "#") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? n : end;
      continue;
    }
    if (/\s/.test(c) || c === "\\") {
      i++;
      continue;
    }
    if (/[A-Za-z_0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z_0-9]/.test(text[j] as string)) j++;
      const word = text.slice(i, j);
      const q = text[j];
      if ((q === '"' || q === "'") && (STRING_PREFIX.test(word) || FORMAT_PREFIX.test(word))) {
        const s = readPyString(text, j);
        out.push({ kind: FORMAT_PREFIX.test(word) ? "dyn" : "str", value: s.value });
        i = s.end;
        continue;
      }
      out.push({ kind: "name", value: word });
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      const s = readPyString(text, i);
      out.push({ kind: "str", value: s.value });
      i = s.end;
      continue;
    }
    out.push({ kind: "op", value: c });
    i++;
  }
  return out;
}

/** The string literal opening at `start` (a quote): its text (simple escapes undone) and where it ends. */
function readPyString(text: string, start: number): { value: string; end: number } {
  const q = text[start] as string;
  const triple = text.startsWith(q.repeat(3), start);
  const open = start + (triple ? 3 : 1);
  let i = open;
  let value = "";
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\\") {
      value += text[i + 1] ?? "";
      i += 2;
      continue;
    }
    if (triple ? text.startsWith(q.repeat(3), i) : c === q) return { value, end: i + (triple ? 3 : 1) };
    if (!triple && c === "\n") break;
    value += c;
    i++;
  }
  return { value, end: i };
}

/** The index after the bracket closing the one at `open` (tokens), or the end. */
function skipBracket(tokens: PyToken[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as PyToken;
    if (t.kind !== "op") continue;
    if ("([{".includes(t.value)) depth++;
    else if (")]}".includes(t.value) && --depth === 0) return i + 1;
  }
  return tokens.length;
}

/**
 * A literal list or tuple of strings at `at` (adjacent literals concatenated, as Python does), followed by `,`
 * or a closing bracket; null when it is anything else (a name, a call, a concatenation, an f-string).
 */
function literalStrings(tokens: PyToken[], at: number): { values: string[]; end: number } | null {
  const open = tokens[at];
  if (open?.kind !== "op" || (open.value !== "[" && open.value !== "(")) return null;
  const close = open.value === "[" ? "]" : ")";
  const values: string[] = [];
  let i = at + 1;
  for (;;) {
    const t = tokens[i];
    if (t === undefined) return null;
    if (t.kind === "op" && t.value === close) break;
    if (t.kind !== "str") return null;
    let value = t.value;
    i++;
    while (tokens[i]?.kind === "str") value += (tokens[i++] as PyToken).value;
    values.push(value);
    const sep = tokens[i];
    if (sep?.kind === "op" && sep.value === ",") i++;
    else if (!(sep?.kind === "op" && sep.value === close)) return null;
  }
  const after = tokens[i + 1];
  if (after !== undefined && !(after.kind === "op" && ",)]}".includes(after.value))) return null;
  return { values, end: i + 1 };
}

/** The token span of the arguments of the last `setup(…)` call (`setuptools.setup(` too), or null. */
function setupCall(tokens: PyToken[]): { open: number; close: number } | null {
  let open: number | null = null;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const t = tokens[i] as PyToken;
    const paren = tokens[i + 1] as PyToken;
    const before = tokens[i - 1];
    const isDef = before?.kind === "name" && before.value === "def";
    if (t.kind === "name" && t.value === "setup" && paren.kind === "op" && paren.value === "(" && !isDef)
      open = i + 1;
  }
  return open === null ? null : { open, close: skipBracket(tokens, open) - 1 };
}

/** The value of keyword argument `key=` of the call spanning `call`: the token index after `=`, or null. */
function keywordValue(
  tokens: PyToken[],
  call: { open: number; close: number } | null,
  key: string,
): number | null {
  if (call === null) return null;
  let depth = 0;
  for (let i = call.open + 1; i + 1 < call.close; i++) {
    const t = tokens[i] as PyToken;
    if (t.kind === "op" && "([{".includes(t.value)) depth++;
    else if (t.kind === "op" && ")]}".includes(t.value)) depth--;
    else if (depth === 0 && t.kind === "name" && t.value === key) {
      const eq = tokens[i + 1] as PyToken;
      const prev = tokens[i - 1] as PyToken;
      if (eq.kind === "op" && eq.value === "=" && prev.kind === "op" && "(,".includes(prev.value))
        return i + 2;
    }
  }
  return null;
}

/** Where `NAME = …` last assigns a name at module level before `before` (the token after `=`), or null. */
function assignment(tokens: PyToken[], name: string, before: number): number | null {
  let at: number | null = null;
  let depth = 0;
  for (let i = 0; i + 2 < before; i++) {
    const t = tokens[i] as PyToken;
    if (t.kind === "op" && "([{".includes(t.value)) depth++;
    else if (t.kind === "op" && ")]}".includes(t.value)) depth = Math.max(0, depth - 1);
    const eq = tokens[i + 1] as PyToken;
    const next = tokens[i + 2] as PyToken;
    if (depth === 0 && t.kind === "name" && t.value === name && eq.kind === "op" && eq.value === "=") {
      if (!(next.kind === "op" && next.value === "=")) at = i + 2;
    }
  }
  return at;
}

/** Follows a bare name to what it is assigned at module level (one step), else the index itself. */
function resolveValue(tokens: PyToken[], at: number): number {
  const t = tokens[at];
  const after = tokens[at + 1];
  if (t?.kind === "name" && (after === undefined || (after.kind === "op" && ",)".includes(after.value)))) {
    return assignment(tokens, t.value, at) ?? at;
  }
  return at;
}

/**
 * A dict literal `{"key": [...], …}` at `at`: each key whose value is a literal list of strings, and the keys
 * whose value is not (skipped). Null when `at` is not a dict literal.
 */
function literalDict(
  tokens: PyToken[],
  at: number,
): { entries: Map<string, string[]>; dynamic: string[] } | null {
  const open = tokens[at];
  if (open?.kind !== "op" || open.value !== "{") return null;
  const end = skipBracket(tokens, at) - 1;
  const entries = new Map<string, string[]>();
  const dynamic: string[] = [];
  let i = at + 1;
  while (i < end) {
    const key = tokens[i] as PyToken;
    const colon = tokens[i + 1];
    let next = i + 1;
    if (key.kind === "str" && colon?.kind === "op" && colon.value === ":") {
      const list = literalStrings(tokens, i + 2);
      if (list !== null) {
        entries.set(key.value, list.values);
        i = list.end;
        if (tokens[i]?.value === ",") i++;
        continue;
      }
      dynamic.push(key.value);
      next = i + 2;
    } else dynamic.push(key.kind === "str" ? key.value : "(computed key)");
    // Skip to the next entry: the `,` at this dict's depth.
    for (i = next; i < end; ) {
      const t = tokens[i] as PyToken;
      if (t.kind === "op" && "([{".includes(t.value)) i = skipBracket(tokens, i);
      else if (t.kind === "op" && t.value === ",") {
        i++;
        break;
      } else i++;
    }
  }
  return { entries, dynamic };
}

export interface SetupPyRequirements extends PythonManifestRequirements {
  /** What was skipped as not statically known (`setup.py extras_require dev: not a literal list`). */
  notes: string[];
}

/**
 * `setup.py`, read statically (never executed: it is repository code), the keywords of its last `setup(…)` call:
 * `install_requires=` and `tests_require=`
 * when a literal list of strings (inline or a module-level name assigned one), and of `extras_require=` (a dict
 * literal, inline or by name) the test extra (`pickGroup`) and the extras tox.ini's `[testenv] extras` names.
 * Anything computed is skipped with a note. Linear in the text.
 */
export function setupPyRequirements(text: string, toxExtras: readonly string[] = []): SetupPyRequirements {
  const tokens = pyTokens(text);
  const call = setupCall(tokens);
  const requirements: string[] = [];
  const sources: string[] = [];
  const notes: string[] = [];
  for (const key of ["install_requires", "tests_require"]) {
    const at = keywordValue(tokens, call, key);
    if (at === null) continue;
    const list = literalStrings(tokens, resolveValue(tokens, at));
    if (list === null) notes.push(`setup.py ${key}: not a literal list of strings, skipped`);
    else if (list.values.length > 0) {
      requirements.push(...list.values);
      sources.push(`setup.py ${key}`);
    }
  }
  const at = keywordValue(tokens, call, "extras_require");
  if (at !== null) {
    const dict = literalDict(tokens, resolveValue(tokens, at));
    if (dict === null) notes.push("setup.py extras_require: not a dict literal, skipped");
    else {
      const wanted = new Set(toxExtras.map(normalizeName));
      const picked = pickGroup([...dict.entries.keys(), ...dict.dynamic]);
      if (picked !== null) wanted.add(normalizeName(picked));
      for (const [extra, values] of dict.entries) {
        if (!wanted.has(normalizeName(extra))) continue;
        requirements.push(...values);
        sources.push(`setup.py extras_require ${extra}`);
      }
      for (const extra of dict.dynamic) {
        if (wanted.has(normalizeName(extra)))
          notes.push(`setup.py extras_require ${extra}: not a literal list, skipped`);
      }
    }
  }
  const nameAt = keywordValue(tokens, call, "name");
  const nameTok = nameAt === null ? undefined : tokens[nameAt];
  const afterName = nameAt === null ? undefined : tokens[nameAt + 1];
  const project =
    nameTok?.kind === "str" && afterName?.kind === "op" && ",)".includes(afterName.value)
      ? nameTok.value
      : null;
  return { requirements, sources, project, notes };
}

/** `tox.ini` `[testenv] extras`: the extras tox installs the project with. */
export function toxExtras(text: string): string[] {
  return iniList(parseIni(text).get("testenv")?.get("extras"))
    .flatMap((l) => l.split(","))
    .map((e) => e.trim())
    .filter((e) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(e));
}

const ORCHESTRATOR = /^(tox|nox|pre-commit)(-.*)?$/;

/**
 * Requirements that orchestrate test runs (tox, nox, pre-commit and their `tox-*`/`nox-*` plugins) and that
 * `command` does not invoke: they run the tests in environments of their own, so the test command itself never
 * needs them, and installing them can only fail (a mirror lacking one of theirs).
 */
export function unusedOrchestrators(requirements: readonly string[], command: string): string[] {
  const words = new Set(command.split(/[\s/;&|()]+/).filter((w) => w !== ""));
  return requirements.filter((r) => {
    const name = requirementName(r);
    const m = name === null ? null : ORCHESTRATOR.exec(normalizeName(name));
    return m?.[1] !== undefined && !words.has(m[1]);
  });
}
