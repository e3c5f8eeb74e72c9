/**
 * The seventh red team's first-try runner (how `redteam7-results.md` was measured): every case, or the ids given,
 * each in its own process under `timeout -s KILL 150 prlimit --cpu=10 /usr/bin/time`, one JSON line per case.
 * `RT7_ROOT` names the checkout to attack (default: this one); copy this file, `redteam7-step.ts` and
 * `redteam7-logs.ts` into a checkout of an older commit to measure it.
 *   RETRACE_CLI_FROM_SOURCE=1 npx tsx test/integration/attacks/redteam7-run.ts [id…]
 */
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LOGS } from "./redteam7-logs.ts";
const root =
  process.env.RT7_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");
const MARKER = "/var/tmp/retrace-rt7-marker";
const only = process.argv.slice(2);
const cases = JSON.parse(
  readFileSync(path.join(root, "test/integration/attacks/redteam7-cases.json"), "utf8"),
) as { cases: { id: string }[] };
const stepIds = cases.cases.map((c) => c.id).filter((id) => !(id in LOGS));
const env = {
  ...process.env,
  GITHUB_TOKEN: "ghs_rt7secretTOKEN0123456789abcdefABCDEF",
  RETRACE_RT7_MARKER: MARKER,
};
for (const id of [...Object.keys(LOGS), ...stepIds]) {
  if (only.length && !only.includes(id)) continue;
  const dir = mkdtempSync(path.join(os.tmpdir(), "rt7-"));
  const t = Date.now();
  let r: SpawnSyncReturns<string>;
  if (id in LOGS) {
    const f = path.join(dir, "ci.log");
    writeFileSync(f, LOGS[id]!());
    r = spawnSync(
      "timeout",
      [
        "-s",
        "KILL",
        "150",
        "prlimit",
        "--cpu=10",
        "/usr/bin/time",
        "-f",
        "%U %S %M",
        "node",
        `${root}/bin/retrace.mjs`,
        "parse-log",
        f,
        "--json",
      ],
      { env, timeout: 240_000, encoding: "utf8", maxBuffer: 1 << 30, killSignal: "SIGKILL" },
    );
  } else {
    r = spawnSync(
      "timeout",
      [
        "-s",
        "KILL",
        "150",
        "prlimit",
        "--cpu=10",
        "/usr/bin/time",
        "-f",
        "%U %S %M",
        `${root}/node_modules/.bin/tsx`,
        `${root}/test/integration/attacks/redteam7-step.ts`,
        dir,
        id,
      ],
      { env, timeout: 240_000, encoding: "utf8", maxBuffer: 1 << 30, killSignal: "SIGKILL" },
    );
  }
  const wall = Date.now() - t;
  const timeLine = (r.stderr ?? "").trim().split("\n").slice(-2).join(" | ").slice(-160);
  const out = r.stdout ?? "";
  const leak = out.includes("rt7secretTOKEN") || (r.stderr ?? "").includes("rt7secretTOKEN");
  const marker = existsSync(MARKER);
  const summary =
    id in LOGS
      ? (() => {
          try {
            const j = JSON.parse(out);
            return `failures ${j.failures?.length} tests ${j.tests?.length} lines ${j.lines}${j.stopped ? " stopped: " + JSON.stringify(j.stopped).slice(0, 120) : ""}`;
          } catch {
            return out.slice(0, 150) + " | " + (r.stderr ?? "").slice(0, 200);
          }
        })()
      : out.trim().slice(0, 220);
  console.log(
    JSON.stringify({
      id,
      wallMs: wall,
      killed: r.signal ?? null,
      status: r.status,
      time: timeLine,
      marker,
      leak,
      summary,
    }),
  );
  if (marker) rmSync(MARKER);
  rmSync(dir, { recursive: true, force: true });
}
