/**
 * The runtime-mismatch rule (test/fixtures/repro-real/README.md): a report written on a newer runtime than the
 * sandbox's (CPython 3.12 / 3.13 / the main branch, Node 20 against Node 18) whose code stops here on what this
 * runtime lacks — a keyword argument it does not take, an attribute or name it does not have, syntax it does not
 * parse — is judged on the runtime that ran it: the reported behaviour cannot show here, and that is said, with
 * both versions ("ran on Python 3.11.2; the report used 3.12"). Not a partial reproduction (the error is the
 * runtime's, not the bug's) and not a question (the report already says which runtime it used). Pure.
 */
import type { ParsedReport } from "./parse-report.ts";

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
 * An error that is the runtime lacking what the code uses, not anything a library did: a keyword argument or an
 * attribute the standard library does not have yet, syntax the parser does not take (raised by the program's own
 * source, before anything ran). Returns how to say it, or null.
 */
function runtimeLack(
  exception: { type: string; message: string },
  stderr: string,
  runtime: "python" | "node",
): string | null {
  const { type, message } = exception;
  if (runtime === "python") {
    if (type === "TypeError" && /\bgot an unexpected keyword argument\b/.test(message))
      return "a keyword argument this runtime does not take";
    if (/AttributeError$/.test(type) && /^module '[\w.]+' has no attribute\b/.test(message))
      return "a name the standard library does not have on this runtime";
    if (
      /ImportError$/.test(type) &&
      /^cannot import name '\w+' from '[\w.]+' \(\/usr\/lib\/python3/.test(message)
    )
      return "a name the standard library does not have on this runtime";
    // A parse error of the script itself (no traceback, only `File "…", line N`) on syntax later releases added:
    // PEP 701 f-strings (3.12), type parameters and `type` aliases (3.12), `except*` (3.11). Any other parse error
    // may be a typo or a line of prose; it is not the runtime's.
    if (
      /^(?:SyntaxError|IndentationError)$/.test(type) &&
      !/^Traceback \(most recent call last\)/m.test(stderr)
    ) {
      const source = /^[ \t]*File "[^"]+", line \d+\n(.*)$/m.exec(stderr)?.[1] ?? "";
      if (
        /^f-string\b/.test(message) ||
        /^\s*(?:def|class)\s+\w+\[|^\s*type\s+\w+(?:\[[^\]]*\])?\s*=|\bexcept\s*\*/.test(source)
      )
        return "syntax this runtime does not parse";
    }
    return null;
  }
  return null;
}

export interface RuntimeDecision {
  /** Replaces the run's detail in the verdict. */
  detail: string;
}

/**
 * NOT_REPRODUCED by the runtime rule, or null when it does not apply: every run stopped on what this runtime lacks,
 * the report names only other runtime versions than the sandbox's and at least one newer, and the report does not
 * claim that very error.
 */
export function runtimeDecides(input: {
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
}): RuntimeDecision | null {
  const { runtime, sandbox, named, runs, claimedType, claimedMessage } = input;
  // A report that claims nothing (a quoted fragment of the library's own source) has no behaviour to decide on.
  if (!input.claims || !sandbox || named.length === 0 || runs.length === 0) return null;
  if (named.some((v) => same(v, sandbox, runtime))) return null;
  const later = named.filter((v) => newer(v, sandbox, runtime));
  if (later.length === 0) return null;
  const lacks = runs.map((r) => (r.exception ? runtimeLack(r.exception, r.stderr, runtime) : null));
  if (lacks.some((l) => l === null)) return null;
  const ex = runs[0]!.exception!;
  // The report claims this very error (its type, and its message when it quotes one): that is no mismatch.
  const short = (t: string) => t.split(".").pop();
  if (
    claimedType &&
    short(claimedType) === short(ex.type) &&
    (!claimedMessage || ex.message.includes(claimedMessage) || claimedMessage.includes(ex.message))
  )
    return null;
  const name = runtime === "python" ? "Python" : "Node.js";
  const shown = named.map((v) => (/^main$/i.test(v) ? "the main branch" : v)).join(", ");
  return {
    detail: `ran on ${name} ${sandbox.replace(/^v/, "")}; the report used ${shown}. The run stopped on ${ex.type}: ${ex.message.split("\n")[0]} — ${lacks[0]}, newer than the sandbox's ${name} — so the reported behaviour cannot show here; the runtime decides, not the bug`,
  };
}
