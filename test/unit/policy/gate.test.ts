import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.ts";
import { evaluatePatch, formatViolation } from "../../../src/policy/index.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/patches/${name}`, import.meta.url), "utf8");

describe("evaluatePatch", () => {
  it.each(["good-fix.diff", "good-fix-crlf.diff", "format-patch.patch"])("allows the real fix %s", (name) => {
    expect(evaluatePatch(fixture(name))).toEqual({ allowed: true, violations: [] });
  });

  it.each([
    ["rename-onto-ci.diff", ["forbidden-paths"]],
    ["symlink.diff", ["symlinks"]],
    ["mode-change.diff", ["mode-changes"]],
    ["git-binary-patch.diff", ["binary-files"]],
    // The fixture's gitlink is `vendor/lib`: a vendored dependency tree too since red team 25.
    ["submodule.diff", ["dependency-changes", "submodules"]],
    ["pytest-skip.diff", ["forbidden-paths", "test-bypass"]],
    ["delete-test.diff", ["forbidden-paths", "deletions", "weakened-tests"]],
  ])("blocks %s for %j", (name, rules) => {
    const result = evaluatePatch(fixture(name));
    expect(result.allowed).toBe(false);
    expect([...new Set(result.violations.map((v) => v.rule))].sort()).toEqual([...rules].sort());
  });

  it("blocks a patch that does not parse, with the reason", () => {
    const r = evaluatePatch("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n");
    expect(r.allowed).toBe(false);
    expect(r.violations).toEqual([
      {
        rule: "unparseable",
        file: null,
        line: 3,
        message: expect.stringMatching(/^the patch does not parse: .*ends early/),
      },
    ]);
  });

  it("throws a ConfigError naming the field of an invalid policy", () => {
    expect(() => evaluatePatch(fixture("good-fix.diff"), { sizeCaps: { maxFiles: -1 } })).toThrow(
      ConfigError,
    );
    expect(() => evaluatePatch(fixture("good-fix.diff"), { sizeCaps: { maxFiles: -1 } })).toThrow(
      /policy\.sizeCaps\.maxFiles/,
    );
    expect(() => evaluatePatch(fixture("good-fix.diff"), { nope: true } as never)).toThrow(/nope/);
  });

  it("formats violations as `rule file:line message`", () => {
    expect(formatViolation({ rule: "suppressions", file: "a.ts", line: 3, message: "m" })).toBe(
      "suppressions a.ts:3 m",
    );
    expect(formatViolation({ rule: "size-caps", file: null, line: null, message: "m" })).toBe(
      "size-caps (patch) m",
    );
  });
});
