/**
 * The CPython release that added a standard-library name, keyword argument or module, from the table generated out
 * of typeshed's stubs (`python-api-versions.ts`, 3.10 or later). Used to tell "this sandbox's Python is too old for
 * the code" from the report's bug when a run stops on `module 'math' has no attribute 'sumprod'`,
 * `'skip_file_prefixes' is an invalid keyword argument for warn()` or `No module named 'tomllib'`.
 */
import { PYTHON_KEYWORD_SINCE, PYTHON_MODULE_SINCE, PYTHON_NAMES_BY_RELEASE } from "./python-api-versions.ts";

let sinceByName: Map<string, string> | null = null;

function names(): Map<string, string> {
  if (sinceByName) return sinceByName;
  sinceByName = new Map();
  for (const [release, list] of Object.entries(PYTHON_NAMES_BY_RELEASE))
    for (const name of list.split(" ")) sinceByName.set(name, release);
  return sinceByName;
}

/** [major, minor] compared as numbers (`3.9` < `3.10`). */
function lower(a: string, b: string): boolean {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am! < bm! || (am === bm && an! < bn!);
}

/** The earliest of several releases (a name several modules define is there as soon as one has it). */
function earliest(releases: readonly string[]): string | null {
  let out: string | null = null;
  for (const r of releases) if (out === null || lower(r, out)) out = r;
  return out;
}

/**
 * The release that added `module.name` (`math`, `sumprod`), or null when the table does not have it (older than
 * 3.10, or not the standard library's). A private C module's name counts for its public module (`_warnings.warn`
 * for `warnings.warn`) only when the public module's own stub has no such name.
 */
export function pythonNameSince(module: string, name: string): string | null {
  const table = names();
  return table.get(`${module}.${name}`) ?? table.get(`_${module}.${name}`) ?? null;
}

/**
 * The release that added the member `name` of a standard-library class called `owner` (`Path`, `walk`), wherever
 * the class lives (the earliest when several classes of that name have it); null when no class of that name has it
 * in the table. The table knows only additions, so the caller must know the object is the standard library's.
 */
export function pythonMemberSince(owner: string, name: string): string | null {
  const suffix = `.${owner}.${name}`;
  const found: string[] = [];
  for (const [qualified, release] of names()) if (qualified.endsWith(suffix)) found.push(release);
  return earliest(found);
}

/**
 * The release that added keyword `keyword` to a standard-library function or class called `callable` (`warn`,
 * `Path.glob`, `ZipFile`): every function of that name whose table entry holds the keyword, the earliest of them.
 * Null when none does (the keyword is older, or the function is not the standard library's).
 */
export function pythonKeywordSince(callable: string, keyword: string): string | null {
  const parts = callable.split(".");
  const fn = parts.at(-1)!;
  const suffixes = [`.${callable}`, `.${callable}.__init__`, `.${callable}.__new__`];
  if (parts.length === 1) suffixes.push(`.${fn}`);
  const found: string[] = [];
  for (const [qualified, keywords] of Object.entries(PYTHON_KEYWORD_SINCE)) {
    const release = keywords[keyword];
    if (release && suffixes.some((s) => qualified.endsWith(s))) found.push(release);
  }
  return earliest(found);
}

/** The release that added the standard-library module `module` (`tomllib`), or null. */
export function pythonModuleSince(module: string): string | null {
  return PYTHON_MODULE_SINCE[module] ?? null;
}
