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
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runWave, type Wave, waveCaseIds } from "./wave-harness.ts";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const STEP = path.join(HERE, "redteam9-step.ts");
const MARKER = "/var/tmp/retrace-rt9-test-marker";
const SECRET = "ghs_rt9testSECRET0123456789abcdefABCDEF";
const LIMITS = "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000";
/** Host CPU a report's steps may take: two parse limits (1 s each here) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other case (an 8 MiB manifest, a 200,000-version packument included); a `run-` case's CLI child is held to
 * 20 s of CPU within 240 s by the case itself. */
const OTHER_CPU_MS = 8_000;

const cases = waveCaseIds(path.join(HERE, "redteam9-cases.json"));
const ADDED = ["run-stderr-enoent-other-error"];
const ids = [...cases, ...ADDED];
let wave: Wave;

describe("ninth red team: hostile inputs to the host-side steps", () => {
  beforeAll(async () => {
    if (existsSync(MARKER)) rmSync(MARKER);
    wave = await runWave({
      step: STEP,
      ids,
      env: { GITHUB_TOKEN: SECRET, RETRACE_RT9_MARKER: MARKER, RETRACE_HOST_LIMITS: LIMITS },
      tmpPrefix: "rt9-test-",
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
