/**
 * The host's own maxima: how much untrusted input the host reads, matches, parses and brings back before it
 * refuses (a report's length and parse time, a repository's workspace globs and directories, a config file, a
 * run's collected files, packages per report, concurrent registry look-ups, …). They are the operator's, set
 * the way the sandbox maxima are: `RETRACE_HOST_LIMITS` holds `name=value` pairs (`workspaceGlobs=500,
 * collectMb=256`), read from Retrace's own environment — never from a repository's configuration, which can at
 * most ask for less (`install.maxPackages` is lowered to `maxPackages`). Unset names keep the defaults below; a
 * malformed pair, an unknown name or a value out of range is a configuration error naming the variable.
 *
 * Pure: the environment is a parameter (`process.env` when a deep caller has none to pass).
 */
import { ConfigError } from "./errors.ts";

export const HOST_LIMITS_ENV = "RETRACE_HOST_LIMITS";

export interface HostLimits {
  /** Most `workspaces` globs of a package.json matched (more: the install is refused). */
  workspaceGlobs: number;
  /** Most repository directories (workspace packages) a lockfile may list (more: refused before any is read). */
  workspaceDirs: number;
  /** Most bytes, in MiB, read back from one run (the test report a test command writes). */
  collectMb: number;
  /** The most packages one report may have installed; a repository's `install.maxPackages` is lowered to it. */
  maxPackages: number;
  /** Registry look-ups (latest versions) in flight at once. */
  lookupConcurrency: number;
  /** Largest `.github/retrace.yml`, in KiB. */
  configKb: number;
  /** Longest report read, in characters. */
  reportChars: number;
  /** Host CPU time reading one report may take, in ms: its parse, its expectations and its completion together. */
  parseTimeMs: number;
  /** Host CPU time the parse of one CI log or run output may take, in ms, besides `logMsPerMb`. */
  logTimeMs: number;
  /** Host CPU time the parse of one CI log or run output may take per MiB of it, in ms. */
  logMsPerMb: number;
  /** Largest repository file read through the workspace port, in MiB. */
  readMb: number;
  /** Largest package.json or lockfile read for an install, in MiB. */
  manifestMb: number;
  /** Most output of one host-side git command, in MiB. */
  gitOutputMb: number;
  /** Most heap memory of one host-side git command (`ulimit -d`), in MiB. */
  gitMemoryMb: number;
  /**
   * Most pattern-by-path comparisons, in millions, a checkout of a commit may cost git in attribute matching (its
   * `.gitattributes` patterns × the files below them, counted before git runs: src/git/pattern-budget.ts).
   */
  gitPatternChecks: number;
  /** Largest file or stdin the CLI reads (a report, a log, a patch), in MiB. */
  inputMb: number;
  /** Most entries of a repository archive the App unpacks. */
  tarballEntries: number;
  /** Most bytes of files of a repository archive the App unpacks, in MiB. */
  tarballMb: number;
  /** Most model dollars one job may spend; a repository's `repro.maxUsd` / `fix.maxUsd` is lowered to it. */
  jobUsd: number;
  /** Most wall-clock minutes of one job; a repository's `repro.maxWallMs` / `fix.maxWallMs` is lowered to it. */
  jobMinutes: number;
  /** Most model tokens of one job; a repository's `repro.maxTokens` / `fix.maxTokens` is lowered to it. */
  jobTokens: number;
  /** Most model dollars one repository may spend per UTC day; its `limits.usdPerDay` is lowered to it. */
  usdPerDay: number;
  /** Most jobs one repository may start per UTC day; its `limits.jobsPerDay` is lowered to it. */
  jobsPerDay: number;
}

/** The defaults: the values these maxima had as constants. */
export const DEFAULT_HOST_LIMITS: Readonly<HostLimits> = Object.freeze({
  workspaceGlobs: 100,
  workspaceDirs: 1_000,
  collectMb: 64,
  maxPackages: 100,
  lookupConcurrency: 4,
  configKb: 64,
  reportChars: 65_536,
  parseTimeMs: 1_800,
  logTimeMs: 4_000,
  logMsPerMb: 1_500,
  readMb: 8,
  manifestMb: 64,
  gitOutputMb: 64,
  gitMemoryMb: 1_024,
  gitPatternChecks: 60,
  inputMb: 256,
  tarballEntries: 20_000,
  tarballMb: 200,
  jobUsd: 20,
  jobMinutes: 120,
  jobTokens: 5_000_000,
  usdPerDay: 100,
  jobsPerDay: 500,
});

