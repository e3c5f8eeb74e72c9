/**
 * A patched run stopped at the sandbox's time limit: re-run once with twice the time; the patch is blamed only
 * when the run, stopped again, lasted HANG_FACTOR times the base's full run; otherwise an infrastructure error
 * says which limit to raise. Never a REJECTED verdict because the machine was slow.
 */
import { describe, expect, it } from "vitest";
import { InfrastructureError } from "../../../src/core/errors.ts";
import { baseFullRunMs, HANG_FACTOR, judgeTimeout, verifyPatch } from "../../../src/fix/verify.ts";
import type { SandboxRunRequest } from "../../../src/core/ports/sandbox.ts";
import { fakeSandbox, type ScriptedRun, tapReport } from "../../support/fake-sandbox.ts";
import { memoryWorkspace } from "../../support/memory-workspace.ts";

import { command, files, fix, policy } from "../../support/calc-repo.ts";
const base = (ms: number): ScriptedRun => ({
  exitCode: 1,
  durationMs: ms,
  report: tapReport({ adds: "failed", subtracts: "passed" }),
});
const fixed: ScriptedRun = {
  exitCode: 0,
  durationMs: 20_000,
  report: tapReport({ adds: "passed", subtracts: "passed" }),
};
const stopped = (ms: number): ScriptedRun => ({ exitCode: null, stoppedBy: "timeout", durationMs: ms });

/**
 * The scripted runs of each kind of request, in the order that kind is asked for: the full patched run starts
 * beside the narrowed one, so the order across kinds is not fixed.
 */
interface ByKind {
  base: ScriptedRun[];
  narrowed: ScriptedRun[];
  full: ScriptedRun[];
}
const kindOf = (q: SandboxRunRequest) =>
  q.input?.files === undefined
    ? "base"
    : /--test-name-pattern/.test(q.command.join(" "))
      ? "narrowed"
      : "full";
const verify = (script: ScriptedRun[] | ByKind) => {
  const queues = Array.isArray(script) ? null : { ...script, seen: { base: 0, narrowed: 0, full: 0 } };
  const fake = fakeSandbox(
    queues === null
      ? (script as ScriptedRun[])
      : (q) => {
          const kind = kindOf(q);
          const next = queues[kind][queues.seen[kind]++];
          if (!next) throw new Error(`no scripted ${kind} run #${queues.seen[kind]}`);
          return next;
        },
  );
  const result = verifyPatch({
    workspace: memoryWorkspace(files),
    sandbox: fake,
    patch: fix,
    policy,
    testCommand: command,
    jobId: "j",
    antiGaming: false,
    limits: { timeoutMs: 600_000 },
  });
  return { result, requests: fake.requests };
};

describe("judgeTimeout", () => {
  it("blames the patch only at HANG_FACTOR times the base's full run or more", () => {
    expect(HANG_FACTOR).toBe(10);
    expect(judgeTimeout(60_000, [600_000, 1_200_000]).blame).toBe("patch");
    expect(judgeTimeout(120_000, [600_000, 1_200_000]).blame).toBe("patch");
    expect(judgeTimeout(121_000, [600_000, 1_200_000]).blame).toBe("environment");
    expect(judgeTimeout(300_000, [600_000, 1_200_000])).toEqual({
      blame: "environment",
      detail: "stopped after 600 s, then 1200 s; the base's full run took 300 s (4.0x)",
    });
  });

  it("without a complete base run there is nothing to compare with: the environment", () => {
    expect(judgeTimeout(null, [600_000, 1_200_000]).blame).toBe("environment");
  });

  it("the base's time is the median of its complete full runs, narrowed repeats left out", () => {
    const run = (ms: number, extra: object = {}) =>
      ({ durationMs: ms, complete: true, tests: [], ...extra }) as never;
    expect(baseFullRunMs([run(10), run(30), run(20)])).toBe(20);
    expect(baseFullRunMs([run(10), run(1, { only: ["a"] })])).toBe(10);
    expect(baseFullRunMs([run(10, { complete: false })])).toBeNull();
  });
});

