/**
 * A Python repository's own requirements (issue 15): `retrace verify` on a src-layout project whose tests
 * import a test extra (`freezegun`) and whose code imports a runtime dependency (`python-dateutil`), neither in
 * the sandbox image. Retrace reads pyproject.toml, installs the wheels from this machine's configured pip
 * mirror in the install container, puts them in the runs' user site with a `.pth` for `src/`, and VERIFIES
 * the fix. A requirement the index does not have, and a direct URL, are infrastructure errors that name it —
 * never a verdict. Real CLI, real Docker engine, the machine's pip configuration.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { describeDocker, sandboxImage } from "../../support/docker.ts";

const bin = new URL("../../../bin/retrace.mjs", import.meta.url).pathname;
const fixture = path.resolve("test/fixtures/repos/py-with-deps");
const tmp = mkdtempSync(path.join(tmpdir(), "retrace-py-deps-"));
const cache = path.join(tmp, "cache");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function repoFrom(name: string, edit: (dir: string) => void = () => {}): string {
  const dir = path.join(tmp, name);
  cpSync(fixture, dir, { recursive: true });
  rmSync(path.join(dir, "patches"), { recursive: true });
  edit(dir);
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.email=qa@example.com", "-c", "user.name=qa", "commit", "-qm", "init");
  return dir;
}

function verify(repo: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        bin,
        "verify",
        "--repo",
        repo,
        "--patch",
        path.join(fixture, "patches", "correct.diff"),
        "--test",
        "python3 -m pytest tests",
        "--runs",
        "1",
      ],
      {
        env: {
          ...process.env,
          RETRACE_SANDBOX_IMAGE: sandboxImage,
          RETRACE_CACHE_DIR: cache,
          ANTHROPIC_API_KEY: "",
        },
        timeout: 280_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describeDocker("verify: a Python repository's declared requirements", () => {
  it("installs the runtime and test requirements (wheels only), src layout importable: VERIFIED; the checkout is untouched", async () => {
    const repo = repoFrom("ok");
    const r = await verify(repo);
    expect(r.stdout, r.stderr).toMatch(/VERIFIED/);
    expect(r.code).toBe(0);
    // Progress names where the requirements came from and what was installed (the project itself left out).
    expect(r.stderr).toMatch(
      /pyproject\.toml \[project\] dependencies, pyproject\.toml \[project\.optional-dependencies\] tests/,
    );
    expect(r.stderr).toMatch(/freezegun==[\d.]+/);
    expect(r.stderr).toMatch(/python-dateutil==[\d.]+/);
    expect(r.stderr).not.toMatch(/sphinx/);
    expect(execFileSync("git", ["-C", repo, "status", "--porcelain"], { encoding: "utf8" })).toBe("");
    // The second job reuses the checked install.
    const again = await verify(repoFrom("ok-again"));
    expect(again.stdout, again.stderr).toMatch(/VERIFIED/);
    expect(again.stderr).toMatch(/Python package\(s\), cached/);
  }, 300_000);

  it("a requirement the index does not have: exit 3 naming it and the file, not REJECTED", async () => {
    const repo = repoFrom("absent", (dir) =>
      writeFileSync(path.join(dir, "requirements-test.txt"), "retrace-absent-package-zz>=1.0\n"),
    );
    const r = await verify(repo);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /cannot install the repository's Python requirements \(.*requirements-test\.txt\)/,
    );
    expect(r.stderr).toMatch(/retrace-absent-package-zz/);
    expect(r.stdout).not.toMatch(/REJECTED/);
  }, 300_000);

  it("a direct URL requirement is refused before pip runs, naming it", async () => {
    const repo = repoFrom("direct", (dir) => {
      const toml = readFileSync(path.join(dir, "pyproject.toml"), "utf8").replace(
        '"freezegun>=1.2"',
        '"freezegun @ http://127.0.0.1:9/freezegun-1.0.tar.gz"',
      );
      writeFileSync(path.join(dir, "pyproject.toml"), toml);
    });
    const r = await verify(repo);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/freezegun @ http:\/\/127\.0\.0\.1:9\/freezegun-1\.0\.tar\.gz/);
    expect(r.stderr).toMatch(/direct reference/);
    expect(r.stdout).not.toMatch(/REJECTED/);
  }, 120_000);
});
