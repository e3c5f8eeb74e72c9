/**
 * The seventh red team (issue 14): hostile inputs to the host-side steps, written from the source without reading
 * the earlier waves' cases. Every case of `redteam7-cases.json` runs through the function its pipeline calls, in a
 * child process of its own (`redteam7-step.ts`) that the test kills past a wall-clock limit and measures by host
 * CPU; a CI log also goes through the real `retrace parse-log` process. Each case must end within its CPU bound
 * with the outcome the JSON names (read, refused, clamped, or stopped with the reason), the marker file outside
 * Retrace's directories must never appear, and the host's token never reaches an output.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGS } from "./redteam7-logs.ts";

interface Case {
  id: string;
  surface: string;
  class: string;
  input: string;
  firstTry: string;
  /** What the step answers now (a regular expression over its outcome). */
  expect: string;
  /** Most host CPU the case may cost, in ms (default 6,000). */
  maxCpuMs?: number;
}

const HERE = path.dirname(new URL(import.meta.url).pathname);
const ROOT = path.resolve(HERE, "../../..");
const CASES = JSON.parse(readFileSync(path.join(HERE, "redteam7-cases.json"), "utf8")) as { cases: Case[] };
const MARKER = path.join("/var/tmp", `retrace-rt7-marker-${process.pid}`);
const TOKEN = `ghs_rt7${"S3cr3t".repeat(6)}`;
// The operator's knobs, lowered so the cases that hit the bound cost little; the defaults are larger, never absent.
const ENV = {
  ...process.env,
  GITHUB_TOKEN: TOKEN,
  ANTHROPIC_API_KEY: `sk-ant-${TOKEN}`,
  RETRACE_RT7_MARKER: MARKER,
  RETRACE_HOST_LIMITS: "logTimeMs=1000,logMsPerMb=250,parseTimeMs=1000",
};

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "retrace-rt7-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs a process with a wall-clock limit (killing its whole group past it); returns its output and CPU time. */
function run(
  command: string,
  args: string[],
  wallMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: ENV, cwd: ROOT, detached: true });
    let stdout = "";
    let stderr = "";
    let killed = false;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }, wallMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

describe("seventh red team: host-side steps", () => {
  it("lists at least 30 hostile inputs, each with its first-try outcome", () => {
    expect(CASES.cases.length).toBeGreaterThanOrEqual(30);
    for (const c of CASES.cases) {
      expect(c.firstTry, c.id).toMatch(/^(contained|escaped)/);
      expect(LOGS[c.id] !== undefined || !c.id.startsWith("log-"), c.id).toBe(true);
    }
  });

  it("every case ends within its host CPU bound, with its outcome, no marker and no secret", async () => {
    const r = await run(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [path.join(HERE, "redteam7-step.ts"), dir, ...CASES.cases.map((c) => c.id)],
      420_000,
    );
    expect(r.killed, `the step process was killed: ${r.stderr.slice(-400)}`).toBe(false);
    const seen = new Map<string, { cpuMs: number; outcome: string }>();
    const record = (stdout: string) => {
      for (const line of stdout.split("\n").filter(Boolean)) {
        const o = JSON.parse(line) as { id: string; cpuMs: number; outcome: string };
        seen.set(o.id, o);
      }
    };
    record(r.stdout);
    // A parse refused because the host gave it too little CPU (the busy-host answer, an infrastructure error about
    // the host) says nothing about the input: run those cases again, at most twice, and judge the last answer.
    for (let again = 0; again < 2; again++) {
      const busy = [...seen].filter(([, o]) => /too busy/.test(o.outcome)).map(([id]) => id);
      if (busy.length === 0) break;
      const rr = await run(
        path.join(ROOT, "node_modules/.bin/tsx"),
        [path.join(HERE, "redteam7-step.ts"), await mkdtemp(path.join(dir, "again-")), ...busy],
        420_000,
      );
      expect(rr.killed, `the step process was killed: ${rr.stderr.slice(-400)}`).toBe(false);
      expect(rr.stdout + rr.stderr).not.toContain(TOKEN);
      record(rr.stdout);
    }
    for (const c of CASES.cases) {
      const o = seen.get(c.id);
      expect(o, `${c.id} gave no answer: ${r.stderr.slice(-400)}`).toBeDefined();
      expect(o!.outcome, c.id).toMatch(new RegExp(c.expect));
      expect(o!.cpuMs, `${c.id}: ${o!.outcome}`).toBeLessThan(c.maxCpuMs ?? 6_000);
    }
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    expect(existsSync(MARKER)).toBe(false);
  }, 480_000);

  it("retrace parse-log refuses a log that outruns its time budget (exit 3, naming the limit), in bounded CPU", async () => {
    // A 14 MB one-line JUnit report costs about 1 s of CPU per MiB, past the lowered budget (1 s + 250 ms per MiB).
    const file = path.join(dir, "junit.log");
    await writeFile(file, LOGS["log-junit-one-line"]!());
    const r = await run(
      "/usr/bin/time",
      ["-f", "cpu %U %S", "node", path.join(ROOT, "bin/retrace.mjs"), "parse-log", file],
      180_000,
    );
    expect(r.killed).toBe(false);
    const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
    expect(Number(cpu?.[1]) + Number(cpu?.[2])).toBeLessThan(20);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /the log could not be read: the host stopped parsing it within its first \d+ lines/,
    );
    expect(r.stderr).toMatch(/RETRACE_HOST_LIMITS logTimeMs 1000 \+ logMsPerMb 250/);
    expect(r.stdout).toBe("");
    expect(existsSync(MARKER)).toBe(false);
  }, 200_000);
});
