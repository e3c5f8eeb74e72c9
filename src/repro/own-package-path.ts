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
