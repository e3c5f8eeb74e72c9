import { describe, expect, it } from "vitest";
import { withinCpuTimeLimit, withinTimeLimit } from "../../../src/core/time-limit.ts";

describe("withinTimeLimit", () => {
  it("returns the function's value when it finishes in time", () => {
    expect(withinTimeLimit(() => 6 * 7, 1000)).toEqual({ ok: true, value: 42 });
  });

  it("stops a catastrophic regular expression at the limit", () => {
    const started = performance.now();
    const r = withinTimeLimit(() => /^(a+)+$/.test(`${"a".repeat(40)}!`), 200);
    expect(r).toMatchObject({ ok: false, reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("reports a stack overflow as a value", () => {
    const deep = (n: number): number => deep(n + 1) + 1;
    expect(withinTimeLimit(() => deep(0), 5000)).toMatchObject({ ok: false, reason: "stack" });
  });

  it("nests: an inner bounded call does not disturb the outer one", () => {
    const r = withinTimeLimit(() => {
      const inner = withinTimeLimit(() => "inner", 1000);
      const innerTimeout = withinTimeLimit(() => /^(a+)+$/.test(`${"a".repeat(40)}!`), 100);
      return [inner, innerTimeout.ok, "outer"];
    }, 5000);
    expect(r).toEqual({ ok: true, value: [{ ok: true, value: "inner" }, false, "outer"] });
    // And the next call still runs its own function, not a leftover one.
    expect(withinTimeLimit(() => "next", 1000)).toEqual({ ok: true, value: "next" });
  });

  it("passes an ordinary exception through", () => {
    expect(() =>
      withinTimeLimit(() => {
        throw new TypeError("boom");
      }, 1000),
    ).toThrow("boom");
  });
});

/** Blocks this thread for `ms` without using CPU: a host too busy to run it, as the call sees it. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe("withinCpuTimeLimit", () => {
  it("a call that waited for the host, not spent CPU, runs again with the time its CPU limit takes at that pace", () => {
    let calls = 0;
    const r = withinCpuTimeLimit(() => {
      calls++;
      stall(300);
      return "read";
    }, 100);
    expect(r).toEqual({ ok: true, value: "read" });
    expect(calls).toBe(2);
  });

  it("a call that keeps spending CPU is refused, its CPU bounded by the limit and the second try's cap", () => {
    // On an idle host it is stopped on the first try (it used its limit in CPU); on a busy one it may get the
    // second, paced try: either way it ends refused, and what it spent is bounded.
    let calls = 0;
    const cpuFrom = process.cpuUsage();
    const r = withinCpuTimeLimit(
      () => {
        calls++;
        for (;;) Math.sqrt(performance.now());
      },
      150,
      4,
    );
    const used = process.cpuUsage(cpuFrom);
    expect(r).toMatchObject({ ok: false, reason: "timeout" });
    expect(calls).toBeLessThanOrEqual(2);
    expect((used.user + used.system) / 1000).toBeLessThan(150 * 5 + 500);
  });

  it("the second try has at most maxWallFactor times the limit", () => {
    let calls = 0;
    const r = withinCpuTimeLimit(
      () => {
        calls++;
        stall(1_000);
        return "never in time";
      },
      100,
      3,
    );
    expect(r).toMatchObject({ ok: false, reason: "timeout" });
    expect(calls).toBe(2);
  });
});
