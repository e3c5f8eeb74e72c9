import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfigFile, loadConfigFromString, parseConfig } from "../../../src/config/load.ts";
import { defaultConfig, policyForFix, RetraceConfig } from "../../../src/config/schema.ts";
import { ConfigError } from "../../../src/core/errors.ts";

describe("config schema and loader", () => {
  it("an empty file is the default configuration, with every section filled", () => {
    const c = loadConfigFromString("");
    expect(c).toEqual(defaultConfig());
    expect(c.repro.label).toBe("needs-repro");
    expect(c.fix).toMatchObject({ checks: "all", maxAttempts: 3, lineageCap: 1 });
    expect(c.commands).toMatchObject({ repro: "/repro", autofix: "/autofix" });
    expect(c.policy.forbiddenPaths.ci).toContain(".github/**");
    // Unset: the host decides ($RETRACE_SANDBOX_IMAGE, else the driver default), so one config serves every host.
    expect(c.sandbox.image).toBeUndefined();
    expect(loadConfigFromString("# only a comment\n")).toEqual(c);
  });

  it("reads values and keeps defaults next to them", () => {
    const c = loadConfigFromString(
      "policy:\n  allowTestEdits: true\n  sizeCaps:\n    maxFiles: 3\nfix:\n  checks: [test, 'lint*']\nmodel:\n  escalateAfter: 1\n",
    );
    expect(c.policy.allowTestEdits).toBe(true);
    expect(c.policy.sizeCaps).toEqual({
      enabled: true,
      maxFiles: 3,
      maxChangedLines: 400,
      maxLineLength: 1000,
    });
    expect(c.fix.checks).toEqual(["test", "lint*"]);
    expect(c.model.escalateAfter).toBe(1);
  });

  it.each([
    ["policy:\n  sizeCaps:\n    maxFiles: 0\n", /policy\.sizeCaps\.maxFiles: .*>=1/],
    ["polcy:\n  allowTestEdits: true\n", /unknown field\(s\) `polcy`/],
    ["policy:\n  testBypass:\n    enabeld: false\n", /policy\.testBypass: unknown field\(s\) `enabeld`/],
    ["fix:\n  checks: []\n", /fix\.checks/],
    ["commands:\n  repro: repro\n", /commands\.repro: a slash command/],
    ["policy:\n  testFiles: [1]\n", /policy\.testFiles\[0\]: .*expected string/],
    ["- a\n- b\n", /must be a mapping/],
    ["policy: [\n", /not valid YAML \(line \d+, column \d+\)/],
    ["a: 1\na: 2\n", /not valid YAML/],
  ])("rejects %j naming the field and the problem", (text, message) => {
    expect(() => loadConfigFromString(text)).toThrow(ConfigError);
    expect(() => loadConfigFromString(text)).toThrow(message);
  });

  it("loads files; a missing file is an error unless optional", async () => {
    const dir = mkdtempSync(join(tmpdir(), "retrace-config-"));
    writeFileSync(join(dir, "r.yml"), "repro:\n  runs: 5\n");
    expect((await loadConfigFile(join(dir, "r.yml"))).repro.runs).toBe(5);
    await expect(loadConfigFile(join(dir, "missing.yml"))).rejects.toThrow(
      /cannot read .*missing\.yml: no such file/,
    );
    expect(await loadConfigFile(join(dir, "missing.yml"), { optional: true })).toEqual(defaultConfig());
  });

  it("says plainly why a file cannot be read, and keeps YAML errors to one sentence with the position", async () => {
    const dir = mkdtempSync(join(tmpdir(), "retrace-cfg-"));
    await expect(loadConfigFile(dir)).rejects.toThrow(/cannot read .*: it is a directory$/);
    expect(() => loadConfigFromString("policy: [\n", "bad.yml")).toThrow(
      /^bad\.yml is not valid YAML \(line 2, column 1\): .*end with a \]$/,
    );
  });

  it("parseConfig validates values that did not come from YAML (e.g. an artifact)", () => {
    expect(parseConfig(null)).toEqual(defaultConfig());
    expect(() => parseConfig({ limits: { usdPerDay: -1 } })).toThrow(/limits\.usdPerDay/);
  });

  it("fix.allowTestEdits overrides the policy's for fix jobs only when set", () => {
    const base = RetraceConfig.parse({ policy: { allowTestEdits: false } });
    expect(policyForFix(base).allowTestEdits).toBe(false);
    expect(policyForFix(RetraceConfig.parse({ fix: { allowTestEdits: true } })).allowTestEdits).toBe(true);
    expect(policyForFix(RetraceConfig.parse({ policy: { allowTestEdits: true } })).allowTestEdits).toBe(true);
  });
});