/** What an operator may set each to (integers): past these a value is a typo, or unbounded host work. */
export const HOST_LIMIT_RANGES: Readonly<Record<keyof HostLimits, readonly [number, number]>> = Object.freeze(
  {
    workspaceGlobs: [1, 100_000],
    workspaceDirs: [1, 1_000_000],
    collectMb: [1, 4_096],
    maxPackages: [1, 10_000],
    lookupConcurrency: [1, 64],
    configKb: [1, 16_384],
    reportChars: [1_024, 10_000_000],
    parseTimeMs: [100, 600_000],
    logTimeMs: [100, 3_600_000],
    logMsPerMb: [10, 600_000],
    readMb: [1, 1_024],
    manifestMb: [1, 1_024],
    gitOutputMb: [1, 4_096],
    gitMemoryMb: [64, 65_536],
    gitPatternChecks: [1, 1_000_000],
    inputMb: [1, 16_384],
    tarballEntries: [100, 10_000_000],
    tarballMb: [1, 65_536],
    jobUsd: [1, 100_000],
    jobMinutes: [1, 10_080],
    jobTokens: [1_000, 1_000_000_000],
    usdPerDay: [1, 1_000_000],
    jobsPerDay: [1, 1_000_000],
  },
);

let memo: { text: string | undefined; limits: HostLimits } | null = null;

/**
 * The host's maxima: the defaults with `RETRACE_HOST_LIMITS` over them. Throws a ConfigError naming the
 * variable and the item for a malformed value; the entries call it once at start so a typo stops Retrace
 * before any job, never halfway through one.
 */
export function hostLimits(env: Readonly<Record<string, string | undefined>> = process.env): HostLimits {
  const text = env[HOST_LIMITS_ENV];
  if (memo !== null && memo.text === text) return memo.limits;
  const limits = parseHostLimits(text);
  memo = { text, limits };
  return limits;
}

export function parseHostLimits(text: string | undefined): HostLimits {
  const out: HostLimits = { ...DEFAULT_HOST_LIMITS };
  const trimmed = text?.trim();
  if (!trimmed) return out;
  const names = Object.keys(DEFAULT_HOST_LIMITS) as (keyof HostLimits)[];
  const hint = `write comma-separated name=value pairs of ${names.join(", ")} (e.g. workspaceGlobs=500,collectMb=256); docs/security.md lists each with its range`;
  const seen = new Set<string>();
  for (const item of trimmed.split(",")) {
    const m = /^\s*([A-Za-z]+)\s*=\s*([0-9_]+)\s*$/.exec(item);
    const name = m?.[1] as keyof HostLimits | undefined;
    if (!m || name === undefined || !Object.hasOwn(DEFAULT_HOST_LIMITS, name)) {
      throw new ConfigError(`${HOST_LIMITS_ENV} has an invalid item ${shown(item.trim())}`, hint);
    }
    if (seen.has(name)) throw new ConfigError(`${HOST_LIMITS_ENV} sets ${name} twice`, hint);
    seen.add(name);
    const value = Number(m[2]!.replace(/_/g, ""));
    const [min, max] = HOST_LIMIT_RANGES[name];
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new ConfigError(
        `${HOST_LIMITS_ENV}: ${name}=${m[2]!.length <= 80 ? m[2] : shown(m[2]!)} is out of range (an integer from ${min} to ${max})`,
        hint,
      );
    }
    out[name] = value;
  }
  return out;
}

/** An item as the error quotes it: whole when short, else its start and its length (never 100 KiB of it). */
function shown(text: string): string {
  return text.length <= 80
    ? JSON.stringify(text)
    : `${JSON.stringify(text.slice(0, 60))}… (${text.length} characters)`;
}
