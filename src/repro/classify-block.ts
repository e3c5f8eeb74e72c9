/**
 * What a fenced block in a report is: code to run, a REPL transcript, a traceback, pasted output,
 * a shell session, or a version listing. Decided from the fence language and the block's own lines.
 */
import { dollarAsNode } from "./dollar-session.ts";
import { type BlockLanguage, detectLanguage, languageFromFence } from "./detect-language.ts";
import { angleAsPycon } from "./angle-prompt.ts";
import { coffeeAsNode, ipythonAsPycon, promptlessAsNode } from "./transcript.ts";

export type BlockKind =
  | "code"
  | "python-transcript"
  | "node-transcript"
  | "traceback"
  | "error-output"
  | "shell"
  | "versions"
  | "output"
  /** A patch (`diff --git`, `--- a/x` / `+++ b/x` / `@@`): a proposed change, never code to run or a claim. */
  | "diff";

export interface BlockClass {
  kind: BlockKind;
  /** Language of the code (for code and transcripts); the fence or detected language otherwise. */
  language: BlockLanguage;
}

const PY_TRACEBACK = /^Traceback \(most recent call last\):/m;
const JS_STACK_FRAME = /^[ \t]+at .+(\(.*:\d+:\d+\)|:\d+:\d+)\s*$/m;
/** Every line a stack frame (`at f (file.js:1:2)`, `at file.js:1:2`) or an ellipsis, two frames at least. */
function stackOnly(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  const frames = lines.filter((l) => /^\s*at .+(?:\(.*:\d+:\d+\)|:\d+:\d+)\s*$/.test(l));
  return frames.length >= 2 && lines.every((l) => frames.includes(l) || /^\s*(?:\.{3}|…)\s*$/.test(l));
}
const JS_ERROR_LINE = /^(Uncaught )?([A-Z]\w*(Error|Exception)|Error)(\s\[\w+\])?: /m;
/** A single line like `packaging.version.InvalidVersion: Invalid version: 'x'` (a dotted, capitalized exception name). */
const BARE_EXCEPTION = /^(?:[a-z_]\w*\.)+[A-Z]\w*: \S.*$/;
// `>>> `, PyPy's `>>>> `, and the longer runs other implementations prompt with (RustPython's `>>>>> `); never
// seven, a merge conflict's marker.
const PY_PROMPT = /^>{3,5} /m;
/** A frame of a traceback whose header was not pasted: CPython's, IPython's (`File /x.py:742, in f`), an IDE's. */
const FRAME_LINE =
  /^\s*(?:File "[^"]+", line \d+|File [^\s,]+:\d+, in \S|line \d+, in \S|Cell In\s*\[\d+\], line \d+|-+>\s*\d+\s)/;
/** The exception line that ends a traceback: `TypeError: …`, `shutil.Error: …`, `KeyboardInterrupt`. */
const PY_EXCEPTION_LINE =
  /^(?:(?:[a-z_]\w*\.)+[A-Z]\w*|[A-Z]\w*(?:Error|Exception|Warning|Interrupt|Exit|Iteration))(?::\s?.*)?$/;
