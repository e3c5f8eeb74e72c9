/**
 * Test ids are cut where they are made (red team 24; wave 22's 8 MiB name came back as a 16,377-character id):
 * at most MAX_TEST_ID characters, with a marker saying how long the name was, the same for a test's result and its
 * failure, never half a surrogate pair.
 */
import { describe, expect, it } from "vitest";
import { boundTestId, MAX_TEST_ID } from "../../../src/logs/engine.ts";
import { parseLog } from "../../../src/logs/index.ts";

describe("test ids are bounded where they are made", () => {
  it("keeps a short id as it is and cuts a long one with a marker", () => {
    expect(boundTestId("tests/test_a.py::test_x")).toBe("tests/test_a.py::test_x");
    const cut = boundTestId(`t::${"n".repeat(100_000)}`);
    expect(cut.length).toBeLessThanOrEqual(MAX_TEST_ID);
    expect(cut).toMatch(/…\[test id cut: 100003 characters\]$/);
    const astral = boundTestId("😀".repeat(10_000));
    expect(astral.length).toBeLessThanOrEqual(MAX_TEST_ID);
    expect(astral).not.toMatch(/[\ud800-\udbff]…/);
  });

  it("gives a pytest failure of an 8 MiB name a bounded id, the same in its failure and its result", () => {
    const r = parseLog(
      `FAILED tests/test_a.py::test_${"n".repeat(8 << 20)} - assert 1 == 2\n=== 1 failed in 0.1s ===\n`,
    );
    expect(r.failures).toHaveLength(1);
    const id = r.failures[0]!.test!;
    expect(id.length).toBeLessThanOrEqual(MAX_TEST_ID);
    expect(id).toMatch(/^tests\/test_a\.py::test_n+…\[test id cut: \d+ characters\]$/);
    for (const t of r.tests ?? []) expect(t.id.length).toBeLessThanOrEqual(MAX_TEST_ID);
  });
});
