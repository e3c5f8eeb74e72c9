/**
 * Compare one run with what the report says happens, then fold the repeats into a verdict.
 */
import { looseKey, normalizedLines } from "./normalize.ts";
import type { RaisedException } from "./outcome.ts";
import type { ReportedBehaviour, Verdict } from "./result.ts";

export interface RunObservation {
  exitCode: number | null;
  stoppedBy: string | null;
  stdout: string;
  stderr: string;
  exception: RaisedException | null;
  durationMs: number;
}

export type RunMatchKind =
  /** The reported behaviour appeared. */
  | "match"
  /** It failed, but not as reported. */
  | "different-failure"
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
}

function shortType(t: string): string {
  return t.split(".").pop() ?? t;
}

/** Reported and observed messages agree when equal after normalization, or one contains the other (reporters truncate). */
export function messagesAgree(reported: string | null, observed: string): boolean {
  if (!reported) return true;
  const a = looseKey(reported);
  const b = looseKey(observed);
  if (a === "" || a === b) return true;
  return b.includes(a) || (b.length >= 8 && a.includes(b));
}

/** Reported output lines all appear, in order, among the observed lines (normalized). */
export function outputAppears(reported: string[], observedText: string): boolean {
  const want = reported.map(looseKey).filter((l) => l !== "");
  if (want.length === 0) return false;
  const have = normalizedLines(observedText).map(looseKey);
  let i = 0;
  for (const line of have) {
    if (i < want.length && (line === want[i] || (want[i]!.length >= 6 && line.includes(want[i]!)))) i++;
  }
  return i === want.length;
}

const NEEDS_RULES: {
  test: RegExp;
  detail: (m: RegExpExecArray) => string;
  question: (m: RegExpExecArray) => string;
}[] = [
  {
    test: /(?:FileNotFoundError|ENOENT)[^\n]*?['"]([^'"\n]+)['"]/,
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
  {
    test: /(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo|Temporary failure in name resolution|Name or service not known|NewConnectionError|URLError|ConnectionRefusedError|Network is unreachable|fetch failed)/,
    detail: () =>
      "the script needs a network connection or a running service, which the sandbox does not have",
    question: () =>
      "The code talks to a network service. Can you reproduce it without the network, e.g. with the response inlined as data or a local stub?",
  },
];

export function matchRun(reported: ReportedBehaviour, run: RunObservation): RunMatch {
  const combined = `${run.stdout}\n${run.stderr}`;
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

  if (reported.kind === "exception" && reported.exceptionType) {
    if (run.exception) {
      const sameType = shortType(run.exception.type) === shortType(reported.exceptionType);
      if (sameType && messagesAgree(reported.exceptionMessage, run.exception.message)) {
        return { kind: "match", detail: `raised ${observedFailure}, as reported` };
      }
      const needs = needsFrom(combined);
      if (needs) return needs;
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
      detail: `reported \`${reported.exceptionType}\`; the run completed without an exception`,
    };
  }

  if (reported.kind === "output") {
    if (outputAppears(reported.output, combined))
      return { kind: "match", detail: "printed the reported output" };
    if (failed) {
      const needs = needsFrom(combined);
      if (needs) return needs;
      return {
        kind: "different-failure",
        detail: `the report shows output; the run failed with ${observedFailure}`,
      };
    }
    return { kind: "clean", detail: "the run completed but did not print the reported output" };
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
  return {
    kind: "no-expectation",
    detail: "the run completed; the report does not say which output or error is wrong",
  };
}

function needsFrom(text: string): RunMatch | null {
  for (const rule of NEEDS_RULES) {
    const m = rule.test.exec(text);
    if (m) return { kind: "needs", detail: rule.detail(m), question: rule.question(m) };
  }
  return null;
}

export interface RunsVerdict {
  verdict: Verdict;
  reproducedRuns: number;
  /** The most telling per-run detail (the first non-match when not all matched). */
  detail: string;
  questions: string[];
}

/** REPRODUCED only when every run matched; a mix is PARTIAL with the rate. */
export function foldRuns(matches: RunMatch[]): RunsVerdict {
  const n = matches.length;
  const ok = matches.filter((m) => m.kind === "match").length;
  const first = (k: RunMatchKind) => matches.find((m) => m.kind === k);
  if (n > 0 && ok === n)
    return { verdict: "REPRODUCED", reproducedRuns: ok, detail: matches[0]!.detail, questions: [] };
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
  const clean = first("clean");
  if (clean) return { verdict: "NOT_REPRODUCED", reproducedRuns: 0, detail: clean.detail, questions: [] };
  const noExp = first("no-expectation");
  return {
    verdict: "NEEDS_INFO",
    reproducedRuns: 0,
    detail: noExp?.detail ?? "nothing ran",
    questions: [
      "What output or error do you see, and what did you expect instead? Please paste it verbatim.",
    ],
  };
}
