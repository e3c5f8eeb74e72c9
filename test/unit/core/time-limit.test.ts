import { describe, expect, it } from "vitest";
import { withinTimeLimit } from "../../../src/core/time-limit.ts";

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
