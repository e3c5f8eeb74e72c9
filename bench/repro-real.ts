/**
 * Real-report reproduction benchmark: every case of test/fixtures/repro-real/<id>/ (report.md + case.json, the
 * expected verdict decided by hand) goes through the real CLI — `retrace repro --offline --json`, real Docker,
 * real installs — one process per report, as a user would run it, with `--package` set to the package the
 * case's source repository publishes (as the App sets it). Prints one JSON line per case, then per split
 * (splitOf(id) from bench/lib/split.ts) the confusion matrix, accuracy, the false REPRODUCED (listed
 * separately: the worst error), the "environment blamed" (INFRASTRUCTURE where a verdict was expected, listed
 * apart) and the median wall time per report; then the worst host-side parse time over
 * pathological 65,536-character reports (issue 14: bounded host work); the last line holds the headline.
 *
 *   npm run bench -- repro-real [--split dev|test|all] [--only <id>[,<id>…]] [--prefix <p>] [--timeout SECONDS] [--jobs N] [--no-parse]
 *   npm run bench -- repro-real --parse-only   (the host parse time of hostile 65,536-character reports alone:
 *   wall and CPU ms of parse, expectations and completion, which share RETRACE_HOST_LIMITS parseTimeMs)
 *
 * Default split: dev. Score "test" only once, at the end. Held-out sets (`hold3-*`, …: reports gathered after the
 * halves were tuned on) belong to no split: `--prefix hold3-` scores the cases whose id starts with the prefix as
 * one group, once.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ReproJobSpec } from "../src/core/job.ts";
import { MAX_REPORT_CHARS } from "../src/repro/bounded.ts";
import { completeProgram } from "../src/repro/complete.ts";
import { hostLimits } from "../src/core/host-limits.ts";
import { withinCpuTime } from "../src/core/time-limit.ts";
import { createContext } from "../src/repro/context.ts";
import { createLocalReproPorts } from "../src/jobs/local-repro.ts";
import { type Split, splitOf } from "./lib/split.ts";

/**
 * The four verdicts and INFRASTRUCTURE: the answer for a report whose code needs a runtime the sandbox does not
 * have (the s15 rule, src/repro/runtime-rule.ts). It is right only when the CLI ends with the infrastructure exit
 * code (3) and its message names the runtime that ran; a verdict where it was expected is a miss, and so is it
 * where a verdict was expected — listed apart as "environment blamed".
 */
const VERDICTS = ["REPRODUCED", "PARTIAL", "NOT_REPRODUCED", "NEEDS_INFO", "INFRASTRUCTURE"] as const;
type Verdict = (typeof VERDICTS)[number];
type Got = Verdict | "ERROR";
/**
 * The infrastructure exit code (src/core/errors.ts): every such exit is an INFRASTRUCTURE outcome (an install
 * stopped at its limit, a run the host's load stopped), never an ERROR of the CLI. It is the right answer to a case
 * expecting INFRASTRUCTURE only when the message names the runtime that ran (the runtime-mismatch rule, README
 * rule 6): any other environment problem on such a case is still wrong.
 */
const INFRASTRUCTURE_EXIT = 3;
const NAMES_RUNTIME = /the sandbox ran (?:Python|Node\.js) \d+\.\d+/;

const root = path.join(import.meta.dirname, "..");
const corpusDir = path.join(root, "test", "fixtures", "repro-real");
const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const splitArg = arg("--split") ?? "dev";
if (!["dev", "test", "all"].includes(splitArg)) {
  process.stderr.write(`--split must be dev, test or all (got ${splitArg})\n`);
  process.exit(2);
}
const only = arg("--only");
const prefix = arg("--prefix");
/** Held-out sets: `hold3-*`, … (scored with --prefix, never part of a split). */
const HELD_OUT = /^hold\d*-/;
// 30 s per sandbox run: the machine is shared, and a loaded engine must not turn a slow import into a verdict.
// Each sandbox run's limit, in seconds like the CLI's --timeout (default 30).
const runTimeout = arg("--timeout") ?? "30";

