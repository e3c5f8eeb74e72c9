/**
 * Shell sessions in reports: `$ python3 -c '…'`, `$ node -e '…'`, `$ node -pe '…'`, each followed by what it
 * printed up to the next `$` line. Each invocation becomes code (what ran) and its transcript (what it printed,
 * and the traceback or uncaught error it ended with). The interpreter named (`python3.9`, `pypy3.9`, `node`)
 * labels it, so two invocations of the same code on two interpreters are two versions side by side.
 */

import { beforeOperator, shellWords } from "../core/shell-words.ts";
import { commandProgram, type PackageCommand, packageCommand } from "./package-cli.ts";
import { PYTHON_STDLIB_MODULE_NAMES } from "./python-stdlib.ts";

export interface ShellRun {
  /** The interpreter as typed: "python3.9", "pypy3", "node". */
  interpreter: string;
  runtime: "python" | "node";
  /**
   * The program: the `-c`/`-e` code, `console.log(<expr>)` for `node -p`, or for `python -m <module>` a program
   * running that module as `-m` does (runpy, `__main__`, the typed arguments in `sys.argv`).
   */
  code: string;
  /** Lines it printed, error text excluded. */
  output: string[];
  /** The traceback or uncaught error it printed, when it did. */
  errorText: string | null;
  /** For `$ python3.11 issue.py -v`: the script file it runs (another block of the report) and its arguments. */
  script?: { file: string; args: string[] };
  /** Packages the session installed before this run (`$ npm i yargs@13.1.0`, `$ pip install x==1.2`). */
  installed?: { name: string; version: string }[];
  /** `$ retire --version`, `$ npx foo --bar`: a package's own command (package-cli.ts); `code` runs it. */
  cli?: PackageCommand;
  /** The interpreter's own options typed before the code or script (`python3 -O -c`, `node --no-warnings x.js`). */
  flags?: string[];
}

/**
 * An interpreter's own option typed before `-c`/`-e`, `-m` or the script (issue 12, hold25): CPython's
 * letter options with no argument, alone or grouped (`-O`, `-OO`, `-Es`, `-I`, `-B`, `-u`), `-W arg` and `-X opt`
 * (with or without the blank), `--check-hash-based-pycs mode`; Node's long options, with `=value` or, for those
 * documented to take a separate one, followed by it (`--require x`, `--import x`, `--loader x`, `--conditions x`,
 * `--input-type x`, `--title x`, `--env-file x`, `-r x`, `-C x`), never its `--eval`/`--print`, which are the code.
 */
export const INTERPRETER_FLAG = String.raw`(?:-[bBdEiIOPqsSuvxR]+|-[WX]\s*[^\s'"-][^\s'"]*|--check-hash-based-pycs\s+\w+|--(?:require|import|loader|experimental-loader|conditions|input-type|title|env-file|redirect-warnings|openssl-config|icu-data-dir)\s+[^\s'"-][^\s'"]*|-[rC]\s+[^\s'"-][^\s'"]*|--(?!eval|print)[a-z][\w-]*(?:=[^\s'"]+)?)`;
const FLAGS = String.raw`((?:\s+${INTERPRETER_FLAG})*)`;

/** The flags a command line typed, as words (`-W error` stays two: the interpreter reads it so). */
export function interpreterFlags(typed: string | undefined): string[] {
  return typed ? shellWords(typed.trim()) : [];
}

/**
 * What a shell prompt may show before its `$`/`%`/`#`/`>`: `user@host:~/dir`, `C:\\src`, `(venv)`, or a
 * user@host then a directory after a space, as fish (`user@host ~> `) and zsh (`user@host ~ % `) print it.
 */
const PROMPT_HEAD = String.raw`(?:[\w.-]+@[\w.-]+(?::\S*)?\s+(?:[~\w./-]+\s*)?|[\w@.~:/\\[\]-]*\s*)?`;
const prompted = (rest: string, flags = "") => new RegExp(String.raw`^\s*` + PROMPT_HEAD + rest, flags);

const INSTALL = prompted(
  String.raw`[$%#]\s+(?:npm\s+(?:i|install|add)|yarn\s+add|pnpm\s+(?:add|i|install)|(?:python[\d.]*\s+-m\s+)?pip[\d.]*\s+install)\s+(.+)$`,
);

