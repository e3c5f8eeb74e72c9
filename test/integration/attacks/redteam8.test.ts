/**
 * The eighth red team's inputs (issue 14, host-side steps; `redteam8-cases.json`, first try and after in
 * `redteam8-results.md`): every case through the function its pipeline calls, in child processes
 * (`redteam8-step.ts`), with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each
 * case must be contained or refused with a reason: its own check passes, its host CPU stays within a bound, the
 * marker never appears and the secret never reaches an output. `RETRACE_HOST_LIMITS` is lowered so the heavy
 * cases stop early (the budgets they meet are the operator's, not hard-coded).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const ROOT = path.resolve(HERE, "../../..");
const STEP = path.join(HERE, "redteam8-step.ts");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const MARKER = "/var/tmp/retrace-rt8-test-marker";
const SECRET = "ghs_rt8testSECRET0123456789abcdefABCDEF";
const LIMITS = "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000";
/** Host CPU a report's steps may take: two parse limits (1 s each here) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other case (a 41.5 MB lockfile's JSON.parse and check included). */
const OTHER_CPU_MS = 8_000;

const cases = (
  JSON.parse(readFileSync(path.join(HERE, "redteam8-cases.json"), "utf8")) as {
    cases: { id: string; class: string }[];
  }
).cases.map((c) => c.id);
const ADDED = ["report-15-unknown-requires"];
const ids = [...cases, ...ADDED];

type Result = { id: string; cpuMs: number; outcome: string; contained: boolean | null };
const results = new Map<string, Result>();
const outputs: string[] = [];

function runGroup(group: string[]): Promise<void> {
  return new Promise((resolve) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rt8-test-"));
    const child = spawn(TSX, [STEP, dir, ...group], {
      cwd: dir,
      env: {
        ...process.env,
        GITHUB_TOKEN: SECRET,
        RETRACE_RT8_MARKER: MARKER,
        RETRACE_HOST_LIMITS: LIMITS,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      outputs.push(String(d));
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
    child.on("close", () => {
      clearTimeout(timer);
      outputs.push(out);
      for (const line of out.split("\n").filter(Boolean)) {
        const r = JSON.parse(line) as Result;
        results.set(r.id, r);
      }
      rmSync(dir, { recursive: true, force: true });
      resolve();
    });
  });
}

describe("eighth red team: hostile inputs to the host-side steps", () => {
  beforeAll(async () => {
    if (existsSync(MARKER)) rmSync(MARKER);
    const groups = new Map<string, string[]>();
    for (const id of ids) {
      const key = id.split("-")[0]!;
      groups.set(key, [...(groups.get(key) ?? []), id]);
    }
    // Two groups at a time: the machine is shared.
    const queue = [...groups.values()];
    await Promise.all(
      [0, 1].map(async () => {
        for (let g = queue.shift(); g; g = queue.shift()) await runGroup(g);
      }),
    );
  }, 300_000);

  it.each(ids)("%s is contained or refused", (id) => {
    const r = results.get(id);
    expect(r, `${id} gave no result (killed or crashed)`).toBeDefined();
    expect(r!.contained, r!.outcome).not.toBe(false);
    expect(r!.outcome).not.toMatch(/^threw: (?!git diff --cached failed)/);
    expect(r!.cpuMs, r!.outcome).toBeLessThanOrEqual(id.startsWith("report-") ? REPORT_CPU_MS : OTHER_CPU_MS);
  });

  it("no program ran on the host and the secret reached no output", () => {
    expect(existsSync(MARKER)).toBe(false);
    expect(outputs.join("")).not.toContain(SECRET);
  });
});
