/**
 * The tenth red team's inputs (issue 14, host-side steps; `redteam10-cases.json`, first try and after in
 * `redteam10-results.md`): every case through the entry its pipeline uses, in child processes
 * (`redteam10-step.ts`) — the real `retrace` CLI (repro on the real engine, parse-log, policy) for what a terminal
 * is shown, the Action runner's checkout step on a checkout whose git configuration points elsewhere, the Docker
 * driver with a read-only dependency mount and a checkout holding special files, the runtime and Python manifest
 * readers, the report reader at its cap, the webhook intake and tracking comment, the artifact unzipper — with a
 * marker secret in GITHUB_TOKEN and a marker file outside Retrace's directories. Each case must be contained or
 * refused with a reason: its own check passes, its host CPU stays within a bound, the marker never appears and
 * the secret never reaches an output. `RETRACE_HOST_LIMITS` is lowered as the ninth wave's test lowers it.
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runWave, type Wave, waveCaseIds } from "./wave-harness.ts";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const STEP = path.join(HERE, "redteam10-step.ts");
const MARKER = "/var/tmp/retrace-rt10-test-marker";
const SECRET = "ghs_rt10testSECRET0123456789abcdefABCDEF";
const LIMITS = "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000";
/** Host CPU a report's steps may take: two parse limits (1 s each here) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other case (50 workflow files of 250 KiB, a 19 MB artifact included); a `run-` case's CLI child is held to
 * 240 s by the case itself. */
const OTHER_CPU_MS = 8_000;

const ids = waveCaseIds(path.join(HERE, "redteam10-cases.json"));

let wave: Wave;

describe("tenth red team: hostile inputs to the host-side steps", () => {
  beforeAll(async () => {
    if (existsSync(MARKER)) rmSync(MARKER);
    wave = await runWave({
      step: STEP,
      ids,
      env: { GITHUB_TOKEN: SECRET, RETRACE_RT10_MARKER: MARKER, RETRACE_HOST_LIMITS: LIMITS },
      tmpPrefix: "rt10-test-",
      groupTimeoutMs: (group) => (group[0]!.startsWith("run-") ? 900_000 : 150_000),
    });
  }, 1_200_000);

  it.each(ids)("%s is contained or refused", (id) => {
    const r = wave.results.get(id);
    expect(r, `${id} gave no result (killed or crashed)`).toBeDefined();
    expect(r!.contained, r!.outcome).not.toBe(false);
    expect(r!.outcome).not.toMatch(/^threw: /);
    expect(r!.cpuMs, r!.outcome).toBeLessThanOrEqual(id.startsWith("report-") ? REPORT_CPU_MS : OTHER_CPU_MS);
  });

  it("no program ran on the host and the secret reached no output", () => {
    expect(existsSync(MARKER)).toBe(false);
    expect(wave.outputs.join("")).not.toContain(SECRET);
  });
});
