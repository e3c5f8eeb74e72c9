/**
 * Real-repository benchmark (issue 15): runs the real CLI, `retrace verify`, on every prepared case of
 * bench/real-repos/cases.json, once with the upstream patch (expected VERIFIED) and once with the no-op patch
 * (expected REJECTED), each on a fresh copy of the prepared repository. Prints one JSON line per case (verdict
 * or infrastructure error per patch, and verify's wall time as a multiple of one full-suite run), then one line
 * per split and the headline.
 *
 * The full-suite run is `retrace test` on the base (the run verify makes first: same runtime, dependencies and
 * command, through the CLI from start to exit), made alone between the two verifies, once the dependencies are
 * in the cache as they are for the second verify: `suiteMultiple` = verify's wall / its wall. The older figures
 * stay beside it: `multiple` (over the median of verify's own complete base runs) and `multipleOfFirstFull`
 * (over verify's first base run, which runs while later containers are prepared, so it is slower than alone).
 *
 * Then `retrace fix` on another fresh copy, from the case's CI log (when prepared), through the real Anthropic
 * SDK talking HTTP to a local Messages API server whose scripted answer makes the upstream edits (one
 * `propose_edits` edit per hunk of upstream.diff): right when it ends FIXED with a branch that holds the
 * upstream change (upstream.diff applies in reverse to the branch's tree). `--no-fix` skips it.
 *
 *   npm run bench -- real-repos <dir of prepared cases> [--split dev|test|all] [--prefix hold-] [--only id] [--timeout SECONDS] [--no-fix]
 *
 * Cases are prepared by hand outside this repository (bench/real-repos/README.md); a case listed but not
 * prepared in <dir> is reported as "not prepared". Work on --split dev (the default); score test once, at the end.
 * A case with a `set` (a held-out set, e.g. "hold1", ids "hold-...") is never in a --split run: only `--prefix hold-`
 * selects it (every split of it unless --split is given), and it is scored once, at the end.
 */
import { execFile, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parsePatch } from "diff";
import { z } from "zod";
import { message, startFakeAnthropic } from "../test/support/fake-anthropic.ts";
import { splitOf } from "./lib/split.ts";

const Case = z.object({
  id: z.string(),
  repo: z.string(),
  testCommand: z.string(),
  set: z.string().optional(),
  expected: z.object({ verifyUpstream: z.string(), verifyNoop: z.string(), fix: z.string() }),
});
const Corpus = z.object({ cases: z.array(Case) });

const usage =
  "usage: npm run bench -- real-repos <dir of prepared cases> [--split dev|test|all] [--prefix hold-] [--only id] [--timeout SECONDS] [--no-fix]";
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter(
  (a, i) => !a.startsWith("--") && !(args[i - 1]?.startsWith("--") && args[i - 1] !== "--no-fix"),
);
const dir = positional[0];
// `--prefix hold-`: only the held-out cases whose id starts with it (all their splits unless --split is given).
const prefix = flag("--prefix");
const split = flag("--split") ?? (prefix ? "all" : "dev");
const only = flag("--only");
// One verify may take several 10-minute runs (TEST_RUN_LIMITS) on a loaded machine.
const timeoutS = Number(flag("--timeout") ?? 3600);
const withFix = !args.includes("--no-fix");
if (!dir || !existsSync(dir) || !["dev", "test", "all"].includes(split) || !(timeoutS > 0)) {
  process.stderr.write(`${usage}\n${dir && !existsSync(dir) ? `no such directory: ${dir}\n` : ""}`);
  process.exit(2);
}

const root = path.join(import.meta.dirname, "..");
const corpus = Corpus.parse(
  JSON.parse(readFileSync(path.join(import.meta.dirname, "real-repos", "cases.json"), "utf8")),
);
const cases = corpus.cases.filter(
  (c) =>
    (prefix === undefined ? c.set === undefined : c.set !== undefined && c.id.startsWith(prefix)) &&
    (split === "all" || splitOf(c.id) === split) &&
    (only === undefined || c.id === only),
);

