/**
 * The package under test is a plugin named for its host (issue 12, hold20 moment/moment-timezone#1080): a report
 * filed on `moment-timezone` whose code loads `moment` (its own import, or one Retrace added for a free `moment`)
 * and calls what the plugin adds (`moment(…).tz(…)`). The plugin requires its host and extends it, so the reader
 * runs the code with the plugin loaded; without it every call it adds is "not a function", which is not the
 * report's bug. Rule: an npm program that never loads the repository's package `<host>-<name>` (or
 * `<host>.<name>`) but loads `<host>` loads the plugin right after the host, and installs it. Pure: a program in,
 * the same program changed in place.
 */
import { escapeRegExp } from "../core/regexp.ts";

/** The parts of complete.ts's `Program` this rule reads and changes (a structural type: complete.ts imports this module). */
interface PluginProgram {
  files: Record<string, string>;
  entry: string;
  completions: string[];
  dependencies: string[];
  ecosystem: "npm" | "pypi";
}

/** The host `pkg` is a plugin of, among the program's dependencies: `moment` for `moment-timezone`; else null. */
export function hostOf(pkg: string, dependencies: string[]): string | null {
  const p = pkg.toLowerCase();
  // A repository's root (`messageformat-monorepo`) holds the host itself, it is no plugin of it.
  if (/[-.](?:monorepo|root|workspace|packages|repo|project)$/.test(p)) return null;
  const hosts = dependencies.filter((d) => {
    const h = d.toLowerCase();
    return h !== p && (p.startsWith(`${h}-`) || p.startsWith(`${h}.`));
  });
  return hosts.length === 1 ? hosts[0]! : null;
}

/** Loads the repository's package after its host when the code loads only the host; true when it did. */
export function loadPluginAfterHost(program: PluginProgram, repositoryPackage: string | undefined): boolean {
  if (!repositoryPackage || program.ecosystem !== "npm") return false;
  if (program.dependencies.some((d) => d.toLowerCase() === repositoryPackage.toLowerCase())) return false;
  const host = hostOf(repositoryPackage, program.dependencies);
  if (!host) return false;
  const source = program.files[program.entry];
  if (source === undefined) return false;
  const spec = `(['"])${escapeRegExp(host)}\\1`;
  const cjs = new RegExp(`^.*\\brequire\\(\\s*${spec}\\s*\\).*$`, "m");
  const esm = new RegExp(`^[ \\t]*import\\b[^\\n]*?\\bfrom\\s*${spec}[^\\n]*$`, "m");
  const m = esm.exec(source) ?? cjs.exec(source);
  if (!m) return false;
  const isImport = /^\s*import\b/.test(m[0]);
  const line = isImport
    ? `import ${JSON.stringify(repositoryPackage)};`
    : `require(${JSON.stringify(repositoryPackage)});`;
  const at = (m.index ?? 0) + m[0].length;
  program.files[program.entry] = `${source.slice(0, at)}\n${line}${source.slice(at)}`;
  program.dependencies.push(repositoryPackage);
  program.completions.push(
    `loaded \`${repositoryPackage}\`, the package of the issue's repository, right after \`${host}\`: it is a plugin named for \`${host}\` and extends it, so the code runs with what it adds`,
  );
  return true;
}