interface CaseFile {
  id: string;
  source: string;
  ecosystem: string;
  expected: Verdict;
  forms: string[];
}

const ids = existsSync(corpusDir)
  ? readdirSync(corpusDir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join(corpusDir, d.name, "case.json")))
      .map((d) => d.name)
      .sort()
  : [];
const parseOnly = args.includes("--parse-only");
const selected = parseOnly
  ? []
  : ids.filter((id) =>
      only
        ? only.split(",").includes(id)
        : prefix !== undefined
          ? id.startsWith(prefix)
          : !HELD_OUT.test(id) && (splitArg === "all" || splitOf(id) === splitArg),
    );
if (!parseOnly && selected.length === 0) {
  process.stderr.write(
    `no cases match (split ${splitArg}${only ? `, only ${only}` : ""}${prefix !== undefined ? `, prefix ${prefix}` : ""})\n`,
  );
  process.exit(2);
}

/**
 * The package the case's source repository publishes (repository-packages.json, keyed by `owner/repo` of the
 * case's `source`), passed as `--package` the way the App sets it from the issue's repository; none for a case
 * with no repository (written here).
 */
const repositoryPackages = (() => {
  const file = path.join(corpusDir, "repository-packages.json");
  if (!existsSync(file)) return {} as Record<string, string>;
  return (JSON.parse(readFileSync(file, "utf8")) as { repositories: Record<string, string> }).repositories;
})();
function repositoryPackageOf(source: string): string | null {
  const repo = /^([\w.-]+\/[\w.-]+)#/.exec(source)?.[1];
  return repo ? (repositoryPackages[repo] ?? null) : null;
}

/** One `retrace repro` process: its verdict (or ERROR with the exit code), wall time and a one-line summary. */
function runCli(
  reportPath: string,
  pkg: string | null,
): Promise<{ got: Got; ms: number; exit: number | null; summary: string; namesRuntime: boolean }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [
        path.join(root, "bin", "retrace.mjs"),
        "repro",
        reportPath,
        "--offline",
        "--json",
        "--timeout",
        runTimeout,
        ...(pkg ? ["--package", pkg] : []),
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("close", (exit) => {
      const ms = Math.round(performance.now() - t0);
      try {
        const r = JSON.parse(out) as { verdict: Verdict; summary: string };
        resolve({ got: r.verdict, ms, exit, summary: r.summary, namesRuntime: false });
      } catch {
        resolve({
          got: exit === INFRASTRUCTURE_EXIT ? "INFRASTRUCTURE" : "ERROR",
          namesRuntime: NAMES_RUNTIME.test(err),
          ms,
          exit,
          summary: err.trim().split("\n").slice(-3).join(" / ").slice(0, 300),
        });
      }
    });
  });
}

const median = (xs: number[]) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
};

interface Row {
  id: string;
  split: Split;
  source: string;
  forms: string[];
  expected: Verdict;
  got: Got;
  ok: boolean;
  ms: number;
}
const rows: Row[] = [];
// `--jobs N` runs N reports at once (default 1): faster on a big corpus, at the cost of wall times measured
// under contention (the headline says how many ran at once).
const jobs = Math.max(1, Number(arg("--jobs") ?? 1) || 1);
let next = 0;
async function worker(): Promise<void> {
  while (next < selected.length) {
    const id = selected[next++]!;
    const dir = path.join(corpusDir, id);
    const c = JSON.parse(readFileSync(path.join(dir, "case.json"), "utf8")) as CaseFile;
    const r = await runCli(path.join(dir, "report.md"), repositoryPackageOf(c.source));
    const row: Row = {
      id,
      split: splitOf(id),
      source: c.source,
      forms: c.forms,
      expected: c.expected,
      got: r.got,
      ok: r.got === c.expected && (c.expected !== "INFRASTRUCTURE" || r.namesRuntime),
      ms: r.ms,
    };
    rows.push(row);
    console.log(JSON.stringify({ ...row, exit: r.exit, summary: r.summary.slice(0, 240) }));
  }
}
await Promise.all(Array.from({ length: jobs }, () => worker()));
rows.sort((a, b) => a.id.localeCompare(b.id));