/** A statement at column 0: a block holding one is code (perhaps with output under it), not a traceback. */
const TOP_LEVEL_STATEMENT =
  /^(?:import\s|from\s+\S+\s+import\s|def\s|class\s|async\s+def\s|with\s|for\s|while\s|if\s|try:|print\()/;

/**
 * A Python traceback pasted without its `Traceback (most recent call last):` header — IPython's frames with
 * numbered source lines, an IDE's `Exception has occurred:` banner, a copy that starts at `line 10, in <module>`:
 * frames (or the banner), then the exception line last, and no statement of its own.
 */
export function headerlessTraceback(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  if (lines.length < 2) return false;
  const last = lines[lines.length - 1]!.replace(/^[*_]+|[*_]+$/g, "").trim();
  if (!PY_EXCEPTION_LINE.test(last)) return false;
  const banner = /^[*_]*\s*Exception has occurred\b/.test(lines[0]!.trim());
  if (!banner && !lines.some((l) => FRAME_LINE.test(l))) return false;
  return !lines.some((l) => TOP_LEVEL_STATEMENT.test(l));
}
const NODE_PROMPT = /^> \S/m;
const PIP_FREEZE_LINE = /^[A-Za-z0-9][\w.-]*==\d[\w.+-]*$/;
const NPM_LS_LINE = /^[│├└─┬\s`|+-]*(@?[\w.-]+\/)?[\w.-]+@\d[\w.+-]*( .*)?$/;

function looksLikeVersionListing(value: string): boolean {
  const lines = value
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length === 0) return false;
  const freeze = lines.filter((l) => PIP_FREEZE_LINE.test(l)).length;
  const npmLs = lines.filter((l) => NPM_LS_LINE.test(l)).length;
  const pipList = lines.filter(
    (l) => /^[A-Za-z0-9][\w.-]*\s{2,}\d[\w.+-]*$/.test(l) || /^-{3,}\s+-{3,}$/.test(l),
  ).length;
  const hits = Math.max(freeze, npmLs, pipList);
  return hits >= Math.max(1, Math.ceil(lines.length * 0.6)) && !/[(){};]/.test(value.replace(/\(.*?\)/g, ""));
}

function looksLikeNodeTranscript(value: string): boolean {
  const lines = value.split("\n");
  const prompts = lines.filter((l) => /^> \S/.test(l));
  if (prompts.length === 0) return false;
  // `> python bug.py --x` / `> node cli.js`: a Windows shell's prompt running a script, not Node's REPL.
  if (prompts.every((l) => /^>\s*(?:python|pypy|node)[\w.]*\s+\S+\.(?:py|[cm]?js)\b/.test(l))) return false;
  // A markdown quote or a shell redirect also starts with "> ": require JavaScript after the prompt.
  return prompts.some((l) => /[.()=;'"`[\]]/.test(l)) && !/^>>> /m.test(value);
}

/**
 * A log line's own prefix, which CI and build tools put before whatever the program printed: a time of day
 * (`09:47:19`), an ISO timestamp (`2024-05-01T12:00:00.123Z`), each optionally followed by a bracketed task tag
 * (`[exec]`, `[INFO]`), or a bare task tag.
 */
const LOG_PREFIX =
  /^(?:(?:\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)(?:[ \t]+\[[^\]\n]{1,20}\][ \t]?|[ \t])|\[[^\]\n]{1,20}\][ \t])/;

/**
 * A pasted log whose every line carries the same kind of prefix (a timestamp, a task tag): the lines as the
 * program printed them, each prefix cut (the indentation after it, a stack frame's, is kept). Null when some
 * line has no such prefix, or the block is a single line.
 */
export function withoutLogPrefix(value: string): string | null {
  const lines = value.split("\n");
  const filled = lines.filter((l) => l.trim() !== "");
  if (filled.length < 2 || !filled.every((l) => LOG_PREFIX.test(l))) return null;
  // The prefix's own width up to the program's text: the shortest run of spaces after it is part of it.
  const rest = filled.map((l) => l.replace(LOG_PREFIX, ""));
  const pad = Math.min(...rest.map((r) => /^[ \t]*/.exec(r)![0].length));
  return lines.map((l) => (l.trim() === "" ? l : l.replace(LOG_PREFIX, "").slice(pad))).join("\n");
}

/**
 * A pytest failure report (`=== FAILURES ===`, `E   AssertionError: …`, `tests/x.py:77: AssertionError`), also
 * when pasted quoted (`> ` before every line): a test run's output, whatever its fence says.
 */
export function pytestReport(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  const quoted = lines.length > 0 && lines.every((l) => /^>(?:\s|$)/.test(l));
  const text = quoted ? lines.map((l) => l.replace(/^> ?/, "")).join("\n") : value;
  const banner = /^=+ (?:FAILURES|ERRORS|short test summary info|test session starts) =+$/m.test(text);
  const failure = /^E {2,}\S/m.test(text) && /^[\w./-]+\.py:\d+: [A-Z]\w*(?:Error|Exception)\b/m.test(text);
  return banner || failure;
}