/** `yargs@13.1.0`, `@scope/x@1.2.3`, `requests==2.31.0` among an install command's words. */
function installedPackages(line: string): { name: string; version: string }[] {
  const m = INSTALL.exec(line);
  if (!m) return [];
  const out: { name: string; version: string }[] = [];
  for (const w of shellWords(beforeOperator(m[1]!, "|;&"))) {
    const p = /^((?:@[\w.-]+\/)?[\w.-]+)(?:@|==)v?(\d+\.\d+\.\d+(?:-[\w.]+)?)$/.exec(w);
    if (p) out.push({ name: p[1]!, version: p[2]! });
  }
  return out;
}

const START = prompted(
  String.raw`[$%#>]\s+(?:[\w.:~-]*[/\\])*((?:python|pypy)[\d.]*|node(?:js)?)(?:\.exe)?${FLAGS}\s+(-c|-e|-p|-pe|-ep|--eval|--print)\s+(['"])`,
);
/** PowerShell's prompt: `PS C:\src> `, `PS ~>` (the command may follow the `>` with no space). */
const PS_PROMPT = /^\s*PS(?:\s+[^>\n]*)?>/;
/**
 * `PS ~>uvx python@3.11 -c @'` … `'@`: PowerShell running inline code given as a here-string (literal up to a
 * line that is `'@` or `"@`), the interpreter perhaps through a launcher that picks its version (`uvx`).
 */