interface Outcome {
  /** The verdict, or null when verify stopped without one. */
  verdict: string | null;
  exitCode: number | null;
  /** Why there is no verdict: usage (exit 2) or infrastructure (exit 3) error, crash, timeout. */
  error: string | null;
  wallMs: number;
  /** Median duration of the complete base runs verify made (one full-suite run in the sandbox), when there are any. */
  fullRunMs: number | null;
  /** wallMs / fullRunMs. */
  multiple: number | null;
  /** The base's first run (the whole suite; its repeats are narrowed), and wallMs as a multiple of it. */
  firstFullRunMs?: number | null;
  multipleOfFirstFull?: number | null;
  /** The sum of every sandbox run's duration verify reports. */
  runsMs?: number;
  /** Wall time before the first sandbox run started (CLI start, runtime, installs), from the CLI's stamps. */
  beforeFirstRunMs?: number | null;
  /** Where the wall time went, from `verify --timings` (see `breakdown`). */
  breakdown?: Breakdown;
}

/**
 * verify's wall time in spans (ms), from the stamps of `verify --timings`: `outside` (what the CLI's clock does
 * not see: Node's start and module loading before it, the output and exit after its last line), `setup` (from the
 * CLI's start to the first container being made: runtime, dependency look-up),
 * `firstContainer` (the first run's wait for its container: create, start, checkout and dependencies copied in),
 * `base1` (the first base run's command), `phase2` (from the first base run's end to the last sandbox command's
 * end: the runs after it side by side, the anti-gaming run's included), `end` (to the verdict line: removals,
 * release). `steps` sums each
 * driver step over every run and ready container (they overlap: work, not wall time).
 */
interface Breakdown {
  outside: number;
  setup: number;
  firstContainer: number;
  base1: number;
  phase2: number;
  end: number;
  steps: Record<string, number>;
}

/** The breakdown of one verify from its stderr (`retrace: [+12.3s] …` lines) and its wall time; null without stamps. */
function breakdownOf(stderr: string, wallMs: number): Breakdown | null {
  const lines = [...stderr.matchAll(/^retrace: \[\+([\d.]+)s\] (.*)$/gm)].map((m) => ({
    at: Math.round(Number(m[1]) * 1000),
    text: m[2] as string,
  }));
  const steps: Record<string, number> = {};
  let firstMade: number | null = null;
  let firstReady: number | null = null;
  let base1End: number | null = null;
  let base1Ms: number | null = null;
  let lastRunEnd: number | null = null;
  let last = 0;
  for (const { at, text } of lines) {
    last = at;
    const step = /^sandbox (run|prepare) ([\w-]+) ([\d.]+) s \(from \+([\d.]+)s\)/.exec(text);
    if (step) {
      const key = `${step[1]} ${step[2]}`;
      steps[key] = (steps[key] ?? 0) + Math.round(Number(step[3]) * 1000);
      if (step[1] === "run" && (step[2] === "exec" || step[2] === "collect")) lastRunEnd = at;
      const from = Math.round(Number(step[4]) * 1000);
      if (firstMade === null && (step[2] === "create" || step[2] === "wait-ready")) firstMade = from;
      if (firstReady === null && step[1] === "run" && step[2] === "exec") firstReady = from;
      continue;
    }
    const run = /^(base|patched) run (\d+)\/\d+: .*\(([\d.]+) s\)/.exec(text);
    if (run) {
      lastRunEnd = Math.max(lastRunEnd ?? 0, at);
      if (run[1] === "base" && run[2] === "1") {
        base1End = at;
        base1Ms = Math.round(Number(run[3]) * 1000);
      }
    }
  }
  if (firstMade === null || firstReady === null || base1End === null || base1Ms === null) return null;
  return {
    outside: Math.max(0, wallMs - last),
    setup: firstMade,
    firstContainer: Math.max(0, firstReady - firstMade),
    base1: Math.max(0, base1End - firstReady),
    phase2: Math.max(0, (lastRunEnd ?? base1End) - base1End),
    end: Math.max(0, last - (lastRunEnd ?? last)),
    steps,
  };
}

const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const tail = (text: string, lines = 6) => text.trim().split("\n").slice(-lines).join("\n");

const VerifyJson = z.object({
  verdict: z.string(),
  runs: z
    .array(z.object({ phase: z.string(), index: z.number(), durationMs: z.number(), complete: z.boolean() }))
    .default([]),
});

/**
 * Runs the real CLI on a fresh copy of the case's prepared repository (`args(copy)` gives its arguments), timed
 * from start to exit; the copy is removed after.
 */
