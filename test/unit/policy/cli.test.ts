import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const fixtures = new URL("../../fixtures/patches/", import.meta.url).pathname;

async function retrace(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe("retrace policy", () => {
  it("exits 0 for an allowed patch", async () => {
    const r = await retrace("policy", join(fixtures, "good-fix.diff"));
    expect(r).toMatchObject({ code: 0, stdout: "allowed: no policy violations\n" });
  });

  it("exits 1 and lists `rule file:line message` for a blocked patch", async () => {
    const r = await retrace("policy", join(fixtures, "pytest-skip.diff"));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^test-bypass tests\/test_calc\.py:\d+ pytest skip \[pytest-skip\]/m);
    expect(r.stdout).toMatch(/blocked: 2 violation\(s\)/);
  });

  it("prints { allowed, violations } with --json", async () => {
    const r = await retrace("policy", join(fixtures, "symlink.diff"), "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      allowed: false,
      violations: [
        { rule: "symlinks", file: "src/link", line: null, message: expect.stringMatching(/symbolic link/) },
      ],
    });
  });

  it("applies the policy section of --config", async () => {
    const dir = mkdtempSync(join(tmpdir(), "retrace-policy-"));
    writeFileSync(
      join(dir, "retrace.yml"),
      "policy:\n  allowTestEdits: true\n  testBypass:\n    allow: [pytest-skip]\n",
    );
    const r = await retrace(
      "policy",
      join(fixtures, "pytest-skip.diff"),
      "--config",
      join(dir, "retrace.yml"),
    );
    expect(r).toMatchObject({ code: 0 });
  });

  it("exits 2 naming the problem for a missing patch or an invalid config", async () => {
    const missing = await retrace("policy", "/nonexistent/x.diff");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the patch \/nonexistent\/x\.diff: no such file/);
    const dir = mkdtempSync(join(tmpdir(), "retrace-policy-"));
    writeFileSync(join(dir, "bad.yml"), "policy:\n  sizeCaps:\n    maxFiles: many\n");
    const bad = await retrace("policy", join(fixtures, "good-fix.diff"), "--config", join(dir, "bad.yml"));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/policy\.sizeCaps\.maxFiles: .*expected number/);
    const usage = await retrace("policy");
    expect(usage.code).toBe(2);
  });
});
