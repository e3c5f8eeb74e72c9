/**
 * Secrets in what a reported program prints never reach the CLI's outputs: stdout (report or --json), report.md,
 * the reproduction script and trace.json.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { describeDocker } from "../../support/docker.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-cli-redact-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Built at run time so this file holds no token-shaped literal.
const token = `ghp_${"A1b2C3d4E5".repeat(3)}abcdef`;
const issue = `# Token leaks into the error

\`\`\`python
raise ValueError("bad credentials: ${token}")
\`\`\`

### Actual

\`\`\`
ValueError: bad credentials: ${token}
\`\`\`
`;

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...process.env, ANTHROPIC_API_KEY: "" } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describeDocker("retrace repro redacts every output", () => {
  it("keeps a GitHub token out of stdout, --json and every file in --out", async () => {
    const file = path.join(tmp, "issue.md");
    writeFileSync(file, issue);
    const out = path.join(tmp, "out");
    const human = await run(["repro", file, "--offline", "--runs", "1", "--out", out]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("ValueError");
    const json = await run(["repro", file, "--offline", "--runs", "1", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).verdict).toBe("REPRODUCED");
    const written = readdirSync(out).map((f) => readFileSync(path.join(out, f), "utf8"));
    expect(readdirSync(out).sort()).toEqual(["report.md", "reproduction.py", "trace.json"]);
    for (const text of [human.stdout, human.stderr, json.stdout, json.stderr, ...written]) {
      expect(text).not.toContain(token);
    }
  }, 60_000);
});
