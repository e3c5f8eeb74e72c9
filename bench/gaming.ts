/**
 * The gaming corpus (test/fixtures/gaming): every case's patch goes through the real verification — the same
 * calls `retrace verify --json` makes (policy gate, sandbox runs on real Docker, anti-gaming layers) — and
 * the verdict is compared with the case's expected answer, decided by hand before Retrace saw it.
 *
 *   npm run bench -- gaming [--split dev|test|all] [--only <id>[,<id>]] [--prefix <p>] [--jobs N] [--overhead-sample N] [--no-overhead]
 *
 * `--prefix hold-` scores the cases whose id starts with the prefix, whatever their split (the held-out sets,
 * `hold-*` and `hold2-*`, written after the dev/test halves were scored and scored once; `g13-*`, a session's
 * cases for its own rules). Without `--prefix` or `--only`,
 * held-out cases are left out, so the dev and test figures stay those of the same cases.
 *
 * One JSON line per case (id, split, expected, verdict, which layer caught it, wall ms), then one line per
 * split with caught/total for gaming patches and verified/total for honest fixes, then the overhead: the wall
 * time of verification with the anti-gaming runs as a multiple of the same verification without them
 * (`antiGaming: false`), measured side by side in this run on a sample of honest cases (only a patch that
 * passes the normal runs gets the anti-gaming run, so honest fixes are where its cost shows). The last line
 * holds the headline figures. Default split: dev.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { verifyJson } from "../src/cli/commands/verify.ts";
import { CONFIG_PATH, loadConfigFile } from "../src/config/load.ts";
import { policyForFix } from "../src/config/schema.ts";
import { type VerifyOutput, verifyPatch } from "../src/fix/verify.ts";
import { createFsWorkspace } from "../src/git/fs-workspace.ts";
import { createDockerSandbox } from "../src/sandbox/docker.ts";
import { createRepoDependencyProvider } from "../src/install/repo-deps.ts";
import { type Split, splitOf } from "./lib/split.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = path.join(ROOT, "test/fixtures/gaming");

interface Case {
  id: string;
  repo: string;
  framework: string;
  expected: "caught" | "verified";
  class: string;
  testCommand: string;
  notes: string;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i === -1) return undefined;
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith("--")) {
    process.stderr.write(`${name} needs a value\n`);
    process.exit(2);
  }
  return value;
}

const splitArg = flag("--split") ?? "dev";
if (!["dev", "test", "all"].includes(splitArg)) {
  process.stderr.write(`--split must be dev, test or all, got ${splitArg}\n`);
  process.exit(2);
}
const only = flag("--only")?.split(",");
const prefix = flag("--prefix");
/**
 * Sets outside the dev/test splits, scored with --prefix: the held-out sets (`hold-*`, `hold2-*`, …) and cases
 * written by a session for the rules it built (`g13-*`, `f13-*`: development material that must not land in the test
 * half).
 */
const HELD_OUT = /^(hold\d*|g\d+|f\d+)-/;
const overheadSample = Number(flag("--overhead-sample") ?? 6);
const jobs = Number(flag("--jobs") ?? 1);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 8) {
  process.stderr.write(`--jobs must be an integer from 1 to 8, got ${flag("--jobs")}\n`);
  process.exit(2);
}
const measureOverhead = !process.argv.includes("--no-overhead") && overheadSample > 0;

function loadCases(): Case[] {
  const dir = path.join(CORPUS, "cases");
  return readdirSync(dir)
    .sort()
    .map((id) => JSON.parse(readFileSync(path.join(dir, id, "case.json"), "utf8")) as Case);
}

/** The layer that stopped a patch, from the verification result. */
function layerOf(result: Omit<VerifyOutput, "baseline">): string | null {
  if (result.verdict === "VERIFIED") return null;
  if (result.verdict === "BLOCKED")
    return `policy:${[...new Set(result.violations.map((v) => v.rule))].join("+")}`;
  const failed = result.antiGaming?.checks.filter((c) => !c.passed) ?? [];
  if ((result.antiGaming?.rejections.length ?? 0) > 0) {
    const layers = [...new Set(failed.map((c) => c.layer))];
    return layers.length > 0 ? layers.join("+") : "anti-gaming";
  }
  return "normal-run";
}

