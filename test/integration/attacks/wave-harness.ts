/**
 * The harness the eighth and later red-team waves share: every case id through the wave's step script
 * (`redteamN-step.ts <dir> <id>…`, one JSON result line per case on stdout) in child processes, grouped by the id's
 * first word, two groups at a time (the machine is shared), each group in a temporary directory of its own with the
 * wave's environment (a marker secret, the marker file's path, lowered host limits). What a wave asserts stays in
 * its test file.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

export type WaveResult = {
  id: string;
  cpuMs: number;
  outcome: string;
  contained: boolean | null;
  /** The first attempt's outcome, when it said the host was too busy and the case ran again alone. */
  busyFirst?: string;
};

/**
 * Retrace's own answer when a bounded step was starved of CPU twice (src/core/time-limit.ts, src/logs/budget.ts): an
 * infrastructure error that says the measurement proves nothing about the input and to run it again on a quieter
 * host. Two groups share the machine with a whole test suite in CI, so such a case runs once more, alone, after the
 * groups; its second result is the one asserted (a second "too busy" fails as before).
 */
const HOST_BUSY = /\bthe host was too busy\b/;

export interface Wave {
  results: Map<string, WaveResult>;
  /** Everything the steps printed (results and stderr), for the secret check. */
  outputs: string[];
}

/** The case ids a wave's cases file lists. */
export function waveCaseIds(casesFile: string): string[] {
  return (JSON.parse(readFileSync(casesFile, "utf8")) as { cases: { id: string }[] }).cases.map((c) => c.id);
}

export async function runWave(options: {
  step: string;
  ids: readonly string[];
  env: Record<string, string>;
  tmpPrefix: string;
  /** How long a group may run before it is killed (its cases then give no result and fail). */
  groupTimeoutMs: (group: readonly string[]) => number;
  /**
   * The process group a case runs in (default: its id's first word). Fewer groups start fewer processes, and the
   * cases of a group share the modules they load: a wave whose ids have many first words bounds its CPU so.
   */
  groupOf?: (id: string) => string;
}): Promise<Wave> {
  const wave: Wave = { results: new Map(), outputs: [] };
  const runGroup = (group: string[]) =>
    new Promise<void>((resolve) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), options.tmpPrefix));
      const child = spawn(TSX, [options.step, dir, ...group], {
        cwd: dir,
        env: { ...process.env, ...options.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        wave.outputs.push(String(d));
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), options.groupTimeoutMs(group));
      child.on("close", () => {
        clearTimeout(timer);
        wave.outputs.push(out);
        for (const line of out.split("\n").filter(Boolean)) {
          const r = JSON.parse(line) as WaveResult;
          wave.results.set(r.id, r);
          // Opt-in: every case's host CPU, to see which cases run close to their bound before a slower CI does.
          if (process.env.RETRACE_WAVE_CPU_LOG)
            appendFileSync(
              process.env.RETRACE_WAVE_CPU_LOG,
              `${JSON.stringify({ step: path.basename(options.step), id: r.id, cpuMs: r.cpuMs })}\n`,
            );
        }
        rmSync(dir, { recursive: true, force: true });
        resolve();
      });
    });
  const groups = new Map<string, string[]>();
  for (const id of options.ids) {
    const key = options.groupOf ? options.groupOf(id) : id.split("-")[0]!;
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  const queue = [...groups.values()];
  await Promise.all(
    [0, 1].map(async () => {
      for (let g = queue.shift(); g; g = queue.shift()) await runGroup(g);
    }),
  );
  const busy = [...wave.results.values()].filter((r) => HOST_BUSY.test(r.outcome));
  for (const first of busy) {
    await runGroup([first.id]);
    const again = wave.results.get(first.id);
    if (again && again !== first) again.busyFirst = first.outcome;
  }
  return wave;
}