const PS_HERE_START =
  /^\s*PS(?:\s+[^>\n]*)?>\s*(?:(?:uvx|uv\s+run|pipx\s+run)\s+)?(?:[\w.:~-]*[/\\])*((?:python|pypy)(?:@?[\d.]+)?|node(?:js)?)(?:\.exe)?\s+(-c|-e|-p|--eval|--print)\s+@(['"])\s*$/;

/** `$ python3.11 issue.py`, `$ node cli.js --flag x`: an interpreter running a script file. */
const SCRIPT_START = prompted(
  String.raw`(?:[$%]|>(?=\s*(?:python|pypy|node)))\s+(?:(?:[\w.:~-]*[/\\])*((?:python|pypy)[\d.]*|node(?:js)?)(?:\.exe)?${FLAGS}\s+|(?=\.\/))((?:\.\/)?(?:[\w.-]+\/)*[\w.-]+\.(?:py|[cm]?js))(?:\s+([^|><;&]*))?\s*$`,
);
/**
 * `$ python3 -m pprint`, `> python -m json.tool data.json`: an interpreter running a module of its standard library
 * (`-m pip install` is an install, and a package's module needs the package: neither is read here).
 */
const MODULE_START = prompted(
  String.raw`(?:[$%]|>(?=\s*(?:python|pypy)))\s+(?:[\w.:~-]*[/\\])*((?:python|pypy)[\d.]*)(?:\.exe)?${FLAGS}\s+-m\s+([A-Za-z_][\w.]*)(?:\s+([^|><;&]*))?\s*$`,
);

/** The program `python -m <module> <args>` runs, as a file: the module as `__main__` with the typed arguments. */
export function moduleProgram(module: string, args: readonly string[]): string {
  return [
    "import runpy, sys",
    `sys.argv = ${JSON.stringify([module, ...args])}`,
    // Bound, so no completion echoes the module's globals as a last expression's value.
    `_module_globals = runpy.run_module(${JSON.stringify(module)}, run_name="__main__", alter_sys=True)`,
  ].join("\n");
}

// `$ `, `% `, and `> ` / `C:\\src> ` (cmd.exe, PowerShell) when an interpreter follows.
/**
 * `user@host:~$ `, `user@host ~ % `, and fish's `user@host ~> ` (a `>` only after a `~` or `/` directory, so
 * printed text like `a@b c> d` is not one): a prompt whatever command follows.
 */
const USER_HOST_PROMPT =
  /^\s*[\w.-]+@[\w.-]+(?:(?::\S*)?\s*[$%#]|\s+[~/][\w./~-]*\s*>|\s+[\w./~-]+\s+[$%#])\s/;
const HEADED_PROMPT = prompted(String.raw`(?:[$%]\s|>\s*(?:python|pypy|node)[\w.]*\s)`);
const PROMPT = {
  test: (l: string) => USER_HOST_PROMPT.test(l) || HEADED_PROMPT.test(l) || PS_PROMPT.test(l),
};

/**
 * A prompt of a theme the patterns above do not know (`user@host ~ € `, `user@host dir ❯ `): a `user@host dir`
 * head then one non-ASCII symbol (ASCII punctuation such as ` - ` is too common in printed text), read as a
 * prompt only when the identical head starts two or more lines of the block, as a session repeats it. Those heads become `$ `; a head seen once is left as printed text.
 */
const THEMED_HEAD = /^(\s*[\w.-]+@[\w.-]+\s+[~\w./-]+\s+[^\s!-~])[ \t]/;

/** The block's lines, CRLF read as LF, with a themed prompt repeated across them written as `$ `. */
export function sessionLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const counts = new Map<string, number>();
  for (const l of lines) {
    const head = THEMED_HEAD.exec(l)?.[1];
    if (head) counts.set(head, (counts.get(head) ?? 0) + 1);
  }
  return lines.map((l) => {
    const head = THEMED_HEAD.exec(l)?.[1];
    return head && (counts.get(head) ?? 0) >= 2 ? `$ ${l.slice(head.length).trimStart()}` : l;
  });
}

function errorStart(runtime: "python" | "node", l: string): boolean {
  return runtime === "python"
    ? /^Traceback \(most recent call last\):/.test(l)
    : /^\S.*:\d+$/.test(l) || /^(?:Uncaught\s+)?[A-Z]\w*(?:Error|Exception)\b/.test(l);
}

/** What a run printed, split where its error starts: the output lines (blank ones dropped) and the error text. */
function transcriptOf(printed: string[], runtime: "python" | "node"): Pick<ShellRun, "output" | "errorText"> {
  const errAt = printed.findIndex((l) => errorStart(runtime, l));
  return {
    output: (errAt >= 0 ? printed.slice(0, errAt) : printed).filter((l) => l.trim() !== ""),
    errorText: errAt >= 0 ? printed.slice(errAt).join("\n") : null,
  };
}

const PROMPTED_LINE = prompted(String.raw`[$%]\s+(.+)$`);

/**
 * A prompt alone on its line with the command it ran wrapped onto the next (`$ ` then `node -e "…"`, as a
 * narrow terminal or an editor pastes it): one line again, only when the joined line runs an interpreter.
 */
function joinedBarePrompts(lines: string[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    const next = lines[k + 1];
    if (/^\s*(?:[\w@.~:/[\]-]*\s*)?[$%]\s*$/.test(line) && next !== undefined && /^\S/.test(next)) {
      const joined = `${line.trimEnd()} ${next.trim()}`;
      if (START.test(joined) || SCRIPT_START.test(joined)) {
        out.push(joined);
        k++;
        continue;
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * Invocations of an interpreter with inline code, or on a script file, or of a package's own command (a bare one
 * only when `packages` names its package), in a shell block; empty when there are none.
 */
export function parseShellSession(text: string, packages: Set<string> = new Set()): ShellRun[] {
  const lines = joinedBarePrompts(sessionLines(text));
  const runs: ShellRun[] = [];
  const installs = new Map<string, string>();
  const installed = () =>
    installs.size > 0 ? { installed: [...installs].map(([name, version]) => ({ name, version })) } : {};
  let i = 0;
  while (i < lines.length) {
    for (const p of installedPackages(lines[i]!)) installs.set(p.name, p.version);
    const m = START.exec(lines[i]!);
    const script = m ? null : SCRIPT_START.exec(lines[i]!);
    if (script) {
      // `$ ./mytest.js --all`: an executable script, run by its shebang's interpreter.
      const interpreter = script[1] ?? (/\.py$/.test(script[3]!) ? "python3" : "node");
      const flags = interpreterFlags(script[2]);
      const runtime = /^node/.test(interpreter) ? "node" : "python";
      i++;
      const printed: string[] = [];
      while (i < lines.length && !PROMPT.test(lines[i]!)) printed.push(lines[i++]!);
      runs.push({
        interpreter,
        runtime,
        code: "",
        ...transcriptOf(printed, runtime),
        script: { file: script[3]!.replace(/^\.\//, ""), args: shellWords((script[4] ?? "").trim()) },
        ...(flags.length > 0 ? { flags } : {}),
        ...installed(),
      });
      continue;
    }
    const mod = m ? null : MODULE_START.exec(lines[i]!);
    if (mod && PYTHON_STDLIB_MODULE_NAMES.includes(mod[3]!.split(".")[0]!) && mod[3] !== "pip") {
      const flags = interpreterFlags(mod[2]);
      i++;
      const printed: string[] = [];
      while (i < lines.length && !PROMPT.test(lines[i]!)) printed.push(lines[i++]!);
      runs.push({
        interpreter: mod[1]!,
        runtime: "python",
        code: moduleProgram(mod[3]!, shellWords((mod[4] ?? "").trim())),
        ...transcriptOf(printed, "python"),
        ...(flags.length > 0 ? { flags } : {}),
        ...installed(),
      });
      continue;
    }
    const prompted = m ? null : PROMPTED_LINE.exec(lines[i]!);
    const cli = prompted ? packageCommand(prompted[1]!, packages) : null;
    if (cli) {
      i++;
      const printed: string[] = [];
      while (i < lines.length && !PROMPT.test(lines[i]!)) printed.push(lines[i++]!);
      if (cli.version) installs.set(cli.pkg, cli.version);
      runs.push({
        interpreter: "node",
        runtime: "node",
        code: commandProgram(cli),
        ...transcriptOf(printed, "node"),
        cli,
        ...installed(),
      });
      continue;
    }
    const here = m ? null : PS_HERE_START.exec(lines[i]!);
    if (here) {
      const close = `${here[3]!}@`;
      const codeLines: string[] = [];
      for (i++; i < lines.length && lines[i]!.trim() !== close; i++) codeLines.push(lines[i]!);
      i++;
      const printed: string[] = [];
      while (i < lines.length && !PROMPT.test(lines[i]!)) printed.push(lines[i++]!);
      const interpreter = here[1]!.replace("@", "");
      const runtime = /^node/.test(interpreter) ? "node" : "python";
      let code = codeLines.join("\n");
      if (runtime === "node" && /p/.test(here[2]!.replace("--print", "p")))
        code = `console.log(${code.trim().replace(/;$/, "")});`;
      runs.push({
        interpreter,
        runtime,
        code,
        ...transcriptOf(printed, runtime),
        ...installed(),
      });
      continue;
    }
    if (!m) {
      i++;
      continue;
    }
    const quote = m[4]!;
    const flags = interpreterFlags(m[2]);
    let rest = lines[i]!.slice(m.index + m[0].length);
    const codeLines: string[] = [];
    // The code runs to the matching closing quote (possibly lines later).
    for (;;) {
      const end = quote === "'" ? rest.indexOf("'") : rest.search(/(?<!\\)"/);
      if (end >= 0) {
        codeLines.push(rest.slice(0, end));
        break;
      }
      codeLines.push(rest);
      i++;
      if (i >= lines.length) break;
      rest = lines[i]!;
    }
    i++;
    const printed: string[] = [];
    while (
      i < lines.length &&
      !USER_HOST_PROMPT.test(lines[i]!) &&
      !/^\s*(?:[\w@.~:/[\]-]*\s*)?[$%]\s/.test(lines[i]!)
    )
      printed.push(lines[i++]!);
    const interpreter = m[1]!;
    const runtime = /^node/.test(interpreter) ? "node" : "python";
    let code = codeLines.join("\n");
    if (quote === '"') code = code.replace(/\\(["\\$`])/g, "$1");
    if (runtime === "node" && /p/.test(m[3]!.replace("--print", "p")))
      code = `console.log(${code.trim().replace(/;$/, "")});`;
    runs.push({
      interpreter,
      runtime,
      code,
      ...transcriptOf(printed, runtime),
      ...(flags.length > 0 ? { flags } : {}),
      ...installed(),
    });
  }
  return runs;
}

/** A command line of a prompt-less shell block: an install, a directory change, or a comment. */
const PLAIN_COMMAND =
  /^\s*(?:#.*|(?:npm\s+(?:i|install|add)|yarn(?:\s+add)?|pnpm\s+(?:add|i|install)|(?:python[\d.]*\s+-m\s+)?pip[\d.]*\s+install|cd|mkdir)(?:\s.*)?)$/;
const PLAIN_START = /^\s*(?:(?:python|pypy)[\d.]*|node(?:js)?)\s+(?:-c|-e|-p|-pe|-ep|--eval|--print)\s+['"]/;

/**
 * The inline programs of a shell block typed without prompts (a ```` ```bash ```` block of `yarn add x` then
 * `node -e "require('x')"`): read only when every line is a command (an install, `cd`, `mkdir`, a comment, or an
 * interpreter's `-c`/`-e` code), so nothing in it is output. Empty when a line is anything else, or a prompt
 * (then parseShellSession reads it).
 */
export function promptlessPrograms(text: string): ShellRun[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const nonBlank = lines.filter((l) => l.trim() !== "");
  if (!nonBlank.some((l) => PLAIN_START.test(l))) return [];
  // A `-c`/`-e` program may run over several lines to its closing quote: prefix the commands with a prompt and
  // let parseShellSession read them; any line left over as printed output means the block was not all commands.
  const prompted = lines
    .map((l) => (PLAIN_START.test(l) || PLAIN_COMMAND.test(l) ? `$ ${l.trim()}` : l))
    .join("\n");
  const runs = parseShellSession(prompted);
  if (runs.some((r) => r.output.length > 0 || r.errorText !== null || r.script)) return [];
  return runs;
}

/** A file a shell session writes (`cat > f.js`, a heredoc) or shows (`cat f.js`), with its text. */
export interface SessionFile {
  file: string;
  content: string;
  /** "written": created in the session (`cat > f`, `cat <<EOF > f`, `tee f`); "shown": printed by `cat f`. */
  how: "written" | "shown";
}

const SOURCE_FILE = String.raw`((?:[\w.-]+\/)*[\w.-]+\.(?:py|[cm]?[jt]s))`;
const CAT_WRITE = new RegExp(
  String.raw`^\s*(?:[\w@.~:/[\]-]*\s*)?[$%#]\s+(?:cat\s+(?:<<-?\s*['"]?(\w+)['"]?\s+)?>|tee)\s*${SOURCE_FILE}(?:\s+<<-?\s*['"]?(\w+)['"]?)?\s*$`,
);
const CAT_SHOW = new RegExp(
  String.raw`^\s*(?:[\w@.~:/[\]-]*\s*)?[$%]\s+(?:cat|type|more|less)\s+${SOURCE_FILE}\s*$`,
);
/** How a typed file ends without a heredoc marker: Ctrl+D as reporters write it. */
const EOF_KEY = /^\s*(?:<\s*)?(?:\^D|Ctrl[-+ ]?D|<?EOF>?)\s*>?\s*$/i;

/**
 * The files a shell session writes or shows: `$ cat > test.js` followed by the typed code up to `<Ctrl+D>`
 * (or the next prompt), `$ cat <<EOF > test.js` up to `EOF`, `$ cat test.js` followed by what it printed. A
 * script the session then runs (`$ node test.js --dev`) is this file.
 */
export function sessionFiles(text: string): SessionFile[] {
  const lines = sessionLines(text);
  const files: SessionFile[] = [];
  for (let i = 0; i < lines.length; i++) {
    const write = CAT_WRITE.exec(lines[i]!);
    const show = write ? null : CAT_SHOW.exec(lines[i]!);
    if (!write && !show) continue;
    const marker = write ? (write[1] ?? write[3] ?? null) : null;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (marker ? l.trim() === marker : write && EOF_KEY.test(l)) break;
      if (!marker && PROMPT.test(l)) {
        j--;
        break;
      }
      body.push(l);
    }
    const content = body.join("\n").replace(/\s+$/, "");
    if (content.trim())
      files.push({ file: (write?.[2] ?? show?.[1])!, content, how: write ? "written" : "shown" });
    i = j;
  }
  return files;
}
