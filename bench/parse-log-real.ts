// `npm run bench -- parse-log-real [--split dev|test|all] [--prefix hold-] [--only ID] [--verbose]`
//
// Scores `retrace parse-log --json` (the compiled CLI a user runs, one process per log) on the real-log
// corpus in test/fixtures/logs-real/: logs that real runners printed (generated here by
// scripts/make-real-logs.mjs inside GitHub Actions / GitLab / Jenkins framing) and logs pasted in public
// issue threads (each with its source in case.json). Every expected.json was decided without Retrace: from
// the runner's own machine-readable report of the same run, or by hand for a pasted log.
//
// A reported failure matches an expected one when its test id is the expected canonical id
// (docs/test-ids.md); an expected failure without a test id (a build or collection error) is matched by
// file. Figures per split: recall (expected failures found), precision (reported failures that are real),
// location accuracy (matched failures whose file:line is one of the in-repo places of the failing stack),
// and green logs with any failure reported. The last line holds the headline per split.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Split, splitOf } from "./lib/split.ts";

interface Place {
  file: string;
  line: number;
}
interface ExpectedFailure {
  test?: string;
  file?: string;
  places?: Place[];
}
interface Expected {
  green: boolean;
  failures: ExpectedFailure[];
}
interface Reported {
  test?: string | null;
  file?: string;
  line?: number;
  category?: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpus = path.join(root, "test/fixtures/logs-real");
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const splitArg = (flag("--split") ?? "dev") as Split | "all";
if (!["dev", "test", "all"].includes(splitArg)) {
  process.stderr.write("--split takes dev, test or all\n");
  process.exit(2);
}
const only = flag("--only");
// `--prefix hold-`: only the held-out set (written after the parsers were tuned), scored once.
const prefix = flag("--prefix");
const verbose = args.includes("--verbose");

function cases(): string[] {
  return readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(corpus, d.name, "expected.json")))
    .map((d) => d.name)
    .filter((id) => (prefix ? id.startsWith(prefix) : true))
    .filter((id) => (only ? id === only : splitArg === "all" || splitOf(id) === splitArg))
    .sort();
}

function logFile(id: string): string {
  const dir = path.join(corpus, id);
  const meta = JSON.parse(readFileSync(path.join(dir, "case.json"), "utf8")) as { log?: string };
  const name = meta.log ?? readdirSync(dir).find((f) => f.startsWith("log."));
  if (!name) throw new Error(`${id}: no log file`);
  return path.join(dir, name);
}

function parse(file: string): { failures: Reported[]; error?: string; ms: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [path.join(root, "bin/retrace.mjs"), "parse-log", file, "--json"], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) {
    return { failures: [], error: `exit ${r.status}: ${r.stderr.trim().split("\n")[0] ?? ""}`, ms };
  }
  try {
    const j = JSON.parse(r.stdout) as { failures: Reported[] };
    return { failures: j.failures, ms };
  } catch (e) {
    return { failures: [], error: `not JSON: ${(e as Error).message}`, ms };
  }
}

function matches(exp: ExpectedFailure, rep: Reported): boolean {
  if (exp.test !== undefined) return rep.test === exp.test;
  // `--json` writes `"test": null` for a failure that is not a test (a build error): match those by file.
  return (rep.test === undefined || rep.test === null) && exp.file !== undefined && rep.file === exp.file;
}

interface Tally {
  cases: number;
  expected: number;
  found: number;
  reported: number;
  correct: number;
  located: number;
  locatable: number;
  greenCases: number;
  greenWithFailures: number;
  errors: number;
  perfect: number;
}
const blank = (): Tally => ({
  cases: 0,
  expected: 0,
  found: 0,
  reported: 0,
  correct: 0,
  located: 0,
  locatable: 0,
  greenCases: 0,
  greenWithFailures: 0,
  errors: 0,
  perfect: 0,
});
const tallies: Record<string, Tally> = {};
const ratio = (a: number, b: number): number | null => (b === 0 ? null : Number((a / b).toFixed(3)));

for (const id of cases()) {
  const split = splitOf(id);
  tallies[split] ??= blank();
  const t = tallies[split];
  const exp = JSON.parse(readFileSync(path.join(corpus, id, "expected.json"), "utf8")) as Expected;
  const got = parse(logFile(id));
  t.cases++;
  if (got.error) t.errors++;
  const used = new Set<number>();
  const missed: string[] = [];
  let located = 0;
  let locatable = 0;
  for (const e of exp.failures) {
    const i = got.failures.findIndex((r, k) => !used.has(k) && matches(e, r));
    if (i < 0) {
      missed.push(e.test ?? e.file ?? "?");
      continue;
    }
    used.add(i);
    const r = got.failures[i]!;
    if (e.places && e.places.length > 0) {
      locatable++;
      if (e.places.some((p) => p.file === r.file && p.line === r.line)) located++;
    }
  }
  const invented = got.failures
    .filter((_, k) => !used.has(k))
    .map((r) => r.test ?? `${r.category}:${r.file}`);
  t.expected += exp.failures.length;
  t.found += used.size;
  t.reported += got.failures.length;
  t.correct += used.size;
  t.located += located;
  t.locatable += locatable;
  if (exp.green) {
    t.greenCases++;
    if (got.failures.length > 0) t.greenWithFailures++;
  }
  const perfect = missed.length === 0 && invented.length === 0 && !got.error;
  if (perfect) t.perfect++;
  const line: Record<string, unknown> = {
    case: id,
    split,
    expected: exp.failures.length,
    found: used.size,
    reported: got.failures.length,
    location: `${located}/${locatable}`,
    ms: Math.round(got.ms),
  };
  if (got.error) line.error = got.error;
  if (missed.length) line.missed = missed;
  if (invented.length) line.invented = invented;
  if (verbose || !perfect) process.stdout.write(`${JSON.stringify(line)}\n`);
}

const headline: Record<string, unknown> = { bench: "parse-log-real" };
for (const [split, t] of Object.entries(tallies).sort()) {
  headline[split] = {
    cases: t.cases,
    perfectCases: t.perfect,
    recall: ratio(t.found, t.expected),
    precision: ratio(t.correct, t.reported),
    locationAccuracy: ratio(t.located, t.locatable),
    expectedFailures: t.expected,
    reportedFailures: t.reported,
    greenLogs: t.greenCases,
    greenLogsWithFailures: t.greenWithFailures,
    cliErrors: t.errors,
    goal: "recall 1.0, precision >= 0.98 on the test split",
    met:
      t.expected > 0 &&
      t.found === t.expected &&
      t.correct / Math.max(1, t.reported) >= 0.98 &&
      t.errors === 0,
  };
}
if (Object.keys(tallies).length === 0) {
  process.stderr.write(`no cases matched (split ${splitArg}${only ? `, only ${only}` : ""})\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(headline)}\n`);
