/**
 * Compare one run with what the report says happens, then fold the repeats into a verdict.
 */
import { floatsAgreeButLastDigit } from "./float-digits.ts";
import { printedJsonMatches } from "./printed-json.ts";
import { sameLoadError } from "./load-error.ts";
import { packageParseFailure } from "./package-syntax.ts";
import { cutMatches } from "./depth-cut.ts";
import { inspectorDump } from "./classify-block.ts";
import { foldInspectStrings, hasInspectChain } from "./inspect-fold.ts";
import { referencePrintMatch } from "./reference-print.ts";
import { InfrastructureError } from "../core/errors.ts";
import { hostLimits } from "../core/host-limits.ts";
import { withinCpuTime } from "../core/time-limit.ts";
import { looseKey, normalizedLines, timeIsTheClaim } from "./normalize.ts";
import { pythonFrames, pythonRaisingFrame, type RaisedException, sameRaisingFrame } from "./outcome.ts";
import { crashMatch } from "./process-crash.ts";
import { PYTHON_STDLIB } from "./known-modules.ts";
import { newerApi } from "./runtime-rule.ts";
import type { ReportedBehaviour, Verdict } from "./result.ts";
import { ownRaisingLine } from "./segment-marks.ts";

export interface RunObservation {
  exitCode: number | null;
  stoppedBy: string | null;
  stdout: string;
  stderr: string;
  exception: RaisedException | null;
  durationMs: number;
  /** CPU time the run had used when the time limit stopped it (the sandbox's cgroup reading), when known. */
  cpuMs?: number;
}

/**
 * The share of the wall time a run stopped at the time limit must have spent on the CPU to be the program's own
 * doing (a loop that never ends): CPU ≈ wall. A loaded host gives a waiting or starved program far less.
 */
export const CPU_BOUND_SHARE = 0.8;

/** Whether a run the time limit stopped was busy on the CPU nearly all of its wall time (a real endless loop). */
export function cpuBound(run: Pick<RunObservation, "cpuMs" | "durationMs">): boolean {
  return run.cpuMs !== undefined && run.durationMs > 0 && run.cpuMs >= CPU_BOUND_SHARE * run.durationMs;
}

export type RunMatchKind =
  /** The reported behaviour appeared. */
  | "match"
  /** It failed, but not as reported. */
  | "different-failure"
  /** It printed, line for line, some of the values the report shows and other values for the rest. */
  | "partial-output"
  /** It failed and the report names no error to compare with. */
  | "unconfirmed-failure"
  /** It ran clean (or printed something else) where the report says it fails. */
  | "clean"
  /** It could not run for lack of something the sandbox does not have (a file, a network, a module). */
  | "needs"
  /** It ran clean and the report does not say what is wrong. */
  | "no-expectation";

export interface RunMatch {
  kind: RunMatchKind;
  /** One sentence: what differs, or what is missing. */
  detail: string;
  /** For "needs": the question to ask the reporter. */
  question?: string;
  /** For "needs": the report's code itself is incomplete (does not parse, uses an undefined name) — a model can complete it. */
  incompleteCode?: boolean;
  /** For "needs": the name the code uses but never defines, or the line of it that does not parse (for the question's line). */
  missingName?: string;
  badLine?: string;
  /** For "needs": the run stopped at the sandbox's time limit where the report describes no hang (no verdict). */
  timedOut?: boolean;
}

function shortType(t: string): string {
  return t.split(".").pop() ?? t;
}

/**
 * Same exception type; a reported bare `Error` (JavaScript's base class, as consoles print it) stands for any
 * `…Error`. A module's own class named `Error` (`binascii.Error`, `shutil.Error`) is that class, not the base.
 */
function sameExceptionType(reported: string, observed: string): boolean {
  const r = shortType(reported);
  const o = shortType(observed);
  if (r === "Error" && reported.includes("."))
    return reported === observed || (r === o && !observed.includes("."));
  return r === o || (r === "Error" && /Error$/.test(o));
}

/**
 * A reported error name cut short where the report's text stops (`calendar.Illegal`, the last line of a copy that
 * ends inside the traceback, for `calendar.IllegalMonthError`): no message after it, a last segment no exception
 * class name ends as (`…Error`, `…Exception`, `…Warning`, `…Exit`, `…Interrupt`, `…Iteration`), and a strict
 * prefix of the observed name (module and all when the report gives one). A complete name that differs
 * (`KeyError` for `KeyErrorX`, `Timeout` for `TimeoutError` — a name in its own right) is not a cut one.
 */
export function cutExceptionName(reported: string, message: string | null, observed: string): boolean {
  if (message || !/^[A-Za-z_][\w.]*$/.test(reported)) return false;
  const last = shortType(reported);
  if (last.length < 3 || /(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Timeout)$/.test(last))
    return false;
  const target = reported.includes(".") ? observed : shortType(observed);
  return target.length > reported.length && target.startsWith(reported);
}

/** Reported and observed messages agree when equal after normalization, or one contains the other (reporters truncate). */
export function messagesAgree(reported: string | null, observed: string): boolean {
  if (!reported) return true;
  // A message that is nothing but a timestamp once masked is compared as written (see `timeIsTheClaim`).
  const times = !timeIsTheClaim(reported);
  const a = looseKey(reported, { times });
  // `node -e` code is named `[eval]` in Node's messages; the same code runs here as the reproduction's file.
  const b = looseKey(
    reported.includes("[eval]")
      ? observed.replace(/(?<=\/workspace\/)reproduction\.[cm]?js\b/g, "[eval]")
      : observed,
    { times },
  );
  if (a === "" || a === b) return true;
  return b.includes(a) || (b.length >= 8 && a.includes(b)) || elidedAgree(a, b);
}

/** A reporter's elision mark in a message: `(...)`, `[...]`, `...`, `…` (a path cut out of it). */
const ELISION = /\(\s*(?:\.\.\.|…)\s*\)|\[\s*(?:\.\.\.|…)\s*\]|\.\.\.|…/;

/**
 * A reported message with text cut out (`require() of ES Module (...)/node_modules/x/index.js from (...)/[eval]`)
 * agrees with an observed one holding every piece around the cuts, in order (the observed message may go on, as
 * for a truncated one). At least 12 characters must be the reporter's own, so a message that is mostly elided
 * proves nothing.
 */
function elidedAgree(reported: string, observed: string): boolean {
  const pieces = reported.split(new RegExp(ELISION.source, "g"));
  if (pieces.length < 2) return false;
  if (pieces.reduce((n, p) => n + p.trim().length, 0) < 12) return false;
  let at = 0;
  for (const piece of pieces) {
    const found = observed.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}

/**
 * The keys of reported lines, each with whether its timestamps are kept: a line whose only content is a
 * timestamp (a date library's result) is compared as written, never as a bare `<time>` placeholder.
 */
function wantedKeys(reported: string[]): { key: string; literal: boolean }[] {
  return reported
    .map((r) => {
      const literal = timeIsTheClaim(r);
      return { key: looseKey(r, { times: !literal }), literal };
    })
    .filter((w) => w.key !== "");
}

/** Observed lines as keys, timestamps masked and as printed (blank lines dropped). */
function observedKeys(observedText: string): { masked: string; literal: string }[] {
  return normalizedLines(observedText, { times: false })
    .map((l) => ({ masked: looseKey(l), literal: looseKey(l, { times: false }) }))
    .filter((l) => l.masked !== "");
}

/**
 * A run's stderr without the runtime's echo of the program's own source: the line under each Python traceback frame
 * (`  File "…", line N, in f`) and under Node's `/workspace/x.js:N` header, and the caret lines marking them. That
 * echo quotes the report's code — comments included (`# prints b'abc'`) — so a reported output written in a comment
 * would "appear" in any crash of its line: it is the code, not what the code printed.
 */
export function withoutSourceEcho(stderr: string): string {
  const pyFrame = /^\s+File "[^"]+", line \d+/;
  const nodeHeader = /^(?:file:\/\/)?\/workspace\/\S+:\d+$/;
  const out: string[] = [];
  // After a header, the next line is the source echo (Python indents it; a frozen module's frame has none, and
  // the exception line that follows it is kept); after the echo, the caret lines under it.
  let state: "none" | "py" | "node" | "source" = "none";
  for (const line of stderr.split("\n")) {
    const echo =
      (state === "py" && /^\s+\S/.test(line) && !pyFrame.test(line)) ||
      (state === "node" && line.trim() !== "");
    if (echo) {
      state = "source";
      continue;
    }
    if (state === "source" && /^\s*[~^]+[~^\s]*$/.test(line)) continue;
    state = pyFrame.test(line) ? "py" : nodeHeader.test(line) ? "node" : "none";
    out.push(line);
  }
  return out.join("\n");
}