/**
 * One bracketed literal (`{ … }` or `[ … ]`, as Node's inspect or Python's repr prints a value): it opens with the
 * bracket, closes with its match at the very end, and holds no statement outside its strings (no `;`, `=`, `=>`,
 * call, keyword of a declaration).
 */
/** The block with the indentation all its non-blank lines share removed. */
function dedented(value: string): string {
  const lines = value.split("\n");
  const pad = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)![0].length));
  return Number.isFinite(pad) && pad > 0
    ? lines.map((l) => l.slice(Math.min(pad, l.length))).join("\n")
    : value;
}

export function printedLiteral(value: string): boolean {
  const t = value.trim();
  if (!/^[[{]/.test(t) || !/[\]}]$/.test(t) || t.length > 20_000) return false;
  const bare = t.replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g, '""');
  if (
    /[;=]|\/\/|\/\*|[\w$]\(|\b(?:const|let|var|function|return|import|def|class|lambda|for|if)\b/.test(bare)
  )
    return false;
  // The opening bracket closes only at the end: `{ a } { b }` or `[1] + [2]` is not one literal.
  let depth = 0;
  for (let i = 0; i < bare.length; i++) {
    const ch = bare[i]!;
    if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) {
      depth--;
      if (depth === 0 && i < bare.length - 1) return false;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

/**
 * An array or object as a browser's developer console prints it (issue 12, hold15, krisk/Fuse#481):
 * `0: {item: {…}, refIndex: 0, matches: Array(1), score: 2.2e-16}` line by line, the inspector's elisions
 * (`{…}`, `[…]`, `Array(1)`) in it. Printed output, never a program: it does not parse as one. Every line is an
 * entry of the dump (`0: …`, `length: 5`, `[[Prototype]]: Array(0)`, `(5) [{…}, …]`, a `▶` disclosure).
 */
export function inspectorDump(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0 || lines.length > 2_000) return false;
  if (!/\{…\}|\[…\]|(?<![\w$.])Array\(\d+\)(?!\s*[.{;])/.test(value)) return false;
  return lines.every((l) =>
    /^\s*[▶▼►]?\s*(?:\d+: \S|\(\d+\) \[|length: \d+\s*$|\[\[Prototype\]\]: |__proto__: )/.test(l),
  );
}

/**
 * Every line of the block an error message whose name is words (`Parse Error: …`, `Fatal error: …`): a name of
 * two words before `Error:` or `Exception:` is no statement in JavaScript or Python, so the block does not parse
 * and reads as the error text a run printed. One to three lines.
 */
export function messageLines(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0 || lines.length > 3) return false;
  return lines.every((l) =>
    /^\s*[A-Z][a-z]+(?: [A-Za-z]+){0,2} (?:[Ee]rror|[Ee]xception|[Ww]arning):\s+\S/.test(l),
  );
}

/**
 * A native crash as the C runtime prints it, never a statement of any language: glibc's failed `assert`
 * (`prog: Python/x.c:114: f: Assertion `0 <= n' failed.`), the shell's word for a fatal signal
 * (`Segmentation fault (core dumped)`, `Aborted`), a C library's abort (`free(): invalid pointer`,
 * `*** stack smashing detected ***: terminated`). A block holding only such lines (one to six) is what a run
 * printed, whatever its fence says: pasted in a `python` fence, it is output, not code.
 */
export function nativeCrashLines(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0 || lines.length > 6) return false;
  return lines.every((raw) => {
    const l = raw.trim();
    return (
      /^\S+: \S+\.(?:c|cc|cpp|cxx|h|hpp):\d+: .*\bAssertion [`'"].*['"`] failed\.?$/.test(l) ||
      /^(?:[\w./-]+: )?(?:line \d+: +\d+ +)?(?:Segmentation fault|Aborted|Bus error|Illegal instruction|Floating point exception)(?: +\(core dumped\))?(?: +\S+)*$/.test(
        l,
      ) ||
      /^(?:(?:free|malloc|realloc|munmap_chunk)\(\): [a-z][\w ]*|double free or corruption(?: \(\w+\))?)$/.test(
        l,
      ) ||
      /^\*\*\* [a-z][\w ]+ \*\*\*(?::? .*)?$/.test(l)
    );
  });
}

/** A quoted field of a CSV line, its quotes possibly unescaped inside (`"XXX "Bree""`): up to the next `",`. */
const CSV_LINE = /^\s*"[^\n]*"\s*$/;

/**
 * Every line a row of double-quoted CSV fields (`"a","b","c"`, three or more, joined by `","`) holding no call,
 * assignment or statement end: data the report's code reads, not a program.
 */
export function csvLines(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0 || lines.length > 50) return false;
  return lines.every(
    (l) =>
      CSV_LINE.test(l) &&
      (l.match(/",\s*"/g) ?? []).length >= 2 &&
      !/[();=]|=>/.test(l.replace(/"[^"\n]*"/g, "")),
  );
}

/** A patch: a `diff`/`patch` fence over hunks, or `diff --git` / `--- a/…` + `+++ b/…` headers over an `@@` hunk. */
function unifiedDiff(fenceKey: string, value: string): boolean {
  const hunk = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m.test(value);
  if ((fenceKey === "diff" || fenceKey === "patch") && hunk) return true;
  const first = value.split("\n").find((l) => l.trim() !== "") ?? "";
  return hunk && (/^diff --git /.test(first) || /^--- \S[^\n]*\n\+\+\+ \S/m.test(value));
}

/**
 * How Node prints an uncaught error: the file and line it was thrown at (`/app/node_modules/x/src/a.js:215`) alone
 * on the first line, then that source line. Pasted output, never code to run.
 */
function errorLocation(value: string): boolean {
  const lines = value.split("\n").filter((l) => l.trim() !== "");
  return (
    lines.length >= 2 &&
    /^[ \t]*(?:file:\/\/)?(?:[A-Za-z]:)?[/\\][^\s:]+\.(?:[cm]?js|[cm]?ts|jsx|tsx):\d+[ \t]*$/.test(lines[0]!)
  );
}

export function classifyBlock(fence: string | null | undefined, value: string): BlockClass {
  if (pytestReport(value)) return { kind: "error-output", language: "python" };
  const fenceLang = languageFromFence(fence);
  const fenceKey = (fence ?? "").trim().toLowerCase();
  if (unifiedDiff(fenceKey, value)) return { kind: "diff", language: "text" };
  if (errorLocation(value)) return { kind: "error-output", language: "javascript" };
  const detected = detectLanguage(value);
  const language: BlockLanguage = fenceLang ?? detected;
  if ((fenceLang === null || fenceLang === "javascript" || fenceLang === "text") && inspectorDump(value))
    return { kind: "output", language: "text" };

  // An IPython session (`In [5]: …`) is a transcript whatever its fence says (`python`, `ipython`, none).
  if (ipythonAsPycon(value) !== null) return { kind: "python-transcript", language: "python" };
  // A Python session pasted with `> ` prompts in a `python` fence (angle-prompt.ts).
  if (fenceLang === "python" && angleAsPycon(value) !== null)
    return { kind: "python-transcript", language: "python" };
  // A CoffeeScript REPL session (`coffee> …`) is a Node session, whatever its fence says.
  if (coffeeAsNode(value) !== null) return { kind: "node-transcript", language: "javascript" };
  // A Node session under a shell's `$ ` prompt (`$ x.pluralize('a')` / `'a'`), fenced as a shell or not at all.
  if (
    (fenceLang === null || fenceLang === "shell" || fenceLang === "javascript") &&
    dollarAsNode(value) !== null
  )
    return { kind: "node-transcript", language: "javascript" };

  if (
    fenceKey === "pycon" ||
    (PY_PROMPT.test(value) &&
      (language === "python" || language === "text" || fenceLang === null || language === "shell"))
  ) {
    return { kind: "python-transcript", language: "python" };
  }
  if (fenceKey === "pytb") return { kind: "traceback", language: "python" };
  if (PY_TRACEBACK.test(value) && !/^[ \t]*(def|import|from)\s/m.test(value.split(PY_TRACEBACK)[0] ?? "")) {
    return { kind: "traceback", language: "python" };
  }
  if (headerlessTraceback(value)) return { kind: "traceback", language: "python" };
  if (
    NODE_PROMPT.test(value) &&
    looksLikeNodeTranscript(value) &&
    (fenceLang === null ||
      fenceLang === "javascript" ||
      fenceLang === "typescript" ||
      fenceLang === "shell" ||
      fenceLang === "text")
  ) {
    return { kind: "node-transcript", language: fenceLang === "typescript" ? "typescript" : "javascript" };
  }
  // A console session pasted without its prompts (a call, the value echoed under it, again): a Node session.
  if (
    (fenceLang === null || fenceLang === "javascript" || fenceLang === "text") &&
    promptlessAsNode(value) !== null
  )
    return { kind: "node-transcript", language: "javascript" };
  // The error line may be indented with the whole block (a trace pasted as it stood in a log).
  if (JS_STACK_FRAME.test(value) && (JS_ERROR_LINE.test(value) || JS_ERROR_LINE.test(dedented(value))))
    return { kind: "error-output", language: "javascript" };
  // Only the stack of an error (`at f (…:11:17)` lines, perhaps `...`), its error line quoted elsewhere (the
  // title): what the error printed, never a program's output.
  if (stackOnly(value)) return { kind: "error-output", language: "javascript" };
  if (looksLikeVersionListing(value)) return { kind: "versions", language: "text" };
  if (
    language === "shell" ||
    /^\$ \S/m.test(value) ||
    /^(?:[\w:\\.-]*)>\s*(?:python|pypy|node)[\w.]*\s+\S+\.(?:py|[cm]?js)\b/m.test(value) ||
    // PowerShell's `PS ~>` then an interpreter, perhaps through a launcher (`PS ~>uvx python@3.11 -c @'`).
    /^[ \t]*PS(?:[ \t]+[^>\n]*)?>[ \t]*(?:(?:uvx|uv[ \t]+run|pipx[ \t]+run)[ \t]+)?(?:python|pypy|node)/m.test(
      value,
    )
  )
    return { kind: "shell", language: "shell" };
  if (language === "python" || language === "javascript" || language === "typescript") {
    // A labelled block holding only an error line ("TypeError: x is not a function") is output, not code.
    if (/^\s*(Uncaught )?[A-Z][\w.]*(Error|Exception)(: .*)?\s*$/.test(value.trim())) {
      return { kind: "error-output", language };
    }
    // A message block in a code fence: each line a message (`Parse Error: expected: '"' got: 'B'…`, words then
    // `Error:`), which no program is (two names side by side do not parse), or a line of quoted CSV fields.
    if (messageLines(value)) return { kind: "error-output", language };
    // A C assertion or a fatal signal pasted in a code fence (`python: Python/flowgraph.c:114: …: Assertion … failed.`).
    if (nativeCrashLines(value)) return { kind: "error-output", language };
    if (csvLines(value)) return { kind: "output", language: "text" };
    // A block that is one object or array literal and nothing else (`{ s: 'x', Path: '/' }` after "gives"):
    // a printed value. Run alone it would do nothing (or not parse, `{ a: 1, b: 2 }` being a block statement).
    if (printedLiteral(value)) return { kind: "output", language };
    return { kind: "code", language };
  }
  if (
    JS_ERROR_LINE.test(value) ||
    /^[A-Z][\w.]*(Error|Exception): /m.test(value) ||
    BARE_EXCEPTION.test(value.trim())
  ) {
    return { kind: "error-output", language: detected === "python" ? "python" : "text" };
  }
  return { kind: "output", language };
}