function onFreshCopy(caseDir: string, args: (copy: string) => string[]) {
  const scratch = mkdtempSync(path.join(tmpdir(), "retrace-real-repos-"));
  const copy = path.join(scratch, "repo");
  try {
    cpSync(path.join(caseDir, "repo"), copy, { recursive: true, verbatimSymlinks: true });
    const started = Date.now();
    const r = spawnSync(process.execPath, [path.join(root, "bin", "retrace.mjs"), ...args(copy)], {
      cwd: scratch,
      encoding: "utf8",
      timeout: timeoutS * 1000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { r, wallMs: Date.now() - started };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function verify(caseDir: string, testCommand: string, patch: "upstream.diff" | "noop.diff"): Outcome {
  const { r, wallMs } = onFreshCopy(caseDir, (copy) => [
    "verify",
    "--repo",
    copy,
    "--patch",
    path.join(caseDir, patch),
    "--test",
    testCommand,
    "--json",
    "--timings",
  ]);
  // Where the time went: the CLI stamps each progress line with seconds since it started; the first run's line
  // minus that run's own duration is the time before the first sandbox run (start, detection, installs).
  const firstRunAt = /retrace: \[\+([\d.]+)s\] base run 1\//.exec(r.stderr ?? "")?.[1];
  const none = { verdict: null, exitCode: r.status, wallMs, fullRunMs: null, multiple: null };
  if (r.error) return { ...none, error: `verify did not finish: ${r.error.message}` };
  if (r.status !== 0 && r.status !== 1) {
    const kind =
      r.status === 3 ? "infrastructure" : r.status === 2 ? "usage" : `exit ${r.status ?? r.signal}`;
    return { ...none, error: `${kind}: ${tail(r.stderr || r.stdout)}` };
  }
  let parsed: z.infer<typeof VerifyJson>;
  try {
    parsed = VerifyJson.parse(JSON.parse(r.stdout));
  } catch {
    return { ...none, error: `exit ${r.status} without a JSON result: ${tail(r.stderr || r.stdout)}` };
  }
  // Only complete base runs measure a full-suite run; a run that died at start (exit 127) measures nothing.
  const fullRunMs = median(
    parsed.runs.filter((x) => x.phase === "base" && x.complete).map((x) => x.durationMs),
  );
  // The base's first run is the whole suite (its repeats are narrowed to the failing tests).
  const base1 = parsed.runs.find((x) => x.phase === "base" && x.index === 1 && x.complete);
  const runsMs = parsed.runs.reduce((sum, x) => sum + x.durationMs, 0);
  const breakdown = breakdownOf(r.stderr ?? "", wallMs);
  return {
    verdict: parsed.verdict,
    exitCode: r.status,
    error: null,
    wallMs,
    fullRunMs,
    multiple: fullRunMs ? Math.round((wallMs / fullRunMs) * 100) / 100 : null,
    firstFullRunMs: base1?.durationMs ?? null,
    multipleOfFirstFull: base1 ? Math.round((wallMs / base1.durationMs) * 100) / 100 : null,
    runsMs,
    beforeFirstRunMs:
      firstRunAt !== undefined && base1 ? Math.round(Number(firstRunAt) * 1000 - base1.durationMs) : null,
    ...(breakdown ? { breakdown } : {}),
  };
}

interface SuiteOutcome {
  /** `retrace test`'s wall time from start to exit (ms), or null when it ended with an error. */
  wallMs: number | null;
  /** The run's own duration in the sandbox (the command only). */
  runMs: number | null;
  exitCode: number | null;
  failing: number | null;
  error: string | null;
}

/** One full-suite run of the base, alone: `retrace test` on a fresh copy, timed from start to exit. */
function suiteRun(caseDir: string, testCommand: string): SuiteOutcome {
  const { r, wallMs } = onFreshCopy(caseDir, (copy) => [
    "test",
    "--repo",
    copy,
    "--test",
    testCommand,
    "--json",
  ]);
  const none = { wallMs: null, runMs: null, failing: null, exitCode: r.status };
  if (r.error) return { ...none, error: `test did not finish: ${r.error.message}` };
  if (r.status !== 0 && r.status !== 1)
    return { ...none, error: `exit ${r.status ?? r.signal}: ${tail(r.stderr || r.stdout)}` };
  try {
    const out = z
      .object({ durationMs: z.number(), failing: z.array(z.string()) })
      .parse(JSON.parse(r.stdout));
    return { wallMs, runMs: out.durationMs, exitCode: r.status, failing: out.failing.length, error: null };
  } catch (error) {
    return { ...none, error: `exit ${r.status} without a JSON result: ${String(error).slice(0, 200)}` };
  }
}

const ratio = (a: number | null | undefined, b: number | null | undefined) =>
  a != null && b ? Math.round((a / b) * 100) / 100 : null;

/** upstream.diff as the scripted model's `propose_edits` input: one edit per hunk, its old and new lines. */
function editsOfDiff(diffText: string): { path: string; old_string: string; new_string: string }[] {
  const edits: { path: string; old_string: string; new_string: string }[] = [];
  for (const file of parsePatch(diffText)) {
    const target = (file.newFileName ?? file.oldFileName ?? "").replace(/^b\//, "");
    for (const hunk of file.hunks) {
      const old: string[] = [];
      const now: string[] = [];
      for (const line of hunk.lines) {
        if (line.startsWith("\\")) continue;
        const text = line.slice(1);
        if (line[0] !== "+") old.push(text);
        if (line[0] !== "-") now.push(text);
      }
      edits.push({ path: target, old_string: old.join("\n"), new_string: now.join("\n") });
    }
  }
  return edits;
}

interface FixOutcome {
  outcome: string | null;
  error: string | null;
  wallMs: number;
  /** Whether the branch fix created holds the upstream change; null without a branch. */
  branchHasUpstream: boolean | null;
  /** fix's own one-sentence reason and its attempts' verdicts, to read a wrong outcome. */
  reason?: string;
  attempts?: unknown[];
}

async function fix(caseDir: string, testCommand: string): Promise<FixOutcome> {
  const scratch = mkdtempSync(path.join(tmpdir(), "retrace-real-repos-fix-"));
  const copy = path.join(scratch, "repo");
  const fake = await startFakeAnthropic();
  const upstream = readFileSync(path.join(caseDir, "upstream.diff"), "utf8");
  const edits = editsOfDiff(upstream);
  fake.reply(
    message({
      toolUses: [
        {
          name: "report_root_cause",
          input: {
            hypothesis: "the upstream fix's root cause",
            evidence: "the failing tests of the CI log",
            files: [...new Set(edits.map((e) => e.path))],
          },
        },
      ],
    }),
    message({ toolUses: [{ name: "propose_edits", input: { summary: "the upstream change", edits } }] }),
  );
  const started = Date.now();
  try {
    cpSync(path.join(caseDir, "repo"), copy, { recursive: true, verbatimSymlinks: true });
    const log = path.join(caseDir, "ci.log");
    const { ANTHROPIC_API_KEY: _k, ANTHROPIC_BASE_URL: _u, ...env } = process.env;
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          path.join(root, "bin", "retrace.mjs"),
          "fix",
          "--repo",
          copy,
          "--test",
          testCommand,
          ...(existsSync(log) ? ["--log", log] : []),
          "--triage-runs",
          "1",
          "--max-attempts",
          "1",
          "--out",
          path.join(scratch, "out"),
          "--json",
        ],
        {
          cwd: scratch,
          env: { ...env, ANTHROPIC_API_KEY: "sk-ant-bench-000000000000", ANTHROPIC_BASE_URL: fake.url },
          timeout: timeoutS * 1000,
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
      );
    });
    const wallMs = Date.now() - started;
    type FixDoc = { outcome?: string; branch?: string | null; reason?: string; attemptLog?: unknown[] };
    let doc: FixDoc | null;
    try {
      doc = JSON.parse(r.stdout.trim()) as FixDoc;
    } catch {
      doc = null;
    }
    if (!doc?.outcome) {
      const kind = r.code === 3 ? "infrastructure" : r.code === 2 ? "usage" : `exit ${r.code}`;
      return {
        outcome: null,
        error: `${kind}: ${tail(r.stderr || r.stdout)}`,
        wallMs,
        branchHasUpstream: null,
      };
    }
    let branchHasUpstream: boolean | null = null;
    if (doc.branch) {
      const checkout = spawnSync("git", ["-C", copy, "checkout", "-q", doc.branch], { encoding: "utf8" });
      const reverse = spawnSync(
        "git",
        ["-C", copy, "apply", "--check", "-R", path.join(caseDir, "upstream.diff")],
        {
          encoding: "utf8",
        },
      );
      branchHasUpstream = checkout.status === 0 && reverse.status === 0;
    }
    return {
      outcome: doc.outcome,
      error: null,
      wallMs,
      branchHasUpstream,
      ...(doc.reason ? { reason: doc.reason } : {}),
      ...(doc.attemptLog ? { attempts: doc.attemptLog.map((a) => JSON.stringify(a).slice(0, 600)) } : {}),
    };
  } finally {
    await fake.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

type Tally = {
  cases: number;
  right: number;
  wrong: number;
  infra: number;
  notPrepared: number;
  multiples: number[];
  /** verify's wall time over its first base run (made while later containers are prepared). */
  firstFullMultiples: number[];
  /** verify's wall time over `retrace test`'s: one full-suite run alone (issue 15's figure). */
  suiteMultiples: number[];
  fix: { right: number; wrong: number; infra: number };
};
const tallies = new Map<string, Tally>();
const tally = (s: string) => {
  let t = tallies.get(s);
  if (!t) {
    t = {
      cases: 0,
      right: 0,
      wrong: 0,
      infra: 0,
      notPrepared: 0,
      multiples: [],
      firstFullMultiples: [],
      suiteMultiples: [],
      fix: { right: 0, wrong: 0, infra: 0 },
    };
    tallies.set(s, t);
  }
  return t;
};

for (const c of cases) {
  // A held-out case is tallied under its set (e.g. "hold1"), not under a half of the split.
  const s = c.set ?? splitOf(c.id);
  const t = tally(s);
  t.cases++;
  const caseDir = path.join(dir, c.id);
  const prepared = ["repo", "upstream.diff", "noop.diff"].every((f) => existsSync(path.join(caseDir, f)));
  if (!prepared) {
    t.notPrepared++;
    console.log(
      JSON.stringify({ case: c.id, split: s, error: `not prepared in ${caseDir} (see README.md)` }),
    );
    continue;
  }
  const upstream = verify(caseDir, c.testCommand, "upstream.diff");
  // Between the two verifies: the dependencies are cached, as they are for the second one.
  const suite = suiteRun(caseDir, c.testCommand);
  const noop = verify(caseDir, c.testCommand, "noop.diff");
  const suiteMultiple = {
    upstream: ratio(upstream.wallMs, suite.wallMs),
    noop: ratio(noop.wallMs, suite.wallMs),
  };
  const infra = upstream.verdict === null || noop.verdict === null;
  const right = upstream.verdict === c.expected.verifyUpstream && noop.verdict === c.expected.verifyNoop;
  // A wrong verdict on either patch makes the case wrong, even when the other one stopped on the environment.
  const wrong =
    (upstream.verdict !== null && upstream.verdict !== c.expected.verifyUpstream) ||
    (noop.verdict !== null && noop.verdict !== c.expected.verifyNoop);
  if (wrong) t.wrong++;
  else if (infra) t.infra++;
  else if (right) t.right++;
  if (upstream.multiple !== null) t.multiples.push(upstream.multiple);
  if (upstream.multipleOfFirstFull != null) t.firstFullMultiples.push(upstream.multipleOfFirstFull);
  if (upstream.verdict !== null && suiteMultiple.upstream !== null)
    t.suiteMultiples.push(suiteMultiple.upstream);
  // fix: FIXED with the upstream change on its branch; an infrastructure stop is counted apart, never as right.
  const fixed = withFix ? await fix(caseDir, c.testCommand) : null;
  const fixResult =
    fixed === null
      ? null
      : fixed.outcome === null
        ? "infrastructure"
        : fixed.outcome === c.expected.fix && (c.expected.fix !== "FIXED" || fixed.branchHasUpstream === true)
          ? "right"
          : "wrong";
  if (fixResult === "right") t.fix.right++;
  else if (fixResult === "wrong") t.fix.wrong++;
  else if (fixResult === "infrastructure") t.fix.infra++;
  console.log(
    JSON.stringify({
      case: c.id,
      repo: c.repo,
      split: s,
      result: wrong ? "wrong" : infra ? "infrastructure" : "right",
      upstream,
      noop,
      suite,
      suiteMultiple,
      ...(fixed ? { fix: { result: fixResult, ...fixed } } : {}),
    }),
  );
}

const totals = Object.fromEntries(
  [...tallies].map(([s, t]) => [
    s,
    {
      cases: t.cases,
      right: t.right,
      wrong: t.wrong,
      infrastructure: t.infra,
      notPrepared: t.notPrepared,
      medianVerifyMultiple: median(t.multiples),
      medianMultipleOfFirstFull: median(t.firstFullMultiples),
      medianSuiteMultiple: median(t.suiteMultiples),
      ...(withFix ? { fix: t.fix } : {}),
    },
  ]),
);
for (const [s, v] of Object.entries(totals)) console.log(JSON.stringify({ split: s, ...v }));
console.log(
  JSON.stringify({ benchmark: "real-repos", split, prefix: prefix ?? null, only: only ?? null, totals }),
);