describe("verifyPatch: a patched run stopped at the time limit", () => {
  it("is run again with twice the time; when that completes it is the evidence, and later patched runs keep the limit", async () => {
    // base full, base narrowed repeat; patched narrowed (stopped) and its re-run; the full patched run made beside
    // the narrowed one with the old limit (cancelled: it is made afresh), then with the raised one.
    const { result, requests } = verify({
      base: [base(30_000), base(5_000)],
      narrowed: [stopped(600_000), fixed],
      full: [fixed, fixed],
    });
    const r = await result;
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    const narrowed = requests.filter((q) => kindOf(q) === "narrowed");
    const full = requests.filter((q) => kindOf(q) === "full");
    expect(narrowed.map((q) => q.limits?.timeoutMs)).toEqual([600_000, 1_200_000]);
    expect(full.map((q) => q.limits?.timeoutMs)).toEqual([600_000, 1_200_000]);
    expect(full[0]!.signal?.aborted).toBe(true);
    // The re-run is the same narrowed command as the run it replaces.
    const shape = (q: SandboxRunRequest) => q.command.join(" ").replace(/report-[0-9a-f]+/, "report-N");
    expect(shape(narrowed[1]!)).toBe(shape(narrowed[0]!));
    expect(shape(narrowed[1]!)).toContain("--test-name-pattern='^(?:adds)$'");
    expect(r.runs.filter((x) => x.phase === "patched").map((x) => x.stoppedBy)).toEqual([null, null]);
  });

  it("stopped again, at 10x the base's full run or more: the patch makes it hang — REJECTED with that reason", async () => {
    const { result } = verify({
      base: [base(30_000), base(5_000)],
      narrowed: [stopped(600_000), stopped(1_200_000)],
      full: [fixed],
    });
    const r = await result;
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.join("\n")).toMatch(
      /the patch makes the run hang: stopped after 600 s, then 1200 s; the base's full run took 30 s \(40\.0x\)/,
    );
  });

  it("stopped again, under 10x the base's full run: an infrastructure error naming the limit, no verdict", async () => {
    const { result } = verify({
      base: [base(300_000), base(200_000)],
      narrowed: [stopped(600_000), stopped(1_200_000)],
      full: [fixed],
    });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /reached the sandbox's time limit twice \(stopped after 600 s, then 1200 s; the base's full run took 300 s \(4\.0x\)\)/,
    );
    expect((error as InfrastructureError).hint).toMatch(/--timeout SECONDS, or sandbox\.limits\.timeoutMs/);
  });

  it("a base run stopped at the limit twice is still an infrastructure error, never re-judged as the patch's", async () => {
    const { result, requests } = verify({
      base: [stopped(600_000), stopped(1_200_000)],
      narrowed: [],
      full: [],
    });
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /did not finish on the unchanged base: it reached the sandbox's time limit after 600 s, and again after 1200 s with twice the time/,
    );
    expect((error as InfrastructureError).hint).toMatch(/--timeout SECONDS, or sandbox\.limits\.timeoutMs/);
    // Once more with twice the time, then no further run: no patched run is made against a base with no results.
    expect(requests.map((q) => [kindOf(q), q.limits?.timeoutMs])).toEqual([
      ["base", 600_000],
      ["base", 1_200_000],
    ]);
  });

  it("a base run stopped at the limit that completes with twice the time is the base; later runs keep that limit (hold14: jest cold start under load)", async () => {
    const { result, requests } = verify({
      base: [stopped(600_000), base(700_000), base(5_000)],
      narrowed: [fixed],
      full: [fixed],
    });
    const r = await result;
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    const limits = (kind: string) =>
      requests.filter((q) => kindOf(q) === kind).map((q) => q.limits?.timeoutMs);
    expect(limits("base")).toEqual([600_000, 1_200_000, 1_200_000]);
    expect(limits("narrowed")).toEqual([1_200_000]);
    expect(limits("full")).toEqual([1_200_000]);
    // The stopped run is not evidence: the base's runs are the completed ones.
    expect(r.runs.filter((x) => x.phase === "base").map((x) => x.stoppedBy)).toEqual([null, null]);
  });
});

describe("verifyPatch: the base's repeats run alongside the first patched run, and the full patched run beside them", () => {
  it("all three start before any ends; the verdict and the run order are as if sequential", async () => {
    const fake = fakeSandbox([base(30_000), base(5_000), fixed, fixed]);
    const events: string[] = [];
    const sandbox = {
      async run(request: Parameters<typeof fake.run>[0]) {
        const n = fake.requests.length + 1;
        events.push(`start ${n}`);
        const result = await fake.run(request);
        await new Promise((r) => setTimeout(r, 30));
        events.push(`end ${n}`);
        return result;
      },
    };
    const r = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
      antiGaming: false,
    });
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    expect(events.slice(0, 5)).toEqual(["start 1", "end 1", "start 2", "start 3", "start 4"]);
    expect(fake.requests[2]!.command.join(" ")).toMatch(/--test-name-pattern/);
    expect(fake.requests[3]!.command.join(" ")).not.toMatch(/--test-name-pattern/);
    expect(r.runs.map((x) => `${x.phase}${x.index}`)).toEqual(["base1", "base2", "patched1", "patched2"]);
  });

  it("a base repeat that did not complete: no further patched run, and the verdict says why", async () => {
    const incomplete: ScriptedRun = { exitCode: 0, durationMs: 5_000, report: tapReport({ adds: "failed" }) };
    const { sandbox, requests } = fakeSandbox([base(30_000), incomplete, fixed]);
    const r = await verifyPatch({
      workspace: memoryWorkspace(files),
      sandbox,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
      antiGaming: false,
    });
    expect(r.verdict).toBe("REJECTED");
    // At most the patched run that ran alongside the repeat (here the repeat ended first: none).
    expect(requests.length).toBeLessThanOrEqual(3);
    expect(r.runs.filter((x) => x.phase === "patched").length).toBeLessThanOrEqual(1);
    expect(r.reasons.join("\n")).toMatch(/base run 2 did not complete/);
  });
});

