/**
 * The red-team harness (wave-harness.ts): a case whose step answered with Retrace's own "the host was too busy"
 * (a starved measurement that proves nothing about the input) runs once more alone after the groups, and its second
 * result is the one a wave asserts; a case busy twice keeps the busy answer, so it still fails.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runWave } from "./wave-harness.ts";

/** A step script answering busy for each id's first `busyTimes` runs (counted in a file), then contained. */
function fakeStep(busyTimes: Record<string, number>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "wave-harness-"));
  const step = path.join(dir, "step.ts");
  writeFileSync(
    step,
    `import { existsSync, readFileSync, writeFileSync } from "node:fs";
const busy: Record<string, number> = ${JSON.stringify(busyTimes)};
for (const id of process.argv.slice(3)) {
  const count = ${JSON.stringify(dir)} + "/" + id + ".count";
  const n = existsSync(count) ? Number(readFileSync(count, "utf8")) : 0;
  writeFileSync(count, String(n + 1));
  const outcome = n < (busy[id] ?? 0)
    ? "threw: the report's markdown could not be read because the host was too busy: it got 193 ms of CPU in 1550 ms, twice"
    : "unreadable: refused";
  console.log(JSON.stringify({ id, cpuMs: 10, outcome, contained: null }));
}
`,
  );
  return step;
}

describe("runWave", () => {
  it("runs a case the host starved once more alone, and keeps the first answer beside the second", async () => {
    const wave = await runWave({
      step: fakeStep({ "report-a": 1 }),
      ids: ["report-a", "report-b", "log-c"],
      env: {},
      tmpPrefix: "wave-harness-run-",
      groupTimeoutMs: () => 60_000,
    });
    expect(wave.results.get("report-a")).toMatchObject({ outcome: "unreadable: refused" });
    expect(wave.results.get("report-a")!.busyFirst).toMatch(/the host was too busy/);
    expect(wave.results.get("report-b")).toMatchObject({ outcome: "unreadable: refused" });
    expect(wave.results.get("report-b")!.busyFirst).toBeUndefined();
  }, 120_000);

  it("a case busy twice keeps the busy answer (the wave's assertion still fails on it)", async () => {
    const wave = await runWave({
      step: fakeStep({ "report-a": 2 }),
      ids: ["report-a"],
      env: {},
      tmpPrefix: "wave-harness-run-",
      groupTimeoutMs: () => 60_000,
    });
    expect(wave.results.get("report-a")!.outcome).toMatch(/^threw: .*the host was too busy/);
  }, 120_000);
});
