/**
 * The reproduction result: what `retrace repro --json` prints and what the report is rendered from.
 */
import { z } from "zod";

export const Verdict = z.enum(["REPRODUCED", "PARTIAL", "NOT_REPRODUCED", "NEEDS_INFO"]);
export type Verdict = z.infer<typeof Verdict>;

export const ReproLanguage = z.enum(["python", "javascript", "typescript", "unknown"]);
export type ReproLanguage = z.infer<typeof ReproLanguage>;

export const Evidence = z.object({
  /** Exit code of the (first) run of the reported configuration; null when the sandbox stopped it or nothing ran. */
  exitCode: z.number().int().nullable(),
  /** Exception type raised by the run (e.g. "KeyError", "TypeError"), when one was raised. */
  exceptionType: z.string().nullable(),
  /** Exception message of the run, when one was raised. */
  exceptionMessage: z.string().nullable(),
  /** The tail of the run's output (stdout then stderr), secrets redacted. */
  outputExcerpt: z.string(),
  /** Median duration of the runs, in milliseconds. */
  durationMs: z.number().nonnegative(),
  /** How many runs were made of the reported configuration. */
  runs: z.number().int().nonnegative(),
  /** How many of them reproduced the reported behaviour. */
  reproducedRuns: z.number().int().nonnegative(),
  /** Why the sandbox stopped a run ("timeout", ...), when it did. */
  stoppedBy: z.string().nullable(),
});
export type Evidence = z.infer<typeof Evidence>;

export const PackageVersion = z.object({
  /** Package name as its registry spells it. */
  name: z.string(),
  /** The version installed, or the version asked for when it could not be installed. */
  version: z.string(),
  /** Registry the package comes from. */
  ecosystem: z.enum(["npm", "pypi"]),
  /** Where the version came from: the report named it, or none was named and the latest was used. */
  source: z.enum(["reported", "latest", "unpinned"]),
});
export type PackageVersion = z.infer<typeof PackageVersion>;

export const MatrixEntry = z.object({
  /** "reported" (the versions named in the report) or "latest" (the newest release of each package). */
  label: z.enum(["reported", "latest"]),
  /** The package versions of this configuration. */
  packages: z.array(PackageVersion),
  /** Outcome on this configuration; null when it could not be run (install failed, latest unknown). */
  reproduced: z.enum(["yes", "no", "partial"]).nullable(),
  /** Runs made and how many reproduced. */
  runs: z.number().int().nonnegative(),
  reproducedRuns: z.number().int().nonnegative(),
  /** One line: what happened on this configuration. */
  note: z.string(),
});
export type MatrixEntry = z.infer<typeof MatrixEntry>;

export const ReportedBehaviour = z.object({
  /** What the comparison looked for: an exception, printed output, a hang, how the process exits, or nothing specific. */
  kind: z.enum(["exception", "output", "hang", "exit", "error-unspecified", "unknown"]),
  /** Reported exception type, for kind "exception". */
  exceptionType: z.string().nullable(),
  /** Reported exception message, when quoted. */
  exceptionMessage: z.string().nullable(),
  /** Reported output lines, for kind "output". */
  output: z.array(z.string()),
  /** Where in the report this came from ("traceback block", "REPL transcript", "Actual section"). */
  source: z.string(),
  /** For kind "exit": the exit status the report states ("exits with status 0"), when it states one. */
  exitCode: z.number().int().nullable().optional(),
  /** For kind "exit": the report says the process prints nothing ("exits silently"). */
  silent: z.boolean().optional(),
  /**
   * For kind "exit": the claim rests on a print running (`print(x)  # empty`): a print writes its line even when
   * empty, so a run with no line on stdout never reached it and shows nothing of the claim.
   */
  printsLine: z.boolean().optional(),
  /** For kind "exception": where the reported Python traceback says it was raised (its last frame and source line). */
  raisedAt: z
    .object({ file: z.string(), path: z.string(), function: z.string(), line: z.string() })
    .optional(),
  /**
   * For kind "exception": frames the reported (bad) traceback shows and the good transcript's, with the same error,
   * does not (two versions side by side); a run whose traceback lacks one shows the good side. `own`: a frame in
   * the report's own script, whose file the run names otherwise, compared by its function only.
   */
  frames: z.array(z.object({ file: z.string(), function: z.string(), own: z.boolean() })).optional(),
  /**
   * For kind "error-unspecified": the report says the process itself dies with no error of the language (a
   * segfault, "takes down the interpreter", "no error message at all"); an ordinary exception is not that.
   */
  processCrash: z.boolean().optional(),
  /**
   * For kind "unknown": the report shows the expected output as a block and says what the code prints is not it
   * ("lists are not formatted as expected"), quoting no wrong output: a completed run printing something other
   * than the expected output shows the claim.
   */
  notExpected: z.boolean().optional(),
  /**
   * For kind "unknown": the code prints the package's call and a built-in reference call on the same arguments, and
   * the prose says the output is not as expected (`reference-print.ts`): the claim is that the two differ.
   */
  referencePrint: z.object({ subject: z.string(), reference: z.string() }).optional(),
  /**
   * For kind "unknown": the report says the call is slow ("takes forever", "extremely slow", "catastrophic
   * backtracking") and claims nothing else: a run the time limit stopped while busy on the CPU shows it.
   */
  slow: z.boolean().optional(),
  /**
   * For kind "exception": the report's error is Node failing to load a file of the package (`load-error.ts`); its
   * code, package and file decide the match, whatever the runtime's wording.
   */
  loadError: z
    .object({ code: z.enum(["ERR_REQUIRE_ESM", "MODULE_NOT_FOUND"]), pkg: z.string(), file: z.string() })
    .optional(),
  /**
   * For kind "error-unspecified": the snippet's own comments mark one part as working (`# Succeeds`) and a later
   * one as failing (`# Fails`) (`segment-marks.ts`): the run must raise at a line of the failing part.
   */
  segments: z
    .object({
      passing: z.array(z.string()),
      failing: z.array(z.string()),
      passMark: z.string(),
      failMark: z.string(),
    })
    .optional(),
});
export type ReportedBehaviour = z.infer<typeof ReportedBehaviour>;