async function verifyCase(
  c: Case,
  antiGaming: boolean,
): Promise<{ result: Omit<VerifyOutput, "baseline">; ms: number }> {
  const repoDir = path.join(CORPUS, "repos", c.repo);
  const patch = readFileSync(path.join(CORPUS, "cases", c.id, "patch.diff"), "utf8");
  // The same construction as `retrace verify` (src/cli/commands/verify.ts), with the case's --test.
  const workspace = await createFsWorkspace(repoDir);
  const config = await loadConfigFile(path.join(workspace.root, CONFIG_PATH), { optional: true });
  const t0 = performance.now();
  const result = await verifyPatch({
    workspace,
    sandbox: createDockerSandbox(),
    patch,
    policy: policyForFix(config),
    testCommand: c.testCommand,
    runs: config.fix.verifyRuns,
    jobId: `bench-gaming-${randomUUID().slice(0, 8)}`,
    dependencies: createRepoDependencyProvider({
      policy: config.install,
      log: (line: string) => process.stderr.write(`retrace: ${line}\n`),
    }),
    antiGaming,
  });
  return { result: verifyJson(result), ms: Math.round(performance.now() - t0) };
}

const splits: Split[] = splitArg === "all" ? ["dev", "test"] : [splitArg as Split];
const cases = loadCases().filter((c) =>
  only
    ? only.includes(c.id)
    : prefix !== undefined
      ? c.id.startsWith(prefix)
      : !HELD_OUT.test(c.id) && splits.includes(splitOf(c.id)),
);
if (cases.length === 0) {
  process.stderr.write(
    `no cases match (split ${splitArg}${only ? `, only ${only.join(",")}` : ""}${prefix !== undefined ? `, prefix ${prefix}` : ""})\n`,
  );
  process.exit(2);
}

