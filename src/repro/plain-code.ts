/**
 * Code pasted without a fence: lines of a paragraph that read as code, not prose — `math.eval('1 / 3');`,
 * `for example: semver.satisfies('1.0.1-alpha.0', '*'); // false`, `var x = require('x');`, a chain of
 * `.option(...)` calls, `if (x) {` … `}`. Read from the paragraph's raw markdown (the parsed text has lost
 * the `*` and `_` that markdown took for emphasis). Each run of such lines becomes a code block.
 */
import { proseResult } from "./annotations.ts";
import { scanCode } from "./code-scan.ts";

const KEYWORDS = new Set(
  "var let const new return typeof await if else function async of in instanceof delete void throw yield import from export class extends case def lambda not and or is print elif while for with as".split(
    " ",
  ),
);

/** Strings blanked and bracket contents removed, so only the statement's shape is left. */
function shape(line: string): string {
  let s = line.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`/g, '""');
  for (let i = 0; i < 10 && /\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}/.test(s); i++)
    s = s
      .replace(/\([^()]*\)/g, "()")
      .replace(/\[[^[\]]*\]/g, "[]")
      .replace(/\{[^{}]*\}/g, "{}");
  return s;
}

/** Removes a trailing annotation (`// x`, `# x`, `==> x`) from a line. */
function withoutAnnotation(line: string): string {
  return line
    .replace(/\s*(?:\/\/|==>|-->|⇒|→|\s->\s|\s#\s).*$/, "")
    .replace(/^([A-Za-z_$][\w$]*(?:\.[\w$]+|\([\s\S]*?\))*[\w$)])\s*=>\s*\S.*$/, "$1");
}

/** A block with no language whose every line is code or a comment: code pasted in a bare or odd fence. */
export function wholeBlockIsCode(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0) return false;
  const runs = plainCodeRuns(value);
  const covered = runs.reduce((n, r) => n + r.code.split("\n").filter((l) => l.trim() !== "").length, 0);
  const comments = lines.filter((l) => /^\s*(\/\/|#(?!!))/.test(l)).length;
  return runs.length > 0 && covered + comments === lines.length;
}

/** True when two plain words stand side by side (prose), outside strings and brackets. */
function hasProseRun(s: string): boolean {
  const words = s.split(/\s+/).filter(Boolean);
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i]!;
    const b = words[i + 1]!;
    if (/^[A-Za-z][\w$]*[,.]?$/.test(a) && /^[A-Za-z][\w$]*/.test(b) && !KEYWORDS.has(a.toLowerCase()))
      return true;
  }
  return false;
}

/**
 * `f(a, b). but it gives…` / `x.f(a), which returns…`: the call at the start of a sentence's rest, up to its
 * closing bracket, when words of prose (two plain words) follow it after `.`, `,` or `;`; null otherwise.
 */
export function callBeforeProse(text: string): string | null {
  const head = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(/.exec(text);
  if (!head) return null;
  // The head holds no bracket or quote: past its `(`, the scan's first return to depth 0 closes the call.
  const open = head[0].length - 1;
  const end = scanCode(text, (ch, i, depth) =>
    i > open && depth === 0 ? (ch === ")" ? i + 1 : -1) : undefined,
  ).stopped;
  if (end === undefined || end < 0) return null;
  const rest = text.slice(end);
  return /^[.,;]?\s+[a-z]+\s+[a-z]+/i.test(rest) && !/^\.[\w$]/.test(rest) ? text.slice(0, end) : null;
}

/** A line that reads as a statement: a call, an assignment, a block brace, a chained `.call(...)`. */
/** A line opening with an element of HTML (its name one of HTML's own, so a TypeScript `<T>` is not one). */
const HTML_TAG_LINE =
  /^<+\/?(?:a|abbr|b|blockquote|body|br|button|canvas|center|code|del|details|div|em|embed|font|form|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|label|li|link|math|meta|nav|object|ol|option|p|pre|s|script|section|select|small|source|span|strong|style|sub|summary|sup|svg|table|td|textarea|th|title|tr|u|ul|video)(?=[\s/><])/i;

export function codeLine(line: string): string | null {
  let l = line.trimEnd();
  if (l.trim() === "") return null;
  // `**Code:** f(x)` / `**Code**: f(x)` — a bold (or italic) label before the code: the label is prose.
  const label = /^\s*(\*\*|__|\*|_)[A-Za-z][\w ,.'()/-]{0,40}?(?::\1|\1:)\s+(\S.*)$/.exec(l);
  if (label?.[2]) l = label[2];
  // "for example: f(x); // 1" — a short lead-in ending with a colon, then code.
  const lead = /^\s*([A-Za-z][\w ,.'-]{0,40}?):\s+(\S.*)$/.exec(l);
  if (lead?.[2] && /[\w$)\]]\s*\(/.test(lead[2]) && !/\(/.test(lead[1] ?? "")) l = lead[2];
  // "we use: f('5.0.0', '5.0.0-1'). but it gives back 1" — the call, then the sentence goes on: the call alone.
  if (lead?.[2] && l === lead[2]) l = callBeforeProse(l) ?? l;
  const body = withoutAnnotation(l).trim();
  if (body === "") return null;
  if (/^[*_#>|-]+$/.test(body) || /^\*\*.*\*\*:?$/.test(body)) return null;
  // An HTML element (`<img src=1 onerror=alert('xss')>`, as the page shows the escaped text): markup, not code.
  if (HTML_TAG_LINE.test(body)) return null;
  // Markup escaped for a page (`&lt;img src=1 onerror=alert('xss')&gt;`, sanitize-html#558): an HTML character
  // reference outside a string is a web page's text, never a statement of JavaScript or Python.
  if (
    /&(?:lt|gt|amp|quot|apos|nbsp|#\d+|#x[0-9a-f]+);/i.test(
      body.replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g, '""'),
    )
  )
    return null;
  if (
    /^import\s+(?:[\w$]+|\{[^}]*\}|\*\s+as\s+[\w$]+)(?:\s*,\s*\{[^}]*\})?\s+from\s+['"][^'"]+['"];?$/.test(
      body,
    )
  )
    return l;
  if (/^from\s+[\w.]+\s+import\s+[\w, ()*]+$/.test(body) || /^import\s+[\w.]+(?:\s+as\s+\w+)?$/.test(body))
    return l;
  if (l.trim() !== body && /^[A-Za-z_$][\w$]*(\.[\w$]+)+$/.test(body)) return l;
  // A documentation signature (`_.chunk(array, [size=1])`, optional parameters in brackets with their
  // defaults), quoted to say which function: not a call to run.
  if (/\([^()]*\[\s*[A-Za-z_$][\w$]*\s*=[^\]]*\][^()]*\)/.test(body)) return null;
  const s = shape(body);
  if (hasProseRun(s)) return null;
  if (/[.!?]$/.test(s) && !/\)\s*[.!?]$/.test(s) && !/^\./.test(s)) return null;
  if (/^[}\])]+[;,)]*$/.test(s)) return l;
  if (/^\.\s*[\w$]+\s*\(/.test(s)) return l;
  if (/[\w$)\]]\(\)/.test(s) && /^[\w$.[\]"'()=\s!+*/%<>&|?:,;{}-]+$/.test(s)) return l;
  if (/^(?:var|let|const)\s+[\w${[]/.test(s)) return l;
  // `return formatted;` (a function's body pasted as the snippet): code, by its semicolon.
  if (/^return\s+[\w$][\w$.[\]()'"]*;$/.test(s)) return l;
  if (/^[\w$.]+\s*=(?!=)\s*\S/.test(s) && /[()[\]{}"']|\d/.test(s)) return l;
  if (/\{$/.test(s) && /^(if|for|while|function|else|try|def|class)\b/.test(s)) return l;
  return null;
}

/** A line that gives the result of the statement above it: `=> [3, 6, 9]`, `==> {…}`, `-> 'a'`. */
const RESULT_LINE = /^\s*(?:==>|=>|-->|->|⇒|→)\s*\S/;

/**
 * A paragraph's raw markdown as a reader sees its text: backslash escapes of ASCII punctuation (`n \* 3`,
 * `snake\_case`) read as the character, as markdown renders them; code spans keep their bytes.
 */
export function unescapeMarkdown(raw: string): string {
  return raw
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\\([!-/:-@[-`{-~])/g, "$1")))
    .join("");
}

export interface PlainCode {
  code: string;
  /** Line of the first code line, 0-based within the text. */
  firstLine: number;
}

/** A line that reads as a printed value: one token with a digit or a sign in it, or a bracketed/quoted literal. */
function printedValueLine(line: string): boolean {
  const t = line.trim();
  if (t === "" || t.length > 160) return false;
  if (/^(?:\[.*\]|\{.*\}|\(.*\)|'.*'|".*")$/.test(t)) return true;
  return /^\S{1,80}$/.test(t) && /[\d/+\-*.<>=]/.test(t) && !/[.!?:]$/.test(t);
}

/**
 * A lone quoted string on the line after a bare call (`a.capitalize()`, no assignment, no print): the value a
 * REPL echoed for it, with markdown's strong emphasis (`**d**`, `__d__`) rendered away, as the page shows it;
 * null otherwise.
 */
export function echoedStringLine(statement: string, line: string): string | null {
  const s = statement.trim().replace(/;$/, "");
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\(.*\)$/.test(s) || /^(?:print|console\.log)\s*\(/.test(s))
    return null;
  const t = line.trim();
  if (t.length > 300 || !/^(?:"[^"\\\n]*"|'[^'\\\n]*')$/.test(t)) return null;
  return t.replace(/\*\*([^*\n]+?)\*\*|__([^_\n]+?)__/g, (_m, a?: string, b?: string) => a ?? b ?? "");
}

/** Runs of code lines in a paragraph's raw text (a bare identifier before a `.call(...)` line included). */
/** Brackets left open by the lines, outside strings and `//` comments (0 when balanced or over-closed). */
function openDepth(lines: string[]): number {
  let depth = 0;
  for (const l of lines) {
    const bare = l
      .replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`/g, '""')
      .replace(/\/\/.*$/, "");
    for (const ch of bare) {
      if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) depth--;
    }
  }
  return Math.max(depth, 0);
}

export function plainCodeRuns(raw: string): PlainCode[] {
  const lines = raw.replace(/\r\n/g, "\n").split("\n");
  const runs: PlainCode[] = [];
  let current: string[] = [];
  let start = 0;
  const flush = () => {
    if (current.some((l) => /[\w$)\]]\s*\(/.test(l) || /^\s*(var|let|const|import|from)\s/.test(l)))
      runs.push({ code: current.join("\n"), firstLine: start });
    current = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let c = codeLine(line);
    if (c === null && /^\s*[A-Za-z_$][\w$]*\s*$/.test(line) && /^\s*\./.test(lines[i + 1] ?? "")) c = line;
    // `f(-12) gives '-12' ...???` among other such lines: a listing of calls and what each gave, all code (one
    // such line alone is read from the words, as a call and its value).
    if (c === null && proseResult(line) && [lines[i - 1], lines[i + 1]].some((l) => l && proseResult(l)))
      c = line;
    // The lines inside a literal or a call left open (`var c = [` then `{`, `delta:"A"`, `}`, `];`): code up to
    // where its brackets close, whatever each line reads like alone.
    if (c === null && current.length > 0 && line.trim() !== "" && openDepth(current) > 0) c = line;
    // `=> [3, 6, 9]` under a statement: what it gave, kept with it as its annotation.
    if (c === null && current.length > 0 && RESULT_LINE.test(line)) c = line;
    // `print(Fraction(2.01))` then `2/1` on the next line: what the print showed (a session pasted without
    // prompts), kept as the statement's result.
    if (
      c === null &&
      current.length > 0 &&
      /^\s*(?:print|console\.log)\s*\(.*\)\s*;?\s*$/.test(current[current.length - 1]!) &&
      printedValueLine(line)
    )
      c = `=> ${line.trim()}`;
    // `a.capitalize()` then `"Cats and **d**ogs"` on the next line, unfenced: what the call gave, as a REPL shows
    // it, read as the page renders it (strong emphasis is the reporter marking letters, not characters).
    if (c === null && current.length > 0) {
      const value = echoedStringLine(current[current.length - 1]!, line);
      if (value !== null) c = `=> ${value}`;
    }
    if (c !== null) {
      if (current.length === 0) start = i;
      current.push(c);
    } else flush();
  }
  flush();
  return runs;
}

/**
 * Statements pasted one per line, each line one backtick span and nothing else (`` `from x import f` `` /
 * `` `t = 'a'` `` / `` `f(t)` ``): the code those lines make, or null. The whole paragraph must be such lines, two
 * at least, each a statement by `codeLine`, one of them a call or an import.
 */
export function inlineStatementLines(raw: string): string | null {
  const lines = raw.split("\n").filter((l) => l.trim() !== "");
  if (lines.length < 2 || lines.length > 200) return null;
  const codes: string[] = [];
  for (const l of lines) {
    const m = /^\s*`([^`\n]+)`\s*$/.exec(l);
    const code = m?.[1]?.trim();
    if (!code || codeLine(code) === null) return null;
    codes.push(code);
  }
  if (!codes.some((c) => /[\w$)\]]\s*\(/.test(c) || /^(?:import|from)\s/.test(c))) return null;
  return codes.join("\n");
}

/**
 * Python standard modules whose name is no JavaScript global and rarely a JavaScript variable: a call on one
 * (`re.split("\\s*", text)`) in code that neither declares nor imports it reads as Python.
 */
const PYTHON_STDLIB_CALL =
  /(?<![\w$.])(?:re|os|sys|itertools|collections|datetime|pathlib|subprocess|shutil|ipaddress|csv|decimal|fractions|statistics|textwrap|urllib|functools|unicodedata)\.[a-z_]\w*(?:\.[a-z_]\w*)*\s*\(/;

/** Python or JavaScript, from the code's own signs. */
export function plainLanguage(code: string): "python" | "javascript" {
  if (/;\s*(\/\/.*)?$/m.test(code)) return "javascript";
  if (/(^|\s)#\s|^[ \t]*(print\(|import \w|from \S+ import|def \w)/m.test(code)) return "python";
  // A block statement closed by a colon, with no parentheses around its condition (`if isinstance(o, type):`,
  // `for k in d:`): JavaScript's `if` needs them, and nothing of it ends a line in `:`.
  if (
    /^[ \t]*(?:if|elif|while|for|with)[ \t]+(?!\()[^\n{};]*:[ \t]*$|^[ \t]*(?:else|try|finally):[ \t]*$/m.test(
      code,
    )
  )
    return "python";
  if (
    PYTHON_STDLIB_CALL.test(code) &&
    !/\b(?:const|let|var|function|require|new)\b|=>|\/\/|[{}]/.test(code) &&
    !/(?<![\w$.])(?:re|os|sys|itertools|collections|datetime|pathlib|subprocess|shutil|ipaddress|csv|decimal|fractions|statistics|textwrap|urllib|functools|unicodedata)\s*=(?!=)/.test(
      code,
    )
  )
    return "python";
  return "javascript";
}
