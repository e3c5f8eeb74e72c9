/**
 * A package's own command typed in a shell session: `$ retire --version`, `$ npx foo --bar`, `$ npx -p pkg cmd`,
 * `$ ./node_modules/.bin/x a b`. The package is installed like any other dependency and its `bin` runs in the
 * sandbox with the typed arguments, so what it prints is compared with the transcript below the line. A bare
 * command counts only when the report names an npm package of that name as installed (`retire@2.2.5` in an
 * `npm list`, `npm i -g retire`): `$ grep x file` or `$ tree` are no package's. Pure: text in, code out.
 */

import { escapeRegExp } from "../core/regexp.ts";
import { beforeOperator, shellWords } from "../core/shell-words.ts";

export interface PackageCommand {
  /** The npm package whose `bin` runs. */
  pkg: string;
  /** The command's name (a key of the package's `bin`). */
  command: string;
  args: string[];
  /** The release the line names (`npx foo@1.2.3`), when it does. */
  version: string | null;
  /** The command line as typed after the prompt. */
  typed: string;
}

/** Commands that are the shell's or an installer's, never a package's CLI run. */
const NOT_PACKAGE_COMMANDS = new Set([
  "node",
  "nodejs",
  "npm",
  "yarn",
  "pnpm",
  "pip",
  "pip3",
  "python",
  "python3",
  "cd",
  "cat",
  "ls",
  "echo",
  "mkdir",
  "rm",
  "cp",
  "mv",
  "grep",
  "git",
  "export",
  "set",
  "env",
  "sudo",
  "which",
  "tree",
  "touch",
  "curl",
  "wget",
]);

const NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;
const SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*?)(?:@(v?\d+\.\d+\.\d+(?:-[\w.]+)?|latest))?$/;

/** The command's own name for a package (`@scope/x` → `x`). */
const binName = (pkg: string) => pkg.replace(/^@[^/]+\//, "");

/**
 * The npm packages a report shows installed, by name: `name@1.2.3` anywhere (an `npm list` tree, an install
 * line), `npm i [-g] name`, `yarn [global] add name`.
 */
export function installedPackageNames(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/(?<![\w/.@-])((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@v?\d+\.\d+/g))
    out.add(m[1]!.toLowerCase());
  for (const m of markdown.matchAll(
    /\b(?:npm\s+(?:i|install|add)|yarn\s+(?:global\s+)?add|pnpm\s+(?:add|i|install))((?:\s+(?:-[\w-]+|(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:@[^\s]+)?))+)/g,
  ))
    for (const w of m[1]!.trim().split(/\s+/))
      if (!w.startsWith("-")) out.add(w.replace(/(.)@.*$/, "$1").toLowerCase());
  return out;
}

/**
 * The package command a shell line runs (after its prompt), or null: `npx`, `node_modules/.bin/`, or a bare
 * command that `installed` holds. A line with a pipe or a redirection is not read (its output is not the
 * command's).
 */
export function packageCommand(commandLine: string, installed: Set<string>): PackageCommand | null {
  if (/[|<>;&`]|\$\(/.test(commandLine)) return null;
  const words = shellWords(beforeOperator(commandLine.trim(), "|;&"));
  const first = words[0];
  if (!first) return null;
  if (first === "npx") {
    let i = 1;
    let pkgSpec: string | null = null;
    while (i < words.length && words[i]!.startsWith("-")) {
      const w = words[i]!;
      if (w === "-p" || w === "--package") pkgSpec = words[i + 1] ?? null;
      if (w.startsWith("--package=")) pkgSpec = w.slice("--package=".length);
      i += w === "-p" || w === "--package" ? 2 : 1;
    }
    const named = words[i];
    if (!named) return null;
    const spec = SPEC.exec(pkgSpec ?? named);
    if (!spec) return null;
    const command = pkgSpec ? named : binName(spec[1]!);
    if (!/^[\w.-]+$/.test(command)) return null;
    const version = spec[2] && spec[2] !== "latest" ? spec[2].replace(/^v/, "") : null;
    return { pkg: spec[1]!, command, args: words.slice(i + 1), version, typed: commandLine.trim() };
  }
  const bin = /^(?:\.\/)?node_modules\/\.bin\/([\w.-]+)$/.exec(first);
  if (bin)
    return { pkg: bin[1]!, command: bin[1]!, args: words.slice(1), version: null, typed: commandLine.trim() };
  if (NAME.test(first) && !NOT_PACKAGE_COMMANDS.has(first) && installed.has(first.toLowerCase()))
    return { pkg: first, command: first, args: words.slice(1), version: null, typed: commandLine.trim() };
  return null;
}

/**
 * The program that runs the command: the package's `bin` entry named `command` (its only one when the package
 * names it differently), started with this Node and the typed arguments, its output and exit status passed
 * through. A package without such a command fails as a module that cannot be found (a question, never a verdict).
 */
export function commandProgram(c: PackageCommand): string {
  const q = JSON.stringify;
  return [
    `// \`$ ${c.typed.replace(/\n/g, " ")}\`: the command \`${c.command}\` of the npm package \`${c.pkg}\`, run with the typed arguments.`,
    `const _path = require("node:path");`,
    "let _manifest;",
    "let _dir;",
    "try {",
    `  _manifest = require(${q(`${c.pkg}/package.json`)});`,
    `  _dir = _path.dirname(require.resolve(${q(`${c.pkg}/package.json`)}));`,
    "} catch {",
    `  _dir = _path.join(__dirname, "node_modules", ${q(c.pkg)});`,
    `  _manifest = JSON.parse(require("node:fs").readFileSync(_path.join(_dir, "package.json"), "utf8"));`,
    "}",
    "const _bins =",
    `  typeof _manifest.bin === "string" ? { [String(_manifest.name).replace(/^@[^/]+\\//, "")]: _manifest.bin } : _manifest.bin || {};`,
    `const _bin = _bins[${q(c.command)}] ?? (Object.keys(_bins).length === 1 ? Object.values(_bins)[0] : undefined);`,
    "if (!_bin) {",
    `  const e = new Error(${q(`Cannot find module '${c.pkg}/.bin/${c.command}' (the package has no command \`${c.command}\`)`)});`,
    `  e.code = "MODULE_NOT_FOUND";`,
    "  throw e;",
    "}",
    `const _run = require("node:child_process").spawnSync(process.execPath, [_path.join(_dir, _bin), ...${q(c.args)}], { stdio: "inherit" });`,
    "if (_run.error) throw _run.error;",
    "process.exitCode = _run.status ?? 1;",
    "",
  ].join("\n");
}

/**
 * What the prose says a session's package command prints, as an issue template asks for it: the typed command as
 * a label (`Retire.js version: (retire --version):`) and the value after it, on the same line or the next
 * (`2.2.4 (but 2.2.5 is the one installed)`, its parenthetical remark dropped), when it is one word. Null otherwise.
 */
export function labelledCommandValue(prose: string, typed: string): string | null {
  const escaped = escapeRegExp(typed);
  const label = new RegExp(`(?:^|[\\s(\`])${escaped}\`?\\)?\\s*:\\s*(.*)$`);
  const lines = prose.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = label.exec(lines[i]!);
    if (!m) continue;
    const raw = (m[1]!.trim() || lines[i + 1]?.trim()) ?? "";
    const value = raw.replace(/\s+\([^()]*\)\s*$/, "").trim();
    // One word only ("2.2.4", "true"): a sentence after the label is the reporter's account, not the output.
    if (/^\S{1,80}$/.test(value) && !/:$/.test(value)) return value;
  }
  return null;
}
