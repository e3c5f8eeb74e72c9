import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../../../src/fix/wilson.ts";

describe("wilsonInterval", () => {
  it("matches published values", () => {
    // 1 of 3: Wilson 95% = [0.0615, 0.7923] (e.g. Newcombe 1998, method 3).
    const i = wilsonInterval(1, 3);
    expect(i.estimate).toBeCloseTo(1 / 3, 10);
    expect(i.low).toBeCloseTo(0.0615, 3);
    expect(i.high).toBeCloseTo(0.7923, 3);
    // 0 of 10: [0, 0.2775].
    const z = wilsonInterval(0, 10);
    expect(z.low).toBe(0);
    expect(z.high).toBeCloseTo(0.2775, 3);
    // 3 of 3: [0.4385, 1].
    const all = wilsonInterval(3, 3);
    expect(all.low).toBeCloseTo(0.4385, 3);
    expect(all.high).toBe(1);
  });

  it("widens with the confidence level and stays inside [0, 1]", () => {
    const a = wilsonInterval(2, 5, 0.9);
    const b = wilsonInterval(2, 5, 0.99);
    expect(b.low).toBeLessThan(a.low);
    expect(b.high).toBeGreaterThan(a.high);
    for (let n = 1; n <= 12; n += 1) {
      for (let k = 0; k <= n; k += 1) {
        const i = wilsonInterval(k, n);
        expect(i.low).toBeGreaterThanOrEqual(0);
        expect(i.high).toBeLessThanOrEqual(1);
        expect(i.low).toBeLessThanOrEqual(k / n + 1e-12);
        expect(i.high).toBeGreaterThanOrEqual(k / n - 1e-12);
      }
    }
  });

  it("rejects impossible counts with a clear message", () => {
    expect(() => wilsonInterval(4, 3)).toThrow(/successes must be an integer in \[0, 3\]/);
    expect(() => wilsonInterval(0, 0)).toThrow(/trials must be a positive integer/);
    expect(() => wilsonInterval(1, 3, 0.42)).toThrow(/confidence must be one of/);
  });
});
