/**
 * The ninth red team's inputs (issue 14, host-side steps; `redteam9-cases.json`, first try and after in
 * `redteam9-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam9-step.ts`) — the real `retrace repro` CLI on the real engine for a run's output, the App's tarball
 * unpacker, the fix pipeline's git steps, the install proxy on its socket, the config loader, the log parser, the
 * report reader, the registry look-up against a registry on loopback — with a marker secret in GITHUB_TOKEN and
 * a marker file outside Retrace's directories. Each case must be contained or refused with a reason: its own check
 * passes, its host CPU stays within a bound, the marker never appears and the secret never reaches an output.
 * `RETRACE_HOST_LIMITS` is lowered so the heavy cases stop early (the budgets they meet are the operator's).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const ROOT = path.resolve(HERE, "../../..");
const STEP = path.join(HERE, "redteam9-step.ts");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const MARKER = "/var/tmp/retrace-rt9-test-marker";
const SECRET = "ghs_rt9testSECRET0123456789abcdefABCDEF";
const LIMITS = "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000";
/** Host CPU a report's steps may take: two parse limits (1 s each here) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other case (an 8 MiB manifest, a 200,000-version packument included); a `run-` case's CLI child is held to
 * 20 s of CPU within 240 s by the case itself. */
const OTHER_CPU_MS = 8_000;

const cases = (
  JSON.parse(readFileSync(path.join(HERE, "redteam9-cases.json"), "utf8")) as {
    cases: { id: string; class: string }[];
  }
).cases.map((c) => c.id);
const ADDED = ["run-stderr-enoent-other-error"];
const ids = [...cases, ...ADDED];

type Result = { id: string; cpuMs: number; outcome: string; contained: boolean | null };
const results = new Map<string, Result>();
const outputs: string[] = [];

function runGroup(group: string[]): Promise<void> {
  return new Promise((resolve) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rt9-test-"));
    const child = spawn(TSX, [STEP, dir, ...group], {
      cwd: dir,
      env: {
        ...process.env,
        GITHUB_TOKEN: SECRET,
        RETRACE_RT9_MARKER: MARKER,
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
    const timer = setTimeout(() => child.kill("SIGKILL"), group[0]!.startsWith("run-") ? 900_000 : 150_000);
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

describe("ninth red team: hostile inputs to the host-side steps", () => {
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
  }, 1_200_000);

  it.each(ids)("%s is contained or refused", (id) => {
    const r = results.get(id);
    expect(r, `${id} gave no result (killed or crashed)`).toBeDefined();
    expect(r!.contained, r!.outcome).not.toBe(false);
    expect(r!.outcome).not.toMatch(/^threw: /);
    expect(r!.cpuMs, r!.outcome).toBeLessThanOrEqual(id.startsWith("report-") ? REPORT_CPU_MS : OTHER_CPU_MS);
  });

  it("no program ran on the host and the secret reached no output", () => {
    expect(existsSync(MARKER)).toBe(false);
    expect(outputs.join("")).not.toContain(SECRET);
  });
});
