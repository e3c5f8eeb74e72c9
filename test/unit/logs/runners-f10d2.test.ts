/**
 * Log shapes from the dev half's misses left after f10c (issue 10, branch f10d, second pass), each read by a general
 * rule, each with a case where it must not fire. The logs are written here, not copied from the corpus.
 */
import { describe, expect, it } from "vitest";
import { parseLog } from "../../../src/logs/index.ts";

const ids = (log: string) => parseLog(log).failures.map((f) => f.test);
const places = (log: string) => parseLog(log).failures.map((f) => [f.test, f.file, f.line]);
const lines = (...l: string[]) => l.join("\n");

describe("Playwright behind a turborepo task prefix, the paste starting inside a cut block", () => {
  const turbo = (frame: string) =>
    lines(
      ...[
        frame,
        "",
        "    Error Context: test-results/kiln-glaze-chromium/error-context.md",
        "",
        "  2) [webkit] › e2e/kiln/glaze.spec.ts:9:3 › Glaze › fires evenly ─────────────────────────",
        "",
        "    Error: expect(locator).toHaveText(expected) failed",
        "",
        '    Expected: "even"',
        '    Received: "patchy"',
        "",
      ].map((l) => `@pottery/studio:test: ${l}`),
    );

  it("takes the spec's repository path from a frame above the first header, under the workspace directory", () => {
    expect(ids(turbo("        at studio-checkout/packages/studio/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "packages/studio/e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
  });
  it("keeps a frame's leading directories that are no checkout above a workspace directory", () => {
    expect(ids(turbo("        at web/tests/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "web/tests/e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
    expect(ids(turbo("        at home/ci/packages/studio/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "home/ci/packages/studio/e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
  });
  it("does not take a frame of another file, or one under node_modules", () => {
    expect(ids(turbo("        at studio-checkout/packages/studio/e2e/kiln/clay.spec.ts:14:7"))).toEqual([
      "e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
    expect(ids(turbo("        at node_modules/x/packages/studio/e2e/kiln/glaze.spec.ts:14:7"))).toEqual([
      "e2e/kiln/glaze.spec.ts > Glaze > fires evenly",
    ]);
  });
});