function score(split: string, rs: Row[]) {
  const matrix: Record<string, Record<string, number>> = {};
  for (const e of VERDICTS) matrix[e] = Object.fromEntries([...VERDICTS, "ERROR"].map((g) => [g, 0]));
  for (const r of rs) matrix[r.expected]![r.got] = (matrix[r.expected]![r.got] ?? 0) + 1;
  const correct = rs.filter((r) => r.ok).length;
  const falseReproduced = rs.filter((r) => r.got === "REPRODUCED" && r.expected !== "REPRODUCED");
  const environmentBlamed = rs.filter((r) => r.got === "INFRASTRUCTURE" && r.expected !== "INFRASTRUCTURE");
  return {
    split,
    cases: rs.length,
    correct,
    accuracy: rs.length ? Number((correct / rs.length).toFixed(3)) : null,
    confusion: matrix,
    falseReproducedCount: falseReproduced.length,
    falseReproduced: falseReproduced.map((r) => `${r.id} (expected ${r.expected})`),
    environmentBlamedCount: environmentBlamed.length,
    environmentBlamed: environmentBlamed.map((r) => `${r.id} (expected ${r.expected})`),
    wrong: rs.filter((r) => !r.ok).map((r) => `${r.id}: expected ${r.expected}, got ${r.got}`),
    medianWallMsPerReport: median(rs.map((r) => r.ms)),
  };
}

const splits = splitArg === "all" ? (["dev", "test"] as const) : ([splitArg] as const);
// With --prefix every matching case is scored as one group, whatever its split.
// With --only the listed cases are one group too (held-out ids belong to no split).
const perSplit =
  only !== undefined
    ? [score("only", rows)]
    : prefix !== undefined
      ? [score(`prefix:${prefix}`, rows)]
      : splits.map((s) =>
          score(
            s,
            rows.filter((r) => r.split === s),
          ),
        );
for (const s of perSplit) console.log(JSON.stringify({ bench: "repro-real", ...s }));
// A run where the CLI refused its own invocation (exit 2) measured nothing: fail, loudly, instead of scoring it.
const refused = rows.filter((r) => r.got === "ERROR");
if (rows.length > 0 && refused.length === rows.length) {
  process.stderr.write(
    `repro-real: every report ended in an error of the CLI itself; nothing was measured\n`,
  );
  process.exitCode = 1;
}