interface Row {
  id: string;
  split: Split;
  expected: string;
  verdict: string;
  ok: boolean;
  /**
   * Wall ms of the whole verification, of its anti-gaming run (0 when it did not run), and of the part of that run
   * verification waited for (the run starts beside the remaining patched runs: its cost on the critical path).
   */
  wallMs?: number;
  antiGamingMs?: number;
  antiGamingWaitedMs?: number;
}
const rows: Row[] = [];
async function scoreCase(c: Case): Promise<void> {
  const split = splitOf(c.id);
  let line: Record<string, unknown>;
  try {
    const { result, ms } = await verifyCase(c, true);
    const ok = c.expected === "caught" ? result.verdict !== "VERIFIED" : result.verdict === "VERIFIED";
    const antiGamingMs = Math.round(result.antiGaming?.durationMs ?? 0);
    const antiGamingWaitedMs = Math.round(result.antiGaming?.waitedMs ?? antiGamingMs);
    rows.push({
      id: c.id,
      split,
      expected: c.expected,
      verdict: result.verdict,
      ok,
      wallMs: ms,
      antiGamingMs,
      antiGamingWaitedMs,
    });
    line = {
      id: c.id,
      split,
      framework: c.framework,
      class: c.class,
      expected: c.expected,
      verdict: result.verdict,
      ok,
      caughtBy: layerOf(result),
      gamingClass: result.antiGaming?.gamingClass ?? null,
      wallMs: ms,
      antiGamingMs,
      antiGamingWaitedMs,
      ...(ok ? {} : { reasons: result.reasons.slice(0, 4) }),
    };
  } catch (error) {
    // An infrastructure or usage error is neither a catch nor a verification: counted apart, never as ok.
    rows.push({ id: c.id, split, expected: c.expected, verdict: "ERROR", ok: false });
    line = {
      id: c.id,
      split,
      expected: c.expected,
      verdict: "ERROR",
      ok: false,
      error: String((error as Error).message ?? error),
    };
  }
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
// --jobs N verifies N cases at once (wall times then include the contention; the overhead pairs always run alone).
let nextCase = 0;
await Promise.all(
  Array.from({ length: jobs }, async () => {
    while (nextCase < cases.length) {
      const c = cases[nextCase++];
      if (c) await scoreCase(c);
    }
  }),
);

const perSplit: Record<string, unknown> = {};
// With --prefix every matching case is scored as one group, whatever its split.
const groups: [string, Row[]][] =
  prefix !== undefined && only === undefined
    ? [[`prefix:${prefix}`, rows]]
    : splits.map((split) => [split, rows.filter((r) => r.split === split)]);
for (const [split, mine] of groups) {
  const gaming = mine.filter((r) => r.expected === "caught");
  const honest = mine.filter((r) => r.expected === "verified");
  const figures = {
    bench: "gaming",
    split,
    caught: gaming.filter((r) => r.ok).length,
    gamingTotal: gaming.length,
    verified: honest.filter((r) => r.ok).length,
    honestTotal: honest.length,
    errors: mine.filter((r) => r.verdict === "ERROR").length,
    missedGaming: gaming.filter((r) => !r.ok).map((r) => r.id),
    blockedHonest: honest.filter((r) => !r.ok).map((r) => r.id),
  };
  perSplit[split] = figures;
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

// Overhead, measured two ways. In-run: over every honest fix that verified here, the verification's wall time
// against the same verification minus the time it waited for its anti-gaming run (no run-to-run noise; the machine
// is shared). The anti-gaming run starts beside the remaining patched runs, so only the wait after they finish is
// on the critical path: subtracting the whole run (`antiGamingMs`, as this did first) counted time that overlapped
// other runs and overstated the multiple (1.6-1.9× in-run against 1.06-1.12× side by side, session 8).
// Side by side (below): a sample verified twice, with and without the layers.
const verifiedRows = rows.filter((r) => r.expected === "verified" && r.verdict === "VERIFIED");
const inRunWith = verifiedRows.reduce((n, r) => n + (r.wallMs ?? 0), 0);
const inRunAg = verifiedRows.reduce((n, r) => n + (r.antiGamingMs ?? 0), 0);
const inRunWaited = verifiedRows.reduce((n, r) => n + (r.antiGamingWaitedMs ?? 0), 0);
const inRun =
  verifiedRows.length === 0
    ? null
    : {
        cases: verifiedRows.length,
        withMs: inRunWith,
        antiGamingMs: inRunAg,
        antiGamingWaitedMs: inRunWaited,
        multiple: Number((inRunWith / (inRunWith - inRunWaited)).toFixed(2)),
      };

// Overhead: honest cases of the scored split(s), each verified with and without the anti-gaming layers,
// alternating which goes first so neither side always meets a warm cache.
let overhead: Record<string, unknown> = { measured: false };
if (measureOverhead) {
  const verifiedIds = new Set(
    rows.filter((r) => r.expected === "verified" && r.verdict === "VERIFIED").map((r) => r.id),
  );
  const byFramework = new Map<string, Case>();
  for (const c of cases)
    if (verifiedIds.has(c.id) && !byFramework.has(c.framework)) byFramework.set(c.framework, c);
  const sample = [
    ...byFramework.values(),
    ...cases.filter((c) => verifiedIds.has(c.id) && ![...byFramework.values()].includes(c)),
  ].slice(0, overheadSample);
  let withMs = 0;
  let withoutMs = 0;
  const pairs: Record<string, unknown>[] = [];
  // A pair whose verification ends in an infrastructure error (a base run stopped at the sandbox's time limit on a
  // loaded machine) has no wall time to compare: left out and listed, not the end of the run (test-run3 lost its
  // headline line that way).
  const skipped: { id: string; error: string }[] = [];
  for (const [i, c] of sample.entries()) {
    const order = i % 2 === 0 ? [true, false] : [false, true];
    const times: Record<string, number> = {};
    try {
      for (const ag of order) times[ag ? "with" : "without"] = (await verifyCase(c, ag)).ms;
    } catch (error) {
      const left = { id: c.id, error: String((error as Error).message ?? error) };
      skipped.push(left);
      process.stdout.write(`${JSON.stringify({ bench: "gaming-overhead", ...left, skipped: true })}\n`);
      continue;
    }
    withMs += times.with ?? 0;
    withoutMs += times.without ?? 0;
    const pair = {
      bench: "gaming-overhead",
      id: c.id,
      framework: c.framework,
      withMs: times.with,
      withoutMs: times.without,
    };
    pairs.push(pair);
    process.stdout.write(`${JSON.stringify(pair)}\n`);
  }
  overhead =
    pairs.length === 0
      ? {
          measured: false,
          why: sample.length === 0 ? "no honest case verified in this run" : "every pair ended in an error",
          ...(skipped.length > 0 ? { skipped } : {}),
        }
      : {
          measured: true,
          sample: pairs.length,
          withMs,
          withoutMs,
          multiple: Number((withMs / withoutMs).toFixed(2)),
          ...(skipped.length > 0 ? { skipped } : {}),
        };
}

process.stdout.write(
  `${JSON.stringify({ bench: "gaming", splits: perSplit, overhead: { inRun, sideBySide: overhead } })}\n`,
);
