/**
 * Shell sessions in reports: `$ python3 -c '…'`, `$ node -e '…'`, `$ node -pe '…'`, each followed by what it
 * printed up to the next `$` line. Each invocation becomes code (what ran) and its transcript (what it printed,
 * and the traceback or uncaught error it ended with). The interpreter named (`python3.9`, `pypy3.9`, `node`)
 * labels it, so two invocations of the same code on two interpreters are two versions side by side.
 */

import { shellWords } from "../core/shell-words.ts";

export interface ShellRun {
  /** The interpreter as typed: "python3.9", "pypy3", "node". */
  interpreter: string;
  runtime: "python" | "node";
  /** The program: the `-c`/`-e` code, or `console.log(<expr>)` for `node -p`. */
  code: string;
  /** Lines it printed, error text excluded. */
  output: string[];
  /** The traceback or uncaught error it printed, when it did. */
  errorText: string | null;
  /** For `$ python3.11 issue.py -v`: the script file it runs (another block of the report) and its arguments. */
  script?: { file: string; args: string[] };
}

const START =
  /^\s*(?:[\w@.~:/[\]-]*\s*)?[$%#>]\s+((?:python|pypy)[\d.]*|node(?:js)?)\s+(-c|-e|-p|-pe|-ep|--eval|--print)\s+(['"])/;

/** `$ python3.11 issue.py`, `$ node cli.js --flag x`: an interpreter running a script file. */
const SCRIPT_START =
  /^\s*(?:[\w@.~:/[\]-]*\s*)?[$%]\s+((?:python|pypy)[\d.]*|node(?:js)?)\s+((?:[\w.-]+\/)*[\w.-]+\.(?:py|[cm]?js))(?:\s+([^|><;&]*))?\s*$/;
const PROMPT = /^\s*(?:[\w@.~:/[\]-]*\s*)?[$%]\s/;

function errorStart(runtime: "python" | "node", l: string): boolean {
  return runtime === "python"
    ? /^Traceback \(most recent call last\):/.test(l)
    : /^\S.*:\d+$/.test(l) || /^(?:Uncaught\s+)?[A-Z]\w*(?:Error|Exception)\b/.test(l);
}

/** Invocations of an interpreter with inline code, or on a script file, in a shell block; empty when there are none. */
export function parseShellSession(text: string): ShellRun[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const runs: ShellRun[] = [];
  let i = 0;
  while (i < lines.length) {
    const m = START.exec(lines[i]!);
    const script = m ? null : SCRIPT_START.exec(lines[i]!);
    if (script) {
      const interpreter = script[1]!;
      const runtime = /^node/.test(interpreter) ? "node" : "python";
      i++;
      const printed: string[] = [];
      while (i < lines.length && !PROMPT.test(lines[i]!)) printed.push(lines[i++]!);
      const errAt = printed.findIndex((l) => errorStart(runtime, l));
      runs.push({
        interpreter,
        runtime,
        code: "",
        output: (errAt >= 0 ? printed.slice(0, errAt) : printed).filter((l) => l.trim() !== ""),
        errorText: errAt >= 0 ? printed.slice(errAt).join("\n") : null,
        script: { file: script[2]!, args: shellWords((script[3] ?? "").trim()) },
      });
      continue;
    }
    if (!m) {
      i++;
      continue;
    }
    const quote = m[3]!;
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
    while (i < lines.length && !/^\s*(?:[\w@.~:/[\]-]*\s*)?[$%]\s/.test(lines[i]!)) printed.push(lines[i++]!);
    const interpreter = m[1]!;
    const runtime = /^node/.test(interpreter) ? "node" : "python";
    let code = codeLines.join("\n");
    if (quote === '"') code = code.replace(/\\(["\\$`])/g, "$1");
    if (runtime === "node" && /p/.test(m[2]!.replace("--print", "p")))
      code = `console.log(${code.trim().replace(/;$/, "")});`;
    const errAt = printed.findIndex((l) => errorStart(runtime, l));
    const output = (errAt >= 0 ? printed.slice(0, errAt) : printed).filter((l) => l.trim() !== "");
    runs.push({
      interpreter,
      runtime,
      code,
      output,
      errorText: errAt >= 0 ? printed.slice(errAt).join("\n") : null,
    });
  }
  return runs;
}
