/**
 * Real-repository benchmark (issue 15): runs the real CLI, `retrace verify`, on every prepared case of
 * bench/real-repos/cases.json, once with the upstream patch (expected VERIFIED) and once with the no-op patch
 * (expected REJECTED), each on a fresh copy of the prepared repository. Prints one JSON line per case (verdict
 * or infrastructure error per patch, and verify's wall time as a multiple of one full-suite run: the median
 * duration of the base runs verify itself made), then one line per split and the headline.
 *
 *   npm run bench -- real-repos <dir of prepared cases> [--split dev|test|all] [--only id] [--timeout SECONDS]
 *
 * Cases are prepared by hand outside this repository (bench/real-repos/README.md); a case listed but not
 * prepared in <dir> is reported as "not prepared". Work on --split dev (the default); score test once, at the end.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { type Split, splitOf } from "./lib/split.ts";

const Case = z.object({
  id: z.string(),
  repo: z.string(),
  testCommand: z.string(),
  expected: z.object({ verifyUpstream: z.string(), verifyNoop: z.string(), fix: z.string() }),
});
const Corpus = z.object({ cases: z.array(Case) });

const usage =
  "usage: npm run bench -- real-repos <dir of prepared cases> [--split dev|test|all] [--only id] [--timeout SECONDS]";
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const positional = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
const dir = positional[0];
const split = flag("--split") ?? "dev";
const only = flag("--only");
const timeoutS = Number(flag("--timeout") ?? 900);
if (!dir || !existsSync(dir) || !["dev", "test", "all"].includes(split) || !(timeoutS > 0)) {
  process.stderr.write(`${usage}\n${dir && !existsSync(dir) ? `no such directory: ${dir}\n` : ""}`);
  process.exit(2);
}

const root = path.join(import.meta.dirname, "..");
const corpus = Corpus.parse(
  JSON.parse(readFileSync(path.join(import.meta.dirname, "real-repos", "cases.json"), "utf8")),
);
const cases = corpus.cases.filter(
  (c) => (split === "all" || splitOf(c.id) === split) && (only === undefined || c.id === only),
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
  runs: z.array(z.object({ phase: z.string(), durationMs: z.number(), complete: z.boolean() })).default([]),
});

function verify(caseDir: string, testCommand: string, patch: "upstream.diff" | "noop.diff"): Outcome {
  const scratch = mkdtempSync(path.join(tmpdir(), "retrace-real-repos-"));
  const copy = path.join(scratch, "repo");
  try {
    cpSync(path.join(caseDir, "repo"), copy, { recursive: true, verbatimSymlinks: true });
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      [
        path.join(root, "bin", "retrace.mjs"),
        "verify",
        "--repo",
        copy,
        "--patch",
        path.join(caseDir, patch),
        "--test",
        testCommand,
        "--json",
      ],
      { cwd: scratch, encoding: "utf8", timeout: timeoutS * 1000, maxBuffer: 64 * 1024 * 1024 },
    );
    const wallMs = Date.now() - started;
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
    return {
      verdict: parsed.verdict,
      exitCode: r.status,
      error: null,
      wallMs,
      fullRunMs,
      multiple: fullRunMs ? Math.round((wallMs / fullRunMs) * 100) / 100 : null,
    };
  } finally {
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
};
const tallies = new Map<Split, Tally>();
const tally = (s: Split) => {
  let t = tallies.get(s);
  if (!t) {
    t = { cases: 0, right: 0, wrong: 0, infra: 0, notPrepared: 0, multiples: [] };
    tallies.set(s, t);
  }
  return t;
};

for (const c of cases) {
  const s = splitOf(c.id);
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
  const noop = verify(caseDir, c.testCommand, "noop.diff");
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
  console.log(
    JSON.stringify({
      case: c.id,
      repo: c.repo,
      split: s,
      result: wrong ? "wrong" : infra ? "infrastructure" : "right",
      upstream,
      noop,
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
    },
  ]),
);
for (const [s, v] of Object.entries(totals)) console.log(JSON.stringify({ split: s, ...v }));
console.log(JSON.stringify({ benchmark: "real-repos", split, only: only ?? null, totals }));
