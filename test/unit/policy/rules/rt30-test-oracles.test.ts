/**
 * Red team 30: what a test compares with, kept as data outside the test directories. Rewriting an ApprovalTests
 * `*.approved.txt` beside the code, or a root `fixtures/` expectation, to the buggy output made the test pass and the
 * gate allowed it. Such files are test files now (changed only with allowTestEdits); files merely named like them
 * (a `fixture.ts` module, `approval.ts`, a golden-ratio helper) stay the fix's.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { modify } from "../helpers.ts";

const refusedAsTest = (path: string) =>
  evaluatePatch(modify(path, "expected 1\n", "expected 2\n"), {}).violations.some(
    (v) => v.rule === "forbidden-paths" && /test file/.test(v.message),
  );

describe("test oracles outside the test directories (red team 30)", () => {
  it.each([
    "src/PricingChecks.Total.approved.txt",
    "src/PricingChecks.Total.received.txt",
    "Shop/Invoice.Render.approved.json",
    "fixtures/expected/render.json",
    "packages/ui/src/__fixtures__/button.html",
    "app/fixtures/users.yaml",
    "render/table.golden",
    "internal/printer/golden/struct.out",
    "tools/goldens/report.txt",
    "test-data/expected.csv",
    "pkg/test_data/out.txt",
    "src/__image_snapshots__/button-snap.txt",
  ])("%s is a test file", (path) => {
    expect(refusedAsTest(path)).toBe(true);
  });

  it.each([
    "src/fixture.ts",
    "src/fixtures.py",
    "src/approval.ts",
    "docs/approved-vendors.md",
    "lib/golden_ratio.js",
    "src/goldenPath.ts",
    "src/data/expected.ts",
  ])("%s stays the fix's", (path) => {
    expect(refusedAsTest(path)).toBe(false);
  });
});
