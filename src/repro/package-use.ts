/**
 * Whether the program that ran loads the package the report is about (issue 12, hold12 sugar700/python-format#6).
 * A report filed on a registry package's repository is about that package: a program that never loads it (no
 * import or require of it or of a sub-path of it, no run of its CLI, not among the dependencies installed for the
 * run) proves nothing about it, however well its output matches. The python-format report shows Python's own
 * `"{:,.2f}%".format(-200)` as the reference and the library's `format('{:,.2f}%', -200)` as the bug: running the
 * Python session prints the reference, never the library's bug. Such a run is never REPRODUCED nor PARTIAL.
 *
 * The class is the run in the other language: the report's code in one language uses the package (its import, or
 * a name the repository's binding rules give it), and what ran is the code in the other. A run in the package's own language that never loads
 * it stands: a report filed on an application's repository about the runtime's behaviour (an `enum` change in
 * Python 3.11 filed at flyte, Cython, ocpp), or one that pastes the project's own function, runs without any
 * package and shows the behaviour reported (17 such cases of the corpus, read by bench/package-use-scan.ts).
 *
 * Not a registry package: a language implementation's repository (cpython, pypy, …, node), whose "package" is the
 * runtime every program loads. A package published from the same repository (`lodash.isequal` from lodash,
 * `@ltd/j-toml` from j-toml, `@fast-csv/parse` from fast-csv, `messageformat` from messageformat-monorepo) is the
 * package. Pure: program, name and report in, answer out.
 */
import { escapeRegExp } from "../core/regexp.ts";
import { completeProgram, type Program } from "./complete.ts";
import type { ParsedReport } from "./parse-report.ts";

/** Repositories whose name is a runtime's, not a package's: any program of theirs uses them. */
const RUNTIMES = new Set([
  "cpython",
  "python",
  "pypy",
  "micropython",
  "brython",
  "rustpython",
  "node",
  "nodejs",
  "deno",
  "bun",
]);

/** PyPI and npm spell one name several ways (`universal_pathlib`, `universal-pathlib`, `Cython`). */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** A runtime's repository: the guard never applies. */
export function isRuntimePackage(pkg: string): boolean {
  return RUNTIMES.has(pkg.toLowerCase());
}

/** The name without its scope and a monorepo's suffix: `@ltd/j-toml` → `j-toml`, `x-monorepo` → `x`. */
function base(name: string): string {
  return normalized(name.replace(/^@[^/]+\//, "")).replace(/-(?:monorepo|root)$/, "");
}

/** A package published from the repository of `pkg`: the same name, a scope of its name, or its name dotted on. */
function sibling(dep: string, pkg: string): boolean {
  const d = normalized(dep);
  const want = normalized(pkg);
  if (d === want || d.startsWith(`${want}/`)) return true;
  const b = base(pkg);
  if (b.length < 2) return false;
  const scope = /^@([^/]+)\//.exec(dep)?.[1];
  if (scope && normalized(scope) === b) return true;
  const db = base(dep);
  return db === b || db.startsWith(`${b}-`);
}

/** The program loads `pkg`: installs it, imports or requires it (or a sub-path), or runs its CLI. */
export function programLoadsPackage(program: Program, pkg: string): boolean {
  if (program.dependencies.some((d) => sibling(d, pkg))) return true;
  const text = Object.values(program.files).join("\n");
  const spec = escapeRegExp(pkg);
  // `require('pkg')`, `require('pkg/sub/path')`, `from 'pkg/…'`, `import('pkg')`, `import 'pkg'`.
  const js = new RegExp(
    `(?:\\brequire\\s*\\(|\\bimport\\s*\\(|\\bfrom|^\\s*import)\\s*(['"])${spec}(?:/[^'"]*)?\\1`,
    "im",
  );
  // `npx pkg`, `npx -p pkg`, `node_modules/.bin/pkg`.
  const cli = new RegExp(
    `(?:\\bnpx\\s+(?:-p\\s+|--package[= ])?|node_modules/\\.bin/)${spec}(?![\\w.-])`,
    "i",
  );
  // Python: `import pkg`, `import pkg.sub`, `from pkg import …`, `from pkg.sub import …` (a stdlib module of the
  // repository's name, `typing`, is loaded this way and installs nothing).
  const pyName = escapeRegExp(pkg.replace(/-/g, "_"));
  const py = new RegExp(
    `^[ \\t]*(?:import\\s+(?:[\\w.]+\\s*,\\s*)*|from\\s+)${pyName}(?:\\.[\\w.]+)?\\b`,
    "im",
  );
  return js.test(text) || cli.test(text) || (program.runtime === "python" && py.test(text));
}

/**
 * The reason a REPRODUCED or PARTIAL run proves nothing about the report's package, or null when it may stand: no
 * package known, a runtime's repository, or a program that loads the package.
 */
export function packageNotUsed(
  program: Program,
  pkg: string | undefined,
  report: ParsedReport,
): string | null {
  if (!pkg || isRuntimePackage(pkg) || programLoadsPackage(program, pkg)) return null;
  if (!otherLanguageUses(program, pkg, report)) return null;
  return `the code shown does not use \`${pkg}\`, the package of the issue's repository: what it ran (${program.runtime === "python" ? "Python" : "Node.js"} alone, without \`${pkg}\`) cannot show a bug of \`${pkg}\`; a reference run in another language or of the runtime itself is not the package`;
}

/**
 * The report's code in the language that did not run uses `pkg` (completed as `retrace repro` completes it, with
 * the repository's binding rules): the run was the reference, the package's code the other block.
 */
export function otherLanguageUses(program: Program, pkg: string, report: ParsedReport): boolean {
  const other = completeProgram(report, null, pkg, program.runtime === "python" ? "js" : "python");
  return other !== null && programLoadsPackage(other, pkg);
}
