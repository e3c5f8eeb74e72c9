/**
 * The eighth red team's inputs (issue 14, host-side steps; `redteam8-cases.json`, first try and after in
 * `redteam8-results.md`): every case through the function its pipeline calls, in child processes
 * (`redteam8-step.ts`), with a marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each
 * case must be contained or refused with a reason: its own check passes, its host CPU stays within a bound, the
 * marker never appears and the secret never reaches an output. `RETRACE_HOST_LIMITS` is lowered so the heavy
 * cases stop early (the budgets they meet are the operator's, not hard-coded).
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runWave, type Wave, waveCaseIds } from "./wave-harness.ts";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const STEP = path.join(HERE, "redteam8-step.ts");
const MARKER = "/var/tmp/retrace-rt8-test-marker";
const SECRET = "ghs_rt8testSECRET0123456789abcdefABCDEF";
const LIMITS = "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000";
/** Host CPU a report's steps may take: two parse limits (1 s each here) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other case (a 41.5 MB lockfile's JSON.parse and check included). */
const OTHER_CPU_MS = 8_000;

const cases = waveCaseIds(path.join(HERE, "redteam8-cases.json"));
const ADDED = ["report-15-unknown-requires"];
const ids = [...cases, ...ADDED];
let wave: Wave;

describe("eighth red team: hostile inputs to the host-side steps", () => {
  beforeAll(async () => {
    if (existsSync(MARKER)) rmSync(MARKER);
    wave = await runWave({
      step: STEP,
      ids,
      env: { GITHUB_TOKEN: SECRET, RETRACE_RT8_MARKER: MARKER, RETRACE_HOST_LIMITS: LIMITS },
      tmpPrefix: "rt8-test-",
      groupTimeoutMs: () => 150_000,
    });
  }, 300_000);

  it.each(ids)("%s is contained or refused", (id) => {
    const r = wave.results.get(id);
    expect(r, `${id} gave no result (killed or crashed)`).toBeDefined();
    expect(r!.contained, r!.outcome).not.toBe(false);
    expect(r!.outcome).not.toMatch(/^threw: (?!git diff --cached failed)/);
    expect(r!.cpuMs, r!.outcome).toBeLessThanOrEqual(id.startsWith("report-") ? REPORT_CPU_MS : OTHER_CPU_MS);
  });

  it("no program ran on the host and the secret reached no output", () => {
    expect(existsSync(MARKER)).toBe(false);
    expect(wave.outputs.join("")).not.toContain(SECRET);
  });
});
