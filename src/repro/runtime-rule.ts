/**
 * The runtime-mismatch rule (test/fixtures/repro-real/README.md, the s15 rule): a report whose code needs a newer
 * runtime than the sandbox's — it names CPython 3.12 / 3.13 / the main branch or Node 20+, or calls an API a later
 * release added (`toSorted`, `itertools.batched`) — and whose run stops here on what this runtime lacks (a keyword
 * argument it does not take, an attribute, name or module it does not have, syntax it does not parse) says nothing
 * about the report: an environment problem is never a verdict. The job ends with an infrastructure error (exit 3)
 * naming the runtime that ran, the one the report needs and why (the run's error quoted), and how to choose an
 * image with a newer runtime. The other direction stays a verdict: a report written on an OLDER runtime whose bug
 * was that runtime's is judged on ours (NOT_REPRODUCED when it does not show), and a report that names a newer
 * runtime but whose code runs here is judged normally, both versions said. Pure, except `shortfallError` builds
 * the error.
 */
import { InfrastructureError } from "../core/errors.ts";
import type { ParsedReport } from "./parse-report.ts";
import {
  pythonKeywordSince,
  pythonMemberSince,
  pythonModuleSince,
  pythonNameSince,
} from "./python-api-since.ts";

/** The runtime versions a report names for `runtime`: its mention, and CPython's "versions tested on" list. */
export function namedRuntimeVersions(report: ParsedReport, runtime: "python" | "node"): string[] {
  const out: string[] = [];
  if (report.runtime?.name === runtime) out.push(report.runtime.version.replace(/\.x$/, ""));
  if (runtime === "python") {
    // The CPython issue template's answer to "CPython versions tested on:", a line of its own listing them
    // ("3.10, 3.12", "CPython main branch"); the heading itself is not kept in the words.
    const item = String.raw`(?:(?:CPython\s+)?main\s+branch|3\.\d{1,2})`;
    const list = new RegExp(String.raw`^[ \t]*${item}(?:[ \t]*,[ \t]*(?:and[ \t]+)?${item})*[ \t]*$`, "gim");
    for (const line of report.proseWithCode.match(list) ?? [])
      for (const m of line.matchAll(/(3\.\d{1,2})|main/gi)) out.push(m[1] ?? "main");
  }
  return [...new Set(out)];
}

/** [major, minor] of a version (`v18.20.4` → [18, 20], `3.12` → [3, 12]); `main` is newer than any. */
function majorMinor(v: string): [number, number] | null {
  if (/^main$/i.test(v)) return [Number.POSITIVE_INFINITY, 0];
  const m = /^v?(\d+)(?:\.(\d+))?/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : null;
}

