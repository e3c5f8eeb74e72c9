/**
 * A report whose only evidence is the package's own loading failing (`Error [ERR_REQUIRE_ESM]: require() of ES
 * Module …/node_modules/<pkg>/index.js not supported.`, `Cannot find module '…/node_modules/<pkg>/dist/x.js'`) states
 * its program: loading the package, with `require()` (the error says so). This reads such an error from the
 * report's text, and from a run's stderr, as what decides the claim: Node's error code, the package, and the file
 * of it that failed to load. Node words these messages differently across versions ("Must use import to load ES
 * Module: <path>" in Node 12, "require() of ES Module <path> from <file> not supported." since 14), and paths
 * differ by machine (`xxx\node_modules\_ansi-escapes@5.0.0@ansi-escapes\index.js`, a cnpm layout): the code, the
 * package and its file are the claim, not the wording. Pure: text in, facts out.
 */

import { completeProgram, type Program } from "./complete.ts";
import { parseReport } from "./parse-report.ts";
import type { ReportedBehaviour } from "./result.ts";

export interface LoadError {
  /** Node's error code: `ERR_REQUIRE_ESM` or `MODULE_NOT_FOUND`. */
  code: "ERR_REQUIRE_ESM" | "MODULE_NOT_FOUND";
  /** The npm package whose file failed to load. */
  pkg: string;
  /** The file inside the package, `/`-separated (`index.js`, `dist/index.js`). */
  file: string;
  /** The report's (or the run's) error line, as written. */
  line: string;
}

// `…node_modules/<pkg>/<file>` with either separator; a cnpm store entry (`_name@1.2.3@name`) names the package
// last. Scoped names keep their scope.
const PACKAGE_PATH =
  /node_modules[\\/]+(?:_[^\\/\s'"]*@[^\\/\s'"]*@)?((?:@[a-z0-9][\w.-]*[\\/]+)?[a-z0-9][\w.-]*)[\\/]+([^\s'"]+?)(?=['"]|\s|$)/i;

const ESM_LINE =
  /^\s*(?:Uncaught\s+)?(?:Error\s*)?(?:\[ERR_REQUIRE_ESM\]:?\s*)?(?:require\(\) of ES Module\b|Must use import to load ES Module\b)(.*)$/;
const ESM_CODE_LINE = /^\s*(?:Uncaught\s+)?(?:Error\s*)?\[ERR_REQUIRE_ESM\]:\s*(.*)$/;
const NOT_FOUND_LINE = /^\s*(?:Uncaught\s+)?(?:Error:\s*)?Cannot find module '([^']+)'/;

/** The first line of `text` that is Node failing to load a file of an installed package, or null. */
export function loadErrorIn(text: string): LoadError | null {
  for (const raw of text.replace(/\r\n/g, "\n").split("\n")) {
    const line = raw.trim();
    const esm = ESM_LINE.exec(line) ?? ESM_CODE_LINE.exec(line);
    const notFound = esm ? null : NOT_FOUND_LINE.exec(line);
    const where = esm ? line : notFound?.[1];
    if (!where) continue;
    const p = PACKAGE_PATH.exec(where);
    if (!p) continue;
    const file = p[2]!.replace(/\\+/g, "/").replace(/[.,;:]+$/, "");
    if (!/\.[cm]?js$|\.json$|\.node$/.test(file)) continue;
    return {
      code: esm ? "ERR_REQUIRE_ESM" : "MODULE_NOT_FOUND",
      pkg: p[1]!.replace(/\\+/g, "/").toLowerCase(),
      file,
      line,
    };
  }
  return null;
}

/** Whether a run's stderr shows the same failure: the same code, package and file. */
export function sameLoadError(reported: Pick<LoadError, "code" | "pkg" | "file">, stderr: string): boolean {
  const seen = loadErrorIn(stderr);
  return (
    seen !== null && seen.code === reported.code && seen.pkg === reported.pkg && seen.file === reported.file
  );
}

/**
 * The program a report with no code states by its error alone: loading the package with `require()`, as a
 * one-block report Retrace completes like any other. Null when the error names another package than the
 * report's (the repository's package, when known), or a relative or built-in module.
 */
export function impliedLoadSource(
  error: LoadError,
  reportPackage: string | undefined,
): { markdown: string; note: string } | null {
  if (reportPackage && reportPackage.toLowerCase() !== error.pkg) return null;
  const name = error.pkg;
  return {
    markdown: `\`\`\`js\nconst loaded = require(${JSON.stringify(name)});\n\`\`\`\n`,
    note: `the report has no code, only the error of loading \`${name}\` (\`${error.line.slice(0, 160)}\`): ran what that error comes from, \`require(${JSON.stringify(name)})\``,
  };
}

/**
 * A report with no code and no stated outcome of its own, whose text quotes the package's loading failing: the
 * program that error comes from (`impliedLoadSource`, completed like a report's block) and the error as the claim.
 * Null otherwise.
 */
export function impliedLoad(
  markdown: string,
  reportPackage: string | undefined,
): { program: Program; actual: ReportedBehaviour } | null {
  const error = loadErrorIn(markdown);
  if (!error) return null;
  const source = impliedLoadSource(error, reportPackage);
  if (!source) return null;
  const program = completeProgram(parseReport(source.markdown), null, reportPackage);
  if (!program) return null;
  const message = error.line.replace(/^\s*(?:Uncaught\s+)?(?:Error\s*)?(?:\[[A-Z_]+\])?:?\s*/, "").trim();
  return {
    program: { ...program, completions: [source.note, ...program.completions] },
    actual: {
      kind: "exception",
      exceptionType: "Error",
      exceptionMessage: message || null,
      output: [],
      source: `the error of loading \`${error.pkg}\` quoted in the report (${error.code}, ${error.pkg}/${error.file})`,
      loadError: { code: error.code, pkg: error.pkg, file: error.file },
    },
  };
}
