/**
 * A release whose own file does not parse on the sandbox's Node (issue 12, hold17 xiguaxigua/numerify#7: 1.2.9's
 * main file is ES syntax, `export default numerify;`, in a package without `"type": "module"`, so `require` and
 * `import` both stop on `SyntaxError: Unexpected token 'export'`). Node puts the file and line of a parse error
 * first on stderr; when that file is under `node_modules/<pkg>/`, the code that does not parse is the package's,
 * never the report's: the release cannot be loaded here. Pure: a run's text in, the package out.
 */

export interface PackageParseFailure {
  /** The npm package whose file does not parse (scoped names keep their scope). */
  pkg: string;
  /** The file inside the package, `/`-separated. */
  file: string;
  /** The line Node quoted under the location. */
  source: string;
}

const LOCATION =
  /^(?:file:\/\/)?\/workspace\/(?:\S+\/)?node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\/(\S+?):(\d+)\n(.*)$/m;

/** The package file a run's parse error points into, or null (not a parse error, or one in the program's own file). */
export function packageParseFailure(run: {
  exception: { type: string } | null;
  stderr: string;
}): PackageParseFailure | null {
  if (run.exception?.type !== "SyntaxError") return null;
  const m = LOCATION.exec(run.stderr);
  if (!m) return null;
  // A run-time SyntaxError (`JSON.parse` inside the package) has its first frame in code that ran; a parse error
  // has none, or Node's own loader first (`internalCompileFunction`, `wrapSafe`, `node:internal/…`).
  const frame = /^[ \t]+at (.*)$/m.exec(run.stderr)?.[1];
  if (
    frame !== undefined &&
    !/^(?:node:internal\/|internalCompileFunction\b|wrapSafe\b|compileSourceTextModule\b|ModuleLoader\.moduleStrategy\b)|\(node:internal\//.test(
      frame,
    )
  )
    return null;
  return { pkg: m[1]!, file: m[2]!, source: m[4]!.trim().slice(0, 160) };
}

/** The package whose own file does not parse in this run, or null. */
export function packageFileDoesNotParse(run: {
  exception: { type: string } | null;
  stderr: string;
}): string | null {
  return packageParseFailure(run)?.pkg ?? null;
}