/** Whether `named` is a later release line than the sandbox's (Node by major, Python by major.minor). */
function newer(named: string, sandbox: string, runtime: "python" | "node"): boolean {
  const a = majorMinor(named);
  const b = majorMinor(sandbox);
  if (!a || !b) return false;
  if (runtime === "node") return a[0] > b[0];
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

/** Whether `named` is the sandbox's own release line. */
function same(named: string, sandbox: string, runtime: "python" | "node"): boolean {
  const a = majorMinor(named);
  const b = majorMinor(sandbox);
  if (!a || !b) return false;
  return runtime === "node" ? a[0] === b[0] : a[0] === b[0] && a[1] === b[1];
}

/**
 * APIs newer than the sandbox's runtimes, and the release that added them: a `TypeError: x.toSorted is not a
 * function` on Node 18 says the runtime is too old for the snippet, not that the bug shows differently.
 */
export const NEWER_NODE_APIS: Readonly<Record<string, string>> = {
  toSorted: "20",
  toReversed: "20",
  toSpliced: "20",
  isWellFormed: "20",
  toWellFormed: "20",
  groupBy: "21",
  withResolvers: "22",
  union: "22",
  intersection: "22",
  difference: "22",
  symmetricDifference: "22",
  isSubsetOf: "22",
  isSupersetOf: "22",
  isDisjointFrom: "22",
  fromAsync: "22",
  findLast: "18",
};
export const NEWER_PYTHON_APIS: Readonly<Record<string, string>> = {
  batched: "3.12",
  override: "3.12",
  TypeAliasType: "3.12",
  get_protocol_members: "3.13",
  is_protocol: "3.13",
  ReadOnly: "3.13",
  TypeIs: "3.13",
  deprecated: "3.13",
  copy_file_range: "3.12",
  walk: "3.12",
};
/** Standard-library modules later releases added (`ModuleNotFoundError: No module named '_pydatetime'`). */
const NEWER_PYTHON_MODULES: Readonly<Record<string, string>> = {
  _pydatetime: "3.12",
  _pylong: "3.12",
  _pyrepl: "3.13",
  _colorize: "3.13",
  annotationlib: "3.14",
  compression: "3.14",
};

/**
 * Syntax later Python releases added, by the line that holds it: a parse error on such a line is the runtime's.
 * PEP 695 type parameters and `type` aliases (3.12), PEP 750 template strings (`t'…'`, 3.14). PEP 701 f-strings
 * and `except*` stay with the report's named runtime (an f-string error is also a typo's).
 */
export const NEWER_PYTHON_SYNTAX: readonly { name: string; needs: string; pattern: RegExp }[] = [
  { name: "type parameters (PEP 695)", needs: "3.12", pattern: /^\s*(?:async\s+)?(?:def|class)\s+\w+\[/ },
  { name: "a `type` alias (PEP 695)", needs: "3.12", pattern: /^\s*type\s+\w+(?:\[[^\]]*\])?\s*=/ },
  {
    name: "a template string (PEP 750)",
    needs: "3.14",
    // `t'…'`, `tr"…"`, `RT'…'`: a string prefix holding `t`, where no name ends just before it.
    pattern: /(?<![\w'"])(?:[tT][rR]?|[rR][tT])(?:'|")/,
  },
];

/**
 * Syntax later Node.js releases added, by the line that holds it and the parse error Node 18 gives there: `using`
 * declarations (explicit resource management, Node 24), the RegExp `v` flag (Node 20), RegExp modifiers
 * `(?i:…)` (Node 23). Import attributes (`with { type: "json" }`) parse on Node 18.20 and decorators on no Node
 * release, so neither is here.
 */
export const NEWER_NODE_SYNTAX: readonly { name: string; needs: string; pattern: RegExp; message: RegExp }[] =
  [
    {
      name: "a `using` declaration (explicit resource management)",
      needs: "24",
      pattern: /(?:^|[;{}]|\bfor[ \t]*\()[ \t]*(?:await[ \t]+)?using[ \t]+[A-Za-z_$][\w$]*[ \t]*(?:=|of\b)/,
      message: /^Unexpected (?:identifier|token|reserved word)\b/,
    },
    {
      name: "the RegExp `v` flag",
      needs: "20",
      pattern:
        /(?:^|[=(,:!&|?{};[]|\breturn)[ \t]*\/(?![*/])(?:[^/\n\\[]|\\.|\[(?:[^\]\n\\]|\\.)*\])+\/[dgimsuy]*v[dgimsuy]*(?![\w$])/,
      message: /^Invalid regular expression flags$/,
    },
    {
      name: "a RegExp modifier group (`(?i:…)`)",
      needs: "23",
      pattern: /\/(?:[^/\n\\]|\\.)*\(\?[ims]*-?[ims]+:(?:[^/\n\\]|\\.)*\//,
      message: /^Invalid regular expression: .*Invalid group$/,
    },
  ];

/** What the run lacks, and the release that has it (null: the report's named runtime must say which). */
interface Lack {
  what: string;
  needs: string | null;
  /** Syntax a later release added, on the very line the parser stopped at (never the report's own claim). */
  syntax?: boolean;
}

/** The newer API a run stopped on (`toSorted`, `batched`), and the release that added it; null when none. */
export function newerApi(
  exception: { type: string; message: string },
  runtime: "python" | "node",
): { name: string; needs: string } | null {
  const { type, message } = exception;
  if (runtime === "node") {
    const js = type === "TypeError" ? /(?:^|\.)(\w+) is not a function/.exec(message) : null;
    const global =
      type === "ReferenceError" ? /^(Iterator|AsyncIterator) is not defined/.exec(message) : null;
    const name = js?.[1] ?? global?.[1];
    if (global) return { name: global[1]!, needs: "22" };
    return name && NEWER_NODE_APIS[name] ? { name, needs: NEWER_NODE_APIS[name] } : null;
  }
  if (/ModuleNotFoundError$/.test(type)) {
    const mod = /^No module named '([\w]+)/.exec(message)?.[1];
    const needs = mod ? (NEWER_PYTHON_MODULES[mod] ?? pythonModuleSince(mod)) : null;
    return mod && needs ? { name: mod, needs } : null;
  }
  // A name of a standard-library module a later release added (typeshed's stubs): `module 'math' has no attribute
  // 'sumprod'`, `cannot import name 'batched' from 'itertools' (/usr/lib/python3.11/…)`.
  const fromModule =
    (/AttributeError$/.test(type) ? /^module '([\w.]+)' has no attribute '(\w+)'/.exec(message) : null) ??
    (/ImportError$/.test(type)
      ? /^cannot import name '(\w+)' from '([\w.]+)' \(\/usr\/lib\/python3/.exec(message)
      : null);
  if (fromModule) {
    const [mod, name] = /^module/.test(message)
      ? [fromModule[1]!, fromModule[2]!]
      : [fromModule[2]!, fromModule[1]!];
    const needs = pythonNameSince(mod, name);
    if (needs) return { name: `${mod}.${name}`, needs };
  }
  // A keyword argument a later release added to a standard-library function: C functions say `'k' is an invalid
  // keyword argument for f()`, Python ones `f() got an unexpected keyword argument 'k'` (`C.f()` since 3.10).
  if (type === "TypeError") {
    const kw =
      /^'(\w+)' is an invalid keyword argument for ([\w.]+)\(\)/.exec(message) ??
      /^([\w.]+)\(\) got an unexpected keyword argument '(\w+)'/.exec(message);
    if (kw) {
      const [keyword, callable] = /^'/.test(message) ? [kw[1]!, kw[2]!] : [kw[2]!, kw[1]!];
      const needs = pythonKeywordSince(callable, keyword);
      if (needs) return { name: `${callable}(${keyword}=…)`, needs };
    }
  }
  const py =
    /AttributeError$/.test(type) || /ImportError$/.test(type)
      ? /has no attribute '(\w+)'|cannot import name '(\w+)'/.exec(message)
      : null;
  const name = py?.[1] ?? py?.[2];
  return name && NEWER_PYTHON_APIS[name] ? { name, needs: NEWER_PYTHON_APIS[name] } : null;
}

/**
 * An error that is the runtime lacking what the code uses, not anything a library did: an API a later release
 * added, a keyword argument or an attribute the standard library does not have yet, syntax the parser does not
 * take (raised by the program's own source, before anything ran). Returns how to say it, or null.
 */
function runtimeLack(
  exception: { type: string; message: string },
  stderr: string,
  runtime: "python" | "node",
  program: StdlibProgram | null,
): Lack | null {
  const api = newerApi(exception, runtime);
  if (api) {
    const name = runtime === "python" ? "Python" : "Node.js";
    return { what: `\`${api.name}\`, which ${name} ${api.needs} added`, needs: api.needs };
  }
  const { type, message } = exception;
  // A parse error of the script itself (Node prints the file's `path:line`, the source line and a caret, and a
  // stack of its own loader only) on a line holding syntax a later Node added, with the parse error Node 18 gives
  // for it there. A SyntaxError the code raises while it runs (`JSON.parse`, `new Function`, a library's) has a
  // frame of the program's, and any other parse error may be the report's own: neither is the runtime's.
  if (runtime === "node" && type === "SyntaxError") {
    const at = /^(?:file:\/\/)?\/[^\n:]*:\d+\n(.*)\n[ \t]*\^+[ \t]*$/m.exec(stderr);
    const after = at ? stderr.slice(at.index + at[0].length) : "";
    const frames = after.match(/^[ \t]+at .*$/gm) ?? [];
    const ownFrames = frames.filter((f) => !/\(?node:internal\//.test(f));
    const added = at
      ? NEWER_NODE_SYNTAX.find((s) => s.pattern.test(at[1]!) && s.message.test(message.split("\n")[0]!))
      : undefined;
    if (added && ownFrames.length === 0)
      return { what: `${added.name}, syntax Node.js ${added.needs} added`, needs: added.needs, syntax: true };
    return null;
  }
  if (runtime === "python") {
    if (type === "TypeError" && /\bgot an unexpected keyword argument\b/.test(message))
      return { what: "a keyword argument this runtime does not take", needs: null };
    if (/AttributeError$/.test(type) && /^module '[\w.]+' has no attribute\b/.test(message))
      return { what: "a name the standard library does not have on this runtime", needs: null };
    if (
      /ImportError$/.test(type) &&
      /^cannot import name '\w+' from '[\w.]+' \(\/usr\/lib\/python3/.test(message)
    )
      return { what: "a name the standard library does not have on this runtime", needs: null };
    if (/AttributeError$/.test(type) && program && stdlibAttribute(message, program)) {
      const m = /^(?:'(\w+)' object|type object '(\w+)') has no attribute '(\w+)'/.exec(message)!;
      const needs = pythonMemberSince(m[1] ?? m[2]!, m[3]!);
      return needs
        ? { what: `\`${m[1] ?? m[2]}.${m[3]}\`, which Python ${needs} added`, needs }
        : { what: "an attribute the standard library does not have on this runtime", needs: null };
    }
    // The runtime says so itself: a DeprecationWarning / FutureWarning on the run's stderr that names a later
    // release and the very exception the run stopped on ("DeprecationWarning: in 3.12 __contains__ will no longer
    // raise TypeError", then `TypeError: unsupported operand type(s) for 'in'`). The release that changes it is
    // not ours; which one the report needs is left to the report's named runtime (the caller's rule), so a report
    // naming this runtime or an older one is still judged.
    const short = type.split(".").pop()!.replace(/\W/g, "");
    for (const line of stderr.match(
      /^.*\b(?:DeprecationWarning|FutureWarning|PendingDeprecationWarning):.*$/gm,
    ) ?? [])
      if (
        /\b(?:in|since|from|as of)\s+(?:Python\s+)?3\.\d{1,2}\b/i.test(line) &&
        new RegExp(`\\b${short}\\b`).test(line)
      )
        return {
          what: "behaviour a later release changes (this runtime's own warning says so)",
          needs: null,
        };
    // A parse error of the script itself (no traceback, only `File "…", line N`) on syntax later releases added:
    // PEP 701 f-strings (3.12), type parameters and `type` aliases (3.12), `except*` (3.11). Any other parse error
    // may be a typo or a line of prose; it is not the runtime's.
    if (
      /^(?:SyntaxError|IndentationError)$/.test(type) &&
      !/^Traceback \(most recent call last\)/m.test(stderr)
    ) {
      const source = /^[ \t]*File "[^"]+", line \d+\n(.*)$/m.exec(stderr)?.[1] ?? "";
      // Syntax a release added, on the very line the parser stopped at: that release is what the code needs.
      const added = NEWER_PYTHON_SYNTAX.find((s) => s.pattern.test(source));
      if (added)
        return {
          what: `${added.name}, syntax Python ${added.needs} added`,
          needs: added.needs,
          syntax: true,
        };
      if (/^f-string\b/.test(message) || /\bexcept\s*\*/.test(source))
        return { what: "syntax this runtime does not parse", needs: null };
    }
  }
  return null;
}

/** The program that ran, for telling a standard-library object's attribute from the code's own. */
export interface StdlibProgram {
  /** The program's source (every file). */
  code: string;
  /** The packages installed for it: none means only the standard library (and the code itself) defines names. */
  packages: number;
}

/**
 * `'P' object has no attribute 'x'` / `type object 'P' has no attribute 'x'` where only the standard library can
 * hold `x`: the program installs no package, never defines `x` itself (no `def x`, `x =`, `.x =`), and `P` is no
 * class it defines without a base (`class P(HTMLParser):` inherits what the standard library gives). A typo of the
 * code's own names stays with the caller's rule (a newer runtime named, none of ours).
 */
function stdlibAttribute(message: string, program: StdlibProgram): boolean {
  const m = /^(?:'(\w+)' object|type object '(\w+)') has no attribute '(\w+)'/.exec(message);
  if (!m || program.packages > 0) return false;
  const owner = m[1] ?? m[2]!;
  const attr = m[3]!;
  const { code } = program;
  if (new RegExp(`\\bdef\\s+${attr}\\b|(?:^|[\\s.,(])${attr}\\s*(?::[^=\\n]*)?=(?!=)`, "m").test(code))
    return false;
  const own = new RegExp(`^[ \\t]*class[ \\t]+${owner}\\b[ \\t]*(\\(([^)]*)\\))?`, "m").exec(code);
  if (own && !(own[2] ?? "").trim().replace(/^object$/, "")) return false;
  return true;
}

/** The sandbox's runtime is older than the report's code needs: what ran, what is needed, and why. */
export interface RuntimeShortfall {
  runtime: "python" | "node";
  /** The sandbox's runtime as the run reported it (`3.11.2`, `18.20.4`). */
  ran: string;
  /** The release line the report needs (`3.12`, `20`, `main`). */
  needs: string;
  /** Why: the lacking API or syntax, with the run's error quoted. */
  why: string;
  /** Where `needs` comes from: the report's named runtime(s), or the API's release. */
  source: string;
  /**
   * Every run stopped parsing on syntax a later release added, on the very line it stopped at: this runtime never
   * ran the code, so no verdict — not even a matched claim of "an error" or a SyntaxError — stands on it
   * (unless the report names this runtime's line and quotes this very error).
   */
  syntax?: boolean;
}

const runtimeName = (runtime: "python" | "node") => (runtime === "python" ? "Python" : "Node.js");
const shownVersion = (v: string) => (/^main$/i.test(v) ? "the main branch" : v);

/**
 * The runtime shortfall of a run, or null when the rule does not apply (the run is then judged normally): every run
 * stopped on what this runtime lacks, the release that has it is newer than the sandbox's (the API's own release,
 * or — for a keyword argument, a stdlib name, syntax — a newer runtime the report names while naming none of the
 * sandbox's line), and the report does not claim that very error.
 */
export function runtimeShortfall(input: {
  runtime: "python" | "node";
  /** The sandbox's runtime version as the run reported it (`3.11.2`, `v18.20.4`). */
  sandbox: string | null;
  named: string[];
  runs: { exception: { type: string; message: string } | null; stderr: string }[];
  /** Whether the report states a behaviour the run's error cannot itself be (an output, a named error, an exit). */
  claims: boolean;
  /** The exception type the report claims, if any, and its message. */
  claimedType: string | null;
  claimedMessage?: string | null;
  /** The program that ran: an attribute only the standard library could hold is the runtime's lack too. */
  program?: StdlibProgram;
}): RuntimeShortfall | null {
  const { runtime, named, runs, claimedType, claimedMessage } = input;
  if (!input.sandbox || runs.length === 0) return null;
  const sandbox = input.sandbox.replace(/^v/, "");
  const lacks = runs.map((r) =>
    r.exception ? runtimeLack(r.exception, r.stderr, runtime, input.program ?? null) : null,
  );
  if (lacks.some((l) => l === null)) return null;
  const ex = runs[0]!.exception!;
  const syntax = lacks.every((l) => l!.syntax === true);
  // The report claims this very error (its type, and its message when it quotes one): that is no mismatch. A parse
  // error on syntax a later release added is never the report's error, whatever it claims: the report's own run
  // parsed that line (its SyntaxError, if it has one, is another line's or another message's), ours did not —
  // unless the report names this very runtime line and quotes this very error (`type Point = …` on 3.11 claimed to
  // give `SyntaxError: invalid syntax`): its run was then ours, and the claim is judged like any other.
  const short = (t: string) => t.split(".").pop();
  const sameLine = named.some((v) => same(v, sandbox, runtime));
  if (
    (!syntax || (sameLine && !!claimedMessage)) &&
    claimedType &&
    short(claimedType) === short(ex.type) &&
    (!claimedMessage || ex.message.includes(claimedMessage) || claimedMessage.includes(ex.message))
  )
    return null;
  const lack = lacks[0]!;
  const quoted = `${ex.type}: ${ex.message.split("\n")[0]}`;
  const later = named.filter((v) => newer(v, sandbox, runtime));
  if (lack.needs) {
    // An API a later release added: that release (or the newer one the report names) is what the code needs.
    if (!newer(lack.needs, sandbox, runtime)) return null;
    const needs = later.find((v) => !newer(lack.needs!, v, runtime)) ?? lack.needs;
    return {
      runtime,
      ran: sandbox,
      needs,
      why: `the code uses ${lack.what}; here the run stopped on ${quoted}`,
      source:
        needs === lack.needs
          ? `the ${syntax ? "syntax's" : "API's"} release`
          : `the report names ${later.map(shownVersion).join(", ")}`,
      ...(syntax ? { syntax: true } : {}),
    };
  }
  // A keyword argument, a stdlib name, syntax: only the report's named runtime says the runtime is the cause. A
  // report that claims nothing (a quoted fragment of the library's source) has no behaviour to decide on.
  if (!input.claims || named.length === 0) return null;
  if (named.some((v) => same(v, sandbox, runtime))) return null;
  if (later.length === 0) return null;
  const oldest = [...later].sort((a, b) => (newer(a, b, runtime) ? 1 : newer(b, a, runtime) ? -1 : 0))[0]!;
  return {
    runtime,
    ran: sandbox,
    needs: oldest,
    why: `the code uses ${lack.what}; here the run stopped on ${quoted}`,
    source: `the report names ${named.map(shownVersion).join(", ")}`,
  };
}

/** One line of the shortfall, for a trace or a reason. */
export function describeShortfall(s: RuntimeShortfall): string {
  const name = runtimeName(s.runtime);
  const needs = /^main$/i.test(s.needs) ? `${name} from the main branch` : `${name} ${s.needs} or later`;
  return `the report needs ${needs} (${s.source}), and the sandbox ran ${name} ${s.ran}: ${s.why}`;
}

/**
 * The infrastructure error a shortfall ends the job with: no verdict about the report can be made on this runtime.
 * The hint names what selects an image with a newer runtime, on each surface.
 */
export function shortfallError(s: RuntimeShortfall): InfrastructureError {
  const name = runtimeName(s.runtime);
  const needs = /^main$/i.test(s.needs)
    ? `${name} built from the main branch`
    : `${name} ${s.needs} or later`;
  return new InfrastructureError(
    `this sandbox cannot run the report: ${describeShortfall(s)}. That says nothing about the reported bug, so no verdict was given`,
    `run it on a sandbox image with ${needs}: the App and the Action take \`sandbox.image\` in .github/retrace.yml (an image the operator lists in RETRACE_SANDBOX_IMAGES); the CLI takes the image from RETRACE_SANDBOX_IMAGE (it has no --image flag yet: \`--image\` is the setting to add)`,
  );
}