describe("verifyPatch: the anti-gaming run", () => {
  it("starts with the patched runs (once the base's failing tests are known), beside the narrowed and the full one", async () => {
    const script = [base(30_000), base(5_000), fixed, fixed];
    const events: string[] = [];
    const hostnames: Record<string, string | undefined> = {};
    const prepared: Array<[number, string | undefined]> = [];
    let n = 0;
    const sandbox = {
      prepare(request: { hostname?: string }, count: number) {
        prepared.push([count, request.hostname]);
      },
      async run(request: { command: string[]; collect?: string[]; hostname?: string }) {
        const isTestRun = /^node --test /.test(request.command[2] ?? "");
        const k = isTestRun ? ++n : 0;
        const label = isTestRun ? `run ${k}` : "anti-gaming";
        hostnames[label] = request.hostname;
        events.push(`start ${label}`);
        await new Promise((r) => setTimeout(r, 30));
        events.push(`end ${label}`);
        const step = isTestRun ? script[k - 1]! : { exitCode: 1, durationMs: 10 };
        const files: Record<string, Uint8Array> = {};
        const wanted = request.collect?.[0];
        if (wanted !== undefined && "report" in step && step.report !== undefined)
          files[wanted] = new TextEncoder().encode(step.report);
        return {
          exitCode: step.exitCode ?? 0,
          signal: null,
          stdout: "",
          stderr: "",
          stdoutTruncated: false,
          stderrTruncated: false,
          durationMs: step.durationMs ?? 10,
          stoppedBy: null,
          files,
        };
      },
    };
    const out = await verifyPatch({
      workspace: memoryWorkspace({
        ...files,
        "test/calc.test.js":
          'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add, sub } = require("../src/calc.js");\ntest("adds", () => {\n  assert.strictEqual(add(2, 3), 5);\n});\ntest("subtracts", () => {\n  assert.strictEqual(sub(3, 2), 1);\n});\n',
      }),
      sandbox: sandbox as never,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    }).catch((e: unknown) => e);
    expect(out).toHaveProperty("runs");
    const i = events.indexOf("start anti-gaming");
    expect(i, events.join(", ")).toBeGreaterThan(events.indexOf("end run 1"));
    expect(i).toBeLessThan(events.indexOf("end run 3"));
    expect(i).toBeLessThan(events.indexOf("end run 4"));
    // hold9: the anti-gaming run alone has a machine's host name (the others keep the container id's), and its
    // container is made ready under that name.
    const host = hostnames["anti-gaming"];
    expect(host).toMatch(/^(dev|ws|desk|laptop)-[0-9a-f]{4}$/);
    expect(["run 1", "run 2", "run 3", "run 4"].map((k) => hostnames[k])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(prepared).toEqual([
      [2, undefined],
      [2, undefined],
      [1, host],
    ]);
  });

  it("is cancelled and left out when the narrowed patched run rejects the patch", async () => {
    const signals: { kind: string; signal: AbortSignal | undefined }[] = [];
    const script = [base(30_000), base(5_000), base(5_000), fixed];
    let n = 0;
    const fake = fakeSandbox((request) => {
      const isTestRun = /^node --test /.test(request.command[2] ?? "");
      signals.push({ kind: isTestRun ? "test" : "anti-gaming", signal: request.signal });
      return isTestRun ? script[n++]! : { exitCode: 1, durationMs: 10 };
    });
    const r = await verifyPatch({
      workspace: memoryWorkspace({
        ...files,
        "test/calc.test.js":
          'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add, sub } = require("../src/calc.js");\ntest("adds", () => {\n  assert.strictEqual(add(2, 3), 5);\n});\ntest("subtracts", () => {\n  assert.strictEqual(sub(3, 2), 1);\n});\n',
      }),
      sandbox: fake,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
    });
    expect(r.verdict).toBe("REJECTED");
    expect(r.antiGaming).toBeNull();
    const ag = signals.filter((x) => x.kind === "anti-gaming");
    expect(ag.length).toBeGreaterThan(0);
    expect(ag.every((x) => x.signal?.aborted)).toBe(true);
    expect(r.runs.map((x) => `${x.phase}${x.index}`)).toEqual(["base1", "base2", "patched1"]);
  });
});

describe("verifyPatch: the anti-gaming run stopped at the time limit gets the same rule", () => {
  const testFile =
    'const test = require("node:test");\nconst assert = require("node:assert");\nconst { add, sub } = require("../src/calc.js");\ntest("adds", () => {\n  assert.strictEqual(add(2, 3), 5);\n});\ntest("subtracts", () => {\n  assert.strictEqual(sub(3, 2), 1);\n});\n';
  /** Test runs follow `script`; anti-gaming runs (the moved-repository script) follow `ag`. */
  const verifyWith = (script: ScriptedRun[], ag: ScriptedRun[]) => {
    let t = 0;
    let a = 0;
    const fake = fakeSandbox((request) =>
      /^mkdir -p "\$HOME"/.test(request.command[2] ?? "") ? ag[a++]! : script[t++]!,
    );
    const result = verifyPatch({
      workspace: memoryWorkspace({ ...files, "test/calc.test.js": testFile }),
      sandbox: fake,
      patch: fix,
      policy,
      testCommand: command,
      jobId: "j",
      limits: { timeoutMs: 600_000 },
    });
    const agLimits = () =>
      fake.requests
        .filter((q) => /^mkdir -p "\$HOME"/.test(q.command[2] ?? ""))
        .map((q) => q.limits?.timeoutMs);
    return { result, agLimits };
  };

  it("stopped twice, at 10x the base's full run or more: REJECTED, the patched code hangs in neutral surroundings", async () => {
    const { result, agLimits } = verifyWith(
      [base(30_000), base(5_000), fixed, fixed],
      [stopped(600_000), stopped(1_200_000)],
    );
    const r = await result;
    expect(r.verdict).toBe("REJECTED");
    expect(r.reasons.join("\n")).toMatch(
      /neutral run: the patched code hangs when the previously failing tests run in neutral surroundings: stopped after 600 s, then 1200 s; the base's full run took 30 s \(40\.0x\)/,
    );
    // Run once more with twice the time, and no third run to confirm a hang judged on two.
    expect(agLimits()).toEqual([600_000, 1_200_000]);
  });

  it("stopped twice, under 10x the base's full run: an infrastructure error naming the limit, no verdict", async () => {
    const { result } = verifyWith(
      [base(300_000), base(200_000), fixed, fixed],
      [stopped(600_000), stopped(1_200_000)],
    );
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /the anti-gaming run of the previously failing tests reached the sandbox's time limit twice \(stopped after 600 s, then 1200 s; the base's full run took 300 s \(4\.0x\)\)/,
    );
    expect((error as InfrastructureError).hint).toMatch(/--timeout SECONDS/);
  });

  it("done with twice the time: that run is the anti-gaming run; a time limit alone never rejects", async () => {
    const { result, agLimits } = verifyWith(
      [base(30_000), base(5_000), fixed, fixed],
      [stopped(600_000), { exitCode: 1, durationMs: 700_000 }],
    );
    const r = await result;
    expect(r.verdict, r.reasons.join("; ")).toBe("VERIFIED");
    expect(agLimits()).toEqual([600_000, 1_200_000]);
    expect(r.reasons.join("\n")).not.toMatch(/sandbox stopped/);
  });

  it("stopped by the memory limit: an infrastructure error at once, naming the limit, never a verdict", async () => {
    const oom: ScriptedRun = { exitCode: null, stoppedBy: "memory_limit", durationMs: 5_000 };
    const { result, agLimits } = verifyWith([base(30_000), base(5_000), fixed, fixed], [oom, oom]);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /an anti-gaming run of `.*` was killed for reaching the sandbox's memory limit/,
    );
    expect((error as InfrastructureError).hint).toMatch(/sandbox\.limits\.memoryMb/);
    expect(agLimits()).toHaveLength(1);
  });

  it("stopped by another limit (output) twice with nothing found: an infrastructure error, never VERIFIED (hold5)", async () => {
    const capped: ScriptedRun = { exitCode: null, stoppedBy: "output_limit", durationMs: 5_000 };
    const { result, agLimits } = verifyWith([base(30_000), base(5_000), fixed, fixed], [capped, capped]);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(
      /the anti-gaming run was stopped by the sandbox twice \(output_limit, then output_limit\): its checks could not be made/,
    );
    expect(agLimits()).toHaveLength(2);
  });
});
