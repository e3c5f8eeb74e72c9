/**
 * REPL transcripts (`>>> ` / `... ` for Python, IPython's `In [N]:` / `...:` read as those, `> ` / `... ` for
 * Node) turned into scripts.
 * Expressions typed at the prompt are echoed the way the REPL would (Python: `sys.displayhook`, which
 * skips None; Node: `util.inspect`, skipping undefined), so the script prints what the session printed.
 * The printed lines of the session become the reported output, a traceback the reported exception.
 */
import { splitComment } from "./annotations.ts";
import { scanCode } from "./code-scan.ts";

export interface Transcript {
  /** The statements typed at the prompts, each possibly spanning several lines. */
  inputs: string[];
  /** Lines the session printed (REPL echoes and program output), in order, tracebacks excluded. */
  output: string[];
  /** The traceback / uncaught error text printed by the session, when there is one. */
  errorText: string | null;
  /** Indices of `inputs` after which the session printed an error (the REPL went on to the next prompt). */
  raised?: number[];
}

const PY_KEYWORD_START =
  /^(import|from|def|class|if|elif|else|for|while|with|try|except|finally|return|raise|del|assert|pass|global|nonlocal|async|break|continue|@)\b/;
// A keyword as a whole word: `format(…)`, `document.title`, `letters()` and `tryParse(…)` are expressions.
const JS_KEYWORD_START =
  /^(?:(?:const|let|var|function|class|if|else|for|while|do|switch|try|catch|finally|return|throw|import|export|async\s+function)\b|\{|\}|\/\/)/;

/** A statement that only binds a module: `dayjs = require('dayjs')`, `const _ = require("lodash");`. */
const REQUIRE_STATEMENT =
  /^[ \t]*(?:(?:const|let|var)[ \t]+)?[A-Za-z_$][\w$]*[ \t]*=[ \t]*require\([ \t]*['"][^'"\n]+['"][ \t]*\)[ \t;]*$/;

