/**
 * bin/retrace.mjs runs the compiled CLI when it is fresh and the sources through tsx otherwise: both must
 * behave the same. (`npm test` runs set-up first, which compiles the CLI.)
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { cliBuildIsFresh, cliEntry } from "../../../scripts/cli-build.mjs";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
function run(args: string[], fromSource: boolean): { out: string; code: number } {
  try {
    const out = execFileSync(process.execPath, [bin, ...args], {
      env: { ...process.env, RETRACE_CLI_FROM_SOURCE: fromSource ? "1" : "0" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { out, code: 0 };
  } catch (e) {
    const err = e as { stdout: string; stderr: string; status: number };
    return { out: err.stdout + err.stderr, code: err.status };
  }
}

const fresh = existsSync(cliEntry) && cliBuildIsFresh();

it("the compiled CLI and the sources give the same help and the same usage errors", (ctx) => {
  if (!fresh) {
    // `npm test` compiles it first; under CI the compiled path must be the one tested.
    if (process.env.CI === "true") expect.fail("build/cli is missing or stale: set-up must compile the CLI");
    ctx.skip("build/cli is stale: run `node scripts/setup.mjs` to compare it with the sources");
  }
  for (const args of [["--help"], ["policy", "--help"], ["policy", "/nonexistent.diff"], ["nope"]]) {
    const compiled = run(args, false);
    const source = run(args, true);
    expect(compiled).toEqual(source);
  }
  expect(run(["policy", "/nonexistent.diff"], false).code).toBe(2);
  // Nine CLI starts, four through tsx: 15 s on a quiet machine, 43 s in a fresh-clone CI run beside the suite.
}, 120_000);
