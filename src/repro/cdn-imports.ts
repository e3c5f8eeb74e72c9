/**
 * A browser import from a CDN (`import _ from "https://esm.sh/lodash-es"`, `https://cdn.jsdelivr.net/npm/x@1/+esm`,
 * `https://unpkg.com/x@1.2.3/dist/x.mjs?module`): Node's loader refuses an `https:` specifier, a failure of the
 * sandbox's runtime, never the report's claim. The address names an npm package (and often its release and a
 * subpath), so the import is read as that package's: the bare specifier, the release pinned by versions.ts.
 * Only string literals of `import … from`, `import(…)` and `export … from`; any other URL is left as written.
 * esm.sh's `gh/`, `pr/` and `jsr/` addresses (a GitHub repository, a pull request's build, a JSR package) name
 * no npm package: left as written too.
 */

/** The CDNs that serve npm packages by name: esm.sh (with its `/v135/` build prefix), jsDelivr, unpkg, Skypack, esm.run. */
const CDN_SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])https?:\/\/(?:esm\.sh\/(?!(?:v\d+\/)?(?:gh|pr|jsr)\/)(?:v\d+\/)?|cdn\.jsdelivr\.net\/npm\/|unpkg\.com\/|cdn\.skypack\.dev\/|esm\.run\/)((?:@[\w.-]{1,100}\/)?[\w.-]{1,100})(?:@[\w.^~<>=-]{1,60})?((?:\/[\w.-]{1,100}){0,8})\/?(?:\+esm)?(?:\?[^"'\n]{0,200})?\2/g;

export interface CdnRewrite {
  code: string;
  /** The packages read from addresses, in order (`lodash-es`, `es-toolkit/compat`). */
  read: string[];
}

export function cdnImportsAsPackages(code: string): CdnRewrite {
  const read: string[] = [];
  const out = code.replace(
    CDN_SPECIFIER,
    (_whole, lead: string, quote: string, name: string, sub: string) => {
      // jsDelivr's `/+esm` and esm.sh's `/es2022/x.mjs` builds are the CDN's, not a path of the package.
      const path = /^\/(?:\+esm|es20\d\d|esnext|denonext|node)\b/.test(sub) ? "" : sub;
      const spec = `${name}${path}`;
      read.push(spec);
      return `${lead}${quote}${spec}${quote}`;
    },
  );
  return { code: out, read };
}
