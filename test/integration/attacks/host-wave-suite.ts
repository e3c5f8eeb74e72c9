/**
 * The test the ninth and later host-side waves make of their cases (their files only name the wave): every case of
 * `redteamN-cases.json` (plus any added after its first try) through `redteamN-step.ts` with a marker secret in
 * GITHUB_TOKEN, a marker file outside Retrace's directories and lowered host limits (`RETRACE_HOST_LIMITS`, the
 * budgets the heavy cases meet are the operator's). Each case must be contained or refused with a reason: its own
 * check passes, its host CPU stays within a bound, the marker never appears and the secret reaches no output.
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runWave, type Wave, waveCaseIds } from "./wave-harness.ts";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const LIMITS = "logTimeMs=1000,logMsPerMb=500,parseTimeMs=1000";
/** Host CPU a report's steps may take: two parse limits (1 s each here) and a margin. */
const REPORT_CPU_MS = 3_000;
/** Any other case (large manifests, packuments, workflow files, artifacts); a `run-` case's CLI child is bounded by
 * the case itself. */
const OTHER_CPU_MS = 8_000;

export function describeHostWave(wave: {
  title: string;
  n: number | string;
  added?: string[];
  /** Cases left open after the wave's fixes (its results file says why): listed as to-dos, not run. */
  open?: string[];
  /** The process group of a case (wave-harness.ts `groupOf`), and how long such a group may run. */
  groupOf?: (id: string) => string;
  groupTimeoutMs?: number;
  /** A case's host CPU bound when the wave's differs from the default (a report case parsing more than two reports). */
  cpuMs?: (id: string) => number | undefined;
}): void {
  const marker = `/var/tmp/retrace-rt${wave.n}-test-marker`;
  const secret = `ghs_rt${wave.n}testSECRET0123456789abcdefABCDEF`;
  const ids = [...waveCaseIds(path.join(HERE, `redteam${wave.n}-cases.json`)), ...(wave.added ?? [])].filter(
    (id) => !wave.open?.includes(id),
  );
  let ran: Wave;

  describe(wave.title, () => {
    beforeAll(async () => {
      if (existsSync(marker)) rmSync(marker);
      ran = await runWave({
        step: path.join(HERE, `redteam${wave.n}-step.ts`),
        ids,
        env: { GITHUB_TOKEN: secret, [`RETRACE_RT${wave.n}_MARKER`]: marker, RETRACE_HOST_LIMITS: LIMITS },
        tmpPrefix: `rt${wave.n}-test-`,
        groupTimeoutMs: (group) => wave.groupTimeoutMs ?? (group[0]!.startsWith("run-") ? 900_000 : 150_000),
        ...(wave.groupOf ? { groupOf: wave.groupOf } : {}),
      });
    }, 1_200_000);

    it.each(ids)("%s is contained or refused", (id) => {
      const r = ran.results.get(id);
      expect(r, `${id} gave no result (killed or crashed)`).toBeDefined();
      expect(r!.contained, r!.outcome).not.toBe(false);
      expect(r!.outcome).not.toMatch(/^threw: /);
      expect(r!.cpuMs, r!.outcome).toBeLessThanOrEqual(
        wave.cpuMs?.(id) ?? (id.startsWith("report-") ? REPORT_CPU_MS : OTHER_CPU_MS),
      );
    });

    for (const id of wave.open ?? []) it.todo(`${id} (left open)`);

    it("no program ran on the host and the secret reached no output", () => {
      expect(existsSync(marker)).toBe(false);
      expect(ran.outputs.join("")).not.toContain(secret);
    });
  });
}