// Host-side parse time of hostile 65,536-character reports (sanitize, markdown parse, reported behaviour and
// program extraction: everything before the sandbox), measured in this process through the pipeline's own
// entry (createContext), the worst over the inputs.
function pathological(): Record<string, string> {
  const n = MAX_REPORT_CHARS;
  const fill = (unit: string, head = "# hostile\n\n") =>
    (head + unit.repeat(Math.ceil(n / unit.length))).slice(0, n);
  let nested = "# hostile\n\n";
  for (let i = 0; nested.length < n; i++) nested += `${"  ".repeat(i % 2000)}- x\n`;
  return {
    "[* repeated": fill("[*"),
    "> repeated": fill(">"),
    "> space repeated": fill("> "),
    "*a_ repeated": fill("*a_"),
    "[a]( repeated": fill("[a]("),
    "![ repeated": fill("!["),
    "<a  repeated": fill("<a "),
    backticks: fill("`a``"),
    "nested lists": nested.slice(0, n),
    "quote+list nesting": fill("> - "),
    "html comments": fill("<!--"),
    "emphasis in a fenced report": fill("**_", "# hostile\n\n```js\nconsole.log(1)\n```\n\n"),
    // Added with the shared budget (issue 14), aimed at the steps after the parse: expectations and completion.
    "table pipes": fill("|a"),
    "reference definitions": fill("[a]: <b\n"),
    "character references": fill("&#x1b;&amp"),
    "spaces in an assert call": fill(" ", "# hostile\n\n```js\nassert.equal(f(1),"),
    "spaces after a shell line": fill(" ", "# hostile\n\n```sh\nnode index.js"),
    // Added with the pre-scan before the markdown parser (src/repro/bound-markdown.ts): a paragraph of
    // delimiters per blank line, each just under its cap; a fence the pre-scan must not take for a code block
    // (a list item's ends with the item); one it does take (a fence line in an HTML block, which the parser reads
    // as HTML): what follows is left to the parse's CPU limit.
    "[* paragraphs under the cap": fill(`${"[*".repeat(64)}\n\n`),
    "[* after a fence in a list item": fill("[*", "# hostile\n\n- a\n  ```\n"),
    "[* after a fence in an HTML block": fill("[*", "# hostile\n\n<div>\n```\n\n"),
    "spaces in three places": (() => {
      const third = " ".repeat(Math.floor(n / 3) - 40);
      return `# hostile\n\n\`\`\`js\nassert.equal(f(1),${third}2)\n\`\`\`\n\n\`\`\`sh\nnode i.js${third}\n\`\`\`\n\nError: x${third}`.slice(
        0,
        n,
      );
    })(),
  };
}
let worstParse: { input: string; ms: number; verdictPath: string } | null = null;
let worstParseCpu: { input: string; cpuMs: number } | null = null;
if (!args.includes("--no-parse") && !only) {
  const ports = createLocalReproPorts();
  const budgetMs = hostLimits().parseTimeMs;
  for (const [name, markdown] of Object.entries(pathological())) {
    const spec = ReproJobSpec.parse({ kind: "repro", id: "bench-parse", markdown, runs: 1 });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const ctx = createContext(spec, ports);
    // As the pipeline's `complete` step: bounded by what the parse and expectations left of the budget.
    const completed = ctx.unreadable
      ? null
      : withinCpuTime(
          () => completeProgram(ctx.report, ctx.expectations.invocation),
          Math.max(1, budgetMs - ctx.readCpuMs),
        );
    const ms = Math.round(performance.now() - t0);
    const used = process.cpuUsage(cpu0);
    const cpuMs = Math.round((used.user + used.system) / 1000);
    const verdictPath = ctx.unreadable
      ? "NEEDS_INFO (not read)"
      : completed && !completed.ok
        ? `NEEDS_INFO (not completed: ${completed.reason})`
        : completed?.value
          ? "program"
          : "NEEDS_INFO (no code)";
    console.log(JSON.stringify({ parse: name, chars: markdown.length, ms, cpuMs, verdictPath }));
    if (!worstParse || ms > worstParse.ms) worstParse = { input: name, ms, verdictPath };
    if (!worstParseCpu || cpuMs > worstParseCpu.cpuMs) worstParseCpu = { input: name, cpuMs };
  }
}

console.log(
  JSON.stringify({
    bench: "repro-real",
    split: only !== undefined ? "only" : prefix !== undefined ? `prefix:${prefix}` : splitArg,
    corpus: ids.length,
    ran: rows.length,
    jobs,
    ...Object.fromEntries(
      perSplit.map((s) => [
        s.split,
        {
          accuracy: s.accuracy,
          correct: s.correct,
          cases: s.cases,
          falseReproduced: s.falseReproducedCount,
          environmentBlamed: s.environmentBlamedCount,
          medianWallMsPerReport: s.medianWallMsPerReport,
        },
      ]),
    ),
    worstHostParseMs65536: worstParse?.ms ?? null,
    worstHostParseInput: worstParse?.input ?? null,
    worstHostParseCpuMs65536: worstParseCpu?.cpuMs ?? null,
    worstHostParseCpuInput: worstParseCpu?.input ?? null,
    loadAverage1m: Number(os.loadavg()[0]!.toFixed(2)),
  }),
);