/**
 * A developer-console dump (`0: {item: {…}, refIndex: 0, score: 2.2e-16}`) against what the run printed: the
 * console elided the rest (`{…}`, `Array(1)`), so only the plain values it shows are claims, and each of them,
 * key and value, must appear in the run's printout in the dump's order (at least two; a string's quotes aside).
 */
export function dumpScalarsAppear(reported: string[], observedText: string): boolean {
  const scalar =
    /([A-Za-z_$][\w$]*): ('[^'\n]*'|"[^"\n]*"|-?\d[\w.+-]*|true|false|null|undefined)(?=\s*[,}\]]|\s*$)/g;
  const quote = (v: string) => v.replace(/^"(.*)"$/, "'$1'");
  const pairs = reported.flatMap((l) =>
    [...l.matchAll(scalar)].map((m) => `${m[1]}:${quote(m[2]!)}`.replace(/\s+/g, "")),
  );
  if (pairs.length < 2) return false;
  const printed = observedText
    .replace(/\s+/g, "")
    .replace(/"([^"\n]*)"/g, "'$1'")
    .replace(/(['"])([A-Za-z_$][\w$]*)\1:/g, "$2:");
  let at = 0;
  for (const p of pairs) {
    const m = new RegExp(`(?<![\\w$])${p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(?![\\w.])`, "g");
    m.lastIndex = at;
    const found = m.exec(printed);
    if (!found) return false;
    at = found.index + found[0].length;
  }
  return true;
}

/** A function as Node's printer names it: `[Function: f]`, `[AsyncFunction: f]`, `[GeneratorFunction: g]`. */
const namedFunction = /\[(?:Async|Generator|AsyncGenerator)?Function: ?[\w$.]+\]/;

/** Reported output lines all appear, in order, among the observed lines (normalized). */
export function outputAppears(reported: string[], observedText: string): boolean {
  // A developer-console dump shows only some values; the rest is elided, not claimed.
  if (inspectorDump(reported.join("\n"))) return dumpScalarsAppear(reported, observedText);
  // A long string Node's inspect split into `'…' +` pieces, on either side: compared by the string it denotes.
  const joinedReport = reported.join("\n");
  if (
    (hasInspectChain(joinedReport) || hasInspectChain(observedText)) &&
    outputAppears(foldInspectStrings(joinedReport).split("\n"), foldInspectStrings(observedText))
  )
    return true;
  const want = wantedKeys(reported);
  if (want.length === 0) return false;
  const have = observedKeys(observedText);
  // Reporters space brackets differently from the runtime's printer: `{c: {'12': '1'}}` vs `{ c: { '12': '1' } }`.
  // And quote object keys differently: `{3: 'foo'}` vs `{ '3': 'foo' }` (a key quoted or not is the same key).
  // And Node 12+ marks an object without a prototype (`[Object: null prototype] { '0': 'apple' }`) where
  // older releases, and reporters, print the object alone: the same value.
  const compact = (s: string) =>
    s
      .replace(/\[Object: null prototype\]\s*(?=\{)/g, "")
      .replace(/\s+/g, "")
      .replace(/([{,])(['"])([A-Za-z_$][\w$]*|\d+)\2:/g, "$1$3:");
  // An older Node (and a browser console) printed every function as a bare `[Function]`, where Node 18 names it
  // (`[Function: contains]`, `[AsyncFunction: f]`): when the report's printer names none, a named function
  // printed here is the same value. A report that names functions keeps its names compared.
  const bareFunctions =
    want.some((w) => w.key.includes("[Function]")) && !want.some((w) => namedFunction.test(w.key));
  const printedCompact = (s: string) =>
    compact(bareFunctions ? s.replace(new RegExp(namedFunction.source, "g"), "[Function]") : s);
  let i = 0;
  for (const h of have) {
    if (i >= want.length) break;
    const w = want[i]!.key;
    const line = want[i]!.literal ? h.literal : h.masked;
    if (
      line === w ||
      (w.length >= 6 && line.includes(w)) ||
      (/[[{(]/.test(w) && printedCompact(line) === compact(w)) ||
      // `{ a: [Object] }`: Node's printer cut the reported value at depth; any object there is the same output.
      cutMatches(compact(w), printedCompact(line), false)
    )
      i++;
  }
  if (i === want.length) return true;
  // A printed structure laid out over other lines than the reporter's runtime did (Node's inspect breaks
  // objects at another width from version to version): the same characters, in order, whitespace aside.
  const literal = want.some((w) => w.literal);
  const wanted = compact(want.map((w) => w.key).join(""));
  const printed = printedCompact(have.map((h) => (literal ? h.literal : h.masked)).join(""));
  if (!/[[{(]/.test(wanted) || wanted.length < 12) return false;
  if (printed.includes(wanted) || cutMatches(wanted, printed, false)) return true;
  // An object printed with a method the reported one does not show (`contains: [Function: contains]`, added by a
  // later release): the same value, when the report's object names no function at all. A data field more, or a
  // method the report names, is still a different value (issue 12, hold25).
  return !/Function/.test(wanted) && printed.replace(METHOD_FIELD, "").includes(wanted);
}

/** A property whose value is a function, as Node prints it once compacted: `,contains:[Function:contains]`. */
const METHOD_FIELD =
  /,[\w$'"]+:\[(?:Async|Generator|AsyncGenerator)?Function(?::[\w$.]*| \(anonymous\))?\](?=[,}])/g;

/** Markup as a printer lays it out, made comparable: the XML declaration and whitespace around tags dropped. */
function markupKey(text: string): string {
  return text
    .replace(/<\?xml\b[^>]*\?>/g, "")
    .replace(/\s+(\/?>)/g, "$1")
    .replace(/>\s+/g, ">")
    .replace(/\s+</g, "<")
    .trim();
}

/** One element written whole: an opening tag, and a closing or self-closing tag at the end. */
const MARKUP = /^<([A-Za-z][\w:.-]*)\b[^<>]*>.*(?:<\/\1>|\/>)$/s;

/**
 * Reported markup printed in another layout: the reporter wrote on one line (`<a>b<c /></a>`) what the library
 * pretty-prints with an XML declaration and indentation. The same elements, text and order, whitespace around tags
 * aside; only when the report states expected markup that differs once laid out alike (else the layout may be
 * what the report is about), and never when the run printed the expected markup.
 */
export function markupAppears(reported: string[], observedText: string, expected: string[] = []): boolean {
  const want = markupKey(reported.join("\n"));
  if (want.length < 12 || !MARKUP.test(want)) return false;
  const printed = markupKey(observedText);
  // The expected markup, different in substance, says what is wrong; without it the layout may be the bug.
  const wanted = markupKey(expected.join("\n"));
  if (!MARKUP.test(wanted) || wanted === want || printed.includes(wanted)) return false;
  return printed.includes(want);
}

/**
 * `(?:FileNotFoundError|ENOENT)[^\n]*?['"]([^'"\n]+)['"]` found in time linear in the text: as an expression
 * it scanned the rest of the line from every `ENOENT` of it (480 KB of them: 18.7 s). Only a line's first keyword
 * is tried: a quoted name after a later one is after the first too.
 */
export function quotedAfterNotFound(text: string): RegExpExecArray | null {
  const keyword = /FileNotFoundError|ENOENT/g;
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    const end = text.indexOf("\n", m.index);
    const stop = end === -1 ? text.length : end;
    const after = m.index + m[0].length;
    const q = /['"]([^'"\n]+)['"]/.exec(text.slice(after, stop));
    if (q) {
      const full = text.slice(m.index, after + q.index + q[0].length);
      return Object.assign([full, q[1]!], {
        index: m.index,
        input: text,
        groups: undefined,
      }) as RegExpExecArray;
    }
    if (end === -1) break;
    keyword.lastIndex = end + 1;
  }
  return null;
}

/**
 * A call through the expression that loads a package, as V8 names it in "is not a function": `require(...).default`,
 * Babel's interop `(0 , _x.default)`. Failing there, the installed release's exports are not what the code calls.
 */
export const PACKAGE_CALL = /require\(\.\.\.\)[\w$.]*|\(0\s*,\s*[\w$.]+\)/;

const NEEDS_RULES: {
  test: { exec(text: string): RegExpExecArray | null };
  detail: (m: RegExpExecArray) => string;
  question: (m: RegExpExecArray) => string;
}[] = [
  {
    test: { exec: quotedAfterNotFound },
    detail: (m) => `the script reads \`${m[1]}\`, which the report does not include`,
    question: (m) =>
      `Could you attach \`${m[1]}\` (or a small sample with the same shape) so the script can read it?`,
  },
  {
    test: /(?:ModuleNotFoundError|ImportError): No module named '([\w.]+)'|Cannot find (?:module|package) '([^']+)'/,
    detail: (m) => `the module \`${m[1] ?? m[2]}\` is not available`,
    question: (m) =>
      `The code imports \`${m[1] ?? m[2]}\`: is it a published package (which name and version?) or a local module (could you include its code)?`,
  },
  // Node's module system refusing what the code loads, where the report claims something else: the sandbox's Node
  // (18) and the installed release, not the reported bug (hold23: a PARTIAL from each, tainted).
  {
    test: /ERR_REQUIRE_ESM|\brequire\(\) of ES Module (\S+)/,
    detail: () =>
      "the code `require()`s an ES-module-only release, which this sandbox's Node.js cannot load that way (Node.js 22 can): the run stopped before the code the report is about",
    question: () =>
      "Which Node.js version do you run this on, and do you load the package with `import` or `require()`?",
  },
  {
    test: /ERR_UNSUPPORTED_ESM_URL_SCHEME|Only URLs with a scheme in: [\w, ]+ are supported/,
    detail: () =>
      "the code imports a module by URL (a browser's or a CDN's import), which Node.js's loader refuses: the run stopped before the code the report is about",
    question: () =>
      "The code imports from a URL. Which packages and versions does it load, so it can run with them installed?",
  },
  {
    test: new RegExp(String.raw`TypeError: (${PACKAGE_CALL.source}) is not a (?:function|constructor)\b`),
    detail: (m) =>
      `the code calls \`${m[1]}\`, which the release installed here does not export as a function: the run stopped at the package's interface, before the reported behaviour`,
    question: (m) =>
      `The code calls \`${m[1]}\`, which the installed release does not have. Which version of the package do you use?`,
  },
  {
    test: /(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo|Temporary failure in name resolution|Name or service not known|NewConnectionError|URLError|ConnectionRefusedError|Network is unreachable|fetch failed)/,
    detail: () =>
      "the script needs a network connection or a running service, which the sandbox does not have",
    question: () =>
      "The code talks to a network service. Can you reproduce it without the network, e.g. with the response inlined as data or a local stub?",
  },
];

/** The runtime is older than the snippet needs: the API it calls does not exist there yet (`runtime-rule.ts`). */
function runtimeTooOld(run: RunObservation): RunMatch | null {
  const ex = run.exception;
  if (!ex) return null;
  // The exception's own type says which runtime raised it (a TypeError's `is not a function` is Node's words).
  const node = newerApi(ex, "node");
  const api = node ?? newerApi(ex, "python");
  if (!api) return null;
  const needs = `${node ? "Node.js" : "Python"} ${api.needs}`;
  // The Python that ran, when its own paths say it (`/usr/lib/python3.11/…` in the message or the traceback).
  const ran = node ? undefined : /\/python(3\.\d{1,2})\//.exec(`${ex.message}\n${run.stderr}`)?.[1];
  const older = ran ? `the sandbox's runtime (Python ${ran}) is older` : "the sandbox's runtime is older";
  return {
    kind: "needs",
    detail: `the code calls \`${api.name}\`, which needs ${needs} or later; ${older}, so the run (${ex.type}: ${ex.message}) says nothing about the reported bug`,
    question: `The code uses \`${api.name}\` (${needs}+). Which runtime version do you run it on? Can it be shown without \`${api.name}\`?`,
  };
}

/**
 * `ImportError: cannot import name 'X' from 'M' (/usr/lib/python3.11/M.py)`, where `M` is a module of Python's
 * standard library loaded from the Python installation itself: this Python's `M` has no `X`, a name of another
 * Python release (newer, or removed since). A runtime mismatch, which asks which Python the report runs, never a
 * partial reproduction. A circular import (`partially initialized module`), a module of the same name the report
 * writes itself, or a package's module (site-packages) is not it.
 */
function stdlibNameMissing(run: RunObservation): RunMatch | null {
  const ex = run.exception;
  if (ex?.type !== "ImportError") return null;
  const m = /^cannot import name '(\w+)' from '([\w.]+)' \(([^)]*)\)/.exec(ex.message);
  if (!m) return null;
  const [, name, module, file] = m as unknown as [string, string, string, string];
  if (!PYTHON_STDLIB.has(module.split(".")[0]!)) return null;
  // A module built into the interpreter (`itertools`) has no file: "unknown location".
  const home = /\/(?:usr\/(?:local\/)?)?lib(?:64)?\/python(\d+\.\d+)\//.exec(file);
  if (file !== "unknown location" && (!home || /[\\/](?:site|dist)-packages[\\/]/.test(file))) return null;
  const python = home ? `Python ${home[1]}` : "the Python that ran";
  return {
    kind: "needs",
    detail: `the code imports \`${name}\` from the standard library's \`${module}\`, which ${python}${home ? " (the one that ran)" : ""} does not have: a name of a newer or an older Python, so the run (ImportError) says nothing about the reported bug`,
    question: `The code imports \`${name}\` from \`${module}\`, which ${python} does not have. Which Python version do you run it on?`,
  };
}

/**
 * The run stopped where the code's own line calls something with arguments its callee does not take (Python:
 * "missing 3 required positional arguments", "takes 2 positional arguments but 3 were given", "got an unexpected
 * keyword argument"), raised at that line and not inside the library: the call as written does not fit what ran (its
 * arguments left out, as a sentence naming `hmac.digest()` does, or another release's signature), so the run never
 * reached the reported behaviour. A question, never a partial reproduction of a different error.
 */
function signatureMismatch(run: RunObservation): RunMatch | null {
  const ex = run.exception;
  if (!ex || interfaceMismatch(ex) !== "a signature" || thrownInLibrary(run.stderr, ex.type)) return null;
  if (!pythonRaisingFrame(run.stderr)) return null;
  const callee = /^(?:[\w.]+\.)?(\w+)\(\)/.exec(ex.message)?.[1];
  const what = callee ? `\`${callee}()\`` : "a call";
  return {
    kind: "needs",
    incompleteCode: true,
    detail: `the run stopped on \`${ex.type}: ${ex.message}\` at the code's own line: ${what} is called with arguments it does not take here (left out, or another release's), so the run never reached the reported behaviour`,
    question: `The code stops on \`${ex.type}: ${ex.message}\`. Which arguments do you pass to ${what}, and on which Python version?`,
  };
}

/**
 * The report's line behind a line of the program Retrace ran: the echo Retrace wraps around a bare expression
 * (`_echo(x);`, as a REPL or a value comment prints it) or appends after a statement (`x = f(); _echo(x);`) taken off,
 * so that a parse error quotes what the reporter wrote (`round(...)`), not Retrace's wrapper around it.
 */
export function reportForm(line: string): string {
  const echoed = /^_echo\((.*)\);?$/.exec(line);
  if (echoed && balancedParens(echoed[1]!)) return echoed[1]!.trim();
  const after = /^(.*?);? _echo\([\w$.]+\);?$/.exec(line);
  if (after) return after[1]!.trim();
  return line;
}

/** Whether the round brackets of `s` close in order (strings not considered: a wrapper check, not a parser). */
function balancedParens(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === "(") depth++;
    else if (ch === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** A parse error in the report's own code (not raised at run time by a library): the code as pasted cannot run. */
function ownSyntaxError(run: RunObservation): RunMatch | null {
  const ex = run.exception;
  if (!ex || !/^(SyntaxError|IndentationError|TabError)$/.test(ex.type)) return null;
  const stderr = run.stderr;
  // The installed release's own file, not the report's code (package-syntax.ts).
  const pkgFile = packageParseFailure(run);
  if (pkgFile)
    return {
      kind: "needs",
      detail: `the installed \`${pkgFile.pkg}\` does not load on this runtime: its own file \`${pkgFile.file}\` does not parse (\`${pkgFile.source}\`, ${ex.type}: ${ex.message}), which says nothing about the report`,
      question: `Which version of \`${pkgFile.pkg}\` do you run this with? The one installed here cannot be loaded (its \`${pkgFile.file}\` does not parse on Node.js).`,
    };
  const py = /^[ \t]*File "\/workspace\/([^"]+)", line (\d+)\n(.*)$/m.exec(stderr);
  const node = py ? null : /^(?:file:\/\/)?\/workspace\/(\S+?):(\d+)\n(.*)$/m.exec(stderr);
  // Python: a parse error of the script itself has no traceback, only `File "...", line N`.
  if (py && /^Traceback \(most recent call last\)/m.test(stderr)) return null;
  // Node: a run-time SyntaxError (JSON.parse) has frames in the program; a parse error has none.
  if (node && /^[ \t]+at .*\/workspace\//m.test(stderr)) return null;
  const source = (py ?? node)?.[3];
  if (source === undefined) return null;
  const line = reportForm((source ?? "").trim()).slice(0, 160);
  return {
    kind: "needs",
    incompleteCode: true,
    badLine: line,
    detail: `the report's code does not parse: \`${line}\` (${ex.type}${ex.message ? `: ${ex.message}` : ""})`,
    question: `This line of the code does not parse: \`${line}\` (${ex.type}${ex.message ? `: ${ex.message}` : ""}). Could you paste the exact code you run (no \`...\`, placeholders or REPL output mixed in)?`,
  };
}

/** A name the snippet uses but never defines (a fragment of a larger program): ask for the missing part. */
function undefinedName(run: RunObservation): RunMatch | null {
  const ex = run.exception;
  if (!ex) return null;
  const m =
    ex.type === "ReferenceError"
      ? /^([A-Za-z_$][\w$]*) is not defined$/.exec(ex.message)
      : /NameError$/.test(ex.type)
        ? /^name '(\w+)' is not defined/.exec(ex.message)
        : null;
  if (!m?.[1]) return null;
  return {
    kind: "needs",
    incompleteCode: true,
    missingName: m[1],
    detail: `the code uses \`${m[1]}\`, which it never defines or imports (${ex.type}: ${ex.message})`,
    question: `The code uses \`${m[1]}\` without defining it. Could you include where \`${m[1]}\` comes from (its value, or the import), so the snippet runs on its own?`,
  };
}

/** A reported line's key: timestamps masked, unless the timestamp is the claim itself. */
const claimKey = (line: string) => looseKey(line, { times: !timeIsTheClaim(line) });

/** Every expected line printed as a whole line of its own (normalized). */
function expectedPrinted(expected: string[], observedText: string): boolean {
  const want = wantedKeys(expected);
  if (want.length === 0) return false;
  const have = observedKeys(observedText);
  const masked = new Set(have.map((h) => h.masked.replace(/\s+/g, "")));
  const literal = new Set(have.map((h) => h.literal.replace(/\s+/g, "")));
  return want.every((w) => (w.literal ? literal : masked).has(w.key.replace(/\s+/g, "")));
}

const quoteList = (xs: string[]) => xs.map((x) => `\`${x}\``).join(", ");

/**
 * A reproducer that repeats until the bug shows (`while True:` … `raise RuntimeError(...)`, `for (;;)` …
 * `throw`): an endless loop at the start of a line, and a way out of it by failing. Stopped at the time limit,
 * such a program ran without the failure for all that time: the bug did not show, which is no missing
 * information.
 */
export function repeatsUntilFailure(code: string): boolean {
  const endless =
    /^[ \t]*(?:while[ \t]*(?:(?:True|1)[ \t]*:|\([ \t]*(?:true|1)[ \t]*\))|for[ \t]*\([ \t]*;[ \t]*;[ \t]*\))/m;
  const fails = /\b(?:raise|throw)[ \t]|^[ \t]*assert\b|\b(?:sys\.exit|os\._exit|process\.exit)\(/m;
  return endless.test(code) && fails.test(code);
}

/** What the comparison knows of the program besides its run. */
export interface MatchOptions {
  /** The program repeats until the reported failure shows (`repeatsUntilFailure`). */
  untilFailure?: boolean;
  /** What the expected lines are, in words, when a version label placed them on the good side ("the output the report shows for 3.11.4, where it worked"). */
  expectedFrom?: string;
  /**
   * The report's own words (title and prose): a limit the report itself names ("raises OSError: [Errno 24] Too many
   * open files") is what the report is about, so a run stopping on it is judged, never blamed on the sandbox.
   */
  reportText?: string;
}

/**
 * @param expected what the report says should happen instead (lines); a run that prints it shows the correct
 *   behaviour, which is never a reproduction.
 */
export function matchRun(
  reported: ReportedBehaviour,
  run: RunObservation,
  expected: string[] = [],
  expectedException: RaisedException | null = null,
  options: MatchOptions = {},
): RunMatch {
  const combined = `${run.stdout}\n${withoutSourceEcho(run.stderr)}`;
  const claimedLimits = limitKinds(options.reportText ?? "");
  const needsFrom = (text: string, observed: RunObservation | null = null) =>
    needsFromRun(text, observed, claimedLimits);
  const showsExpected =
    expected.length > 0 &&
    !expected.every((e) => reported.output.some((o) => claimKey(o) === claimKey(e))) &&
    (expectedPrinted(expected, run.stdout) ||
      (printedJsonMatches(expected, run.stdout) && !printedJsonMatches(reported.output, run.stdout)));
  const reportedType = reported.kind === "exception" ? shortType(reported.exceptionType ?? "") : "";
  if (run.exception && !sameExceptionType(reportedType || "-", run.exception.type)) {
    // Some of the reported lines printed before the run died on a name the code never defines (the report's
    // own typo: `console;log(x)`): the claim partly shows, and the failure is not the report's — PARTIAL.
    const printed = run.stdout.split("\n").filter((l) => l.trim() !== "");
    // Every line the report shows was printed, and not as reported, before the run died on a name the code
    // never defines (a fragment pasted after the program: a patch, an excerpt of the library): the claim's
    // statements ran and did not show it; the failure after them is not the report's, and no part of the claim.
    const ranPastClaim =
      reported.kind === "output" &&
      reported.output.length > 0 &&
      printed.length >= reported.output.length &&
      !outputAppears(reported.output, run.stdout) &&
      undefinedName(run) !== null;
    if (ranPastClaim)
      return {
        kind: "clean",
        detail: `printed ${quoteList(printed.slice(0, 4))} where the report shows ${quoteList(reported.output.slice(0, 4))}; the run then stopped on \`${run.exception!.type}: ${run.exception!.message}\` in code after them that the report never defines, which is not the reported behaviour`,
      };
    const partlyShown =
      reported.kind === "output" &&
      reported.output.length > 1 &&
      reported.output.some((o) => outputAppears([o], run.stdout));
    const blocked =
      (/SyntaxError|IndentationError|TabError/.test(reportedType) ? null : ownSyntaxError(run)) ??
      (/ReferenceError|NameError/.test(reportedType) || partlyShown ? null : undefinedName(run)) ??
      runtimeTooOld(run) ??
      stdlibNameMissing(run) ??
      signatureMismatch(run);
    if (blocked) return blocked;
  } else if (run.exception && reportedType && !/ReferenceError|NameError/.test(reportedType)) {
    // A base type reported (`Error: Parse Error: …`) and the run stopped on a name the code never defines
    // (`ReferenceError: db is not defined`): the types agree only as parent and child; the fragment stopped short.
    const named = undefinedName(run);
    if (named) return named;
  }
  const failed =
    run.exception !== null || (run.exitCode !== null && run.exitCode !== 0) || run.stoppedBy !== null;
  const observedFailure = run.exception
    ? `${run.exception.type}${run.exception.message ? `: ${run.exception.message}` : ""}`
    : run.stoppedBy
      ? `the sandbox stopped the run (${run.stoppedBy})`
      : `exit code ${run.exitCode}`;

  if (reported.kind === "hang") {
    if (run.stoppedBy === "timeout")
      return { kind: "match", detail: "the run did not finish before the time limit, as reported" };
    if (failed)
      return {
        kind: "different-failure",
        detail: `the report describes a hang; the run ended with ${observedFailure}`,
      };
    return { kind: "clean", detail: "the report describes a hang; the run finished normally" };
  }

  // A run the sandbox stopped at its time limit, where the report describes no hang, shows nothing about the
  // bug: it is not a partial reproduction.
  if (run.stoppedBy === "timeout") {
    if (options.untilFailure && reported.kind !== "unknown")
      return {
        kind: "clean",
        detail: `the code repeats until the reported failure shows; it ran for ${Math.round(run.durationMs / 1000)} s, until the sandbox's time limit, without it (a longer \`--timeout\` gives it more time)`,
      };
    // The report says the call is slow and claims nothing else: still busy on the CPU at the limit is that.
    if (reported.kind === "unknown" && reported.slow && cpuBound(run))
      return {
        kind: "match",
        detail: `the run was still busy on the CPU when the sandbox's time limit stopped it (${(run.cpuMs! / 1000).toFixed(1)} s of CPU in ${(run.durationMs / 1000).toFixed(1)} s), as the report says the call is slow`,
      };
    // Busy on the CPU the whole time: the program itself does not end (a hang the report does not describe), which
    // is evidence about the program, not about the host: it fails, but not as reported.
    if (cpuBound(run))
      return {
        kind: "different-failure",
        detail: `the run never finished: it was busy on the CPU until the sandbox's time limit stopped it (${(run.cpuMs! / 1000).toFixed(1)} s of CPU in ${(run.durationMs / 1000).toFixed(1)} s), an endless loop the report does not describe`,
      };
    return {
      kind: "needs",
      timedOut: true,
      detail:
        "the run did not finish within the sandbox's time limit, and the report describes no hang (a slow install or import, or a loop waiting for input)",
      question:
        "How long does the code take for you? If it waits for input or a server, could you make it self-contained? (Maintainers: a longer `--timeout` may let it finish.)",
    };
  }
  // The error the report shows as the correct behaviour (the good transcript's, one it says "used to" be
  // raised): raising it is the behaviour the report asks for, never the claim.
  if (
    run.exception &&
    expectedException &&
    sameExceptionType(expectedException.type, run.exception.type) &&
    messagesAgree(expectedException.message, run.exception.message) &&
    !(
      reported.kind === "exception" &&
      reported.exceptionType &&
      sameExceptionType(reported.exceptionType, run.exception.type)
    )
  ) {
    const claim =
      reported.kind === "exception" && reported.exceptionType
        ? `the reported \`${reported.exceptionType}\``
        : reported.output.length > 0
          ? `the reported ${quoteList(reported.output.slice(0, 4))}`
          : "the reported behaviour";
    return {
      kind: "clean",
      detail: `raised \`${observedFailure}\`, the error the report shows as the correct behaviour, not ${claim}: the run shows the behaviour the report calls correct (fixed here, or never broken on this runtime)`,
    };
  }
  if (reported.kind === "exception" && reported.exceptionType) {
    if (run.exception) {
      const sameType = sameExceptionType(reported.exceptionType, run.exception.type);
      if (
        !sameType &&
        cutExceptionName(reported.exceptionType, reported.exceptionMessage, run.exception.type)
      )
        return {
          kind: "match",
          detail: `raised ${observedFailure}; the report's \`${reported.exceptionType}\` is that name cut short where the report's text stops`,
        };
      if (sameType && messagesAgree(reported.exceptionMessage, run.exception.message)) {
        // The good transcript raised the same error, through fewer frames: the run must show the frames only the
        // reported one has, or it shows the good side.
        const ran = pythonFrames(run.stderr);
        const missing = (reported.frames ?? []).filter(
          (f) => !ran.some((r) => r.function === f.function && (f.own || r.file === f.file)),
        );
        if (missing.length > 0)
          return {
            kind: "clean",
            detail: `raised ${observedFailure} like every transcript in the report, but its traceback has no ${missing.map((f) => `\`${f.function}\` frame (${f.own ? "the report's script" : f.file})`).join(", ")}, which only the reported transcript shows: the run shows the traceback the report sets against it (fixed here, or never broken on this runtime)`,
          };
        return { kind: "match", detail: `raised ${observedFailure}, as reported` };
      }
      // Node failing to load the same file of the same package, with the same error code: the runtime's version
      // words the message ("Must use import to load ES Module" in Node 12), the failure is the one reported.
      const load = reported.loadError;
      if (sameType && load && sameLoadError(load, run.stderr)) {
        return {
          kind: "match",
          detail: `raised ${observedFailure}: Node failed to load \`${load.pkg}/${load.file}\` with ${load.code}, as reported; the message is worded by this runtime (reported \`${reported.exceptionMessage}\`)`,
        };
      }
      const needs = needsFrom(combined);
      if (needs) return needs;
      // The same library line raised the same exception type: the message is worded by the runtime's version
      // (3.11's "is not iterable", 3.14's "is not a container or iterable"), the failure is the same.
      const raisedAt = sameType ? pythonRaisingFrame(run.stderr) : null;
      if (raisedAt && sameRaisingFrame(reported.raisedAt, raisedAt)) {
        return {
          kind: "match",
          detail: `raised ${observedFailure} at the reported line (\`${raisedAt.line}\` in \`${raisedAt.function}\`, ${raisedAt.file}), as reported; the message is worded differently here (reported \`${reported.exceptionMessage}\`)`,
        };
      }
      if (sameType) {
        return {
          kind: "different-failure",
          detail: `same exception type, different message: reported \`${reported.exceptionMessage}\`, got \`${run.exception.message}\``,
        };
      }
      return {
        kind: "different-failure",
        detail: `reported \`${reported.exceptionType}${reported.exceptionMessage ? `: ${reported.exceptionMessage}` : ""}\`, got \`${observedFailure}\``,
      };
    }
    // A message the report quotes with no exception name ("fails with `unknown option '-x'`"): a CLI prints it
    // on stderr and exits rather than throwing, and that is the reported failure.
    if (
      shortType(reported.exceptionType) === "Error" &&
      reported.exceptionMessage &&
      claimKey(reported.exceptionMessage).length >= 8 &&
      normalizedLines(run.stderr, { times: false }).some((l) =>
        looseKey(l, { times: !timeIsTheClaim(reported.exceptionMessage!) }).includes(
          claimKey(reported.exceptionMessage!),
        ),
      )
    ) {
      return {
        kind: "match",
        detail: `printed the error \`${reported.exceptionMessage}\` on stderr, as reported`,
      };
    }
    // Python's SystemExit prints no traceback: the process's own non-zero exit is the exception.
    if (
      shortType(reported.exceptionType) === "SystemExit" &&
      !run.exception &&
      run.exitCode !== null &&
      run.exitCode !== 0 &&
      run.stoppedBy === null
    ) {
      return { kind: "match", detail: `exited with status ${run.exitCode} (SystemExit), as reported` };
    }
    if (failed) {
      const needs = needsFrom(combined);
      if (needs) return needs;
      return {
        kind: "different-failure",
        detail: `reported \`${reported.exceptionType}\`; the run ended with ${observedFailure}`,
      };
    }
    return {
      kind: "clean",
      detail: showsExpected
        ? `reported \`${reported.exceptionType}\`; the run completed without an exception and printed the expected ${quoteList(expected)} (fixed here, or never broken on this runtime)`
        : `reported \`${reported.exceptionType}\`; the run completed without an exception`,
    };
  }

  if (reported.kind === "output") {
    if (showsExpected)
      return {
        kind: "clean",
        detail: `printed the expected ${quoteList(expected)}, not the reported ${quoteList(reported.output)}: the run shows the behaviour the report asks for (fixed here, or never broken on this runtime)`,
      };
    if (outputAppears(reported.output, combined))
      return {
        kind: "match",
        detail: `printed the reported output (${quoteList(reported.output.slice(0, 4))}${reported.output.length > 4 ? ", …" : ""})`,
      };
    if (markupAppears(reported.output, combined, expected))
      return {
        kind: "match",
        detail: `printed the reported markup (${quoteList(reported.output.slice(0, 2))}), laid out otherwise (indentation, the XML declaration)`,
      };
    // `JSON.stringify(…, null, 4)` echoed as a string literal, the report's block the JSON written out by hand
    // (trailing commas): the same value, structurally (printed-json.ts).
    if (printedJsonMatches(reported.output, run.stdout))
      return {
        kind: "match",
        detail: `printed a JSON string whose contents equal the reported ${quoteList(reported.output.slice(0, 2))}${reported.output.length > 2 ? ", …" : ""}, value for value (the report writes the JSON out by hand)`,
      };
    if (failed) {
      const needs = needsFrom(combined);
      if (needs) return needs;
      return {
        kind: "different-failure",
        detail: `the report shows output; the run failed with ${observedFailure}`,
      };
    }
    if (floatsAgreeButLastDigit(reported.output, run.stdout, expected))
      return {
        kind: "match",
        detail: `printed ${quoteList(run.stdout.trim().split("\n").slice(0, 2))}, the reported ${quoteList(reported.output.slice(0, 2))} up to the last digit (the same value rounded in its last bit by this runtime), and not the expected ${quoteList(expected.slice(0, 2))}`,
      };
    const part = partOfOutput(reported.output, run.stdout);
    // The lines that differ printed what the run printed for the line whose value the report calls the expected
    // one: in this runtime's notation, that is the expected value, so the claim's lines show the behaviour the
    // report asks for, not a part of the bug.
    const asReference = part ? printedAsExpectedLine(reported.output, run.stdout, expected) : null;
    if (asReference)
      return {
        kind: "clean",
        detail: `printed \`${asReference.printed}\` for the line the report says gives \`${asReference.claimed}\`: what it printed for the line whose value the report calls the expected one (\`${asReference.reference}\`), so the run shows the expected behaviour, not the reported one (fixed here, or never broken on this runtime)`,
      };
    if (part)
      return {
        kind: "partial-output",
        detail: `printed ${part.shown.length} of the ${reported.output.length} reported values line for line (${quoteList(part.shown.slice(0, 4))}); the other lines differ: ${part.differ
          .slice(0, 4)
          .map(([r, o]) => `\`${r}\` was reported, the run printed \`${o}\``)
          .join("; ")}`,
      };
    return {
      kind: "clean",
      detail: `the run completed but did not print the reported ${quoteList(reported.output.slice(0, 4))}${reported.output.length > 4 ? ", …" : ""}`,
    };
  }

  // How the process ends, as the report states it ("exits silently with exit status 0").
  if (reported.kind === "exit") {
    const said = reported.exitCode !== null && reported.exitCode !== undefined;
    const codeAgrees = !said || run.exitCode === reported.exitCode;
    const quiet = combined.trim() === "";
    // A claim about what a print shows: no line on stdout means the print never ran (in a function never called),
    // which shows nothing of the claim.
    if (reported.printsLine && run.exception === null && codeAgrees && quiet && !run.stdout.includes("\n"))
      return {
        kind: "no-expectation",
        detail:
          "the run printed no line at all: the print the report comments on never ran, so the run shows nothing of what it prints",
      };
    if (run.exception === null && codeAgrees && (!reported.silent || quiet))
      return {
        kind: "match",
        detail: `exited with status ${run.exitCode}${reported.silent ? " and printed nothing" : ""}, as reported`,
      };
    // A failure claimed (a non-zero status): the run failing otherwise is a failure, not as reported. A quiet or
    // zero exit claimed: a run that fails loudly does not show it (often the fixed behaviour: an error message).
    const failureClaimed = said && reported.exitCode !== 0;
    if (failed) {
      const needs = needsFrom(combined);
      if (needs) return needs;
      if (failureClaimed)
        return {
          kind: "different-failure",
          detail: `the report says the program exits with status ${reported.exitCode}; the run ended with ${observedFailure}`,
        };
    }
    return {
      kind: "clean",
      detail: `the report says the program exits${said ? ` with status ${reported.exitCode}` : ""}${reported.silent ? " silently" : ""}; the run ${failed ? `ended with ${observedFailure}` : `exited with status ${run.exitCode}`}${quiet ? "" : " and printed output"}`,
    };
  }
  // The snippet's own marks (`# Succeeds` above one part, `# Fails` above a later one): the line the run raised at
  // decides which part failed.
  if (reported.kind === "error-unspecified" && reported.segments) {
    const { passing, failing, passMark, failMark } = reported.segments;
    if (!failed)
      return {
        kind: "clean",
        detail: `the part the report marks \`${failMark}\` ran without an error here too`,
      };
    // What the sandbox lacks (a file, a module, the network, a newer runtime) decides first, wherever it raised.
    const needs = needsFrom(combined, run);
    if (needs) return needs;
    const at = run.exception && run.stoppedBy === null ? ownRaisingLine(run.stderr) : null;
    // The code calling what the installed release does not have (a missing attribute, a name, a keyword or an
    // argument count it does not take), raised at the report's own line rather than inside the library: which
    // release the report runs is the question, never the reported failure shown (fx4, rv23).
    const mismatch =
      at !== null && run.exception && !thrownInLibrary(run.stderr, run.exception.type)
        ? interfaceMismatch(run.exception)
        : null;
    if (at !== null && mismatch && failing.includes(at) && !passing.includes(at))
      return {
        kind: "needs",
        detail: `raised ${observedFailure} at \`${at}\`, in the part the report marks \`${failMark}\`: the code calls ${mismatch} the installed release does not have, raised at the report's own line and not inside the library, so it says which release ran, not that the reported failure shows`,
        question: `The part marked \`${failMark}\` stops here on \`${observedFailure}\` at \`${at}\`: the installed release does not have what it calls. Which version of the package (and of Python) do you run it with?`,
      };
    if (at !== null && failing.includes(at) && !passing.includes(at))
      return {
        kind: "match",
        detail: `raised ${observedFailure} at \`${at}\`, in the part the report marks \`${failMark}\`, after the part it marks \`${passMark}\` ran without an error, as reported`,
      };
    // The report says the marked part works: an error there is another failure, never the wanted behaviour.
    if (at !== null && passing.includes(at) && !failing.includes(at))
      return {
        kind: "different-failure",
        detail: `raised ${observedFailure} at \`${at}\`, in the part the report marks \`${passMark}\`, which the report says runs without an error`,
      };
    return {
      kind: "different-failure",
      detail: `the run ended with ${observedFailure}${at ? ` at \`${at}\`` : ""}, not in the part the report marks \`${failMark}\``,
    };
  }
  if (reported.kind === "error-unspecified" && reported.processCrash) {
    const crash = crashMatch(run);
    if (crash) return crash;
  }
  // "On 1.3.3 it throws", quoting nothing: an uncaught error thrown inside the library's own code is the
  // failure the report describes (one thrown by the snippet's own lines, a missing name or a loader, is not).
  // Not for a report of the process itself dying: an ordinary exception is not that (above).
  if (
    reported.kind === "error-unspecified" &&
    !reported.processCrash &&
    run.exception &&
    run.stoppedBy === null
  ) {
    const library = thrownInLibrary(run.stderr, run.exception.type);
    if (library && !needsFrom(combined))
      return {
        kind: "match",
        detail: `threw ${observedFailure} inside ${library}, as the report says it throws (it quotes no error text)`,
      };
  }
  if (failed) {
    const needs = needsFrom(combined);
    if (needs) return needs;
    return {
      kind: "unconfirmed-failure",
      detail: `the run failed with ${observedFailure}; the report does not quote the error to compare with`,
    };
  }
  if (reported.kind === "error-unspecified") {
    return { kind: "clean", detail: "the report describes an error; the run completed without one" };
  }
  // Only the expected value is stated ("truncated division should give 9007199254740991"), and the run prints it:
  // the run shows the behaviour the report asks for.
  if (reported.kind === "unknown" && showsExpected)
    return {
      kind: "clean",
      detail: options.expectedFrom
        ? `printed ${options.expectedFrom}: ${quoteList(expected.slice(0, 4))}; that is the good side of the report, not its bug (fixed here, or never broken on this runtime)`
        : `printed the expected ${quoteList(expected)}; the report states no wrong value, and the run shows the one it asks for (fixed here, or never broken on this runtime)`,
    };
  // Only the expected output is shown, and the report says what the code prints is not it: a run printing
  // something else shows the claim; printing nothing shows nothing.
  if (reported.kind === "unknown" && reported.notExpected && expected.length > 0 && run.stdout.trim() !== "")
    return {
      kind: "match",
      detail: `printed ${quoteList(run.stdout.trim().split("\n").slice(0, 4))}, not the expected ${quoteList(expected.slice(0, 4))}${expected.length > 4 ? ", …" : ""} the report shows, as it says`,
    };
  const sameAsReference = referencePrintMatch(reported, run.stdout);
  if (sameAsReference) return sameAsReference;
  return {
    kind: "no-expectation",
    detail: "the run completed; the report does not say which output or error is wrong",
  };
}

/** A reported line the reporter marks as the wrong one: `x # Broken`, `y // wrong`, `z <- bug`. */
const FLAGGED_LINE =
  /\s*(?:#|\/\/|<-+|←)\s*(?:broken|bug(?:gy)?|wrong|incorrect|not ok|unexpected|bad)\b.*$/i;

/**
 * Several reported values (one per statement, as a REPL echoes them) against a run that printed as many lines: the
 * run shows part of the claim when some lines are the reported ones, in their places, and the others are not.
 * Evidence only from distinctive lines (not a bare number, boolean or None, which agree by chance), and never
 * when the run printed another number of lines (then the statements did not line up).
 */
export function partOfOutput(
  reported: string[],
  stdout: string,
): { shown: string[]; differ: [string, string][] } | null {
  const claimed = reported.map((l) => l.trim()).filter((l) => l !== "");
  if (claimed.length < 2) return null;
  let printed = stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  // An object's lines quoted without its own brackets (`Netmask {` … `}` left out, the members kept): the run's
  // bracket-only lines are no values to pair with the claim's (issue 12, hold25). Only when the claim has none.
  const bracketOnly = (l: string) => /^(?:[\w$.]+\s+)?[[{(]$|^[\]})][,;]?$/.test(l);
  if (printed.length !== claimed.length && !claimed.some(bracketOnly))
    printed = printed.filter((l) => !bracketOnly(l));
  if (printed.length !== claimed.length) return null;
  const shown: string[] = [];
  const differ: [string, string][] = [];
  claimed.forEach((c, i) => {
    if (looseKey(c.replace(FLAGGED_LINE, "").trim()) === looseKey(printed[i]!)) shown.push(c);
    else differ.push([c, printed[i]!]);
  });
  // `åäö-123 # Broken` among lines shown as fine: the marked lines are the claim, the others the working ones.
  // None of them showing is no part of the claim, however many of the working ones do.
  const marked = claimed.filter((c) => FLAGGED_LINE.test(c));
  if (marked.length > 0) {
    const bare = (l: string) => l.replace(FLAGGED_LINE, "").trim();
    const markedShown = claimed.some(
      (c, i) => FLAGGED_LINE.test(c) && looseKey(bare(c)) === looseKey(printed[i]!),
    );
    if (!markedShown) return null;
  }
  const distinctive = (l: string) =>
    l.length >= 6 && !/^(?:-?[\d.e+-]+|true|false|null|undefined|none|nan|'[^']{0,3}'|"[^"]{0,3}")$/i.test(l);
  if (differ.length === 0 || !shown.some(distinctive)) return null;
  return { shown, differ };
}

/**
 * Reported lines paired with the printed ones (as `partOfOutput` pairs them), some of whose reported values are the
 * expected value the report gives (`// Uint8Array <00, 00, 3F>` under "gives the expected `Uint8Array <00, 00, 3F>`"):
 * what the run printed for those is the expected value in this runtime's notation. When every other line that
 * differs printed exactly that, it shows the expected behaviour; the line, what it printed and the reference.
 * Null otherwise (no expected value among the reported lines, or a differing line printing something else).
 */
export function printedAsExpectedLine(
  reported: string[],
  stdout: string,
  expected: string[],
): { claimed: string; printed: string; reference: string } | null {
  if (expected.length === 0) return null;
  const claimed = reported.map((l) => l.trim()).filter((l) => l !== "");
  const printed = stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (printed.length !== claimed.length) return null;
  const wanted = new Set(expected.map(claimKey));
  const reference = claimed.map((c, i) => (wanted.has(claimKey(c)) ? i : -1)).filter((i) => i >= 0);
  if (reference.length === 0 || reference.length === claimed.length) return null;
  const renderings = new Set(reference.map((i) => looseKey(printed[i]!)));
  const differing = claimed
    .map((_, i) => i)
    .filter((i) => !reference.includes(i) && looseKey(claimed[i]!) !== looseKey(printed[i]!));
  if (differing.length === 0 || !differing.every((i) => renderings.has(looseKey(printed[i]!)))) return null;
  const first = differing[0]!;
  const ref = reference.find((i) => looseKey(printed[i]!) === looseKey(printed[first]!))!;
  return { claimed: claimed[first]!, printed: printed[first]!, reference: claimed[ref]! };
}

/**
 * The library whose code raised the uncaught error, when its innermost frame with a file is a library's: an
 * installed package (`node_modules/<pkg>/`, `site-packages/<pkg>/`) or Python's standard library. Null when the
 * error came from the program's own lines or Node's loader.
 */
export function thrownInLibrary(stderr: string, type = ""): string | null {
  const frame = pythonRaisingFrame(stderr);
  if (frame) {
    const installed = /\/(?:site|dist)-packages\/([\w.-]+)\//.exec(frame.path);
    if (installed) return `\`${installed[1]}\` (${frame.file}, in \`${frame.function}\`)`;
    if (/^\/usr\/(?:local\/)?lib\/python3\.\d+\/(?!site-|dist-)/.test(frame.path))
      return `Python's standard library (${frame.file}, in \`${frame.function}\`)`;
    return null;
  }
  // The uncaught error's own stack: after the last line that names its type (a warning's stack may come first).
  const lines = stderr.split("\n");
  const from = type
    ? Math.max(
        0,
        lines.findLastIndex((l) => l.trimStart().startsWith(type)),
      )
    : 0;
  for (const line of lines.slice(from)) {
    const at = /^\s+at\s+(?:.*?\()?((?:\/|file:\/\/)[^()\s]+?):\d+:\d+\)?\s*$/.exec(line);
    if (!at) continue;
    const pkg = /\/node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\//.exec(at[1]!);
    return pkg ? `\`${pkg[1]}\` (${at[1]!.split("/").pop()})` : null;
  }
  return null;
}

/**
 * An exception that says the code calls what is not there (Python): a missing module attribute or name, a keyword
 * or an argument count the callee does not take, a module called as a function. Raised at the report's own line,
 * it tells which release ran, not how the library behaves. `'NoneType' object has no attribute` is not one: a
 * value the library returned lacks it. Returns how to say it, or null.
 */
export function interfaceMismatch(ex: { type: string; message: string }): string | null {
  const type = ex.type.split(".").pop()!;
  const { message } = ex;
  if (type === "AttributeError" && /has no attribute '/.test(message) && !/^'NoneType' object/.test(message))
    return "an attribute";
  if (type === "NameError" || type === "UnboundLocalError") return "a name";
  if (
    type === "TypeError" &&
    /\b(?:got an unexpected keyword argument|got multiple values for (?:keyword )?argument|takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+|missing \d+ required (?:positional|keyword-only) arguments?|takes no (?:keyword )?arguments|takes exactly (?:one|\d+) arguments?|'module' object is not callable)/.test(
      message,
    )
  )
    return "a signature";
  return null;
}

/**
 * Python's errors of the environment (an import, the file system, the network): the sandbox lacking what the code
 * needs, whichever line raised them, never a library's bug shown. The rules above name the missing thing when the
 * message quotes it; this covers the rest (`ImportError: cannot import name`, an `OSError` quoting no path).
 */
const ENVIRONMENT_ERROR =
  /^(?:[\w.]+\.)?(?:ImportError|ModuleNotFoundError|OSError|IOError|EnvironmentError|FileNotFoundError|FileExistsError|PermissionError|IsADirectoryError|NotADirectoryError|Connection\w*Error|BrokenPipeError|TimeoutError|gaierror|herror|timeout|URLError|HTTPError|SSLError|ProxyError|ConnectTimeout|ReadTimeout|MaxRetryError)$/;

/** Which of the sandbox's limits a text names, by kind: an errno's code and its message are the same limit. */
export function limitKinds(text: string): Set<string> {
  const kinds = new Set<string>();
  if (/\bENOSPC\b|No space left on device/i.test(text)) kinds.add("disk");
  if (/\bEROFS\b|Read-only file system/i.test(text)) kinds.add("read-only");
  if (/\bE[MN]FILE\b|Too many open files/i.test(text)) kinds.add("open-files");
  if (/\bENOMEM\b|Cannot allocate memory/i.test(text)) kinds.add("memory");
  return kinds;
}

/** The sandbox's own limits (its disk, its file handles, its memory): never the report's, never a verdict. */
const SANDBOX_LIMIT =
  /\b(?:ENOSPC|EROFS|EMFILE|ENFILE|ENOMEM)\b|No space left on device|Read-only file system|Too many open files|Cannot allocate memory/;

/**
 * What the sandbox lacks that the run stopped on. Its own lacks are no answer the reporter can give: a module of
 * Python's standard library its Python was built without (`No module named '_tkinter'`), or a limit of the sandbox
 * (no space left, too many open files) throw an infrastructure error saying what to do (fx4, rv23). What the report
 * leaves out (a file it reads, a module that is not the standard library's, a network service) is the question to
 * ask. Given the run, also the runtime being older than the code needs (`runtime-rule.ts`) and an environment
 * error by its type alone (the message quoting nothing the rules read).
 */
function needsFromRun(
  text: string,
  run: RunObservation | null = null,
  claimedLimits: ReadonlySet<string> = new Set(),
): RunMatch | null {
  const lacking = sandboxLack(text, claimedLimits);
  if (lacking) throw lacking;
  for (const rule of NEEDS_RULES) {
    const m = rule.test.exec(text);
    if (m) return { kind: "needs", detail: rule.detail(m), question: rule.question(m) };
  }
  if (!run) return null;
  const older = runtimeTooOld(run);
  if (older) return older;
  const ex = run.exception;
  if (!ex || !ENVIRONMENT_ERROR.test(ex.type)) return null;
  const raised = `${ex.type}${ex.message ? `: ${ex.message}` : ""}`;
  return {
    kind: "needs",
    detail: `the run raised \`${raised}\`: the code needs a module, file or connection the sandbox does not have, which says nothing about the reported bug`,
    question: `The code raised \`${raised}\` here. Which modules, files or services does it need? Could you include them (or a small sample) so it runs on its own?`,
  };
}

/**
 * Standard-library modules that exist only on another platform (Windows's `nt`, `winreg`, `msvcrt`) or drive a
 * display (`tkinter`, `turtle`): their absence says the report needs the reporter's machine or screen, a question
 * to the reporter (NEEDS_INFO as the corpus judges `py-ntpath-126780`, `py-tkinter-118554`), not a module the
 * sandbox's Python could be given.
 */
const REPORTER_PLATFORM_MODULE =
  /^(?:nt|winreg|_winreg|msvcrt|_winapi|winsound|_overlapped|_msi|msilib|_tkinter|tkinter|turtle|turtledemo|idlelib)$/;

/** The sandbox's own lack in the run's output, as the infrastructure error to throw; null when none. */
function sandboxLack(
  text: string,
  claimedLimits: ReadonlySet<string> = new Set(),
): InfrastructureError | null {
  const module = /(?:ModuleNotFoundError|ImportError): No module named '([\w.]+)'/.exec(text);
  const top = module?.[1]?.split(".")[0];
  if (
    top &&
    PYTHON_STDLIB.has(top) &&
    !REPORTER_PLATFORM_MODULE.test(top) &&
    !newerApi({ type: "ModuleNotFoundError", message: `No module named '${top}'` }, "python")
  )
    return new InfrastructureError(
      `the run stopped on \`${module![0]}\`: \`${top}\` is a module of Python's standard library that the sandbox's Python does not have`,
      `the sandbox image's Python was built without \`${top}\`: add it to the image (Debian packages some modules apart, e.g. python3-tk for tkinter), or run the report where it is present; nothing was concluded about the report`,
    );
  const limit = SANDBOX_LIMIT.exec(text);
  // The report names this very limit as what goes wrong (a leak of file handles ending in `Too many open files`):
  // the run reaching it is the reported behaviour to judge, not a lack of the sandbox (issue 12, hold25).
  if (limit && [...limitKinds(limit[0])].every((k) => claimedLimits.has(k))) return null;
  if (limit)
    return new InfrastructureError(
      `the run stopped on a limit of the sandbox (\`${limit[0]}\`), not on anything the report's code or library did`,
      "the sandbox caps each run's disk, open files and memory (src/sandbox/limits.ts; an operator's maxima in RETRACE_SANDBOX_MAX_LIMITS): raise the cap for this run or shrink what the code writes; nothing was concluded about the report",
    );
  return null;
}

/**
 * `matchRun` with a bound on the host CPU it spends: the report's code prints what it likes, up to the run's
 * output cap, and every pattern here reads it. The budget is a CI log's (RETRACE_HOST_LIMITS logTimeMs +
 * logMsPerMb per MiB of output); past it, or on a host too busy to give it, the job ends with an infrastructure
 * error naming why — never a verdict from a part-read output.
 */
export function matchRunWithinBudget(
  reported: ReportedBehaviour,
  run: RunObservation,
  expected: string[] = [],
  expectedException: RaisedException | null = null,
  options: MatchOptions = {},
): RunMatch {
  const r = withinCpuTime(
    () => matchRun(reported, run, expected, expectedException, options),
    outputBudgetMs(run),
  );
  if (r.ok) return r.value;
  throw outputUnread(run, r.message);
}

/** Host CPU the reading of one run's output may take: a log's budget for its size. */
export function outputBudgetMs(run: { stdout: string; stderr: string }): number {
  const limits = hostLimits();
  return limits.logTimeMs + (limits.logMsPerMb * (run.stdout.length + run.stderr.length)) / (1024 * 1024);
}

export function outputUnread(run: { stdout: string; stderr: string }, why: string): InfrastructureError {
  const mib = ((run.stdout.length + run.stderr.length) / (1024 * 1024)).toFixed(1);
  return new InfrastructureError(
    `the run's output (${mib} MiB) could not be read on the host: it ${why} (RETRACE_HOST_LIMITS logTimeMs + logMsPerMb per MiB, counted in CPU time)`,
    "the report's code prints output shaped to slow the host down, or the host was too busy; nothing was concluded from it",
  );
}

export interface RunsVerdict {
  verdict: Verdict;
  reproducedRuns: number;
  /** The most telling per-run detail (the first non-match when not all matched). */
  detail: string;
  /** NEEDS_INFO because the report's code is incomplete (a model may complete it). */
  incompleteCode?: boolean;
  /** What the question names: the undefined name, the line that does not parse (from the run's `needs`). */
  missingName?: string;
  badLine?: string;
  /** NEEDS_INFO because the run completed and the report says nowhere which output or error is wrong. */
  noClaim?: boolean;
  /**
   * A run stopped at the sandbox's time limit (after its repeat alone with twice the time) where the report
   * describes no hang: the host's load or the limit, never a verdict (`timeoutError` in attempt.ts).
   */
  timedOut?: boolean;
  questions: string[];
}

/** REPRODUCED only when every run matched; a mix is PARTIAL with the rate. */
export function foldRuns(matches: RunMatch[]): RunsVerdict {
  const n = matches.length;
  const ok = matches.filter((m) => m.kind === "match").length;
  const first = (k: RunMatchKind) => matches.find((m) => m.kind === k);
  if (n > 0 && ok === n)
    return { verdict: "REPRODUCED", reproducedRuns: ok, detail: matches[0]!.detail, questions: [] };
  // A run the time limit stopped where no hang is reported leaves the verdict undecided, whatever the others did
  // (even runs that matched: calling the bug intermittent would be the host's load speaking).
  const stopped = matches.find((m) => m.kind === "needs" && m.timedOut);
  if (stopped)
    return {
      verdict: "NEEDS_INFO",
      reproducedRuns: 0,
      detail: stopped.detail,
      timedOut: true,
      questions: stopped.question ? [stopped.question] : [],
    };
  if (ok > 0) {
    const other = matches.find((m) => m.kind !== "match")!;
    return {
      verdict: "PARTIAL",
      reproducedRuns: ok,
      detail: `reproduced in ${ok} of ${n} runs (intermittent); other runs: ${other.detail}`,
      questions: [
        "Does it happen every time for you, or only sometimes? Anything that makes it more likely?",
      ],
    };
  }
  const needs = first("needs");
  if (needs)
    return {
      verdict: "NEEDS_INFO",
      reproducedRuns: 0,
      detail: needs.detail,
      ...(needs.incompleteCode ? { incompleteCode: true } : {}),
      ...(needs.missingName ? { missingName: needs.missingName } : {}),
      ...(needs.badLine !== undefined ? { badLine: needs.badLine } : {}),
      questions: needs.question ? [needs.question] : [],
    };
  const diff = first("different-failure") ?? first("unconfirmed-failure");
  if (diff) {
    return {
      verdict: "PARTIAL",
      reproducedRuns: 0,
      detail: diff.detail,
      questions:
        diff.kind === "unconfirmed-failure"
          ? [
              "Could you paste the full error message and traceback you see, so we can confirm it is the same failure?",
            ]
          : [
              "Is the failure above the one you see? If not, could you paste your full traceback and the exact versions you use?",
            ],
    };
  }
  const part = first("partial-output");
  if (part)
    return {
      verdict: "PARTIAL",
      reproducedRuns: 0,
      detail: part.detail,
      questions: [
        "Part of what you report shows here and part does not: do the lines that differ still differ for you on the latest release?",
      ],
    };
  const clean = first("clean");
  if (clean) return { verdict: "NOT_REPRODUCED", reproducedRuns: 0, detail: clean.detail, questions: [] };
  const noExp = first("no-expectation");
  return {
    verdict: "NEEDS_INFO",
    reproducedRuns: 0,
    detail: noExp?.detail ?? "nothing ran",
    ...(noExp ? { noClaim: true } : {}),
    questions: [
      "What output or error do you see, and what did you expect instead? Please paste it verbatim.",
    ],
  };
}