/** "exits with status 0, printing nothing": a reported exit, as words. */
export function exitText(r: ReportedBehaviour): string {
  const code = r.exitCode !== null && r.exitCode !== undefined ? ` with status ${r.exitCode}` : "";
  return `the program exits${code}${r.silent ? ", printing nothing" : ""}`;
}

export const ReproScript = z.object({
  /** File name of the reproduction (reproduction.py / reproduction.mjs / reproduction.ts / .cjs). */
  filename: z.string(),
  /** The completed script, without the header. */
  code: z.string(),
  /** Who wrote it: extracted from the report (deterministic) or written by the model. */
  author: z.enum(["report", "model"]),
  /** Deterministic completions applied, each a short sentence ("added `import json`"). */
  completions: z.array(z.string()),
});
export type ReproScript = z.infer<typeof ReproScript>;

export const ReproResult = z.object({
  /** The verdict: REPRODUCED only when every run showed the reported behaviour. */
  verdict: Verdict,
  /** The issue title. */
  title: z.string(),
  /** One or two sentences a maintainer reads first. */
  summary: z.string(),
  language: ReproLanguage,
  /** What the report said happens. */
  reported: ReportedBehaviour,
  evidence: Evidence,
  /** Differences between the reported and the observed behaviour (PARTIAL / NOT_REPRODUCED). */
  differences: z.array(z.string()),
  /** Package versions used for the reported configuration. */
  versions: z.array(PackageVersion),
  /** Runtime used in the sandbox and the one the report names. */
  runtime: z.object({
    /** "python" or "node". */
    name: z.string(),
    /** Version found in the sandbox, when known. */
    version: z.string().nullable(),
    /** Version the report names, when it names one. */
    reported: z.string().nullable(),
  }),
  /** The reported configuration and, when the report pins an older version, the latest release. */
  matrix: z.array(MatrixEntry),
  /** One line over the matrix: "reproduces on 1.2.3; does not on 2.0.1 (latest)". */
  matrixSummary: z.string().nullable(),
  /** Specific questions for the reporter. */
  questions: z.array(z.string()),
  /** Why the pipeline could not do more ("could not install numpy==1.2.0"). */
  reasons: z.array(z.string()),
  /** Risky calls found in a model-written script before it ran. */
  risks: z.array(z.string()),
  /** The reproduction script, when one was run. */
  script: ReproScript.nullable(),
  /** Attempts made (1 on the deterministic path). */
  attempts: z.number().int().nonnegative(),
  /** Model tokens spent (input + output). */
  tokens: z.number().int().nonnegative(),
  /** Model cost in US dollars. */
  costUsd: z.number().nonnegative(),
  /** Model used, or null on the deterministic path. */
  model: z.string().nullable(),
  /** Wall time of the whole job, in milliseconds. */
  durationMs: z.number().nonnegative(),
});
export type ReproResult = z.infer<typeof ReproResult>;
