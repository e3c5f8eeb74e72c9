/**
 * The package under test named by a relative path (issue 12, hold17 TehShrike/deepmerge#14: `var merge =
 * require('../')`): a snippet copied from the package's own tests or README loads the package from its checkout,
 * `require('..')`, `require('../')`, `require('./')`, `require('../index')`, `import merge from '..'`. Filed on
 * that package's repository, such a path is the package itself: the specifier becomes the package's name, so
 * the release installed for the report is what it loads. Any other relative path (`./foo`, `../lib/x`) is a file
 * of the reporter's and stays. Pure: text in, text out.
 */

/** A specifier that names a package's root from its tests or its own folder. */
const ROOT_SPECIFIER = /^\.{1,2}(?:\/(?:index(?:\.[cm]?js)?)?)?$/;

/** `require('…')`, `import … from '…'`, `import '…'`, `import('…')`: the quoted specifier in group 3. */
const SPECIFIER = /(\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s*|^[ \t]*import\s+)(['"])([^'"\n]+)\2/gm;

/** The first root-relative specifier the code loads, or null. */
export function ownPackageSpecifier(code: string): string | null {
  for (const m of code.matchAll(SPECIFIER)) if (ROOT_SPECIFIER.test(m[3]!)) return m[3]!;
  return null;
}

/** The code with every root-relative specifier replaced by `pkg`; the same text when there is none. */
export function ownPackagePaths(code: string, pkg: string | undefined): string {
  if (!pkg || !/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(pkg)) return code;
  return code.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) =>
    ROOT_SPECIFIER.test(spec) ? `${lead}${quote}${pkg}${quote}` : whole,
  );
}

/** A package name compared with a folder of a path: scope dropped, case and `-`, `_`, `.` ignored. */
const folded = (name: string) =>
  name
    .replace(/^@[^/]+\//, "")
    .toLowerCase()
    .replace(/[-_.]/g, "");

/**
 * A `require` of a path into the package's own source tree (issue 12, hold20 kriszyp/json-schema#20:
 * `require('../deps/json_schema/validate')`, the reporter's copy of the package under `deps/`): a relative path
 * with a folder named as the package (`json_schema` for `json-schema`) names that package's file after it. At run
 * time the file is looked for in the installed package — its root, `lib/`, `src/`, `dist/` — and loaded only when
 * exactly one of those places has it; otherwise the report's own path stays, failing as it would. Only `require`
 * (an `import` specifier must be a literal). A path with no such folder (`./utils`, `../lib/x`) is the reporter's.
 * Returns the code and the specifiers so read.
 */
export function ownSourceTreePaths(code: string, pkg: string | undefined): { code: string; read: string[] } {
  const read: string[] = [];
  if (!pkg || !/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(pkg)) return { code, read };
  const own = folded(pkg);
  const out = code.replace(
    /\brequire\s*\(\s*(['"])(\.{1,2}\/[^'"\n]+)\1\s*\)/g,
    (whole, _quote: string, spec: string) => {
      const parts = spec.split("/");
      const at = parts.findIndex((p) => p !== "." && p !== ".." && folded(p) === own);
      const tail = at < 0 ? [] : parts.slice(at + 1).filter((p) => p !== "" && p !== ".");
      if (at < 0 || tail.length === 0 || tail.some((p) => p === ".." || !/^[\w.@-]+$/.test(p))) return whole;
      read.push(spec);
      return `require(${ownFileLookup(spec, pkg, tail.join("/"))})`;
    },
  );
  return { code: out, read };
}

/** The expression that finds `tail` in the installed package at run time, else gives back `spec`. */
function ownFileLookup(spec: string, pkg: string, tail: string): string {
  const args = [spec, pkg, tail].map((s) => JSON.stringify(s)).join(", ");
  return `((spec, pkg, tail) => { const fs = require("node:fs"), path = require("node:path"); for (const dir of require.resolve.paths(pkg) ?? []) { const root = path.join(dir, pkg); if (!fs.existsSync(path.join(root, "package.json"))) continue; const found = ["", "lib", "src", "dist"].flatMap((sub) => ["", ".js", ".cjs", ".json"].map((ext) => path.join(root, sub, tail + ext)).filter((f) => fs.existsSync(f) && fs.statSync(f).isFile()).slice(0, 1)); return found.length === 1 ? found[0] : spec; } return spec; })(${args})`;
}

/**
 * A path into the reporter's `node_modules` (issue 12, hold25: `require('./node_modules/<pkg>')`,
 * `import x from '../node_modules/@s/p/lib/a.js'`): the folder npm installed the package into, so the
 * specifier names that package (and its inner path) and loads the release installed for the report. Only a
 * path made of `./`/`../` steps then `node_modules/`; a package folder's own name never starts with `.`
 * (`node_modules/.bin/x` is a command, not a package), and a path through another folder first
 * (`./vendor/node_modules/x`, another package's nested copy) or a file merely named like one
 * (`./node_modules_cache`) stays as written. Returns the code and the specifiers so read.
 */
export function installedPackagePaths(code: string): { code: string; read: string[] } {
  const read: string[] = [];
  const out = code.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
    const m = /^(?:\.{1,2}\/)+node_modules\/((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)((?:\/[^'"\s]*)?)$/i.exec(
      spec,
    );
    if (!m) return whole;
    const tail = m[2]!.replace(/\/+$/, "");
    read.push(spec);
    return `${lead}${quote}${m[1]!}${tail}${quote}`;
  });
  return { code: out, read };
}