/** Split a transcript into statements and printed lines. */
/** One character that starts no expression or statement on its own: not a name, number, quote, bracket or escape. */
const CURSOR_GLYPH = /^[^\w$\s([{'"`\\.@#-]$/u;

/** A statement that binds a module and nothing else: `x = require("y")`, `const x = require('y');`. */
const LOST_PROMPT_REQUIRE =
  /^(?:(?:const|let|var)\s+)?[A-Za-z_$][\w$]*\s*=\s*require\(\s*(['"])[^'"\n]+\1\s*\)(?:\.[A-Za-z_$][\w$]*)*\s*;?$/;

export function parseTranscript(text: string, flavour: "python" | "node"): Transcript {
  const prompt = flavour === "python" ? ">>> " : "> ";
  const barePrompt = flavour === "python" ? ">>>" : ">";
  // PyPy's REPL prompts with `>>>> ` and continues with `.... `; other implementations draw more chevrons
  // (RustPython's `>>>>> `).
  const pypy = (l: string) => flavour === "python" && /^>{4,5}(?: |$)/.test(l);
  const inputs: string[] = [];
  const output: string[] = [];
  const errorLines: string[] = [];
  const raisedAt = new Set<number>();
  let inError = false;
  const session = flavour === "python" ? (ipythonAsPycon(text) ?? text) : text;
  const lines = session.replace(/\r\n/g, "\n").split("\n");
  const isPrompt = (l: string) => pypy(l) || l.startsWith(prompt) || l === barePrompt;
  const remark = flavour === "python" ? /^\s*#(?:\s|$)/ : /^\s*\/\/(?:\s|$)/;
  // A session the reporter annotates with comments of their own (`#` lines before the first prompt, which no
  // statement printed): a REPL never echoes a comment, so the session's comment lines are the
  // reporter's words, not output; and one after a statement's output ("# It should match what cal prints…")
  // closes that output: what follows, up to the next prompt, is what the comment introduces (another program's
  // output, the expected side), never the statement's.
  const firstPrompt = lines.findIndex((l) => isPrompt(l.trimEnd()));
  const annotated = firstPrompt > 0 && lines.slice(0, firstPrompt).some((l) => remark.test(l));
  let printedSincePrompt = 0;
  let closed = false;
  // Whether the session showed anything (output, an error, a continuation) after its last prompt.
  let afterLastPrompt = false;
  // A Node session whose fence cut off its first prompt: the first line, before any prompt, binding a module
  // (`slug=require("speakingurl")`, echoed by its dump) is that first input; no output comes before a statement.
  const lostPrompt = flavour === "node" && firstPrompt > 0 ? lines.findIndex((l) => l.trim() !== "") : -1;
  for (const [at, raw] of lines.entries()) {
    const line = raw.trimEnd();
    if (at === lostPrompt && inputs.length === 0 && LOST_PROMPT_REQUIRE.test(line.trim())) {
      inputs.push(line.trim());
      continue;
    }
    if (isPrompt(line)) {
      afterLastPrompt = false;
      inError = false;
      closed = false;
      printedSincePrompt = 0;
      inputs.push(line.slice(pypy(line) ? (/^>+ ?/.exec(line)?.[0].length ?? prompt.length) : prompt.length));
      continue;
    }
    if (annotated && inputs.length > 0 && !inError) {
      if (remark.test(line)) {
        if (printedSincePrompt > 0) closed = true;
        continue;
      }
      if (closed) continue;
      if (line.trim() !== "" && !line.startsWith("... ") && line !== "...") printedSincePrompt++;
    }
    const pypyMore = flavour === "python" && /^\.\.\.\.(?: |$)/.test(line);
    if ((pypyMore || line.startsWith("... ") || line === "...") && inputs.length > 0) {
      const cont = line.slice(pypyMore ? 5 : 4);
      inputs[inputs.length - 1] += `\n${cont}`;
      continue;
    }
    if (inputs.length === 0) continue;
    if (line.trim() !== "") afterLastPrompt = true;
    if (flavour === "python" && line.startsWith("Traceback (most recent call last):")) inError = true;
    if (flavour === "node" && /^Uncaught\b/.test(line)) inError = true;
    if (inError) {
      raisedAt.add(inputs.length - 1);
      errorLines.push(line);
      continue;
    }
    if (flavour === "node" && line === "undefined") continue;
    if (line.trim() === "") continue;
    // What the REPL echoes for `x = require('y')` is the module's own dump (`{ [Function: y] extend: … }`),
    // never what the report is about.
    if (flavour === "node" && REQUIRE_STATEMENT.test(inputs[inputs.length - 1] ?? "")) continue;
    output.push(line);
  }
  // Python's REPL reports an error found while compiling (SyntaxError, IndentationError) without a
  // `Traceback` header: the statement echoed (after `File "<stdin>", line 1` on some versions), a caret line
  // under it, then `SyntaxError: …`. That is the error the session ended with, not printed output.
  if (flavour === "python" && errorLines.length === 0) {
    const last = output.length - 1;
    const caret = (l: string | undefined) => l !== undefined && /^\s*\^[\^~]*\s*$/.test(l);
    if (last >= 1 && /^(?:SyntaxError|IndentationError|TabError)\b(?::\s*\S.*)?$/.test(output[last]!)) {
      const at = caret(output[last - 1]) ? last - 1 : -1;
      if (at >= 0) {
        let start = at > 0 ? at - 1 : at;
        if (start > 0 && /^\s*File "<[\w-]+>", line \d+/.test(output[start - 1]!)) start--;
        errorLines.push(...output.splice(start));
      }
    }
  }
  // The last prompt holding one glyph that begins no statement (the cursor `|` or `█`, a return-key mark `⏎`
  // the reporter drew) is the empty prompt the session stopped at, not code typed at it.
  const lastInput = inputs.length - 1;
  if (lastInput >= 0 && CURSOR_GLYPH.test(inputs[lastInput]!.trim())) inputs[lastInput] = "";
  // The last prompt cut mid-statement (an open string or bracket, nothing shown after it: "the excerpt ends
  // here"): the REPL would have waited for the rest under a continuation prompt, so it was never run as shown.
  if (lastInput >= 0 && !afterLastPrompt && cutMidStatement(inputs[lastInput]!)) inputs[lastInput] = "";
  const kept = inputs
    .map((s, i) => ({ s: s.replace(/\n+$/, ""), raised: raisedAt.has(i) }))
    .filter((x) => x.s.trim() !== "");
  const raised = kept.flatMap((x, i) => (x.raised ? [i] : []));
  return {
    inputs: kept.map((x) => x.s),
    output,
    errorText: errorLines.length > 0 ? errorLines.join("\n") : null,
    ...(raised.length > 0 ? { raised } : {}),
  };
}

/**
 * A statement that ends inside a string or with a bracket still open: typed only in part. Only one with a name in
 * it (`matter("---\n{}+`): a lone bracket or quote at the last prompt is what was typed there.
 */
function cutMidStatement(stmt: string): boolean {
  if (!/[A-Za-z_$][\w$]*\s*[(.[]/.test(stmt)) return false;
  const end = scanCode(stmt.trimEnd());
  return end.inString || end.depth > 0;
}

/** True when a top-level `=` makes the line an assignment (not `==`, `<=`, `>=`, `!=`, `:=`, or a keyword argument). */
function hasTopLevelAssignment(line: string): boolean {
  const found = scanCode(line, (ch, i, depth) => {
    if (ch !== "=" || depth !== 0) return undefined;
    const prev = line[i - 1] ?? "";
    const next = line[i + 1] ?? "";
    return next === "=" || "=<>!:".includes(prev) ? undefined : true;
  });
  return found.stopped === true;
}

function isPythonExpression(stmt: string): boolean {
  if (stmt.includes("\n")) return false;
  const s = stmt.trim();
  if (s === "" || s.startsWith("#") || PY_KEYWORD_START.test(s)) return false;
  if (/^\w[\w.]*\s*[-+*/%&|^@]=|^\w[\w.[\]'"]*\s*\*\*=|^\w[\w.]*\s*(\/\/|<<|>>)=/.test(s)) return false;
  if (/^\w[\w.]*\s*:\s*[\w[\]., ]+(=|$)/.test(s) && !s.startsWith("lambda")) return false;
  // Statements joined or ended by `;` run as typed (IPython prints no value for `x;`).
  if (scanCode(s, (ch, _i, depth) => (ch === ";" && depth === 0 ? true : undefined)).stopped) return false;
  if (s.endsWith(":")) return false;
  // Two names side by side outside strings and brackets (`python hello.py`) do not parse as an expression:
  // the line runs as typed, so its SyntaxError is the one the REPL gave.
  const top = s
    .replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""')
    .replace(/\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}/g, "()");
  for (const m of top.matchAll(/([A-Za-z_][\w.]*)\s+(?=([A-Za-z_]\w*))/g))
    if (!PY_OPERATOR_WORDS.has(m[1]!) && !PY_OPERATOR_WORDS.has(m[2]!)) return false;
  return !hasTopLevelAssignment(s);
}

const PY_OPERATOR_WORDS = new Set(
  "and or not in is if else for lambda await async yield None True False".split(" "),
);

function isJsExpression(stmt: string): boolean {
  const s = stmt.trim();
  if (s === "" || JS_KEYWORD_START.test(s) || s.startsWith(".")) return false;
  if (s.includes("\n") && !/^[\w$.]+\(/.test(s)) return false;
  return true;
}

/**
 * A one-line statement without the comment the reporter typed after it at the prompt (`> h = t / 60 // hours`):
 * the REPL ignores it, and an echo wrapped around the line would swallow its closing parenthesis into the comment.
 */
function withoutTrailingComment(stmt: string, flavour: "python" | "js"): string {
  if (stmt.includes("\n")) return stmt;
  const { code, comment } = splitComment(stmt, flavour);
  return comment !== null && code.trim() !== "" ? code.trimEnd() : stmt;
}

/**
 * The statements of a line typed at Node's prompt, split at each `;` outside strings and brackets
 * (`q = f('a; b') ; console.log(q)` is two). A line that opens a compound statement (`if (x) a(); else b()`,
 * `for (…) f(); g()`, `do … while`), or spans several lines, or holds a regular expression or template literal
 * (where a `;` may be text), is one statement as typed.
 */
function joinedStatements(stmt: string): string[] {
  const s = stmt.trim();
  if (
    s.includes("\n") ||
    /[`/]/.test(s.replace(/\/\/.*$/, "")) ||
    /^(?:if|for|while|do|switch|try|with)\b/.test(s)
  )
    return [stmt];
  const cuts: number[] = [];
  scanCode(s, (ch, i, depth) => {
    if (ch === ";" && depth === 0) cuts.push(i);
    return undefined;
  });
  if (cuts.length === 0) return [stmt];
  const parts: string[] = [];
  let from = 0;
  for (const cut of [...cuts, s.length]) {
    const part = s.slice(from, cut).trim();
    if (part !== "") parts.push(part);
    from = cut + 1;
  }
  if (parts.length < 2 || parts.some((p) => /^(?:else|catch|finally)\b/.test(p))) return [stmt];
  return parts;
}

/** A Python script replaying the session. */
export function pythonScriptFromTranscript(t: Transcript): string {
  const lines = [
    "import sys",
    "",
    "# Replayed from the REPL session in the report: expressions are echoed as the prompt would echo them.",
    "_echo = sys.displayhook",
    "",
  ];
  // The REPL prints an error and goes on to the next prompt: a statement whose error the session shows, before
  // the last one that raised, prints its traceback and the replay goes on; the last error stays uncaught, so the
  // run ends on it as the session did.
  const raised = t.raised ?? [];
  const carryOn = new Set(raised.slice(0, -1));
  t.inputs.forEach((typed, i) => {
    const stmt = withoutTrailingComment(typed, "python");
    const line = isPythonExpression(stmt) ? `_echo(${stmt.trim()})` : stmt;
    if (!carryOn.has(i)) lines.push(line);
    else
      lines.push(
        "try:",
        ...line.split("\n").map((l) => `    ${l}`),
        "except BaseException:",
        '    __import__("traceback").print_exc()',
      );
  });
  return `${lines.join("\n")}\n`;
}

/**
 * A Node (CommonJS) script replaying the session; `await` at the prompt runs inside an async wrapper. Without
 * the helper (`withEcho: false`) the script calls `_echo` and leaves defining it to the program it joins, which
 * defines it once for all its blocks.
 */
export function nodeScriptFromTranscript(
  t: Transcript,
  { withEcho = true }: { withEcho?: boolean } = {},
): string {
  const usesAwait = t.inputs.some((s) => /\bawait\b/.test(s));
  const body: string[] = [];
  for (const stmt of t.inputs) {
    const typed = withoutTrailingComment(stmt, "js").replace(/;\s*$/, "");
    // Several statements typed on one line (`x = f() ; console.log(1)`): the REPL runs them in turn and echoes
    // the value of the last one only.
    const parts = joinedStatements(typed);
    parts.forEach((part, k) => {
      // The REPL allows `const x = 1` to be typed twice; a script does not, so prompt-level `const` becomes `let`.
      const s = part.replace(/^const\s/, "let ");
      if (k === parts.length - 1 && isJsExpression(s)) body.push(`_echo(${s});`);
      else body.push(/[;}]$/.test(s) ? s : `${s};`);
    });
  }
  const prelude = withEcho
    ? [
        'const util = require("node:util");',
        "",
        "// Replayed from the REPL session in the report: expressions are echoed as the prompt would echo them.",
        "function _echo(value) {",
        "  if (value !== undefined) console.log(util.inspect(value));",
        "}",
        "",
      ]
    : [];
  if (!usesAwait) return `${[...prelude, ...body].join("\n")}\n`;
  return `${[
    ...prelude,
    "(async () => {",
    ...body.map((l) => `  ${l.replace(/\n/g, "\n  ")}`),
    "})().catch((error) => {",
    "  // Rethrown outside the promise so Node reports it as an uncaught exception, like the REPL did.",
    "  setImmediate(() => {",
    "    throw error;",
    "  });",
    "});",
  ].join("\n")}\n`;
}

/** `$ pypy3`, `% python3.6`, `$ node`: an interpreter started on its own (a REPL follows). */
export const REPL_LAUNCH = /^\s*(?:[\w@.~:/[\]-]*\s*)?[$%]\s+((?:python|pypy)[\d.]*|node(?:js)?)\s*$/;
const BANNER = /^(?:Python \d+\.\d+|Welcome to Node\.js)/;

/**
 * One block holding several REPL sessions (`$ pypy3` and its session, then `$ python3.6` and its): the
 * sessions apart, each from the line that starts it (the interpreter's launch, else its banner). Null when the
 * block holds fewer than two.
 */
export function splitSessions(text: string): string[] | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (REPL_LAUNCH.test(l)) starts.push(i);
    else if (BANNER.test(l)) {
      let j = i - 1;
      while (j >= 0 && lines[j]!.trim() === "") j--;
      if (j < 0 || !REPL_LAUNCH.test(lines[j]!)) starts.push(i);
    }
  }
  if (starts.length < 2) return null;
  const pieces = starts.map((s, k) =>
    lines
      .slice(k === 0 ? 0 : s, starts[k + 1] ?? lines.length)
      .join("\n")
      .trim(),
  );
  return pieces.every((p) => /^(?:>{3,5}|>)(?: |$)/m.test(p)) ? pieces : null;
}

/** CoffeeScript's REPL prompt `coffee> ` and its continuation `......> `. */
const COFFEE_IN = /^coffee> ?(.*)$/;
const COFFEE_MORE = /^\.{6}> ?(.*)$/;

/**
 * One CoffeeScript statement as the JavaScript it stands for, where the two differ only by CoffeeScript's calls
 * without parentheses on one literal argument: `x = require 'y'` → `x = require('y')`, `f 3` → `f(3)`. Any
 * other CoffeeScript (`->`, `@x`, `unless`) is left as typed: it does not parse as JavaScript, and the run says
 * which line.
 */
function coffeeStatement(stmt: string): string {
  const call =
    /^(\s*(?:[A-Za-z_$][\w$.]*\s*=\s*)?[A-Za-z_$][\w$.]*)[ \t]+('[^'\n]*'|"[^"\n]*"|-?\d+(?:\.\d+)?)[ \t]*$/.exec(
      stmt,
    );
  return call ? `${call[1]}(${call[2]})` : stmt;
}

/**
 * A CoffeeScript REPL session (`coffee> dayjs = require 'dayjs'`, its echoes under each prompt) written as the
 * Node session it is, so the REPL reader takes it the same way: `coffee> ` starts a statement, `......> `
 * continues it, and each statement is read as JavaScript (`coffeeStatement`). Null when the block has no
 * `coffee> ` prompt.
 */
export function coffeeAsNode(text: string): string | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (!lines.some((l) => COFFEE_IN.test(l.trimEnd()))) return null;
  return lines
    .map((raw) => {
      const line = raw.trimEnd();
      const input = COFFEE_IN.exec(line);
      if (input) return `> ${coffeeStatement(input[1] ?? "")}`;
      const more = COFFEE_MORE.exec(line);
      return more ? `... ${more[1] ?? ""}` : raw;
    })
    .join("\n");
}

/** IPython's input prompt `In [5]: ` (the statement follows it). */
const IPY_IN = /^In ?\[\d+\]: ?(.*)$/;
/** IPython's continuation prompt `   ...: `, indented to the width of the `In [N]:` above it. */
const IPY_MORE = /^\s*\.\.\.: ?(.*)$/;
/** IPython's echo of a statement's value: `Out[5]: value` (or `Out[5]:` with the value on the lines under it). */
const IPY_OUT = /^Out ?\[\d+\]: ?(.*)$/;
/** IPython's traceback header: a rule of dashes, then `ValueError      Traceback (most recent call last)`. */
const IPY_RULE = /^-{20,}\s*$/;
const IPY_TB_HEAD = /^(\S+)\s+Traceback \(most recent call last\)\s*$/;
/** Lines an IPython session may start with before its first prompt: the launch, the banner. */
const IPY_PREAMBLE =
  /^(?:(?:[\w@.~:/[\]-]+\s*)?[$%]\s+(?:i?python[\d.]*|jupyter)\b.*|Python \d+\.\d+.*|IPython \d.*|Type '(?:copyright|help)'.*|\[?GCC .*|Tab completion .*)$/;

/**
 * An IPython session (`In [5]: …`, `   ...: …`, `Out[5]: …`) written as the `>>>` transcript it is, so the
 * REPL reader takes it the same way: `In [N]:` starts a statement, `...:` continues it, `Out[N]: v` is its
 * echoed value (the `Out[N]:` label is IPython's, not printed by the program), other lines are printed output,
 * and IPython's traceback (a rule, then `ValueError   Traceback (most recent call last)`) the session's error.
 * A statement ending in `;` (IPython prints no value for it) stays silent (see `isPythonExpression`); a magic (`%timeit`, `!pip`) and a
 * help request (`x?`) are not Python and are left out with what they printed. Null when the block is not an
 * IPython session: no `In [N]:` prompt, a `>>>` prompt, or lines before the first prompt that are neither
 * blank nor the interpreter's launch and banner.
 */
export function ipythonAsPycon(text: string): string | null {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const first = lines.findIndex((l) => IPY_IN.test(l.trimEnd()));
  if (first < 0 || /^>{3,5} /m.test(text)) return null;
  if (!lines.slice(0, first).every((l) => l.trim() === "" || IPY_PREAMBLE.test(l.trim()))) return null;
  const out: string[] = lines.slice(0, first);
  let skipping = false;
  let inStatement = false;
  /** The exception an IPython traceback under way ends with (named in its header). */
  let raising: string | null = null;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    const input = IPY_IN.exec(line);
    if (input) {
      raising = null;
      const stmt = input[1]!;
      skipping = /^\s*[%!]/.test(stmt) || /^\s*[\w.]+\s*\?\??$/.test(stmt);
      inStatement = !skipping;
      if (!skipping) out.push(`>>> ${stmt}`);
      continue;
    }
    const more = inStatement ? IPY_MORE.exec(line) : null;
    if (more || (skipping && IPY_MORE.test(line))) {
      if (more && !skipping) out.push(more[1] === "" ? "..." : `... ${more[1]}`);
      continue;
    }
    inStatement = false;
    if (skipping) continue;
    // IPython ends each echoed value with a blank line before the next prompt: a `# …` line after a blank line
    // is the reporter's note between the cells ("# Months is entered as 00, but …"), never printed output.
    if (raising === null && /^#/.test(line) && (lines[i - 1] ?? "").trim() === "") continue;
    const value = IPY_OUT.exec(line);
    if (value) {
      if (value[1] !== "") out.push(value[1]!);
      continue;
    }
    const head = IPY_RULE.test(line) ? IPY_TB_HEAD.exec(lines[i + 1]?.trimEnd() ?? "") : null;
    if (head) {
      out.push("Traceback (most recent call last):");
      raising = head[1]!;
      i++;
      continue;
    }
    // IPython's frames (`Cell In[2], line 1`, `----> 1 f()`, `File /x.py:9, in f`) are indented as CPython's
    // are, so the exception line under them (`ValueError: …`, named in the header) is the one the session ended with.
    if (raising !== null) {
      if (line.startsWith(raising) && /^(?::|$)/.test(line.slice(raising.length))) raising = null;
      else {
        out.push(line === "" ? "" : `  ${line}`);
        continue;
      }
    }
    out.push(line);
  }
  return out.join("\n");
}

/** A call typed at a console: a name or member chain called once or more (`Humanize.truncateWords("a b", 2)`). */
const CONSOLE_CALL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\([^\n]*\))+;?$/;
/** A value a JavaScript console echoes on a line of its own: a literal, never an object or a word of prose. */
const CONSOLE_VALUE =
  /^(?:null|undefined|true|false|NaN|-?Infinity|-?\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')$/;

/**
 * A console session pasted without its prompts: each call on a line of its own, the value the console echoed
 * on the next (`Humanize.truncateWords("hello world", 2)` / `null`), two calls or more. Read as the `> ` session
 * it is; null for anything else (a line of prose, an object, a value without its call, a call without a value).
 */
export function promptlessAsNode(text: string): string | null {
  const lines = text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length < 4 || lines.length % 2 !== 0) return null;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    const call = lines[i]!;
    const value = lines[i + 1]!;
    if (!CONSOLE_CALL.test(call) || !balancedCall(call) || !CONSOLE_VALUE.test(value)) return null;
    out.push(`> ${call}`, value);
  }
  return `${out.join("\n")}\n`;
}

/** Round brackets outside quotes close in order and end closed. */
function balancedCall(s: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth < 0) return false;
  }
  return depth === 0 && quote === null;
}
